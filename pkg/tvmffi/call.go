package tvmffi

/*
#include "tvmffi.h"
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
)

// C's copies of the layout and type indices (tvmffi.h) must agree with Go's: an array
// type whose length is negative fails the build.
var (
	_ [unsafe.Sizeof(Any{}) - C.sizeof_mxgo_ffi_any]struct{}
	_ [C.sizeof_mxgo_ffi_any - unsafe.Sizeof(Any{})]struct{}
	_ [C.sizeof_mxgo_ffi_object - headerSize]struct{}
	_ [headerSize - C.sizeof_mxgo_ffi_object]struct{}
	_ [C.MXGO_FFI_DLTENSOR_PTR - TypeDLTensorPtr]struct{}
	_ [TypeDLTensorPtr - C.MXGO_FFI_DLTENSOR_PTR]struct{}
	_ [C.MXGO_FFI_TENSOR - TypeTensor]struct{}
	_ [TypeTensor - C.MXGO_FFI_TENSOR]struct{}
)

// Arg is an argument of a pushed call: an array, or (Array nil) a scalar.
type Arg struct {
	Array  *ndarray.NDArray
	Scalar Any
}

var closed atomic.Bool

// Close makes every call that runs from now on fail with an MXNetError instead of calling
// its function (interpreter exit: the function might be Python's).
func Close() { closed.Store(true) }

// tensorObject makes a TVM-FFI Tensor object (one reference, the caller's) owning an
// export of a.
func tensorObject(a *ndarray.NDArray) (unsafe.Pointer, error) {
	mt, err := dlpack.ExportVersioned(a, 0)
	if err != nil {
		return nil, err
	}
	var obj unsafe.Pointer
	var kind, msg *C.char
	if C.mxgo_ffi_tensor_from_dlpack(mt, &obj, &kind, &msg) != 0 {
		C.mxgo_dl_call_versioned_deleter((*C.DLManagedTensorVersioned)(mt))
		return nil, raised(kind, msg)
	}
	return obj, nil
}

// Push pushes a call of TVM-FFI function f (a FunctionObj handle) to the engine, ordered
// as an operation reading reads and writing writes (between them, every array of args),
// and returns at once. On an engine thread each array becomes a Tensor argument and f
// is called through TVMFFIFunctionCall, with no Python involved; its error becomes the
// engine error of writes. f is referenced until the call has run or was skipped.
func Push(f unsafe.Pointer, args []Arg, reads, writes []*ndarray.NDArray) error {
	if err := requireLoaded(); err != nil {
		return err
	}
	if f == nil {
		return mxerr.TypeErr("NULL function handle")
	}
	for _, a := range args {
		if a.Array != nil && a.Array.Device().Type != device.CPU {
			return mxerr.ValueErr("TVM bridge: arrays must be on the CPU, got one on %s", a.Array.Device())
		}
	}
	for _, w := range writes {
		if !w.Writable() {
			return mxerr.BufferErr("TVM bridge: a written array is read-only")
		}
	}
	held := make([]Arg, len(args)) // the call's own references, whatever the caller drops
	for i, a := range args {
		held[i] = a
		if a.Array != nil {
			held[i].Array = a.Array.Share()
		}
	}
	release := func() {
		for _, a := range held {
			if a.Array != nil {
				a.Array.Release()
			}
		}
	}
	C.mxgo_ffi_inc_ref(f)
	err := ops.PushFunc(reads, writes, func() error { return callNow(f, held) }, func(bool) {
		release()
		C.mxgo_ffi_dec_ref(f)
	})
	if err != nil {
		release()
		C.mxgo_ffi_dec_ref(f)
	}
	return err
}

// callNow calls f on args, each array as a Tensor object over an mxgo export: what
// tvm_ffi passes for a tensor from Python, so that functions taking ffi::Tensor, and
// Python callables, get what they expect (a DLTensor* suits only TensorView
// parameters, and tvm_ffi 0.1.15 crashes when Python exports one). The export holds the
// storage: a callee that keeps the Tensor keeps valid memory.
func callNow(f unsafe.Pointer, args []Arg) error {
	if closed.Load() {
		return mxerr.New(mxerr.MXNet, "TVM bridge: the call was not run: the Python interpreter is shutting down")
	}
	base := (*C.mxgo_ffi_any)(C.calloc(C.size_t(max(len(args), 1)), C.sizeof_mxgo_ffi_any))
	if base == nil {
		return mxerr.New(mxerr.Memory, "TVM bridge: out of memory")
	}
	defer C.free(unsafe.Pointer(base))
	anys := unsafe.Slice((*Any)(unsafe.Pointer(base)), len(args))
	for i, a := range args {
		if a.Array == nil {
			anys[i] = a.Scalar
			continue
		}
		obj, err := tensorObject(a.Array)
		if err != nil {
			return err
		}
		defer C.mxgo_ffi_dec_ref(obj)
		anys[i] = Any{TypeIndex: TypeTensor, V: uint64(uintptr(obj))}
	}
	var kind, msg *C.char
	if C.mxgo_ffi_call(f, base, C.int32_t(len(args)), &kind, &msg) != 0 {
		return raised(kind, msg)
	}
	return nil
}
