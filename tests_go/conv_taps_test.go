package mxgotest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// The table path of im2col and col2im (output lines shorter than 10) gives the bits of
// colRow's lines: Convolution, its weight and data gradients, im2col and col2im, over
// ResNet-18's deep layers and random geometries (kernel, stride, dilation, padding,
// groups, batch, 1-D to 3-D), float32 and float64; the tables' C loops (internal/simd's
// Taps) give the bits of their Go loops.
func TestConvTapTablesMatchLines(t *testing.T) {
	checkLeaks(t)
	geoms := randomConvCases(rand.New(rand.NewPCG(11, 13)), []convCase{
		{3, 8, 8, 1, []int{8, 8}, []int{3, 3}, nil, nil, []int{1, 1}},
		{3, 8, 16, 1, []int{8, 8}, []int{3, 3}, []int{2, 2}, nil, []int{1, 1}},
		{3, 8, 16, 1, []int{4, 4}, []int{1, 1}, []int{2, 2}, nil, nil},
		{2, 4, 8, 1, []int{2, 2}, []int{3, 3}, nil, nil, []int{1, 1}},
		{2, 3, 4, 1, []int{16, 16}, []int{7, 7}, []int{2, 2}, nil, []int{3, 3}},
	}, 24, 12, 4, 3)
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
			was := simd.SetIm2Col(false) // the tables' Go loops (and colRow's)
			goTables := run()
			simd.SetIm2Col(was)
			for i := range want {
				require.Equal(t, want[i], got[i], "%+v %v: result %d", ge, dt, i)
				require.Equal(t, goTables[i], got[i], "%+v %v: result %d, C tables against Go's", ge, dt, i)
			}
		}
	}
}
