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

// LiveExports returns the number of exported tensors whose deleter has not run yet.
func LiveExports() int64 { return int64(C.mxgo_dl_live_exports()) }

// ExportLegacy exports a as a DLManagedTensor. The tensor holds a reference to a's
// storage until its deleter runs. Legacy tensors cannot say "read-only"; callers decide
// whether exporting a read-only array this way is allowed.
func ExportLegacy(a *ndarray.NDArray) (unsafe.Pointer, error) { return export(a, false, 0, a.Device()) }

// ExportVersioned exports a as a DLManagedTensorVersioned with the given flags
// (FlagReadOnly is added when a is not writable).
func ExportVersioned(a *ndarray.NDArray, flags uint64) (unsafe.Pointer, error) {
	return export(a, true, flags, a.Device())
}

// ExportAs is ExportVersioned (or ExportLegacy) with the tensor's device given as dev,
// which must be a's own or, for page-locked host memory (cpu_pinned), the CPU: a consumer
// that asked for the CPU may address that memory as its own.
func ExportAs(a *ndarray.NDArray, versioned bool, flags uint64, dev device.Device) (unsafe.Pointer, error) {
	if dev != a.Device() && !(a.Device().Type == device.CUDAHost && dev == device.Host) {
		return nil, mxerr.BufferErr("cannot export memory on %s as memory on %s", a.Device(), dev)
	}
	return export(a, versioned, flags, dev)
}

func export(a *ndarray.NDArray, versioned bool, flags uint64, dev device.Device) (unsafe.Pointer, error) {
	if t := a.Device().Type; t != device.CPU && t != device.CUDA && t != device.CUDAHost {
		return nil, mxerr.BufferErr("cannot export memory on %s", a.Device())
	}
	if a.Storage().Borrowed() { // memory lent for one call: it cannot outlive the call
		return nil, mxerr.BufferErr("cannot export an array borrowed for an operator call")
	}
	code, bits := TypeOf(a.DType())
	src := C.mxgo_dl_src{store: (*C.mxgo_store)(a.Storage().Header()), dtype: C.int32_t(a.DType()),
		writable: cBool(a.Writable()), data: a.Data(), dev_type: C.int32_t(dev.Type), dev_id: C.int32_t(dev.ID),
		code: C.uint8_t(code), bits: C.uint8_t(bits), ndim: C.int32_t(a.NDim())}
	var shape, strides *C.int64_t
	if a.NDim() > 0 { // []int is []int64 on the 64-bit platforms mxgo builds for
		shape = (*C.int64_t)(unsafe.Pointer(&a.Shape()[0]))
		strides = (*C.int64_t)(unsafe.Pointer(&a.Strides()[0]))
	}
	mt := C.mxgo_dl_export(&src, shape, strides, C.int(cBool(versioned)), C.uint64_t(flags))
	if mt == nil {
		return nil, mxerr.New(mxerr.Memory, "cannot allocate a DLPack managed tensor")
	}
	return mt, nil
}

// Discard runs the deleter of an export that will not be handed to anyone.
func Discard(mt unsafe.Pointer, versioned bool) {
	if versioned {
		C.mxgo_dl_call_versioned_deleter((*C.DLManagedTensorVersioned)(mt))
	} else {
		C.mxgo_dl_call_legacy_deleter((*C.DLManagedTensor)(mt))
	}
}

func cBool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}
