package simd

/*
#include "arith_avx2.h"
*/
import "C"

import "unsafe"

// + - * / on contiguous float32 and float64 rows (arith_avx2.c): eight float32 (four
// float64) an instruction where Go does one, with the bits, NaN payloads included, of
// the Go loops (each operation is its instruction in asm, operands in Go's order).

// Op is an arithmetic operation; its values are C's MXGO_ARITH_*.
type Op int

// The operations.
const (
	Add Op = C.MXGO_ARITH_ADD
	Sub Op = C.MXGO_ARITH_SUB
	Mul Op = C.MXGO_ARITH_MUL
	Div Op = C.MXGO_ARITH_DIV
)

// ArithMin is the shortest row handed to C. The cgo call costs ~35 ns (as long as ~90
// elements take in Go); a benchmark with the minimum lowered to 8 put the crossover of
// add at ~90 float32 and ~120 float64 elements (AMD EPYC). It must stay >= 8, C's
// minimum.
const ArithMin = 128

var arith = newFamily(C.mxgo_arith_supported() != 0)

// SetArith turns the arithmetic kernels on (where the CPU runs them) or off and returns
// whether they were on: a hook for tests of the Go loops, to call with no operation in
// flight.
func SetArith(on bool) (was bool) { return arith.set(on) }

// Arith sets o[i] = x[i] op y[i] in C and reports true, or reports false (doing
// nothing): rows shorter than ArithMin, misaligned operands, kernels off. o may be x or
// y; len(x) and len(y) are at least len(o).
func Arith[T float32 | float64](op Op, o, x, y []T) bool {
	po, px, py := unsafe.Pointer(unsafe.SliceData(o)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
	if len(o) < ArithMin || !arith.enabled() || Misaligned(unsafe.Sizeof(o[0]), po, px, py) {
		return false
	}
	if unsafe.Sizeof(o[0]) == 4 {
		C.mxgo_arith_f32(C.int(op), (*C.float)(po), (*C.float)(px), (*C.float)(py), C.long(len(o)))
	} else {
		C.mxgo_arith_f64(C.int(op), (*C.double)(po), (*C.double)(px), (*C.double)(py), C.long(len(o)))
	}
	return true
}

// ArithScalar is Arith for o[i] = x[i] op c, or c op x[i] when reverse. x + c and x * c
// are computed as such even when reversed, as the Go loops do: the same value, and the
// operand order that decides which NaN's payload wins.
func ArithScalar[T float32 | float64](op Op, o, x []T, c T, reverse bool) bool {
	po, px := unsafe.Pointer(unsafe.SliceData(o)), unsafe.Pointer(unsafe.SliceData(x))
	if len(o) < ArithMin || !arith.enabled() || Misaligned(unsafe.Sizeof(c), po, px, nil) {
		return false
	}
	rev := C.int(0)
	if reverse && (op == Sub || op == Div) {
		rev = 1
	}
	if unsafe.Sizeof(c) == 4 {
		C.mxgo_arith_scalar_f32(C.int(op), (*C.float)(po), (*C.float)(px), C.float(c), rev, C.long(len(o)))
	} else {
		C.mxgo_arith_scalar_f64(C.int(op), (*C.double)(po), (*C.double)(px), C.double(c), rev, C.long(len(o)))
	}
	return true
}

// RowsMode is how ArithRows reads its operands: both rows (RowsArrays), or one number a
// row from y (x op y[r], RowsYScalar) or from x (x[r] op y, RowsXScalar, computed as
// ArithScalar's reverse is).
type RowsMode int

// The modes.
const (
	RowsArrays  RowsMode = C.MXGO_ROWS_ARRAYS
	RowsYScalar RowsMode = C.MXGO_ROWS_Y_SCALAR
	RowsXScalar RowsMode = C.MXGO_ROWS_X_SCALAR
)

// ArithRowsOK reports whether ArithRows runs rows of n elements of esize bytes (4 or 8)
// from o, x and y: where Arith would (n >= ArithMin, aligned, kernels on).
func ArithRowsOK(esize uintptr, n int, o, x, y unsafe.Pointer) bool {
	return n >= ArithMin && arith.enabled() && !Misaligned(esize, o, x, y)
}

// ArithRows is Arith (or ArithScalar) on rows rows of n elements of esize bytes (4:
// float32, 8: float64), row r of o, x and y starting r*so, r*sx and r*sy elements after
// them, in one call into C (a broadcast, rows of 1000 plus one row, otherwise pays a cgo
// call a row), cut into up to parts parts that the pool's threads share (ranges of rows,
// or of the one row's columns): no part of the loop runs in Go. It reports false, doing
// nothing, where ArithRowsOK does.
func ArithRows(op Op, mode RowsMode, esize uintptr, o, x, y unsafe.Pointer, rows, n, so, sx, sy, parts int) bool {
	if !ArithRowsOK(esize, n, o, x, y) {
		return false
	}
	if rows == 1 { // parts of at least ArithMin columns, else of at least one row
		parts = min(parts, n/ArithMin)
	} else {
		parts = min(parts, rows)
	}
	C.mxgo_arith_rows_par(C.int(op), C.int(mode), C.long(esize), o, x, y, C.long(rows), C.long(n), C.long(so),
		C.long(sx), C.long(sy), C.long(max(parts, 1)))
	return true
}
