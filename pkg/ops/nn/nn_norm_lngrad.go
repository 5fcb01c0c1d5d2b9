package nn

import (
	"math"
	"strconv"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// LayerNorm's gradient along the last axis (BERT's and every transformer's) in fused
// row passes instead of some fifteen whole-array operators: _backward_LayerNorm_data
// writes dx = inv*(h - mean(h) - xhat*mean(h*xhat)) with h = g*gamma, and
// _backward_LayerNorm_params the sums over the rows of g*xhat and g (dgamma, dbeta), each
// recomputing the rows' statistics as the forward does (nnMoments). Sums in float64; the
// parameters' sums go by blocks of lnBlock rows, added in block order, so the result does
// not depend on the number of cores. Neither has a gradient (as MXNet's backward nodes).

const lnBlock = 64

func init() {
	ops.Register(lnGradOp("_backward_LayerNorm_data", "The gradient of LayerNorm's data along the last axis from "+
		"data, gamma and out_grad. Internal: LayerNorm's gradient calls it.",
		func(in []*ndarray.NDArray, _ int) []int { return in[0].Shape() }, lnGradData[float32], lnGradData[float64]))
	ops.Register(lnGradOp("_backward_LayerNorm_params", "The sums over the rows of data (along its last axis) of "+
		"out_grad*xhat and out_grad, as a (2, n) array: the gradients of LayerNorm's gamma and beta. Internal: "+
		"LayerNorm's gradient calls it.",
		func(_ []*ndarray.NDArray, n int) []int { return []int{2, n} }, lnGradParams[float32], lnGradParams[float64]))
}

// lnGradOp is one of the two operators: inputs data, gamma and out_grad, result shape
// shape(in, n), kernels f32 and f64.
func lnGradOp(name, doc string, shape func(in []*ndarray.NDArray, n int) []int,
	f32 func([][]float32, []float32, int, float64), f64 func([][]float64, []float64, int, float64)) *ops.Op {
	return &ops.Op{
		Name: name, Doc: doc, Category: ops.General, Inputs: []string{"data", "gamma", "out_grad"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{{Name: "eps", Kind: ops.ParamFloat, Default: "1e-05", Doc: "added to the variance"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			n, err := lnGradDims(name, in)
			return shape(in, n), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			n, err := lnGradDims(name, in)
			if err != nil {
				return err
			}
			eps := nnEps(at)
			return nnCompute(in, out[0], func(x [][]float32, y []float32) { f32(x, y, n, eps) },
				func(x [][]float64, y []float64) { f64(x, y, n, eps) })
		},
	}
}

// lnGradDims checks data, gamma (the last axis' length n) and out_grad (data's shape),
// all of one dtype, and returns n.
func lnGradDims(op string, in []*ndarray.NDArray) (int, error) {
	if err := nnArity(op, in, 3); err != nil {
		return 0, err
	}
	if err := nnSameDType(op, in, []string{"data", "gamma", "out_grad"}); err != nil {
		return 0, err
	}
	ds := in[0].Shape()
	if len(ds) == 0 || ds[len(ds)-1] == 0 {
		return 0, mxerr.ValueErr("%s: data of shape %v has no last axis to normalise", op, ds)
	}
	n := ds[len(ds)-1]
	if err := nnCheckShape(op, "gamma", in[1].Shape(), []int{n}); err != nil {
		return 0, err
	}
	return n, nnCheckShape(op, "out_grad", in[2].Shape(), ds)
}

// lnRowStats are a row's mean and 1/sqrt(var + eps), as the forward computes them.
func lnRowStats[T nnFloat](row []T, eps float64) (mean, inv float64) {
	m, v := nnMoments(row, 0, len(row), 1)
	return m, 1 / math.Sqrt(v+eps)
}

// lnGradData writes dx from x = data, gamma, out_grad, row by row.
func lnGradData[T nnFloat](x [][]T, dx []T, n int, eps float64) {
	data, gamma, g := x[0], x[1][:n], x[2]
	nnParallel(len(data)/n, 4*n, func(lo, hi int) {
		if o, ok := any(dx).([]float32); ok && simd.LNGradRows(o[lo*n:hi*n], any(data[lo*n:hi*n]).([]float32),
			any(g[lo*n:hi*n]).([]float32), any(gamma).([]float32), n, eps) {
			return
		}
		for r := lo; r < hi; r++ {
			xs := data[r*n : (r+1)*n]
			m, inv := lnRowStats(xs, eps)
			lnGradRow(dx[r*n:(r+1)*n], xs, g[r*n:(r+1)*n], gamma, m, inv)
		}
	})
}

// lnGradRow writes out = inv*((h - mean(h)) - (x-m)*mean(h*(x-m))*inv^2), h = g*gamma, the
// sums in float64 in eight running sums each (bnGradSums' order); the Go twin of
// simd.LNGradRows' rows, same bits.
func lnGradRow[T nnFloat](out, x, g, gamma []T, m, inv float64) {
	n := len(x)
	g, gamma, out = g[:n], gamma[:n], out[:n]
	var s, p [8]float64
	i := 0
	for ; i+8 <= n; i += 8 {
		for k := range 8 {
			h := float64(g[i+k]) * float64(gamma[i+k])
			s[k] += h
			p[k] += h * (float64(x[i+k]) - m)
		}
	}
	sh, shx := fold8(&s), fold8(&p)
	for ; i < n; i++ {
		h := float64(g[i]) * float64(gamma[i])
		sh += h
		shx += h * (float64(x[i]) - m)
	}
	mh, mhx := sh/float64(n), shx*inv*inv/float64(n)
	for j, e := range x {
		h := float64(g[j]) * float64(gamma[j])
		out[j] = T(inv * ((h - mh) - (float64(e)-m)*mhx))
	}
}

// lnGradParams writes y[j] = sum over rows of g*xhat and y[n+j] = sum of g from x = data,
// gamma (unused), out_grad: by blocks of lnBlock rows, then the blocks in order.
func lnGradParams[T nnFloat](x [][]T, y []T, n int, eps float64) {
	data, g := x[0], x[2]
	rows := len(data) / n
	blocks := (rows + lnBlock - 1) / lnBlock
	part := make([]float64, blocks*2*n)
	nnParallel(blocks, lnBlock*3*n, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			dg, db := part[2*b*n:(2*b+1)*n], part[(2*b+1)*n:(2*b+2)*n]
			r0, r1 := b*lnBlock, min(rows, (b+1)*lnBlock)
			if xr, ok := any(data[r0*n : r1*n]).([]float32); ok && simd.LNParamsRows(dg, db, xr, any(g[r0*n:r1*n]).([]float32), n, eps) {
				continue
			}
			for r := r0; r < r1; r++ {
				xs, gs := data[r*n:(r+1)*n], g[r*n:(r+1)*n]
				m, inv := lnRowStats(xs, eps)
				for j, e := range xs {
					gv := float64(gs[j])
					dg[j] += gv * ((float64(e) - m) * inv)
					db[j] += gv
				}
			}
		}
	})
	nnParallel(n, 2*blocks, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			var sg, sb float64
			for b := range blocks {
				sg += part[2*b*n+j]
				sb += part[(2*b+1)*n+j]
			}
			y[j], y[n+j] = T(sg), T(sb)
		}
	})
}

// layerNormLastGrad is LayerNorm's gradient along the last axis, by the fused kernels.
func layerNormLastGrad(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	at := "eps=" + strconv.FormatFloat(nnEps(c.Attrs), 'g', -1, 64)
	x, gamma, g := c.In[0], c.In[1], c.OutGrad[0]
	dx := s.Call("_backward_LayerNorm_data", at, x, gamma, g)
	var dgamma, dbeta *ndarray.NDArray
	if c.Need[1] || c.Need[2] {
		p, n := s.Call("_backward_LayerNorm_params", at, x, gamma, g), strconv.Itoa(c.Shapes[1][0])
		row := func(i int) *ndarray.NDArray {
			return s.Call("reshape", "shape="+n, s.Call("slice_axis", "axis=0;begin="+strconv.Itoa(i)+";end="+strconv.Itoa(i+1), p))
		}
		dgamma, dbeta = row(0), row(1)
	}
	return s.Done(dx, dgamma, dbeta)
}
