package ndarray

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The workers take ForChunks' chunks beside the caller, one loop at a time. A worker
// that has run out of chunks spins for workerSpin, handing its P to other goroutines
// and its CPU to other threads every few checks, before it sleeps: waking a sleeping
// goroutine's thread took ~100 µs on these VMs, as long as a 1e6-element add, and made
// a loop's time swing by half from call to call; a spinning worker starts within a
// microsecond (as OpenMP's threads do for PyTorch, and internal/simd's pool for the C
// kernels). A nested or concurrent loop finds the pool busy and starts goroutines.
var workers struct {
	busy     atomic.Bool          // a loop holds the pool
	gen      atomic.Uint64        // bumped when a loop is offered
	loop     atomic.Pointer[loop] // the latest loop offered
	sleepers atomic.Int32
	mu       sync.Mutex // guards started and the sleep on wake
	wake     *sync.Cond
	started  int
}

const workerSpin = 300 * time.Microsecond

func init() { workers.wake = sync.NewCond(&workers.mu) }

// offerLoop hands l to helpers workers (started as needed) and reports true, or reports
// false when another loop holds the pool; releaseWorkers frees it after l.finish.
func offerLoop(l *loop, helpers int) bool {
	if !workers.busy.CompareAndSwap(false, true) {
		return false
	}
	workers.mu.Lock()
	for ; workers.started < helpers; workers.started++ {
		go worker(workers.gen.Load())
	}
	workers.mu.Unlock()
	workers.loop.Store(l)
	workers.gen.Add(1)
	// A worker counts itself a sleeper before it checks gen, and this reads sleepers
	// after bumping gen (both sequentially consistent): a worker either sees the new
	// gen or is counted here and woken.
	if workers.sleepers.Load() > 0 {
		workers.mu.Lock()
		workers.wake.Broadcast()
		workers.mu.Unlock()
	}
	return true
}

func releaseWorkers() {
	workers.loop.Store(nil) // keep nothing the loop's closure holds alive
	workers.busy.Store(false)
}

func worker(seen uint64) {
	for {
		seen = awaitLoop(seen)
		if l := workers.loop.Load(); l != nil {
			l.work() // a loop already finished has no chunk left to take
		}
	}
}

// awaitLoop returns the first gen other than seen: spinning, then asleep.
func awaitLoop(seen uint64) uint64 {
	until := time.Now().Add(workerSpin)
	for i := 1; ; i++ {
		if g := workers.gen.Load(); g != seen {
			return g
		}
		if i%64 == 0 {
			if time.Now().After(until) {
				break
			}
			runtime.Gosched()
			_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) // cannot fail
		}
	}
	workers.mu.Lock()
	defer workers.mu.Unlock()
	workers.sleepers.Add(1)
	for workers.gen.Load() == seen {
		workers.wake.Wait()
	}
	workers.sleepers.Add(-1)
	return workers.gen.Load()
}
