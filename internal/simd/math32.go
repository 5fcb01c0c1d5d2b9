package simd

/*
#include "math32_avx2.h"
*/
import "C"

import "unsafe"

// The cheap float32 functions of MXNet's elementwise math (floor ... softsign) in AVX2
// lanes (math32_avx2.c), with the bits of pkg/ops/elemwise/math_rows32.go's Go loops.

// Math32Op is a function with a C kernel; its values are C's MXGO_M32_*.
type Math32Op int

// The functions.
const (
	Floor     Math32Op = C.MXGO_M32_FLOOR
	Ceil      Math32Op = C.MXGO_M32_CEIL
	Trunc     Math32Op = C.MXGO_M32_TRUNC
	RintDown  Math32Op = C.MXGO_M32_RINT_DOWN
	RoundAway Math32Op = C.MXGO_M32_ROUND_AWAY
	Recip     Math32Op = C.MXGO_M32_RECIP
	Rsqrt     Math32Op = C.MXGO_M32_RSQRT
	Scale     Math32Op = C.MXGO_M32_SCALE
	Softsign  Math32Op = C.MXGO_M32_SOFTSIGN
	Sqrt      Math32Op = C.MXGO_M32_SQRT
	Abs       Math32Op = C.MXGO_M32_ABS
	Neg       Math32Op = C.MXGO_M32_NEG
	Square    Math32Op = C.MXGO_M32_SQUARE
	Sign      Math32Op = C.MXGO_M32_SIGN // 1, -1, or +0 for zeros and NaN
	// HardSigmoid is p[0]*x + p[1] in float64 clipped to [0, 1] (NaN passing).
	HardSigmoid Math32Op = C.MXGO_M32_HARD_SIGMOID
	// SmoothL1 is, in float64, x - p[1] above p[0], -x - p[1] below -p[0], else
	// 0.5*x*x*p[2].
	SmoothL1 Math32Op = C.MXGO_M32_SMOOTH_L1
)

// Math32Params are a function's parameters (Scale's factor is p[0], a float32 value).
type Math32Params [3]float64

var math32 = newFamily(C.mxgo_math32_supported() != 0)

// SetMath32 turns these kernels on (where the CPU runs them) or off and returns whether
// they were on: a hook for tests of the Go loops, to call with no operation in flight.
func SetMath32(on bool) (was bool) { return math32.set(on) }

// Math32 sets dst[i] = fn(src[i]) with parameters p in C and reports true, or reports
// false (doing nothing): rows shorter than Unary32Min, misaligned operands, kernels off.
// dst may be src; len(dst) >= len(src).
func Math32(fn Math32Op, dst, src []float32, p *Math32Params) bool {
	pd, ps, ok := rows32(math32, dst, src)
	if !ok {
		return false
	}
	C.mxgo_math32(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)), (*C.double)(unsafe.Pointer(p)))
	return true
}

// Sqrt64 sets dst[i] = math.Sqrt(src[i]) in C (4 lanes) and reports true, or reports
// false (doing nothing) where Math32 would. dst may be src; len(dst) >= len(src).
func Sqrt64(dst, src []float64) bool {
	if len(src) < Unary32Min || !math32.enabled() {
		return false
	}
	pd, ps := unsafe.Pointer(&dst[:len(src)][0]), unsafe.Pointer(&src[0])
	if Misaligned(8, pd, ps, nil) {
		return false
	}
	C.mxgo_sqrt_f64((*C.double)(pd), (*C.double)(ps), C.long(len(src)))
	return true
}

// rows32 is the C pointers of dst and src, and whether family f takes them: rows of
// Unary32Min elements and more, aligned operands, kernels on.
func rows32(f *family, dst, src []float32) (pd, ps unsafe.Pointer, ok bool) {
	if len(src) < Unary32Min || !f.enabled() {
		return nil, nil, false
	}
	pd, ps = unsafe.Pointer(&dst[:len(src)][0]), unsafe.Pointer(&src[0])
	return pd, ps, !Misaligned(4, pd, ps, nil)
}
