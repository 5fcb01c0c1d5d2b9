package simd

/*
#include "cmp_avx2.h"
*/
import "C"

import "unsafe"

// mx.nd's comparisons of float32 and float64 rows into 1 and 0 of their dtype, and mx.np's
// into bool bytes (cmp_avx2.c): one IEEE comparison a lane, the bits of
// pkg/ops/elemwise's Go loops.

// CmpOp is a comparison; its values are C's MXGO_CMP_*, which number them as
// pkg/ops/elemwise does.
type CmpOp int

// The comparisons.
const (
	CmpEq CmpOp = C.MXGO_CMP_EQ
	CmpNe CmpOp = C.MXGO_CMP_NE
	CmpGt CmpOp = C.MXGO_CMP_GT
	CmpGe CmpOp = C.MXGO_CMP_GE
	CmpLt CmpOp = C.MXGO_CMP_LT
	CmpLe CmpOp = C.MXGO_CMP_LE
)

var cmp = newFamily(C.mxgo_cmp_supported() != 0)

// SetCmp turns the comparison kernels on (where the CPU runs them) or off and returns
// whether they were on: a hook for tests of the Go loops, to call with no operation in
// flight.
func SetCmp(on bool) (was bool) { return cmp.set(on) }

// Cmp sets o[i] = 1 where x[i] op y[i] (y[0] for every i when yScalar), else 0, in C and
// reports true, or reports false (doing nothing): rows shorter than ArithMin, misaligned
// operands, kernels off. o may be x or y; len(x) (and len(y) unless yScalar) >= len(o).
func Cmp[T float32 | float64](op CmpOp, o, x, y []T, yScalar bool) bool {
	return cmpRun(op, unsafe.Pointer(unsafe.SliceData(o)), len(o), x, y, yScalar, false)
}

// CmpBool is Cmp into bool bytes o (1 where x[i] op y[i], else 0).
func CmpBool[T float32 | float64](op CmpOp, o []uint8, x, y []T, yScalar bool) bool {
	return cmpRun(op, unsafe.Pointer(unsafe.SliceData(o)), len(o), x, y, yScalar, true)
}

// cmpRun is Cmp (bools false: o holds T) or CmpBool over the n elements at o.
func cmpRun[T float32 | float64](op CmpOp, o unsafe.Pointer, n int, x, y []T, yScalar, bools bool) bool {
	px, py := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
	po := o
	if bools {
		po = nil // bytes: any address
	}
	if n < ArithMin || !cmp.enabled() || Misaligned(unsafe.Sizeof(x[0]), po, px, py) {
		return false
	}
	ys, f32 := C.int(0), unsafe.Sizeof(x[0]) == 4
	if yScalar {
		ys = 1
	}
	switch {
	case bools && f32:
		C.mxgo_cmp_bool_f32(C.int(op), (*C.uint8_t)(o), (*C.float)(px), (*C.float)(py), ys, C.long(n))
	case bools:
		C.mxgo_cmp_bool_f64(C.int(op), (*C.uint8_t)(o), (*C.double)(px), (*C.double)(py), ys, C.long(n))
	case f32:
		C.mxgo_cmp_f32(C.int(op), (*C.float)(o), (*C.float)(px), (*C.float)(py), ys, C.long(n))
	default:
		C.mxgo_cmp_f64(C.int(op), (*C.double)(o), (*C.double)(px), (*C.double)(py), ys, C.long(n))
	}
	return true
}
