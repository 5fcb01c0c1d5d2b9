package pybridge

// Go side of fastpath.c. These run with the GIL held, so they never block: no engine
// waits, no locks that a GIL holder could be waiting on.

/*
#include "fastpath.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	_ "github.com/mxgo/mxgo/pkg/proc" // the C files read mxgo_forked before entering Go
	"github.com/mxgo/mxgo/pkg/wire"
)

// fastResult reports err to C: -1 for success, otherwise the error's kind with a
// malloc'd message that C frees.
func fastResult(err error, msg **C.char) C.int {
	if err == nil {
		return -1
	}
	*msg = C.CString(err.Error())
	return C.int(mxerr.KindOf(err))
}

// fastGuard is guard for the C entry points.
func fastGuard(ret *C.int, msg **C.char) {
	var err error
	guard(&err)
	if err != nil {
		*ret = fastResult(err, msg)
	}
}

// pendingWork is what mxgoFastExport returns when the array has engine work to wait
// for: the C side then releases the GIL, calls mxgoFastWait and tries again.
const pendingWork = -2

//export mxgoFastExport
func mxgoFastExport(h C.int64_t, versioned C.int, flags C.uint64_t, copy, forWrite C.int, out *unsafe.Pointer, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err != nil {
		return fastResult(err, msg)
	}
	if a.Var().Pending(forWrite != 0) {
		return pendingWork
	}
	*out, err = exportArray(a, versioned != 0, uint64(flags), copy != 0)
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
	if err := ndarray.CopyInto(c, a); err != nil {
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

//export mxgoFastFromBuffer
func mxgoFastFromBuffer(data unsafe.Pointer, dtype C.int32_t, ndim C.int32_t, shape, strides *C.int64_t,
	itemsize C.int64_t, writable C.int, view unsafe.Pointer, out *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	release := func() { C.mxgo_release_buffer(view) }
	a, err := fromBuffer(data, ndarray.DType(dtype), int(ndim), shape, strides, int64(itemsize), writable != 0, release)
	if err == nil {
		*out = C.int64_t(register(a))
		describe(a, d)
	}
	return fastResult(err, msg)
}

func fromBuffer(data unsafe.Pointer, dt ndarray.DType, ndim int, shape, strides *C.int64_t, itemsize int64,
	writable bool, release func()) (*ndarray.NDArray, error) {
	if !dt.Valid() || int64(dt.Size()) != itemsize {
		release()
		return nil, mxerr.TypeErr("dtype code %d does not match the buffer's item size %d", dt, itemsize)
	}
	if ndim < 0 || ndim > ndarray.MaxDims {
		release()
		return nil, mxerr.ValueErr("buffer has %d dimensions, more than %d", ndim, ndarray.MaxDims)
	}
	var elemStrides []int64
	if ndim > 0 && strides != nil {
		elemStrides = make([]int64, ndim)
		for i, s := range unsafe.Slice((*int64)(unsafe.Pointer(strides)), ndim) {
			if s%itemsize != 0 {
				release()
				return nil, mxerr.ValueErr("buffer stride %d is not a multiple of the item size %d", s, itemsize)
			}
			elemStrides[i] = s / itemsize
		}
	}
	d := hostDesc(data, dt, device.Host, int64s(shape, ndim), elemStrides, writable)
	return dlpack.NewArray(data, d, release)
}

// hostDesc describes an array of dt at data in host memory, for dlpack's validation.
func hostDesc(data unsafe.Pointer, dt ndarray.DType, dev device.Device, shape, strides []int64, writable bool) dlpack.Desc {
	code, bits := dlpack.TypeOf(dt)
	d := dlpack.Desc{Data: uintptr(data), Device: dev, NDim: int32(len(shape)), Code: code, Bits: bits, Lanes: 1,
		Shape: shape, Strides: strides}
	if !writable {
		d.Flags = dlpack.FlagReadOnly
	}
	return d
}

// int64s views n int64s at p (nil for none).
func int64s(p *C.int64_t, n int) []int64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), n)
}

// mxgoFastAdopt makes the Go side of an array made in C over owner's memory: a storage
// whose release drops the reference to owner. On failure owner is left to the caller.
//
//export mxgoFastAdopt
func mxgoFastAdopt(data unsafe.Pointer, dtype C.int32_t, ndim C.int, shape, strides *C.int64_t, writable C.char,
	devID C.int32_t, owner unsafe.Pointer, out *C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	dev := device.Device{Type: device.CPU, ID: int32(devID)}
	desc := hostDesc(data, ndarray.DType(dtype), dev, int64s(shape, int(ndim)), int64s(strides, int(ndim)), writable != 0)
	adopted := false
	a, err := dlpack.NewArray(data, desc, func() {
		if adopted {
			C.mxgo_release_owner(owner)
		}
	})
	if err == nil {
		adopted = true
		*out = C.int64_t(register(a))
		describe(a, d)
	}
	return fastResult(err, msg)
}

// mxgoFastEmpty makes an uninitialised array of dtype with the shape in wire form
// ("2,3", parsed by wire.Dims) on the given device: a new handle in *out, described in d.
//
//export mxgoFastEmpty
func mxgoFastEmpty(dtype C.int32_t, shape *C.char, shapeLen C.int, devType, devID C.int32_t, out *C.int64_t,
	d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	dims, err := wire.Dims(C.GoStringN(shape, shapeLen))
	if err != nil {
		return fastResult(err, msg)
	}
	a, err := ndarray.Empty(ndarray.DType(dtype), dims, device.Device{Type: device.Type(devType), ID: int32(devID)})
	if err == nil {
		*out = C.int64_t(register(a))
		describe(a, d)
	}
	return fastResult(err, msg)
}

// mxgoFastFill fills h with a scalar; it never waits.
//
//export mxgoFastFill
func mxgoFastFill(h C.int64_t, isInt C.int, iv C.int64_t, re, im C.double, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		err = ops.Fill(a, scalar(isInt != 0, int64(iv), float64(re), float64(im)))
	}
	return fastResult(err, msg)
}

//export mxgoFastDescribe
func mxgoFastDescribe(h C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		describe(a, d)
	}
	return fastResult(err, msg)
}

func describe(a *ndarray.NDArray, d *C.mxgo_desc) {
	d.dtype = C.int32_t(a.DType())
	d.ndim = C.int32_t(a.NDim())
	for i := range a.NDim() {
		d.shape[i] = C.int64_t(a.Shape()[i])
		d.strides[i] = C.int64_t(a.Strides()[i])
	}
	d.writable = 0
	if a.Writable() {
		d.writable = 1
	}
	dev := a.Device()
	d.dev_type, d.dev_id = C.int32_t(dev.Type), C.int32_t(dev.ID)
	d.data = C.uintptr_t(uintptr(a.Data()))
	d.store = a.Storage().Header()
}

func init() {
	ops.Engine().MirrorBusy((*atomic.Int64)(unsafe.Pointer(&C.mxgo_engine_busy)))
}

//export mxgoFastFree
func mxgoFastFree(h C.int64_t) {
	defer func() { _ = recover() }() // freeing must never abort Python
	free(int64(h))
}
