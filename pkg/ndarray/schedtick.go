package ndarray

import (
	"runtime"
	"sync/atomic"
	_ "unsafe" // go:linkname
)

// Python's thread and internal/simd's helper threads are C threads that call into Go. A
// call takes back the P its thread left in the previous call (exitsyscall's fast path),
// so the scheduler never runs on that P and its schedule count stays where it was. The
// runtime's monitor (sysmon) reads an unchanged count for 10 ms as one goroutine running
// too long: it takes the P, and every P it takes resets it to waking every 20 µs. A P
// taken goes idle with its stale count, and the next thread to pick it up was taken from
// again at the monitor's next wake. Over 1,500 steps of the Gluon MLP the monitor called
// retake 13,000-17,000 times, woke on the cores every ~100 µs and preempted the compute
// threads (perf probes on runtime.retake, preemptone, handoffp).
//
// KeepScheduling runs the scheduler on the caller's P when no call here has for
// schedTickNS: that moves the P's count, and the monitor leaves it alone. On a thread
// that came from C the goroutine is locked to it and runtime.Gosched costs two context
// switches (~20 µs), at most once per 5 ms per P. Operator calls, ForChunks and the
// helpers' loop entry call it. With it, retake ran ~600 times in the same 1,500 steps,
// context switches fell from 13-17 to 3.5 a step, and the step's median from 2.2-2.9 to
// 1.9-2.4 ms (alternating runs).
func KeepScheduling() {
	if schedulingOff.Load() {
		return
	}
	p := procPin()
	procUnpin()
	if p >= len(lastScheduled) {
		return
	}
	now := nanotime()
	if now-lastScheduled[p].Load() < schedTickNS {
		return
	}
	lastScheduled[p].Store(now)
	runtime.Gosched()
}

// schedulingOff turns KeepScheduling off: the test compares the monitor's wakes with and
// without it (SetKeepScheduling).
var schedulingOff atomic.Bool

// SetKeepScheduling turns KeepScheduling on or off (it is on) and returns its previous
// setting. For tests.
func SetKeepScheduling(on bool) bool { return !schedulingOff.Swap(!on) }

// schedTickNS is well inside the monitor's 10 ms (forcePreemptNS), which it checks at
// most every 10 ms.
const schedTickNS = 5e6

// lastScheduled is, for each P id, when KeepScheduling last yielded there.
var lastScheduled [256]atomic.Int64

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

//go:linkname nanotime runtime.nanotime
func nanotime() int64
