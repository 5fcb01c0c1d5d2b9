package mxgotest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
)

// The float32 power kernels (the AVX-512 one, libmvec's) at their edges: the partial
// vector at a row's end, operands that are the destination, special lanes among
// ordinary ones, results that must be exact, and the overflow, subnormal and underflow
// boundaries. powf's reference is Go's float64 power rounded once.

func powRef(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }

// requirePow checks got against the reference lane by lane: within 1 ulp, and bit for
// bit where the reference is exact in float64 or special (NaN, infinite, zero).
func requirePow(t *testing.T, kernel string, xs, ys, got []float32) {
	t.Helper()
	for i := range xs {
		want := math.Pow(float64(xs[i]), float64(ys[i]))
		if float64(float32(want)) == want || want == 0 || math.IsInf(want, 0) || want != want {
			g, w := got[i], float32(want)
			require.True(t, g == w && math.Signbit(float64(g)) == math.Signbit(float64(w)) || g != g && w != w,
				"%s: pow(%g, %g) = %g, want %g exactly", kernel, xs[i], ys[i], g, w)
			continue
		}
		require.LessOrEqual(t, ulpErr(got[i], want), 1.0, "%s: pow(%g, %g) = %g, want %g", kernel, xs[i], ys[i], got[i], want)
	}
}

// TestPowRowEndsAndAliasing: every row length from 32 to 80 (so every partial last
// vector), with special lanes at random places, into a fresh row, into x and into y.
func TestPowRowEndsAndAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float32{0, float32(math.Copysign(0, -1)), -2, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 0x1p-140, -0x1p-140}
	powKernels(t, func(kernel string) {
		for n := simd.Unary32Min; n <= 80; n++ {
			xs, ys := make([]float32, n), make([]float32, n)
			for i := range xs {
				xs[i], ys[i] = float32(rng.Float64()*4), float32(rng.Float64()*8-4)
				switch rng.IntN(8) {
				case 0:
					xs[i] = special[rng.IntN(len(special))]
				case 1:
					ys[i] = special[rng.IntN(len(special))]
				case 2:
					ys[i] = float32(rng.IntN(9) - 4) // odd and even powers of the negative bases
				}
			}
			got := make([]float32, n)
			require.True(t, simd.Pow32(got, xs, ys))
			requirePow(t, kernel, xs, ys, got)
			intoX, intoY := append([]float32(nil), xs...), append([]float32(nil), ys...)
			require.True(t, simd.Pow32(intoX, intoX, ys))
			require.True(t, simd.Pow32(intoY, xs, intoY))
			for i := range got {
				require.Equal(t, math.Float32bits(got[i]), math.Float32bits(intoX[i]), "%s n=%d: dst = x, lane %d", kernel, n, i)
				require.Equal(t, math.Float32bits(got[i]), math.Float32bits(intoY[i]), "%s n=%d: dst = y, lane %d", kernel, n, i)
			}
		}
	})
}

// TestPowExactAndBoundaries: powers of two across the whole exponent range (into
// subnormals and past overflow), x^1 = x, x^0 = 1, 1^y = 1, exact squares, cubes and
// square roots, and bases near 1 raised to large powers, where the logarithm's error
// is multiplied most.
func TestPowExactAndBoundaries(t *testing.T) {
	var xs, ys []float32
	add := func(x, y float32) { xs, ys = append(xs, x), append(ys, y) }
	for k := -160; k <= 140; k++ {
		add(2, float32(k))
		add(0.5, float32(k))
		add(2, float32(k)+0.5)
		add(2, float32(k)-0.25)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 500 {
		x := float32(math.Ldexp(1+rng.Float64(), rng.IntN(250)-125))
		add(x, 1)
		add(x, 0)
		add(1, float32(rng.NormFloat64()*1e3))
		add(1+float32(rng.IntN(4096))*0x1p-23, float32(rng.Float64()*2e6-1e6))
		add(1-float32(rng.IntN(4096))*0x1p-24, float32(rng.Float64()*2e6-1e6))
	}
	for v := float32(1); v <= 200; v++ {
		add(v, 2)
		add(v, 3)
		add(v*v, 0.5)
	}
	powKernels(t, func(kernel string) {
		got := make([]float32, len(xs))
		require.True(t, simd.Pow32(got, xs, ys))
		requirePow(t, kernel, xs, ys, got)
	})
	require.Equal(t, float32(0x1p-149), powRef(2, -149), "the reference rounds to subnormals")
}
