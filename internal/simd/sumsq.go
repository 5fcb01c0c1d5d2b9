package simd

/*
#include "sumsq.h"
*/
import "C"

import "unsafe"

// The sum of squares of float32 rows in float64 (sumsq.c), for ops' L2 norm.

var sumSqOK = C.mxgo_sumsq_supported() != 0

// SumSqF32 returns the sum of v[i]*v[i] in float64 computed in C and true, or false: rows
// shorter than SumMin, a misaligned row, a CPU without AVX2 and FMA.
func SumSqF32(v []float32) (float64, bool) {
	if !sumSqOK || len(v) < SumMin || Misaligned(4, unsafe.Pointer(&v[0]), nil, nil) {
		return 0, false
	}
	return float64(C.mxgo_sumsq_f32((*C.float)(unsafe.SliceData(v)), C.long(len(v)))), true
}
