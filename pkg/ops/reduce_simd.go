package ops

/*
#cgo CFLAGS: -O3 -fno-fast-math
#include "reduce_simd.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Sums of long contiguous float32 and float64 rows: the pairwise sum of
// redPairwiseSumOf, unchanged to the last bit, computed by an AVX2 kernel in C
// (reduce_simd.c) and, for very long rows, on several cores.

// redSimdOK says whether the CPU runs the AVX2 kernels.
var redSimdOK = C.mxgo_redsum_supported() != 0

// redSimdMin is the row length from which a call into C pays for itself.
const redSimdMin = 64

// redParRowMin is the row length from which a row sum is split across cores (halves of
// at least reduceGrain elements); it is far above 128, so every cut is one the pairwise
// recursion makes anyway.
const redParRowMin = 2 * reduceGrain

// redSumF32 and redSumF64 are the pairwise sums: in C when the CPU can, the row long
// enough (a cgo call per row) and aligned, in Go otherwise.
func redSumF32(v []float32) float64 {
	if !redSimdOK || len(v) < redSimdMin || misaligned(4, unsafe.Pointer(&v[0]), nil, nil) {
		return redPairwiseSumOf[float32, float64](v)
	}
	return redCSumF32(v)
}

func redSumF64(v []float64) float64 {
	if !redSimdOK || len(v) < redSimdMin || misaligned(8, unsafe.Pointer(&v[0]), nil, nil) {
		return redPairwiseSumOf[float64, float64](v)
	}
	return redCSumF64(v)
}

func redCSumF32(v []float32) float64 {
	return float64(C.mxgo_redsum_f32((*C.float)(unsafe.SliceData(v)), C.long(len(v))))
}

func redCSumF64(v []float64) float64 {
	return float64(C.mxgo_redsum_f64((*C.double)(unsafe.SliceData(v)), C.long(len(v))))
}

// redPairwisePar is sum(v) for a pairwise sum: a long v is cut where the pairwise
// recursion halves it, the halves summed concurrently (tasks goroutines in all) and
// added as the recursion adds them. The result does not depend on tasks.
func redPairwisePar[T any, A redOrdered](v []T, tasks int, sum func([]T) A) A {
	n := len(v)
	if tasks < 2 || n < redParRowMin {
		return sum(v)
	}
	h := n / 2
	h -= h % 8
	var l A
	done := make(chan struct{})
	go func() {
		l = redPairwisePar(v[:h], tasks/2, sum)
		close(done)
	}()
	r := redPairwisePar(v[h:], tasks-tasks/2, sum)
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
		acc[aoff] += redPairwisePar(v, runtime.GOMAXPROCS(0), sum)
	}
}

// PairwiseSumKernels exposes the row sums to tests: the Go kernels and the AVX2 ones
// for any length (nil where the CPU has no AVX2), which must agree bit for bit.
func PairwiseSumKernels() (goF32, simdF32 func([]float32) float64, goF64, simdF64 func([]float64) float64) {
	goF32, goF64 = redPairwiseSumOf[float32, float64], redPairwiseSumOf[float64, float64]
	if redSimdOK {
		simdF32, simdF64 = redCSumF32, redCSumF64
	}
	return
}
