package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// decode reads a's elements in C order straight from memory as float64, with decoders
// written here (not the package's), so that cast results are checked independently.
func decode(a *ndarray.NDArray) []float64 {
	switch a.DType() {
	case ndarray.Bool, ndarray.Uint8:
		return conv(rawValues[uint8](a))
	case ndarray.Int8:
		return conv(rawValues[int8](a))
	case ndarray.Int16:
		return conv(rawValues[int16](a))
	case ndarray.Int32:
		return conv(rawValues[int32](a))
	case ndarray.Int64:
		return conv(rawValues[int64](a))
	case ndarray.Uint16:
		return conv(rawValues[uint16](a))
	case ndarray.Uint32:
		return conv(rawValues[uint32](a))
	case ndarray.Uint64:
		return conv(rawValues[uint64](a))
	case ndarray.Float32:
		return conv(rawValues[float32](a))
	case ndarray.Float64:
		return rawValues[float64](a)
	case ndarray.Complex64:
		return realParts(rawValues[complex64](a))
	case ndarray.Complex128:
		return realParts(rawValues[complex128](a))
	case ndarray.Float16:
		return mapHalf(rawValues[uint16](a), refF16)
	default:
		return mapHalf(rawValues[uint16](a), func(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) })
	}
}

func conv[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func realParts[T complex64 | complex128](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = real(complex128(x))
	}
	return out
}

func mapHalf(xs []uint16, f func(uint16) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// refF16 decodes IEEE binary16 from its definition.
func refF16(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10)&0x1f, float64(h&0x3ff)
	switch {
	case e == 0x1f && m == 0:
		return math.Inf(int(sign))
	case e == 0x1f:
		return math.NaN()
	case e == 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}

// Small values every dtype holds exactly.
var smallValues = []float64{0, 1, 2, 3, 5, 100}

func TestCopyAllDTypePairs(t *testing.T) {
	checkLeaks(t)
	for _, from := range ndarray.DTypes() {
		src := fromValues(t, from, smallValues)
		srcVals := decode(src)
		for _, to := range ndarray.DTypes() {
			dst := empty(t, to, len(smallValues))
			require.NoError(t, ops.Copy(dst, src), "%s -> %s", from, to)
			want := make([]float64, len(srcVals))
			for i, v := range srcVals {
				want[i] = v
				if to == ndarray.Bool && v != 0 {
					want[i] = 1
				}
			}
			assert.Equal(t, want, decode(dst), "%s -> %s", from, to)
		}
	}
}

func TestCopyCastEdgeCases(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		name     string
		from, to ndarray.DType
		in, want []float64
	}{
		{"float to int truncates", ndarray.Float64, ndarray.Int32, []float64{2.7, -2.7, 0.5, -0.5}, []float64{2, -2, 0, 0}},
		{"float32 to int8", ndarray.Float32, ndarray.Int8, []float64{127.9, -128.9}, []float64{127, -128}},
		{"float to uint wraps", ndarray.Float64, ndarray.Uint8, []float64{-1, 255.5}, []float64{255, 255}},
		{"int to float", ndarray.Int64, ndarray.Float32, []float64{-7, 1 << 24}, []float64{-7, 1 << 24}},
		{"negative to uint8", ndarray.Int32, ndarray.Uint8, []float64{-1, -2, 300}, []float64{255, 254, 44}},
		{"negative to uint16", ndarray.Int8, ndarray.Uint16, []float64{-1}, []float64{65535}},
		{"negative to uint32", ndarray.Int16, ndarray.Uint32, []float64{-1}, []float64{4294967295}},
		{"negative to uint64", ndarray.Int64, ndarray.Uint64, []float64{-1}, []float64{math.MaxUint64}},
		{"narrowing wraps", ndarray.Int64, ndarray.Int8, []float64{-129, 128, 256}, []float64{127, -128, 0}},
		{"int to bool is nonzero", ndarray.Int16, ndarray.Bool, []float64{256, -1, 0}, []float64{1, 1, 0}},
		{"float to bool", ndarray.Float64, ndarray.Bool, []float64{0.25, math.NaN(), 0, math.Copysign(0, -1)}, []float64{1, 1, 0, 0}},
		{"bool to float", ndarray.Bool, ndarray.Float16, []float64{7, 0}, []float64{1, 0}},
		{"float16 to int", ndarray.Float16, ndarray.Int32, []float64{-3.5, 65504}, []float64{-3, 65504}},
		{"bfloat16 to uint8", ndarray.Bfloat16, ndarray.Uint8, []float64{3.5, 200}, []float64{3, 200}},
		{"complex to float keeps real", ndarray.Complex128, ndarray.Float32, []float64{1.5, -2}, []float64{1.5, -2}},
		{"float16 to bfloat16", ndarray.Float16, ndarray.Bfloat16, []float64{1, -2.5, 65504}, []float64{1, -2.5, 65536}},
	}
	for _, c := range cases {
		src := fromValues(t, c.from, c.in)
		dst := empty(t, c.to, len(c.in))
		require.NoError(t, ops.Copy(dst, src), c.name)
		assert.Equal(t, c.want, decode(dst), c.name)
	}
}

func TestCopyUint64Extremes(t *testing.T) {
	checkLeaks(t)
	u := empty(t, ndarray.Uint64, 2)
	rawSet(u, []uint64{math.MaxUint64, 1 << 63})
	f := empty(t, ndarray.Float64, 2)
	require.NoError(t, ops.Copy(f, u))
	assert.Equal(t, []float64{math.MaxUint64, 1 << 63}, rawValues[float64](f), "uint64 converts by value")
	i := empty(t, ndarray.Int64, 2)
	require.NoError(t, ops.Copy(i, u))
	assert.Equal(t, []int64{-1, math.MinInt64}, rawValues[int64](i), "uint64 to int64 keeps the bits")
}

func TestComplexCopy(t *testing.T) {
	checkLeaks(t)
	c := empty(t, ndarray.Complex128, 3)
	rawSet(c, []complex128{1 + 2i, -3.5, 1i})
	c64 := empty(t, ndarray.Complex64, 3)
	require.NoError(t, ops.Copy(c64, c))
	assert.Equal(t, []complex64{1 + 2i, -3.5, 1i}, rawValues[complex64](c64))
	b := empty(t, ndarray.Bool, 3)
	require.NoError(t, ops.Copy(b, c))
	assert.Equal(t, []uint8{1, 1, 1}, rawValues[uint8](b), "a purely imaginary value is true")
	f := fromValues(t, ndarray.Float32, []float64{2, -1, 0})
	require.NoError(t, ops.Copy(c, f))
	assert.Equal(t, []complex128{2, -1, 0}, rawValues[complex128](c))
}

func TestHalfRoundTrips(t *testing.T) {
	checkLeaks(t)
	nan := math.NaN()
	cases := []struct {
		dt   ndarray.DType
		in   []float64
		bits []uint16 // expected encodings of in
		want []float64
	}{
		{
			ndarray.Float16,
			[]float64{0, math.Copysign(0, -1), 1, -2.5, 65504, 0x1p-24, 1023 * 0x1p-24, 0x1p-14, math.Inf(1), math.Inf(-1), nan},
			[]uint16{0x0000, 0x8000, 0x3c00, 0xc100, 0x7bff, 0x0001, 0x03ff, 0x0400, 0x7c00, 0xfc00},
			nil, // exact
		},
		{
			ndarray.Float16, // rounding: overflow, ties to even, underflow
			[]float64{65520, 65519, 2049, 2051, 0x1p-25, 0x1.8p-25, 0x1p-26, 1e-10, -1e6},
			nil,
			[]float64{math.Inf(1), 65504, 2048, 2052, 0, 0x1p-24, 0, 0, math.Inf(-1)},
		},
		{
			ndarray.Bfloat16,
			[]float64{0, 1, -2.5, 65536, 0x1p-133, 0x1.fep127, math.Inf(1), math.Inf(-1), nan},
			[]uint16{0x0000, 0x3f80, 0xc020, 0x4780, 0x0001, 0x7f7f, 0x7f80, 0xff80},
			nil,
		},
		{
			ndarray.Bfloat16,
			[]float64{65504, 1 + 0x1p-8, 1 + 0x3p-8, 0x1.ffp127, 3.0e38 * 10},
			nil,
			[]float64{65536, 1, 1 + 0x1p-6, math.Inf(1), math.Inf(1)},
		},
	}
	for _, c := range cases {
		h := fromValues(t, c.dt, c.in)
		for i, b := range c.bits {
			assert.Equal(t, b, rawValues[uint16](h)[i], "%s encoding of %g", c.dt, c.in[i])
		}
		want := c.want
		if want == nil {
			want = c.in
		}
		got := values(t, h)
		for i := range want {
			if math.IsNaN(want[i]) {
				assert.True(t, math.IsNaN(got[i]), "%s nan stays nan", c.dt)
				assert.True(t, math.IsNaN(decode(h)[i]))
				continue
			}
			assert.Equal(t, want[i], got[i], "%s(%g)", c.dt, c.in[i])
			assert.Equal(t, math.Signbit(want[i]), math.Signbit(got[i]), "%s(%g) sign", c.dt, c.in[i])
			assert.Equal(t, want[i], decode(h)[i], "%s(%g) raw", c.dt, c.in[i])
		}
	}
}

// Every float16 encoding survives float16 -> float32 -> float16 (NaNs stay NaN).
func TestFloat16AllEncodings(t *testing.T) {
	checkLeaks(t)
	h := empty(t, ndarray.Float16, 1<<16)
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	rawSet(h, all)
	f := empty(t, ndarray.Float32, 1<<16)
	require.NoError(t, ops.Copy(f, h))
	back := empty(t, ndarray.Float16, 1<<16)
	require.NoError(t, ops.Copy(back, f))
	fs, bs := rawValues[float32](f), rawValues[uint16](back)
	for i := range all {
		want := refF16(uint16(i))
		if math.IsNaN(want) {
			require.True(t, math.IsNaN(float64(fs[i])), "%#04x", i)
			require.True(t, math.IsNaN(refF16(bs[i])), "%#04x", i)
			continue
		}
		require.Equal(t, want, float64(fs[i]), "%#04x", i)
		require.Equal(t, uint16(i), bs[i], "%#04x", i)
	}
}

func TestCopyErrors(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Float32, 2, 3)
	requireKind(t, ops.Copy(empty(t, ndarray.Float64, 3, 2), a), mxerr.Value, "shape mismatch")
	requireKind(t, ops.Copy(empty(t, ndarray.Float32, 6), a), mxerr.Value, "shape mismatch")
	requireKind(t, ndarray.CopyInto(empty(t, ndarray.Int32, 2, 3), a), mxerr.Type, "needs a cast")
	requireKind(t, ndarray.SameShape([]int{1}, []int{1, 1}), mxerr.Value)
}

func TestCopyOverlapping(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Float64} {
		x := arange(t, dt, 8)
		require.NoError(t, ops.Copy(index(t, x, S(1, nil, nil)), index(t, x, S(nil, -1, nil))))
		assert.Equal(t, []float64{0, 0, 1, 2, 3, 4, 5, 6}, decode(x), "x[1:] = x[:-1]")
		y := arange(t, dt, 8)
		require.NoError(t, ops.Copy(y, index(t, y, S(nil, nil, -1))))
		assert.Equal(t, []float64{7, 6, 5, 4, 3, 2, 1, 0}, decode(y), "y[:] = y[::-1]")
	}
	// A cast between overlapping views of different dtypes over one storage.
	s, err := ndarray.NewHostStorage(16)
	require.NoError(t, err)
	src, err := ndarray.Adopt(s, ndarray.Int32, []int{3}, []int{1}, 0, true)
	require.NoError(t, err)
	t.Cleanup(src.Release)
	rawSet(src, []int32{1, 2, 3})
	dst, err := ndarray.View(s, ndarray.Int16, []int{3}, []int{1}, 1, true) // bytes 2..7
	require.NoError(t, err)
	t.Cleanup(dst.Release)
	require.NoError(t, ops.Copy(dst, src))
	assert.Equal(t, []int16{1, 2, 3}, rawValues[int16](dst))
}
