package tvmffi

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// ffiKinds maps TVM-FFI error kinds to mxgo's: the Python exceptions both name alike.
var ffiKinds = map[string]mxerr.Kind{
	"ValueError":          mxerr.Value,
	"TypeError":           mxerr.Type,
	"IndexError":          mxerr.Index,
	"BufferError":         mxerr.Buffer,
	"MemoryError":         mxerr.Memory,
	"NotImplementedError": mxerr.NotImplemented,
}

// MapError is the mxgo error of a TVM-FFI error of the given kind: the kinds mxgo has
// keep their type and message; any other (RuntimeError, a custom kind) becomes an
// MXNetError whose message starts with the kind.
func MapError(kind, msg string) error {
	if k, ok := ffiKinds[kind]; ok {
		return mxerr.New(k, "%s", msg)
	}
	if kind == "" {
		kind = "RuntimeError"
	}
	return mxerr.New(mxerr.MXNet, "%s: %s", kind, msg)
}

// FFIKind is the TVM-FFI error kind that reports err to a TVM-FFI caller (tvm_ffi raises
// the Python exception of that name): mxgo's kinds keep their name, MXNetError becomes
// RuntimeError, TVM-FFI's generic failure.
func FFIKind(err error) string {
	k := mxerr.KindOf(err)
	if k == mxerr.MXNet {
		return "RuntimeError"
	}
	return k.String()
}
