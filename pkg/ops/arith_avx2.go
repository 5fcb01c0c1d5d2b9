package ops

/*
#cgo CFLAGS: -O3 -fno-fast-math
#include "arith_avx2.h"
*/
import "C"

import "unsafe"

// The AVX2 versions of arith.go's contiguous float32 and float64 rows of + - * /
// (arith_avx2.c): Go does not vectorize, so its loops run about one element a cycle,
// C eight float32 (four float64) an instruction. Used on CPUs that have AVX2 for rows
// long enough to pay for the cgo call; the bits are the Go loops', NaN payloads
// included.

// arithSIMDMin is the shortest row handed to C. The cgo call costs ~35 ns (as long as
// ~90 elements take in Go); BenchmarkArithRowSIMD with the minimum lowered to 8 put the
// crossover of add at ~90 float32 and ~120 float64 elements (AMD EPYC). It must stay
// >= 8, C's minimum.
const arithSIMDMin = 128

var arithSIMD = newSIMDSwitch(C.mxgo_arith_supported() != 0)

// SetArithSIMD turns the C kernels of float32 and float64 + - * / on or off (on takes
// effect only where the CPU runs them) and returns whether they were on. It is for
// tests, to check the Go loops on a machine with AVX2; call it with no operation in
// flight (ops.WaitAll).
func SetArithSIMD(on bool) (was bool) {
	return arithSIMD.set(on)
}

// ArithRow sets o[i] = x[i] op y[i] as the operators' contiguous rows do (in C or Go,
// per SetArithSIMD and the row's length); o may be x or y. For tests and benchmarks.
func ArithRow[T float32 | float64](op BinaryOp, o, x, y []T) {
	arithRow(op, o, x, y, false)
}

// ArithScalarRow sets o[i] = x[i] op c, or c op x[i] if reverse, as ArithRow does.
func ArithScalarRow[T float32 | float64](op BinaryOp, o, x []T, c T, reverse bool) {
	arithScalarRow(op, o, x, c, reverse, false)
}

// arithSIMDRow runs o = x op y in C and reports true, or reports false (doing nothing)
// where Go is to run: T not float32 or float64, an op other than the four, C off, an
// operand misaligned. len(x) and len(y) are len(o) >= arithSIMDMin.
func arithSIMDRow[T number](op BinaryOp, o, x, y []T) bool {
	po, px, py := unsafe.Pointer(unsafe.SliceData(o)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
	if uint(op) > uint(Div) || !arithSIMD.enabled() || misaligned(unsafe.Sizeof(*new(T)), po, px, py) {
		return false
	}
	switch any(*new(T)).(type) { // a zero value boxes without allocating
	case float32:
		C.mxgo_arith_f32(C.int(op), (*C.float)(po), (*C.float)(px), (*C.float)(py), C.long(len(o)))
	case float64:
		C.mxgo_arith_f64(C.int(op), (*C.double)(po), (*C.double)(px), (*C.double)(py), C.long(len(o)))
	default:
		return false
	}
	return true
}

// arithSIMDScalarRow is arithSIMDRow for o = x op c, or c op x if reverse.
func arithSIMDScalarRow[T number](op BinaryOp, o, x []T, c T, reverse bool) bool {
	po, px, pc := unsafe.Pointer(unsafe.SliceData(o)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(&c)
	if uint(op) > uint(Div) || !arithSIMD.enabled() || misaligned(unsafe.Sizeof(c), po, px, nil) {
		return false
	}
	// arithScalarRow computes x + c and x * c even when reversed: the same value, and
	// the operand order that decides which NaN's payload wins; C must do the same.
	rev := C.int(0)
	if reverse && (op == Sub || op == Div) {
		rev = 1
	}
	switch any(*new(T)).(type) {
	case float32:
		C.mxgo_arith_scalar_f32(C.int(op), (*C.float)(po), (*C.float)(px), *(*C.float)(pc), rev, C.long(len(o)))
	case float64:
		C.mxgo_arith_scalar_f64(C.int(op), (*C.double)(po), (*C.double)(px), *(*C.double)(pc), rev, C.long(len(o)))
	default:
		return false
	}
	return true
}
