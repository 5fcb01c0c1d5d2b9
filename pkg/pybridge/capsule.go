package pybridge

// Go side of capsule.c: exports that need Go (a copy, pending engine work) and imports
// that C does not take alone. These run with the GIL held unless they wait.

/*
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/cmem"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/device/cuda"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// pendingWork is what mxgoFastExport returns when the array has engine work to wait
// for: the C side then releases the GIL, calls mxgoFastWait and tries again.
const pendingWork = -2

//export mxgoFastExport
func mxgoFastExport(h C.int64_t, versioned C.int, flags C.uint64_t, copy, forWrite C.int, stream C.int64_t, out *unsafe.Pointer, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err != nil {
		return fastResult(err, msg)
	}
	if a.Var().Pending(forWrite != 0) {
		return pendingWork
	}
	mt, err := exportArray(a, versioned != 0, uint64(flags), copy != 0)
	if err == nil && a.Device().Type == device.CUDA {
		// The consumer's stream waits for mxgo's work on the array (no host sync).
		if err = cuda.HandOff(a.Device().ID, int64(stream)); err != nil {
			dlpack.Discard(mt, versioned != 0)
			mt = nil
		}
	}
	cmem.StorePtr(unsafe.Pointer(out), mt)
	return fastResult(err, msg)
}

// exportArray exports a (a contiguous copy of it when copy is set) as a legacy or
// versioned DLPack tensor.
func exportArray(a *ndarray.NDArray, versioned bool, flags uint64, copy bool) (unsafe.Pointer, error) {
	if copy {
		c, err := contiguousCopy(a)
		if err != nil {
			return nil, err
		}
		defer c.Release() // the export holds its own reference
		a = c
	}
	if versioned {
		return dlpack.ExportVersioned(a, flags)
	}
	return dlpack.ExportLegacy(a)
}

// mxgoFastWait waits for the engine work an export must not overtake: pending writes of
// h, and its pending reads too when forWrite. The caller has released the GIL.
//
//export mxgoFastWait
func mxgoFastWait(h C.int64_t, forWrite C.int, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		if forWrite != 0 {
			err = ops.WaitToWrite(a)
		} else {
			err = ops.WaitToRead(a)
		}
	}
	return fastResult(err, msg)
}

// contiguousCopy copies a (whose pending writes are done) synchronously.
func contiguousCopy(a *ndarray.NDArray) (*ndarray.NDArray, error) {
	c, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
	if err != nil {
		return nil, err
	}
	if !a.Storage().OnHost() { // device memory: the device's copy, on the engine
		err = ops.Copy(c, a)
		if err == nil {
			err = ops.WaitToRead(c)
		}
	} else {
		err = ndarray.CopyInto(c, a)
	}
	if err != nil {
		c.Release()
		return nil, err
	}
	return c, nil
}

//export mxgoFastImport
func mxgoFastImport(mt unsafe.Pointer, versioned C.int, out *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	var a *ndarray.NDArray
	var err error
	if versioned != 0 {
		a, err = dlpack.ImportVersioned(mt)
	} else {
		a, err = dlpack.ImportLegacy(mt)
	}
	if err == nil {
		*out = C.int64_t(register(a))
		describe(a, d)
	}
	return fastResult(err, msg)
}
