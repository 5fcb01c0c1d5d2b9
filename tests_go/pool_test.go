package mxgotest

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// sgemmOnPool multiplies small-integer matrices with the packed kernel split in two
// blocks (the C helpers' work) and checks the exact result; without the kernel (no
// AVX2) it does nothing.
func sgemmOnPool(t *testing.T, m, n, k, seed int) {
	if !simd.SgemmSupported {
		return
	}
	a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	for i := range a {
		a[i] = float32((i*7 + seed) % 5)
	}
	for i := range b {
		b[i] = float32((i*3 + seed) % 4)
	}
	simd.Sgemm(2, m, n, k, unsafe.Pointer(&a[0]), k, 1, unsafe.Pointer(&b[0]), n, 1, unsafe.Pointer(&c[0]), n)
	for i := range m {
		for j := range n {
			var want float32
			for p := range k {
				want += a[i*k+p] * b[p*n+j]
			}
			require.Equal(t, want, c[i*n+j], "product %dx%dx%d, seed %d, (%d, %d)", m, n, k, seed, i, j)
		}
	}
}

// The C kernels' blocks and ForChunks' chunks share one pool of helper threads
// (internal/simd/par.c): products and Go loops from several goroutines at once, loops
// nested in chunks, and products inside chunks (which find the pool busy and run on their
// caller) each give every result once and exactly.
func TestPoolSharedByKernelsAndLoops(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{2, 3} {
		useCores(procs)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 30 {
					sgemmOnPool(t, 24+g, 40, 33, r)
					n := 200 + r
					hits := make([]atomic.Int32, n)
					ndarray.ForChunks(n, 1+r%6, func(lo, hi int) {
						if r%3 == 0 {
							sgemmOnPool(t, 7, 9, 5, lo)
						}
						for i := lo; i < hi; i++ {
							hits[i].Add(1)
						}
					})
					for i := range hits {
						require.EqualValues(t, 1, hits[i].Load(), "cores %d, goroutine %d, round %d, index %d", procs, g, r, i)
					}
				}
			}()
		}
		wg.Wait()
	}
}

// Right after a product, a Go loop's second chunk runs on another thread (a helper of
// the pool the product used) while the caller runs the first: chunk 0 waits for chunk 1
// to start, which only a helper can do.
func TestLoopAfterKernelRunsOnAHelper(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	useCores(2)
	caller := syscall.Gettid()
	for r := range 20 {
		sgemmOnPool(t, 48, 64, 32, r)
		var started atomic.Bool
		var other atomic.Int64
		ndarray.ForChunks(2, 2, func(lo, hi int) {
			if lo == 0 && syscall.Gettid() == caller {
				deadline := time.Now().Add(10 * time.Second)
				for !started.Load() {
					require.True(t, time.Now().Before(deadline), "round %d: no helper took the second chunk", r)
				}
				return
			}
			other.Store(int64(syscall.Gettid()))
			started.Store(true)
		})
		require.NotEqual(t, int64(caller), other.Load(), "round %d", r)
	}
}
