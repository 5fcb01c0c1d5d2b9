package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np's elementwise operators (pkg/ops/elemwise/npi*.go): comparisons and predicates
// with bool results. tests_py/test_np_kernels.py checks every dtype against NumPy.

// npiBools runs name and returns its bool result.
func npiBools(t *testing.T, name string, at ops.Attrs, in ...*ndarray.NDArray) []bool {
	t.Helper()
	out := ewInvoke(t, name, at, in...)
	require.Equal(t, ndarray.Bool, out.DType(), name)
	return rawValues[bool](out)
}

func npiScalar(s ops.Scalar, reverse bool) ops.Attrs {
	return ops.Attrs{"scalar": s, "is_int": true, "reverse": reverse}
}

func TestNpiCompareBroadcastsEveryDType(t *testing.T) {
	ops6 := map[string]func(x, y float64) bool{
		"_npi_equal": func(x, y float64) bool { return x == y }, "_npi_not_equal": func(x, y float64) bool { return x != y },
		"_npi_greater": func(x, y float64) bool { return x > y }, "_npi_greater_equal": func(x, y float64) bool { return x >= y },
		"_npi_less": func(x, y float64) bool { return x < y }, "_npi_less_equal": func(x, y float64) bool { return x <= y },
	}
	av, bv := []float64{0, 1}, []float64{1, 0, 1}
	for _, dt := range ops.AllDTypes {
		a, b := fromValues(t, dt, av, 2, 1), fromValues(t, dt, bv, 1, 3)
		for name, f := range ops6 {
			var want []bool
			for _, x := range av {
				for _, y := range bv {
					want = append(want, f(x, y))
				}
			}
			assert.Equal(t, want, npiBools(t, name, nil, a, b), "%s %s", name, dt)
		}
	}
}

func TestNpiCompareNaNAndScalars(t *testing.T) {
	for _, dt := range ops.FloatDTypes {
		a := fromValues(t, dt, []float64{ewNaN, 1, ewInf}, 3)
		b := fromValues(t, dt, []float64{ewNaN, ewNaN, ewInf}, 3)
		assert.Equal(t, []bool{false, false, true}, npiBools(t, "_npi_equal", nil, a, b), dt.String())
		assert.Equal(t, []bool{true, true, false}, npiBools(t, "_npi_not_equal", nil, a, b), dt.String())
		assert.Equal(t, []bool{false, false, true}, npiBools(t, "_npi_less_equal", nil, a, b), dt.String())
	}
	u8 := fromValues(t, ndarray.Uint8, []float64{0, 255}, 2)
	assert.Equal(t, []bool{true, true}, npiBools(t, "_npi_greater_scalar", npiScalar(intScalar(-1), false), u8), "exact: x > -1")
	assert.Equal(t, []bool{false, false}, npiBools(t, "_npi_equal_scalar", npiScalar(intScalar(-1), false), u8), "-1 does not wrap")
	assert.Equal(t, []bool{true, true}, npiBools(t, "_npi_greater_scalar", npiScalar(intScalar(256), true), u8), "256 > x")
	i8 := fromValues(t, ndarray.Int8, []float64{-128, 2, 3}, 3)
	assert.Equal(t, []bool{true, true, true}, npiBools(t, "_npi_less_scalar", npiScalar(intScalar(1000), false), i8))
	assert.Equal(t, []bool{true, true, false}, npiBools(t, "_npi_less_scalar", npiScalar(floatScalar(2.5), false), i8), "floats compare in float64")
	assert.Equal(t, []bool{false, false, false}, npiBools(t, "_npi_equal_scalar", npiScalar(floatScalar(2.5), false), i8))
	i64 := empty(t, ndarray.Int64, 2)
	rawSet(i64, []int64{math.MaxInt64, math.MaxInt64 - 1})
	assert.Equal(t, []bool{true, false}, npiBools(t, "_npi_equal_scalar", npiScalar(intScalar(math.MaxInt64), false), i64), "exact beyond 2**53")
	u64 := empty(t, ndarray.Uint64, 2)
	rawSet(u64, []uint64{math.MaxUint64, 1})
	big := ops.Scalar{IsInt: true, Int: -1, Value: complex(math.MaxUint64, 0)} // Python's 2**64 - 1
	assert.Equal(t, []bool{true, false}, npiBools(t, "_npi_equal_scalar", npiScalar(big, false), u64))
	assert.Equal(t, []bool{true, true}, npiBools(t, "_npi_greater_scalar", npiScalar(intScalar(-1), false), u64))
	f32 := fromValues(t, ndarray.Float32, []float64{0.1}, 1)
	assert.Equal(t, []bool{true}, npiBools(t, "_npi_equal_scalar", npiScalar(floatScalar(0.1), false), f32), "0.1 rounds to float32 (NEP 50)")
	f64 := fromValues(t, ndarray.Float64, []float64{float64(float32(0.1))}, 1)
	assert.Equal(t, []bool{false}, npiBools(t, "_npi_equal_scalar", npiScalar(floatScalar(0.1), false), f64))
	b := fromValues(t, ndarray.Bool, []float64{0, 1}, 2)
	assert.Equal(t, []bool{false, true}, npiBools(t, "_npi_equal_scalar", npiScalar(intScalar(1), false), b))
	assert.Equal(t, []bool{false, false}, npiBools(t, "_npi_equal_scalar", npiScalar(intScalar(2), false), b))
	c := empty(t, ndarray.Complex64, 2)
	rawSet(c, []complex64{complex(1, 2), complex(1, -1)})
	assert.Equal(t, []bool{true, false}, npiBools(t, "_npi_greater_scalar", npiScalar(ops.Scalar{Value: 1}, false), c), "lexicographic")
}

func TestNpiPredicates(t *testing.T) {
	names := []string{"isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "logical_not"}
	floats := []float64{ewNaN, ewInf, ewNInf, 0, math.Copysign(0, -1), -1.5}
	want := map[string][]bool{
		"isnan":       {true, false, false, false, false, false},
		"isinf":       {false, true, true, false, false, false},
		"isfinite":    {false, false, false, true, true, true},
		"isposinf":    {false, true, false, false, false, false},
		"isneginf":    {false, false, true, false, false, false},
		"signbit":     {false, false, true, false, true, true},
		"logical_not": {false, false, false, true, true, false},
	}
	for _, dt := range ops.FloatDTypes {
		a := fromValues(t, dt, floats, len(floats))
		for _, n := range names {
			assert.Equal(t, want[n], npiBools(t, "_npi_"+n, nil, a), "%s %s", n, dt)
		}
	}
	i8 := fromValues(t, ndarray.Int8, []float64{-128, -1, 0, 127}, 4)
	for n, w := range map[string][]bool{
		"isnan": {false, false, false, false}, "isinf": {false, false, false, false}, "isfinite": {true, true, true, true},
		"signbit": {true, true, false, false}, "logical_not": {false, false, true, false},
	} {
		assert.Equal(t, w, npiBools(t, "_npi_"+n, nil, i8), n)
	}
	c := empty(t, ndarray.Complex128, 4)
	rawSet(c, []complex128{complex(ewNaN, 0), complex(1, ewInf), 0, 1i})
	for n, w := range map[string][]bool{
		"isnan": {true, false, false, false}, "isinf": {false, true, false, false},
		"isfinite": {false, false, true, true}, "logical_not": {false, false, true, false},
	} {
		assert.Equal(t, w, npiBools(t, "_npi_"+n, nil, c), n)
	}
	_, err := ewTry("_npi_isposinf", nil, nil, c)
	requireKind(t, err, mxerr.Type, "complex128")
}

func TestNpiLogical(t *testing.T) {
	want := map[string][]bool{
		"_npi_logical_and": {false, false, false, true},
		"_npi_logical_or":  {false, true, true, true},
		"_npi_logical_xor": {false, true, true, false},
	}
	for _, dt := range ops.AllDTypes {
		a, b := fromValues(t, dt, []float64{0, 1, 0, 1}, 4), fromValues(t, dt, []float64{0, 0, 1, 1}, 4)
		for name, w := range want {
			assert.Equal(t, w, npiBools(t, name, nil, a, b), "%s %s", name, dt)
		}
	}
	h := empty(t, ndarray.Float16, 2)
	rawSet(h, []uint16{0x8000, 0x7e00}) // -0.0 is false, NaN true
	assert.Equal(t, []bool{false, true}, npiBools(t, "_npi_logical_or_scalar", npiScalar(intScalar(0), false), h))
	assert.Equal(t, []bool{false, false}, npiBools(t, "_npi_logical_and_scalar", npiScalar(floatScalar(1e-10), false), h), "1e-10 is 0 in float16")
	i8 := fromValues(t, ndarray.Int8, []float64{0, 3}, 2)
	assert.Equal(t, []bool{false, true}, npiBools(t, "_npi_logical_and_scalar", npiScalar(floatScalar(0.5), false), i8), "0.5 is true")
	assert.Equal(t, []bool{true, false}, npiBools(t, "_npi_logical_xor_scalar", npiScalar(intScalar(256), true), i8), "256 is true")
}

func TestNpiBitwiseAndShifts(t *testing.T) {
	i8 := empty(t, ndarray.Int8, 5)
	rawSet(i8, []int8{-128, -1, 5, 127, -7})
	n := empty(t, ndarray.Int8, 5)
	rawSet(n, []int8{1, 8, 7, -1, 100})
	assert.Equal(t, []int8{0, 0, -128, 0, 0}, rawValues[int8](ewInvoke(t, "_npi_left_shift", nil, i8, n)), "counts >= 8 or negative give 0")
	assert.Equal(t, []int8{-64, -1, 0, 0, -1}, rawValues[int8](ewInvoke(t, "_npi_right_shift", nil, i8, n)), "... or -1 for negative x")
	assert.Equal(t, []int8{-128, -1, 5, 127, -7}, rawValues[int8](ewInvoke(t, "_npi_bitwise_and", nil, i8, i8)))
	assert.Equal(t, []int8{127, 0, -6, -128, 6}, rawValues[int8](ewInvoke(t, "_npi_bitwise_not", nil, i8)))
	assert.Equal(t, []int8{0, 0, 0, 0, 0}, rawValues[int8](ewInvoke(t, "_npi_left_shift_scalar", npiScalar(intScalar(264), false), i8)), "264 is not 8 wrapped")
	assert.Equal(t, []int8{-1, -1, 0, 0, -1}, rawValues[int8](ewInvoke(t, "_npi_right_shift_scalar", npiScalar(intScalar(-1), false), i8)))
	assert.Equal(t, []int8{1, 0, 0, 0, 0}, rawValues[int8](ewInvoke(t, "_npi_right_shift_scalar", npiScalar(intScalar(2), true), n)), "2 >> n")
	u64 := empty(t, ndarray.Uint64, 2)
	rawSet(u64, []uint64{math.MaxUint64, 6})
	assert.Equal(t, []uint64{math.MaxUint64 >> 63, 0}, rawValues[uint64](ewInvoke(t, "_npi_right_shift_scalar", npiScalar(intScalar(63), false), u64)))
	assert.Equal(t, []uint64{math.MaxUint64 ^ 3, 5}, rawValues[uint64](ewInvoke(t, "_npi_bitwise_xor_scalar", npiScalar(intScalar(3), false), u64)))
	b := fromValues(t, ndarray.Bool, []float64{0, 1}, 2)
	assert.Equal(t, []bool{true, false}, rawValues[bool](ewInvoke(t, "_npi_bitwise_not", nil, b)))
	assert.Equal(t, []bool{true, true}, rawValues[bool](ewInvoke(t, "_npi_bitwise_or_scalar", npiScalar(intScalar(2), false), b)), "2 is true")
	_, err := ewTry("_npi_bitwise_and_scalar", npiScalar(floatScalar(2), false), nil, i8)
	requireKind(t, err, mxerr.Type, "integer")
	_, err = ewTry("_npi_left_shift", nil, nil, b, b)
	requireKind(t, err, mxerr.Type, "bool")
}

func TestNpiFloatEdges(t *testing.T) {
	f64 := func(vals ...float64) *ndarray.NDArray { return fromValues(t, ndarray.Float64, vals, len(vals)) }
	negZero := math.Copysign(0, -1)
	fd := values(t, ewInvoke(t, "_npi_floor_divide", nil, f64(1, -1, 0, ewInf, 7, -7, 1), f64(0, ewInf, -3, 2, negZero, 2, -ewInf)))
	assert.True(t, math.IsInf(fd[0], 1))
	assert.Equal(t, []float64{0, 0}, fd[1:3])
	assert.True(t, math.Signbit(fd[1]), "-1 // inf is -0.0 (the standard's floor(-1 / inf); NumPy's -1)")
	assert.True(t, math.Signbit(fd[2]), "0 // -3 is -0.0")
	assert.True(t, math.IsInf(fd[3], 1), "inf // 2 is inf (the standard's; NumPy's NaN)")
	assert.True(t, math.IsInf(fd[4], -1), "7 // -0 is -inf")
	assert.Equal(t, -4.0, fd[5])
	assert.True(t, math.Signbit(fd[6]), "1 // -inf is -0.0")
	md := values(t, ewInvoke(t, "_npi_mod", nil, f64(5, 5, -1, 6, 1), f64(0, -3, ewInf, -3, negZero)))
	assert.True(t, math.IsNaN(md[0]), "x % 0 is NaN")
	assert.Equal(t, []float64{-1, ewInf}, md[1:3])
	assert.True(t, math.Signbit(md[3]), "6 % -3 is -0.0")
	assert.True(t, math.IsNaN(md[4]))
	i8 := empty(t, ndarray.Int8, 4)
	rawSet(i8, []int8{-128, -7, 7, 5})
	d8 := empty(t, ndarray.Int8, 4)
	rawSet(d8, []int8{-1, 2, -2, 0})
	assert.Equal(t, []int8{-128, -4, -4, 0}, rawValues[int8](ewInvoke(t, "_npi_floor_divide", nil, i8, d8)))
	assert.Equal(t, []int8{0, 1, -1, 0}, rawValues[int8](ewInvoke(t, "_npi_mod", nil, i8, d8)))
	h := empty(t, ndarray.Float16, 4)
	rawSet(h, []uint16{0x0000, 0x8000, 0x3c00, 0x7c00})
	hy := empty(t, ndarray.Float16, 4)
	rawSet(hy, []uint16{0x8000, 0x3c00, 0x0000, 0x7c00})
	assert.Equal(t, []uint16{0x0000, 0x0001, 0x3bff, 0x7c00}, rawValues[uint16](ewInvoke(t, "_npi_nextafter", nil, h, hy)), "NumPy's half keeps x where x == y")
	n64 := values(t, ewInvoke(t, "_npi_nextafter", nil, f64(0, 1), f64(negZero, 2)))
	assert.True(t, math.Signbit(n64[0]), "C's nextafter gives y where x == y")
	assert.Equal(t, math.Nextafter(1, 2), n64[1])
	e := empty(t, ndarray.Int64, 3)
	rawSet(e, []int64{-1074, 1 << 40, -(1 << 40)})
	assert.Equal(t, []float64{5e-324, ewInf, 0}, values(t, ewInvoke(t, "_npi_ldexp", nil, f64(1, 1, 1), e)), "exact and saturating")
	assert.Equal(t, []float64{1 + math.Ln2, ewInf}, values(t, ewInvoke(t, "_npi_logaddexp", nil, f64(1, ewInf), f64(1, ewInf))))
	_, err := ewTry("_npi_ldexp", nil, nil, e, e)
	requireKind(t, err, mxerr.Type, "first operand")
	_, err = ewTry("_npi_arctan2", nil, nil, e, e)
	requireKind(t, err, mxerr.Type, "int64")
}

// TestNpiGradients checks the differentiable binary operators against central
// differences, with operands that broadcast (so the gradients are summed back).
func TestNpiGradients(t *testing.T) {
	checkGraphLeaks(t)
	av, bv := []float64{0.7, -1.3}, []float64{0.4, -2.1, 1.7}
	fwd := func(name string, x, y float64) float64 {
		r := ewInvoke(t, name, nil, fromValues(t, ndarray.Float64, []float64{x}, 1), fromValues(t, ndarray.Float64, []float64{y}, 1))
		return values(t, r)[0]
	}
	for _, name := range []string{"_npi_arctan2", "_npi_copysign", "_npi_hypot", "_npi_ldexp", "_npi_logaddexp", "_npi_mod"} {
		a, b := fromValues(t, ndarray.Float64, av, 2, 1), fromValues(t, ndarray.Float64, bv, 1, 3)
		ga, gb := variable(t, a, autograd.ReqWrite), variable(t, b, autograd.ReqWrite)
		y := call(t, recording, name, "", a, b)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
		const h = 1e-6
		for i, x := range av {
			want := 0.0
			for _, v := range bv {
				want += (fwd(name, x+h, v) - fwd(name, x-h, v)) / (2 * h)
			}
			assert.InDelta(t, want, values(t, ga)[i], 1e-5, "%s d/da", name)
		}
		for j, v := range bv {
			want := 0.0
			for _, x := range av {
				want += (fwd(name, x, v+h) - fwd(name, x, v-h)) / (2 * h)
			}
			if name == "_npi_ldexp" || name == "_npi_mod" || name == "_npi_copysign" {
				continue // not smooth in b, or (ldexp) fractional exponents that NumPy lacks
			}
			assert.InDelta(t, want, values(t, gb)[j], 1e-5, "%s d/db", name)
		}
	}
	x := fromValues(t, ndarray.Float64, av, 2)
	gx := variable(t, x, autograd.ReqWrite)
	y := call(t, recording, "_npi_rarctan2_scalar", "scalar=f:0.5", x) // arctan2(0.5, x)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	for i, v := range av {
		assert.InDelta(t, -0.5/(0.25+v*v), values(t, gx)[i], 1e-12)
	}
	e := empty(t, ndarray.Int32, 2)
	rawSet(e, []int32{3, -1})
	y = call(t, recording, "_npi_ldexp", "", x, e)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	assert.Equal(t, []float64{8, 0.5}, values(t, gx), "an integer exponent: 2**e")
}

func TestNpiComplexParts(t *testing.T) {
	c := empty(t, ndarray.Complex64, 2)
	rawSet(c, []complex64{complex(1, -2), complex(float32(math.Inf(-1)), 3)})
	re, im := ewInvoke(t, "_npi_real", nil, c), ewInvoke(t, "_npi_imag", nil, c)
	assert.Equal(t, ndarray.Float32, re.DType())
	assert.Equal(t, []float32{1, float32(math.Inf(-1))}, rawValues[float32](re))
	assert.Equal(t, []float32{-2, 3}, rawValues[float32](im))
	assert.Equal(t, []complex64{complex(1, 2), complex(float32(math.Inf(-1)), -3)}, rawValues[complex64](ewInvoke(t, "_npi_conj", nil, c)))
	i16 := fromValues(t, ndarray.Int16, []float64{-5, 7}, 2)
	assert.Equal(t, []int16{-5, 7}, rawValues[int16](ewInvoke(t, "_npi_real", nil, i16)))
	assert.Equal(t, []int16{0, 0}, rawValues[int16](ewInvoke(t, "_npi_imag", nil, i16)))
	assert.Equal(t, []int16{-5, 7}, rawValues[int16](ewInvoke(t, "_npi_conj", nil, i16)))
	b := fromValues(t, ndarray.Bool, []float64{1, 0}, 2)
	assert.Equal(t, []int8{1, 0}, rawValues[int8](ewInvoke(t, "_npi_conj", nil, b)), "int8, as NumPy's conj of bool")
}

func TestNpiScalarsThatWouldChangeTheDType(t *testing.T) {
	i32 := fromValues(t, ndarray.Int32, []float64{7, -7}, 2)
	_, err := ewTry("_npi_floor_divide_scalar", npiScalar(floatScalar(2), false), nil, i32)
	requireKind(t, err, mxerr.Type, "a float with a int32 array")
	f32 := fromValues(t, ndarray.Float32, []float64{7, -7}, 2)
	_, err = ewTry("_npi_mod_scalar", npiScalar(ops.Scalar{Value: 1i}, false), nil, f32)
	requireKind(t, err, mxerr.Type, "complex")
	assert.Equal(t, []int32{-3, 2}, rawValues[int32](ewInvoke(t, "_npi_floor_divide_scalar", npiScalar(intScalar(-3), false), i32)))
	assert.Equal(t, []int32{-1, 0}, rawValues[int32](ewInvoke(t, "_npi_floor_divide_scalar", npiScalar(intScalar(-3), true), i32)), "-3 // x")
	assert.Equal(t, []float32{1, -6}, rawValues[float32](ewInvoke(t, "_npi_rmod_scalar", ops.Attrs{"scalar": intScalar(-6), "is_int": true, "reverse": true}, f32)), "-6 % x")
	assert.Equal(t, []float32{3, 3}, rawValues[float32](ewInvoke(t, "_npi_mod_scalar", ops.Attrs{"scalar": intScalar(5), "is_int": false, "reverse": false},
		fromValues(t, ndarray.Float32, []float64{3, 8}, 2))), "is_int=0")
}
