package ndarray

/*
extern void mxgoJoinLoop(void);
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
)

// The helpers that take ForChunks' chunks beside the caller are internal/simd's C helper
// threads (par.c), the ones that split the C kernels: a helper joins a Go loop by calling
// mxgoJoinLoop. A helper that has run out of work spins a while before it sleeps (waking
// a sleeping thread took ~100 µs on these VMs, as long as a 1e6-element add), and one
// pool of spinners serves both kinds of work: with a pool for each, a training step's
// alternating products (C) and elementwise loops (Go) found the other pool's helpers
// spinning on the spare core, and an SGD update of 401k weights right after a product
// ran at one core's speed (190 µs, against 95 µs alone). A nested or concurrent loop
// finds the pool busy and starts goroutines.
var offered atomic.Pointer[loop] // the loop offered, while its owner holds the pool

func init() { simd.SetPoolRunner(unsafe.Pointer(C.mxgoJoinLoop)) }

//export mxgoJoinLoop
func mxgoJoinLoop() {
	KeepScheduling()
	if l := offered.Load(); l != nil {
		l.work() // a loop already finished has no chunk left to take
	}
}

// offerLoop hands l to up to helpers helper threads and reports true, or reports false
// when another loop or C kernel holds the pool; releaseWorkers frees it after l.finish.
func offerLoop(l *loop, helpers int) bool {
	if !simd.ClaimPool() {
		return false
	}
	offered.Store(l)
	simd.OfferPool(helpers)
	return true
}

func releaseWorkers() {
	offered.Store(nil) // keep nothing the loop's closure holds alive
	simd.ReleasePool()
}
