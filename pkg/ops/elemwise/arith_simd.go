package elemwise

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
)

// The C kernels of arith.go's contiguous float32 and float64 rows of + - * /
// (internal/simd): the same bits as the Go loops, which run everything else.

// The C kernels number the operations as BinaryOp does.
var (
	_ [int(simd.Add) - int(Add)]struct{}
	_ [int(Add) - int(simd.Add)]struct{}
	_ [int(simd.Div) - int(Div)]struct{}
	_ [int(Div) - int(simd.Div)]struct{}
)

// ArithRow sets o[i] = x[i] op y[i] as the operators' contiguous rows do (in C or Go,
// per simd.SetArith and the row's length); o may be x or y. For tests and benchmarks.
func ArithRow[T float32 | float64](op BinaryOp, o, x, y []T) {
	arithRow(op, o, x, y, false)
}

// ArithScalarRow sets o[i] = x[i] op c, or c op x[i] if reverse, as ArithRow does.
func ArithScalarRow[T float32 | float64](op BinaryOp, o, x []T, c T, reverse bool) {
	arithScalarRow(op, o, x, c, reverse, false)
}

// arithSIMDRow runs o = x op y in C and reports true, or reports false (doing nothing)
// where Go is to run: T not float32 or float64, an op other than the four, or whatever
// simd.Arith declines.
func arithSIMDRow[T number](op BinaryOp, o, x, y []T) bool {
	if uint(op) > uint(Div) {
		return false
	}
	switch any(*new(T)).(type) { // a zero value boxes without allocating
	case float32:
		return simd.Arith(simd.Op(op), as[float32](o), as[float32](x), as[float32](y))
	case float64:
		return simd.Arith(simd.Op(op), as[float64](o), as[float64](x), as[float64](y))
	}
	return false
}

// arithSIMDScalarRow is arithSIMDRow for o = x op c, or c op x if reverse.
func arithSIMDScalarRow[T number](op BinaryOp, o, x []T, c T, reverse bool) bool {
	if uint(op) > uint(Div) {
		return false
	}
	switch v := any(c).(type) {
	case float32:
		return simd.ArithScalar(simd.Op(op), as[float32](o), as[float32](x), v, reverse)
	case float64:
		return simd.ArithScalar(simd.Op(op), as[float64](o), as[float64](x), v, reverse)
	}
	return false
}

// as views s, whose element type the caller has checked is E, as a []E.
func as[E, T any](s []T) []E { return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(s))), len(s)) }
