package reduce

import (
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Sums of long contiguous float32 and float64 rows: the pairwise sum of
// redPairwiseSumOf, unchanged to the last bit, computed by an AVX2 kernel in C
// (internal/simd) and, for very long rows, on several cores.

// redParRowMin is the row length from which a row sum is split across cores (halves of
// at least reduceGrain elements); it is far above 128, so every cut is one the pairwise
// recursion makes anyway.
const redParRowMin = 2 * reduceGrain

// redSumF32 and redSumF64 are the pairwise sums: in C where simd.SumF32 and SumF64
// take the row, in Go otherwise.
func redSumF32(v []float32) float64 {
	if s, ok := simd.SumF32(v); ok {
		return s
	}
	return redPairwiseSumOf[float32, float64](v)
}

func redSumF64(v []float64) float64 {
	if s, ok := simd.SumF64(v); ok {
		return s
	}
	return redPairwiseSumOf[float64, float64](v)
}

// redPairwisePar is sum(v) for a pairwise sum: a long v is cut where the pairwise
// recursion halves it, the halves summed concurrently (tasks goroutines in all) and
// added as the recursion adds them. The result does not depend on tasks. The caller
// sums the left half too when the goroutine meant for it has not started by then (a
// sleeping thread takes up to ~100 µs to wake here).
func redPairwisePar[T any, A redOrdered](v []T, tasks int, sum func([]T) A) A {
	n := len(v)
	if tasks < 2 || n < redParRowMin {
		return sum(v)
	}
	h := n / 2
	h -= h % 8
	var l A
	var taken atomic.Bool // the left half goes to whichever of the two gets to it first
	done := make(chan struct{})
	left := func() {
		l = redPairwisePar(v[:h], tasks/2, sum)
		close(done)
	}
	go func() {
		if taken.CompareAndSwap(false, true) {
			left()
		}
	}()
	r := redPairwisePar(v[h:], tasks-tasks/2, sum)
	if taken.CompareAndSwap(false, true) { // the goroutine's thread has not woken yet
		left()
	}
	<-done
	return l + r
}

// redRowSumBy returns the row kernel adding sum(row) to acc[aoff], long rows on all cores.
func redRowSumBy[T any, A redOrdered](sum func([]T) A) redRowFn[A] {
	return func(acc []A, aoff int, p unsafe.Pointer, n int) {
		v := unsafe.Slice((*T)(p), n)
		if n < redParRowMin {
			acc[aoff] += sum(v)
			return
		}
		acc[aoff] += redPairwisePar(v, ndarray.Cores(), sum)
	}
}

// PairwiseSumKernels exposes the row sums to tests: the Go kernels and the AVX2 ones
// for any length (nil where the CPU has no AVX2), which must agree bit for bit.
func PairwiseSumKernels() (goF32, simdF32 func([]float32) float64, goF64, simdF64 func([]float64) float64) {
	simdF32, simdF64 = simd.SumKernels()
	return redPairwiseSumOf[float32, float64], simdF32, redPairwiseSumOf[float64, float64], simdF64
}
