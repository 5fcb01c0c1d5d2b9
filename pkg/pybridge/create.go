package pybridge

// Go side of create.c: new arrays (empty, from a Python buffer) and fills. These run
// with the GIL held, so they never block.

/*
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/wire"
)

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

// intsOf copies n int64s at p into ints (a shape or a reshape's spec from C).
func intsOf(p *C.int64_t, n int) []int {
	out := make([]int, n)
	for i, v := range int64s(p, n) {
		out[i] = int(v)
	}
	return out
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

// mxgoFastFill fills h with a scalar; it never waits. ag is the caller's autograd flags
// (read in C, as for mxgoFastInvoke): while recording, a fill of memory a graph uses is
// refused.
//
//export mxgoFastFill
func mxgoFastFill(h C.int64_t, isInt C.int, iv C.int64_t, re, im C.double, ag C.int, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		err = autograd.CheckWrite(a, modeOf(ag))
	}
	if err == nil {
		err = ops.Fill(a, scalar(isInt != 0, int64(iv), float64(re), float64(im)))
	}
	return fastResult(err, msg)
}
