// Package dlpacktest builds foreign DLPack tensors in C memory for tests and fuzzing.
//
// A Tensor is a legacy DLManagedTensor or a DLManagedTensorVersioned whose fields come
// from a Spec, as a producer outside mxgo would make it: the data buffer, shape and
// strides live in C memory, and the deleter is a C function that only counts its calls,
// so a test can assert that a consumer ran it exactly once. The C memory stays valid
// after the deleter runs; the test frees it with Free when it is done.
package dlpacktest

/*
#include <stdlib.h>
#include <string.h>
#include "../dlpack.h"

// One C block per tensor. The managed tensor comes first, so a deleter can cast its
// argument back to the block.
typedef struct {
	union {
		DLManagedTensor legacy;
		DLManagedTensorVersioned versioned;
	} mt;
	void* buffer;          // what the package allocated for data (may be NULL)
	int64_t shape[64];     // backing store for shape (used when the spec has one)
	int64_t strides[64];   // backing store for strides
	int deleter_calls;
} dlt_block;

// Deleters may run on any thread: count atomically.
static void dlt_legacy_deleter(DLManagedTensor* self) {
	__atomic_fetch_add(&((dlt_block*)self)->deleter_calls, 1, __ATOMIC_SEQ_CST);
}

static void dlt_versioned_deleter(DLManagedTensorVersioned* self) {
	__atomic_fetch_add(&((dlt_block*)self)->deleter_calls, 1, __ATOMIC_SEQ_CST);
}

static int dlt_deleter_calls(dlt_block* b) {
	return __atomic_load_n(&b->deleter_calls, __ATOMIC_SEQ_CST);
}

static dlt_block* dlt_new(size_t nbytes) {
	dlt_block* b = calloc(1, sizeof(dlt_block));
	if (!b) return NULL;
	if (nbytes > 0) {
		if (posix_memalign(&b->buffer, 64, nbytes) != 0) {
			free(b);
			return NULL;
		}
		memset(b->buffer, 0, nbytes);
	}
	return b;
}

static void dlt_set_legacy(dlt_block* b) {
	b->mt.legacy.manager_ctx = b;
	b->mt.legacy.deleter = dlt_legacy_deleter;
}

static void dlt_set_versioned(dlt_block* b, uint32_t major, uint32_t minor, uint64_t flags) {
	b->mt.versioned.version.major = major;
	b->mt.versioned.version.minor = minor;
	b->mt.versioned.flags = flags;
	b->mt.versioned.manager_ctx = b;
	b->mt.versioned.deleter = dlt_versioned_deleter;
}

static DLTensor* dlt_legacy_tensor(dlt_block* b) { return &b->mt.legacy.dl_tensor; }
static DLTensor* dlt_versioned_tensor(dlt_block* b) { return &b->mt.versioned.dl_tensor; }

// Integer arithmetic in C: the offset may make an address that points nowhere (fuzzing),
// which Go pointer arithmetic must not produce.
static void dlt_set_data(DLTensor* t, dlt_block* b, uintptr_t offset) {
	t->data = (void*)((uintptr_t)b->buffer + offset);
}

static DLTensor* dlt_tensor_of(void* mt, int versioned) {
	return versioned ? &((DLManagedTensorVersioned*)mt)->dl_tensor : &((DLManagedTensor*)mt)->dl_tensor;
}

static int dlt_has_deleter(void* mt, int versioned) {
	return versioned ? ((DLManagedTensorVersioned*)mt)->deleter != NULL : ((DLManagedTensor*)mt)->deleter != NULL;
}

static void dlt_call_deleter(void* mt, int versioned) {
	if (versioned) {
		DLManagedTensorVersioned* t = mt;
		t->deleter(t);
	} else {
		DLManagedTensor* t = mt;
		t->deleter(t);
	}
}

static void dlt_free(dlt_block* b) {
	free(b->buffer);
	free(b);
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// MaxDims is the number of shape and strides entries a Spec may carry.
const MaxDims = 64

// Spec describes a foreign tensor. Unless Raw is set, zero values of DevType, Lanes and
// Version mean the common case (CPU, 1 lane, DLPack 1.3), so that a test states only
// what it varies.
type Spec struct {
	// NBytes is the size of the C data buffer the package allocates (64-byte aligned and
	// zeroed). 0 allocates nothing: data is NULL unless DataOffset is set.
	NBytes int
	// DataOffset is added to the buffer address to form DLTensor.data (e.g. 1 for a
	// misaligned pointer, or a fake address when NBytes is 0).
	DataOffset uintptr
	DevType    int32 // DLPack device type; 0 means CPU (1)
	DevID      int32
	NDim       int32 // copied as is: it may disagree with len(Shape)
	Code, Bits uint8
	Lanes      uint16 // 0 means 1
	// Shape and Strides are copied into C memory; nil gives a NULL pointer.
	Shape, Strides []int64
	ByteOffset     uint64
	Flags          uint64    // versioned tensors only
	Version        [2]uint32 // versioned tensors only; {0, 0} means {1, 3}
	// Raw copies DevType, Lanes and Version as given, zeros included (for fuzzing).
	Raw bool
}

// Tensor is a foreign managed tensor in C memory.
type Tensor struct {
	b         *C.dlt_block
	nbytes    int
	versioned bool
	quick     *C.mxgo_dl_quick // Quick's, freed by Free
}

// NewLegacy builds a DLManagedTensor from s.
func NewLegacy(s Spec) *Tensor {
	b := alloc(s)
	C.dlt_set_legacy(b)
	fill(C.dlt_legacy_tensor(b), b, s)
	return &Tensor{b: b, nbytes: s.NBytes}
}

// NewVersioned builds a DLManagedTensorVersioned from s.
func NewVersioned(s Spec) *Tensor {
	b := alloc(s)
	v := s.Version
	if v == [2]uint32{} && !s.Raw {
		v = [2]uint32{1, 3}
	}
	C.dlt_set_versioned(b, C.uint32_t(v[0]), C.uint32_t(v[1]), C.uint64_t(s.Flags))
	fill(C.dlt_versioned_tensor(b), b, s)
	return &Tensor{b: b, nbytes: s.NBytes, versioned: true}
}

func alloc(s Spec) *C.dlt_block {
	if len(s.Shape) > MaxDims || len(s.Strides) > MaxDims {
		panic(fmt.Sprintf("dlpacktest: at most %d shape and strides entries", MaxDims))
	}
	if s.NBytes < 0 {
		panic("dlpacktest: negative NBytes")
	}
	b := C.dlt_new(C.size_t(s.NBytes))
	if b == nil {
		panic("dlpacktest: out of C memory")
	}
	return b
}

func fill(t *C.DLTensor, b *C.dlt_block, s Spec) {
	C.dlt_set_data(t, b, C.uintptr_t(s.DataOffset))
	dev := s.DevType
	if dev == 0 && !s.Raw {
		dev = 1
	}
	t.device = C.DLDevice{device_type: C.int32_t(dev), device_id: C.int32_t(s.DevID)}
	t.ndim = C.int32_t(s.NDim)
	lanes := s.Lanes
	if lanes == 0 && !s.Raw {
		lanes = 1
	}
	t.dtype = C.DLDataType{code: C.uint8_t(s.Code), bits: C.uint8_t(s.Bits), lanes: C.uint16_t(lanes)}
	if s.Shape != nil {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(&b.shape[0])), MaxDims), s.Shape)
		t.shape = &b.shape[0]
	}
	if s.Strides != nil {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(&b.strides[0])), MaxDims), s.Strides)
		t.strides = &b.strides[0]
	}
	t.byte_offset = C.uint64_t(s.ByteOffset)
}

// Ptr returns the managed tensor (DLManagedTensor* or DLManagedTensorVersioned*), to
// pass to dlpack.ImportLegacy or dlpack.ImportVersioned.
func (t *Tensor) Ptr() unsafe.Pointer { return unsafe.Pointer(t.b) }

// DLTensor returns the managed tensor's DLTensor, to pass to dlpack.Borrow.
func (t *Tensor) DLTensor() unsafe.Pointer {
	if t.versioned {
		return unsafe.Pointer(C.dlt_versioned_tensor(t.b))
	}
	return unsafe.Pointer(C.dlt_legacy_tensor(t.b))
}

// Quick is what mxgo_dl_quick_check makes of the DLTensor with flags, in C memory that
// Free releases, to pass to dlpack.BorrowChecked; false where the check declines.
func (t *Tensor) Quick(flags uint64) (unsafe.Pointer, bool) {
	if t.quick == nil {
		t.quick = (*C.mxgo_dl_quick)(C.calloc(1, C.sizeof_mxgo_dl_quick))
	}
	ok := C.mxgo_dl_quick_check((*C.DLTensor)(t.DLTensor()), C.uint64_t(flags), t.quick) != 0
	return unsafe.Pointer(t.quick), ok
}

// Versioned reports whether t is a DLManagedTensorVersioned.
func (t *Tensor) Versioned() bool { return t.versioned }

// Buffer returns the data buffer the package allocated (nil when NBytes was 0).
func (t *Tensor) Buffer() unsafe.Pointer { return t.b.buffer }

// Bytes returns the data buffer as a byte slice over C memory.
func (t *Tensor) Bytes() []byte {
	if t.b.buffer == nil {
		return nil
	}
	return unsafe.Slice((*byte)(t.b.buffer), t.nbytes)
}

// DeleterCalls returns how many times the tensor's deleter has run.
func (t *Tensor) DeleterCalls() int { return int(C.dlt_deleter_calls(t.b)) }

// Free releases the C memory of t (block and data buffer). Call it once, after the
// consumer is done with the tensor (typically in t.Cleanup); t must not be used after.
func (t *Tensor) Free() {
	if t.b == nil {
		panic("dlpacktest: double Free")
	}
	C.dlt_free(t.b)
	C.free(unsafe.Pointer(t.quick))
	t.b, t.quick = nil, nil
}

// Info is what a consumer reads from a managed tensor, made by any producer.
type Info struct {
	Data           uintptr // an address, not a Go pointer: it may point at foreign memory
	DevType, DevID int32
	NDim           int32
	Code, Bits     uint8
	Lanes          uint16
	Shape, Strides []int64 // nil where the pointer is NULL (read only for ndim in [0, 64])
	ByteOffset     uint64
	Flags          uint64    // versioned only
	Version        [2]uint32 // versioned only
	HasDeleter     bool
}

// ReadLegacy reads the fields of a DLManagedTensor.
func ReadLegacy(mt unsafe.Pointer) Info { return read(mt, false) }

// ReadVersioned reads the fields of a DLManagedTensorVersioned.
func ReadVersioned(mt unsafe.Pointer) Info { return read(mt, true) }

func read(mt unsafe.Pointer, versioned bool) Info {
	t := C.dlt_tensor_of(mt, cbool(versioned))
	in := Info{
		Data:       uintptr(t.data),
		DevType:    int32(t.device.device_type),
		DevID:      int32(t.device.device_id),
		NDim:       int32(t.ndim),
		Code:       uint8(t.dtype.code),
		Bits:       uint8(t.dtype.bits),
		Lanes:      uint16(t.dtype.lanes),
		ByteOffset: uint64(t.byte_offset),
		HasDeleter: C.dlt_has_deleter(mt, cbool(versioned)) != 0,
	}
	if versioned {
		v := (*C.DLManagedTensorVersioned)(mt)
		in.Flags = uint64(v.flags)
		in.Version = [2]uint32{uint32(v.version.major), uint32(v.version.minor)}
	}
	if in.NDim >= 0 && in.NDim <= MaxDims {
		if t.shape != nil {
			in.Shape = append([]int64{}, unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), in.NDim)...)
		}
		if t.strides != nil {
			in.Strides = append([]int64{}, unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), in.NDim)...)
		}
	}
	return in
}

// Tamper moves a tensor's data pointer by delta bytes and sets its ndim and byte_offset,
// as a misbehaving consumer might before handing a tensor back.
func Tamper(mt unsafe.Pointer, versioned bool, delta int, ndim int32, byteOffset uint64) {
	t := C.dlt_tensor_of(mt, cbool(versioned))
	t.data = unsafe.Add(t.data, delta)
	t.ndim = C.int32_t(ndim)
	t.byte_offset = C.uint64_t(byteOffset)
}

// CallLegacyDeleter runs a DLManagedTensor's deleter, as a consumer does when it is done.
func CallLegacyDeleter(mt unsafe.Pointer) { C.dlt_call_deleter(mt, 0) }

// CallVersionedDeleter runs a DLManagedTensorVersioned's deleter.
func CallVersionedDeleter(mt unsafe.Pointer) { C.dlt_call_deleter(mt, 1) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
