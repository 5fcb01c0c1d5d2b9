package simd

/*
#include "exp32_avx2.h"
*/
import "C"

import "unsafe"

// float32 exp, sigmoid and tanh in AVX2 lanes (exp32_avx2.c), with the bits of ops' Go
// kernels: exp and tanh within 1 ulp of the true value, sigmoid within 2.

// Unary is a float32 function with a C kernel; its values are C's MXGO_F32_*.
type Unary int

// The functions.
const (
	Exp     Unary = C.MXGO_F32_EXP
	Sigmoid Unary = C.MXGO_F32_SIGMOID
	Tanh    Unary = C.MXGO_F32_TANH
)

// Unary32Min is the shortest row handed to C: the cgo call (~50-100 ns) takes as long as
// ~30 elements in Go.
const Unary32Min = 32

var unary32 = newFamily(C.mxgo_f32_unary_supported() != 0)

// SetUnary32 turns the float32 exp, sigmoid and tanh kernels on (where the CPU runs
// them) or off and returns whether they were on: a hook for tests of the Go kernels, to
// call with no operation in flight.
func SetUnary32(on bool) (was bool) { return unary32.set(on) }

// Unary32 sets dst[i] = fn(src[i]) in C and reports true, or reports false (doing
// nothing): rows shorter than Unary32Min, misaligned operands, kernels off. dst may be
// src; len(dst) >= len(src).
func Unary32(fn Unary, dst, src []float32) bool {
	if len(src) < Unary32Min || !unary32.enabled() {
		return false
	}
	pd, ps := unsafe.Pointer(&dst[:len(src)][0]), unsafe.Pointer(&src[0])
	if Misaligned(4, pd, ps, nil) {
		return false
	}
	C.mxgo_f32_unary(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	return true
}
