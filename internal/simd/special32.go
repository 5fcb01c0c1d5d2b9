package simd

/*
#include "special32_avx2.h"
#include "special32_avx512.h"
*/
import "C"

// float32 erfinv, lgamma and gamma in AVX2 and FMA lanes (special32_avx2.c), computed in
// double and rounded once: not the Go kernels' bits (Go's float64 functions rounded to
// float32), but within 2 ulp of the true value, as tests_go/ops_special_ulp_test.go
// measures, with the same NaN, inf and zero results. Each has an AVX-512 form too
// (special32_avx512.c: no divisions; erfinv twice as fast), where the CPU runs it.

// SpecialOp is a function with a C kernel; its values are C's MXGO_SP_*.
type SpecialOp int

// The functions.
const (
	Erfinv SpecialOp = C.MXGO_SP_ERFINV
	Lgamma SpecialOp = C.MXGO_SP_LGAMMA // log|gamma(x)|
	Gamma  SpecialOp = C.MXGO_SP_GAMMA
)

var (
	special32  = newFamily(C.mxgo_special32_supported() != 0)
	special512 = newFamily(special32.ok && C.mxgo_special512_supported() != 0)
)

// SetSpecial32 turns these kernels on (where the CPU runs them) or off and returns
// whether they were on: a hook for tests of the Go loops, to call with no operation in
// flight.
func SetSpecial32(on bool) (was bool) { return special32.set(on) }

// SetSpecial512 turns the AVX-512 forms on (where the CPU runs them) or off, leaving the
// AVX2 ones, and returns whether they were on: a hook for tests, to call with no
// operation in flight.
func SetSpecial512(on bool) (was bool) { return special512.set(on) }

// Special32 sets dst[i] = fn(src[i]) in C and reports true, or reports false (doing
// nothing): rows shorter than Unary32Min, misaligned operands, kernels off. dst may be
// src; len(dst) >= len(src).
func Special32(fn SpecialOp, dst, src []float32) bool {
	pd, ps, ok := rows32(special32, dst, src)
	if !ok {
		return false
	}
	if special512.enabled() {
		C.mxgo_special16(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
		return true
	}
	C.mxgo_special32(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	return true
}
