package nn

import (
	"math"

	"github.com/mxgo/mxgo/internal/simd"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"
)

// BatchNorm's gradient with batch statistics in two fused passes instead of some twenty
// whole-array operators (mean, subtract, multiply, rsqrt, ... and the moving statistics'
// own mean and variance: a tenth of a ResNet step). _backward_BatchNorm_stats sums per
// channel (in float64), _backward_BatchNorm_data applies
// dx = gamma*inv*(g - sum(g)/n - xhat*sum(g*xhat)/n). Neither has a gradient (as MXNet's
// _backward_BatchNorm). The sums run in another order than the composed operators', so
// the results agree to rounding, not bits.

func init() {
	axis := ops.Param{Name: "axis", Kind: ops.ParamInt, Default: "1", Doc: "the channel axis"}
	eps := ops.Param{Name: "eps", Kind: ops.ParamFloat, Default: "0.001", Doc: "added to the variance"}
	ops.Register(&ops.Op{
		Name: "_backward_BatchNorm_stats",
		Doc: "Per channel of data: the batch mean, the biased variance, sum(out_grad) and sum(out_grad*xhat), " +
			"as a (4, channels) array. Internal: BatchNorm's gradient in training calls it.",
		Category: ops.General, Inputs: []string{"data", "out_grad"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{axis, eps},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, c, _, err := bnGradDims("_backward_BatchNorm_stats", in, at)
			return []int{4, c}, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			outer, c, inner, err := bnGradDims("_backward_BatchNorm_stats", in, at)
			if err != nil {
				return err
			}
			eps := nnEps(at)
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { bnGradStats(x[0], x[1], y, outer, c, inner, eps) },
				func(x [][]float64, y []float64) { bnGradStats(x[0], x[1], y, outer, c, inner, eps) })
		},
	})
	ops.Register(&ops.Op{
		Name: "_backward_BatchNorm_data",
		Doc: "The gradient of BatchNorm's data in training from data, out_grad, the (4, channels) statistics of " +
			"_backward_BatchNorm_stats and gamma. Internal: BatchNorm's gradient calls it.",
		Category: ops.General, Inputs: []string{"data", "out_grad", "stats", "gamma"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{axis, eps, {Name: "fix_gamma", Kind: ops.ParamBool, Default: "1", Doc: "take gamma as 1"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, _, _, err := bnGradDims("_backward_BatchNorm_data", in, at)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			outer, c, inner, err := bnGradDims("_backward_BatchNorm_data", in, at)
			if err != nil {
				return err
			}
			eps, fix := nnEps(at), at.Bool("fix_gamma")
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { bnGradData(x, y, outer, c, inner, eps, fix) },
				func(x [][]float64, y []float64) { bnGradData(x, y, outer, c, inner, eps, fix) })
		},
	})
}

// bnGradDims checks data and out_grad (one shape and dtype) and, when given, the
// statistics (4, channels) and gamma (channels,).
func bnGradDims(op string, in []*ndarray.NDArray, at ops.Attrs) (outer, c, inner int, err error) {
	if err := nnArity(op, in, len(in)); err != nil {
		return 0, 0, 0, err
	}
	x := in[0]
	axis, err := nnAxis(op, at.Int("axis"), x.NDim())
	if err != nil {
		return 0, 0, 0, err
	}
	if err := nnCheckShape(op, "out_grad", in[1].Shape(), x.Shape()); err != nil {
		return 0, 0, 0, err
	}
	outer, c, inner = nnAxisDims(x.Shape(), axis)
	if len(in) == 4 {
		if err := nnCheckShape(op, "stats", in[2].Shape(), []int{4, c}); err != nil {
			return 0, 0, 0, err
		}
		if err := nnCheckShape(op, "gamma", in[3].Shape(), []int{c}); err != nil {
			return 0, 0, 0, err
		}
	}
	if outer*inner == 0 {
		return 0, 0, 0, mxerr.ValueErr("%s: data of shape %v has no element per channel", op, x.Shape())
	}
	return outer, c, inner, nil
}

// bnGradStats writes, for each channel j, y[j] = mean, y[c+j] = biased variance,
// y[2c+j] = sum(g), y[3c+j] = sum(g*xhat) with xhat = (x-mean)/sqrt(var+eps).
func bnGradStats[T nnFloat](x, g, y []T, outer, c, inner int, eps float64) {
	if xs, ok := any(x).([]float32); ok && simd.BNGradStats(xs, any(g).([]float32), outer, c, inner, eps,
		any(y).([]float32), gemm.PoolTasks(c, 3*outer*inner)) {
		return
	}
	n := float64(outer * inner)
	nnParallel(c, 3*outer*inner, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			var s float64
			for o := range outer {
				s += nnSum16(x[(o*c+j)*inner : (o*c+j+1)*inner])
			}
			m := s / n
			var sums [3]float64 // of (x-m)^2, g, g*(x-m)
			for o := range outer {
				bnGradSums(x[(o*c+j)*inner:(o*c+j+1)*inner], g[(o*c+j)*inner:(o*c+j+1)*inner], m, &sums)
			}
			q, sg, sgx := sums[0], sums[1], sums[2]
			v := q / n
			y[j], y[c+j], y[2*c+j], y[3*c+j] = T(m), T(v), T(sg), T(sgx/math.Sqrt(v+eps))
		}
	})
}

// bnGradSums adds to out the sums of (x-m)^2, g and g*(x-m) over a row, in float64 in
// eight running sums each (element i to sum i % 8 up to the last multiple of 8, combined
// as fold16's last steps, then the tail in order): three chains of dependent adds ran at
// a quarter of the speed. Float32 rows of simd.MomentsMin or more run in C, same bits.
func bnGradSums[T nnFloat](x, g []T, m float64, out *[3]float64) {
	if xr, ok := any(x).([]float32); ok && simd.BNSums(xr, any(g).([]float32), m, out) {
		return
	}
	var q, s, p [8]float64
	g = g[:len(x)]
	i := 0
	for ; i+8 <= len(x); i += 8 {
		for k := range 8 {
			d, gv := float64(x[i+k])-m, float64(g[i+k])
			q[k] += d * d
			s[k] += gv
			p[k] += gv * d
		}
	}
	t := [3]float64{fold8(&q), fold8(&s), fold8(&p)}
	for ; i < len(x); i++ {
		d, gv := float64(x[i])-m, float64(g[i])
		t[0] += d * d
		t[1] += gv
		t[2] += gv * d
	}
	for k := range out {
		out[k] += t[k]
	}
}

// fold8 combines eight running sums as C does.
func fold8(s *[8]float64) float64 {
	return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
}

// bnGradData writes dx = gamma*inv*(g - sum(g)/n - xhat*sum(g*xhat)/n) per channel, x =
// data, out_grad, stats, gamma.
func bnGradData[T nnFloat](x [][]T, dx []T, outer, c, inner int, eps float64, fixGamma bool) {
	data, g, st := x[0], x[1], x[2]
	if xs, ok := any(x).([][]float32); ok {
		var gamma []float32
		if !fixGamma {
			gamma = xs[3]
		}
		if simd.BNGradData(xs[0], xs[1], xs[2], gamma, any(dx).([]float32), outer, c, inner, eps, fixGamma,
			gemm.PoolTasks(outer*c, 2*inner)) {
			return
		}
	}
	n := float64(outer * inner)
	nnParallel(outer*c, 2*inner, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			j := r % c
			inv := 1 / math.Sqrt(float64(st[c+j])+eps)
			scale := inv
			if !fixGamma {
				scale *= float64(x[3][j])
			}
			m, mg, mgx := T(st[j]), T(float64(st[2*c+j])/n), T(float64(st[3*c+j])/n)
			a, ti := T(scale), T(inv)
			xs, gs, out := data[r*inner:(r+1)*inner], g[r*inner:(r+1)*inner], dx[r*inner:(r+1)*inner]
			gs, out = gs[:len(xs)], out[:len(xs)]
			for i, v := range xs {
				out[i] = a * (gs[i] - mg - (v-m)*ti*mgx)
			}
		}
	})
}
