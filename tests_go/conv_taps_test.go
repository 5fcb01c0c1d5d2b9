package mxgotest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// The table path of im2col and col2im (output lines shorter than 10) gives the bits of
// colRow's lines: Convolution, its weight and data gradients, im2col and col2im, over
// ResNet-18's deep layers and random geometries (kernel, stride, dilation, padding,
// groups, batch, 1-D to 3-D), float32 and float64.
func TestConvTapTablesMatchLines(t *testing.T) {
	checkLeaks(t)
	type geom struct {
		n, c, f, g     int
		in, k, s, d, p []int
	}
	geoms := []geom{
		{3, 8, 8, 1, []int{8, 8}, []int{3, 3}, nil, nil, []int{1, 1}},
		{3, 8, 16, 1, []int{8, 8}, []int{3, 3}, []int{2, 2}, nil, []int{1, 1}},
		{3, 8, 16, 1, []int{4, 4}, []int{1, 1}, []int{2, 2}, nil, nil},
		{2, 4, 8, 1, []int{2, 2}, []int{3, 3}, nil, nil, []int{1, 1}},
		{2, 3, 4, 1, []int{32, 32}, []int{7, 7}, []int{2, 2}, nil, []int{3, 3}},
	}
	rng := rand.New(rand.NewPCG(11, 13))
	for len(geoms) < 24 {
		nd := 1 + rng.IntN(3)
		g := []int{1, 1, 2, 3}[rng.IntN(4)]
		ge := geom{n: 1 + rng.IntN(5), c: g * (1 + rng.IntN(3)), f: g * (1 + rng.IntN(3)), g: g}
		ok := true
		for range nd {
			in, k, s, d, p := 1+rng.IntN(12), 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(2), rng.IntN(3)
			ok = ok && d*(k-1)+1 <= in+2*p
			ge.in, ge.k, ge.s, ge.d, ge.p = append(ge.in, in), append(ge.k, k), append(ge.s, s), append(ge.d, d), append(ge.p, p)
		}
		if ok {
			geoms = append(geoms, ge)
		}
	}
	defer nn.SetTapTables(true)
	for _, ge := range geoms {
		nd := len(ge.k)
		window := "kernel=" + joinInts(ge.k) + nnAttrList("stride", ge.s) + nnAttrList("dilate", ge.d) + nnAttrList("pad", ge.p)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x, _ := nnRandom(t, dt, 1, append([]int{ge.n, ge.c}, ge.in...)...)
			w, _ := nnRandom(t, dt, 2, append([]int{ge.f, ge.c / ge.g}, ge.k...)...)
			conv := window + fmt.Sprintf(";num_group=%d;num_filter=%d;no_bias=1", ge.g, ge.f)
			run := func() [][]float64 {
				y := mustOp(t, "Convolution", conv, x, w)
				gy, _ := nnRandom(t, dt, 4, y.Shape()...)
				res := [][]float64{values(t, y), values(t, mustOp(t, "_backward_Convolution_weight", conv, x, gy)),
					values(t, mustOp(t, "Deconvolution", window+fmt.Sprintf(";num_group=%d;num_filter=%d;no_bias=1", ge.g, ge.c), gy, w))}
				if nd == 2 && ge.g == 1 {
					cols := mustOp(t, "im2col", window, x)
					res = append(res, values(t, cols), values(t, mustOp(t, "col2im", window+";output_size="+joinInts(ge.in), cols)))
				}
				return res
			}
			nn.SetTapTables(false)
			want := run()
			nn.SetTapTables(true)
			got := run()
			for i := range want {
				require.Equal(t, want[i], got[i], "%+v %v: result %d", ge, dt, i)
			}
		}
	}
}
