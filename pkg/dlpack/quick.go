package dlpack

/*
#include <stdlib.h>
#include "dlpack.h"

static void set_data(DLTensor* t, uintptr_t p) { t->data = (void*)p; }
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The tables mxgo_dl_quick_check reads, from the same TypeOf as Go's import.
func init() {
	for _, dt := range ndarray.DTypes() {
		code, bits := TypeOf(dt)
		C.mxgo_dl_dtype_of[code][bits] = C.int8_t(dt + 1)
		C.mxgo_dl_type_of[dt] = C.DLDataType{code: C.uint8_t(code), bits: C.uint8_t(bits), lanes: 1}
	}
	C.mxgo_dl_dtype_of[CodeUInt][1] = C.int8_t(ndarray.Bool + 1) // MXNet 1.x's bool
}

// QuickLayout is what mxgo_dl_quick_check accepted a tensor as.
type QuickLayout struct {
	DType    ndarray.DType
	Writable bool
	First    uintptr // address of the first element
	Strides  []int64
	Lo, Span int64 // the elements spanned: from First+Lo, Span of them
}

// QuickCheck runs the C check that lets C import a plain tensor without Go on d (copied
// into C memory), for tests that hold it to Validate's judgement.
func QuickCheck(d Desc) (QuickLayout, bool) {
	nd := int(d.NDim)
	if (d.Shape != nil && len(d.Shape) != nd) || (d.Strides != nil && len(d.Strides) != nd) {
		return QuickLayout{}, false // not a tensor readDesc could have read: C has no lengths
	}
	t := (*C.DLTensor)(C.calloc(1, C.sizeof_DLTensor))
	defer C.free(unsafe.Pointer(t))
	dims := (*[2 * ndarray.MaxDims]C.int64_t)(C.calloc(2*ndarray.MaxDims, 8))
	defer C.free(unsafe.Pointer(dims))
	C.set_data(t, C.uintptr_t(d.Data)) // an address to check, never dereferenced
	t.device = C.DLDevice{device_type: C.int32_t(d.Device.Type), device_id: C.int32_t(d.Device.ID)}
	t.ndim = C.int32_t(d.NDim)
	t.dtype = C.DLDataType{code: C.uint8_t(d.Code), bits: C.uint8_t(d.Bits), lanes: C.uint16_t(d.Lanes)}
	t.byte_offset = C.uint64_t(d.ByteOffset)
	if d.Shape != nil {
		t.shape = &dims[0]
		for i, v := range d.Shape[:min(len(d.Shape), ndarray.MaxDims)] {
			dims[i] = C.int64_t(v)
		}
	}
	if d.Strides != nil {
		t.strides = &dims[ndarray.MaxDims]
		for i, v := range d.Strides[:min(len(d.Strides), ndarray.MaxDims)] {
			dims[ndarray.MaxDims+i] = C.int64_t(v)
		}
	}
	var q C.mxgo_dl_quick
	if C.mxgo_dl_quick_check(t, C.uint64_t(d.Flags), &q) == 0 {
		return QuickLayout{}, false
	}
	strides := make([]int64, t.ndim)
	for i := range strides {
		strides[i] = int64(q.strides[i])
	}
	return QuickLayout{DType: ndarray.DType(q.dtype), Writable: q.writable != 0, First: uintptr(q.first), Strides: strides,
		Lo: int64(q.lo), Span: int64(q.span)}, true
}
