package simd

/*
#include "exp32_avx2.h"
*/
import "C"

import "unsafe"

// float32 exp, sigmoid and tanh in AVX2 lanes (exp32_avx2.c) or AVX-512 ones
// (exp32_avx512.c), with the bits of ops' Go kernels: exp and tanh within 1 ulp of the
// true value, sigmoid within 2; and the softmax family's rows on that exp.

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

// unary512 is the 16-lane form of unary32's kernels. On one core of an AVX-512 Xeon, over
// 8,192 floats in L1 (a C loop around the two entry points): exp 0.31 ns an element
// against 0.48 on 8 lanes, sigmoid 0.43 against 0.67, tanh 0.59 against 0.90. exp is then
// bound by its ~26 vector operations per vector (no FMA, to keep Go's bits) on the two
// ports that run 512-bit arithmetic; a second vector in flight gained under 5%.
var unary512 = newFamily(unary32.ok && C.mxgo_f32_unary512_supported() != 0)

// SetUnary32 turns the float32 exp, sigmoid and tanh kernels on (where the CPU runs
// them) or off and returns whether they were on: a hook for tests of the Go kernels, to
// call with no operation in flight.
func SetUnary32(on bool) (was bool) { return unary32.set(on) }

// SetUnary32AVX512 turns the 16-lane form of those kernels on (where the CPU runs it) or
// off (the 8-lane form runs) and returns whether it was on: a hook for tests of the two.
func SetUnary32AVX512(on bool) (was bool) { return unary512.set(on) }

// Unary32CFunc returns the C function of Unary32's kernels (void f(int fn, float *dst,
// const float *src, long n), for any n and alignment, dst may be src), the 16-lane form
// where the CPU has it, for the C of other packages (pybridge's tiny.c); or nil on a CPU
// without AVX2. Its bits are the Go kernels' (exp32.go) at every length.
func Unary32CFunc() unsafe.Pointer {
	switch {
	case !unary32.ok:
		return nil
	case unary512.ok:
		return unsafe.Pointer(C.mxgo_f32_unary512)
	}
	return unsafe.Pointer(C.mxgo_f32_unary)
}

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
	if unary512.enabled() {
		C.mxgo_f32_unary512(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	} else {
		C.mxgo_f32_unary(C.int(fn), (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	}
	return true
}

// The softmax family's kinds, for SoftmaxRowsF32.
const (
	Softmax    = C.MXGO_SOFTMAX
	LogSoftmax = C.MXGO_LOG_SOFTMAX
	Softmin    = C.MXGO_SOFTMIN
)

// SoftmaxRowsRun reports whether SoftmaxRowsF32 may run on rows of x and y: the kernels
// are on and both are aligned to their elements.
func SoftmaxRowsRun(x, y unsafe.Pointer) bool { return unary32.enabled() && !Misaligned(4, x, y, nil) }

// SoftmaxRowsF32 runs kind over rows of n > 0 float32 elements, row r read from element
// xo[r] of x and written from element yo[r] of y (which may be the same row), with
// temperature t; the caller has checked SoftmaxRowsRun. For LogSoftmax it leaves
// (v - max)/t in the rows and the sums of their exponentials in sums: SubRowsF32 then
// subtracts each row's log. The bits are those of pkg/ops/nn's Go lanes.
func SoftmaxRowsF32(kind int, x unsafe.Pointer, xo []int, y unsafe.Pointer, yo []int, n int, t float32, sums []float64) {
	if len(xo) == 0 {
		return
	}
	if len(yo) < len(xo) || (kind == LogSoftmax && len(sums) < len(xo)) || n <= 0 {
		panic("simd.SoftmaxRowsF32: too few row offsets or sums, or empty rows")
	}
	var sp *C.double
	if kind == LogSoftmax {
		sp = (*C.double)(unsafe.Pointer(&sums[0]))
	}
	C.mxgo_softmax_rows_f32(C.int(kind), (*C.float)(x), (*C.long)(unsafe.Pointer(&xo[0])), (*C.float)(y),
		(*C.long)(unsafe.Pointer(&yo[0])), C.long(len(xo)), C.long(n), C.float(t), sp)
}

// SubRowsF32 subtracts c[r] from the n elements of y from element yo[r] on, for each r
// (log_softmax's last step after SoftmaxRowsF32; the caller has checked SoftmaxRowsRun).
func SubRowsF32(y unsafe.Pointer, yo []int, n int, c []float32) {
	if len(yo) == 0 {
		return
	}
	if len(c) < len(yo) {
		panic("simd.SubRowsF32: fewer values than rows")
	}
	C.mxgo_rows_sub_f32((*C.float)(y), (*C.long)(unsafe.Pointer(&yo[0])), C.long(len(yo)), C.long(n),
		(*C.float)(unsafe.Pointer(&c[0])))
}
