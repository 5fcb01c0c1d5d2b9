package mxgotest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// ForChunks hands every index to exactly one chunk, whoever runs it: the caller, the
// spinning workers, sleeping ones woken, or goroutines of the loop's own when another
// loop (nested in a chunk, or on another goroutine) holds the workers.
func TestForChunksCoversEachIndexOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	check := func(what string, n, tasks int, nest bool) {
		hits := make([]atomic.Int32, n)
		ndarray.ForChunks(n, tasks, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if nest { // a loop inside a chunk: the pool is busy
					ndarray.ForChunks(3, 3, func(a, b int) { hits[i].Add(int32(b - a)) })
					hits[i].Add(-2)
				} else {
					hits[i].Add(1)
				}
			}
		})
		for i := range hits {
			require.EqualValues(t, 1, hits[i].Load(), "%s: index %d of %d, %d tasks", what, i, n, tasks)
		}
	}
	for _, procs := range []int{1, 2, 4} {
		useCores(procs)
		for _, c := range [][2]int{{1, 1}, {5, 8}, {7, 3}, {1000, 4}, {1001, 16}} {
			what := fmt.Sprintf("GOMAXPROCS %d", procs)
			check(what, c[0], c[1], false)
			check(what+", nested", c[0], c[1], true)
			time.Sleep(time.Millisecond) // past the workers' spin: they sleep and are woken
			check(what+", after a sleep", c[0], c[1], false)
		}
		var wg sync.WaitGroup
		for g := range 8 { // concurrent loops: one holds the workers, the others spawn
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 50 {
					check(fmt.Sprintf("GOMAXPROCS %d, goroutine %d round %d", procs, g, r), 100+g, 1+r%9, r%5 == 0)
				}
			}()
		}
		wg.Wait()
	}
}

// A chunk that panics on the caller's goroutine (where the panic can be recovered) stops the loop only once the chunks
// the workers run have finished (they share the loop's memory), and leaves the workers
// free for the next loop.
func TestForChunksPanicWaitsForRunningChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	useCores(2)
	var running, finished atomic.Int32
	func() {
		defer func() { require.Equal(t, "chunk 0", recover()) }()
		onCaller := func() bool { // this test's frame is on the caller's stack alone
			buf := make([]byte, 1<<16)
			return strings.Contains(string(buf[:runtime.Stack(buf, false)]), ".TestForChunksPanicWaitsForRunningChunks(")
		}
		ndarray.ForChunks(2, 2, func(lo, hi int) {
			if onCaller() {
				for running.Load() == 0 { // the other chunk has started elsewhere
					runtime.Gosched()
				}
				panic("chunk 0")
			}
			running.Add(1)
			time.Sleep(20 * time.Millisecond)
			finished.Add(1)
		})
	}()
	require.EqualValues(t, 1, finished.Load(), "the loop returned before the worker's chunk ended")
	var sum atomic.Int64
	ndarray.ForChunks(100, 4, func(lo, hi int) { sum.Add(int64(hi - lo)) })
	require.EqualValues(t, 100, sum.Load())
}

// The runtime keeps one P beyond the cores the loops use (ndarray/cores.go), unless
// MXGO_SPARE_P=0: kernels in cgo calls then leave an idle P, and the runtime's monitor
// does not hand their Ps over.
func TestRuntimeHasASparePBeyondTheCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	want := 1
	if os.Getenv("MXGO_SPARE_P") == "0" {
		want = 0
	}
	require.Equal(t, want, ndarray.SpareP())
	require.Equal(t, runtime.GOMAXPROCS(0), ndarray.Cores()+ndarray.SpareP())
	for _, n := range []int{1, 2, 5} {
		useCores(n)
		require.Equal(t, n, ndarray.Cores())
	}
}
