package elemwise

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/unary"
)

// MXNet 1.x's elementwise math (arccos ... logical_not). Unlike the NumPy-style table in
// unary.go, these follow MXNet's dtype rule: the result has the input's dtype, integers
// included. MXNet computes an integer element in double and converts the result as C
// does on x86-64 (see cToInt): sqrt of int32 2 is 1, arccos of int32 2 (NaN) is
// INT32_MIN. Floating-point inputs keep their dtype: float64 computes in float64, the
// others in float64 rounded once (float16 and bfloat16 through float32), where MXNet
// uses the float32 functions: within MXNet's own rounding. Long float32 rows have
// kernels of their own (math_rows32.go). MXNet has no kernel for bool (refused here)
// nor complex (unary.Complex's functions, for mx.np).

// mxUnaryDef is one operator of the table.
type mxUnaryDef struct {
	name, doc string
	// floatOnly: MXNet has no integer kernel (hard_sigmoid).
	floatOnly bool
	// exactInt: the function maps integers to themselves (the rounding functions), so an
	// integer array is copied, exactly even beyond 2**53.
	exactInt bool
	params   []ops.Param
	// input is the operand's name ("" is MXNet's usual "data"; _npi_ operators say "x")
	input string
	// fn returns the function of one element, computed in float64, for the operator's
	// attributes and the input's dtype (parameters are rounded as MXNet stores them).
	fn func(at ops.Attrs, dt ndarray.DType) func(float64) float64
	// f32 is an optional float32 row kernel (dst[i] from src[i], dst may be src).
	f32 func(at ops.Attrs) func(dst, src []float32)
	// grad is the derivative; nil where mxgo has none yet (_digamma)
	grad *ops.Gradient
}

// plain wraps a parameterless function.
func plain(f func(float64) float64) func(ops.Attrs, ndarray.DType) func(float64) float64 {
	return func(ops.Attrs, ndarray.DType) func(float64) float64 { return f }
}

// MXNet's degrees and radians multiply by float32 factors, C's 180.0f / PI_f and
// PI_f / 180.0f (float64 and integer arrays in double: degrees(int32 1e6) is 57295776).
var (
	pi32        = float32(math.Pi)
	deg32       = float32(180) / pi32
	rad32       = pi32 / float32(180)
	degrees32   = func(x float64) float64 { return x * float64(deg32) }
	radians32   = func(x float64) float64 { return x * float64(rad32) }
	mxUnaryDefs = []mxUnaryDef{
		{name: "arccos", doc: "Inverse cosine, elementwise (NaN outside [-1, 1]).", fn: plain(math.Acos), grad: ops.GradExpr("-g / sqrt(1 - x * x)")},
		{name: "arcsin", doc: "Inverse sine, elementwise (NaN outside [-1, 1]).", fn: plain(math.Asin), grad: ops.GradExpr("g / sqrt(1 - x * x)")},
		{name: "arctan", doc: "Inverse tangent, elementwise.", fn: plain(math.Atan), grad: ops.GradExpr("g / (1 + x * x)")},
		{name: "arccosh", doc: "Inverse hyperbolic cosine, elementwise (NaN below 1).", fn: plain(math.Acosh), grad: ops.GradExpr("g / sqrt(x * x - 1)")},
		{name: "arcsinh", doc: "Inverse hyperbolic sine, elementwise.", fn: plain(math.Asinh), grad: ops.GradExpr("g / sqrt(x * x + 1)")},
		{name: "arctanh", doc: "Inverse hyperbolic tangent, elementwise (±inf at ±1, NaN beyond).", fn: plain(math.Atanh), grad: ops.GradExpr("g / (1 - x * x)")},
		{name: "cosh", doc: "Hyperbolic cosine, elementwise.", fn: plain(math.Cosh), grad: ops.GradExpr("g * sinh(x)")},
		{name: "sinh", doc: "Hyperbolic sine, elementwise.", fn: plain(math.Sinh), grad: ops.GradExpr("g * cosh(x)")},
		{name: "tan", doc: "Tangent, elementwise (radians).", fn: plain(math.Tan), grad: ops.GradExpr("g * (1 + y * y)")},
		{name: "cbrt", doc: "Cube root, elementwise (negative for negative x).", fn: plain(math.Cbrt), grad: ops.GradExpr("g / (3 * y * y)")},
		{name: "rcbrt", doc: "Reciprocal cube root, elementwise: 1 / cbrt(x).", fn: plain(func(x float64) float64 { return 1 / math.Cbrt(x) }), grad: ops.GradExpr("-g * y / (3 * x)")},
		{name: "rsqrt", doc: "Reciprocal square root, elementwise: 1 / sqrt(x).", fn: plain(func(x float64) float64 { return 1 / math.Sqrt(x) }),
			f32: func(ops.Attrs) func(dst, src []float32) { return rsqrt32Rows }, grad: ops.GradExpr("-(0.5 * g * y / x)")},
		{name: "reciprocal", doc: "Reciprocal, elementwise: 1 / x (±inf at ±0).", fn: plain(func(x float64) float64 { return 1 / x }),
			f32: func(ops.Attrs) func(dst, src []float32) { return reciprocal32Rows }, grad: ops.GradExpr("-(g * y * y)")},
		{name: "expm1", doc: "e**x - 1, elementwise, accurate near 0.", fn: plain(math.Expm1), grad: ops.GradExpr("g * exp(x)")},
		{name: "log1p", doc: "log(1 + x), elementwise, accurate near 0.", fn: plain(math.Log1p), grad: ops.GradExpr("g / (x + 1)")},
		{name: "log2", doc: "Base-2 logarithm, elementwise.", fn: plain(math.Log2), grad: ops.GradExpr("g / (x * 0.6931471805599453)")},
		{name: "log10", doc: "Base-10 logarithm, elementwise.", fn: plain(math.Log10), grad: ops.GradExpr("g / (x * 2.302585092994046)")},
		{name: "erf", doc: "Gauss error function, elementwise.", fn: plain(math.Erf), grad: ops.GradExpr("g * 1.1283791670955126 * exp(-(x * x))")},
		{name: "erfinv", doc: "Inverse error function, elementwise (±inf at ±1, NaN beyond; for integer arrays 0 " +
			"beyond, MXNet's NaN of an integer type).", fn: erfinvFn, grad: ops.GradExpr("g * 0.8862269520759583 * exp(y * y)")}, // sqrt(pi)/2 in float32, as MXNet has it,
		{name: "gamma", doc: "Gamma function, elementwise (NaN at negative integers, ±inf at ±0).", fn: plain(math.Gamma),
			grad: ops.GradExpr("g * y * _digamma(x)")},
		{name: "gammaln", doc: "Natural logarithm of the absolute value of the gamma function, elementwise.", fn: plain(lgammaAbs),
			grad: ops.GradExpr("g * _digamma(x)")},
		{name: "_digamma", doc: "Digamma (psi), the derivative of gammaln, elementwise: the gradient of gamma and gammaln " +
			"(NaN at 0 and the negative integers).", fn: plain(digamma)},
		{name: "degrees", doc: "Converts radians to degrees, elementwise, by 180/pi rounded to float32 as in MXNet.",
			fn: plain(degrees32), f32: func(ops.Attrs) func(dst, src []float32) { return scale32Rows(deg32) }, grad: ops.GradExpr("degrees(g)")},
		{name: "radians", doc: "Converts degrees to radians, elementwise, by pi/180 rounded to float32 as in MXNet.",
			fn: plain(radians32), f32: func(ops.Attrs) func(dst, src []float32) { return scale32Rows(rad32) }, grad: ops.GradExpr("radians(g)")},
		{name: "fix", doc: "Rounds toward zero, elementwise (as trunc).", exactInt: true, fn: plain(math.Trunc),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rTrunc) }, grad: ops.ZeroGrad},
		{name: "trunc", doc: "Rounds toward zero, elementwise.", exactInt: true, fn: plain(math.Trunc),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rTrunc) }, grad: ops.ZeroGrad},
		{name: "rint", doc: "Rounds to the nearest integer, elementwise; as in MXNet, halves go down (rint(2.5) is 2, " +
			"rint(3.5) is 3, rint(-0.5) is -1).", exactInt: true, fn: plain(rintDown),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rHalfDown) }, grad: ops.ZeroGrad},
		{name: "round", doc: "Rounds to the nearest integer, elementwise, halves away from zero.", exactInt: true, fn: plain(math.Round),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rAway) }, grad: ops.ZeroGrad},
		{name: "_npi_around", doc: "Rounds to the given number of decimals, elementwise, halves to even (NumPy's around " +
			"and the Array API standard's round: x * 10**decimals rounded, then divided back). Integer arrays compute in " +
			"float64 (mx.np copies them when decimals >= 0).",
			input: "x", params: []ops.Param{{Name: "decimals", Kind: ops.ParamInt, Default: "0", Doc: "decimal places (negative: tens, hundreds...)"}},
			fn: aroundFn, grad: ops.ZeroGrad},
		{name: "ceil", doc: "Ceiling, elementwise: the smallest integer not below x.", exactInt: true, fn: plain(math.Ceil),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rCeil) }, grad: ops.ZeroGrad},
		{name: "floor", doc: "Floor, elementwise: the largest integer not above x.", exactInt: true, fn: plain(math.Floor),
			f32: func(ops.Attrs) func(dst, src []float32) { return round32Rows(rFloor) }, grad: ops.ZeroGrad},
		{name: "softsign", doc: "Softsign, elementwise: x / (1 + |x|).", fn: plain(func(x float64) float64 { return x / (1 + math.Abs(x)) }),
			f32: func(ops.Attrs) func(dst, src []float32) { return softsign32Rows }, grad: ops.GradExpr("g / ((1 + abs(x)) * (1 + abs(x)))")},
		{name: "logical_not", doc: "Logical not, elementwise: 1 where x is 0, else 0 (NaN counts as true), in the input's dtype.",
			fn: plain(func(x float64) float64 { return b2f(x == 0) }), f32: func(ops.Attrs) func(dst, src []float32) { return logicalNot32Rows }, grad: ops.ZeroGrad},
		{name: "hard_sigmoid", doc: "Hard sigmoid, elementwise: alpha*x + beta clipped to [0, 1] (NaN stays NaN). alpha " +
			"and beta are stored as float32, as in MXNet. Floating-point arrays only (MXNet has no integer kernel).",
			floatOnly: true,
			params: []ops.Param{
				{Name: "alpha", Kind: ops.ParamFloat, Default: "0.2", Doc: "the slope"},
				{Name: "beta", Kind: ops.ParamFloat, Default: "0.5", Doc: "the intercept"},
			},
			fn: hardSigmoidFn, f32: hardSigmoid32Rows,
			grad: ops.GradExpr("g * $alpha * (x * $alpha + $beta > 0) * (x * $alpha + $beta < 1)")},
		{name: "smooth_l1", doc: "Smooth L1 loss of each element, with sigma = scalar: 0.5*(sigma*x)**2 where " +
			"|x| < 1/sigma**2, |x| - 0.5/sigma**2 elsewhere. For integer arrays sigma is first converted to the " +
			"array's dtype, as MXNet does.",
			params: []ops.Param{{Name: "scalar", Kind: ops.ParamFloat, Default: "1.0", Doc: "sigma"}},
			fn:     smoothL1Fn, f32: smoothL132Rows,
			grad: ops.GradExpr("g * where(abs(x) < 1 / ($scalar * $scalar), x * ($scalar * $scalar), sign(x))")},
	}
)

// mvecFns are the functions whose float32 rows go to libmvec (math_rows32.go's mvec32).
var mvecFns = map[string]simd.MvecFn{
	"arccos": simd.MvAcos, "arcsin": simd.MvAsin, "arctan": simd.MvAtan, "arccosh": simd.MvAcosh,
	"arcsinh": simd.MvAsinh, "arctanh": simd.MvAtanh, "cosh": simd.MvCosh, "sinh": simd.MvSinh, "tan": simd.MvTan,
	"cbrt": simd.MvCbrt, "rcbrt": simd.MvRcbrt, "expm1": simd.MvExpm1, "log1p": simd.MvLog1p, "log2": simd.MvLog2,
	"log10": simd.MvLog10, "erf": simd.MvErf,
}

// specialFns are the functions whose float32 rows go to internal/simd's special32 kernels.
var specialFns = map[string]simd.SpecialOp{"erfinv": simd.Erfinv, "gammaln": simd.Lgamma, "gamma": simd.Gamma}

func init() {
	for i := range mxUnaryDefs {
		d := &mxUnaryDefs[i]
		if fn, ok := mvecFns[d.name]; ok {
			d.f32 = mvec32(fn, d.fn(nil, ndarray.Float32))
		}
		if fn, ok := specialFns[d.name]; ok {
			d.f32 = special32(fn, d.fn(nil, ndarray.Float32))
		}
		dtypes := ops.RealNumericDTypes
		if d.floatOnly {
			dtypes = ops.FloatDTypes
		}
		if _, ok := unary.Complex[d.name]; ok { // mx.np's complex arrays (MXNet has none)
			dtypes = append(append([]ndarray.DType{}, dtypes...), ndarray.Complex64, ndarray.Complex128)
		}
		input := d.input
		if input == "" {
			input = "data"
		}
		ops.Register(&ops.Op{
			Name: d.name, Doc: d.doc + mxUnaryDTypeDoc, Category: ops.Elementwise, Inputs: []string{input},
			Params: d.params, DTypes: dtypes, InPlace: true, Infer: ops.InferSame,
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error { return d.run(out[0], in[0], at) },
			Grad:   d.grad,
		})
	}
}

const mxUnaryDTypeDoc = "\n\nAs in MXNet, the result has the input's dtype: an integer element is computed in " +
	"float64 and converted back as C does (truncated; NaN and out-of-range values become the " +
	"integer minimum, wrapped for 8- and 16-bit types). Bool arrays are not supported; complex arrays (of the " +
	"inverse trigonometric and hyperbolic functions, tan, expm1, log1p, log2, log10, reciprocal) follow C99."

func (d *mxUnaryDef) run(out, in *ndarray.NDArray, at ops.Attrs) error {
	dt := in.DType()
	switch {
	case dt.Kind() == ndarray.KindComplex:
		ops.ComplexMap(out, in, unary.Complex[d.name])
	case dt == ndarray.Float32 && d.f32 != nil:
		ops.MapRows(out, in, d.f32(at))
	case ops.IsFloat(dt):
		ops.RealMap(out, in, d.fn(at, dt))
	case d.exactInt:
		return ndarray.CopyInto(out, in)
	default:
		ops.IntViaFloat(out, in, d.fn(at, dt))
	}
	return nil
}

// aroundFn is NumPy's around: rint of x scaled by 10**decimals, scaled back.
func aroundFn(at ops.Attrs, _ ndarray.DType) func(float64) float64 {
	d := at.Int("decimals")
	if d == 0 {
		return math.RoundToEven
	}
	p := math.Pow(10, math.Abs(float64(d)))
	if d < 0 {
		return func(x float64) float64 { return math.RoundToEven(x/p) * p }
	}
	return func(x float64) float64 { return math.RoundToEven(x*p) / p }
}

// lgammaAbs is log|gamma(x)| (+inf at 0, the negative integers and -inf, as C's lgamma).
func lgammaAbs(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1)
	}
	y, _ := math.Lgamma(x)
	return y
}

// digamma is psi(x) = d/dx ln|Gamma(x)|: reflection below 1/2 (psi(1-x) - pi/tan(pi x)),
// the recurrence psi(x) = psi(x+1) - 1/x up to 6, then the asymptotic series, accurate
// there to double precision.
func digamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x <= 0 && x == math.Floor(x):
		return math.NaN()
	case x < 0.5:
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*x)
	}
	r := 0.0
	for ; x < 6; x++ {
		r -= 1 / x
	}
	f := 1 / (x * x)
	series := f * (1.0/12 - f*(1.0/120-f*(1.0/252-f*(1.0/240-f*(1.0/132)))))
	return r + math.Log(x) - 0.5/x - series
}

// rintDown is MXNet's rint: the nearer of floor(x) and ceil(x), floor on a tie.
func rintDown(x float64) float64 {
	lo, hi := math.Floor(x), math.Ceil(x)
	if x-lo <= hi-x {
		return lo
	}
	return hi
}

// erfinvFn is erfinv; for integer dtypes MXNet returns its "NaN", which is 0 there,
// outside [-1, 1].
func erfinvFn(_ ops.Attrs, dt ndarray.DType) func(float64) float64 {
	if ops.IsFloat(dt) {
		return math.Erfinv
	}
	return func(x float64) float64 {
		if x < -1 || x > 1 {
			return 0
		}
		return math.Erfinv(x)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// roundParam rounds a parameter to dtype dt, as MXNet's DType(param) does.
func roundParam(v float64, dt ndarray.DType) float64 {
	switch {
	case dt == ndarray.Float32:
		return float64(float32(v))
	case dt == ndarray.Float16:
		return ops.H2f(ops.F2h(v))
	case dt == ndarray.Bfloat16:
		return ops.Bh2f(ops.F2bh(v))
	case dt.Kind() == ndarray.KindInt || dt.Kind() == ndarray.KindUint:
		return math.Trunc(v)
	}
	return v
}

// hardSigmoidFn is MXNet's hard_sigmoid: alpha*x + beta clipped to [0, 1] by
// comparisons that NaN passes, with alpha and beta float32 parameters converted to
// the dtype.
func hardSigmoidFn(at ops.Attrs, dt ndarray.DType) func(float64) float64 {
	a := roundParam(float64(float32(at.Float("alpha"))), dt)
	b := roundParam(float64(float32(at.Float("beta"))), dt)
	return func(x float64) float64 {
		switch y := float64(a*x) + b; { // (the conversion stops a fused multiply-add)
		case y > 1:
			return 1
		case y < 0:
			return 0
		default:
			return y
		}
	}
}

// smoothL1Fn is MXNet's smooth_l1 with sigma = scalar converted to the dtype.
func smoothL1Fn(at ops.Attrs, dt ndarray.DType) func(float64) float64 {
	s := roundParam(at.Float("scalar"), dt)
	bsq := s * s
	lim, half := 1/bsq, 0.5/bsq
	return func(x float64) float64 {
		switch {
		case x > lim:
			return x - half
		case x < -lim:
			return -x - half
		}
		return 0.5 * x * x * bsq
	}
}
