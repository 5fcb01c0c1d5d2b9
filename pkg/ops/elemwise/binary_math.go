package elemwise

import (
	"math"
	"math/cmplx"
	"strconv"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// mathOp is power, maximum, minimum or modulo.
type mathOp int

const (
	mPow mathOp = iota
	mMax
	mMin
	mMod
)

var mathOps = []struct {
	name, doc   string
	op          mathOp
	dtypes      []ndarray.DType
	grad, sgrad *ops.Gradient // the array form's and the scalar form's (MXNet's ties: maximum's lhs takes them)
}{
	{"power", "First array raised to the powers of the second, elementwise, with NumPy broadcasting. " +
		"Integer arrays compute as MXNet's: in float32, converted back as C casts (so results past 2**24 are " +
		"rounded and overflow gives int32's or int64's minimum). A negative exponent (in an array, or a scalar, " +
		"converted to the array's dtype first) gives the truncated reciprocal (1 for a base of 1, -1 or 1 for " +
		"-1, 0 otherwise) and, for a base of 0, infinity converted as C does.", mPow, ops.NumericDTypes,
		ops.GradExpr("g * b * a ** (b - 1)", "g * y * log(a)"), powerScalarGrad},
	{"maximum", "Elementwise maximum, with NumPy broadcasting. NaN propagates (complex numbers compare lexicographically, as in NumPy).",
		mMax, ops.AllDTypes, ops.GradExpr("g * (a >= b)", "g * (a < b)"), ops.GradExpr("g * (x >= $scalar)")},
	{"minimum", "Elementwise minimum, with NumPy broadcasting. NaN propagates (complex numbers compare lexicographically, as in NumPy).",
		mMin, ops.AllDTypes, ops.GradExpr("g * (a <= b)", "g * (a > b)"), ops.GradExpr("g * (x <= $scalar)")},
	{"modulo", "Remainder of the division of the first array by the second, elementwise, with NumPy broadcasting " +
		"(NDArray's %). As in MXNet (and Python), the result has the sign of the divisor; x % 0 is 0.",
		mMod, ops.DTypesExcept(ndarray.Bool, ndarray.Complex64, ndarray.Complex128),
		ops.GradExpr("g", "-(g * floor(a / b))"), ops.GradExprRev("g", "-(g * floor($scalar / x))")},
}

func init() {
	for _, m := range mathOps {
		op, name := m.op, m.name
		ops.Register(&ops.Op{
			Name: name, Doc: m.doc + "\n\nBoth arrays must have the same dtype, as in MXNet.",
			Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"}, DTypes: m.dtypes, InPlace: true,
			ScalarOp: "_" + name + "_scalar",
			Infer:    ops.InferBroadcastSameDType,
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
					runMath(op, out[0], in[0], in[1])
					return nil
				})
			},
			Grad: m.grad,
		})
		ops.Register(&ops.Op{
			Name: "_" + name + "_scalar", Doc: m.doc + " (one operand a Python number, converted to the array's dtype first, as in MXNet)",
			Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: m.dtypes, InPlace: true,
			Params: []ops.Param{
				{Name: "scalar", Kind: ops.ParamScalar, Doc: "the number"},
				{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "compute op(scalar, data) instead of op(data, scalar)"},
			},
			Infer: ops.InferSame,
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				if op == mPow && !at.Bool("reverse") && powerByUnary(out[0], in[0], at.Scalar("scalar")) {
					return nil
				}
				return withScalarArray(in[0], out[0].Shape(), at.Scalar("scalar"), func(s *ndarray.NDArray) {
					if at.Bool("reverse") {
						runMath(op, out[0], s, in[0])
					} else {
						runMath(op, out[0], in[0], s)
					}
				})
			},
			Grad: m.sgrad,
		})
	}
}

// powerScalarGrad is the gradient of x ** s and, reversed, s ** x (s * x**(s-1), and
// s**x * ln s).
var powerScalarGrad = func() *ops.Gradient {
	fwd := ops.GradExpr("g * $scalar * x ** ($scalar - 1)")
	return &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		if !c.Attrs.Bool("reverse") {
			return fwd.Func(c)
		}
		gy, err := c.Call("multiply", "", c.OutGrad[0], c.Out[0])
		if err != nil {
			return nil, err
		}
		defer gy.Release()
		ln := math.Log(ops.ScalarFloat(c.Attrs.Scalar("scalar")))
		r, err := c.Call("_multiply_scalar", "scalar=f:"+strconv.FormatFloat(ln, 'g', -1, 64), gy)
		return []*ndarray.NDArray{r}, err
	}}
}()

// powerByUnary computes x ** 2 and x ** 0.5 for floating-point x as square and sqrt, as
// NumPy does (faster, and exact for squares); it reports whether it did.
func powerByUnary(out, x *ndarray.NDArray, s ops.Scalar) bool {
	if !ops.IsFloat(x.DType()) || imag(s.Value) != 0 {
		return false
	}
	name := map[float64]string{2: "square", 0.5: "sqrt"}[ops.ScalarFloat(s)]
	for i := range unary.Defs {
		if d := &unary.Defs[i]; d.Name == name {
			d.Run(out, x)
			return true
		}
	}
	return false
}

// withScalarArray calls fn with s converted to like's dtype, as a read-only array of the
// given shape whose elements all share one stored value.
func withScalarArray(like *ndarray.NDArray, shape []int, s ops.Scalar, fn func(*ndarray.NDArray)) error {
	c, err := ndarray.Empty(like.DType(), []int{}, like.Device())
	if err != nil {
		return err
	}
	defer c.Release()
	s.Store(like.DType(), c.Data())
	v, err := c.BroadcastTo(shape)
	if err != nil {
		return err
	}
	defer v.Release()
	fn(v)
	return nil
}

// runMath computes out = op(a, b) for a, b and out of one dtype and shape.
func runMath(op mathOp, out, a, b *ndarray.NDArray) {
	if fastMaxMin(op, out, a, b) {
		return
	}
	if op == mPow && a.DType() == ndarray.Float32 && ops.FastKernels() {
		rows2(out, a, b, pow32Rows)
		return
	}
	switch dt := a.DType(); {
	case dt == ndarray.Bool: // maximum is or, minimum is and
		if op == mMax {
			ops.Map2(out, a, b, func(x, y uint8) uint8 { return ops.B2u(x|y != 0) })
		} else {
			ops.Map2(out, a, b, func(x, y uint8) uint8 { return ops.B2u(x != 0 && y != 0) })
		}
	case ops.IsFloat(dt):
		ops.FloatMap2(out, a, b, floatMathFn(op))
	case dt.Kind() == ndarray.KindComplex:
		ops.ComplexMap2(out, a, b, complexMathFn(op))
	default:
		intMath(op, out, a, b)
	}
}

func intMath(op mathOp, out, a, b *ndarray.NDArray) {
	switch a.DType() {
	case ndarray.Int8:
		ops.Map2(out, a, b, intMathFn[int8](op))
	case ndarray.Int16:
		ops.Map2(out, a, b, intMathFn[int16](op))
	case ndarray.Int32:
		ops.Map2(out, a, b, intMathFn[int32](op))
	case ndarray.Int64:
		ops.Map2(out, a, b, intMathFn[int64](op))
	case ndarray.Uint8:
		ops.Map2(out, a, b, intMathFn[uint8](op))
	case ndarray.Uint16:
		ops.Map2(out, a, b, intMathFn[uint16](op))
	case ndarray.Uint32:
		ops.Map2(out, a, b, intMathFn[uint32](op))
	case ndarray.Uint64:
		ops.Map2(out, a, b, intMathFn[uint64](op))
	}
}

func intMathFn[T ops.IntElem](op mathOp) func(x, y T) T {
	switch op {
	case mMax:
		return func(x, y T) T { return max(x, y) }
	case mMin:
		return func(x, y T) T { return min(x, y) }
	case mMod:
		return imod[T]
	}
	return ipow[T]
}

// imod is MXNet's integer modulo: the remainder with the divisor's sign, and x % 0 = 0.
func imod[T ops.IntElem](x, y T) T {
	if y == 0 {
		return 0
	}
	r := x % y
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

// fmod is MXNet's floating-point modulo: the remainder with the divisor's sign, and x % 0 = 0.
func fmod(x, y float64) float64 {
	if y == 0 {
		return 0
	}
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

// ipow is MXNet's integer power: powf of the operands converted to float32, converted
// back as C does on x86. So results past float32's 24-bit mantissa are rounded (int32
// 12345**2 is 152399024), overflow gives the "integer indefinite" (int32's minimum; 0
// for int8), and a negative y the truncated reciprocal (0 unless x is 1 or -1; infinity
// for a base of 0). The power is taken in float64, whose result rounded to float32 is
// glibc's correctly rounded powf.
func ipow[T ops.IntElem](x, y T) T {
	return ops.CToInt[T](float64(float32(math.Pow(float64(float32(x)), float64(float32(y))))))
}

// pow32Rows is float32 power over rows: internal/simd's AVX-512 powf, or glibc's
// libmvec one on AVX2 CPUs (both within 1 ulp, tests_go/ops_mvec_ulp_test.go), for rows
// of 32 and more, else the general path's float64 power rounded (correctly rounded but
// for double rounding). The special cases are C99's in all, which are Go's
// (pow(1, NaN) = pow(x, ±0) = 1).
func pow32Rows(o, x, y []float32) {
	if simd.Pow32(o, x, y) {
		return
	}
	x, y = x[:len(o)], y[:len(o)]
	for i := range o {
		o[i] = float32(math.Pow(float64(x[i]), float64(y[i])))
	}
}

func floatMathFn(op mathOp) func(x, y float64) float64 {
	switch op {
	case mMax:
		return fmaximum
	case mMin:
		return fminimum
	case mMod:
		return fmod
	}
	return math.Pow
}

// fmaximum and fminimum are NumPy's maximum and minimum: NaN in either operand
// propagates, and ties (0.0 and -0.0) give the second operand.
func fmaximum(x, y float64) float64 {
	if x > y || x != x {
		return x
	}
	return y
}

func fminimum(x, y float64) float64 {
	if x < y || x != x {
		return x
	}
	return y
}

func complexMathFn(op mathOp) func(x, y complex128) complex128 {
	switch op {
	case mMax:
		return func(x, y complex128) complex128 {
			if isNaNC(x) || complexCmp(cGe, x, y) {
				return x
			}
			return y
		}
	case mMin:
		return func(x, y complex128) complex128 {
			if isNaNC(x) || complexCmp(cLe, x, y) {
				return x
			}
			return y
		}
	}
	return cpow
}

func isNaNC(z complex128) bool { return real(z) != real(z) || imag(z) != imag(z) }

// cpow is NumPy 2's complex power: x**0 is 1, 0**y is 0 where real(y) > 0 and NaN
// otherwise (NumPy 1 gave NaN unless y was real), small integer powers multiply out,
// everything else is exp(y log x).
func cpow(x, y complex128) complex128 {
	yr, yi := real(y), imag(y)
	switch {
	case y == 0:
		return 1
	case x == 0:
		if yr > 0 {
			return 0
		}
		return complex(math.NaN(), math.NaN())
	case yi == 0 && yr == math.Trunc(yr) && math.Abs(yr) < 100:
		n := int(yr)
		switch n {
		case 1:
			return x
		case 2:
			return x * x
		case 3:
			return x * (x * x)
		}
		r, p := complex128(1), x
		for k := max(n, -n); ; {
			if k&1 != 0 {
				r *= p
			}
			if k >>= 1; k == 0 {
				break
			}
			p *= p
		}
		if n < 0 {
			r = 1 / r
		}
		return r
	}
	return cmplx.Pow(x, y)
}
