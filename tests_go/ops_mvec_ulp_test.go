package mxgotest

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
)

// The float32 transcendental functions that go to glibc's libmvec (internal/simd's
// mvec.c) against float64 references: the error in ulps of the float32 result over a
// dense sample of every float32 bit pattern (every 2039th, both signs: normals,
// subnormals, huge arguments) plus the special values, which must come out as C99 and
// Go have them (NaN for NaN, the exact infinities and signed zeros).

// mvecULP are the bounds, in float32 ulps of the true value, that the test holds
// each function to: the maxima measured on glibc 2.36 (AVX-512) over every 251st bit
// pattern, rounded up (glibc documents 4 for all of libmvec's float functions).
var mvecULP = map[simd.MvecFn]struct {
	name  string
	f     func(float64) float64
	bound float64
}{
	simd.MvLog:   {"log", math.Log, 4},
	simd.MvSin:   {"sin", math.Sin, 2},
	simd.MvCos:   {"cos", math.Cos, 2},
	simd.MvLog2:  {"log2", math.Log2, 2},
	simd.MvLog10: {"log10", math.Log10, 3},
	simd.MvLog1p: {"log1p", math.Log1p, 2},
	simd.MvExpm1: {"expm1", math.Expm1, 3},
	simd.MvTan:   {"tan", math.Tan, 4},
}

// ulpErr is |got - want| in ulps of float32 at want (float32's spacing there, that of
// the smallest subnormal below 2**-126); 0 when both are the same NaN-ness, infinity
// or zero, +Inf when they differ in kind.
func ulpErr(got float32, want float64) float64 {
	g := float64(got)
	switch {
	case g != g || want != want:
		if g != g && want != want {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(want, 0) || math.IsInf(g, 0) || want == 0 || g == 0:
		if g == want && math.Signbit(g) == math.Signbit(want) {
			return 0
		}
		if math.IsInf(want, 0) && math.Abs(g) == math.MaxFloat32 || math.IsInf(g, 0) && math.Abs(want) > math.MaxFloat32 {
			return 1 // rounds to the largest finite value or overflows: one step either way
		}
		if want == 0 || g == 0 {
			return math.Abs(g-want) / 0x1p-149
		}
		return math.Inf(1)
	}
	e := max(math.Ilogb(want), -126)
	return math.Abs(g-want) / math.Ldexp(1, e-23)
}

// mvecSample is every 2039th float32 bit pattern of both signs and the special values.
func mvecSample() []float32 {
	xs := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0xffc00000), math.Float32frombits(1), math.Float32frombits(0x807fffff), 1, -1,
		math.MaxFloat32, -math.MaxFloat32, 0x1p-126}
	for b := uint32(0); b < 0x7f800000; b += 2039 {
		xs = append(xs, math.Float32frombits(b), math.Float32frombits(b|1<<31))
	}
	return xs
}

// libmvecLoads turns the libmvec kernels on and reports whether they load. Where libmvec
// and AVX2 are both present they must (the test fails otherwise); elsewhere the Go
// kernels run, and libmvec's entry points must decline every call.
func libmvecLoads(t *testing.T) bool {
	t.Helper()
	loads := simd.SetMvec(true)
	_, err := os.Stat("/lib/x86_64-linux-gnu/libmvec.so.1")
	require.False(t, err == nil && cpuHas("avx2") && !loads, "libmvec and AVX2 are here, yet the libmvec kernels are off")
	if !loads {
		xs := []float32{1, 2}
		require.False(t, simd.Mvec(simd.MvLog, make([]float32, 2), xs))
		require.False(t, simd.MvecPow(make([]float32, 2), xs, xs))
		was := simd.SetPow512(false)
		require.False(t, simd.Pow32(make([]float32, 2), xs, xs))
		simd.SetPow512(was)
	}
	return loads
}

// mvecWidths runs f with libmvec's AVX-512 functions, where the CPU has them, and with
// its AVX2 ones.
func mvecWidths(t *testing.T, f func(wide bool)) {
	wide := simd.SetMvecWide(true)
	defer simd.SetMvecWide(wide)
	if wide {
		f(true)
	}
	simd.SetMvecWide(false)
	f(false)
}

func TestMvecULPBounds(t *testing.T) {
	if !libmvecLoads(t) {
		return
	}
	xs := mvecSample()
	got := make([]float32, len(xs))
	mvecWidths(t, func(wide bool) {
		for fn, c := range mvecULP {
			require.True(t, simd.Mvec(fn, got, xs))
			worst, at := 0.0, float32(0)
			for i, x := range xs {
				if e := ulpErr(got[i], c.f(float64(x))); e > worst {
					worst, at = e, x
				}
			}
			t.Logf("%s (AVX-512 %v): at most %.2f ulp (at %g)", c.name, wide, worst, at)
			require.LessOrEqual(t, worst, c.bound, "%s(%g) = %g", c.name, at, c.f(float64(at)))
		}
	})
}

// TestMvecPowULPBound: powf (at most 1 ulp) over bases of every 65521st bit pattern and of
// both signs against exponents that are integers (odd and even, negative), halves and
// arbitrary values, plus C99's special cases: the AVX-512 kernel where the CPU runs it,
// and libmvec's.
func TestMvecPowULPBound(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	var xs, ys []float32
	for _, y := range []float32{0, 1, 2, 3, -1, -2, -3, 0.5, -0.5, 1.5, 7.25, -13.7, 100, 1e-3, 0.333} {
		for b := uint32(0); b < 0x7f800000; b += 65521 {
			x := math.Float32frombits(b)
			xs, ys = append(xs, x, -x), append(ys, y, y)
		}
	}
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 3, -3, 0.5, -0.5, inf, -inf, nan}
	for _, x := range special {
		for _, y := range special {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	powKernels(t, func(kernel string) {
		got := make([]float32, len(xs))
		require.True(t, simd.Pow32(got, xs, ys))
		worst, at := 0.0, 0
		for i := range xs {
			if e := ulpErr(got[i], math.Pow(float64(xs[i]), float64(ys[i]))); e > worst {
				worst, at = e, i
			}
		}
		t.Logf("pow (%s): at most %.2f ulp (pow(%g, %g))", kernel, worst, xs[at], ys[at])
		require.LessOrEqual(t, worst, 1.0, "pow(%g, %g) = %g", xs[at], ys[at], got[at])
	})
}

// powKernels runs f with each float32 power kernel this machine has: the AVX-512 one
// (which must run where the CPU has AVX-512F) and libmvec's 8 lanes (where it loads).
func powKernels(t *testing.T, f func(kernel string)) {
	t.Helper()
	wide := simd.SetPow512(true)
	defer simd.SetPow512(wide)
	require.Equal(t, cpuHas("avx512f"), wide, "the AVX-512 power kernel runs where the CPU has AVX-512F")
	if wide {
		f("AVX-512")
	}
	simd.SetPow512(false)
	if libmvecLoads(t) {
		f("libmvec")
	}
}
