package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The neural-network kernels (pkg/ops/nn) against direct loops written here:
// Convolution (im2col + gemm, the 1x1 product, per-image and per-product parallelism),
// FullyConnected and Pooling, on contiguous and strided inputs of float32 and float64.

// nnRandom is an array of uniform values in [-1, 1) (and its values in C order).
func nnRandom(t *testing.T, dt ndarray.DType, seed uint64, shape ...int) (*ndarray.NDArray, []float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	vals := make([]float64, prod(shape))
	for i := range vals {
		vals[i] = r.Float64()*2 - 1
		if dt != ndarray.Float64 {
			vals[i] = float64(float32(vals[i]))
		}
	}
	return fromValues(t, dt, vals, shape...), vals
}

// nnStrided is a view of shape with the same values as a C-order array of that shape,
// with its first axis reversed and every other element of its last axis.
func nnStrided(t *testing.T, dt ndarray.DType, vals []float64, shape ...int) *ndarray.NDArray {
	t.Helper()
	nd := len(shape)
	big := append(append([]int{}, shape[:nd-1]...), 2*shape[nd-1])
	bv := make([]float64, prod(big))
	last := shape[nd-1]
	for i, v := range vals {
		row, col := i/last, i%last
		outer := row / (prod(shape[1 : nd-1]))
		rest := row % (prod(shape[1 : nd-1]))
		flipped := (shape[0]-1-outer)*prod(shape[1:nd-1]) + rest
		bv[flipped*2*last+2*col] = v
	}
	key := []ndarray.KeyItem{S(nil, nil, -1)}
	for range nd - 2 {
		key = append(key, all)
	}
	key = append(key, S(nil, nil, 2))
	return index(t, fromValues(t, dt, bv, big...), key...)
}

// nnConvRef is a direct convolution of x (n, c, s...) by w (f, c/g, k...) plus b, with
// spatial axes padded to three.
func nnConvRef(x, w, b []float64, n, c, f, g int, in, k, s, d, p, out [3]int) []float64 {
	res := make([]float64, n*f*out[0]*out[1]*out[2])
	for i := range res {
		if b != nil {
			res[i] = b[i/(out[0]*out[1]*out[2])%f]
		}
	}
	convTaps(n, c, f, g, in, k, s, d, p, out, func(xi, wi, yi int) { res[yi] += x[xi] * w[wi] })
	return res
}

// convTaps calls fn with the indices into data, weight and result of every product a
// convolution sums (taps in the padding skipped), in each result's summation order.
func convTaps(n, c, f, g int, in, k, s, d, p, out [3]int, fn func(xi, wi, yi int)) {
	cg, fg := c/g, f/g
	yi := 0
	for ni := range n {
		for fi := range f {
			gi := fi / fg
			for o0 := range out[0] {
				for o1 := range out[1] {
					for o2 := range out[2] {
						for ci := range cg {
							for k0 := range k[0] {
								for k1 := range k[1] {
									for k2 := range k[2] {
										i0, i1, i2 := o0*s[0]-p[0]+k0*d[0], o1*s[1]-p[1]+k1*d[1], o2*s[2]-p[2]+k2*d[2]
										if i0 < 0 || i1 < 0 || i2 < 0 || i0 >= in[0] || i1 >= in[1] || i2 >= in[2] {
											continue
										}
										fn((((ni*c+gi*cg+ci)*in[0]+i0)*in[1]+i1)*in[2]+i2, (((fi*cg+ci)*k[0]+k0)*k[1]+k1)*k[2]+k2, yi)
									}
								}
							}
						}
						yi++
					}
				}
			}
		}
	}
}

func pad3(v []int, def int) [3]int {
	r := [3]int{def, def, def}
	copy(r[3-len(v):], v)
	return r
}

func nnAttrList(name string, v []int) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf(";%s=%s", name, joinInts(v))
}

func nnClose(t *testing.T, got *ndarray.NDArray, want []float64, tol float64, what string) {
	t.Helper()
	vals := values(t, got)
	require.Len(t, vals, len(want), what)
	for i := range want {
		if !(math.Abs(vals[i]-want[i]) <= tol*(1+math.Abs(want[i]))) {
			require.Failf(t, "values differ", "%s: element %d: got %v, want %v", what, i, vals[i], want[i])
		}
	}
}

func TestNNConvolutionMatchesDirectLoops(t *testing.T) {
	checkLeaks(t)
	workers := ndarray.Cores()
	for _, c := range []struct {
		n, c, f, g  int
		in, k       []int
		s, d, p     []int
		noBias      bool
		outSpatial  []int
		description string
	}{
		{2, 3, 4, 1, []int{9}, []int{3}, nil, nil, nil, false, []int{7}, "1-D"},
		{2, 3, 4, 1, []int{9}, []int{3}, []int{2}, []int{2}, []int{2}, false, []int{5}, "1-D strided dilated padded"},
		{1, 4, 6, 2, []int{7, 6}, []int{3, 3}, []int{2, 1}, nil, []int{1, 2}, false, []int{4, 8}, "2-D groups, batch 1"},
		{workers + 1, 4, 6, 1, []int{6, 5}, []int{3, 2}, nil, []int{2, 1}, nil, true, []int{2, 4}, "2-D dilated, batch > cores"},
		{3, 8, 4, 1, []int{5, 5}, []int{1, 1}, nil, nil, nil, false, []int{5, 5}, "1x1 product"},
		{3, 8, 4, 4, []int{5, 5}, []int{1, 1}, []int{2, 2}, nil, nil, false, []int{3, 3}, "1x1 strided, depthwise groups"},
		{2, 2, 3, 1, []int{4, 5, 6}, []int{2, 3, 3}, []int{2, 1, 2}, []int{1, 1, 2}, []int{1, 1, 0}, false, []int{3, 5, 1}, "3-D"},
	} {
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			for _, strided := range []bool{false, true} {
				what := fmt.Sprint(c.description, " ", dt, " strided ", strided)
				xshape := append([]int{c.n, c.c}, c.in...)
				x, xv := nnRandom(t, dt, 1, xshape...)
				if strided {
					x = nnStrided(t, dt, xv, xshape...)
				}
				w, wv := nnRandom(t, dt, 2, append([]int{c.f, c.c / c.g}, c.k...)...)
				b, bv := nnRandom(t, dt, 3, c.f)
				in := []*ndarray.NDArray{x, w, b}
				if c.noBias {
					in, bv = in[:2], nil
				}
				attrs := fmt.Sprintf("kernel=%s;num_filter=%d;num_group=%d;no_bias=%v", joinInts(c.k), c.f, c.g, c.noBias) +
					nnAttrList("stride", c.s) + nnAttrList("dilate", c.d) + nnAttrList("pad", c.p)
				got := mustOp(t, "Convolution", attrs, in...)
				require.Equal(t, append([]int{c.n, c.f}, c.outSpatial...), ints(got.Shape()), what)
				want := nnConvRef(xv, wv, bv, c.n, c.c, c.f, c.g, pad3(c.in, 1), pad3(c.k, 1), pad3(c.s, 1), pad3(c.d, 1),
					pad3(c.p, 0), pad3(c.outSpatial, 1))
				nnClose(t, got, want, map[ndarray.DType]float64{ndarray.Float32: 1e-5, ndarray.Float64: 1e-12}[dt], what)
			}
		}
	}
}

func TestNNFullyConnectedMatchesLoops(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		for _, flatten := range []bool{true, false} {
			x, xv := nnRandom(t, dt, 4, 5, 3, 4)
			xs := nnStrided(t, dt, xv, 5, 3, 4)
			k, m := 12, 5
			if !flatten {
				k, m = 4, 15
			}
			w, wv := nnRandom(t, dt, 5, 7, k)
			b, bv := nnRandom(t, dt, 6, 7)
			want := make([]float64, 0, m*7)
			for i := range m {
				for j := range 7 {
					s := bv[j]
					for p := range k {
						s += xv[i*k+p] * wv[j*k+p]
					}
					want = append(want, s)
				}
			}
			for _, in := range [][]*ndarray.NDArray{{x, w, b}, {xs, w, b}} {
				got := mustOp(t, "FullyConnected", fmt.Sprintf("num_hidden=7;flatten=%v", flatten), in...)
				nnClose(t, got, want, 1e-5, fmt.Sprint("FullyConnected ", dt, " flatten ", flatten))
			}
		}
	}
}

// nnPoolRef pools a (n*c planes of in) with MXNet's window rules.
func nnPoolRef(x []float64, planes int, in, k, s, p, out [3]int, kind string, includePad bool) []float64 {
	res := []float64{}
	for pl := range planes {
		for o0 := range out[0] {
			for o1 := range out[1] {
				for o2 := range out[2] {
					var lo, hi, padded [3]int
					for j, o := range [3]int{o0, o1, o2} {
						start := o*s[j] - p[j]
						end := min(start+k[j], in[j]+p[j])
						padded[j] = end - start
						lo[j], hi[j] = max(start, 0), min(end, in[j])
					}
					acc, count := 0.0, 0
					if kind == "max" {
						acc = -math.MaxFloat64
					}
					for a := lo[0]; a < hi[0]; a++ {
						for b := lo[1]; b < hi[1]; b++ {
							for c := lo[2]; c < hi[2]; c++ {
								v := x[((pl*in[0]+a)*in[1]+b)*in[2]+c]
								count++
								switch kind {
								case "max":
									acc = max(acc, v)
								case "lp":
									acc += v * v
								default:
									acc += v
								}
							}
						}
					}
					switch kind {
					case "avg":
						size := padded[0] * padded[1] * padded[2]
						if !includePad {
							size = count
						}
						acc /= float64(size)
					case "lp":
						acc = math.Sqrt(acc)
					}
					res = append(res, acc)
				}
			}
		}
	}
	return res
}

func TestNNPoolingMatchesDirectLoops(t *testing.T) {
	checkLeaks(t)
	for _, c := range []struct {
		in, k, s, p []int
		full        bool
		out         []int
	}{
		{[]int{10}, []int{3}, []int{2}, []int{1}, false, []int{5}},
		{[]int{7, 6}, []int{3, 3}, []int{2, 3}, []int{2, 1}, true, []int{5, 3}},
		{[]int{7, 6}, []int{2, 3}, nil, nil, false, []int{6, 4}},
		{[]int{4, 5, 6}, []int{2, 3, 2}, []int{2, 2, 1}, []int{1, 1, 0}, false, []int{3, 3, 5}},
	} {
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			shape := append([]int{2, 3}, c.in...)
			_, xv := nnRandom(t, dt, 8, shape...)
			x := nnStrided(t, dt, xv, shape...)
			for _, kind := range []string{"max", "avg", "sum", "lp"} {
				for _, includePad := range []bool{true, false} {
					attrs := fmt.Sprintf("kernel=%s;pool_type=%s;count_include_pad=%v", joinInts(c.k), kind, includePad) +
						nnAttrList("stride", c.s) + nnAttrList("pad", c.p)
					if c.full {
						attrs += ";pooling_convention=full"
					}
					if kind == "lp" {
						attrs += ";p_value=2"
					}
					what := fmt.Sprint("Pooling ", attrs, " ", dt)
					got := mustOp(t, "Pooling", attrs, x)
					require.Equal(t, append([]int{2, 3}, c.out...), ints(got.Shape()), what)
					want := nnPoolRef(xv, 6, pad3(c.in, 1), pad3(c.k, 1), pad3(c.s, 1), pad3(c.p, 0), pad3(c.out, 1), kind, includePad)
					nnClose(t, got, want, 1e-6, what)
				}
			}
		}
	}
}

func TestNNBadArguments(t *testing.T) {
	checkLeaks(t)
	x, _ := nnRandom(t, ndarray.Float32, 1, 2, 4, 5, 5)
	w, _ := nnRandom(t, ndarray.Float32, 2, 6, 2, 3, 3)
	b, _ := nnRandom(t, ndarray.Float32, 3, 6)
	i32 := fromValues(t, ndarray.Int32, []float64{1, 2}, 2)
	for _, c := range []struct {
		op, attrs string
		in        []*ndarray.NDArray
		kind      mxerr.Kind
		fragment  string
	}{
		{"Convolution", "kernel=3,3;num_filter=6;num_group=0", []*ndarray.NDArray{x, w, b}, mxerr.Value, "num_group"},
		{"Convolution", "kernel=3,3;num_filter=0", []*ndarray.NDArray{x, w, b}, mxerr.Value, "num_filter"},
		{"Convolution", "kernel=3,3;num_filter=6;num_group=3", []*ndarray.NDArray{x, w, b}, mxerr.Value, "divide"},
		{"Convolution", "kernel=3,3;num_filter=6;num_group=2;stride=0,1", []*ndarray.NDArray{x, w, b}, mxerr.Value, "stride"},
		{"Convolution", "kernel=3,3;num_filter=6;num_group=2;dilate=3,3", []*ndarray.NDArray{x, w, b}, mxerr.Value, "exceeds"},
		{"Convolution", "kernel=3,3;num_filter=6;num_group=2", []*ndarray.NDArray{x, w}, mxerr.Value, "expects 3 inputs"},
		{"Convolution", "kernel=3,3;num_filter=6;num_group=2;layout=NHWC", []*ndarray.NDArray{x, w, b}, mxerr.Value, "layout"},
		{"Convolution", "kernel=3,3,3,3;num_filter=6", []*ndarray.NDArray{x, w, b}, mxerr.Value, "not supported"},
		{"FullyConnected", "num_hidden=0", []*ndarray.NDArray{x, w, b}, mxerr.Value, "num_hidden"},
		{"FullyConnected", "num_hidden=6", []*ndarray.NDArray{x, w, b}, mxerr.Value, "weight"},
		{"Pooling", "kernel=2,2;pool_type=lp", []*ndarray.NDArray{x}, mxerr.Value, "p_value"},
		{"Pooling", "kernel=2,2;pooling_convention=same", []*ndarray.NDArray{x}, mxerr.Value, "same"},
		{"Pooling", "kernel=6,6", []*ndarray.NDArray{x}, mxerr.Value, "does not fit"},
		{"Pooling", "kernel=2,2", []*ndarray.NDArray{i32}, mxerr.Type, "dtype"},
		{"Embedding", "input_dim=0;output_dim=2", []*ndarray.NDArray{i32, b}, mxerr.Value, "input_dim"},
		{"LayerNorm", "axis=4", []*ndarray.NDArray{x, b, b}, mxerr.Value, "axis"},
		{"Dropout", "p=-0.5", []*ndarray.NDArray{x}, mxerr.Value, "p ="},
		{"LRN", "nsize=0", []*ndarray.NDArray{x}, mxerr.Value, "nsize"},
	} {
		_, err := runOp(t, c.op, c.in, nil, c.attrs)
		requireKind(t, err, c.kind, c.fragment)
	}
}

// output_mean_var gives MXNet's three results: BatchNorm's moving mean and 1/sqrt(var +
// eps) in the statistics' dtype, GroupNorm's mean and sqrt(var + eps) per (sample, group).
func TestNNOutputMeanVar(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float16, []float64{1, 2, 3, 4, 5, 6, 7, 9}, 1, 2, 4)
	m := fromValues(t, ndarray.Float32, []float64{0.5, -1}, 2)
	v := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	res := mustOps(t, "BatchNorm", "output_mean_var=1", x, m, m, m, v)
	require.Len(t, res, 3)
	assert.Equal(t, ndarray.Float16, res[0].DType())
	assert.Equal(t, []float64{0.5, -1}, values(t, res[1]))
	// float16 data: var + eps is rounded to float16 (2.001 to 2.00195): MXNet 1.9.1 gives these
	assert.InDeltaSlice(t, []float64{0.9995121, 0.7067618}, values(t, res[2]), 1e-7)
	_, err := runOp(t, "BatchNorm", []*ndarray.NDArray{x, m, m, m, v}, nil, "output_mean_var=1")
	requireKind(t, err, mxerr.Type, "returns 3 arrays")

	g := fromValues(t, ndarray.Float64, []float64{1, 1}, 2)
	x64 := fromValues(t, ndarray.Float64, []float64{1, 3, 5, 9, 0, 0, 2, 2}, 1, 4, 2)
	res = mustOps(t, "GroupNorm", "num_groups=2;output_mean_var=1", x64, g, g)
	require.Len(t, res, 3)
	assert.Equal(t, []int{1, 2}, res[1].Shape())
	assert.Equal(t, []float64{4.5, 1}, values(t, res[1]))
	eps := float64(float32(1e-5))
	assert.InDeltaSlice(t, []float64{math.Sqrt(8.75 + eps), math.Sqrt(1 + eps)}, values(t, res[2]), 1e-12)
	assert.Len(t, mustOps(t, "GroupNorm", "num_groups=2", x64, g, g), 1, "one result without output_mean_var")
}

func TestNNNormalisationsMatchLoops(t *testing.T) {
	checkLeaks(t)
	x, xv := nnRandom(t, ndarray.Float64, 9, 2, 3, 4)
	xs := nnStrided(t, ndarray.Float64, xv, 2, 3, 4)
	g, gv := nnRandom(t, ndarray.Float64, 10, 3)
	b, bv := nnRandom(t, ndarray.Float64, 11, 3)
	// InstanceNorm (float32 only in MXNet) via GroupNorm with one group per channel:
	// each (sample, channel) row of 4 normalised, then scaled by its channel's gamma.
	want := make([]float64, 0, 24)
	for r := range 6 {
		row := xv[r*4 : r*4+4]
		mean, v := 0.0, 0.0
		for _, e := range row {
			mean += e / 4
		}
		for _, e := range row {
			v += (e - mean) * (e - mean) / 4
		}
		for _, e := range row {
			want = append(want, (e-mean)/math.Sqrt(v+float64(float32(1e-5)))*gv[r%3]+bv[r%3])
		}
	}
	for _, in := range []*ndarray.NDArray{x, xs} {
		nnClose(t, mustOp(t, "GroupNorm", "num_groups=3", in, g, b), want, 1e-12, "GroupNorm")
	}
	// L2Normalization channel mode: each (sample, position) column over the 3 channels.
	got := mustOp(t, "L2Normalization", "mode=channel", xs)
	vals := values(t, got)
	for n := range 2 {
		for p := range 4 {
			norm := 0.0
			for c := range 3 {
				norm += xv[(n*3+c)*4+p] * xv[(n*3+c)*4+p]
			}
			for c := range 3 {
				i := (n*3+c)*4 + p
				assert.InDelta(t, xv[i]/math.Sqrt(norm+float64(float32(1e-10))), vals[i], 1e-12)
			}
		}
	}
}

// nnDeconvRef scatters each input element times the weight taps into the output.
func nnDeconvRef(x, w, b []float64, n, c, f, g int, in, k, s, d, p, out [3]int) []float64 {
	cg, fg := c/g, f/g
	vol := out[0] * out[1] * out[2]
	res := make([]float64, n*f*vol)
	for ni := range n {
		for fi := range f {
			for i := range vol {
				if b != nil {
					res[(ni*f+fi)*vol+i] = b[fi]
				}
			}
		}
		for ci := range c {
			gi := ci / cg
			for i0 := range in[0] {
				for i1 := range in[1] {
					for i2 := range in[2] {
						xv := x[(((ni*c+ci)*in[0]+i0)*in[1]+i1)*in[2]+i2]
						for fj := range fg {
							for k0 := range k[0] {
								for k1 := range k[1] {
									for k2 := range k[2] {
										o0, o1, o2 := i0*s[0]-p[0]+k0*d[0], i1*s[1]-p[1]+k1*d[1], i2*s[2]-p[2]+k2*d[2]
										if o0 < 0 || o1 < 0 || o2 < 0 || o0 >= out[0] || o1 >= out[1] || o2 >= out[2] {
											continue
										}
										wv := w[(((ci*fg+fj)*k[0]+k0)*k[1]+k1)*k[2]+k2]
										res[(ni*f+gi*fg+fj)*vol+(o0*out[1]+o1)*out[2]+o2] += xv * wv
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return res
}

func TestNNDeconvolutionMatchesScatterLoops(t *testing.T) {
	checkLeaks(t)
	for _, c := range []struct {
		n, c, f, g     int
		in, k, s, d, p []int
		attrs          string
		out            []int
	}{
		{2, 4, 3, 1, []int{3, 3}, []int{2, 2}, nil, nil, nil, "", []int{4, 4}},
		{2, 4, 3, 1, []int{3, 3}, []int{2, 2}, []int{2, 2}, nil, []int{1, 1}, ";adj=1,0", []int{5, 4}},
		{2, 4, 3, 1, []int{3, 3}, []int{2, 2}, []int{2, 2}, nil, []int{1, 1}, ";target_shape=5,5", []int{5, 5}},
		{3, 4, 6, 2, []int{4, 3}, []int{3, 2}, []int{1, 2}, []int{2, 1}, []int{0, 1}, "", []int{8, 4}},
		{2, 3, 2, 1, []int{5}, []int{3}, []int{3}, nil, nil, "", []int{15}},
		{1, 2, 2, 1, []int{2, 3, 2}, []int{2, 2, 3}, []int{2, 1, 1}, nil, nil, "", []int{4, 4, 4}},
	} {
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			what := fmt.Sprint("Deconvolution ", c, " ", dt)
			xshape := append([]int{c.n, c.c}, c.in...)
			_, xv := nnRandom(t, dt, 11, xshape...)
			x := nnStrided(t, dt, xv, xshape...)
			w, wv := nnRandom(t, dt, 12, append([]int{c.c, c.f / c.g}, c.k...)...)
			b, bv := nnRandom(t, dt, 13, c.f)
			attrs := fmt.Sprintf("kernel=%s;num_filter=%d;num_group=%d;no_bias=0", joinInts(c.k), c.f, c.g) +
				nnAttrList("stride", c.s) + nnAttrList("dilate", c.d) + nnAttrList("pad", c.p) + c.attrs
			got := mustOp(t, "Deconvolution", attrs, x, w, b)
			require.Equal(t, append([]int{c.n, c.f}, c.out...), ints(got.Shape()), what)
			want := nnDeconvRef(xv, wv, bv, c.n, c.c, c.f, c.g, pad3(c.in, 1), pad3(c.k, 1), pad3(c.s, 1), pad3(c.d, 1),
				pad3(c.p, 0), pad3(c.out, 1))
			nnClose(t, got, want, map[ndarray.DType]float64{ndarray.Float32: 1e-5, ndarray.Float64: 1e-12}[dt], what)
		}
	}
}

// TestNNCol2imIsAdjointOfIm2col checks <im2col(x), y> == <x, col2im(y)> for random x, y.
func TestNNCol2imIsAdjointOfIm2col(t *testing.T) {
	checkLeaks(t)
	attrs := "kernel=3,2;stride=2,1;dilate=1,2;pad=1,1"
	x, xv := nnRandom(t, ndarray.Float64, 14, 2, 3, 6, 5)
	cols := mustOp(t, "im2col", attrs, x)
	require.Equal(t, []int{2, 18, 15}, ints(cols.Shape()))
	y, yv := nnRandom(t, ndarray.Float64, 15, 2, 18, 15)
	back := mustOp(t, "col2im", attrs+";output_size=6,5", y)
	require.Equal(t, []int{2, 3, 6, 5}, ints(back.Shape()))
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	assert.InDelta(t, dot(values(t, cols), yv), dot(xv, values(t, back)), 1e-9)
}
