// Package tvmffi connects mxgo to TVM-FFI (apache-tvm-ffi) through its stable C ABI,
// loaded at run time from the library Python's tvm_ffi already loaded: mxgo neither links
// nor includes it, and builds and runs where it is absent.
//
// Two directions:
//   - Push runs a foreign tvm_ffi.Function on mxgo's engine (call.go): its Tensor and
//     scalar arguments are built on an engine thread and TVMFFIFunctionCall is called
//     there, without Python.
//   - Register makes every operator a global function "mxgo.nd.<name>" (global.go) that
//     any TVM-FFI caller (Python's tvm_ffi with PyTorch or NumPy tensors, C, C++) calls on
//     its own memory; args.go decodes its arguments.
package tvmffi

/*
#cgo LDFLAGS: -ldl
#include "tvmffi.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	_ "github.com/mxgo/mxgo/pkg/proc" // ffi.c reads mxgo_forked before entering Go
)

// Load finds TVM-FFI's functions in the library at path, which must already be loaded in
// this process (Python's tvm_ffi loads it). Loading again is a no-op.
func Load(path string) error {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var msg *C.char
	if C.mxgo_ffi_load(cp, &msg) != 0 {
		return mxerr.New(mxerr.MXNet, "cannot use TVM-FFI from %s: %s", path, takeCString(msg))
	}
	return nil
}

// Loaded reports whether Load succeeded.
func Loaded() bool { return C.mxgo_ffi_loaded() != 0 }

func requireLoaded() error {
	if !Loaded() {
		return mxerr.New(mxerr.MXNet, "TVM-FFI is not loaded (import mxgo.tvm_bridge first)")
	}
	return nil
}

// takeCString returns a malloc'd C string's text and frees it.
func takeCString(s *C.char) string {
	if s == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

// raised turns C's malloc'd (kind, message) of a TVM-FFI error into an mxgo error.
func raised(kind, msg *C.char) error { return MapError(takeCString(kind), takeCString(msg)) }
