package elemwise

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's binary float math: _npi_arctan2, _npi_copysign, _npi_hypot, _npi_ldexp (MXNet's
// names, with its reversed scalar forms), _npi_nextafter and _npi_logaddexp (MXNet
// 1.9.1 has none). Floating-point arrays only (mx.np promotes integers first); float16
// computes through float32, as NumPy's half loops do.

const ln2 = "0.6931471805599453"

func init() {
	for _, d := range []npBinary{
		{name: "_npi_arctan2", rname: "_npi_rarctan2_scalar", dtypes: ops.FloatDTypes, inputs: []string{"x1", "x2"},
			doc:   "arctan(lhs / rhs) elementwise, in the quadrant of the point (rhs, lhs), as NumPy's arctan2.",
			run:   func(out, a, b *ndarray.NDArray) { floatMap2(out, a, b, via64(math.Atan2), math.Atan2) },
			grad:  ops.GradExpr("g * b / (a * a + b * b)", "-(g * a) / (a * a + b * b)"),
			sgrad: ops.GradExprRev("g * $scalar / (x * x + $scalar * $scalar)", "-(g * $scalar) / (x * x + $scalar * $scalar)")},
		{name: "_npi_copysign", rname: "_npi_rcopysign_scalar", dtypes: ops.FloatDTypes,
			doc: "lhs with the sign of rhs elementwise (the sign bit: -0.0 and -nan count as negative), as NumPy's copysign.",
			run: func(out, a, b *ndarray.NDArray) {
				floatMap2(out, a, b, func(x, y float32) float32 {
					return math.Float32frombits(math.Float32bits(x)&^(1<<31) | math.Float32bits(y)&(1<<31))
				}, math.Copysign)
			},
			grad: ops.GradExpr("g * (2 * (a * b >= 0) - 1)", ""), sgrad: ops.GradExprRev("g * (2 * (x * $scalar >= 0) - 1)", "")},
		{name: "_npi_hypot", dtypes: ops.FloatDTypes, inputs: []string{"x1", "x2"},
			doc: "sqrt(lhs**2 + rhs**2) elementwise without intermediate overflow, as NumPy's hypot (inf wins over NaN).",
			run: runHypot, grad: ops.GradExpr("g * a / y", "g * b / y"), sgrad: ops.GradExpr("g * x / y")},
		{name: "_npi_ldexp", rname: "_npi_rldexp_scalar", dtypes: append(append([]ndarray.DType{}, ops.FloatDTypes...), intDTypes...),
			castRHS: true,
			doc: "lhs * 2**rhs elementwise, exactly (rounded once), as NumPy's ldexp: rhs is an integer array (NumPy's " +
				"form) or an array of lhs's dtype (MXNet's; a fractional exponent multiplies by 2**rhs).",
			run: func(out, a, b *ndarray.NDArray) {
				floatMap2(out, a, b, via64(ldexp64), ldexp64)
			},
			grad: ldexpGrad, sgrad: ops.GradExprRev("g * 2 ** $scalar", "g * y * "+ln2)},
		{name: "_npi_nextafter", dtypes: []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64},
			doc: "The next representable number after lhs toward rhs elementwise, as NumPy's nextafter (rhs where they " +
				"are equal; float16 keeps lhs there, as NumPy's does).",
			run: func(out, a, b *ndarray.NDArray) {
				if a.DType() == ndarray.Float16 {
					ops.Map2(out, a, b, nextafter16)
				} else {
					floatMap2(out, a, b, nextafter32, nextafter64)
				}
			},
			grad: ops.ZeroGrad, sgrad: ops.ZeroGrad},
		{name: "_npi_logaddexp", dtypes: ops.FloatDTypes,
			doc: "log(exp(lhs) + exp(rhs)) elementwise without overflow, as NumPy's logaddexp.",
			run: func(out, a, b *ndarray.NDArray) {
				floatMap2(out, a, b, logaddexp[float32], logaddexp[float64])
			},
			grad: ops.GradExpr("g * exp(a - y)", "g * exp(b - y)"), sgrad: ops.GradExpr("g * exp(x - y)")},
	} {
		d.register()
	}
}

// ldexp64 is x * 2**e: exact (math.Ldexp) for an integral e, ±inf included; MXNet's
// x * 2**e for a fractional one.
func ldexp64(x, e float64) float64 {
	if e != math.Trunc(e) {
		return x * math.Pow(2, e)
	}
	return math.Ldexp(x, int(max(min(e, 1<<20), -1<<20)))
}

// ldexpGrad: 2**b times the gradient for lhs (ldexp itself), the result times ln 2 for a
// floating-point rhs (an integer one gets none).
var ldexpGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	ga := s.SumTo(s.Call("_npi_ldexp", "", c.OutGrad[0], c.In[1]), c.Shapes[0])
	var gb *ndarray.NDArray
	if ops.IsFloat(c.DTypes[1]) {
		gb = s.SumTo(s.Call("_multiply_scalar", "scalar=f:"+ln2, s.Call("multiply", "", c.OutGrad[0], c.Out[0])), c.Shapes[1])
	}
	return s.Done(ga, gb)
}}

// nextafter64 and nextafter32 are C's nextafter, which gives y where x == y (so 0
// toward -0 is -0); Go's gives x.
func nextafter64(x, y float64) float64 {
	if x == y {
		return y
	}
	return math.Nextafter(x, y)
}

func nextafter32(x, y float32) float32 {
	if x == y {
		return y
	}
	return math.Nextafter32(x, y)
}

// nextafter16 is NumPy's nextafter of float16 bits: NaN for a NaN, x where x == y.
func nextafter16(x, y uint16) uint16 {
	switch {
	case x&0x7fff > 0x7c00 || y&0x7fff > 0x7c00:
		return 0x7e00
	case x == y || (x|y)&0x7fff == 0:
		return x
	case x&0x7fff == 0:
		return y&0x8000 | 1
	case x&0x8000 == 0: // x > 0
		if int16(x) > int16(y) {
			return x - 1
		}
		return x + 1
	case y&0x8000 == 0 || x&0x7fff > y&0x7fff: // x < 0 < y, or x < y < 0
		return x - 1
	}
	return x + 1
}

// logaddexp is NumPy's npy_logaddexp in T: the exponential and log1p of T's C library
// (here in float64, rounded to T).
func logaddexp[T float32 | float64](x, y T) T {
	if x == y { // infinities of one sign included
		return x + T(math.Ln2)
	}
	d := x - y
	switch {
	case d > 0:
		return x + T(math.Log1p(float64(T(math.Exp(float64(-d))))))
	case d <= 0:
		return y + T(math.Log1p(float64(T(math.Exp(float64(d))))))
	}
	return d // NaN
}
