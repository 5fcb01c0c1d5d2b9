package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/elemwise"
)

var arithDTypes = []ndarray.DType{ndarray.Int32, ndarray.Float32, ndarray.Float64, ndarray.Complex64, ndarray.Float16}

var binaryOps = []struct {
	name string
	op   elemwise.BinaryOp
}{{"add", elemwise.Add}, {"subtract", elemwise.Sub}, {"multiply", elemwise.Mul}, {"divide", elemwise.Div}}

// refBinary computes x op y in float64; integer division truncates toward zero (C and
// MXNet semantics) and integer division by zero gives 0 (NumPy's result).
func refBinary(op elemwise.BinaryOp, x, y float64, integral bool) float64 {
	switch op {
	case elemwise.Add:
		return x + y
	case elemwise.Sub:
		return x - y
	case elemwise.Mul:
		return x * y
	}
	if integral {
		if y == 0 {
			return 0
		}
		return math.Trunc(x / y)
	}
	return x / y
}

func refBinaryAll(op elemwise.BinaryOp, xs, ys []float64, integral bool) []float64 {
	out := make([]float64, len(xs))
	for i := range xs {
		out[i] = refBinary(op, xs[i], ys[i], integral)
	}
	return out
}

func isIntegral(dt ndarray.DType) bool {
	k := dt.Kind()
	return k == ndarray.KindInt || k == ndarray.KindUint || k == ndarray.KindBool
}

func TestArithmeticIsRegistered(t *testing.T) {
	for _, c := range binaryOps {
		for _, name := range []string{c.name, "_" + c.name + "_scalar"} {
			op, err := ops.Lookup(name)
			require.NoError(t, err)
			assert.Equal(t, name, op.Name)
		}
	}
	_, err := ops.Lookup("no_such_operator")
	requireKind(t, err, mxerr.Value, "no_such_operator")
}

// Operands chosen so that every result is exact in float16.
var (
	arithX = []float64{1, 2, 3, 4, -6}
	arithY = []float64{2, 2, -1, 8, 4}
)

func TestBinary(t *testing.T) {
	checkLeaks(t)
	for _, dt := range arithDTypes {
		for _, c := range binaryOps {
			a, b := fromValues(t, dt, arithX), fromValues(t, dt, arithY)
			out := empty(t, dt, len(arithX))
			require.NoError(t, elemwise.Binary(c.op, out, a, b))
			assert.Equal(t, refBinaryAll(c.op, arithX, arithY, isIntegral(dt)), decode(out), "%s %s", dt, c.name)
			assert.Equal(t, arithX, decode(a), "inputs unchanged")
		}
	}
}

func TestBinaryScalar(t *testing.T) {
	checkLeaks(t)
	const s = 3
	for _, dt := range arithDTypes {
		for _, c := range binaryOps {
			for _, reverse := range []bool{false, true} {
				a := fromValues(t, dt, arithX)
				out := empty(t, dt, len(arithX))
				require.NoError(t, elemwise.BinaryScalar(c.op, out, a, intScalar(s), reverse))
				want := make([]float64, len(arithX))
				for i, x := range arithX {
					if reverse {
						want[i] = refBinary(c.op, s, x, isIntegral(dt))
					} else {
						want[i] = refBinary(c.op, x, s, isIntegral(dt))
					}
				}
				if !isIntegral(dt) {
					want = roundTo(t, dt, want) // x/3 is inexact
				}
				assert.Equal(t, want, decode(out), "%s %s reverse=%v", dt, c.name, reverse)
			}
		}
	}
}

func TestScalarConvertsToArrayDType(t *testing.T) {
	checkLeaks(t)
	a := fromValues(t, ndarray.Int32, []float64{1, -1})
	out := empty(t, ndarray.Int32, 2)
	require.NoError(t, elemwise.BinaryScalar(elemwise.Add, out, a, floatScalar(2.9), false))
	assert.Equal(t, []float64{3, 1}, decode(out), "2.9 becomes int32 2 first, as in MXNet")
	u := fromValues(t, ndarray.Uint8, []float64{10, 200})
	uo := empty(t, ndarray.Uint8, 2)
	require.NoError(t, elemwise.BinaryScalar(elemwise.Add, uo, u, intScalar(-1), false))
	assert.Equal(t, []float64{9, 199}, decode(uo), "-1 wraps to 255; uint8 addition wraps")
	require.NoError(t, elemwise.BinaryScalar(elemwise.Mul, uo, u, intScalar(2), false))
	assert.Equal(t, []float64{20, 144}, decode(uo))
}

func TestComplexArithmetic(t *testing.T) {
	checkLeaks(t)
	a, b, out := empty(t, ndarray.Complex64, 2), empty(t, ndarray.Complex64, 2), empty(t, ndarray.Complex64, 2)
	rawSet(a, []complex64{1 + 2i, 4})
	rawSet(b, []complex64{3 - 1i, 2i})
	require.NoError(t, elemwise.Binary(elemwise.Mul, out, a, b))
	assert.Equal(t, []complex64{5 + 5i, 8i}, rawValues[complex64](out))
	require.NoError(t, elemwise.Binary(elemwise.Div, out, a, b))
	assert.Equal(t, []complex64{0.1 + 0.7i, -2i}, rawValues[complex64](out))
	require.NoError(t, elemwise.BinaryScalar(elemwise.Sub, out, a, ops.Scalar{Value: 1i}, true))
	assert.Equal(t, []complex64{-1 - 1i, -4 + 1i}, rawValues[complex64](out))
}

func TestIntegerDivideByZero(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Int32, ndarray.Int64, ndarray.Uint8, ndarray.Uint64} {
		a := fromValues(t, dt, []float64{5, 0, 7})
		zero := fromValues(t, dt, []float64{0, 0, 0})
		out := empty(t, dt, 3)
		require.NoError(t, elemwise.Binary(elemwise.Div, out, a, zero))
		assert.Equal(t, []float64{0, 0, 0}, decode(out), "%s a/0", dt)
		require.NoError(t, elemwise.BinaryScalar(elemwise.Div, out, a, intScalar(0), false))
		assert.Equal(t, []float64{0, 0, 0}, decode(out), "%s a/0 scalar", dt)
		require.NoError(t, elemwise.BinaryScalar(elemwise.Div, out, zero, intScalar(9), true))
		assert.Equal(t, []float64{0, 0, 0}, decode(out), "%s 9/a", dt)
	}
	// Floats follow IEEE.
	f := fromValues(t, ndarray.Float32, []float64{1, -1, 0})
	fo := empty(t, ndarray.Float32, 3)
	require.NoError(t, elemwise.BinaryScalar(elemwise.Div, fo, f, floatScalar(0), false))
	got := decode(fo)
	assert.Equal(t, []float64{math.Inf(1), math.Inf(-1)}, got[:2])
	assert.True(t, math.IsNaN(got[2]))
	// The most negative integer divided by -1 wraps (no panic).
	m := fromValues(t, ndarray.Int64, []float64{math.MinInt64})
	mo := empty(t, ndarray.Int64, 1)
	require.NoError(t, elemwise.BinaryScalar(elemwise.Div, mo, m, intScalar(-1), false))
	assert.Equal(t, []int64{math.MinInt64}, rawValues[int64](mo))
}

func TestBinaryInPlace(t *testing.T) {
	checkLeaks(t)
	for _, dt := range arithDTypes {
		a, b := fromValues(t, dt, arithX), fromValues(t, dt, arithY)
		require.NoError(t, elemwise.Binary(elemwise.Sub, a, a, b)) // a -= b
		assert.Equal(t, refBinaryAll(elemwise.Sub, arithX, arithY, false), decode(a), "%s a -= b", dt)
		require.NoError(t, elemwise.Binary(elemwise.Add, b, a, b)) // b = a + b
		assert.Equal(t, arithX, decode(b), "%s b = a + b", dt)
		require.NoError(t, elemwise.Binary(elemwise.Mul, b, b, b)) // b *= b
		assert.Equal(t, refBinaryAll(elemwise.Mul, arithX, arithX, false), decode(b), "%s b *= b", dt)
		require.NoError(t, elemwise.BinaryScalar(elemwise.Add, b, b, intScalar(1), true))
		assert.Equal(t, refBinaryAll(elemwise.Add, refBinaryAll(elemwise.Mul, arithX, arithX, false), []float64{1, 1, 1, 1, 1}, false), decode(b))
	}
}

// Overlapping operands must give what a copy-first evaluation gives.
func TestBinaryOverlapping(t *testing.T) {
	checkLeaks(t)
	const n = 9
	cases := []struct {
		name      string
		out, a, b []ndarray.KeyItem // keys into one array x of length n
	}{
		{"x[1:] = x[:-1] + x[:-1]", []ndarray.KeyItem{S(1, nil, nil)}, []ndarray.KeyItem{S(nil, -1, nil)}, []ndarray.KeyItem{S(nil, -1, nil)}},
		{"x[:-1] = x[1:] * x[:-1]", []ndarray.KeyItem{S(nil, -1, nil)}, []ndarray.KeyItem{S(1, nil, nil)}, []ndarray.KeyItem{S(nil, -1, nil)}},
		{"x[::-1] = x - x[::-1]", []ndarray.KeyItem{S(nil, nil, -1)}, []ndarray.KeyItem{all}, []ndarray.KeyItem{S(nil, nil, -1)}},
		{"x[2:] = x[:-2] / x[1:-1]", []ndarray.KeyItem{S(2, nil, nil)}, []ndarray.KeyItem{S(nil, -2, nil)}, []ndarray.KeyItem{S(1, -1, nil)}},
		{"x[::2] = x[:5] + x[4:]", []ndarray.KeyItem{S(nil, nil, 2)}, []ndarray.KeyItem{S(nil, 5, nil)}, []ndarray.KeyItem{S(4, nil, nil)}},
	}
	for _, dt := range []ndarray.DType{ndarray.Int64, ndarray.Float32, ndarray.Float16} {
		for _, c := range cases {
			for _, op := range binaryOps {
				x := fromValues(t, dt, shiftedSeq(n))
				out, a, b := index(t, x, c.out...), index(t, x, c.a...), index(t, x, c.b...)
				want := refBinaryAll(op.op, decode(a), decode(b), isIntegral(dt))
				// Reference: the whole of x afterwards, with out's positions replaced.
				wantX := shiftedSeq(n)
				for i, off := range viewOffsets(out) {
					wantX[off] = want[i]
				}
				require.NoError(t, elemwise.Binary(op.op, out, a, b))
				assert.Equal(t, roundTo(t, dt, wantX), decode(x), "%s %s %s", dt, c.name, op.name)
			}
			x := fromValues(t, dt, shiftedSeq(n))
			require.NoError(t, elemwise.BinaryScalar(elemwise.Sub, index(t, x, S(1, nil, nil)), index(t, x, S(nil, -1, nil)), intScalar(10), true))
			want := append([]float64{1}, refBinaryAll(elemwise.Sub, []float64{10, 10, 10, 10, 10, 10, 10, 10}, shiftedSeq(n)[:n-1], false)...)
			assert.Equal(t, want, decode(x), "%s x[1:] = 10 - x[:-1]", dt)
		}
	}
}

// shiftedSeq is 1..n (no zero, so that divisions are defined).
func shiftedSeq(n int) []float64 {
	out := seq(n)
	for i := range out {
		out[i]++
	}
	return out
}

// roundTo returns vals as stored in dt (through the array itself).
func roundTo(t *testing.T, dt ndarray.DType, vals []float64) []float64 {
	return decode(fromValues(t, dt, vals))
}

func TestBinaryStrided(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Float64, ndarray.Float16, ndarray.Complex64} {
		x := arange(t, dt, 4, 6)
		y := arange(t, dt, 6, 4)
		z := empty(t, dt, 4, 3, 2)
		require.NoError(t, ops.Fill(z, intScalar(-1)))
		a := index(t, x, S(nil, nil, -1), S(1, nil, 2))   // (4, 3), strides (-6, 2)
		b := index(t, y, S(nil, nil, 2), S(nil, nil, -1)) // (3, 4) -> transposed below
		bt := transpose2(t, b)                            // (4, 3), strides (-1, 8)
		out := index(t, z, ellipsis, I(1))                // (4, 3), strides (6, 2)
		for _, op := range binaryOps {
			require.NoError(t, elemwise.Binary(op.op, out, a, bt))
			want := refBinaryAll(op.op, decode(a), decode(bt), isIntegral(dt))
			if op.op == elemwise.Div && !isIntegral(dt) {
				want = roundTo(t, dt, want)
			}
			assert.Equal(t, want, decode(out), "%s %s", dt, op.name)
		}
		assert.Equal(t, []float64{-1, -1, -1, -1}, decode(index(t, z, S(nil, nil, 1), I(0), I(0))), "z[..., 0] untouched")
	}
}

// transpose2 returns the transpose of a 2-d array as a view over the same storage.
func transpose2(t *testing.T, a *ndarray.NDArray) *ndarray.NDArray {
	v, err := ndarray.View(a.Storage(), a.DType(), []int{a.Shape()[1], a.Shape()[0]},
		[]int{a.Strides()[1], a.Strides()[0]}, a.Offset(), a.Writable())
	require.NoError(t, err)
	t.Cleanup(v.Release)
	return v
}

func TestBinaryErrors(t *testing.T) {
	checkLeaks(t)
	f32, f64 := empty(t, ndarray.Float32, 3), empty(t, ndarray.Float64, 3)
	f32b, f32long := empty(t, ndarray.Float32, 3), empty(t, ndarray.Float32, 4)
	bools := empty(t, ndarray.Bool, 3)
	cases := []struct {
		name     string
		err      error
		kind     mxerr.Kind
		fragment string
	}{
		{"a,b dtype", elemwise.Binary(elemwise.Add, f32, f32b, f64), mxerr.Type, "dtype mismatch"},
		{"out dtype", elemwise.Binary(elemwise.Add, f64, f32, f32b), mxerr.Type, "out has dtype"},
		{"b shape", elemwise.Binary(elemwise.Add, f32, f32b, f32long), mxerr.Value, "could not be broadcast"},
		{"out shape", elemwise.Binary(elemwise.Add, f32long, f32, f32b), mxerr.Value, "out has shape"},
		{"bool", elemwise.Binary(elemwise.Add, bools, bools, bools), mxerr.Type, "bool"},
		{"bool scalar", elemwise.BinaryScalar(elemwise.Mul, bools, bools, intScalar(1), false), mxerr.Type, "bool"},
		{"scalar out dtype", elemwise.BinaryScalar(elemwise.Add, f64, f32, intScalar(1), false), mxerr.Type, "out has dtype"},
		{"scalar out shape", elemwise.BinaryScalar(elemwise.Add, f32long, f32, intScalar(1), false), mxerr.Value, "out has shape"},
	}
	for _, c := range cases {
		requireKind(t, c.err, c.kind, c.fragment)
	}
}
