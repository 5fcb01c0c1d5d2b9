package simd

import (
	"sync/atomic"
	"unsafe"
)

// family is whether a family of kernels runs: where the CPU has what they need, unless
// a test turned it off.
type family struct {
	ok bool // the CPU runs them
	on atomic.Bool
}

func newFamily(ok bool) *family {
	f := &family{ok: ok}
	f.on.Store(ok)
	return f
}

func (f *family) enabled() bool { return f.on.Load() }

// set turns the family on (where the CPU runs it) or off and returns whether it was on.
func (f *family) set(on bool) (was bool) { return f.on.Swap(on && f.ok) }

// Misaligned reports whether a, b or c (nil when unused) is not a multiple of size, a
// power of two: such operands are for Go (see the package doc).
func Misaligned(size uintptr, a, b, c unsafe.Pointer) bool {
	return (uintptr(a)|uintptr(b)|uintptr(c))&(size-1) != 0
}

// Running reports, by family, whether the kernels run on this machine (and have not been
// turned off by a test): "arith", "unary32", "unary512", "maxmin", "sum", "sgemm", "gemm512", "sort32", "pow512" and "special512".
func Running() map[string]bool {
	return map[string]bool{"arith": arith.enabled(), "unary32": unary32.enabled(), "unary512": unary512.enabled(), "maxmin": maxmin.enabled(), "sum": sumOK, "sgemm": SgemmSupported, "gemm512": gemm512.enabled(), "sort32": sort32.enabled(), "pow512": pow512.enabled(), "special512": special512.enabled()}
}
