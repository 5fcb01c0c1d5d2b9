package ops

import "sync/atomic"

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
