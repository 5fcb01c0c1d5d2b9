package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops/nn"
)

// convCase is a convolution's geometry: batch, channels, filters, groups and per
// spatial axis the input length, kernel, stride, dilation and padding (nil: defaults).
type convCase struct {
	n, c, f, g     int
	in, k, s, d, p []int
}

// randomConvCases appends random valid 1-D to 3-D geometries to cases up to total, with
// input lengths up to maxIn, kernels up to maxK and strides up to maxS.
func randomConvCases(rng *rand.Rand, cases []convCase, total, maxIn, maxK, maxS int) []convCase {
	for len(cases) < total {
		nd := []int{1, 2, 2, 2, 3}[rng.IntN(5)]
		g := []int{1, 1, 2, 4}[rng.IntN(4)]
		ge := convCase{n: []int{1, 2, 3, 4, 5, 8, 9}[rng.IntN(7)], c: g * (1 + rng.IntN(4)), f: g * (1 + rng.IntN(4)), g: g}
		ok := true
		for range nd {
			in, k, s, d, p := 1+rng.IntN(maxIn), 1+rng.IntN(maxK), 1+rng.IntN(maxS), 1+rng.IntN(2), rng.IntN(3)
			ok = ok && d*(k-1)+1 <= in+2*p
			ge.in, ge.k, ge.s, ge.d, ge.p = append(ge.in, in), append(ge.k, k), append(ge.s, s), append(ge.d, d), append(ge.p, p)
		}
		if ok {
			cases = append(cases, ge)
		}
	}
	return cases
}

// Convolution's forward, its weight gradient and its data gradient (Deconvolution, as
// convGrad calls it) against direct loops over generated geometries, on one core and on
// all: the per-image and chunked products, the weight gradient's per-core chunks (split
// by batch and by column buffer size) and im2col's shifted-plane copy (unit strides,
// output lines as long as the input's) each meet some of them; float32's 1-D and 2-D
// geometries run both by the gathered products (nn_conv_gather.go) and without them.
func TestConvPathsMatchDirectLoops(t *testing.T) {
	checkLeaks(t)
	geoms := []convCase{
		{5, 1, 8, 1, []int{28, 28}, []int{3, 3}, nil, nil, []int{1, 1}},   // the first layer of bench_autograd's CNN
		{9, 16, 4, 1, []int{28, 28}, []int{3, 3}, nil, nil, []int{1, 1}},  // weight chunks cut by buffer size
		{67, 8, 16, 1, []int{14, 14}, []int{3, 3}, nil, nil, []int{1, 1}}, // its second, an odd batch
		{3, 4, 4, 2, []int{6, 7}, []int{3, 3}, nil, []int{1, 2}, []int{1, 2}},
		{9, 16, 4, 1, []int{4, 4, 4}, []int{3, 3, 3}, nil, nil, []int{1, 1, 1}}, // weight chunks of chunkImages' width, past weightBuf
		{5, 16, 8, 1, []int{1, 1}, []int{3, 3}, nil, nil, []int{1, 1}},          // 1x1 images: one live tap (tapFC*)
		{3, 4, 6, 1, []int{1, 1}, []int{3, 3}, nil, []int{2, 2}, []int{2, 2}},
		{4, 8, 8, 1, []int{1}, []int{3}, []int{2}, nil, []int{1}},
		{2, 3, 5, 1, []int{1, 1, 1}, []int{3, 3, 3}, nil, nil, []int{1, 1, 1}},
		{2, 3, 4, 1, []int{1, 1}, []int{2, 2}, nil, []int{2, 2}, []int{1, 1}}, // no tap reads the image
		{2, 4, 4, 2, []int{1, 1}, []int{3, 3}, nil, nil, []int{1, 1}},         // groups: the general path
		// gathered products (32 filters and channels a group at least: gatherRowsMin)
		{2, 32, 32, 1, []int{8, 8}, []int{3, 3}, nil, nil, []int{1, 1}},         // ResNet-18's 8x8 layers
		{2, 32, 48, 1, []int{8, 8}, []int{3, 3}, []int{2, 2}, nil, []int{1, 1}}, // a stride-2 entry to 4x4
		{2, 32, 40, 1, []int{7, 5}, []int{3, 2}, nil, []int{2, 1}, []int{2, 0}}, // dilated, uneven padding
		{2, 64, 64, 2, []int{6, 9}, []int{3, 3}, []int{2, 1}, nil, []int{1, 1}}, // groups, mixed strides
		{2, 32, 32, 1, []int{5, 14}, []int{3, 3}, nil, nil, []int{1, 1}},        // lines of 14: runs across lines
		{3, 32, 32, 1, []int{13}, []int{3}, nil, nil, []int{1}},                 // 1-D
		{2, 32, 32, 1, []int{6, 6}, []int{3, 3}, nil, nil, []int{2, 2}},         // padding beyond the kernel: no flipped conv
	}
	geoms = randomConvCases(rand.New(rand.NewPCG(3, 5)), geoms, 26, 9, 3, 2)
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	defer nn.SetGathered(true)
	for _, ge := range geoms {
		nd := len(ge.k)
		in, k, s, d, p := pad3(ge.in, 1), pad3(ge.k, 1), pad3(ge.s, 1), pad3(ge.d, 1), pad3(ge.p, 0)
		var out [3]int
		for i := range 3 {
			out[i] = (in[i]+2*p[i]-d[i]*(k[i]-1)-1)/s[i] + 1
		}
		window := fmt.Sprintf("kernel=%s;num_group=%d", joinInts(ge.k), ge.g) + nnAttrList("stride", ge.s) +
			nnAttrList("dilate", ge.d) + nnAttrList("pad", ge.p)
		adj := make([]int, nd) // as convGrad computes it
		for i := range nd {
			j := 3 - nd + i
			adj[i] = in[j] + 2*p[j] - (d[j]*(k[j]-1) + 1) - s[j]*(out[j]-1)
		}
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			xshape := append([]int{ge.n, ge.c}, ge.in...)
			x, xv := nnRandom(t, dt, 1, xshape...)
			w, wv := nnRandom(t, dt, 2, append([]int{ge.f, ge.c / ge.g}, ge.k...)...)
			b, bv := nnRandom(t, dt, 3, ge.f)
			gy, gv := nnRandom(t, dt, 4, append([]int{ge.n, ge.f}, out[3-nd:]...)...)
			y := nnConvRef(xv, wv, bv, ge.n, ge.c, ge.f, ge.g, in, k, s, d, p, out)
			dw, dx := make([]float64, len(wv)), make([]float64, len(xv))
			convTaps(ge.n, ge.c, ge.f, ge.g, in, k, s, d, p, out, func(xi, wi, yi int) {
				dw[wi] += gv[yi] * xv[xi]
				dx[xi] += gv[yi] * wv[wi]
			})
			tol := map[ndarray.DType]float64{ndarray.Float32: 2e-5, ndarray.Float64: 1e-12}[dt]
			for _, run := range []struct {
				cores    int
				gathered bool
			}{{1, true}, {procs, true}, {1, false}, {procs, false}} {
				useCores(run.cores)
				nn.SetGathered(run.gathered)
				what := fmt.Sprintf("%+v %v on %d cores (gathered %v)", ge, dt, run.cores, run.gathered)
				nnClose(t, mustOp(t, "Convolution", window+fmt.Sprintf(";num_filter=%d", ge.f), x, w, b), y, tol, "forward of "+what)
				nnClose(t, mustOp(t, "_backward_Convolution_weight", window+fmt.Sprintf(";num_filter=%d", ge.f), x, gy), dw, 10*tol,
					"weight gradient of "+what)
				nnClose(t, mustOp(t, "Deconvolution", window+fmt.Sprintf(";num_filter=%d;no_bias=1;adj=%s", ge.c, joinInts(adj)), gy, w),
					dx, tol, "data gradient of "+what)
			}
		}
	}
}

// A non-finite weight keeps the data gradient on col2im's path: the gathered one (a
// convolution with the flipped kernel) would multiply the padding's zeros by it and
// give nan where col2im drops those terms. Both settings give the same bits.
func TestConvGatheredDataGradientKeepsNonFiniteWeights(t *testing.T) {
	checkLeaks(t)
	defer nn.SetGathered(true)
	window := "kernel=3,3;pad=1,1;num_filter=4;no_bias=1"
	gy, _ := nnRandom(t, ndarray.Float32, 4, 2, 6, 5, 5)
	_, wv := nnRandom(t, ndarray.Float32, 2, 6, 4, 3, 3)
	wv[0], wv[13] = math.Inf(1), math.NaN()
	w := fromValues(t, ndarray.Float32, wv, 6, 4, 3, 3)
	var res [2][]float32
	for i, on := range []bool{true, false} {
		nn.SetGathered(on)
		res[i] = rawValues[float32](mustOp(t, "Deconvolution", window, gy, w))
	}
	require.Equal(t, fmt.Sprint(res[1]), fmt.Sprint(res[0]))
	require.Contains(t, fmt.Sprint(res[0]), "+Inf", "an infinite weight reaches the gradient")
}
