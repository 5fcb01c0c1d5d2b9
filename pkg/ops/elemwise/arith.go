package elemwise

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// BinaryOp is an elementwise arithmetic operator.
type BinaryOp int

// The arithmetic operators of NDArray's + - * /.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
)

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// apply computes x op y. Integer division by zero gives 0 (NumPy's result) instead of
// Go's panic.
func apply[T number](op BinaryOp, x, y T, integral bool) T {
	switch op {
	case Add:
		return x + y
	case Sub:
		return x - y
	case Mul:
		return x * y
	}
	if integral && y == 0 {
		return 0
	}
	return x / y
}

// The arithmetic operators, as registered: broadcasting array forms and the scalar
// forms Python's operators use for `x + 2` and `2 - x`.
var arithOps = []struct {
	name, doc   string
	op          BinaryOp
	grad, sgrad *ops.Gradient // the array form's and the scalar form's
}{
	{"add", "Adds arrays elementwise, with NumPy broadcasting.", Add, ops.GradExpr("g", "g"), ops.GradExpr("g")},
	{"subtract", "Subtracts arrays elementwise, with NumPy broadcasting.", Sub,
		ops.GradExpr("g", "-g"), ops.GradExprRev("g", "-g")},
	{"multiply", "Multiplies arrays elementwise, with NumPy broadcasting.", Mul,
		ops.GradExpr("g * b", "g * a"), ops.GradExpr("g * $scalar")},
	{"divide", "Divides arrays elementwise, with NumPy broadcasting. Integer division truncates and x / 0 is 0.", Div,
		ops.GradExpr("g / b", "-(g * a / (b * b))"), ops.GradExprRev("g / $scalar", "-(g * $scalar / (x * x))")},
}

// arithDTypes are the dtypes + - * / accept (bool has no arithmetic in MXNet).
var arithDTypes = ops.DTypesExcept(ndarray.Bool)

func init() {
	for _, a := range arithOps {
		op := a.op
		ops.Register(&ops.Op{
			Name: a.name, Doc: a.doc + "\n\nBoth arrays must have the same dtype, as in MXNet.",
			Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"}, DTypes: arithDTypes, InPlace: true,
			ScalarOp: "_" + a.name + "_scalar",
			Infer:    ops.InferBroadcastSameDType,
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error { return runBinary(op, out[0], in[0], in[1], nil, false) })
			},
			Grad: a.grad,
		})
		ops.Register(&ops.Op{
			Name: "_" + a.name + "_scalar", Doc: a.doc + " (one operand a Python number, converted to the array's dtype)",
			Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: arithDTypes, InPlace: true,
			Params: []ops.Param{
				{Name: "scalar", Kind: ops.ParamScalar, Doc: "the number"},
				{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "compute scalar op data instead of data op scalar"},
			},
			Infer: ops.InferSame,
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				s := at.Scalar("scalar")
				return runBinary(op, out[0], in[0], nil, &s, at.Bool("reverse"))
			},
			Grad: a.sgrad,
		})
	}
}

// Binary computes out = a op b elementwise with broadcasting (on the engine). a and b
// must share a dtype, as in MXNet's NDArray arithmetic; out may be a or b.
func Binary(op BinaryOp, out, a, b *ndarray.NDArray) error {
	return ops.InvokeInto(arithOps[op].name, []*ndarray.NDArray{a, b}, out, nil)
}

// BinaryScalar computes out = a op s, or s op a when reverse is set. The scalar is first
// converted to a's dtype, as MXNet does.
func BinaryScalar(op BinaryOp, out, a *ndarray.NDArray, s ops.Scalar, reverse bool) error {
	return ops.InvokeInto("_"+arithOps[op].name+"_scalar", []*ndarray.NDArray{a}, out, ops.Attrs{"scalar": s, "reverse": reverse})
}

// runBinary is the kernel of Binary and BinaryScalar; it dispatches on dtype. b is nil
// for the scalar forms.
func runBinary(op BinaryOp, out, a, b *ndarray.NDArray, s *ops.Scalar, reverse bool) error {
	switch a.DType() {
	case ndarray.Int8:
		binaryTyped[int8](op, out, a, b, s, reverse)
	case ndarray.Int16:
		binaryTyped[int16](op, out, a, b, s, reverse)
	case ndarray.Int32:
		binaryTyped[int32](op, out, a, b, s, reverse)
	case ndarray.Int64:
		binaryTyped[int64](op, out, a, b, s, reverse)
	case ndarray.Uint8:
		binaryTyped[uint8](op, out, a, b, s, reverse)
	case ndarray.Uint16:
		binaryTyped[uint16](op, out, a, b, s, reverse)
	case ndarray.Uint32:
		binaryTyped[uint32](op, out, a, b, s, reverse)
	case ndarray.Uint64:
		binaryTyped[uint64](op, out, a, b, s, reverse)
	case ndarray.Float32:
		binaryTyped[float32](op, out, a, b, s, reverse)
	case ndarray.Float64:
		binaryTyped[float64](op, out, a, b, s, reverse)
	case ndarray.Complex64:
		binaryTyped[complex64](op, out, a, b, s, reverse)
	case ndarray.Complex128:
		binaryTyped[complex128](op, out, a, b, s, reverse)
	case ndarray.Float16, ndarray.Bfloat16:
		binaryGeneral(op, out, a, b, s, reverse)
	default:
		return mxerr.TypeErr("arithmetic is not supported for %s", a.DType())
	}
	return nil
}

func binaryTyped[T number](op BinaryOp, out, a, b *ndarray.NDArray, s *ops.Scalar, reverse bool) {
	integral := ops.IsIntegral(a.DType())
	po, pa := out.Storage().Ptr(), a.Storage().Ptr()
	if b == nil {
		var c T
		s.Store(a.DType(), unsafe.Pointer(&c))
		if n := out.Size(); out.Contiguous() && a.Contiguous() {
			o, x := unsafe.Slice(ops.ElemAt[T](po, out.Offset()), n), unsafe.Slice(ops.ElemAt[T](pa, a.Offset()), n)
			if arithSIMDFlatScalar(op, o, x, &c, reverse) {
				return
			}
			if n < ndarray.SerialBelow {
				arithScalarRow(op, o, x, c, reverse, integral) // as below, without the walk's allocations
				return
			}
		}
		ndarray.ParallelRows(out.Shape(), ops.Operands(out, a), func(offs []int, n int, st []int) {
			o, x := ops.ElemAt[T](po, offs[0]), ops.ElemAt[T](pa, offs[1])
			if st[0] == 1 && st[1] == 1 {
				arithScalarRow(op, unsafe.Slice(o, n), unsafe.Slice(x, n), c, reverse, integral)
				return
			}
			po, px := unsafe.Pointer(o), unsafe.Pointer(x)
			for i := 0; i < n; i++ {
				v := *ops.ElemAt[T](px, i*st[1])
				if reverse {
					*ops.ElemAt[T](po, i*st[0]) = apply(op, c, v, integral)
				} else {
					*ops.ElemAt[T](po, i*st[0]) = apply(op, v, c, integral)
				}
			}
		})
		return
	}
	pb := b.Storage().Ptr()
	if n := out.Size(); out.Contiguous() && a.Contiguous() && b.Contiguous() { // same shapes here
		o, x, y := unsafe.Slice(ops.ElemAt[T](po, out.Offset()), n), unsafe.Slice(ops.ElemAt[T](pa, a.Offset()), n),
			unsafe.Slice(ops.ElemAt[T](pb, b.Offset()), n)
		if arithSIMDFlat(op, o, x, y) {
			return
		}
		if n < ndarray.SerialBelow { // one row, without the walk's allocations
			arithRow(op, o, x, y, integral)
			return
		}
	}
	if arithSIMDRows[T](op, out, a, b) {
		return
	}
	ndarray.ParallelRows(out.Shape(), ops.Operands(out, a, b), func(offs []int, n int, st []int) {
		o, x, y := ops.ElemAt[T](po, offs[0]), ops.ElemAt[T](pa, offs[1]), ops.ElemAt[T](pb, offs[2])
		switch {
		case st[0] == 1 && st[1] == 1 && st[2] == 1:
			arithRow(op, unsafe.Slice(o, n), unsafe.Slice(x, n), unsafe.Slice(y, n), integral)
			return
		case st[0] == 1 && st[1] == 1 && st[2] == 0: // b broadcast along the row
			arithScalarRow(op, unsafe.Slice(o, n), unsafe.Slice(x, n), *y, false, integral)
			return
		case st[0] == 1 && st[1] == 0 && st[2] == 1: // a broadcast along the row
			arithScalarRow(op, unsafe.Slice(o, n), unsafe.Slice(y, n), *x, true, integral)
			return
		}
		po, px, py := unsafe.Pointer(o), unsafe.Pointer(x), unsafe.Pointer(y)
		for i := 0; i < n; i++ {
			*ops.ElemAt[T](po, i*st[0]) = apply(op, *ops.ElemAt[T](px, i*st[1]), *ops.ElemAt[T](py, i*st[2]), integral)
		}
	})
}

// arithRow is the contiguous loop of binaryTyped: the operator is chosen once per row
// so that each loop compiles to plain slice arithmetic.
func arithRow[T number](op BinaryOp, o, x, y []T, integral bool) {
	x, y = x[:len(o)], y[:len(o)]
	if arithSIMDRow(op, o, x, y) { // float32/64 with AVX2 (arith_simd.go)
		return
	}
	switch {
	case op == Add:
		for i := range o {
			o[i] = x[i] + y[i]
		}
	case op == Sub:
		for i := range o {
			o[i] = x[i] - y[i]
		}
	case op == Mul:
		for i := range o {
			o[i] = x[i] * y[i]
		}
	case integral:
		for i := range o {
			o[i] = apply(Div, x[i], y[i], true)
		}
	default:
		for i := range o {
			o[i] = x[i] / y[i]
		}
	}
}

// arithScalarRow is arithRow with a constant operand: o = x op c, or c op x if reverse.
func arithScalarRow[T number](op BinaryOp, o, x []T, c T, reverse, integral bool) {
	x = x[:len(o)]
	if arithSIMDScalarRow(op, o, x, c, reverse) {
		return
	}
	switch {
	case op == Add:
		for i := range o {
			o[i] = x[i] + c
		}
	case op == Mul:
		for i := range o {
			o[i] = x[i] * c
		}
	case op == Sub && !reverse:
		for i := range o {
			o[i] = x[i] - c
		}
	case op == Sub:
		for i := range o {
			o[i] = c - x[i]
		}
	case reverse:
		for i := range o {
			o[i] = apply(Div, c, x[i], integral)
		}
	default:
		for i := range o {
			o[i] = apply(Div, x[i], c, integral)
		}
	}
}

// binaryGeneral computes in float64 through elemIO (float16 and bfloat16).
func binaryGeneral(op BinaryOp, out, a, b *ndarray.NDArray, s *ops.Scalar, reverse bool) {
	io := ops.IOTable[a.DType()]
	size := a.DType().Size()
	po, pa := out.Storage().Ptr(), a.Storage().Ptr()
	at := func(p unsafe.Pointer, i int) unsafe.Pointer { return unsafe.Add(p, i*size) }
	if b == nil {
		var c [2]byte
		s.Store(a.DType(), unsafe.Pointer(&c[0]))
		cv := real(io.LoadC(unsafe.Pointer(&c[0])))
		ndarray.ParallelRows(out.Shape(), ops.Operands(out, a), func(offs []int, n int, st []int) {
			for i := 0; i < n; i++ {
				v := real(io.LoadC(at(pa, offs[1]+i*st[1])))
				r := apply(op, v, cv, false)
				if reverse {
					r = apply(op, cv, v, false)
				}
				io.StoreC(at(po, offs[0]+i*st[0]), complex(r, 0))
			}
		})
		return
	}
	pb := b.Storage().Ptr()
	ndarray.ParallelRows(out.Shape(), ops.Operands(out, a, b), func(offs []int, n int, st []int) {
		for i := 0; i < n; i++ {
			r := apply(op, real(io.LoadC(at(pa, offs[1]+i*st[1]))), real(io.LoadC(at(pb, offs[2]+i*st[2]))), false)
			io.StoreC(at(po, offs[0]+i*st[0]), complex(r, 0))
		}
	})
}
