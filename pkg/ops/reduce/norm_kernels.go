package reduce

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
)

// Row kernels of nansum and norm for contiguous float32 and float64 rows: the value each
// element contributes (itself or 0 for NaN, |x|, x*x) summed in float64, four running
// sums over blocks of up to 4096 elements and halves added recursively (pairwise, so
// rounding error grows like log(n), and a long row split across cores by redRowSumBy
// gives the same result). The three loops are written out: a function value per element
// would cost more than the loop itself.

const normBlock = 4096

func nanSumRow[T float32 | float64](v []T) float64 { return blockwise(v, nanSumBlock[T]) }

func nanSumBlock[T float32 | float64](v []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		if w[0] == w[0] {
			s0 += float64(w[0])
		}
		if w[1] == w[1] {
			s1 += float64(w[1])
		}
		if w[2] == w[2] {
			s2 += float64(w[2])
		}
		if w[3] == w[3] {
			s3 += float64(w[3])
		}
	}
	for ; i < len(v); i++ {
		if v[i] == v[i] {
			s0 += float64(v[i])
		}
	}
	return (s0 + s1) + (s2 + s3)
}

func absSumRow[T float32 | float64](v []T) float64 { return blockwise(v, absSumBlock[T]) }

func absSumBlock[T float32 | float64](v []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		s0 += math.Abs(float64(w[0]))
		s1 += math.Abs(float64(w[1]))
		s2 += math.Abs(float64(w[2]))
		s3 += math.Abs(float64(w[3]))
	}
	for ; i < len(v); i++ {
		s0 += math.Abs(float64(v[i]))
	}
	return (s0 + s1) + (s2 + s3)
}

// blockwise adds f of blocks of at most normBlock elements, halves added recursively.
func blockwise[T float32 | float64](v []T, f func([]T) float64) float64 {
	if len(v) > normBlock {
		h := len(v) / 2
		h -= h % 8 // redPairwisePar's cut: a row split across cores sums alike
		return blockwise(v[:h], f) + blockwise(v[h:], f)
	}
	return f(v)
}

// sqSumRow32 is sqSumRow of float32 with the AVX2 kernel of internal/simd where the CPU
// has it: sixteen running float64 sums over the whole row (one call into C per row or
// per core's half: calls per block cost more than the kernel), far more precise than
// the float32 result needs.
func sqSumRow32(v []float32) float64 {
	if s, ok := simd.SumSqF32(v); ok {
		return s
	}
	return sqSumRow(v)
}

func sqSumRow[T float32 | float64](v []T) float64 { return blockwise(v, sqSumBlock[T]) }

func sqSumBlock[T float32 | float64](v []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		a, b, c, d := float64(w[0]), float64(w[1]), float64(w[2]), float64(w[3])
		s0 += a * a
		s1 += b * b
		s2 += c * c
		s3 += d * d
	}
	for ; i < len(v); i++ {
		a := float64(v[i])
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

// The vector kernels add each element's contribution to acc[aoff+i] (a reduction over
// an outer axis of rows).

func nanVecSum[T float32 | float64](acc []float64, aoff int, p unsafe.Pointer, n int) {
	a := acc[aoff : aoff+n]
	for i, x := range unsafe.Slice((*T)(p), n) {
		if x == x {
			a[i] += float64(x)
		}
	}
}

func absVecSum[T float32 | float64](acc []float64, aoff int, p unsafe.Pointer, n int) {
	a := acc[aoff : aoff+n]
	for i, x := range unsafe.Slice((*T)(p), n) {
		a[i] += math.Abs(float64(x))
	}
}

func sqVecSum[T float32 | float64](acc []float64, aoff int, p unsafe.Pointer, n int) {
	a := acc[aoff : aoff+n]
	for i, x := range unsafe.Slice((*T)(p), n) {
		a[i] += float64(x) * float64(x)
	}
}

// mapLoad is load followed by f on each value; a row load hands back in place (the
// input's own memory) is copied into buf first, so the input is never written.
func mapLoad[A any](load redLoadFn[A], f func(A) A) redLoadFn[A] {
	return func(base unsafe.Pointer, off, step, n int, buf []A) []A {
		v := load(base, off, step, n, buf)
		if len(v) > 0 && &v[0] != &buf[0] {
			v = buf[:copy(buf, v)]
		}
		for i, x := range v {
			v[i] = f(x)
		}
		return v
	}
}
