package elemwise

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's predicates (_npi_isnan ... _npi_signbit, _npi_logical_not) and logical
// and/or/xor: bool results, as in NumPy. MXNet 1.9.1 has no _npi_logical_and/or/xor;
// they take its naming.

// npPredicates: real is the test of a real element (integers and bool read as float64,
// exactly enough for these tests); cplx of a complex one (nil: NumPy refuses complex).
var npPredicates = []struct {
	name, doc string
	real      func(float64) bool
	cplx      func(complex128) bool
}{
	{"isnan", "NaN", func(x float64) bool { return x != x }, func(z complex128) bool { return isNaNC(z) }},
	{"isinf", "±inf (complex: in either part)", func(x float64) bool { return math.IsInf(x, 0) },
		func(z complex128) bool { return math.IsInf(real(z), 0) || math.IsInf(imag(z), 0) }},
	{"isfinite", "neither inf nor NaN (complex: both parts)", isFinite,
		func(z complex128) bool { return isFinite(real(z)) && isFinite(imag(z)) }},
	{"isposinf", "+inf", func(x float64) bool { return math.IsInf(x, 1) }, nil},
	{"isneginf", "-inf", func(x float64) bool { return math.IsInf(x, -1) }, nil},
	{"signbit", "with the sign bit set (-0.0 and -nan included; integers: negative)", math.Signbit, nil},
	{"logical_not", "0 (complex: 0 in both parts; NaN is true)", func(x float64) bool { return x == 0 },
		func(z complex128) bool { return z == 0 }},
}

func isFinite(x float64) bool { return !math.IsInf(x, 0) && x == x }

func init() {
	for _, p := range npPredicates {
		dtypes, real, cplx := ops.AllDTypes, p.real, p.cplx
		if cplx == nil {
			dtypes = ops.RealDTypes
		}
		npUnary{
			name: "_npi_" + p.name, dtypes: dtypes, grad: ops.ZeroGrad,
			doc: "Whether each element is " + p.doc + ", as a bool array (NumPy's " + p.name + "). Bool and " +
				"integer arrays give constant results where their values cannot be special.",
			run: func(out, in *ndarray.NDArray) error {
				switch in.DType() {
				case ndarray.Float32: // the common case without RealApply's conversion
					ops.Map1(out, in, func(x float32) bool { return real(float64(x)) })
				case ndarray.Complex64:
					ops.Map1(out, in, func(z complex64) bool { return cplx(complex128(z)) })
				case ndarray.Complex128:
					ops.Map1(out, in, cplx)
				default:
					ops.RealApply(out, in, real)
				}
				return nil
			},
		}.register()
	}
	for _, l := range []struct {
		name string
		op   logicOp
	}{{"logical_and", lAnd}, {"logical_or", lOr}, {"logical_xor", lXor}} {
		op := l.op
		npBinary{
			name: "_npi_" + l.name, dtypes: ops.AllDTypes, boolOut: true, grad: ops.ZeroGrad, sgrad: ops.ZeroGrad,
			doc: "NumPy's " + l.name + " elementwise, as a bool array: an element is true when it is not 0 (NaN is true).",
			run: func(out, a, b *ndarray.NDArray) { runNpLogical(op, out, a, b) },
			scalar: func(out, a *ndarray.NDArray, s ops.Scalar, _ bool) error {
				t := npScalarValue(a.DType(), s) != 0
				if s.IsInt {
					t = s.Int != 0
				}
				runNpLogical(op, out, a, nil, t)
				return nil
			},
		}.register()
	}
}

// runNpLogical sets out (bool) to op(truth(a), truth(b)), or op(truth(a), t) without b.
func runNpLogical(op logicOp, out, a, b *ndarray.NDArray, t ...bool) {
	switch dt := a.DType(); {
	case b == nil: // the scalar form: below
	case dt == ndarray.Float32:
		logicalTyped[uint8, float32](op, out, a, b)
		return
	case dt == ndarray.Float64:
		logicalTyped[uint8, float64](op, out, a, b)
		return
	case dt != ndarray.Bool && ops.IsIntegral(dt): // by width: only != 0 matters
		pickInt(dt, [8]func(logicOp, *ndarray.NDArray, *ndarray.NDArray, *ndarray.NDArray){logicalTyped[uint8, uint8],
			logicalTyped[uint8, uint16], logicalTyped[uint8, uint32], logicalTyped[uint8, uint64], logicalTyped[uint8, uint8],
			logicalTyped[uint8, uint16], logicalTyped[uint8, uint32], logicalTyped[uint8, uint64]})(op, out, a, b)
		return
	}
	switch a.DType() {
	case ndarray.Float16, ndarray.Bfloat16: // ±0 are the values with only the sign bit set
		logicalRun(op, out, a, b, t, func(x uint16) bool { return x&0x7fff != 0 })
	case ndarray.Float32:
		logicalRun(op, out, a, b, t, func(x float32) bool { return x != 0 })
	case ndarray.Float64:
		logicalRun(op, out, a, b, t, func(x float64) bool { return x != 0 })
	case ndarray.Complex64:
		logicalRun(op, out, a, b, t, func(x complex64) bool { return x != 0 })
	case ndarray.Complex128:
		logicalRun(op, out, a, b, t, func(x complex128) bool { return x != 0 })
	case ndarray.Int16, ndarray.Uint16:
		logicalRun(op, out, a, b, t, func(x uint16) bool { return x != 0 })
	case ndarray.Int32, ndarray.Uint32:
		logicalRun(op, out, a, b, t, func(x uint32) bool { return x != 0 })
	case ndarray.Int64, ndarray.Uint64:
		logicalRun(op, out, a, b, t, func(x uint64) bool { return x != 0 })
	default: // bool, int8, uint8
		logicalRun(op, out, a, b, t, func(x uint8) bool { return x != 0 })
	}
}

func logicalRun[T any](op logicOp, out, a, b *ndarray.NDArray, t []bool, truth func(T) bool) {
	if b == nil {
		c := t[0]
		switch op {
		case lAnd:
			ops.Map1(out, a, func(x T) bool { return truth(x) && c })
		case lOr:
			ops.Map1(out, a, func(x T) bool { return truth(x) || c })
		default:
			ops.Map1(out, a, func(x T) bool { return truth(x) != c })
		}
		return
	}
	switch op {
	case lAnd:
		ops.Map2(out, a, b, func(x, y T) bool { return truth(x) && truth(y) })
	case lOr:
		ops.Map2(out, a, b, func(x, y T) bool { return truth(x) || truth(y) })
	default:
		ops.Map2(out, a, b, func(x, y T) bool { return truth(x) != truth(y) })
	}
}
