package simd

/*
#include "relu_avx2.h"
*/
import "C"

import "unsafe"

// relu and its gradient on float32 rows in AVX2 (relu_avx2.c): eight elements an
// instruction where the Go loops do one, with their bits (both are integer operations
// on the bits). Every relu layer of a network runs both on each training step.

// ReluMin is the shortest row handed to C: below it the cgo call (~50-100 ns) costs
// more than the Go loop.
const ReluMin = 128

var relu = newFamily(C.mxgo_relu_supported() != 0)

// SetRelu turns the relu kernels on (where the CPU runs them) or off and returns whether
// they were on: a hook for tests of the Go loops, to call with no operation in flight.
func SetRelu(on bool) (was bool) { return relu.set(on) }

// Relu32 sets dst[i] = relu(src[i]) in C and reports true, or reports false (doing
// nothing): rows shorter than ReluMin, misaligned operands, kernels off. dst may be src;
// len(dst) >= len(src).
func Relu32(dst, src []float32) bool {
	if len(src) < ReluMin || !relu.enabled() {
		return false
	}
	pd, ps := unsafe.Pointer(&dst[:len(src)][0]), unsafe.Pointer(&src[0])
	if Misaligned(4, pd, ps, nil) {
		return false
	}
	C.mxgo_relu_f32((*C.float)(pd), (*C.float)(ps), C.long(len(src)))
	return true
}

// ReluBackward32 sets o[i] = g[i] where y[i] > 0, else 0, in C and reports true, or
// reports false as Relu32 does. o may be g or y; len(g) and len(y) are at least len(o).
func ReluBackward32(o, g, y []float32) bool {
	if len(o) < ReluMin || !relu.enabled() {
		return false
	}
	po, pg, py := unsafe.Pointer(&o[0]), unsafe.Pointer(&g[:len(o)][0]), unsafe.Pointer(&y[:len(o)][0])
	if Misaligned(4, po, pg, py) {
		return false
	}
	C.mxgo_relu_backward_f32((*C.float)(po), (*C.float)(pg), (*C.float)(py), C.long(len(o)))
	return true
}
