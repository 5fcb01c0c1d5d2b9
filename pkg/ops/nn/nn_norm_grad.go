package nn

import (
	"strconv"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"
)

// BatchNorm in training, and the gradients of the normalisations. MXNet 1.9.1's facts
// (checked against it): in training mode (autograd.record() or train_mode()) BatchNorm
// normalises with the batch's mean and biased variance, unless use_global_stats; it
// updates moving_mean and moving_var (moving*momentum + batch*(1-momentum), the biased
// variance) in its backward pass, not in the forward: a forward in training mode without
// a backward leaves them alone. With fix_gamma (the default) gamma's gradient is 0; the
// moving statistics get none.

// bnStats is the batch's mean and biased variance over each channel: what BatchNorm
// normalises with in training mode.
func bnStats[T nnFloat](data []T, outer, c, inner int) (mean, variance []float64) {
	mean, variance = make([]float64, c), make([]float64, c)
	if d, ok := any(data).([]float32); ok && simd.BNStats(d, outer, c, inner, mean, variance, gemm.PoolTasks(c, 2*outer*inner)) {
		return mean, variance
	}
	n := float64(outer * inner)
	nnParallel(c, 2*outer*inner, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			var s, q float64
			for o := range outer {
				s += nnSum16(data[(o*c+j)*inner : (o*c+j+1)*inner])
			}
			m := s / n
			for o := range outer {
				q += nnSqDev16(data[(o*c+j)*inner:(o*c+j+1)*inner], m)
			}
			mean[j], variance[j] = m, q/n
		}
	})
	return mean, variance
}

// batchNormTrains reports whether a BatchNorm call uses the batch's statistics.
func batchNormTrains(at ops.Attrs) bool { return ops.Training(at) && !at.Bool("use_global_stats") }

// normAxes are the axes of an array of ndim axes other than keep, in wire form.
func normAxes(ndim int, keep ...int) string {
	var axes []int
	for i := range ndim {
		if !contains(keep, i) {
			axes = append(axes, i)
		}
	}
	return "axis=" + ops.WireInts(axes) + ";keepdims=1"
}

func contains(v []int, x int) bool {
	for _, e := range v {
		if e == x {
			return true
		}
	}
	return false
}

// normCore computes, for a normalisation of x over axes (wire form, keepdims) with
// statistics mean and var (nil: the batch's) and scale gamma (nil: 1), both broadcast
// against x: xhat, and, with h = g*gamma, dx = inv*(h - mean(h) - xhat*mean(h*xhat))
// with batch statistics, or inv*h with given ones.
func normCore(s *ops.GradCalls, x, g, gamma, mean, variance *ndarray.NDArray, axes string, eps float64, batch bool) (xhat, dx *ndarray.NDArray) {
	if batch {
		mean = s.Call("mean", axes, x)
	}
	xc := s.Call("subtract", "", x, mean)
	if batch {
		variance = s.Call("mean", axes, s.Call("multiply", "", xc, xc))
	}
	inv := s.Call("rsqrt", "", s.Call("_add_scalar", nnScalar(eps), variance))
	xhat = s.Call("multiply", "", xc, inv)
	h := g
	if gamma != nil {
		h = s.Call("multiply", "", g, gamma)
	}
	if !batch {
		return xhat, s.Call("multiply", "", h, inv)
	}
	hx := s.Call("mean", axes, s.Call("multiply", "", h, xhat))
	centred := s.Call("subtract", "", s.Call("subtract", "", h, s.Call("mean", axes, h)), s.Call("multiply", "", xhat, hx))
	return xhat, s.Call("multiply", "", centred, inv)
}

// asDType casts a to dt when it has another dtype (BatchNorm's float32 parameters of
// float16 data).
func asDType(s *ops.GradCalls, a *ndarray.NDArray, dt ndarray.DType) *ndarray.NDArray {
	if a == nil || a.DType() == dt {
		return a
	}
	return s.Call("cast", "dtype="+dt.String(), a)
}

var batchNormGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	x, g, at := c.In[0], c.OutGrad[0], c.Attrs
	nd := len(c.Shapes[0])
	axis, err := nnAxis("BatchNorm", at.Int("axis"), nd)
	if err != nil {
		return nil, err
	}
	ch := c.Shapes[0][axis]
	if batchNormTrains(at) {
		return batchNormTrainGrad(s, c, axis, ch)
	}
	bshape := make([]int, nd)
	for i := range bshape {
		bshape[i] = 1
	}
	bshape[axis] = ch
	param := func(a *ndarray.NDArray) *ndarray.NDArray { // (C,) as bshape, in x's dtype
		return asDType(s, s.Call("reshape", "shape="+ops.WireInts(bshape), a), x.DType())
	}
	var gamma *ndarray.NDArray
	if !at.Bool("fix_gamma") {
		gamma = param(c.In[1])
	}
	axes := normAxes(nd, axis)
	xhat, dx := normCore(s, x, g, gamma, param(c.In[3]), param(c.In[4]), axes, nnEps(at), false)
	sum := func(a *ndarray.NDArray) *ndarray.NDArray { // over axes, as (C,) in the parameters' dtype
		return asDType(s, s.Call("reshape", "shape="+strconv.Itoa(ch), s.Call("sum", axes, a)), c.DTypes[1])
	}
	var dgamma *ndarray.NDArray
	if !at.Bool("fix_gamma") && c.Need[1] {
		dgamma = sum(s.Call("multiply", "", g, xhat))
	}
	return s.Done(dx, dgamma, sum(g), nil, nil)
}}

// batchNormTrainGrad is BatchNorm's gradient with batch statistics, by the fused
// kernels: the statistics' rows give dbeta, dgamma and the moving statistics' update.
func batchNormTrainGrad(s *ops.GradCalls, c *ops.GradCtx, axis, ch int) ([]*ndarray.NDArray, error) {
	at := c.Attrs
	window := "axis=" + strconv.Itoa(axis) + ";eps=" + strconv.FormatFloat(nnEps(at), 'g', -1, 64)
	x, g := c.In[0], c.OutGrad[0]
	stats := s.Call("_backward_BatchNorm_stats", window, x, g)
	row := func(i int) *ndarray.NDArray { // (C,) in the parameters' dtype
		r := s.Call("slice_axis", "axis=0;begin="+strconv.Itoa(i)+";end="+strconv.Itoa(i+1), stats)
		return asDType(s, s.Call("reshape", "shape="+strconv.Itoa(ch), r), c.DTypes[1])
	}
	dx := s.Call("_backward_BatchNorm_data", window+";fix_gamma="+strconv.FormatBool(at.Bool("fix_gamma")), x, g, stats, c.In[1])
	var dgamma *ndarray.NDArray
	if !at.Bool("fix_gamma") && c.Need[1] {
		dgamma = row(3)
	}
	dbeta := row(2)
	updateMoving(s, c, row(0), row(1))
	return s.Done(dx, dgamma, dbeta, nil, nil)
}

// updateMoving updates moving_mean and moving_var in place with the batch's statistics
// (channels,): a side effect of the backward pass, as MXNet's (not recorded, not a
// gradient).
func updateMoving(s *ops.GradCalls, c *ops.GradCtx, mean, variance *ndarray.NDArray) {
	mom := float64(float32(c.Attrs.Float("momentum"))) // MXNet's float parameter, for float64 too
	for i, stat := range []*ndarray.NDArray{mean, variance} {
		moving := c.In[3+i]
		batch := asDType(s, stat, moving.DType())
		next := s.Call("add", "", s.Call("_multiply_scalar", nnScalar(mom), moving), s.Call("_multiply_scalar", nnScalar(1-mom), batch))
		if next != nil {
			if err := ops.Copy(moving, next); err != nil {
				s.Fail(err)
			}
		}
	}
}

// layerNormGrad: LayerNorm normalises along axis with the statistics of each position;
// gamma and beta (that axis' length) get the sums of g*xhat and g over the other axes.
var layerNormGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	nd := len(c.Shapes[0])
	axis, err := nnAxis("LayerNorm", c.Attrs.Int("axis"), nd)
	if err != nil {
		return nil, err
	}
	if axis == nd-1 && c.Shapes[0][axis] > 0 {
		return layerNormLastGrad(c) // nn_norm_lngrad.go
	}
	return affineNormGrad(c, normAxes(nd, otherAxes(nd, axis)...), axis)
}}

// instanceNormGrad: InstanceNorm normalises each (sample, channel) over the spatial axes;
// gamma and beta are per channel.
var instanceNormGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	return affineNormGrad(c, normAxes(len(c.Shapes[0]), 0, 1), 1)
}}

func otherAxes(nd, axis int) []int {
	var out []int
	for i := range nd {
		if i != axis {
			out = append(out, i)
		}
	}
	return out
}

// affineNormGrad is the gradient of (x - mean)/sqrt(var + eps)*gamma + beta with batch
// statistics over axes (wire form) and gamma, beta along paramAxis.
func affineNormGrad(c *ops.GradCtx, axes string, paramAxis int) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	nd := len(c.Shapes[0])
	n := c.Shapes[0][paramAxis]
	bshape := make([]int, nd)
	for i := range bshape {
		bshape[i] = 1
	}
	bshape[paramAxis] = n
	gamma := s.Call("reshape", "shape="+ops.WireInts(bshape), c.In[1])
	xhat, dx := normCore(s, c.In[0], c.OutGrad[0], gamma, nil, nil, axes, nnEps(c.Attrs), true)
	rest := normAxes(nd, paramAxis)
	sum := func(a *ndarray.NDArray) *ndarray.NDArray {
		return s.Call("reshape", "shape="+strconv.Itoa(n), s.Call("sum", rest, a))
	}
	return s.Done(dx, sum(s.Call("multiply", "", c.OutGrad[0], xhat)), sum(c.OutGrad[0]))
}

// groupNormGrad: GroupNorm normalises each group of channels of each sample, seen as
// (batch, num_groups, rest), and scales and shifts by gamma and beta, one value per group
// (MXNet 1.9.1's shape (num_groups,)).
var groupNormGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	ds, groups := c.Shapes[0], c.Attrs.Int("num_groups")
	size, _ := ndarray.Size(ds)
	as3 := "shape=" + ops.WireInts([]int{ds[0], groups, size / max(ds[0]*groups, 1)})
	x, g := s.Call("reshape", as3, c.In[0]), s.Call("reshape", as3, c.OutGrad[0])
	gamma := s.Call("reshape", "shape="+ops.WireInts([]int{1, groups, 1}), c.In[1])
	xhat, dx := normCore(s, x, g, gamma, nil, nil, "axis=2;keepdims=1", nnEps(c.Attrs), true)
	sum := func(a *ndarray.NDArray) *ndarray.NDArray { return s.Call("sum", "axis=0,2", a) }
	return s.Done(s.Call("reshape", "shape="+ops.WireInts(ds), dx), sum(s.Call("multiply", "", g, xhat)), sum(g))
}}
