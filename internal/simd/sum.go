package simd

/*
#include "reduce_simd.h"
*/
import "C"

import "unsafe"

// Pairwise sums of contiguous float32 and float64 rows in float64 (reduce_simd.c): ops'
// pairwise order, unchanged to the last bit, eight lanes at a time.

// SumMin is the row length from which a call into C pays for itself.
const SumMin = 64

var sumOK = C.mxgo_redsum_supported() != 0

// SumF32 returns the pairwise sum of v computed in C and true, or false: rows shorter
// than SumMin, a misaligned row, a CPU without AVX2.
func SumF32(v []float32) (float64, bool) {
	if !sumOK || len(v) < SumMin || Misaligned(4, unsafe.Pointer(&v[0]), nil, nil) {
		return 0, false
	}
	return sumF32(v), true
}

// SumF64 is SumF32 for float64 rows.
func SumF64(v []float64) (float64, bool) {
	if !sumOK || len(v) < SumMin || Misaligned(8, unsafe.Pointer(&v[0]), nil, nil) {
		return 0, false
	}
	return sumF64(v), true
}

// SumParMin is the shortest piece SumPar cuts a row into.
const SumParMin = 1 << 14

// SumPar is SumF32 or SumF64 (T's) of v, the same bits, computed in up to parts pieces
// of at least SumParMin elements, cut where the pairwise sum halves v, on the pool's
// threads in C: a row sum splits without calls into Go. It reports false where SumF32
// would.
func SumPar[T float32 | float64](v []T, parts int) (float64, bool) {
	var z T
	if !sumOK || len(v) < SumMin || Misaligned(unsafe.Sizeof(z), unsafe.Pointer(&v[0]), nil, nil) {
		return 0, false
	}
	return float64(C.mxgo_redsum_par(unsafe.Pointer(&v[0]), C.long(unsafe.Sizeof(z)), C.long(len(v)), C.long(parts),
		SumParMin)), true
}

func sumF32(v []float32) float64 {
	return float64(C.mxgo_redsum_f32((*C.float)(unsafe.SliceData(v)), C.long(len(v))))
}

func sumF64(v []float64) float64 {
	return float64(C.mxgo_redsum_f64((*C.double)(unsafe.SliceData(v)), C.long(len(v))))
}

// SumCFuncs returns the C functions of SumF32 and SumF64 (double f(const T*, long), for
// any length and alignment), for the C of other packages (pybridge's tiny.c), or nils
// where the CPU lacks AVX2.
func SumCFuncs() (f32, f64 unsafe.Pointer) {
	if !sumOK {
		return nil, nil
	}
	return unsafe.Pointer(C.mxgo_redsum_f32), unsafe.Pointer(C.mxgo_redsum_f64)
}

// SumRows sets out[r] to the pairwise sum (SumF32's, SumF64's) of the n elements of T
// from v + r*step elements, for r < len(out), in one call into C, and reports true; or
// reports false: a CPU without AVX2, v misaligned. For many short rows, whose calls one
// by one cost more than their sums.
func SumRows[T float32 | float64](v unsafe.Pointer, step, n int, out []float64) bool {
	var z T
	if !sumOK || len(out) == 0 || Misaligned(unsafe.Sizeof(z), v, nil, nil) {
		return false
	}
	o := (*C.double)(unsafe.SliceData(out))
	if unsafe.Sizeof(z) == 4 {
		C.mxgo_redsum_rows_f32((*C.float)(v), C.long(len(out)), C.long(step), C.long(n), o)
	} else {
		C.mxgo_redsum_rows_f64((*C.double)(v), C.long(len(out)), C.long(step), C.long(n), o)
	}
	return true
}

// SumKernels returns the C sums for rows of any length (aligned), nil where the CPU has
// no AVX2: for tests that hold them to ops' Go sums bit for bit.
func SumKernels() (f32 func([]float32) float64, f64 func([]float64) float64) {
	if sumOK {
		return sumF32, sumF64
	}
	return nil, nil
}
