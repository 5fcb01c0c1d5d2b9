package ndarray

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The Go runtime's monitor thread (sysmon) wakes every 20-100 µs while a P stays in a
// cgo call or runs one goroutine for 10 ms, which mxgo's Python thread and kernel helpers
// do all the time. On these VMs each wake preempted a compute thread and cost it far more
// than the monitor's few microseconds: a 64x784x512 product split across two threads
// took a median 225 µs alone and 370 µs beside a thread sleeping 20 µs in a loop (a C
// reproduction), and MLP training steps alternated between runs at 1.9 ms and runs at
// 3.3 ms with ~30 preempting switches a step. At the lowest priority (nice 19) the monitor
// waits for a core to be free and the product took 213-229 µs. lowerMonitor finds it (the
// one thread asleep in nanosleep, which is runtime.usleep's system call; Go's other threads
// and Python's sleep with futex and clock_nanosleep) and lowers it; MXGO_SYSMON_NICE=0
// leaves it as it is.
func init() {
	if os.Getenv("MXGO_SYSMON_NICE") != "0" {
		go lowerMonitor()
	}
}

func lowerMonitor() {
	seen := map[int]int{}
	for try := range 50 {
		for _, tid := range sleepingIn(syscall.SYS_NANOSLEEP) {
			if seen[tid]++; seen[tid] == 3 {
				_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19) // best effort
				return
			}
		}
		time.Sleep(time.Duration(try+1) * time.Millisecond)
	}
}

// sleepingIn lists the threads of this process now in system call nr.
func sleepingIn(nr int) []int {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	want := strconv.Itoa(nr)
	var tids []int
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/syscall")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 && f[0] == want {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				tids = append(tids, tid)
			}
		}
	}
	return tids
}
