package pybridge

/*
#include "bridge.h"
*/
import "C"

import (
	"encoding/json"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ndfile"
)

// Go owns the facts that C and Python also need. C's copies (fastpath.h) are checked
// here at compile time: an array type whose length is negative fails the build, so each
// pair holds only if they agree. Python reads Facts at import.
var (
	_ [C.MXGO_NKINDS - mxerr.NumKinds]struct{}
	_ [mxerr.NumKinds - C.MXGO_NKINDS]struct{}
	_ [C.MXGO_KIND_MXNET - mxerr.MXNet]struct{}
	_ [mxerr.MXNet - C.MXGO_KIND_MXNET]struct{}
	_ [C.MXGO_KIND_VALUE - mxerr.Value]struct{}
	_ [mxerr.Value - C.MXGO_KIND_VALUE]struct{}
	_ [C.MXGO_KIND_TYPE - mxerr.Type]struct{}
	_ [mxerr.Type - C.MXGO_KIND_TYPE]struct{}
	_ [C.MXGO_KIND_BUFFER - mxerr.Buffer]struct{}
	_ [mxerr.Buffer - C.MXGO_KIND_BUFFER]struct{}
	_ [C.MXGO_PENDING_WORK - pendingWork]struct{}
	_ [pendingWork - C.MXGO_PENDING_WORK]struct{}
	_ [C.MXGO_TAKE_OWNING - takeOwning]struct{}
	_ [takeOwning - C.MXGO_TAKE_OWNING]struct{}
	_ [C.MXGO_KEY_INT - ndarray.KeyInt]struct{}
	_ [ndarray.KeyInt - C.MXGO_KEY_INT]struct{}
	_ [C.MXGO_KEY_SLICE - ndarray.KeySlice]struct{}
	_ [ndarray.KeySlice - C.MXGO_KEY_SLICE]struct{}
	_ [C.MXGO_KEY_NEWAXIS - ndarray.KeyNewAxis]struct{}
	_ [ndarray.KeyNewAxis - C.MXGO_KEY_NEWAXIS]struct{}
	_ [C.MXGO_KEY_ELLIPSIS - ndarray.KeyEllipsis]struct{}
	_ [ndarray.KeyEllipsis - C.MXGO_KEY_ELLIPSIS]struct{}
)

// The device types mx.Context names (MXNet's three).
var contextDevices = []device.Type{device.CPU, device.CUDA, device.CUDAHost}

// Facts returns, as JSON, what Python derives from Go instead of keeping copies: the
// error kinds' exception names in kind order, the DLPack version, the device type code
// of each context name, the item size of each dtype in code order, and MXNet's type flag
// of each dtype name (pkg/ndfile's table).
func Facts() string {
	devices := map[string]device.Type{}
	for _, t := range contextDevices {
		devices[t.String()] = t
	}
	sizes := []int{}
	for _, dt := range ndarray.DTypes() {
		sizes = append(sizes, dt.Size())
	}
	b, _ := json.Marshal(map[string]any{ // strings, ints and their slices and maps always marshal
		"error_kinds":    mxerr.Names(),
		"dlpack_version": dlpack.Version,
		"device_types":   devices,
		"dtype_sizes":    sizes,
		"type_flags":     ndfile.TypeFlags(),
	})
	return string(b)
}

// Kernels returns, as JSON, which families of C kernels run on this machine (see
// internal/simd), so that tests can tell a build whose CPU detection is broken.
func Kernels() string {
	b, _ := json.Marshal(simd.Running()) // a map of bools always marshals
	return string(b)
}
