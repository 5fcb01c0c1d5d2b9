package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The products' AVX-512 tiles (where the CPU has AVX-512F: float32 12 x 32, float64 12 x
// 16) give the AVX2 tiles' bits (6 x 16, 6 x 8): each element sums its terms in the same
// order with the same FMAs, and alpha and beta (linalg_gemm) apply as the AVX2 kernel's.
// The other product tests run whichever tiles the machine has; this one runs both, over
// shapes around both tiles and the k block, every layout, and the gathered products of
// convolutions (forward, weight and data gradients). Where the CPU has no AVX-512 both
// runs take the AVX2 tiles, and the test says so.
func TestGemmAVX512TilesMatchAVX2(t *testing.T) {
	checkLeaks(t)
	if !simd.Running()["gemm512"] {
		t.Log("this CPU has no AVX-512F: both runs take the AVX2 tiles")
	}
	defer simd.SetGemmAVX512(true)
	both := func(what string, run func() []uint32) {
		simd.SetGemmAVX512(true)
		wide := run()
		simd.SetGemmAVX512(false)
		require.Equal(t, run(), wide, what)
	}
	r := rand.New(rand.NewPCG(21, 22))
	for _, m := range []int{1, 6, 7, 12, 13, 25, 169} {
		for _, n := range []int{1, 16, 17, 32, 33, 65} {
			for _, k := range []int{1, 5, 257} {
				av, bv := gemmF32Values(r, m*k), gemmF32Values(r, k*n)
				layouts := []string{"contiguous"}
				if m == 13 && n == 33 {
					layouts = gemmF32Layouts
				}
				for _, la := range layouts {
					a, b := gemmF32Matrix(t, la, av, m, k), gemmF32Matrix(t, la, bv, k, n)
					both(fmt.Sprintf("dot %dx%dx%d %s", m, k, n, la), func() []uint32 { return f32Bits(t, mustOp(t, "dot", "", a, b)) })
				}
			}
		}
	}
	// b transposed with m < n: the AVX-512 product swaps to c^T = b^T a^T (a dense layer's
	// forward), reading the weights unpacked
	for _, m := range []int{1, 7, 13, 64, 100} {
		for _, n := range []int{17, 65, 300} {
			for _, k := range []int{5, 257, 300} {
				a := fromValues(t, ndarray.Float32, gemmF32Values(r, m*k), m, k)
				b := fromValues(t, ndarray.Float32, gemmF32Values(r, n*k), n, k)
				bias := fromValues(t, ndarray.Float32, gemmF32Values(r, n), n)
				both(fmt.Sprintf("dot %dx%d by (%dx%d)^T", m, k, n, k), func() []uint32 {
					return f32Bits(t, mustOp(t, "dot", "transpose_b=1", a, b))
				})
				attrs := fmt.Sprintf("num_hidden=%d", n)
				both(fmt.Sprintf("FullyConnected %dx%d into %d", m, k, n), func() []uint32 {
					return f32Bits(t, mustOp(t, "FullyConnected", attrs, a, b, bias))
				})
			}
		}
	}
	for _, s := range [][3]int{{1, 1, 1}, {7, 5, 9}, {13, 257, 17}, {6, 300, 8}, {25, 40, 33}, {97, 513, 20}} {
		m, k, n := s[0], s[1], s[2]
		a := fromValues(t, ndarray.Float64, gemmF32Values(r, m*k), m, k)
		b := fromValues(t, ndarray.Float64, gemmF32Values(r, k*n), k, n)
		c := fromValues(t, ndarray.Float64, gemmF32Values(r, m*n), m, n)
		f64 := func(x *ndarray.NDArray) []uint32 { // float64 bits as pairs of words
			var w []uint32
			for _, v := range values(t, x) {
				w = append(w, uint32(math.Float64bits(v)), uint32(math.Float64bits(v)>>32))
			}
			return w
		}
		both(fmt.Sprintf("float64 dot %v", s), func() []uint32 { return f64(mustOp(t, "dot", "", a, b)) })
		for _, ab := range []string{"alpha=0.7;beta=1.3", "alpha=2;beta=0", "alpha=1;beta=1"} {
			both(fmt.Sprintf("linalg_gemm %v %s", s, ab), func() []uint32 { return f64(mustOp(t, "linalg_gemm", ab, a, b, c)) })
		}
	}
	for _, c := range []struct {
		n, c, f, hw int
		window      string
	}{
		{2, 32, 48, 8, "kernel=3,3;pad=1,1"},            // ResNet-18's 8x8 layers, partial tiles
		{3, 40, 33, 7, "kernel=3,2;stride=2,1;pad=1,0"}, // strided, uneven
	} {
		x, _ := nnRandom(t, ndarray.Float32, 1, c.n, c.c, c.hw, c.hw)
		w, _ := nnRandom(t, ndarray.Float32, 2, c.f, c.c, 3, map[bool]int{true: 3, false: 2}[c.hw == 8])
		y := mustOp(t, "Convolution", fmt.Sprintf("%s;num_filter=%d;no_bias=1", c.window, c.f), x, w)
		gy, _ := nnRandom(t, ndarray.Float32, 4, y.Shape()...)
		attrs := fmt.Sprintf("%s;num_filter=%d;no_bias=1", c.window, c.f)
		both("forward "+attrs, func() []uint32 { return f32Bits(t, mustOp(t, "Convolution", attrs, x, w)) })
		both("weight gradient "+attrs, func() []uint32 { return f32Bits(t, mustOp(t, "_backward_Convolution_weight", attrs, x, gy)) })
		if c.hw == 8 { // stride 1: the data gradient is a gathered product too
			dattrs := fmt.Sprintf("%s;num_filter=%d;no_bias=1", c.window, c.c)
			both("data gradient "+attrs, func() []uint32 { return f32Bits(t, mustOp(t, "Deconvolution", dattrs, gy, w)) })
		}
	}
}
