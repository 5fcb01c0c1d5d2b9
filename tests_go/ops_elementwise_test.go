package mxgotest

import (
	"math"
	"math/cmplx"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Elementwise operators: unary math, power/maximum/minimum, comparisons, where, clip.

var (
	ewNaN  = math.NaN()
	ewInf  = math.Inf(1)
	ewNInf = math.Inf(-1)
)

// ewInvoke runs operator name on in (allocating the output) and returns the output,
// released when the test ends.
func ewInvoke(t *testing.T, name string, at ops.Attrs, in ...*ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	out, err := ewTry(name, at, nil, in...)
	require.NoError(t, err, name)
	t.Cleanup(out.Release)
	return out
}

// ewTry invokes name into out (nil: a new array) and returns the error of the call.
func ewTry(name string, at ops.Attrs, out *ndarray.NDArray, in ...*ndarray.NDArray) (*ndarray.NDArray, error) {
	op, err := ops.Lookup(name)
	if err != nil {
		return nil, err
	}
	if at == nil {
		at = ops.Attrs{}
	}
	return op.Invoke(in, out, at)
}

// ewInto invokes name into out and drops the reference Invoke returns.
func ewInto(name string, at ops.Attrs, out *ndarray.NDArray, in ...*ndarray.NDArray) error {
	r, err := ewTry(name, at, out, in...)
	if err == nil {
		r.Release()
	}
	return err
}

func scalarAttrs(s ops.Scalar, reverse bool) ops.Attrs {
	return ops.Attrs{"scalar": s, "reverse": reverse}
}

// assertFloats compares float64 values with a relative tolerance; NaNs must match NaNs.
func assertFloats(t *testing.T, want, got []float64, rtol float64, msg ...any) {
	t.Helper()
	require.Len(t, got, len(want), msg...)
	for i := range want {
		w, g := want[i], got[i]
		switch {
		case math.IsNaN(w):
			assert.True(t, math.IsNaN(g), "element %d: want NaN, got %v %v", i, g, msg)
		case math.IsInf(w, 0) || rtol == 0:
			assert.Equal(t, w, g, "element %d %v", i, msg)
		default:
			assert.InDelta(t, w, g, rtol*math.Abs(w)+1e-300, "element %d %v", i, msg)
		}
	}
}

func TestElementwiseRegistry(t *testing.T) {
	all := ndarray.DTypes()
	without := func(skip ...ndarray.DType) []ndarray.DType {
		return slices.DeleteFunc(slices.Clone(all), func(d ndarray.DType) bool { return slices.Contains(skip, d) })
	}
	noBool := without(ndarray.Bool)
	noComplex := without(ndarray.Complex64, ndarray.Complex128)
	realNum := without(ndarray.Bool, ndarray.Complex64, ndarray.Complex128)
	cases := []struct {
		name     string
		cat      ops.Category
		inputs   int
		dtypes   []ndarray.DType
		scalarOp string
	}{
		{"negative", ops.Elementwise, 1, noBool, ""},
		{"abs", ops.Elementwise, 1, all, ""},
		{"sign", ops.Elementwise, 1, realNum, ""},
		{"square", ops.Elementwise, 1, noBool, ""},
		{"relu", ops.Elementwise, 1, realNum, ""},
		{"exp", ops.Elementwise, 1, all, ""},
		{"log", ops.Elementwise, 1, all, ""},
		{"sqrt", ops.Elementwise, 1, all, ""},
		{"sin", ops.Elementwise, 1, all, ""},
		{"cos", ops.Elementwise, 1, all, ""},
		{"tanh", ops.Elementwise, 1, all, ""},
		{"sigmoid", ops.Elementwise, 1, noComplex, ""},
		{"power", ops.Broadcast, 2, noBool, "_power_scalar"},
		{"maximum", ops.Broadcast, 2, all, "_maximum_scalar"},
		{"minimum", ops.Broadcast, 2, all, "_minimum_scalar"},
		{"equal", ops.Broadcast, 2, all, "_equal_scalar"},
		{"not_equal", ops.Broadcast, 2, all, "_not_equal_scalar"},
		{"greater", ops.Broadcast, 2, all, "_greater_scalar"},
		{"greater_equal", ops.Broadcast, 2, all, "_greater_equal_scalar"},
		{"lesser", ops.Broadcast, 2, all, "_lesser_scalar"},
		{"lesser_equal", ops.Broadcast, 2, all, "_lesser_equal_scalar"},
		{"where", ops.Broadcast, 3, all, ""},
		{"clip", ops.Elementwise, 1, realNum, ""},
	}
	for _, c := range cases {
		op, err := ops.Lookup(c.name)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.cat, op.Category, c.name)
		assert.Len(t, op.Inputs, c.inputs, c.name)
		assert.ElementsMatch(t, c.dtypes, op.DTypes, c.name)
		assert.True(t, op.InPlace, c.name)
		assert.NotEmpty(t, op.Doc, c.name)
		assert.Equal(t, c.scalarOp, op.ScalarOp, c.name)
		if c.scalarOp != "" {
			sop, err := ops.Lookup(c.scalarOp)
			require.NoError(t, err, c.scalarOp)
			assert.Equal(t, ops.Elementwise, sop.Category)
			assert.Equal(t, []string{"data"}, sop.Inputs)
			assert.ElementsMatch(t, c.dtypes, sop.DTypes, c.scalarOp)
			at, err := ops.ParseAttrs(sop, "scalar=i:2")
			require.NoError(t, err)
			assert.Equal(t, false, at["reverse"])
		}
	}
	clip, err := ops.Lookup("clip")
	require.NoError(t, err)
	_, err = ops.ParseAttrs(clip, "a_min=1")
	requireKind(t, err, mxerr.Type, "a_max")
}

func TestUnaryValues(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		op     string
		dt     ndarray.DType
		in     []float64
		wantDT ndarray.DType
		want   []float64
	}{
		{"negative", ndarray.Float32, []float64{1.5, -2, 0, ewInf, ewNaN}, ndarray.Float32, []float64{-1.5, 2, 0, ewNInf, ewNaN}},
		{"negative", ndarray.Int8, []float64{-128, 127, 0, -5}, ndarray.Int8, []float64{-128, -127, 0, 5}},
		{"negative", ndarray.Uint8, []float64{0, 1, 3, 255}, ndarray.Uint8, []float64{0, 255, 253, 1}},
		{"negative", ndarray.Float16, []float64{1.5, -65504}, ndarray.Float16, []float64{-1.5, 65504}},
		{"abs", ndarray.Int8, []float64{-128, -3, 0, 7}, ndarray.Int8, []float64{-128, 3, 0, 7}},
		{"abs", ndarray.Uint16, []float64{65535, 0}, ndarray.Uint16, []float64{65535, 0}},
		{"abs", ndarray.Float16, []float64{-2.5, ewNInf, ewNaN}, ndarray.Float16, []float64{2.5, ewInf, ewNaN}},
		{"abs", ndarray.Bool, []float64{1, 0}, ndarray.Bool, []float64{1, 0}},
		{"sign", ndarray.Int32, []float64{-7, 0, 9}, ndarray.Int32, []float64{-1, 0, 1}},
		{"sign", ndarray.Uint8, []float64{0, 200}, ndarray.Uint8, []float64{0, 1}},
		{"sign", ndarray.Float64, []float64{-0.5, 0, ewNInf, ewNaN, 3}, ndarray.Float64, []float64{-1, 0, -1, 0, 1}}, // NaN: MXNet's 0
		{"sign", ndarray.Bfloat16, []float64{-2, 0.5}, ndarray.Bfloat16, []float64{-1, 1}},
		{"square", ndarray.Int8, []float64{16, -11, 3}, ndarray.Int8, []float64{0, 121, 9}},
		{"square", ndarray.Uint64, []float64{1 << 32, 3}, ndarray.Uint64, []float64{0, 9}},
		{"square", ndarray.Float16, []float64{3, -0.5, 256}, ndarray.Float16, []float64{9, 0.25, ewInf}},
		{"relu", ndarray.Float32, []float64{-1, 2, ewNaN, ewNInf}, ndarray.Float32, []float64{0, 2, ewNaN, 0}},
		{"relu", ndarray.Int64, []float64{-5, 5}, ndarray.Int64, []float64{0, 5}},
		{"relu", ndarray.Uint32, []float64{7}, ndarray.Uint32, []float64{7}},
		{"exp", ndarray.Float64, []float64{0, 1, ewNInf, ewNaN, 1000}, ndarray.Float64, []float64{1, math.E, 0, ewNaN, ewInf}},
		// integers keep their dtype, as MXNet's: computed in float64, truncated as C casts
		{"exp", ndarray.Int8, []float64{0, 1, -1, 20}, ndarray.Int8, []float64{1, 2, 0, -117}}, // 485165195's low byte
		{"exp", ndarray.Bool, []float64{1, 0}, ndarray.Float16, []float64{2.71875, 1}},
		{"exp", ndarray.Uint16, []float64{2}, ndarray.Uint16, []float64{7}},
		{"exp", ndarray.Int64, []float64{3, 20}, ndarray.Int64, []float64{20, 485165195}},
		{"exp", ndarray.Float16, []float64{12}, ndarray.Float16, []float64{ewInf}}, // e**12 > 65504
		{"log", ndarray.Float32, []float64{1, 0, -1, ewInf}, ndarray.Float32, []float64{0, ewNInf, ewNaN, ewInf}},
		{"log", ndarray.Uint32, []float64{1, 8}, ndarray.Uint32, []float64{0, 2}},
		{"log", ndarray.Int32, []float64{0, 20}, ndarray.Int32, []float64{math.MinInt32, 2}}, // -inf: the integer minimum
		{"sqrt", ndarray.Float64, []float64{4, 2, -1, 0}, ndarray.Float64, []float64{2, math.Sqrt2, ewNaN, 0}},
		{"sqrt", ndarray.Int16, []float64{9, 2}, ndarray.Int16, []float64{3, 1}},
		{"sin", ndarray.Float64, []float64{0, math.Pi / 2, ewInf}, ndarray.Float64, []float64{0, 1, ewNaN}},
		{"cos", ndarray.Float16, []float64{0}, ndarray.Float16, []float64{1}},
		{"tanh", ndarray.Float32, []float64{0, 100, -100}, ndarray.Float32, []float64{0, 1, -1}},
		{"tanh", ndarray.Int32, []float64{1, 20}, ndarray.Int32, []float64{0, 1}},
		{"sigmoid", ndarray.Float64, []float64{0, 1000, -1000, ewNaN}, ndarray.Float64, []float64{0.5, 1, 0, ewNaN}},
		{"sigmoid", ndarray.Uint8, []float64{0}, ndarray.Uint8, []float64{0}},
	}
	for _, c := range cases {
		x := fromValues(t, c.dt, c.in)
		got := ewInvoke(t, c.op, nil, x)
		assert.Equal(t, c.wantDT, got.DType(), "%s(%s)", c.op, c.dt)
		rtol := 1e-15
		switch c.wantDT {
		case ndarray.Float32:
			rtol = 1e-7
		case ndarray.Float16, ndarray.Bfloat16:
			rtol = 1e-3
		}
		assertFloats(t, c.want, decode(got), rtol, c.op, c.dt)
		assertFloats(t, roundTo(t, c.dt, c.in), decode(x), 0, "input intact")
	}
}

// exp of integers gives NumPy's float dtype; keep-dtype operators keep it.
func TestUnaryResultDTypes(t *testing.T) {
	checkLeaks(t)
	want := map[ndarray.DType]ndarray.DType{ // MXNet's rule: every dtype kept (bool, which MXNet lacks: float16)
		ndarray.Bool: ndarray.Float16, ndarray.Int8: ndarray.Int8, ndarray.Uint8: ndarray.Uint8,
		ndarray.Int16: ndarray.Int16, ndarray.Uint16: ndarray.Uint16,
		ndarray.Int32: ndarray.Int32, ndarray.Uint32: ndarray.Uint32, ndarray.Int64: ndarray.Int64, ndarray.Uint64: ndarray.Uint64,
		ndarray.Float16: ndarray.Float16, ndarray.Bfloat16: ndarray.Bfloat16, ndarray.Float32: ndarray.Float32,
		ndarray.Float64: ndarray.Float64, ndarray.Complex64: ndarray.Complex64, ndarray.Complex128: ndarray.Complex128,
	}
	for in, res := range want {
		for _, name := range []string{"exp", "log", "sqrt", "sin", "cos", "tanh"} {
			assert.Equal(t, res, ewInvoke(t, name, nil, empty(t, in, 2)).DType(), "%s(%s)", name, in)
		}
		if in.Kind() != ndarray.KindComplex {
			assert.Equal(t, res, ewInvoke(t, "sigmoid", nil, empty(t, in, 2)).DType(), "sigmoid(%s)", in)
		}
		if in != ndarray.Bool {
			assert.Equal(t, in, ewInvoke(t, "negative", nil, empty(t, in, 2)).DType())
			assert.Equal(t, in, ewInvoke(t, "square", nil, empty(t, in, 2)).DType())
		}
	}
	assert.Equal(t, ndarray.Float32, ewInvoke(t, "abs", nil, empty(t, ndarray.Complex64, 1)).DType())
	assert.Equal(t, ndarray.Float64, ewInvoke(t, "abs", nil, empty(t, ndarray.Complex128, 1)).DType())
}

func TestUnaryComplex(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Complex64, ndarray.Complex128} {
		x := empty(t, ndarray.Complex128, 4)
		rawSet(x, []complex128{3 + 4i, -4, 1i * math.Pi, -1 - 1i})
		xc := empty(t, dt, 4)
		require.NoError(t, ops.Copy(xc, x))
		tol := 1e-6
		if dt == ndarray.Complex128 {
			tol = 1e-14
		}
		assertFloats(t, []float64{5, 4, math.Pi, math.Sqrt2}, values(t, ewInvoke(t, "abs", nil, xc)), tol)
		check := func(name string, f func(complex128) complex128) {
			got := complexValues(t, ewInvoke(t, name, nil, xc))
			for i, z := range complexValues(t, xc) {
				assert.InDelta(t, 0, cmplx.Abs(got[i]-f(z)), tol*(1+cmplx.Abs(f(z))), "%s(%v) %s", name, z, dt)
			}
		}
		check("exp", cmplx.Exp)
		check("log", cmplx.Log)
		check("sqrt", cmplx.Sqrt)
		check("sin", cmplx.Sin)
		check("cos", cmplx.Cos)
		check("tanh", cmplx.Tanh)
		check("negative", func(z complex128) complex128 { return -z })
		check("square", func(z complex128) complex128 { return z * z })
		assert.InDelta(t, -1, real(complexValues(t, ewInvoke(t, "exp", nil, xc))[2]), tol)
		assert.Equal(t, 2i, complexValues(t, ewInvoke(t, "sqrt", nil, xc))[1])
	}
}

func TestUnaryUnsupportedDTypes(t *testing.T) {
	checkLeaks(t)
	for _, c := range []struct {
		op string
		dt ndarray.DType
	}{{"negative", ndarray.Bool}, {"sign", ndarray.Complex64}, {"sign", ndarray.Bool}, {"relu", ndarray.Complex128},
		{"square", ndarray.Bool}, {"sigmoid", ndarray.Complex64}, {"power", ndarray.Bool}, {"clip", ndarray.Complex64}} {
		x := empty(t, c.dt, 2)
		in := []*ndarray.NDArray{x}
		if c.op == "power" {
			in = append(in, x)
		}
		at := ops.Attrs{"a_min": 0.0, "a_max": 1.0}
		_, err := ewTry(c.op, at, nil, in...)
		requireKind(t, err, mxerr.Type, c.op, c.dt.String())
	}
}

func TestPowerMaximumMinimum(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		op     string
		dt     ndarray.DType
		x, y   []float64
		want   []float64
		reason string
	}{
		{"power", ndarray.Int32, []float64{2, -3, 5, 0, 7}, []float64{10, 3, 0, 0, 1}, []float64{1024, -27, 1, 1, 7}, "exact"},
		{"power", ndarray.Int8, []float64{2, 3, -2}, []float64{7, 5, 7}, []float64{-128, -13, -128}, "converted as C does"},
		{"power", ndarray.Uint8, []float64{2, 3}, []float64{9, 255}, []float64{0, 0}, "3 ** 255 overflows: C's indefinite, whose low byte is 0"},
		{"power", ndarray.Int32, []float64{12345, 46341, 3}, []float64{2, 2, 19}, []float64{152399024, math.MinInt32, 1162261504},
			"in float32, as MXNet 1.9.1: 12345 ** 2 is rounded, 46341 ** 2 overflows"},
		{"power", ndarray.Int64, []float64{1, -1, -1, 2, 0, -3}, []float64{-5, -3, -4, -1, -2, -1}, []float64{1, -1, 1, 0, math.MinInt64, 0}, "negative exponents: truncated reciprocal, 0 ** -2 is int64's minimum (MXNet's)"},
		{"power", ndarray.Float64, []float64{2, 4, -8, 0, ewNaN, 1}, []float64{0.5, -1, 1.0 / 3, -1, 0, ewNaN}, []float64{math.Sqrt2, 0.25, ewNaN, ewInf, 1, 1}, "C pow"},
		{"power", ndarray.Float16, []float64{2, 3}, []float64{10, 0.5}, []float64{1024, 1.732421875}, "float16"},
		{"maximum", ndarray.Float32, []float64{1, ewNaN, 3, -ewInf}, []float64{2, 0, ewNaN, -5}, []float64{2, ewNaN, ewNaN, -5}, "NaN propagates"},
		{"minimum", ndarray.Float16, []float64{1, ewNaN, 3, ewInf}, []float64{2, 0, ewNaN, 5}, []float64{1, ewNaN, ewNaN, 5}, "NaN propagates"},
		{"maximum", ndarray.Int8, []float64{-128, 5}, []float64{127, -5}, []float64{127, 5}, ""},
		{"minimum", ndarray.Uint64, []float64{1 << 60, 0}, []float64{3, 9}, []float64{3, 0}, ""},
		{"maximum", ndarray.Bool, []float64{1, 0, 0}, []float64{0, 0, 1}, []float64{1, 0, 1}, "or"},
		{"minimum", ndarray.Bool, []float64{1, 0, 1}, []float64{0, 0, 1}, []float64{0, 0, 1}, "and"},
		{"minimum", ndarray.Bfloat16, []float64{1, -2}, []float64{0.5, 4}, []float64{0.5, -2}, ""},
	}
	for _, c := range cases {
		x, y := fromValues(t, c.dt, c.x), fromValues(t, c.dt, c.y)
		got := ewInvoke(t, c.op, nil, x, y)
		assert.Equal(t, c.dt, got.DType())
		rtol := 0.0
		if c.dt == ndarray.Float16 {
			rtol = 1e-3
		}
		assertFloats(t, c.want, decode(got), rtol, c.op, c.dt, c.reason)
	}
}

func TestPowerAndMaximumComplex(t *testing.T) {
	checkLeaks(t)
	a, b := empty(t, ndarray.Complex128, 5), empty(t, ndarray.Complex128, 5)
	rawSet(a, []complex128{1 + 1i, 0, 0, 2i, complex(ewNaN, 0)})
	rawSet(b, []complex128{2, 2, -1, 0.5, 1})
	p := rawValues[complex128](ewInvoke(t, "power", nil, a, b))
	assert.Equal(t, complex128(2i), p[0])
	assert.Equal(t, complex128(0), p[1])
	assert.True(t, cmplx.IsNaN(p[2]), "0 ** -1 is ewNaN+nanj, as in NumPy")
	assert.InDelta(t, 0, cmplx.Abs(p[3]-(1+1i)), 1e-15)
	m := rawValues[complex128](ewInvoke(t, "maximum", nil, a, b))
	assert.Equal(t, []complex128{2, 2, 0, 0.5}, m[:4], "lexicographic")
	assert.True(t, cmplx.IsNaN(m[4]))
	n := rawValues[complex128](ewInvoke(t, "minimum", nil, a, b))
	assert.Equal(t, []complex128{1 + 1i, 0, -1, 2i}, n[:4])
}

func TestBinaryMathScalarForms(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Int32, []float64{-2, 0, 3})
	assertFloats(t, []float64{4, 0, 9}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(2), false), x)), 0)
	assertFloats(t, []float64{0, 1, 8}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(2), true), x)), 0, "2 ** x")
	assertFloats(t, []float64{4, 0, 9}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(floatScalar(2.9), false), x)), 0, "2.9 becomes 2")
	assertFloats(t, []float64{1, 1, 1}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(floatScalar(-0.5), false), x)), 0, "-0.5 becomes 0")
	assertFloats(t, []float64{1, 1, 3}, decode(ewInvoke(t, "_maximum_scalar", scalarAttrs(intScalar(1), false), x)), 0)
	assertFloats(t, []float64{-2, 0, 1}, decode(ewInvoke(t, "_minimum_scalar", scalarAttrs(intScalar(1), true), x)), 0)
	f := fromValues(t, ndarray.Float16, []float64{4, ewNaN, 0.25})
	assertFloats(t, []float64{2, ewNaN, 0.5}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(floatScalar(0.5), false), f)), 1e-3)
	assertFloats(t, []float64{0.0625, ewNaN, 0.8408203125}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(floatScalar(0.5), true), f)), 1e-3)
	assertFloats(t, []float64{4, ewNaN, 1}, decode(ewInvoke(t, "_maximum_scalar", scalarAttrs(intScalar(1), false), f)), 0)
	// A negative exponent gives MXNet 1.9.1's results (pow in floating point, converted back
	// as C does): the truncated reciprocal, and for 0 infinity converted (int32's minimum;
	// 0 for int8). A uint8 array takes -1 as 255 (and 2 ** 255 wraps to 0, as MXNet's 0).
	xs := []float64{0, 1, -1, 2, -2, 3}
	for _, c := range []struct {
		dt   ndarray.DType
		s    ops.Scalar
		want []float64
	}{
		{ndarray.Int32, intScalar(-1), []float64{math.MinInt32, 1, -1, 0, 0, 0}},
		{ndarray.Int32, intScalar(-2), []float64{math.MinInt32, 1, 1, 0, 0, 0}},
		{ndarray.Int32, floatScalar(-1.5), []float64{math.MinInt32, 1, -1, 0, 0, 0}},
		{ndarray.Int64, intScalar(-3), []float64{math.MinInt64, 1, -1, 0, 0, 0}},
		{ndarray.Int8, intScalar(-1), []float64{0, 1, -1, 0, 0, 0}},
		{ndarray.Int16, intScalar(-1), []float64{0, 1, -1, 0, 0, 0}},
	} {
		got := decode(ewInvoke(t, "_power_scalar", scalarAttrs(c.s, false), fromValues(t, c.dt, xs)))
		assert.Equal(t, c.want, got, "%s ** %v", c.dt, c.s)
		arr := decode(ewInvoke(t, "power", nil, fromValues(t, c.dt, xs), fromValues(t, c.dt, []float64{math.Trunc(ops.ScalarFloat(c.s))}, []int{}...)))
		assert.Equal(t, c.want, arr, "%s array power agrees", c.dt)
	}
	u := decode(ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(-1), false), fromValues(t, ndarray.Uint8, []float64{0, 1, 2})))
	assert.Equal(t, []float64{0, 1, 0}, u, "uint8 ** -1 is ** 255")
	assert.Equal(t, []float64{1, 2, 0, 4, 0, 8}, decode(ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(2), true),
		fromValues(t, ndarray.Int32, xs))), "2 ** x: 2 ** -1 truncates to 0")
	assert.Equal(t, []float64{1, 0, math.MinInt32, 0, math.MinInt32, 0}, decode(ewInvoke(t, "_power_scalar",
		scalarAttrs(intScalar(0), true), fromValues(t, ndarray.Int32, xs))), "0 ** x")
	r := ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(-2), true), fromValues(t, ndarray.Int8, []float64{3, 0}))
	assertFloats(t, []float64{-8, 1}, decode(r), 0, "(-2) ** x is fine")
	neg := ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(-1), false), fromValues(t, ndarray.Float32, []float64{4}))
	assertFloats(t, []float64{0.25}, decode(neg), 0)
}

func TestComparisons(t *testing.T) {
	checkLeaks(t)
	b := func(xs ...bool) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			if x {
				out[i] = 1
			}
		}
		return out
	}
	x := []float64{1, 2, 3, ewNaN}
	y := []float64{2, 2, 1, ewNaN}
	want := map[string][]float64{
		"equal":         b(false, true, false, false),
		"not_equal":     b(true, false, true, true),
		"greater":       b(false, false, true, false),
		"greater_equal": b(false, true, true, false),
		"lesser":        b(true, false, false, false),
		"lesser_equal":  b(true, true, false, false),
	}
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32, ndarray.Float16, ndarray.Bfloat16, ndarray.Int8, ndarray.Uint64, ndarray.Complex64} {
		xs, ys := x, y
		n := 4
		if isIntegral(dt) {
			n = 3
		}
		a, c := fromValues(t, dt, xs[:n]), fromValues(t, dt, ys[:n])
		for name, w := range want {
			got := ewInvoke(t, name, nil, a, c)
			assert.Equal(t, dt, got.DType(), "MXNet: 1 or 0 in the operands' dtype")
			assert.Equal(t, w[:n], decode(got), "%s %s", name, dt)
		}
	}
	// bool arrays: False < True
	p, q := fromValues(t, ndarray.Bool, []float64{0, 1, 1}), fromValues(t, ndarray.Bool, []float64{1, 1, 0})
	lt := ewInvoke(t, "lesser", nil, p, q)
	assert.Equal(t, ndarray.Bool, lt.DType(), "bool in, bool out")
	assert.Equal(t, b(true, false, false), decode(lt))
	// complex: lexicographic, as NumPy
	u, v := empty(t, ndarray.Complex128, 3), empty(t, ndarray.Complex128, 3)
	rawSet(u, []complex128{1 + 5i, 2 - 1i, 2 + 1i})
	rawSet(v, []complex128{2, 2, complex(2, ewNaN)})
	assert.Equal(t, b(false, false, false), decode(ewInvoke(t, "greater", nil, u, v)))
	assert.Equal(t, b(true, true, false), decode(ewInvoke(t, "lesser", nil, u, v)))
}

// TestComparisonScalarsConvertFirst: the number is converted to the array's dtype first,
// as MXNet converts its scalar (a double, C's cast on x86).
func TestComparisonScalarsConvertFirst(t *testing.T) {
	checkLeaks(t)
	cmp := func(name string, a *ndarray.NDArray, s ops.Scalar, reverse bool) []float64 {
		return decode(ewInvoke(t, "_"+name+"_scalar", scalarAttrs(s, reverse), a))
	}
	u8 := fromValues(t, ndarray.Uint8, []float64{0, 255})
	assert.Equal(t, []float64{0, 0}, cmp("greater", u8, intScalar(-1), false), "uint8 > -1 is > 255")
	assert.Equal(t, []float64{0, 1}, cmp("equal", u8, intScalar(-1), false), "-1 wraps to 255")
	assert.Equal(t, []float64{0, 0}, cmp("lesser", u8, intScalar(256), false), "256 wraps to 0")
	assert.Equal(t, []float64{0, 0}, cmp("greater", u8, intScalar(256), true), "256 > x is 0 > x")
	i8 := fromValues(t, ndarray.Int8, []float64{-128, 2, 3})
	assert.Equal(t, []float64{0, 0, 0}, cmp("equal", i8, intScalar(1000), false), "1000 is -24")
	assert.Equal(t, []float64{1, 1, 1}, cmp("not_equal", i8, intScalar(-1000), false), "-1000 is 24")
	assert.Equal(t, []float64{0, 1, 1}, cmp("greater_equal", i8, floatScalar(2.5), false), "2.5 is truncated to 2")
	assert.Equal(t, []float64{1, 0, 0}, cmp("greater", i8, floatScalar(2.5), true), "2.5 > x is 2 > x")
	assert.Equal(t, []float64{0, 0, 0}, cmp("equal", i8, floatScalar(ewNaN), false), "NaN is int32's minimum, then 0")
	assert.Equal(t, []float64{1, 0, 0}, cmp("lesser_equal", i8, floatScalar(ewNaN), false))
	// Python ints of 2**63 and more reach Go as their uint64 bits with Value set; as doubles
	// they are out of range: x86 gives 2**63 (uint64) and int64's minimum.
	big := ops.Scalar{IsInt: true, Int: -1, Value: complex(math.Pow(2, 64), 0)}
	u64 := empty(t, ndarray.Uint64, 3)
	rawSet(u64, []uint64{math.MaxUint64, 5, 1 << 63})
	assert.Equal(t, []float64{0, 0, 1}, cmp("equal", u64, big, false))
	assert.Equal(t, []float64{0, 0}, cmp("lesser", fromValues(t, ndarray.Int64, []float64{-1, 5}), big, false))
	assert.Equal(t, []float64{0, 1}, cmp("equal", fromValues(t, ndarray.Int64, []float64{-2, -1}), intScalar(-1), false))
	// Floating-point arrays compare with the number rounded to their dtype.
	h := fromValues(t, ndarray.Float16, []float64{0.1, 2048})
	assert.Equal(t, []float64{1, 0}, cmp("equal", h, floatScalar(0.1), false))
	assert.Equal(t, []float64{0, 1}, cmp("equal", h, intScalar(2049), false), "2049 rounds to 2048 in float16")
	// Complex numbers compare lexicographically with real arrays.
	f := fromValues(t, ndarray.Float64, []float64{1, 2})
	assert.Equal(t, []float64{0, 0}, cmp("equal", f, ops.Scalar{Value: 1 + 1i}, false))
	assert.Equal(t, []float64{1, 0}, cmp("lesser", f, ops.Scalar{Value: 1 + 1i}, false))
	assert.Equal(t, []float64{1, 0}, cmp("equal", f, ops.Scalar{Value: 1}, false))
	bl := fromValues(t, ndarray.Bool, []float64{1, 0})
	assert.Equal(t, []float64{1, 0}, cmp("equal", bl, intScalar(1), false))
	assert.Equal(t, []float64{0, 0}, cmp("equal", bl, intScalar(2), false))
	assert.Equal(t, []float64{1, 0}, cmp("greater", bl, floatScalar(0.5), false))
	assert.Equal(t, ndarray.Int64, ewInvoke(t, "_lesser_scalar", scalarAttrs(intScalar(1), true), bl).DType(),
		"a bool array and a number give int64, as in MXNet")
	assert.Equal(t, ndarray.Bool, ewInvoke(t, "equal", nil, bl, bl).DType(), "two bool arrays give bool")
}

func TestWhere(t *testing.T) {
	checkLeaks(t)
	cond := fromValues(t, ndarray.Float32, []float64{1, 0, ewNaN, 0, 1, 1}, 2, 3)
	negZero := empty(t, ndarray.Float64, 2, 3)
	rawSet(negZero, []float64{math.Copysign(0, -1), 0, 0, 0, 0, 0})
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Float16, ndarray.Int32, ndarray.Float64, ndarray.Complex128} {
		x := fromValues(t, dt, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
		y := fromValues(t, dt, []float64{-1, -2, -3, -4, -5, -6}, 2, 3)
		got := ewInvoke(t, "where", nil, cond, x, y)
		assert.Equal(t, []int{2, 3}, got.Shape())
		assert.Equal(t, dt, got.DType())
		assert.Equal(t, []float64{1, -2, 3, -4, 5, 6}, decode(got), "%s: NaN is true", dt)
		assert.Equal(t, []float64{-1, -2, -3, -4, -5, -6}, decode(ewInvoke(t, "where", nil, negZero, x, y)), "-0.0 is false")
		// as MXNet's, where does not broadcast: a condition of (2, 1), or a y of (1, 3), is refused
		_, err := ewTry("where", nil, nil, fromValues(t, ndarray.Float32, []float64{1, 0}, 2, 1), x, y)
		requireKind(t, err, mxerr.Value, "condition")
		_, err = ewTry("where", nil, nil, cond, x, fromValues(t, dt, []float64{1, 2, 3}, 1, 3))
		requireKind(t, err, mxerr.Value, "same shape")
	}
	cc := empty(t, ndarray.Complex128, 3)
	rawSet(cc, []complex128{1i, 0, complex(math.Copysign(0, -1), 0)})
	x, y := fromValues(t, ndarray.Int16, []float64{1, 2, 3}), fromValues(t, ndarray.Int16, []float64{7, 8, 9})
	assert.Equal(t, []float64{1, 8, 9}, decode(ewInvoke(t, "where", nil, cc, x, y)))
	_, err := ewTry("where", nil, nil, cc, x, fromValues(t, ndarray.Int32, []float64{1, 2, 3}))
	requireKind(t, err, mxerr.Type, "dtype mismatch")
	_, err = ewTry("where", nil, nil, fromValues(t, ndarray.Bool, []float64{1, 0}), x, y)
	requireKind(t, err, mxerr.Value, "condition")
}

// clip is MXNet's: a_max above it, else a_min below it, with float32 bounds compared in
// float32 (float64 data in float64) and converted to the dtype as C casts (values checked
// against MXNet 1.9.1).
func TestClip(t *testing.T) {
	checkLeaks(t)
	at := func(lo, hi float64) ops.Attrs { return ops.Attrs{"a_min": lo, "a_max": hi} }
	f := fromValues(t, ndarray.Float32, []float64{-5, 0.5, 7, ewNaN, ewInf})
	assertFloats(t, []float64{0, 0.5, 2, ewNaN, 2}, decode(ewInvoke(t, "clip", at(0, 2), f)), 0)
	assertFloats(t, []float64{3, 3, 1, ewNaN, 1}, decode(ewInvoke(t, "clip", at(3, 1), f)), 0, "a_min > a_max: a_min at or below a_max")
	assertFloats(t, []float64{-5, 0.5, 3, ewNaN, 3}, decode(ewInvoke(t, "clip", at(ewNInf, 3), fromValues(t, ndarray.Float64, []float64{-5, 0.5, 7, ewNaN, ewInf}))), 0)
	assertFloats(t, []float64{1, 3}, decode(ewInvoke(t, "clip", at(ewNaN, 3), fromValues(t, ndarray.Float64, []float64{1, 5}))), 0, "a NaN bound never compares")
	assertFloats(t, []float64{float64(float32(0.1)), float64(float32(0.9))},
		decode(ewInvoke(t, "clip", at(0.1, 0.9), fromValues(t, ndarray.Float64, []float64{0.1, 1}))), 0, "float32 bounds for float64 data")
	h := fromValues(t, ndarray.Float16, []float64{0, 1})
	assertFloats(t, []float64{0.0999755859375, 0.199951171875}, decode(ewInvoke(t, "clip", at(0.1, 0.2), h)), 0, "bounds rounded to float16")
	i := fromValues(t, ndarray.Int32, []float64{-3, 1, 2, 3, 9})
	assertFloats(t, []float64{1, 1, 2, 3, 3}, decode(ewInvoke(t, "clip", at(1.5, 3.9), i)), 0, "bounds truncated")
	assertFloats(t, []float64{-3, 1, 1, 1, 1}, decode(ewInvoke(t, "clip", at(ewNaN, 1), i)), 0)
	u := fromValues(t, ndarray.Uint8, []float64{0, 128, 255})
	assertFloats(t, []float64{0, 128, 255}, decode(ewInvoke(t, "clip", at(-5, 300), u)), 0)
	assertFloats(t, []float64{232, 232, 232}, decode(ewInvoke(t, "clip", at(1000, 2000), u)), 0, "1000 converted as C does")
	i64 := fromValues(t, ndarray.Int64, []float64{-1, 1})
	assert.Equal(t, []int64{-1, 1}, rawValues[int64](ewInvoke(t, "clip", at(ewNInf, ewInf), i64)))
	assert.Equal(t, []int64{math.MinInt64, math.MinInt64}, rawValues[int64](ewInvoke(t, "clip", at(1e300, 1e300), i64)), "inf converted")
	big := fromValues(t, ndarray.Int32, []float64{16777217})
	assertFloats(t, []float64{16777217}, decode(ewInvoke(t, "clip", at(0, 16777216.5), big)), 0, "compared in float32")
}

func TestElementwiseBroadcasting(t *testing.T) {
	checkLeaks(t)
	a := fromValues(t, ndarray.Float64, []float64{1, 2, 3}, 3, 1)
	b := fromValues(t, ndarray.Float64, []float64{2, 0}, 2)
	p := ewInvoke(t, "power", nil, a, b)
	assert.Equal(t, []int{3, 2}, p.Shape())
	assert.Equal(t, []float64{1, 1, 4, 1, 9, 1}, decode(p))
	g := ewInvoke(t, "greater", nil, b, a)
	assert.Equal(t, []int{3, 2}, g.Shape())
	assert.Equal(t, []float64{1, 0, 0, 0, 0, 0}, decode(g))
	// 0-d with 0-size: the result is 0-size
	z := empty(t, ndarray.Float64, 0, 3)
	s := fromValues(t, ndarray.Float64, []float64{2}, []int{}...)
	m := ewInvoke(t, "maximum", nil, s, z)
	assert.Equal(t, []int{0, 3}, m.Shape())
	assert.Equal(t, []int{0, 3}, ewInvoke(t, "equal", nil, z, s).Shape())
	assert.Equal(t, []int{0, 3}, ewInvoke(t, "exp", nil, z).Shape())
	assert.Equal(t, []int{}, ints(ewInvoke(t, "sqrt", nil, s).Shape()))
	_, err := ewTry("minimum", nil, nil, a, fromValues(t, ndarray.Float64, []float64{1, 2}, 2, 1))
	requireKind(t, err, mxerr.Value, "broadcast")
	_, err = ewTry("maximum", nil, nil, a, fromValues(t, ndarray.Float32, []float64{1}))
	requireKind(t, err, mxerr.Type, "dtype mismatch")
	_, err = ewTry("equal", nil, nil, a, fromValues(t, ndarray.Int64, []float64{1}))
	requireKind(t, err, mxerr.Type, "dtype mismatch")
}

// out= may alias an input: x = exp(x), a = maximum(a, b) in place, and overlapping views.
func TestElementwiseOutAliasing(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{0, 1, 2})
	err := ewInto("exp", nil, x, x)
	require.NoError(t, err)
	assertFloats(t, []float64{1, math.E, math.Exp(2)}, decode(x), 1e-7)
	a := fromValues(t, ndarray.Int32, []float64{1, 5, 3, 7}, 2, 2)
	b := fromValues(t, ndarray.Int32, []float64{4, 4}, 2)
	err = ewInto("maximum", nil, a, a, b)
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 5, 4, 7}, decode(a))
	err = ewInto("power", nil, b, b, b)
	require.NoError(t, err)
	assert.Equal(t, []float64{256, 256}, decode(b))
	// x[1:] = negative(x[:-1]) must read every x[:-1] before writing (NumPy semantics).
	v := fromValues(t, ndarray.Float64, []float64{1, 2, 3, 4})
	err = ewInto("negative", nil, index(t, v, S(1, nil, nil)), index(t, v, S(nil, -1, nil)))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -1, -2, -3}, decode(v))
	w := fromValues(t, ndarray.Float64, []float64{1, 2, 3, 4})
	err = ewInto("where", nil, index(t, w, S(nil, nil, -1)), fromValues(t, ndarray.Bool, []float64{1, 0, 1, 0}), w, index(t, w, S(nil, nil, -1)))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 3, 3, 1}, decode(w), "w[::-1] = where(c, w, w[::-1])")
	// A comparison's output has its operands' dtype (MXNet), so it may alias an input; a bool out is refused.
	err = ewInto("equal", nil, x, x, x)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 1, 1}, decode(x))
	err = ewInto("equal", nil, empty(t, ndarray.Bool, 3), x, x)
	requireKind(t, err, mxerr.Type, "out has dtype")
	err = ewInto("exp", nil, empty(t, ndarray.Float32, 3), fromValues(t, ndarray.Int8, []float64{1, 2, 3}))
	requireKind(t, err, mxerr.Type, "int8") // exp keeps int8 (MXNet); a float32 out is refused
	err = ewInto("exp", nil, empty(t, ndarray.Float32, 2), x)
	requireKind(t, err, mxerr.Value, "shape")
}

// Large inputs run on every core (ParallelRows); strided and broadcast ones too.
func TestElementwiseLarge(t *testing.T) {
	checkLeaks(t)
	const n = 1 << 18
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i%1000)/100 - 5
	}
	x := fromValues(t, ndarray.Float64, vals, 512, 512)
	e := decode(ewInvoke(t, "tanh", nil, x))
	s := decode(ewInvoke(t, "sigmoid", nil, index(t, x, all, S(nil, nil, -2))))
	c := decode(ewInvoke(t, "_greater_scalar", scalarAttrs(floatScalar(0), false), x))
	for i, v := range vals {
		require.InDelta(t, math.Tanh(v), e[i], 1e-15)
		require.Equal(t, v > 0, c[i] == 1)
	}
	k := 0
	for r := 0; r < 512; r++ {
		for col := 511; col >= 0; col -= 2 {
			require.InDelta(t, 1/(1+math.Exp(-vals[r*512+col])), s[k], 1e-15)
			k++
		}
	}
	col := fromValues(t, ndarray.Float64, seq(512), 512, 1)
	m := decode(ewInvoke(t, "minimum", nil, x, col))
	for i, v := range vals {
		require.Equal(t, math.Min(v, float64(i/512)), m[i])
	}
	i32 := fromValues(t, ndarray.Int32, vals, n)
	clipped := rawValues[int32](ewInvoke(t, "clip", ops.Attrs{"a_min": -2.0, "a_max": 2.0}, i32))
	for i, v := range vals {
		require.Equal(t, int32(max(-2, min(2, math.Trunc(v)))), clipped[i])
	}
}

// x ** 2 and x ** 0.5 of floats run as square and sqrt (as NumPy's fast paths do).
func TestPowerScalarFastPaths(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{3, -1.5, 1e200, 4, 0.1})
	sq := decode(ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(2), false), x))
	tenth := 0.1
	assert.Equal(t, []float64{9, 2.25, ewInf, 16, tenth * tenth}, sq, "x*x, correctly rounded")
	rt := decode(ewInvoke(t, "_power_scalar", scalarAttrs(floatScalar(0.5), false), x))
	assertFloats(t, []float64{math.Sqrt(3), ewNaN, 1e100, 2, math.Sqrt(0.1)}, rt, 0)
	c := empty(t, ndarray.Complex64, 1)
	rawSet(c, []complex64{1 + 2i})
	assert.Equal(t, []complex64{-3 + 4i}, rawValues[complex64](ewInvoke(t, "_power_scalar", scalarAttrs(intScalar(2), false), c)))
}

// Python ints of 2**63 and more reach kernels as their uint64 bits (Int) and their value.
func TestBigIntegerScalars(t *testing.T) {
	checkLeaks(t)
	op, err := ops.Lookup("_equal_scalar")
	require.NoError(t, err)
	at, err := ops.ParseAttrs(op, "scalar=i:18446744073709551615")
	require.NoError(t, err)
	s := at.Scalar("scalar")
	assert.Equal(t, int64(-1), s.Int)
	assert.Equal(t, math.Pow(2, 64), real(s.Value))
	at, err = ops.ParseAttrs(op, "scalar=i:-9223372036854775808")
	require.NoError(t, err)
	assert.Equal(t, int64(math.MinInt64), at.Scalar("scalar").Int)
	_, err = ops.ParseAttrs(op, "scalar=i:18446744073709551616")
	requireKind(t, err, mxerr.Value)
	f := empty(t, ndarray.Float32, 2)
	require.NoError(t, ops.Fill(f, s))
	assert.Equal(t, []float32{1<<64 - 1, 1<<64 - 1}, rawValues[float32](f), "not -1")
	// a comparison converts the number to the dtype as MXNet does, through a double:
	// 2**64-1 is 2**64 there, beyond uint64, and x86's conversion gives 2**63
	u := empty(t, ndarray.Uint64, 3)
	rawSet(u, []uint64{math.MaxUint64, 7, 1 << 63})
	assert.Equal(t, []float64{0, 0, 1}, decode(ewInvoke(t, "_equal_scalar", scalarAttrs(s, false), u)))
}

// A comparison with a number converts the number to the array's dtype first, as MXNet
// 1.9.1 does (C's cast of a double on x86); the expectations are MXNet's results.
func TestCompareScalarConvertsLikeMXNet(t *testing.T) {
	checkLeaks(t)
	cmp := func(name string, dt ndarray.DType, vals []float64, s ops.Scalar) []float64 {
		return decode(ewInvoke(t, name, scalarAttrs(s, false), fromValues(t, dt, vals)))
	}
	i32 := []float64{1, 2, 3}
	assert.Equal(t, []float64{0, 1, 0}, cmp("_equal_scalar", ndarray.Int32, i32, floatScalar(2.7)))
	assert.Equal(t, []float64{0, 0, 1}, cmp("_greater_scalar", ndarray.Int32, i32, floatScalar(2.7)))
	assert.Equal(t, []float64{1, 1, 0}, cmp("_lesser_equal_scalar", ndarray.Int32, i32, floatScalar(2.7)))
	assert.Equal(t, []float64{1, 0, 1}, cmp("_not_equal_scalar", ndarray.Int32, i32, floatScalar(2.7)))
	assert.Equal(t, []float64{1, 0, 0}, decode(ewInvoke(t, "_greater_scalar", scalarAttrs(floatScalar(2.7), true),
		fromValues(t, ndarray.Int32, i32))), "2.7 > x is 2 > x")
	u8 := []float64{1, 2, 255}
	for _, c := range []struct {
		s      ops.Scalar
		gt, eq []float64
		why    string
	}{
		{intScalar(-1), []float64{0, 0, 0}, []float64{0, 0, 1}, "-1 is 255"},
		{intScalar(256), []float64{1, 1, 1}, []float64{0, 0, 0}, "256 is 0"},
		{intScalar(257), []float64{0, 1, 1}, []float64{1, 0, 0}, "257 is 1"},
		{floatScalar(-0.5), []float64{1, 1, 1}, []float64{0, 0, 0}, "-0.5 is 0"},
		{floatScalar(255.9), []float64{0, 0, 0}, []float64{0, 0, 1}, "255.9 is 255"},
		{floatScalar(1e10), []float64{1, 1, 1}, []float64{0, 0, 0}, "1e10 is int32's minimum, then 0"},
		{floatScalar(math.NaN()), []float64{1, 1, 1}, []float64{0, 0, 0}, "NaN is 0"},
	} {
		assert.Equal(t, c.gt, cmp("_greater_scalar", ndarray.Uint8, u8, c.s), "uint8 >: %s", c.why)
		assert.Equal(t, c.eq, cmp("_equal_scalar", ndarray.Uint8, u8, c.s), "uint8 ==: %s", c.why)
	}
	i8 := []float64{-128, 0, 127}
	assert.Equal(t, []float64{1, 0, 0}, cmp("_equal_scalar", ndarray.Int8, i8, intScalar(128)), "128 is -128")
	assert.Equal(t, []float64{0, 0, 1}, cmp("_greater_scalar", ndarray.Int8, i8, intScalar(300)), "300 is 44")
	assert.Equal(t, []float64{0, 1, 0}, cmp("_equal_scalar", ndarray.Int8, i8, floatScalar(math.Inf(1))), "inf is 0")
	big := []float64{math.MaxInt32, math.MinInt32}
	for _, s := range []ops.Scalar{intScalar(1 << 31), intScalar(1<<32 + 5), floatScalar(1e20), floatScalar(math.NaN())} {
		assert.Equal(t, []float64{0, 1}, cmp("_equal_scalar", ndarray.Int32, big, s), "%v is int32's minimum", s)
	}
	i64 := fromValues(t, ndarray.Int64, []float64{0, 0})
	rawSet(i64, []int64{1<<53 + 1, 1 << 53})
	assert.Equal(t, []float64{0, 1}, decode(ewInvoke(t, "_equal_scalar", scalarAttrs(intScalar(1<<53+1), false), i64)),
		"2**53+1 goes through a double: 2**53")
	b := []float64{0, 1}
	for _, c := range []struct {
		s          ops.Scalar
		eq, gt, lt []float64
	}{
		{floatScalar(0.5), []float64{1, 0}, []float64{0, 1}, []float64{0, 0}},
		{floatScalar(1.9), []float64{0, 1}, []float64{0, 0}, []float64{1, 0}},
		{intScalar(2), []float64{0, 0}, []float64{0, 0}, []float64{1, 1}},
		{intScalar(-1), []float64{0, 0}, []float64{1, 1}, []float64{0, 0}},
		{intScalar(256), []float64{0, 0}, []float64{0, 0}, []float64{1, 1}},
		{floatScalar(math.NaN()), []float64{0, 0}, []float64{1, 1}, []float64{0, 0}},
	} {
		assert.Equal(t, c.eq, cmp("_equal_scalar", ndarray.Bool, b, c.s), "bool == %v", c.s)
		assert.Equal(t, c.gt, cmp("_greater_scalar", ndarray.Bool, b, c.s), "bool > %v", c.s)
		assert.Equal(t, c.lt, cmp("_lesser_scalar", ndarray.Bool, b, c.s), "bool < %v", c.s)
	}
	h := []float64{1, 2, 65504}
	assert.Equal(t, []float64{0, 1, 0}, cmp("_equal_scalar", ndarray.Float16, h, floatScalar(2.0004)), "rounded to float16")
	assert.Equal(t, []float64{0, 0, 1}, cmp("_equal_scalar", ndarray.Float16, h, floatScalar(65519)))
	assert.Equal(t, []float64{1}, cmp("_equal_scalar", ndarray.Float32, []float64{16777216}, intScalar(16777217)))
}

// MXNet's where with a 1-D condition as long as x's first axis picks whole rows, even
// where NumPy broadcasting would pick columns (a square x); views and broadcast y too.
func TestWhereRows(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float32, seq(6), 2, 3)
	y := fromValues(t, ndarray.Float32, []float64{-1, -2, -3, -4, -5, -6}, 2, 3)
	cond := fromValues(t, ndarray.Int32, []float64{1, 0})
	assert.Equal(t, []float64{0, 1, 2, -4, -5, -6}, decode(ewInvoke(t, "where", nil, cond, x, y)))
	sq := fromValues(t, ndarray.Float64, seq(9), 3, 3)
	nsq := fromValues(t, ndarray.Float64, []float64{-1, -1, -1, -1, -1, -1, -1, -1, -1}, 3, 3)
	c3 := fromValues(t, ndarray.Float64, []float64{0, ewNaN, 1})
	assert.Equal(t, []float64{-1, -1, -1, 3, 4, 5, 6, 7, 8}, decode(ewInvoke(t, "where", nil, c3, sq, nsq)), "rows, not columns")
	x3 := fromValues(t, ndarray.Int64, seq(12), 2, 3, 2)
	strided := index(t, fromValues(t, ndarray.Bool, []float64{0, 1, 1, 0}), S(nil, nil, 2)) // [0, 1]
	got := ewInvoke(t, "where", nil, strided, x3, fromValues(t, ndarray.Int64, []float64{-7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7}, 2, 3, 2))
	assert.Equal(t, []int{2, 3, 2}, got.Shape())
	assert.Equal(t, []float64{-7, -7, -7, -7, -7, -7, 6, 7, 8, 9, 10, 11}, decode(got))
	v := fromValues(t, ndarray.Float32, []float64{1, 2, 3})
	assert.Equal(t, []float64{1, -2, 3}, decode(ewInvoke(t, "where", nil, fromValues(t, ndarray.Float32, []float64{1, 0, 1}), v,
		fromValues(t, ndarray.Float32, []float64{-1, -2, -3}))), "1-D x: elementwise")
	_, err := ewTry("where", nil, nil, fromValues(t, ndarray.Float32, []float64{1, 0, 1, 0}), x, y)
	requireKind(t, err, mxerr.Value, "condition")
}
