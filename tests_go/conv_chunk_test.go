package mxgotest

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Convolution, its weight gradient and Deconvolution put several images' columns side by
// side in one product when each image has few output positions (nn_conv_chunk.go); one
// image at a time they take the per-image path. A batch must give what its images give
// one by one (the weight gradient: their sum), over generated geometries.
func TestConvChunkedMatchesPerImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	rnd := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()*2 - 1
		}
		return v
	}
	geoms := []struct {
		n, c, f, group                       int
		spatial, kernel, pad, stride, dilate []int
	}{
		{5, 4, 6, 2, []int{4, 5}, []int{3, 3}, []int{1, 1}, []int{1, 1}, []int{1, 1}},
		{7, 3, 4, 1, []int{6, 6}, []int{3, 2}, []int{0, 1}, []int{2, 2}, []int{1, 2}},
		{3, 2, 3, 1, []int{9}, []int{3}, []int{1}, []int{2}, []int{1}},
		{4, 2, 2, 1, []int{3, 4, 3}, []int{2, 2, 2}, []int{1, 0, 1}, []int{1, 1, 1}, []int{1, 1, 1}},
		{9, 8, 8, 4, []int{2, 2}, []int{1, 1}, []int{0, 0}, []int{1, 1}, []int{1, 1}},
	}
	for _, g := range geoms {
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			vol, kvol := 1, 1
			for i := range g.spatial {
				vol *= g.spatial[i]
				kvol *= g.kernel[i]
			}
			xs := rnd(g.n * g.c * vol)
			wv := rnd(g.f * g.c / g.group * kvol)
			window := "kernel=" + ops.WireInts(g.kernel) + ";num_group=" + strconv.Itoa(g.group) + ";pad=" +
				ops.WireInts(g.pad) + ";stride=" + ops.WireInts(g.stride) + ";dilate=" + ops.WireInts(g.dilate)
			conv := window + ";num_filter=" + strconv.Itoa(g.f) + ";no_bias=1"
			x := fromValues(t, dt, xs, append([]int{g.n, g.c}, g.spatial...)...)
			w := fromValues(t, dt, wv, append([]int{g.f, g.c / g.group}, g.kernel...)...)
			y := runOne(t, "Convolution", conv, x, w)
			ys := values(t, y)
			per := len(ys) / g.n
			gy := fromValues(t, dt, rnd(len(ys)), y.Shape()...)
			gys := values(t, gy)
			dw := values(t, runOne(t, "_backward_Convolution_weight", conv, x, gy))
			adj := make([]int, len(g.kernel)) // the input positions after the last window, as convGrad computes them
			for i := range adj {
				adj[i] = g.spatial[i] + 2*g.pad[i] - (g.dilate[i]*(g.kernel[i]-1) + 1) - g.stride[i]*(y.Shape()[2+i]-1)
			}
			deconv := window + ";num_filter=" + strconv.Itoa(g.c) + ";no_bias=1;adj=" + ops.WireInts(adj)
			dx := values(t, runOne(t, "Deconvolution", deconv, gy, w))
			sumDW := make([]float64, len(dw))
			tol := map[ndarray.DType]float64{ndarray.Float32: 2e-5, ndarray.Float64: 1e-12}[dt]
			for i := range g.n {
				xi := fromValues(t, dt, xs[i*g.c*vol:(i+1)*g.c*vol], append([]int{1, g.c}, g.spatial...)...)
				yi := values(t, runOne(t, "Convolution", conv, xi, w))
				assert.InDeltaSlice(t, ys[i*per:(i+1)*per], yi, tol, "forward, image %d of %v", i, g)
				gyi := fromValues(t, dt, gys[i*per:(i+1)*per], append([]int{1}, y.Shape()[1:]...)...)
				for j, v := range values(t, runOne(t, "_backward_Convolution_weight", conv, xi, gyi)) {
					sumDW[j] += v
				}
				dxi := values(t, runOne(t, "Deconvolution", deconv, gyi, w))
				assert.InDeltaSlice(t, dx[i*g.c*vol:(i+1)*g.c*vol], dxi, tol, "data gradient, image %d of %v", i, g)
			}
			assert.InDeltaSlice(t, sumDW, dw, tol*float64(g.n)*10, "weight gradient of %v", g)
		}
	}
}

// runOne runs operator name on in with attrs (";"-separated, "," inside tuples).
func runOne(t *testing.T, name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	res, err := runOps(t, name, in, nil, attrs)
	require.NoError(t, err, name)
	return res[0]
}
