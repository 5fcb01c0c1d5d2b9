//go:build linux

package mxgotest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

const monitorChild = "MXGO_TEST_MONITOR_CHILD"

// monitorThread finds the Go runtime's monitor (sysmon): the one thread of the process
// seen asleep in nanosleep (runtime.usleep). Go's other threads, and the monitor when no
// P runs, sleep in futex.
func monitorThread(t *testing.T) int {
	seen := map[int]int{}
	for range 20 {
		tasks, err := os.ReadDir("/proc/self/task")
		require.NoError(t, err)
		for _, task := range tasks {
			b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/syscall")
			if err != nil {
				continue // the thread ended
			}
			if f := strings.Fields(string(b)); len(f) > 0 && f[0] == strconv.Itoa(syscall.SYS_NANOSLEEP) {
				tid, _ := strconv.Atoi(task.Name())
				seen[tid]++
			}
		}
		time.Sleep(time.Millisecond)
	}
	require.Len(t, seen, 1, "threads seen in nanosleep (thread id: times)")
	for tid := range seen {
		return tid
	}
	return 0
}

// wakes is how many times thread tid has gone to sleep of its own accord.
func wakes(t *testing.T, tid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/status", tid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			require.NoError(t, err)
			return n
		}
	}
	t.Fatalf("no voluntary_ctxt_switches in %s", b)
	return 0
}

// The helper threads that join ForChunks' loops are C threads calling into Go: each
// call takes back the P the thread left, so the scheduler does not run there, and
// without ndarray.KeepScheduling the runtime's monitor takes that P every time and then
// wakes every few hundred microseconds: 600-1,600 wakes in 300 ms of loops on this
// test's machines, against 30-140 with it. Windows with and without it alternate, and
// the fewest wakes of each count (other work on the machine adds to a window: on a busy
// CI machine one with it woke 424 times), so the test compares the two under the same
// load. It reads the monitor's thread from /proc (Linux only: the build tag). It runs in
// a process of its own: goroutines that earlier tests leave running hold Ps, and with no
// P idle the monitor rightly takes Ps from threads in C.
func TestRuntimeMonitorSleepsWhileHelpersJoinLoops(t *testing.T) {
	if os.Getenv(monitorChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRuntimeMonitorSleepsWhileHelpersJoinLoops$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), monitorChild+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		require.NoError(t, err, "the test in its own process failed")
		return
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer ndarray.SetKeepScheduling(true)
	useCores(2)
	tid := monitorThread(t)
	sink := make([]float64, 2)
	fewest := map[bool]int{}
	for w := range 8 {
		on := w%2 == 0
		ndarray.SetKeepScheduling(on)
		before, loops := wakes(t, tid), 0
		for start := time.Now(); time.Since(start) < 300*time.Millisecond; loops++ {
			ndarray.ForChunks(2, 2, func(lo, hi int) {
				x := 1.0
				for i := range 20000 { // ~50 µs
					x = x*1.0000001 + float64(i&1)
				}
				sink[lo] = x
			})
			for end := time.Now().Add(300 * time.Microsecond); time.Now().Before(end); {
			} // the caller's own work between loops, as Python's thread between operators
		}
		n := wakes(t, tid) - before
		t.Logf("KeepScheduling %v: %d loops in 300 ms; the monitor woke %d times", on, loops, n)
		if f, seen := fewest[on]; !seen || n < f {
			fewest[on] = n
		}
	}
	require.Less(t, 2*fewest[true], fewest[false], "the monitor's fewest wakes with KeepScheduling and without")
}
