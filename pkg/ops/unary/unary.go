package unary

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// unaryKind is how a unary operator treats dtypes: the first five keep the input's dtype
// (with an integer kernel of their own); floatFn is a floating-point function, which
// keeps integer dtypes too, as MXNet 1.x does: the element is computed in float64 and
// converted back as C does (ops.IntViaFloat), so exp(int32 20) is 485165195
// and sqrt(int32 2) is 1. MXNet has no bool kernel; mxgo gives NumPy's float16.
type unaryKind int

const (
	uNeg unaryKind = iota
	uAbs
	uSign
	uSquare
	uRelu
	FloatFn
)

type Def struct {
	Name, Doc string
	Kind      unaryKind
	DTypes    []ndarray.DType
	real      func(float64) float64       // floats (and integers, for floatFn)
	cplx      func(complex128) complex128 // complex dtypes (nil where not supported)
	f32       func(dst, src []float32)    // optional float32 row kernel (exp32.go), faster than real
	Grad      *ops.Gradient               // the derivative (ops.GradExpr)
}

var Defs = []Def{
	{"negative", "Numerical negative, elementwise: -x. Unsigned integers wrap, as in NumPy; bool is not supported (NumPy refuses it too).",
		uNeg, ops.NumericDTypes, func(x float64) float64 { return -x }, func(z complex128) complex128 { return -z }, neg32Rows, ops.GradExpr("-g")},
	{"abs", "Absolute value, elementwise. Complex arrays give their magnitude as float32 or float64; the most negative integer stays itself, as in NumPy.",
		uAbs, ops.AllDTypes, math.Abs, nil, abs32Rows, ops.GradExpr("g * sign(x)")},
	{"sign", "Sign of each element: -1, 0 or 1 (NaN gives 0, as in MXNet), in the input's dtype. Not defined for bool or complex arrays.",
		uSign, ops.RealNumericDTypes, signFloat, nil, sign32Rows, ops.ZeroGrad},
	{"square", "Square of each element, in the input's dtype (integers wrap).",
		uSquare, ops.NumericDTypes, func(x float64) float64 { return x * x }, func(z complex128) complex128 { return z * z }, square32Rows, ops.GradExpr("2 * x * g")},
	{"relu", "Rectified linear unit, elementwise: max(x, 0) in the input's dtype (NaN stays NaN). Not defined for bool or complex arrays.",
		uRelu, ops.RealNumericDTypes, reluFloat, nil, relu32Rows, ops.GradExpr("_relu_backward(g, y)")},
	{"exp", "Exponential, elementwise.", FloatFn, ops.AllDTypes, math.Exp, cmplx.Exp, Exp32Rows, ops.GradExpr("g * y")},
	{"log", "Natural logarithm, elementwise (log 0 is -inf, log of a negative real is NaN).", FloatFn, ops.AllDTypes, math.Log, cmplx.Log, MvecRows(simd.MvLog, math.Log), ops.GradExpr("g / x")},
	{"sqrt", "Square root, elementwise (NaN for negative reals).", FloatFn, ops.AllDTypes, math.Sqrt, cmplx.Sqrt, sqrt32Rows, ops.GradExpr("g / (2 * y)")},
	{"sin", "Sine, elementwise (radians).", FloatFn, ops.AllDTypes, math.Sin, cmplx.Sin, MvecRows(simd.MvSin, math.Sin), ops.GradExpr("g * cos(x)")},
	{"cos", "Cosine, elementwise (radians).", FloatFn, ops.AllDTypes, math.Cos, cmplx.Cos, MvecRows(simd.MvCos, math.Cos), ops.GradExpr("-g * sin(x)")},
	{"tanh", "Hyperbolic tangent, elementwise.", FloatFn, ops.AllDTypes, math.Tanh, ctanh, tanh32Rows, ops.GradExpr("g * (1 - y * y)")},
	{"sigmoid", "Logistic sigmoid, elementwise: 1 / (1 + exp(-x)). Not defined for complex arrays.", FloatFn, ops.RealDTypes, sigmoid, nil, sigmoid32Rows, ops.GradExpr("g * y * (1 - y)")},
}

// ResultDType is the output dtype for an input of dtype dt.
func (d *Def) ResultDType(dt ndarray.DType) ndarray.DType {
	switch {
	case d.Kind == FloatFn && dt == ndarray.Bool:
		return ndarray.Float16
	case d.Kind == uAbs && dt == ndarray.Complex64:
		return ndarray.Float32
	case d.Kind == uAbs && dt == ndarray.Complex128:
		return ndarray.Float64
	}
	return dt
}

func (d *Def) Run(out, in *ndarray.NDArray) {
	dt := in.DType()
	switch {
	case dt == ndarray.Complex64 && d.Kind == uAbs:
		ops.Map1(out, in, func(z complex64) float32 { return float32(cmplx.Abs(complex128(z))) })
	case dt == ndarray.Complex128 && d.Kind == uAbs:
		ops.Map1(out, in, cmplx.Abs)
	case dt.Kind() == ndarray.KindComplex:
		ops.ComplexMap(out, in, d.cplx)
	case dt == ndarray.Float32 && d.f32 != nil:
		ops.MapRowsCost(out, in, rowCost[d.Name], d.f32)
	case dt == ndarray.Float64 && f64Rows[d.Name] != nil:
		ops.MapRowsCost(out, in, rowCost[d.Name], f64Rows[d.Name])
	case ops.IsFloat(dt) || dt == ndarray.Bool && d.Kind == FloatFn:
		ops.RealMap(out, in, d.real)
	case d.Kind == FloatFn:
		ops.IntViaFloat(out, in, d.real)
	case dt == ndarray.Bool: // abs of bool is itself
		ops.Map1(out, in, func(x uint8) uint8 { return min(x, 1) })
	default:
		intUnary(d.Kind, out, in)
	}
}

func intUnary(k unaryKind, out, in *ndarray.NDArray) {
	switch in.DType() {
	case ndarray.Int8:
		ops.Map1(out, in, intUnaryFn[int8](k))
	case ndarray.Int16:
		ops.Map1(out, in, intUnaryFn[int16](k))
	case ndarray.Int32:
		ops.Map1(out, in, intUnaryFn[int32](k))
	case ndarray.Int64:
		ops.Map1(out, in, intUnaryFn[int64](k))
	case ndarray.Uint8:
		ops.Map1(out, in, intUnaryFn[uint8](k))
	case ndarray.Uint16:
		ops.Map1(out, in, intUnaryFn[uint16](k))
	case ndarray.Uint32:
		ops.Map1(out, in, intUnaryFn[uint32](k))
	case ndarray.Uint64:
		ops.Map1(out, in, intUnaryFn[uint64](k))
	}
}

// intUnaryFn is the integer kernel of a dtype-keeping operator; arithmetic wraps.
func intUnaryFn[T ops.IntElem](k unaryKind) func(T) T {
	switch k {
	case uNeg:
		return func(x T) T { return -x }
	case uAbs:
		return func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		}
	case uSign:
		return func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return ^T(0) // -1 (only signed types get here)
			}
			return 0
		}
	case uSquare:
		return func(x T) T { return x * x }
	}
	return func(x T) T { return max(x, 0) }
}

func signFloat(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0 // zeros, and NaN: MXNet's sign tests x > 0 and x < 0 only (NumPy keeps NaN)
}

func reluFloat(x float64) float64 {
	if x > 0 || x != x {
		return x
	}
	return 0
}

// float32 rows of the dtype-keeping operators: RealMap's per-element float64 round trip
// through a function value made relu, on every layer of every network, ten times slower
// than MXNet's.

// relu32Rows clears the bits of every element whose sign bit is set, without a branch on
// the sign (half the elements of a layer's input are negative, in no order a predictor
// learns); a NaN keeps its bits, as reluFloat keeps it.
func relu32Rows(dst, src []float32) {
	if simd.Relu32(dst, src) {
		return
	}
	for i, x := range src {
		b := math.Float32bits(x)
		r := b &^ uint32(int32(b)>>31)
		if x != x {
			r = b
		}
		dst[i] = math.Float32frombits(r)
	}
}

func neg32Rows(dst, src []float32) {
	if simd.Math32(simd.Neg, dst, src, &noParams) {
		return
	}
	for i, x := range src {
		dst[i] = -x
	}
}

func abs32Rows(dst, src []float32) {
	if simd.Math32(simd.Abs, dst, src, &noParams) {
		return
	}
	for i, x := range src {
		dst[i] = math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
	}
}

// sqrt32Rows is RealMap's float32(math.Sqrt(float64(x))) as one loop, in C with AVX2
// where it runs: a float64 square root rounded to float32 is the correctly rounded
// float32 one, which is what the CPU's float32 square root gives, NaNs included.
func sqrt32Rows(dst, src []float32) {
	if simd.Math32(simd.Sqrt, dst, src, &noParams) {
		return
	}
	for i, x := range src {
		dst[i] = float32(math.Sqrt(float64(x)))
	}
}

// rowCost is what an element of the transcendental row kernels costs in float32 adds
// (float32 exp about 0.5 ns an element on one core, an add into out= 0.15 ns): their
// loops split across the cores from 2^16 elements where an add's do from 2^19, the
// cores' helpers spinning between loops (float32 exp of 1e5 elements 48-59 -> 32 µs, of
// 3e5 146-178 -> 77-90 µs). Others cost 1.
var rowCost = map[string]int{"exp": 8, "log": 8, "sin": 8, "cos": 8, "tanh": 8, "sigmoid": 8}

// f64Rows are float64 row kernels, where RealMap's call per element dominates (in C
// where it runs: the same correctly rounded root).
var f64Rows = map[string]func(dst, src []float64){"sqrt": func(dst, src []float64) {
	if simd.Sqrt64(dst, src) {
		return
	}
	for i, x := range src {
		dst[i] = math.Sqrt(x)
	}
}}

func square32Rows(dst, src []float32) {
	if simd.Math32(simd.Square, dst, src, &noParams) {
		return
	}
	for i, x := range src {
		dst[i] = x * x
	}
}

// sign32Rows is signFloat over a row, without its branches (random signs mispredict).
func sign32Rows(dst, src []float32) {
	if simd.Math32(simd.Sign, dst, src, &noParams) {
		return
	}
	for i, x := range src {
		p, n := x > 0, x < 0
		dst[i] = float32(*(*uint8)(unsafe.Pointer(&p))) - float32(*(*uint8)(unsafe.Pointer(&n)))
	}
}

var noParams simd.Math32Params

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// MvecRows is the float32 row kernel of a transcendental function f: glibc's libmvec
// (internal/simd's mvec.c, within 4 ulp, measured in tests_go/ops_mvec_ulp_test.go) for
// rows of 32 elements and more where it loads, f in float64 rounded to float32 (within
// 1 ulp) for the rest, so that results may differ in their last bits between the two
// (MXNet's own float32 functions are libm's, within its own few ulp).
func MvecRows(fn simd.MvecFn, f func(float64) float64) func(dst, src []float32) {
	return func(dst, src []float32) {
		if simd.Mvec(fn, dst, src) {
			return
		}
		dst = dst[:len(src)]
		for i, x := range src {
			dst[i] = float32(f(float64(x)))
		}
	}
}
