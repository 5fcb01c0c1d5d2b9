package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// im2col and col2im of 1-D and 2-D convolutions run in C (internal/simd's Cols2D) and
// give the bits of colRow's Go lines: Convolution, its weight and data gradients, im2col
// and col2im, over LeNet's and bench_autograd's layers and random geometries (kernel,
// stride, dilation, padding, groups, odd lengths, batch 1, lines of 1 to 30 elements
// around the 4- and 8-element vectors), float32 and float64, with NaN, ±inf and -0 in
// the data and the head gradient. The tap tables stay off: they would take the short
// lines on both sides.
func TestConvColsSimdMatchesLines(t *testing.T) {
	checkLeaks(t)
	geoms := randomConvCases(rand.New(rand.NewPCG(17, 19)), []convCase{
		{2, 1, 6, 1, []int{28, 28}, []int{5, 5}, nil, nil, []int{2, 2}},
		{3, 6, 16, 1, []int{14, 14}, []int{5, 5}, nil, nil, nil},
		{1, 8, 16, 1, []int{14, 14}, []int{3, 3}, nil, nil, []int{1, 1}},
		{2, 4, 4, 2, []int{11, 30}, []int{3, 4}, []int{1, 3}, []int{2, 1}, []int{2, 1}},
		{1, 2, 3, 1, []int{29}, []int{3}, nil, nil, []int{1}},
	}, 20, 30, 5, 3)
	defer nn.SetTapTables(nn.SetTapTables(false))
	defer simd.SetIm2Col(simd.SetIm2Col(true))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}
	rng := rand.New(rand.NewPCG(3, 1))
	spoil := func(v []float64) {
		for range 1 + len(v)/200 {
			v[rng.IntN(len(v))] = special[rng.IntN(len(special))]
		}
	}
	for _, ge := range geoms {
		nd := len(ge.k)
		window := "kernel=" + joinInts(ge.k) + nnAttrList("stride", ge.s) + nnAttrList("dilate", ge.d) + nnAttrList("pad", ge.p)
		conv := window + fmt.Sprintf(";num_group=%d;num_filter=%d;no_bias=1", ge.g, ge.f)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			_, xv := nnRandom(t, dt, 1, append([]int{ge.n, ge.c}, ge.in...)...)
			spoil(xv)
			x := fromValues(t, dt, xv, append([]int{ge.n, ge.c}, ge.in...)...)
			w, _ := nnRandom(t, dt, 2, append([]int{ge.f, ge.c / ge.g}, ge.k...)...)
			y := mustOp(t, "Convolution", conv, x, w)
			_, gv := nnRandom(t, dt, 4, y.Shape()...)
			spoil(gv)
			gy := fromValues(t, dt, gv, y.Shape()...)
			run := func() [][]uint64 {
				res := [][]float64{values(t, mustOp(t, "Convolution", conv, x, w)),
					values(t, mustOp(t, "_backward_Convolution_weight", conv, x, gy)),
					values(t, mustOp(t, "Deconvolution", window+fmt.Sprintf(";num_group=%d;num_filter=%d;no_bias=1", ge.g, ge.c), gy, w))}
				if nd == 2 && ge.g == 1 {
					cols := mustOp(t, "im2col", window, x)
					res = append(res, values(t, cols), values(t, mustOp(t, "col2im", window+";output_size="+joinInts(ge.in), cols)))
				}
				out := make([][]uint64, len(res))
				for i, r := range res {
					out[i] = bits(r)
				}
				return out
			}
			simd.SetIm2Col(false)
			want := run()
			simd.SetIm2Col(true)
			got := run()
			for i := range want {
				require.Equal(t, want[i], got[i], "%+v %v: result %d", ge, dt, i)
			}
		}
	}
}

// Convolution adds its bias image by image on the core that computed them (per image and
// chunked paths, the 1x1 images' one-tap path): the bits of the unbiased result plus the
// bias broadcast over the filters' planes.
func TestConvBiasMatchesBroadcastAdd(t *testing.T) {
	checkLeaks(t)
	for _, ge := range []convCase{
		{5, 2, 3, 1, []int{28, 28}, []int{3, 3}, nil, nil, []int{1, 1}},
		{7, 6, 4, 2, []int{9, 9}, []int{5, 5}, nil, nil, nil},
		{1, 3, 4, 1, []int{6}, []int{3}, []int{2}, nil, []int{1}},
		{3, 4, 2, 1, []int{1, 1}, []int{3, 3}, nil, nil, []int{1, 1}},
	} {
		window := "kernel=" + joinInts(ge.k) + nnAttrList("stride", ge.s) + nnAttrList("dilate", ge.d) + nnAttrList("pad", ge.p)
		conv := window + fmt.Sprintf(";num_group=%d;num_filter=%d", ge.g, ge.f)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x, _ := nnRandom(t, dt, 1, append([]int{ge.n, ge.c}, ge.in...)...)
			w, _ := nnRandom(t, dt, 2, append([]int{ge.f, ge.c / ge.g}, ge.k...)...)
			b, _ := nnRandom(t, dt, 3, ge.f)
			y := mustOp(t, "Convolution", conv+";no_bias=1", x, w)
			bshape := []int{1, ge.f}
			for range ge.in {
				bshape = append(bshape, 1)
			}
			want := mustOp(t, "broadcast_add", "", y, mustOp(t, "reshape", "shape="+joinInts(bshape), b))
			require.Equal(t, bits(values(t, want)), bits(values(t, mustOp(t, "Convolution", conv, x, w, b))), "%+v %v", ge, dt)
		}
	}
}
