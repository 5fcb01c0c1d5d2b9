package pybridge

// Go side of exchange.c: the exchange API's allocator.

/*
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/cmem"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// mxgoExchangeAlloc makes a host array of dtype with the ndim dimensions at shape (which
// C has checked for a dtype mxgo has and 0 to MaxDims dimensions) and exports it into
// *out as a writable versioned tensor, the export's reference being its only one. It
// may run without the GIL: it touches nothing of Python's.
//
//export mxgoExchangeAlloc
func mxgoExchangeAlloc(dtype, ndim C.int32_t, shape *C.int64_t, out *unsafe.Pointer, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	dims := make([]int, int(ndim))
	for i, d := range int64s(shape, int(ndim)) {
		dims[i] = int(d)
	}
	a, err := ndarray.Empty(ndarray.DType(dtype), dims, device.Device{Type: device.CPU})
	if err != nil {
		return fastResult(err, msg)
	}
	defer a.Release()
	mt, err := dlpack.ExportVersioned(a, 0)
	if err == nil {
		cmem.StorePtr(unsafe.Pointer(out), mt)
	}
	return fastResult(err, msg)
}
