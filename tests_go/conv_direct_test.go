package mxgotest

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The direct convolution (internal/simd/conv2d_avx512.c, unit stride and dilation, few
// filters) gives im2col's packed product's bits: over 1-D and 2-D windows with and
// without padding (taps in it multiply zeros, so an infinite weight there makes NaN as
// im2col's does), kernels as large as the padded image, more than 256 terms an output
// (two k blocks), groups, filters not a multiple of the tile's 8, rows of outputs around
// the tile's 16 and 32, and non-finite inputs. Where the CPU lacks AVX-512F both runs take
// im2col, and the test says so.
func TestConvDirectMatchesIm2col(t *testing.T) {
	checkLeaks(t)
	if !simd.SetConv2D(true) {
		t.Log("this CPU has no AVX-512F: both runs take im2col")
	}
	defer simd.SetConv2D(true)
	for i, c := range []struct {
		n, c, f, g int
		in, k, p   []int
		special    bool
	}{
		{3, 1, 6, 1, []int{28, 28}, []int{5, 5}, []int{0, 0}, false}, // LeNet's
		{3, 6, 16, 1, []int{12, 12}, []int{5, 5}, []int{0, 0}, false},
		{2, 3, 5, 1, []int{9, 40}, []int{3, 3}, []int{1, 1}, true},   // rows of 40: tiles of 32 and 8
		{2, 2, 9, 1, []int{7, 33}, []int{3, 2}, []int{2, 1}, true},   // padding beyond the kernel's reach
		{1, 12, 4, 1, []int{6, 17}, []int{5, 5}, []int{2, 2}, false}, // 300 terms: two k blocks
		{2, 4, 6, 2, []int{8, 16}, []int{3, 3}, []int{1, 1}, false},  // groups
		{2, 3, 2, 1, []int{5, 5}, []int{5, 5}, []int{2, 2}, true},    // kernel as large as the image
		{3, 2, 3, 1, []int{31}, []int{4}, []int{1}, false},           // 1-D
		{2, 1, 8, 1, []int{3, 3}, []int{3, 3}, []int{0, 0}, false},   // one output an image: im2col's matrix-vector product
	} {
		nd := len(c.k)
		x, xv := nnRandom(t, ndarray.Float32, uint64(3*i+1), append([]int{c.n, c.c}, c.in...)...)
		wshape := append([]int{c.f, c.c / c.g}, c.k...)
		w, wv := nnRandom(t, ndarray.Float32, uint64(3*i+2), wshape...)
		b, _ := nnRandom(t, ndarray.Float32, uint64(3*i+3), c.f)
		if c.special {
			xv[0], xv[len(xv)/2] = math.NaN(), math.Inf(1)
			wv[1] = math.Inf(-1)
			x, w = fromValues(t, ndarray.Float32, xv, x.Shape()...), fromValues(t, ndarray.Float32, wv, w.Shape()...)
		}
		attrs := fmt.Sprintf("kernel=%s;pad=%s;num_filter=%d;num_group=%d", joinInts(c.k), joinInts(c.p), c.f, c.g)
		for _, bias := range []bool{false, true} {
			in, at := []*ndarray.NDArray{x, w}, attrs+";no_bias=1"
			if bias {
				in, at = append(in, b), attrs
			}
			simd.SetConv2D(true)
			direct := f32Bits(t, mustOp(t, "Convolution", at, in...))
			simd.SetConv2D(false)
			require.Equal(t, f32Bits(t, mustOp(t, "Convolution", at, in...)), direct, "%d-D %+v bias %v", nd, c, bias)
		}
	}
}
