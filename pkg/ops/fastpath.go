package ops

import "sync/atomic"

// fastOff turns off the typed row loops that kernels take in place of their general
// per-element path (comparisons, maximum/minimum, sqrt, max/min reductions), so that
// tests can check that both give the same bits.
var fastOff atomic.Bool

// FastKernels reports whether kernels may take their typed row loops.
func FastKernels() bool { return !fastOff.Load() }

// SetFastKernels turns the typed row loops on or off and returns whether they were on:
// a hook for tests, to call with no operation in flight.
func SetFastKernels(on bool) (was bool) { return !fastOff.Swap(!on) }
