package simd

/*
#include "moments_avx2.h"
*/
import "C"

import "unsafe"

// Row moments and the affine step of the normalisation layers (moments_avx2.c) on
// float32 rows: sixteen running sums in float64 where nn's Go twins (nnSum16, nnSqDev16)
// run at one element a cycle, and y = ((x - m) * s) * g + b eight lanes at a time. The
// bits are the Go twins'.

// MomentsMin is the shortest row handed to C (a global pooling's 7x7 plane stays in Go).
const MomentsMin = 64

var moments = newFamily(C.mxgo_moments_supported() != 0)

// SetMoments turns the kernels on (where the CPU runs them) or off and returns whether
// they were on: a hook for tests of the Go twins, to call with no operation in flight.
func SetMoments(on bool) (was bool) { return moments.set(on) }

// momentsFor reports whether rows of x's length go to C, their pointers aligned to float32.
func momentsFor(x []float32, ptrs ...[]float32) bool {
	if len(x) < MomentsMin || !moments.enabled() {
		return false
	}
	for _, p := range append(ptrs, x) {
		if Misaligned(4, unsafe.Pointer(unsafe.SliceData(p)), nil, nil) {
			return false
		}
	}
	return true
}

// Sum16 returns the sum of x in nnSum16's order and true, or false: short or misaligned rows, kernels off.
func Sum16(x []float32) (float64, bool) {
	if !momentsFor(x) {
		return 0, false
	}
	return float64(C.mxgo_sum16_f32((*C.float)(unsafe.SliceData(x)), C.long(len(x)))), true
}

// RowMeans16 sets y[r] to float32(Sum16 of row r of x / div) (rows of n, len(y) of them)
// on up to width of the pool's threads and reports true, or reports false: x shorter
// than MomentsMin, misaligned, kernels off. Split in C, global pooling's thousands of
// short rows take no call into Go on the helper's side (a pooled Go loop cost 40 µs
// of the 100 a batch of 8 x 1024 planes of 14 x 14 took).
func RowMeans16(y, x []float32, n int, div float64, width int) bool {
	if len(y) == 0 || !momentsFor(x, y) || len(x) < n*len(y) {
		return false
	}
	C.mxgo_rowmean16_f32(f32p(y), f32p(x), C.long(len(y)), C.long(n), C.double(div), C.long(width))
	return true
}

// SqDev16 returns the sum of (x[i] - m)^2 in nnSqDev16's order and true, or false as Sum16.
func SqDev16(x []float32, m float64) (float64, bool) {
	if !momentsFor(x) {
		return 0, false
	}
	return float64(C.mxgo_sqdev16_f32((*C.float)(unsafe.SliceData(x)), C.long(len(x)), C.double(m))), true
}

// BNSums adds to out the sums of (x-m)^2, g and g*(x-m) over a row in nn's bnGradSums
// order and reports true, or reports false as Sum16. len(g) >= len(x).
func BNSums(x, g []float32, m float64, out *[3]float64) bool {
	if !momentsFor(x, g) {
		return false
	}
	C.mxgo_bnsums_f32((*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(g[:len(x)])), C.long(len(x)), C.double(m),
		(*C.double)(unsafe.SliceData(out[:])))
	return true
}

// lnRowsFor reports whether the LayerNorm row loops take rows of n of x (and the
// operands ptrs): as momentsFor takes one row.
func lnRowsFor(x []float32, n int, ptrs ...[]float32) bool {
	return n > 0 && len(x) >= n && momentsFor(x[:n], ptrs...)
}

// The LayerNorm row loops, over the len(x)/n rows of n of x in one call each (a call per
// row cost more than the row at BERT's sizes), every row's statistics as nn's lnRowStats:
// each reports true, or false (doing nothing) as Sum16 for a row of n. LayerNormRows sets
// y from x, gamma and beta (n each); LNGradRows sets the data gradient out from x, the
// head gradient g and gamma; LNParamsRows adds the rows' shares of dgamma and dbeta to dg
// and db (n each).
func LayerNormRows(y, x []float32, n int, eps float64, gamma, beta []float32) bool {
	if !lnRowsFor(x, n, y, gamma, beta) {
		return false
	}
	C.mxgo_layernorm_rows_f32((*C.float)(unsafe.SliceData(y[:len(x)])), (*C.float)(unsafe.SliceData(x)), C.long(len(x)/n),
		C.long(n), C.double(eps), (*C.float)(unsafe.SliceData(gamma[:n])), (*C.float)(unsafe.SliceData(beta[:n])))
	return true
}

func LNGradRows(out, x, g, gamma []float32, n int, eps float64) bool {
	if !lnRowsFor(x, n, out, g, gamma) {
		return false
	}
	C.mxgo_lngrad_rows_f32((*C.float)(unsafe.SliceData(out[:len(x)])), (*C.float)(unsafe.SliceData(x)),
		(*C.float)(unsafe.SliceData(g[:len(x)])), (*C.float)(unsafe.SliceData(gamma[:n])), C.long(len(x)/n), C.long(n), C.double(eps))
	return true
}

func LNParamsRows(dg, db []float64, x, g []float32, n int, eps float64) bool {
	if !lnRowsFor(x, n, g) {
		return false
	}
	C.mxgo_lnparams_rows_f32((*C.double)(unsafe.SliceData(dg[:n])), (*C.double)(unsafe.SliceData(db[:n])),
		(*C.float)(unsafe.SliceData(x)), (*C.float)(unsafe.SliceData(g[:len(x)])), C.long(len(x)/n), C.long(n), C.double(eps))
	return true
}

// Affine32 sets y[i] = ((x[i] - m) * s) * g + b, rounding after each operation, where g
// and b are rows as long as x or of one value, and reports true; or false as Sum16.
func Affine32(y, x []float32, m, s float32, g, b []float32) bool {
	if !momentsFor(x, y, g, b) {
		return false
	}
	vec := C.int(0)
	if len(g) > 1 {
		vec = 1
		g, b = g[:len(x)], b[:len(x)]
	}
	C.mxgo_affine_f32((*C.float)(unsafe.SliceData(y[:len(x)])), (*C.float)(unsafe.SliceData(x)), C.long(len(x)),
		C.float(m), C.float(s), (*C.float)(unsafe.SliceData(g)), (*C.float)(unsafe.SliceData(b)), vec)
	return true
}

// The whole-tensor BatchNorm kernels (x is (outer, c, inner) float32, rows of any length),
// split over up to width threads: each reports true, or false (doing nothing) when the
// kernels are off or an operand is misaligned, and panics when an operand is too short.

func bnFor(n int, ptrs ...[]float32) bool {
	if !moments.enabled() {
		return false
	}
	for _, p := range ptrs {
		if len(p) < n {
			panic("simd: BatchNorm operand too short")
		}
		if Misaligned(4, unsafe.Pointer(unsafe.SliceData(p)), nil, nil) {
			return false
		}
	}
	return true
}

func f32p(s []float32) *C.float { return (*C.float)(unsafe.SliceData(s)) }

// BNStats sets mean[j] and variance[j] of every channel as nn's bnStats.
func BNStats(x []float32, outer, c, inner int, mean, variance []float64, width int) bool {
	if len(mean) < c || len(variance) < c || !bnFor(outer*c*inner, x) {
		return false
	}
	C.mxgo_bn_stats_f32(f32p(x), C.long(outer), C.long(c), C.long(inner), (*C.double)(unsafe.SliceData(mean)),
		(*C.double)(unsafe.SliceData(variance)), C.long(width))
	return true
}

// BNGradStats sets y's 4c statistics as nn's bnGradStats.
func BNGradStats(x, g []float32, outer, c, inner int, eps float64, y []float32, width int) bool {
	if !bnFor(outer*c*inner, x, g) || !bnFor(4*c, y) {
		return false
	}
	C.mxgo_bn_gradstats_f32(f32p(x), f32p(g), C.long(outer), C.long(c), C.long(inner), C.double(eps), f32p(y), C.long(width))
	return true
}

// BNGradData sets dx as nn's bnGradData (gamma unread when fixGamma).
func BNGradData(x, g, st, gamma, dx []float32, outer, c, inner int, eps float64, fixGamma bool, width int) bool {
	if !bnFor(outer*c*inner, x, g, dx) || !bnFor(4*c, st) || !fixGamma && !bnFor(c, gamma) {
		return false
	}
	fix := C.int(0)
	if fixGamma {
		fix, gamma = 1, st // any valid pointer
	}
	C.mxgo_bn_graddata_f32(f32p(x), f32p(g), f32p(st), f32p(gamma), f32p(dx), C.long(outer), C.long(c), C.long(inner),
		C.double(eps), fix, C.long(width))
	return true
}

// BNAffine sets y = ((x - mean[j]) * inv[j]) * gamma[j] + beta[j] as nn's nnBatchNorm.
func BNAffine(y, x []float32, outer, c, inner int, mean, inv, gamma, beta []float32, width int) bool {
	if !bnFor(outer*c*inner, x, y) || !bnFor(c, mean, inv, gamma, beta) {
		return false
	}
	C.mxgo_bn_affine_f32(f32p(y), f32p(x), C.long(outer), C.long(c), C.long(inner), f32p(mean), f32p(inv), f32p(gamma),
		f32p(beta), C.long(width))
	return true
}
