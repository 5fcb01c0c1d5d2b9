package mxgotest

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The float32 erfinv, gammaln and gamma kernels of internal/simd's special32_avx2.c
// against Go's float64 functions: at most specialULP ulp of float32 (the Go loops they
// replace are within 1: float64 rounded once) over every 2039th bit pattern of both
// signs, every float32 of [-1, 1] spaced 1021 patterns apart, the 4096 floats either
// side of lgamma's roots 1 and 2 and of the poles 0, -1, -2, -7, -33, with the Go
// kernels' NaN, ±inf and ±0 exactly; and through the operators, the C and Go paths
// (simd.SetSpecial32(false)) agree to the same bound on every row length around the
// 4- and 16-lane loops and the 32-element minimum, and on misaligned rows (Go's).
// erfinv runs both its AVX-512 form, where the CPU has AVX-512F, and its AVX2 one.

// specialULP is the bound the test holds all three to; measured maxima: erfinv 0.501 (0.593
// in AVX-512), gammaln 1.067 next to 2 (1.289 next to 1 in AVX-512), gamma 1.000 (see the
// test log).
const specialULP = 2

var specialRefs = []struct {
	op   simd.SpecialOp
	name string
	f    func(float64) float64
}{
	{simd.Erfinv, "erfinv", math.Erfinv},
	{simd.Lgamma, "gammaln", func(x float64) float64 {
		if math.IsInf(x, -1) {
			return math.Inf(1) // (Go's Lgamma(-inf) is -inf; C's and MXNet's +inf)
		}
		y, _ := math.Lgamma(x)
		return y
	}},
	{simd.Gamma, "gamma", math.Gamma},
}

// specialSample is mvecSample plus the dense sweeps the functions need.
func specialSample() []float32 {
	xs := mvecSample()
	for b := uint32(0); b <= 0x3f800000; b += 1021 {
		xs = append(xs, math.Float32frombits(b), -math.Float32frombits(b))
	}
	for _, c := range []float32{1, 2, 0, -1, -2, -7, -33} {
		up, down := c, c
		for range 4096 {
			up, down = math.Nextafter32(up, 100), math.Nextafter32(down, -100)
			xs = append(xs, up, down)
		}
	}
	return xs
}

func specialOn(t *testing.T) bool {
	t.Helper()
	on := simd.SetSpecial32(true)
	require.False(t, cpuHas("avx2", "fma") && !on, "AVX2 and FMA are here, yet the special32 kernels are off")
	return on
}

func TestSpecial32ULPBounds(t *testing.T) {
	if !specialOn(t) {
		require.False(t, simd.Special32(simd.Erfinv, make([]float32, 64), make([]float32, 64)))
		return
	}
	xs := specialSample()
	got := make([]float32, len(xs))
	specialWidths(t, func(wide string) {
		for _, c := range specialRefs {
			require.True(t, simd.Special32(c.op, got, xs))
			worst, at := 0.0, float32(0)
			for i, x := range xs {
				want := c.f(float64(x))
				if want != want || math.IsInf(want, 0) || want == 0 { // exactly Go's (NaN: any NaN)
					g := float64(got[i])
					if same := g != g && want != want || math.Float64bits(g) == math.Float64bits(want); !same {
						require.Failf(t, "special value", "%s (%s)(%g) = %g, want %g", c.name, wide, x, g, want)
					}
					continue
				}
				if e := ulpErr(got[i], want); e > worst {
					worst, at = e, x
				}
			}
			t.Logf("%s (%s): at most %.3f ulp (at %g)", c.name, wide, worst, at)
			require.LessOrEqual(t, worst, float64(specialULP), "%s (%s)(%g) = %g", c.name, wide, at, c.f(float64(at)))
		}
	})
}

// specialWidths runs f with the AVX-512 forms, which must run where the CPU has
// AVX-512F, and with the AVX2 ones.
func specialWidths(t *testing.T, f func(wide string)) {
	t.Helper()
	wide := simd.SetSpecial512(true)
	defer simd.SetSpecial512(wide)
	require.Equal(t, cpuHas("avx512f", "avx2", "fma"), wide, "the AVX-512 erfinv runs where the CPU has AVX-512F")
	if wide {
		f("AVX-512")
	}
	simd.SetSpecial512(false)
	f("AVX2")
}

// TestSpecial32RowsMatchGo runs the operators on rows of every length around the
// kernels' loops, aligned and misaligned (by 1 byte: left to Go), with the C kernels on
// and off, over values the functions treat apart and ordinary ones.
func TestSpecial32RowsMatchGo(t *testing.T) {
	checkLeaks(t)
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, -0.5,
		0.9999999, -0.3, 1e-40, -1e-40, 3.7, -3.7, 35.5, -40.25, 1e30, 7, 0.25}
	for _, n := range []int{1, 3, 4, 5, 31, 32, 33, 35, 36, 37, 47, 48, 49, 100} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = vals[(i*7+n)%len(vals)]
		}
		for _, c := range specialRefs {
			in := fromValues(t, ndarray.Float32, xs)
			was := simd.SetSpecial32(false)
			goOut := values(t, ewInvoke(t, c.name, nil, in))
			simd.SetSpecial32(was)
			specialWidths(t, func(wide string) {
				cOut := values(t, ewInvoke(t, c.name, nil, in))
				for i, x := range xs {
					require.LessOrEqual(t, ulpErr(float32(cOut[i]), goOut[i]), float64(specialULP), "%s (%s)(%g), n %d", c.name, wide, x, n)
				}
			})
		}
	}
	// misaligned rows: Special32 declines them
	buf := make([]float32, 80)
	odd := unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(&buf[0]), 1)), 64)
	require.False(t, simd.Special32(simd.Gamma, odd, odd))
}

// BenchmarkSpecial32 times the C kernels on one core over bench_math.py's data: erfinv
// on (-0.99, 0.99), gammaln and gamma on |3 N(0, 1)| + 0.5.
func BenchmarkSpecial32(b *testing.B) {
	const n = 1 << 16
	unit, pos, out := make([]float32, n), make([]float32, n), make([]float32, n)
	r := uint32(1)
	for i := range unit {
		r = r*1664525 + 1013904223
		u := float64(r>>8) / (1 << 24)
		unit[i] = float32(1.98*u - 0.99)
		pos[i] = float32(math.Abs(3*math.Sqrt(-2*math.Log(1-u))*math.Cos(float64(i))) + 0.5)
	}
	for _, c := range specialRefs {
		xs := pos
		if c.op == simd.Erfinv {
			xs = unit
		}
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if !simd.Special32(c.op, out, xs) {
					b.Skip("no AVX2 and FMA")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
		})
	}
}
