package pybridge

// Go side of arraytype.c: describing an array to C, adopting an array made in C, freeing
// a handle. These run with the GIL held, so they never block.

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

//export mxgoFastDescribe
func mxgoFastDescribe(h C.int64_t, d *C.mxgo_desc, msg **C.char) (ret C.int) {
	defer fastGuard(&ret, msg)
	a, err := lookup(int64(h))
	if err == nil {
		describe(a, d)
	}
	return fastResult(err, msg)
}

// describe fills d with a's description (C sets the DLPack type from the dtype).
func describe(a *ndarray.NDArray, d *C.mxgo_desc) {
	s := &d.src
	s.dtype = C.int32_t(a.DType())
	s.ndim = C.int32_t(a.NDim())
	for i := range a.NDim() {
		d.shape[i] = C.int64_t(a.Shape()[i])
		d.strides[i] = C.int64_t(a.Strides()[i])
	}
	s.writable = 0
	if a.Writable() {
		s.writable = 1
	}
	dev := a.Device()
	s.dev_type, s.dev_id = C.int32_t(dev.Type), C.int32_t(dev.ID)
	cmem.StorePtr(unsafe.Pointer(&s.data), a.Data()) // a storage's or a producer's memory
	cmem.StorePtr(unsafe.Pointer(&s.store), a.Storage().Header())
}

//export mxgoFastFree
func mxgoFastFree(h C.int64_t) {
	defer func() { _ = recover() }() // freeing must never abort Python
	free(int64(h))
}
