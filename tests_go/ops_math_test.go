package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet 1.x's elementwise math (math_unary.go, math_binary.go, math_misc.go): the C
// conversion of integer results, the float32 row kernels against the float64 functions,
// the logical operators on every real dtype, add_n, and the aliases' registrations.

// mathOut runs the unary operator name on a new array of dt holding vals.
func mathOut(t *testing.T, name string, at ops.Attrs, dt ndarray.DType, vals ...float64) *ndarray.NDArray {
	t.Helper()
	return ewInvoke(t, name, at, fromValues(t, dt, vals))
}

func TestMathIntegerResultsConvertAsC(t *testing.T) {
	checkLeaks(t)
	// arccos(2) is NaN: the 32-bit "integer indefinite" INT32_MIN for 32 bits and less
	// (whose low bits are 0), INT64_MIN for int64 and uint32 (low 32 bits 0).
	for dt, want := range map[ndarray.DType]float64{
		ndarray.Int8: 0, ndarray.Uint8: 0, ndarray.Int16: 0, ndarray.Uint16: 0, ndarray.Int32: math.MinInt32,
		ndarray.Uint32: 0, ndarray.Int64: math.MinInt64,
	} {
		r := mathOut(t, "arccos", nil, dt, 2, 1, 0)
		assert.Equal(t, dt, r.DType())
		assert.Equal(t, []float64{want, 0, 1}, values(t, r), "%s", dt) // acos(0) = 1.57 truncates to 1
	}
	// tan(2) = -2.18: -2 in 32 bits, whose low byte is 254 for uint8
	assert.Equal(t, []float64{254}, values(t, mathOut(t, "tan", nil, ndarray.Uint8, 2)))
	// degrees(3) = 171.9: 171 in 32 bits, -85 in int8
	assert.Equal(t, []float64{-85, 57}, values(t, mathOut(t, "degrees", nil, ndarray.Int8, 3, 1)))
	// computed in float64, not float32: sinh(20) = 242582597.70 (float32: 242582592)
	assert.Equal(t, []float64{242582597, math.MinInt32}, values(t, mathOut(t, "sinh", nil, ndarray.Int32, 20, 100)))
	// erfinv beyond [-1, 1] is MXNet's integer NaN, 0; at ±1 ±inf converts to INT_MIN
	assert.Equal(t, []float64{0, math.MinInt64, math.MinInt64}, values(t, mathOut(t, "erfinv", nil, ndarray.Int64, 5, 1, -1)))
	// rounding integers is exact, beyond 2**53 too
	r := ewInvoke(t, "rint", nil, fromValues(t, ndarray.Int64, []float64{0}))
	big := empty(t, ndarray.Int64, 2)
	rawSet(big, []int64{1<<62 + 1, -(1<<60 + 3)})
	for _, name := range []string{"rint", "round", "fix", "floor", "ceil", "trunc"} {
		assert.Equal(t, []int64{1<<62 + 1, -(1<<60 + 3)}, rawValues[int64](ewInvoke(t, name, nil, big)), name)
	}
	assert.Equal(t, []float64{0}, values(t, r))
	// smooth_l1's sigma is converted to the dtype: 0.5 is 0, so every element is 0
	assert.Equal(t, []float64{0, 0}, values(t, mathOut(t, "smooth_l1", ops.Attrs{"scalar": 0.5}, ndarray.Int32, 3, -3)))
	assert.Equal(t, []float64{2, 2}, values(t, mathOut(t, "smooth_l1", ops.Attrs{"scalar": 1.0}, ndarray.Int32, 3, -3)))
}

// mathStream is n float32 values over many magnitudes, with halves, signed zeros, inf and NaN.
func mathStream(n int) []float64 {
	vals := []float64{0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, 8388607.5, 1e30, -1e-30, 0, math.Copysign(0, -1),
		math.Inf(1), math.Inf(-1), math.NaN()}
	for i := len(vals); i < n; i++ {
		vals = append(vals, float64(float32(math.Sin(float64(i))*math.Pow(10, float64(i%9-3)))))
	}
	return vals
}

func TestMathFloat32RowsMatchFloat64(t *testing.T) {
	checkLeaks(t)
	deg := float64(float32(180) / float32(math.Pi))
	rint := func(x float64) float64 {
		if lo, hi := math.Floor(x), math.Ceil(x); x-lo <= hi-x {
			return lo
		} else {
			return hi
		}
	}
	refs := map[string]func(float64) float64{
		"floor": math.Floor, "ceil": math.Ceil, "trunc": math.Trunc, "fix": math.Trunc, "round": math.Round, "rint": rint,
		"reciprocal": func(x float64) float64 { return 1 / x }, "rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
		"degrees":  func(x float64) float64 { return x * deg },
		"softsign": func(x float64) float64 { return x / (1 + math.Abs(x)) },
		"hard_sigmoid": func(x float64) float64 {
			return max(0, min(1, float64(float32(0.3))*x+float64(float32(-0.2))))
		},
		"smooth_l1": func(x float64) float64 {
			const s2 = 2.5 * 2.5
			if math.Abs(x) < 1/s2 {
				return 0.5 * x * x * s2
			}
			return math.Abs(x) - 0.5/s2
		},
	}
	attrs := map[string]ops.Attrs{"hard_sigmoid": {"alpha": 0.3, "beta": -0.2}, "smooth_l1": {"scalar": 2.5}}
	vals := mathStream(3000)
	x := fromValues(t, ndarray.Float32, vals, 3, 1000)
	big := make([]float64, 2*len(vals)) // vals in the even rows of (6, 1000)
	for r := 0; r < 3; r++ {
		copy(big[2*r*1000:], vals[r*1000:(r+1)*1000])
	}
	strided := index(t, fromValues(t, ndarray.Float32, big, 6, 1000), S(nil, nil, 2), all)
	// both kernels: C (math32_avx2.c) where the CPU has AVX2, and the Go loops
	require.NoError(t, ops.WaitAll())
	was := simd.SetMath32(true)
	if !was && cpuHas("avx2") {
		t.Fatal("the CPU has AVX2, yet the C kernels of floor ... softsign are off")
	}
	defer simd.SetMath32(was)
	byPath := map[bool]map[string][]float32{}
	for _, on := range []bool{true, false} {
		require.NoError(t, ops.WaitAll())
		simd.SetMath32(on)
		byPath[on] = map[string][]float32{}
		for name, ref := range refs {
			want := make([]float32, len(vals))
			for i, v := range vals {
				want[i] = float32(ref(v))
			}
			for _, in := range []*ndarray.NDArray{x, strided} {
				got := rawValues[float32](ewInvoke(t, name, attrs[name], in))
				byPath[on][name] = got
				for i := range want {
					// softsign and degrees round in float32 twice (as MXNet does): one ulp of slack
					if w, g := want[i], got[i]; !(w == g || w != w && g != g) {
						assert.InDelta(t, w, g, math.Abs(float64(w))*1.2e-7, "%s(%v) simd %v", name, vals[i], on)
					}
				}
			}
		}
	}
	for name, c := range byPath[true] { // the same bits either way
		g := byPath[false][name]
		for i := range c {
			require.Equal(t, math.Float32bits(g[i]), math.Float32bits(c[i]), "%s(%v)", name, vals[i])
		}
	}
}

func TestMathLogicalEveryDType(t *testing.T) {
	checkLeaks(t)
	a := []float64{0, math.Copysign(0, -1), math.NaN(), 1, -2, 3, 0.5}
	b := []float64{1, 1, 1, 0, 0, 4, 0}
	logic := map[string]func(x, y bool) bool{
		"logical_and": func(x, y bool) bool { return x && y },
		"logical_or":  func(x, y bool) bool { return x || y },
		"logical_xor": func(x, y bool) bool { return x != y },
	}
	for _, dt := range ndarray.DTypes() {
		x, y := fromValues(t, dt, a), fromValues(t, dt, b)
		xv, yv := values(t, x), values(t, y) // as the dtype holds them (NaN and 0.5 in integers)
		for name, f := range logic {
			out, err := ewTry(name, nil, nil, x, y)
			if dt == ndarray.Bool || dt.Kind() == ndarray.KindComplex {
				requireKind(t, err, mxerr.Type, "does not support")
				continue
			}
			require.NoError(t, err)
			want := make([]float64, len(a))
			for i := range want {
				if f(xv[i] != 0, yv[i] != 0) { // (NaN != 0: true)
					want[i] = 1
				}
			}
			assert.Equal(t, dt, out.DType())
			assert.Equal(t, want, values(t, out), "%s %s", name, dt)
			out.Release()
		}
	}
}

func TestMathAddN(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float16, ndarray.Int8, ndarray.Uint64} {
		a := arange(t, dt, 2, 3)
		tr := index(t, arange(t, dt, 3, 2), all, S(nil, nil, -1)) // a strided input
		got := values(t, ewInvoke(t, "add_n", nil, a, a, a))
		assert.Equal(t, []float64{0, 3, 6, 9, 12, 15}, got, "%s", dt)
		assert.Equal(t, values(t, a), values(t, ewInvoke(t, "ElementWiseSum", nil, a)))
		tv := values(t, tr)
		sum := values(t, ewInvoke(t, "add_n", nil, tr, tr))
		for i := range tv {
			assert.Equal(t, 2*tv[i], sum[i])
		}
	}
	// into one of its inputs: the sum of the values before the call
	a := arange(t, ndarray.Float64, 4)
	require.NoError(t, ewInto("add_n", nil, a, a, a, a))
	assert.Equal(t, []float64{0, 3, 6, 9}, values(t, a))
	_, err := ewTry("add_n", nil, nil, a, arange(t, ndarray.Float64, 1))
	requireKind(t, err, mxerr.Value, "add_n", "(4,)", "(1,)")
	_, err = ewTry("add_n", nil, nil, a, arange(t, ndarray.Float32, 4))
	requireKind(t, err, mxerr.Type, "add_n")
	_, err = ewTry("add_n", nil, nil)
	requireKind(t, err, mxerr.Type, "at least one")
}

func TestMathAliases(t *testing.T) {
	for alias, target := range map[string]string{
		"broadcast_add": "add", "broadcast_plus": "add", "broadcast_minus": "subtract", "broadcast_power": "power",
		"broadcast_lesser_equal": "lesser_equal", "broadcast_logical_xor": "logical_xor", "elemwise_div": "divide",
		"true_divide": "divide", "broadcast_mod": "modulo",
	} {
		a, err := ops.Lookup(alias)
		require.NoError(t, err, alias)
		tg, err := ops.Lookup(target)
		require.NoError(t, err)
		assert.Equal(t, tg.DTypes, a.DTypes, alias)
		assert.Contains(t, a.Doc, target, alias)
		if alias == "true_divide" {
			assert.Equal(t, tg.ScalarOp, a.ScalarOp) // true_divide(x, 2) works in MXNet
		} else {
			assert.Empty(t, a.ScalarOp, alias) // MXNet refuses a Python number there
		}
	}
	x, y := arange(t, ndarray.Float32, 2, 3), arange(t, ndarray.Float32, 3)
	assert.Equal(t, []float64{0, 2, 4, 3, 5, 7}, values(t, ewInvoke(t, "broadcast_plus", nil, x, y)))
	_, err := ewTry("elemwise_add", nil, nil, x, y)
	requireKind(t, err, mxerr.Value, "elemwise_add", "(2, 3)", "(3,)", "does not broadcast")
	assert.Equal(t, []float64{0, 2, 4, 6, 8, 10}, values(t, ewInvoke(t, "elemwise_add", nil, x, x)))
	for _, name := range []string{"identity", "stop_gradient", "BlockGrad"} {
		r := ewInvoke(t, name, nil, x)
		assert.NotSame(t, x.Storage(), r.Storage(), name)
		assert.Equal(t, values(t, x), values(t, r))
	}
	c := ewInvoke(t, "Cast", ops.Attrs{"dtype": ndarray.Int8}, fromValues(t, ndarray.Float32, []float64{-1.7, 2.9}))
	assert.Equal(t, ndarray.Int8, c.DType())
	assert.Equal(t, []float64{-1, 2}, values(t, c))
}

func TestMathHypot(t *testing.T) {
	checkLeaks(t)
	nan, inf := math.NaN(), math.Inf(1)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Float16} {
		x := fromValues(t, dt, []float64{3, 5e30, -1e-30, inf, nan, -inf}, 6)
		y := fromValues(t, dt, []float64{4, 12e30, 1e-30, nan, -inf, 1}, 6)
		want := []float64{5, 13e30, math.Sqrt2 * 1e-30, inf, inf, inf}
		if dt == ndarray.Float16 {
			want = []float64{5, inf, 0, inf, inf, inf}
		}
		assertFloats(t, want, values(t, ewInvoke(t, "broadcast_hypot", nil, x, y)), 1e-6, dt)
	}
	i := fromValues(t, ndarray.Int16, []float64{2, 3}, 2)
	assert.Equal(t, []float64{2, 4}, values(t, ewInvoke(t, "broadcast_hypot", nil, i, fromValues(t, ndarray.Int16, []float64{2, 3}))))
}

// TestMathMvecMatchesGo: the float32 rows of arccos ... erf, log, sin, cos and power go to glibc's libmvec where
// it loads (glibc 2.35+ with AVX2), power to internal/simd's AVX-512 kernel where the CPU
// runs it; their results stay within 4 ulp of the Go kernels' (float64 functions
// rounded) and agree on every special value.
func TestMathMvecMatchesGo(t *testing.T) {
	checkLeaks(t)
	require.NoError(t, ops.WaitAll())
	was := libmvecLoads(t)
	defer simd.SetMvec(was)
	defer simd.SetPow512(simd.SetPow512(true))
	vals := mathStream(4000)
	for i := range vals { // every domain: small and large magnitudes, both signs, [-1, 1]
		if i%3 == 0 {
			vals[i] = math.Mod(vals[i], 1)
		}
	}
	x := fromValues(t, ndarray.Float32, vals)
	exps := make([]float64, len(vals)) // power's exponents: small integers and fractions
	for i := range exps {
		exps[i] = math.Mod(vals[(i+1)%len(vals)], 4)
	}
	y := fromValues(t, ndarray.Float32, exps)
	for _, name := range []string{"arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh", "cosh", "sinh", "tan",
		"cbrt", "rcbrt", "expm1", "log1p", "log2", "log10", "erf", "log", "sin", "cos", "power"} {
		in := []*ndarray.NDArray{x}
		if name == "power" {
			in = append(in, y)
		}
		got := map[bool][]float32{}
		for _, on := range []bool{true, false} {
			require.NoError(t, ops.WaitAll())
			simd.SetMvec(on)
			simd.SetPow512(on)
			got[on] = rawValues[float32](ewInvoke(t, name, nil, in...))
		}
		for i, g := range got[false] {
			c := got[true][i]
			switch {
			case g != g || c != c:
				require.True(t, g != g && c != c, "%s(%v): Go %v, libmvec %v", name, vals[i], g, c)
			case math.IsInf(float64(g), 0) || g == 0:
				require.Equal(t, math.Float32bits(g), math.Float32bits(c), "%s(%v)", name, vals[i])
			default:
				ulp := math.Abs(float64(math.Nextafter32(g, float32(math.Inf(1))) - g))
				require.InDelta(t, g, c, 4*ulp, "%s(%v)", name, vals[i])
			}
		}
	}
}
