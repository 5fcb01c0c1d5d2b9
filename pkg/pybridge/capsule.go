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
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// pendingWork is what mxgoFastExport returns when the array has engine work to wait
// for: the C side then releases the GIL, calls mxgoFastWait and tries again.
const pendingWork = -2

//export mxgoFastExport
func mxgoFastExport(h C.int64_t, versioned C.int, flags C.uint64_t, copy, forWrite C.int, stream C.int64_t, toType, toID C.int32_t,
	out *unsafe.Pointer, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err != nil {
		return fastResult(err, msg)
	}
	if a.Var().Pending(forWrite != 0) {
		return pendingWork
	}
	to := a.Device()
	if toType != 0 {
		to = device.Device{Type: device.Type(toType), ID: int32(toID)}
	}
	mt, err := exportArray(a, versioned != 0, uint64(flags), copy != 0, to)
	if err == nil && to.Type == device.CUDA {
		// The consumer's stream waits for mxgo's work on the array (no host sync).
		if err = cuda.HandOff(to.ID, int64(stream)); err != nil {
			dlpack.Discard(mt, versioned != 0)
			mt = nil
		}
	}
	cmem.StorePtr(unsafe.Pointer(out), mt)
	return fastResult(err, msg)
}

// exportArray exports a as a legacy or versioned DLPack tensor on device to: a contiguous
// copy of it when copy is set or to is another device (flagged IS_COPIED), except that
// page-locked memory (cpu_pinned) is exported to the CPU as it is.
func exportArray(a *ndarray.NDArray, versioned bool, flags uint64, copy bool, to device.Device) (unsafe.Pointer, error) {
	if to != a.Device() && !(a.Device().Type == device.CUDAHost && to == device.Host) {
		copy = true // another device's memory: only a copy gets there
		if versioned {
			flags |= dlpack.FlagIsCopied
		}
	}
	if copy && to.Type != device.CPU { // a GPU's memory, or page-locked memory (gpu(0)'s)
		id := to.ID
		if to.Type == device.CUDAHost {
			id = 0
		}
		if err := cuda.CheckDevice(id); err != nil { // BufferError: the Array API's "cannot export there"
			return nil, mxerr.BufferErr("cannot export to %s: %v", to, err)
		}
	}
	if copy {
		c, err := copyOn(a, to)
		if err != nil {
			return nil, err
		}
		defer c.Release() // the export holds its own reference
		a = c
	}
	return dlpack.ExportAs(a, versioned, flags, to)
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

// copyOn makes a C-contiguous copy of a (whose pending writes are done) on dev, and
// waits for it.
func copyOn(a *ndarray.NDArray, dev device.Device) (*ndarray.NDArray, error) {
	c, err := ndarray.Empty(a.DType(), a.Shape(), dev)
	if err != nil {
		return nil, err
	}
	if !a.Storage().OnHost() || !c.Storage().OnHost() { // device memory: the device's copy, on the engine
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
