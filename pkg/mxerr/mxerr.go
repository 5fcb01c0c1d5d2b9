// Package mxerr defines errors that carry a kind, so that the Python layer can raise
// the exception type a NumPy or PyTorch user expects (ValueError, TypeError, ...)
// instead of gopy's blanket RuntimeError.
package mxerr

import (
	"errors"
	"fmt"
)

// Kind classifies an error by the Python exception it maps to.
type Kind int

// The kinds, named after the Python exceptions they become.
const (
	MXNet Kind = iota // mx.MXNetError: engine and back-end failures
	Value
	Type
	Index
	Buffer
	Memory
	NotImplemented
	NumKinds = iota // the number of kinds (C and Python keep tables of this length)
)

var kindNames = [...]string{"MXNetError", "ValueError", "TypeError", "IndexError", "BufferError", "MemoryError", "NotImplementedError"}

var _ [len(kindNames) - int(NumKinds)]struct{} // a name per kind (with the array's [...])
var _ [int(NumKinds) - len(kindNames)]struct{}

// Names returns the Python exception names of the kinds, in kind order.
func Names() []string { return kindNames[:] }

// String returns the Python exception name of k.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "MXNetError"
	}
	return kindNames[k]
}

// Error is an error with a kind.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// New returns an error of kind k with a formatted message.
func New(k Kind, format string, args ...any) error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// KindOf reports the kind of err: the kind of the first *Error in its chain, MXNet otherwise.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return MXNet
}

// Shorthands for the common kinds.
func ValueErr(format string, args ...any) error  { return New(Value, format, args...) }
func TypeErr(format string, args ...any) error   { return New(Type, format, args...) }
func IndexErr(format string, args ...any) error  { return New(Index, format, args...) }
func BufferErr(format string, args ...any) error { return New(Buffer, format, args...) }
