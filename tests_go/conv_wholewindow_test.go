package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// wholeWindows reports whether every window of the convolution ge covers its whole
// image, each input element through one tap: the geometries the whole-window path takes.
func wholeWindows(ge convCase) bool {
	for j := range ge.in {
		in, k, s, d, p := ge.in[j], ge.k[j], ge.s[j], ge.d[j], ge.p[j]
		if d*(k-1)+1 > in+2*p { // no window fits
			return false
		}
		for o := range (in+2*p-d*(k-1)-1)/s + 1 {
			for i := range in {
				if r := i - o*s + p; r < 0 || r%d != 0 || r/d >= k {
					return false
				}
			}
		}
	}
	return ge.g == 1
}

// The whole-window path (one product of the batch with the spread weights) against
// im2col's: Convolution, its weight and data gradients over ResNet-18's 2x2 and 1x1
// layers and random 1-D to 3-D geometries whose windows cover their images (strides,
// dilations, paddings, batch 1, odd sizes), float32 and float64, with an infinite input
// element in some. The sums are grouped otherwise (im2col's product adds the padding's
// zeros, and blocks its sums at other terms), so values agree to a relative 1e-5
// (float32) or 1e-13 (float64) of 1 + |value|, and non-finite ones exactly. The spread
// of the weights in C (internal/simd's Spread) gives the bits of its Go loops.
func TestConvWholeWindowsMatchIm2col(t *testing.T) {
	checkLeaks(t)
	geoms := []convCase{
		{4, 16, 32, 1, []int{2, 2}, []int{3, 3}, nil, nil, []int{1, 1}}, // ResNet-18's layer 3
		{3, 8, 8, 1, []int{1, 1}, []int{3, 3}, nil, nil, []int{1, 1}},   // its layer 4
		{1, 5, 3, 1, []int{3, 3}, []int{5, 5}, nil, nil, []int{2, 2}},
		{2, 3, 5, 1, []int{2, 1}, []int{3, 3}, []int{2, 1}, nil, []int{1, 1}},
		{1, 2, 3, 1, []int{1, 1}, []int{3, 3}, nil, []int{2, 2}, []int{2, 2}},
		{5, 3, 4, 1, []int{2, 2, 2}, []int{3, 3, 3}, nil, nil, []int{1, 1, 1}},
		{3, 7, 9, 1, []int{3}, []int{4}, nil, nil, []int{1}},
	}
	rng := rand.New(rand.NewPCG(17, 19))
	for len(geoms) < 20 {
		nd := 1 + rng.IntN(3)
		ge := convCase{n: 1 + rng.IntN(6), c: 1 + rng.IntN(6), f: 1 + rng.IntN(6), g: 1}
		for range nd {
			ge.in, ge.k = append(ge.in, 1+rng.IntN(3)), append(ge.k, 1+rng.IntN(5))
			ge.s, ge.d, ge.p = append(ge.s, 1+rng.IntN(2)), append(ge.d, 1+rng.IntN(2)), append(ge.p, rng.IntN(4))
		}
		if wholeWindows(ge) {
			geoms = append(geoms, ge)
		}
	}
	defer nn.SetWholeWindows(true)
	for gi, ge := range geoms {
		nd := len(ge.k)
		for _, v := range []*[]int{&ge.s, &ge.d} { // nil: ones
			if *v == nil {
				*v = slices.Repeat([]int{1}, nd)
			}
		}
		require.True(t, wholeWindows(ge), "%+v", ge)
		window := "kernel=" + joinInts(ge.k) + nnAttrList("stride", ge.s) + nnAttrList("dilate", ge.d) + nnAttrList("pad", ge.p)
		var out []int
		adj := make([]int, nd) // as convGrad computes it
		for j := range nd {
			out = append(out, (ge.in[j]+2*ge.p[j]-ge.d[j]*(ge.k[j]-1)-1)/ge.s[j]+1)
			adj[j] = ge.in[j] + 2*ge.p[j] - (ge.d[j]*(ge.k[j]-1) + 1) - ge.s[j]*(out[j]-1)
		}
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			_, xv := nnRandom(t, dt, 1, append([]int{ge.n, ge.c}, ge.in...)...)
			if gi%2 == 1 {
				xv[len(xv)/2] = math.Inf(1)
			}
			x := fromValues(t, dt, xv, append([]int{ge.n, ge.c}, ge.in...)...)
			w, _ := nnRandom(t, dt, 2, append([]int{ge.f, ge.c}, ge.k...)...)
			b, _ := nnRandom(t, dt, 3, ge.f)
			bc, _ := nnRandom(t, dt, 5, ge.c)
			gy, _ := nnRandom(t, dt, 4, append([]int{ge.n, ge.f}, out...)...)
			conv := window + fmt.Sprintf(";num_filter=%d", ge.f)
			run := func(on bool) [][]float64 {
				nn.SetWholeWindows(on)
				return [][]float64{values(t, mustOp(t, "Convolution", conv, x, w, b)),
					values(t, mustOp(t, "_backward_Convolution_weight", conv, x, gy)),
					values(t, mustOp(t, "Deconvolution", window+fmt.Sprintf(";num_filter=%d;adj=%s", ge.c, joinInts(adj)), gy, w)),
					values(t, mustOp(t, "Deconvolution", window+fmt.Sprintf(";num_filter=%d;no_bias=0;adj=%s", ge.c, joinInts(adj)), gy, w, bc))}
			}
			want, got := run(false), run(true)
			was := simd.SetIm2Col(false) // the spread's Go loops: the same bits as its C
			goLoops := run(true)
			simd.SetIm2Col(was)
			require.Equal(t, goLoops, got, "%+v %v: C spread against Go's", ge, dt)
			tol := map[ndarray.DType]float64{ndarray.Float32: 1e-5, ndarray.Float64: 1e-13}[dt]
			for r := range want {
				require.Len(t, got[r], len(want[r]))
				for i, v := range want[r] {
					g := got[r][i]
					ok := math.Abs(g-v) <= tol*(1+math.Abs(v)) || math.IsNaN(g) && math.IsNaN(v) || math.IsInf(v, 0) && g == v
					require.True(t, ok, "%+v %v: result %d element %d: got %v, want %v", ge, dt, r, i, g, v)
				}
			}
		}
	}
}
