package reduce

import (
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
// recursion halves it, down to at most tasks leaves, the leaves summed on the cores
// (ndarray.ForChunks: the caller and the pool's spinning workers) and added as the
// recursion adds them. The result does not depend on tasks. A goroutine per half, as
// before, left most sums on one core: its thread took up to ~100 us to wake, and the
// caller had summed the half itself by then (1.6e6 float32 elements: 233 us on two cores
// against 246 on one).
func redPairwisePar[T any, A redOrdered](v []T, tasks int, sum func([]T) A) A {
	var leaves [][]T
	redPairwiseCut(v, tasks, func(leaf []T) { leaves = append(leaves, leaf) })
	if len(leaves) < 2 {
		return sum(v)
	}
	sums := make([]A, len(leaves))
	ndarray.ForChunks(len(leaves), len(leaves), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sums[i] = sum(leaves[i])
		}
	})
	i := 0
	return redPairwiseJoin(len(v), tasks, func() A { i++; return sums[i-1] })
}

// redPairwiseCut calls leaf with the pieces of v, in order, that the pairwise recursion
// reaches after halving it for tasks cores: a piece is not cut again once it is shorter
// than redParRowMin or has one task.
func redPairwiseCut[T any](v []T, tasks int, leaf func([]T)) {
	if tasks < 2 || len(v) < redParRowMin {
		leaf(v)
		return
	}
	h := len(v) / 2
	h -= h % 8
	redPairwiseCut(v[:h], tasks/2, leaf)
	redPairwiseCut(v[h:], tasks-tasks/2, leaf)
}

// redPairwiseJoin adds the sums of redPairwiseCut's pieces of n elements, taken in order
// from next, as the recursion adds its halves.
func redPairwiseJoin[A redOrdered](n, tasks int, next func() A) A {
	if tasks < 2 || n < redParRowMin {
		return next()
	}
	h := n / 2
	h -= h % 8
	l := redPairwiseJoin(h, tasks/2, next)
	return l + redPairwiseJoin(n-h, tasks-tasks/2, next)
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

// redRowSumC is redRowSumBy(sum) for float32 and float64 rows, whose long rows C splits
// across the cores itself (simd.SumPar, the same bits): from two pieces of
// simd.SumParMin elements, one a core, each core finding its piece in its own L2 from
// the call before, where redPairwisePar's split (from redParRowMin) waits on the
// helpers' calls into Go.
func redRowSumC[T float32 | float64](sum func([]T) float64) redRowFn[float64] {
	rest := redRowSumBy(sum)
	return func(acc []float64, aoff int, p unsafe.Pointer, n int) {
		if n >= 2*simd.SumParMin {
			if s, ok := simd.SumPar(unsafe.Slice((*T)(p), n), ndarray.Cores()); ok {
				acc[aoff] += s
				return
			}
		}
		rest(acc, aoff, p, n)
	}
}

// redRowsFn adds to acc[aoff+i*astep] the sum of row i, the n elements from p + i*xstep
// elements, for i < rows (rows shorter than redParRowMin).
type redRowsFn[A any] func(acc []A, aoff, astep int, p unsafe.Pointer, rows, xstep, n int)

// redRowsSum is the redRowsFn of float32 or float64 rows: C's pairwise sums of up to 256
// rows a call (simd.SumRows), or Go's row by row where C declines (no AVX2, misaligned,
// which the single-row C sum would decline too); the same bits either way.
func redRowsSum[T float32 | float64](acc []float64, aoff, astep int, p unsafe.Pointer, rows, xstep, n int) {
	var buf [256]float64
	size := int(unsafe.Sizeof(T(0)))
	for lo := 0; lo < rows; lo += len(buf) {
		sums, q := buf[:min(len(buf), rows-lo)], unsafe.Add(p, lo*xstep*size)
		if !simd.SumRows[T](q, xstep, n, sums) {
			for i := range sums {
				sums[i] = redPairwiseSumOf[T, float64](unsafe.Slice((*T)(unsafe.Add(q, i*xstep*size)), n))
			}
		}
		for i, s := range sums {
			acc[aoff+(lo+i)*astep] += s
		}
	}
}

// PairwiseSumKernels exposes the row sums to tests: the Go kernels and the AVX2 ones
// for any length (nil where the CPU has no AVX2), which must agree bit for bit.
func PairwiseSumKernels() (goF32, simdF32 func([]float32) float64, goF64, simdF64 func([]float64) float64) {
	simdF32, simdF64 = simd.SumKernels()
	return redPairwiseSumOf[float32, float64], simdF32, redPairwiseSumOf[float64, float64], simdF64
}
