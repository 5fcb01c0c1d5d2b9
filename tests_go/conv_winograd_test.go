package mxgotest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Winograd's F(2x2, 3x3) convolution (pkg/ops/nn's nn_conv_winograd.go, internal/simd's
// winograd.c) against a float64 reference of the direct sums: every output within
// winoTol of its sum of |w x| (plus |bias|), the error of a few float32 roundings of the
// terms, over planes of odd and even sides, paddings 0 to 2, channels that are not a
// multiple of the transform's 16 lanes, and batches whose tiles split into chunks in the
// middle of a tile row. It must run there (its bits differ from the direct path's), and
// must not where it does not apply or where data or weights hold an infinity or NaN.

// winoTol bounds |Winograd - exact| / (sum |w x| + |b|); measured at most 2.0e-7 (the
// direct paths' float32 sums reach about 6e-8).
const winoTol = 1e-6

// convRef64 is the direct convolution of x (n, c, h, w) by w (f, c, 3, 3), padding p, in
// float64, with each output's sum of |terms| beside it.
func convRef64(x, w, b []float64, n, c, h, wd, f, p int) (y, mag []float64) {
	oh, ow := h+2*p-2, wd+2*p-2
	y, mag = make([]float64, n*f*oh*ow), make([]float64, n*f*oh*ow)
	for i := range n {
		for o := range f {
			for oy := range oh {
				for ox := range ow {
					s, a := 0.0, 0.0
					if b != nil {
						s, a = b[o], math.Abs(b[o])
					}
					for ch := range c {
						for ky := range 3 {
							for kx := range 3 {
								iy, ix := oy+ky-p, ox+kx-p
								if iy < 0 || iy >= h || ix < 0 || ix >= wd {
									continue
								}
								t := w[((o*c+ch)*3+ky)*3+kx] * x[((i*c+ch)*h+iy)*wd+ix]
								s, a = s+t, a+math.Abs(t)
							}
						}
					}
					at := ((i*f+o)*oh+oy)*ow + ox
					y[at], mag[at] = s, a
				}
			}
		}
	}
	return y, mag
}

func TestConvWinogradMatchesDirectSums(t *testing.T) {
	checkLeaks(t)
	defer simd.SetWinograd(simd.SetWinograd(true))
	worst := 0.0
	for i, c := range []struct{ n, c, f, h, w, p int }{
		{1, 32, 32, 14, 14, 1}, // ResNet's shape, small
		{2, 40, 33, 9, 12, 1},  // channels past the 16 lanes, filters past GEMM tiles, odd height
		{1, 32, 48, 8, 8, 2},   // padding beyond the kernel's reach: out 10x10
		{3, 48, 32, 12, 11, 0}, // no padding, odd width
		{4, 32, 32, 20, 20, 1}, // 400 tiles: chunks split mid tile row
		{2, 33, 35, 16, 30, 1}, // wide rows
		{1, 64, 64, 4, 4, 1},   // one tile row of two tiles
		{2, 32, 32, 26, 26, 1}, // 169 tiles an image
		{1, 32, 32, 17, 17, 1}, // odd sides: 17x17 tiled as 18x18
	} {
		x, xv := nnRandom(t, ndarray.Float32, uint64(5*i+1), c.n, c.c, c.h, c.w)
		w, wv := nnRandom(t, ndarray.Float32, uint64(5*i+2), c.f, c.c, 3, 3)
		b, bv := nnRandom(t, ndarray.Float32, uint64(5*i+3), c.f)
		attrs := fmt.Sprintf("kernel=3,3;pad=%d,%d;num_filter=%d", c.p, c.p, c.f)
		for _, bias := range []bool{false, true} {
			in, at, bref := []*ndarray.NDArray{x, w}, attrs+";no_bias=1", []float64(nil)
			if bias {
				in, at, bref = append(in, b), attrs, bv
			}
			got := values(t, mustOp(t, "Convolution", at, in...))
			want, mag := convRef64(xv, wv, bref, c.n, c.c, c.h, c.w, c.f, c.p)
			require.Len(t, got, len(want))
			for k := range want {
				e := math.Abs(got[k]-want[k]) / max(mag[k], 1e-30)
				worst = max(worst, e)
				require.LessOrEqual(t, e, winoTol, "%+v bias %v: output %d = %g, want %g", c, bias, k, got[k], want[k])
			}
			simd.SetWinograd(false)
			direct := f32Bits(t, mustOp(t, "Convolution", at, in...))
			simd.SetWinograd(true)
			require.False(t, slices.Equal(direct, f32Bits(t, mustOp(t, "Convolution", at, in...))), "%+v: Winograd did not run", c)
		}
	}
	t.Logf("Winograd: at most %.3g of the sum of |terms|", worst)
}

// TestConvWinogradDeclines: where Winograd does not apply, or an operand is not finite,
// the convolution is the direct paths', bit for bit.
func TestConvWinogradDeclines(t *testing.T) {
	checkLeaks(t)
	defer simd.SetWinograd(simd.SetWinograd(true))
	for i, c := range []struct {
		name, attrs string
		c, f, h     int
		special     bool
	}{
		{"an infinity in the data", "kernel=3,3;pad=1,1", 32, 32, 10, true},
		{"too few channels", "kernel=3,3;pad=1,1", 16, 32, 10, false},
		{"too few filters", "kernel=3,3;pad=1,1", 32, 8, 10, false},
		{"stride 2", "kernel=3,3;pad=1,1;stride=2,2", 32, 32, 10, false},
		{"dilation 2", "kernel=3,3;pad=2,2;dilate=2,2", 32, 32, 10, false},
		{"two groups", "kernel=3,3;pad=1,1;num_group=2", 64, 32, 10, false},
		{"a 5x5 kernel", "kernel=5,5;pad=2,2", 32, 32, 10, false},
		{"7x7 outputs (8x8 tiled)", "kernel=3,3;pad=1,1", 32, 32, 7, false},
	} {
		cg := c.c
		if c.name == "two groups" {
			cg = c.c / 2
		}
		x, xv := nnRandom(t, ndarray.Float32, uint64(3*i+1), 2, c.c, c.h, c.h)
		k := 3
		if c.name == "a 5x5 kernel" {
			k = 5
		}
		w, _ := nnRandom(t, ndarray.Float32, uint64(3*i+2), c.f, cg, k, k)
		if c.special {
			xv[len(xv)/3] = math.Inf(1)
			x = fromValues(t, ndarray.Float32, xv, x.Shape()...)
		}
		at := fmt.Sprintf("%s;num_filter=%d;no_bias=1", c.attrs, c.f)
		on := f32Bits(t, mustOp(t, "Convolution", at, x, w))
		simd.SetWinograd(false)
		require.Equal(t, f32Bits(t, mustOp(t, "Convolution", at, x, w)), on, c.name)
		simd.SetWinograd(true)
	}
}
