package dlpack

/*
#include "dlpack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// ImportLegacy takes ownership of a DLManagedTensor. On success the returned array
// keeps it alive and its deleter runs when the last view of it is released; on failure
// the deleter has already run. Either way the caller must not touch mt again.
func ImportLegacy(mt unsafe.Pointer) (*ndarray.NDArray, error) {
	if mt == nil {
		return nil, mxerr.BufferErr("NULL DLManagedTensor")
	}
	t := (*C.DLManagedTensor)(mt)
	release := func() { C.mxgo_dl_call_legacy_deleter(t) }
	if t.deleter == C.mxgo_dl_legacy_deleter {
		return reimport(&(*C.mxgo_dl_legacy_block)(mt).src, &t.dl_tensor, false, release)
	}
	return adopt(t.dl_tensor.data, readDesc(&t.dl_tensor, 0), release)
}

// ImportVersioned takes ownership of a DLManagedTensorVersioned, like ImportLegacy. A
// major version newer than mxgo's is refused (after running the deleter).
func ImportVersioned(mt unsafe.Pointer) (*ndarray.NDArray, error) {
	if mt == nil {
		return nil, mxerr.BufferErr("NULL DLManagedTensorVersioned")
	}
	t := (*C.DLManagedTensorVersioned)(mt)
	release := func() { C.mxgo_dl_call_versioned_deleter(t) }
	if major := uint32(t.version.major); major > Version[0] {
		release()
		return nil, mxerr.BufferErr("version: DLPack %d.%d is newer than mxgo's %d.%d", major, uint32(t.version.minor), Version[0], Version[1])
	}
	if t.deleter == C.mxgo_dl_versioned_deleter {
		return reimport(&(*C.mxgo_dl_versioned_block)(mt).src, &t.dl_tensor, uint64(t.flags)&FlagReadOnly != 0, release)
	}
	return adopt(t.dl_tensor.data, readDesc(&t.dl_tensor, uint64(t.flags)), release)
}

// reimport turns one of mxgo's own exports back into a view of the exported storage, so
// it shares that storage's engine variable rather than wrapping it as foreign memory;
// the export itself is released at once. The layout is re-checked against the storage,
// since a consumer could have changed the tensor's fields.
func reimport(src *C.mxgo_dl_src, t *C.DLTensor, readOnly bool, release func()) (*ndarray.NDArray, error) {
	defer release()
	s := ndarray.StorageOf(unsafe.Pointer(src.store))
	dt := ndarray.DType(src.dtype)
	nd := int(t.ndim)
	if nd < 0 || nd > ndarray.MaxDims || nd != int(src.ndim) {
		return nil, mxerr.BufferErr("ndim: an mxgo tensor's ndim was changed to %d", nd)
	}
	if t.device.device_type != src.dev_type || t.device.device_id != src.dev_id {
		return nil, mxerr.BufferErr("device: an mxgo tensor's device was changed to (%d, %d)", t.device.device_type, t.device.device_id)
	}
	var shape, strides []int
	if nd > 0 {
		shape = unsafe.Slice((*int)(unsafe.Pointer(t.shape)), nd)
		strides = unsafe.Slice((*int)(unsafe.Pointer(t.strides)), nd)
	}
	delta := 0
	if t.data != unsafe.Pointer(&C.mxgo_dl_empty[0]) {
		delta = int(uintptr(t.data) - uintptr(s.Ptr()))
	}
	if delta < 0 || delta%dt.Size() != 0 || t.byte_offset != 0 {
		return nil, mxerr.BufferErr("data: an mxgo tensor's data pointer was changed")
	}
	offset := delta / dt.Size()
	a, err := ndarray.View(s, dt, shape, strides, offset, src.writable != 0 && !readOnly)
	if err != nil {
		return nil, mxerr.BufferErr("an mxgo tensor's fields were changed: %v", err)
	}
	return a, nil
}

// Borrow makes an array in block b (from the call's ndarray.Borrowings) viewing the
// memory of a DLTensor that mxgo does not own (flags as a versioned tensor's): the caller
// keeps the memory alive and unchanged in layout until the array and every operation on
// it are done, as the DLPack C exchange API's non-owning views and TVM-FFI's DLTensor
// arguments promise for the length of a call. Nothing runs when the last view is released.
func Borrow(b *ndarray.Borrowing, t unsafe.Pointer, flags uint64) (*ndarray.NDArray, error) {
	if t == nil {
		return nil, mxerr.BufferErr("NULL DLTensor")
	}
	dt := (*C.DLTensor)(t)
	var d Desc
	viewDesc(&d, dt, flags)
	var l Layout
	if err := validateInto(&l, &d, b.Dims()); err != nil {
		return nil, err
	}
	base := unsafe.Add(dt.data, int(l.Base-d.Data)) // as adopt: keeps the pointer's provenance
	return b.Array(base, l.NBytes, l.Device, l.DType, l.Shape, l.Strides, l.Offset, !l.ReadOnly), nil
}

// BorrowChecked is Borrow into b for a DLTensor t that mxgo_dl_quick_check accepted into q
// (given the flags Borrow would get). C judged it as Validate would, with the same layout
// (FuzzValidate holds the two to that), so nothing is checked again: a borrowed operand
// of a small operator call cost more to validate than to compute. false, and nothing
// made, for more dimensions than a Borrowing holds: Borrow takes those.
func BorrowChecked(b *ndarray.Borrowing, t, q unsafe.Pointer) (*ndarray.NDArray, bool) {
	dt, qc := (*C.DLTensor)(t), (*C.mxgo_dl_quick)(q)
	nd := int(dt.ndim)
	if nd > ndarray.BorrowingDims {
		return nil, false
	}
	dims := b.Dims()
	shape, strides := dims[:nd:nd], dims[nd:2*nd:2*nd]
	given := unsafe.Slice((*int64)(unsafe.Pointer(dt.shape)), nd)
	for i := range shape {
		shape[i], strides[i] = int(given[i]), int(qc.strides[i])
	}
	dtype := ndarray.DType(qc.dtype)
	lo := int(qc.lo)
	base := unsafe.Add(dt.data, int(uintptr(qc.first)-uintptr(dt.data))+lo*dtype.Size()) // as Borrow: from data
	dev := device.Device{Type: device.CPU, ID: int32(dt.device.device_id)}
	return b.Array(base, int(qc.span)*dtype.Size(), dev, dtype, shape, strides, -lo, qc.writable != 0), true
}

// viewDesc is readDesc into *d without the copy of shape and strides, which it views
// where they are: for Borrow, whose caller keeps them unchanged (Validate copies what it
// keeps). An operator call borrows each operand of another framework: this saves an
// allocation.
func viewDesc(d *Desc, t *C.DLTensor, flags uint64) {
	descHead(d, t, flags)
	nd := int(t.ndim)
	if nd <= 0 || nd > ndarray.MaxDims {
		return // nothing to view, or a refusal to come
	}
	if t.shape != nil {
		d.Shape = unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), nd)
	}
	if t.strides != nil {
		d.Strides = unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), nd)
	}
}

// NewArray makes an array over foreign memory at data described by d (whose Data must
// equal data), after validation; release runs once when the last view is released, or
// at once if d is invalid.
func NewArray(data unsafe.Pointer, d Desc, release func()) (*ndarray.NDArray, error) {
	return adopt(data, d, release)
}

func adopt(data unsafe.Pointer, d Desc, release func()) (*ndarray.NDArray, error) {
	l, err := Validate(d)
	if err != nil {
		release()
		return nil, err
	}
	// Base is data moved by a validated in-bounds delta; deriving it from data keeps the
	// pointer's provenance.
	base := unsafe.Add(data, int(l.Base-d.Data))
	s := ndarray.NewForeignStorage(base, l.NBytes, l.Device, release)
	a, err := ndarray.Adopt(s, l.DType, l.Shape, l.Strides, l.Offset, !l.ReadOnly)
	if err != nil { // unreachable for a validated layout; keep the deleter promise anyway
		ndarray.ReleaseStorage(s)
		return nil, err
	}
	return a, nil
}

// readDesc copies t's fields. Shape and strides are read only when ndim is in range, so
// a hostile ndim cannot make mxgo read far past the arrays.
func readDesc(t *C.DLTensor, flags uint64) Desc {
	var d Desc
	descHead(&d, t, flags)
	if d.NDim > 0 && d.NDim <= ndarray.MaxDims {
		buf := make([]int64, 2*d.NDim)
		if t.shape != nil {
			d.Shape = buf[:d.NDim:d.NDim]
			copy(d.Shape, unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), d.NDim))
		}
		if t.strides != nil {
			d.Strides = buf[d.NDim:]
			copy(d.Strides, unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), d.NDim))
		}
	}
	return d
}

// descHead sets *d to t's fields but shape and strides.
func descHead(d *Desc, t *C.DLTensor, flags uint64) {
	*d = Desc{
		Data:       uintptr(t.data),
		Device:     device.Device{Type: device.Type(t.device.device_type), ID: int32(t.device.device_id)},
		NDim:       int32(t.ndim),
		Code:       uint8(t.dtype.code),
		Bits:       uint8(t.dtype.bits),
		Lanes:      uint16(t.dtype.lanes),
		ByteOffset: uint64(t.byte_offset),
		Flags:      flags,
	}
}
