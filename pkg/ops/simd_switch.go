package ops

import (
	"sync/atomic"
	"unsafe"
)

// simdSwitch is whether a family of C kernels runs: where the CPU has what they need,
// unless a test turned them off to check the Go kernels on a machine that has it.
type simdSwitch struct {
	ok bool // the CPU runs them
	on atomic.Bool
}

func newSIMDSwitch(ok bool) *simdSwitch {
	s := &simdSwitch{ok: ok}
	s.on.Store(ok)
	return s
}

// enabled reports whether the C kernels are to run.
func (s *simdSwitch) enabled() bool { return s.on.Load() }

// set turns them on (where the CPU runs them) or off and returns whether they were on.
func (s *simdSwitch) set(on bool) (was bool) { return s.on.Swap(on && s.ok) }

// misaligned reports whether a, b or c (nil when unused) is not a multiple of size, a
// power of two. The C kernels take typed pointers, which C may assume aligned to their
// element (GCC vectorises loops after peeling up to a vector boundary, counting in
// elements), but imported memory need not be: Dask's and pickle's buffers,
// np.frombuffer(..., offset=1). Such operands go to the Go kernels, whose loads on
// amd64 and arm64 do not care.
func misaligned(size uintptr, a, b, c unsafe.Pointer) bool {
	return (uintptr(a)|uintptr(b)|uintptr(c))&(size-1) != 0
}
