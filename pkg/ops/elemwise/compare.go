package elemwise

import (
	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// cmpOp is one of the six comparisons.
type cmpOp int

const (
	cEq cmpOp = iota
	cNe
	cGt
	cGe
	cLt
	cLe
)

// The comparison operators, under MXNet's names.
var cmpOps = []struct {
	name, sym string
	op        cmpOp
}{
	{"equal", "==", cEq}, {"not_equal", "!=", cNe},
	{"greater", ">", cGt}, {"greater_equal", ">=", cGe},
	{"lesser", "<", cLt}, {"lesser_equal", "<=", cLe},
}

const cmpDoc = " elementwise, with NumPy broadcasting; as in MXNet, the result is 1 or 0 in the operands' dtype " +
	"(so (x > 2) * x works; bool for two bool arrays, int64 for a bool array and a number). Comparisons with NaN are " +
	"false (not_equal: true); complex numbers order lexicographically, as in NumPy."

func init() {
	for _, c := range cmpOps {
		op := c.op
		ops.Register(&ops.Op{
			Name: c.name, Doc: "lhs " + c.sym + " rhs" + cmpDoc + "\n\nBoth arrays must have the same dtype, as in MXNet.",
			Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"}, DTypes: ops.AllDTypes, InPlace: true,
			ScalarOp: "_" + c.name + "_scalar",
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				return ops.InferBroadcastSameDType(in, at)
			},
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				if fastCompares(out[0], in[0]) {
					return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
						fastCompare(op, out[0], in[0], in[1])
						return nil
					})
				}
				return ops.ViaTemp(out[0], ndarray.Bool, func(o *ndarray.NDArray) error {
					return ops.BroadcastKernel(in, o, func(in []*ndarray.NDArray) error {
						runCompare(op, o, in[0], in[1])
						return nil
					})
				})
			},
			Grad: ops.ZeroGrad,
		})
		ops.Register(&ops.Op{
			Name: "_" + c.name + "_scalar", Doc: "data " + c.sym + " scalar" + cmpDoc + " As in MXNet, the number is first " +
				"converted to the array's dtype (C's cast of a double): integer arrays compare with it truncated and wrapped " +
				"(int32 x == 2.7 is x == 2; uint8 x > -1 is x > 255, false), floating-point arrays with it rounded to their dtype; " +
				"bool arrays compare their 0 and 1 with it cast to int64, and give int64 (MXNet's dtype there).",
			Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: ops.AllDTypes, InPlace: true,
			Params: []ops.Param{
				{Name: "scalar", Kind: ops.ParamScalar, Doc: "the number"},
				{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "compute scalar " + c.sym + " data instead"},
			},
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				if in[0].DType() == ndarray.Bool { // MXNet 1.9.1: a bool array and a number give int64
					return in[0].Shape(), ndarray.Int64, nil
				}
				return ops.InferSame(in, at)
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				o := op
				if at.Bool("reverse") {
					o = o.flip()
				}
				if fastCompareScalar(o, out[0], in[0], at.Scalar("scalar")) {
					return nil
				}
				return ops.ViaTemp(out[0], ndarray.Bool, func(t *ndarray.NDArray) error {
					runCompareScalar(o, t, in[0], at.Scalar("scalar"))
					return nil
				})
			},
			Grad: ops.ZeroGrad,
		})
	}
}

// flip is the comparison with its operands swapped: s < x is x > s.
func (op cmpOp) flip() cmpOp {
	switch op {
	case cGt:
		return cLt
	case cGe:
		return cLe
	case cLt:
		return cGt
	case cLe:
		return cGe
	}
	return op
}

func cmpFn[T ops.OrderedElem](op cmpOp) func(x, y T) bool {
	switch op {
	case cEq:
		return func(x, y T) bool { return x == y }
	case cNe:
		return func(x, y T) bool { return x != y }
	case cGt:
		return func(x, y T) bool { return x > y }
	case cGe:
		return func(x, y T) bool { return x >= y }
	case cLt:
		return func(x, y T) bool { return x < y }
	}
	return func(x, y T) bool { return x <= y }
}

// cmpScalarFn is x op c as one closure (one call per element in the kernels).
func cmpScalarFn[T ops.OrderedElem](op cmpOp, c T) func(x T) bool {
	switch op {
	case cEq:
		return func(x T) bool { return x == c }
	case cNe:
		return func(x T) bool { return x != c }
	case cGt:
		return func(x T) bool { return x > c }
	case cGe:
		return func(x T) bool { return x >= c }
	case cLt:
		return func(x T) bool { return x < c }
	}
	return func(x T) bool { return x <= c }
}

// complexCmp is NumPy's lexicographic comparison of complex numbers: real parts first,
// ignoring the imaginary parts' order only where one of them is NaN.
func complexCmp(op cmpOp, x, y complex128) bool {
	xr, xi, yr, yi := real(x), imag(x), real(y), imag(y)
	noNaN := xi == xi && yi == yi
	switch op {
	case cEq:
		return xr == yr && xi == yi
	case cNe:
		return xr != yr || xi != yi
	case cGt:
		return (xr > yr && noNaN) || (xr == yr && xi > yi)
	case cGe:
		return (xr > yr && noNaN) || (xr == yr && xi >= yi)
	case cLt:
		return (xr < yr && noNaN) || (xr == yr && xi < yi)
	}
	return (xr < yr && noNaN) || (xr == yr && xi <= yi)
}

// runCompare sets out (bool) to a op b for a and b of one dtype and out's shape.
func runCompare(op cmpOp, out, a, b *ndarray.NDArray) {
	switch a.DType() {
	case ndarray.Bool:
		f := cmpFn[uint8](op)
		ops.Map2(out, a, b, func(x, y uint8) bool { return f(min(x, 1), min(y, 1)) })
	case ndarray.Int8:
		ops.Map2(out, a, b, cmpFn[int8](op))
	case ndarray.Int16:
		ops.Map2(out, a, b, cmpFn[int16](op))
	case ndarray.Int32:
		ops.Map2(out, a, b, cmpFn[int32](op))
	case ndarray.Int64:
		ops.Map2(out, a, b, cmpFn[int64](op))
	case ndarray.Uint8:
		ops.Map2(out, a, b, cmpFn[uint8](op))
	case ndarray.Uint16:
		ops.Map2(out, a, b, cmpFn[uint16](op))
	case ndarray.Uint32:
		ops.Map2(out, a, b, cmpFn[uint32](op))
	case ndarray.Uint64:
		ops.Map2(out, a, b, cmpFn[uint64](op))
	case ndarray.Float32:
		ops.Map2(out, a, b, cmpFn[float32](op))
	case ndarray.Float64:
		ops.Map2(out, a, b, cmpFn[float64](op))
	case ndarray.Float16:
		f := cmpFn[float32](op)
		ops.Map2(out, a, b, func(x, y uint16) bool { return f(ops.F16ToF32(x), ops.F16ToF32(y)) })
	case ndarray.Bfloat16:
		f := cmpFn[float32](op)
		ops.Map2(out, a, b, func(x, y uint16) bool { return f(ops.Bf16ToF32(x), ops.Bf16ToF32(y)) })
	case ndarray.Complex64:
		ops.Map2(out, a, b, func(x, y complex64) bool { return complexCmp(op, complex128(x), complex128(y)) })
	case ndarray.Complex128:
		ops.Map2(out, a, b, func(x, y complex128) bool { return complexCmp(op, x, y) })
	}
}

// runCompareScalar sets out (bool) to a op s with MXNet's semantics: s is converted to
// a's dtype first, as MXNet converts its scalar (a double) with C's cast, and as mxgo's
// arithmetic does. Integer arrays compare with the number truncated toward zero and
// wrapped into the dtype (int32 x == 2.7 is x == 2; uint8 x > -1 is x > 255; NaN, the
// infinities and numbers beyond 32 bits become the minimum of int32 for the smaller
// dtypes, as on x86); bool arrays compare their 0 and 1 with the number cast to int64;
// floating-point arrays with the number rounded to their dtype; complex arrays with it
// converted to theirs. A complex s compares lexicographically with real arrays.
func runCompareScalar(op cmpOp, out, a *ndarray.NDArray, s ops.Scalar) {
	dt := a.DType()
	switch {
	case dt.Kind() == ndarray.KindComplex:
		c := ops.ScalarLoad(dt, s)
		if dt == ndarray.Complex64 {
			ops.Map1(out, a, func(x complex64) bool { return complexCmp(op, complex128(x), c) })
		} else {
			ops.Map1(out, a, func(x complex128) bool { return complexCmp(op, x, c) })
		}
	case imag(s.Value) != 0:
		c := s.Value
		if ops.IsFloat(dt) {
			c = complex(real(ops.ScalarLoad(dt, ops.Scalar{Value: complex(real(c), 0)})), imag(c))
		}
		ops.RealApply(out, a, func(x float64) bool { return complexCmp(op, complex(x, 0), c) })
	case dt == ndarray.Float32:
		ops.Map1(out, a, cmpScalarFn(op, float32(real(ops.ScalarLoad(dt, s)))))
	case dt == ndarray.Float64:
		ops.Map1(out, a, cmpScalarFn(op, real(ops.ScalarLoad(dt, s))))
	case ops.IsFloat(dt):
		f := cmpScalarFn(op, real(ops.ScalarLoad(dt, s)))
		ops.RealApply(out, a, f)
	default:
		intCompareScalar(op, out, a, ops.ScalarFloat(s))
	}
}

// intCompareScalar compares a bool or integer array with v converted to its dtype as C
// converts a double (bool: to int64, compared with the elements' 0 and 1).
func intCompareScalar(op cmpOp, out, a *ndarray.NDArray, v float64) {
	switch a.DType() {
	case ndarray.Bool:
		f := cmpScalarFn(op, ops.CToInt[int64](v))
		ops.Map1(out, a, func(x uint8) bool { return f(int64(min(x, 1))) })
	case ndarray.Int8:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[int8](v)))
	case ndarray.Int16:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[int16](v)))
	case ndarray.Int32:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[int32](v)))
	case ndarray.Int64:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[int64](v)))
	case ndarray.Uint8:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[uint8](v)))
	case ndarray.Uint16:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[uint16](v)))
	case ndarray.Uint32:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[uint32](v)))
	case ndarray.Uint64:
		ops.Map1(out, a, cmpScalarFn(op, ops.CToInt[uint64](v)))
	}
}
