package elemwise

import (
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
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

// arithSIMDRows runs out = a op b in C, several rows a call, and reports true, where the
// walk is two-dimensional after merging (rows of a broadcast, like (R, 1000) + (1000,),
// or a column operand, (R, 1000) + (R, 1)) with contiguous rows of out and a row, or a
// number a row, of each operand; else false, doing nothing. The rows are computed as
// binaryTyped's walk computes them one call each (the same kernels, forms and bits),
// split across the cores in C (arithParts).
func arithSIMDRows[T number](op BinaryOp, out, a, b *ndarray.NDArray) bool {
	var z T
	if !simdFloat[T]() || uint(op) > uint(Div) || out.Size() < simd.ArithMin { // before Coalesce's allocations
		return false
	}
	args := ops.Operands(out, a, b)
	shp, st := ndarray.Coalesce(out.Shape(), args)
	if len(shp) != 2 || shp[1] < simd.ArithMin || st[0][1] != 1 {
		return false
	}
	var mode simd.RowsMode
	switch {
	case st[1][1] == 1 && st[2][1] == 1:
		mode = simd.RowsArrays
	case st[1][1] == 1 && st[2][1] == 0:
		mode = simd.RowsYScalar
	case st[1][1] == 0 && st[2][1] == 1:
		mode = simd.RowsXScalar
	default:
		return false
	}
	size := unsafe.Sizeof(z)
	at := func(x *ndarray.NDArray, k, row int) unsafe.Pointer {
		return unsafe.Add(x.Storage().Ptr(), (args[k].Offset+row*st[k][0])*int(size))
	}
	n := shp[1]
	return simd.ArithRows(simd.Op(op), mode, size, at(out, 0, 0), at(a, 1, 0), at(b, 2, 0), shp[0], n,
		st[0][0], st[1][0], st[2][0], arithParts(shp[0]*n))
}

// arithSIMDFlat runs o = x op y on contiguous rows in C, split across the cores from
// arithPartMin elements, and reports true; false, doing nothing, where arithSIMDRow
// would.
func arithSIMDFlat[T number](op BinaryOp, o, x, y []T) bool {
	if !simdFloat[T]() || uint(op) > uint(Div) || len(o) == 0 {
		return false
	}
	return simd.ArithRows(simd.Op(op), simd.RowsArrays, unsafe.Sizeof(o[0]), ptrOf(o), ptrOf(x), ptrOf(y), 1, len(o),
		0, 0, 0, arithParts(len(o)))
}

// arithSIMDFlatScalar is arithSIMDFlat for o = x op *c, or *c op x if reverse, computed
// as arithSIMDScalarRow computes it.
func arithSIMDFlatScalar[T number](op BinaryOp, o, x []T, c *T, reverse bool) bool {
	if !simdFloat[T]() || uint(op) > uint(Div) || len(o) == 0 {
		return false
	}
	mode, px, py := simd.RowsYScalar, ptrOf(x), unsafe.Pointer(c)
	if reverse {
		mode, px, py = simd.RowsXScalar, py, px
	}
	return simd.ArithRows(simd.Op(op), mode, unsafe.Sizeof(*c), ptrOf(o), px, py, 1, len(o), 0, 0, 0, arithParts(len(o)))
}

func simdFloat[T number]() bool {
	switch any(*new(T)).(type) {
	case float32, float64:
		return true
	}
	return false
}

func ptrOf[T any](s []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// arithPartMin is the fewest elements of a part when arithmetic splits across the cores
// (PyTorch's grain is 2^15). The pool's helpers spin between jobs and C runs the parts,
// so a split pays from here on, where a split of Go chunks (ndarray.SerialBelow, 2^19
// elements) waits on each helper's call into Go: float32 add of 1e5 elements 14.4 ->
// 7.4 µs (PyTorch on 2 threads 8.1), broadcast add of (100, 1000) + (1000,) 13.6 -> 6.6.
const arithPartMin = 1 << 14

// arithParts is how many parts a loop of n elements is cut into: one a core, of at
// least arithPartMin elements each; 1 below two parts' worth. Not more: the caller
// starts first and takes the first part, a helper the second, so each core finds its
// part in its own L2 from the call before (cut four a core, taken as they came, the
// 1e5-element add took 13.4 µs).
func arithParts(n int) int {
	if p := n / arithPartMin; p >= 2 {
		return min(p, ndarray.Cores())
	}
	return 1
}
