package ops

/*
#cgo CFLAGS: -O3 -fno-fast-math
#include "exp32_avx2.h"
*/
import "C"

import "unsafe"

// The AVX2 versions of exp32.go's row kernels (exp32_avx2.c), used on CPUs that
// have it for rows long enough to pay for a cgo call (~50-100 ns, the time of ~30
// elements in Go). They give the same bits as the Go kernels, which do the rest:
// short rows, and the element-at-a-time walk of a strided out.

// f32SIMDMin is the shortest row handed to C.
const f32SIMDMin = 32

var f32SIMD = newSIMDSwitch(C.mxgo_f32_unary_supported() != 0)

// SetF32SIMD turns the C kernels of float32 exp, sigmoid and tanh on or off (on takes
// effect only where the CPU runs them) and returns whether they were on. It is for
// tests, to check the Go kernels on a machine with AVX2; call it with no operation
// in flight (ops.WaitAll).
func SetF32SIMD(on bool) (was bool) {
	return f32SIMD.set(on)
}

// f32SIMDRows runs C kernel op over src into dst and reports true, or reports false
// (doing nothing) where the Go kernel is to run.
func f32SIMDRows(op C.int, dst, src []float32) bool {
	if len(src) < f32SIMDMin || !f32SIMD.enabled() {
		return false
	}
	pd, ps := unsafe.Pointer(&dst[:len(src)][0]), unsafe.Pointer(&src[0])
	if misaligned(4, pd, ps, nil) {
		return false
	}
	C.mxgo_f32_unary(op, (*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	return true
}

// The C kernels' ops, for exp32.go (which does not import "C").
const (
	f32OpExp     = C.MXGO_F32_EXP
	f32OpSigmoid = C.MXGO_F32_SIGMOID
	f32OpTanh    = C.MXGO_F32_TANH
)
