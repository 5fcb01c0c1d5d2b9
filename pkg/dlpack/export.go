package dlpack

/*
#include "dlpack.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

var liveExports atomic.Int64

// LiveExports returns the number of exported tensors whose deleter has not run yet.
func LiveExports() int64 { return liveExports.Load() }

// emptyData is what a size-0 export points at when its storage has no memory: some
// consumers reject NULL data even where the standard allows it.
var emptyData = C.malloc(256)

// ExportLegacy exports a as a DLManagedTensor. The tensor holds a reference to a's
// storage until its deleter runs. Legacy tensors cannot say "read-only"; callers decide
// whether exporting a read-only array this way is allowed.
func ExportLegacy(a *ndarray.NDArray) (unsafe.Pointer, error) { return export(a, false, 0) }

// ExportVersioned exports a as a DLManagedTensorVersioned with the given flags
// (FlagReadOnly is added when a is not writable).
func ExportVersioned(a *ndarray.NDArray, flags uint64) (unsafe.Pointer, error) {
	if !a.Writable() {
		flags |= FlagReadOnly
	}
	return export(a, true, flags)
}

func export(a *ndarray.NDArray, versioned bool, flags uint64) (unsafe.Pointer, error) {
	h, err := exportHandle(a)
	if err != nil {
		return nil, err
	}
	var mt unsafe.Pointer
	var t *C.DLTensor
	if versioned {
		if v := C.mxgo_dl_new_versioned(C.int32_t(a.NDim()), C.uintptr_t(h)); v != nil {
			v.flags = C.uint64_t(flags)
			mt, t = unsafe.Pointer(v), &v.dl_tensor
		}
	} else if l := C.mxgo_dl_new_legacy(C.int32_t(a.NDim()), C.uintptr_t(h)); l != nil {
		mt, t = unsafe.Pointer(l), &l.dl_tensor
	}
	if mt == nil {
		releaseHandle(h)
		return nil, mxerr.New(mxerr.Memory, "cannot allocate a DLPack managed tensor")
	}
	fill(t, a)
	return mt, nil
}

func exportHandle(a *ndarray.NDArray) (uintptr, error) {
	if a.Device().Type != device.CPU {
		return 0, mxerr.BufferErr("cannot export memory on %s", a.Device())
	}
	liveExports.Add(1)
	return keepExport(a.Share()), nil
}

func releaseHandle(h uintptr) {
	dropExport(h).Release()
	liveExports.Add(-1)
}

// fill writes a's description into t: byte_offset 0 with the offset folded into data
// (PyTorch ignores byte_offset), and strides always present.
func fill(t *C.DLTensor, a *ndarray.NDArray) {
	t.data = a.Data()
	if t.data == nil {
		t.data = emptyData
	}
	dev := a.Device()
	t.device = C.DLDevice{device_type: C.int32_t(dev.Type), device_id: C.int32_t(dev.ID)}
	code, bits := TypeOf(a.DType())
	t.dtype = C.DLDataType{code: C.uint8_t(code), bits: C.uint8_t(bits), lanes: 1}
	t.byte_offset = 0
	nd := a.NDim()
	shape := unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), nd)
	strides := unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), nd)
	for i := 0; i < nd; i++ {
		shape[i] = int64(a.Shape()[i])
		strides[i] = int64(a.Strides()[i])
	}
}
