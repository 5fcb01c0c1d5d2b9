package ndarray

import (
	"os"
	"runtime"
)

// The Go runtime gets one P (GOMAXPROCS) more than the cores mxgo's loops split across.
// Its kernels are long cgo calls, and a P stays with a goroutine in a cgo call until the
// runtime's monitor takes it back, which it does only when no P is idle: with exactly
// one P per core, every C kernel of a few hundred microseconds on both cores made the
// monitor hand a P over and wake a thread to look for work, about every 100 µs on each
// core (seen with perf sched on these 2-core VMs). With the spare P idle, the monitor
// leaves the kernels alone: a 1x1 convolution of 8x1024x14x14 into 256 filters took a
// median 6.9-8.2 ms a call without the spare and 4.6-5.0 ms with it (its best call 3.4
// ms either way). MXGO_SPARE_P=0 leaves GOMAXPROCS as it is.
var spareP = 0

func init() {
	if os.Getenv("MXGO_SPARE_P") != "0" {
		spareP = 1
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + spareP)
	}
}

// Cores is the number of cores mxgo's loops split across: GOMAXPROCS (the environment
// variable, else the CPUs the process may use) as the process started, less the spare P
// after any runtime.GOMAXPROCS call. It takes the scheduler's lock (runtime.GOMAXPROCS
// does), so loops ask for it only once their work is large enough to split.
func Cores() int { return max(1, runtime.GOMAXPROCS(0)-spareP) }

// SpareP is the number of Ps the runtime has beyond Cores (0 or 1): tests that set
// GOMAXPROCS to choose the cores add it.
func SpareP() int { return spareP }
