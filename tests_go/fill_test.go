package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/random"
)

func TestFill(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		dt   ndarray.DType
		s    ops.Scalar
		want float64
	}{
		{ndarray.Bool, intScalar(2), 1},
		{ndarray.Bool, floatScalar(0), 0},
		{ndarray.Int8, intScalar(300), 44},
		{ndarray.Int8, floatScalar(-2.9), -2},
		{ndarray.Uint8, intScalar(-1), 255},
		{ndarray.Int64, intScalar(math.MinInt64), math.MinInt64},
		{ndarray.Uint64, intScalar(-1), math.MaxUint64},
		{ndarray.Float16, floatScalar(-2.5), -2.5},
		{ndarray.Bfloat16, intScalar(3), 3},
		{ndarray.Float32, ops.Scalar{Value: 1.5 + 2i}, 1.5},
		{ndarray.Float64, intScalar(1 << 53), 1 << 53},
		{ndarray.Complex128, floatScalar(-0.25), -0.25},
	}
	for _, c := range cases {
		a := empty(t, c.dt, 3, 4)
		require.NoError(t, ops.Fill(a, c.s))
		for _, v := range decode(a) {
			require.Equal(t, c.want, v, "%s fill %+v", c.dt, c.s)
		}
	}
	c := empty(t, ndarray.Complex64, 2)
	require.NoError(t, ops.Fill(c, ops.Scalar{Value: 1 - 3i}))
	assert.Equal(t, []complex64{1 - 3i, 1 - 3i}, rawValues[complex64](c))
}

func TestFillStridedView(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int16, 3, 4)
	require.NoError(t, ops.Fill(index(t, a, S(nil, nil, -2), S(1, nil, 2)), intScalar(-7)))
	// a[::-2, 1::2] is rows 2 and 0, columns 1 and 3.
	assert.Equal(t, []float64{0, -7, 2, -7, 4, 5, 6, 7, 8, -7, 10, -7}, decode(a))
	e := empty(t, ndarray.Float32, 0, 3)
	require.NoError(t, ops.Fill(e, floatScalar(1)), "filling an empty array is a no-op")
	z := index(t, arange(t, ndarray.Float64, 2), I(1))
	require.NoError(t, ops.Fill(z, floatScalar(9)))
	assert.Equal(t, []float64{9}, decode(z), "0-d fill")
}

func TestArange(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Float32, 2, 3)
	require.NoError(t, ops.Arange(a, 1, 0.5))
	assert.Equal(t, []float32{1, 1.5, 2, 2.5, 3, 3.5}, rawValues[float32](a))
	// On a view, the view's C order is used.
	b := empty(t, ndarray.Int32, 5)
	require.NoError(t, ops.Arange(index(t, b, S(nil, nil, -1)), 10, -2))
	assert.Equal(t, []int32{2, 4, 6, 8, 10}, rawValues[int32](b))
	c := empty(t, ndarray.Int64, 3, 4)
	require.NoError(t, ops.Fill(c, intScalar(0)))
	require.NoError(t, ops.Arange(transpose2(t, index(t, c, all, S(nil, nil, 2))), 1, 1))
	assert.Equal(t, []int64{1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, 0}, rawValues[int64](c))
	for _, dt := range ndarray.DTypes() {
		d := empty(t, dt, 4)
		require.NoError(t, ops.Arange(d, 0, 1), dt.String())
		want := []float64{0, 1, 2, 3}
		if dt == ndarray.Bool {
			want = []float64{0, 1, 1, 1}
		}
		assert.Equal(t, want, decode(d), dt.String())
	}
	r := a.ReadOnly()
	t.Cleanup(r.Release)
	requireKind(t, ops.Arange(r, 0, 1), mxerr.Value, "read-only")
}

func TestUniform(t *testing.T) {
	checkLeaks(t)
	const n = 200000
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Float16, ndarray.Bfloat16} {
		a := empty(t, dt, n)
		require.NoError(t, random.Uniform(a, -2, 3))
		vals := decode(a)
		hi := 3.0
		half := dt == ndarray.Float16 || dt == ndarray.Bfloat16
		for _, v := range vals {
			// Rounding to 16 bits may reach the upper bound itself.
			require.True(t, v >= -2 && (v < hi || half && v == hi), "%s sample %g", dt, v)
		}
		mean, std := meanStd(vals)
		assert.InDelta(t, 0.5, mean, 0.05, dt.String())
		assert.InDelta(t, 5/math.Sqrt(12), std, 0.05, dt.String())
	}
	degenerate := empty(t, ndarray.Float64, 10)
	require.NoError(t, random.Uniform(degenerate, 4, 4))
	for _, v := range decode(degenerate) {
		assert.Equal(t, 4.0, v)
	}
}

func TestNormal(t *testing.T) {
	checkLeaks(t)
	const n = 200000
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		a := empty(t, dt, 400, n/400)
		v := index(t, a, S(nil, nil, -1), S(nil, nil, 2)) // a strided view: half the samples
		require.NoError(t, ops.Fill(a, floatScalar(math.NaN())))
		require.NoError(t, random.Normal(v, 1, 2))
		mean, std := meanStd(decode(v))
		assert.InDelta(t, 1, mean, 0.05, dt.String())
		assert.InDelta(t, 2, std, 0.05, dt.String())
		assert.True(t, math.IsNaN(decode(index(t, a, I(0), I(1)))[0]), "elements outside the view untouched")
	}
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

func TestSeedReproducible(t *testing.T) {
	checkLeaks(t)
	sample := func(seed uint64) []float64 {
		ops.Seed(seed)
		a := empty(t, ndarray.Float64, 64)
		require.NoError(t, random.Uniform(a, 0, 1))
		b := empty(t, ndarray.Float32, 64)
		require.NoError(t, random.Normal(b, 0, 1))
		return append(decode(a), decode(b)...)
	}
	first := sample(42)
	assert.Equal(t, first, sample(42))
	assert.NotEqual(t, first, sample(43))
}

func TestRandomErrors(t *testing.T) {
	checkLeaks(t)
	f := empty(t, ndarray.Float32, 3)
	requireKind(t, random.Uniform(f, 1, 0), mxerr.Value, "high")
	requireKind(t, random.Normal(f, 0, -1), mxerr.Value, "scale")
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Uint8, ndarray.Bool, ndarray.Complex64} {
		requireKind(t, random.Uniform(empty(t, dt, 2), 0, 1), mxerr.Type, "floating-point")
	}
	r := f.ReadOnly()
	t.Cleanup(r.Release)
	requireKind(t, random.Normal(r, 0, 1), mxerr.Value, "read-only")
}
