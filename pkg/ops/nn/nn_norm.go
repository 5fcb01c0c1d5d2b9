package nn

import (
	"math"
	"slices"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's normalisation layers: BatchNorm (moving statistics; batch statistics in
// training, nn_norm_grad.go), LayerNorm,
// InstanceNorm, GroupNorm, L2Normalization and LRN. Each sees its data as (outer, n,
// inner) in C order and works on the n elements at stride inner of each (outer,
// inner) pair, with statistics accumulated in float64.

func init() {
	ops.Register(&ops.Op{
		Name: "BatchNorm",
		Doc: "Batch normalisation, as MXNet's nd.BatchNorm: " +
			"out = (data - moving_mean) / sqrt(moving_var + eps) * gamma + beta along the channel axis; in training " +
			"mode (unless use_global_stats) the batch's mean and biased variance replace the moving ones, which " +
			"backward then updates in place with momentum (nn_norm_grad.go).\n\n" +
			"The arrays are data, gamma, beta, moving_mean and moving_var, the last four of shape (channels,). " +
			"fix_gamma (the default) uses 1 for gamma. float16, float32 and float64 data; the other arrays are " +
			"float32 (float64 for float64 data). output_mean_var=True returns [out, mean, inv_std] as MXNet does: " +
			"the statistics used (in inference moving_mean and 1/sqrt(moving_var + eps)), in the dtype of those arrays.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta", "moving_mean", "moving_var"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "eps", Kind: ops.ParamFloat, Default: "0.001", Doc: "added to the variance"},
			{Name: "momentum", Kind: ops.ParamFloat, Default: "0.9", Doc: "the moving averages' momentum (training only)"},
			{Name: "fix_gamma", Kind: ops.ParamBool, Default: "1", Doc: "use 1 for gamma"},
			{Name: "use_global_stats", Kind: ops.ParamBool, Default: "0", Doc: "use the moving statistics (always, in inference)"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and inv_std"},
			{Name: "axis", Kind: ops.ParamInt, Default: "1", Doc: "the channel axis"},
			{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			_, c, _, err := batchNormDims(in, at)
			return withMeanVar(in[0], at, []int{c}, in[3].DType()), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			outer, c, inner, err := batchNormDims(in, at)
			if err != nil {
				return err
			}
			eps, fix, dt := nnEps(at), at.Bool("fix_gamma"), in[0].DType()
			var mean, invstd []float64
			stats := func(batch func() ([]float64, []float64)) { // the batch's in training, else the moving ones
				var variance []float64
				if batchNormTrains(at) {
					mean, variance = batch()
				} else {
					mean, variance = ops.IndexValues(in[3]), ops.IndexValues(in[4])
				}
				invstd = make([]float64, c)
				for j, v := range variance {
					invstd[j] = bnInvStd(v, eps, dt)
				}
			}
			err = nnCompute(in, out[0],
				func(x [][]float32, y []float32) {
					stats(func() ([]float64, []float64) { return bnStats(x[0], outer, c, inner) })
					nnBatchNorm(x, y, outer, c, inner, mean, invstd, fix)
				},
				func(x [][]float64, y []float64) {
					stats(func() ([]float64, []float64) { return bnStats(x[0], outer, c, inner) })
					nnBatchNorm(x, y, outer, c, inner, mean, invstd, fix)
				})
			if err != nil || len(out) == 1 {
				return err
			}
			writeFloats(out[1], mean)
			writeFloats(out[2], invstd)
			return nil
		},
		Grad:       batchNormGrad,
		TrainAware: true,
	})
	ops.Register(&ops.Op{
		Name: "LayerNorm",
		Doc: "Layer normalisation, as MXNet's LayerNorm: normalises data along axis (the last by default) to " +
			"mean 0 and variance 1, then scales by gamma and shifts by beta (both of that axis' length). " +
			"float16, float32 and float64, all arrays of one dtype. output_mean_var=True returns [out, mean, std] as " +
			"MXNet does: data's shape with 1 on axis, std = sqrt(var + eps), in data's dtype.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamInt, Default: "-1", Doc: "the axis to normalise"},
			{Name: "eps", Kind: ops.ParamFloat, Default: "1e-05", Doc: "added to the variance"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and std"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			axis, _, err := layerNormSpec(in, at)
			stat := slices.Clone(in[0].Shape())
			if err == nil {
				stat[axis] = 1 // MXNet keeps the axis
			}
			return withMeanVar(in[0], at, stat, in[0].DType()), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			_, s, err := layerNormSpec(in, at)
			if err != nil {
				return err
			}
			return normKernel(in, out, s)
		},
		Grad: layerNormGrad,
	})
	ops.Register(&ops.Op{
		Name: "InstanceNorm",
		Doc: "Instance normalisation, as MXNet's InstanceNorm: normalises each channel of each sample of data " +
			"(batch, channel, spatial...) over its spatial axes, then scales by gamma and shifts by beta (shape " +
			"(channel,)). float32 only, as MXNet's.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta"}, DTypes: []ndarray.DType{ndarray.Float32},
		Params: []ops.Param{{Name: "eps", Kind: ops.ParamFloat, Default: "0.001", Doc: "added to the variance"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := groupNormSpec("InstanceNorm", in, 0, 0)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := groupNormSpec("InstanceNorm", in, 0, nnEps(at))
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { nnNormalize(x, y, s) },
				func(x [][]float64, y []float64) { nnNormalize(x, y, s) })
		},
		Grad: instanceNormGrad,
	})
	ops.Register(&ops.Op{
		Name: "GroupNorm",
		Doc: "Group normalisation, as MXNet's GroupNorm: splits the channels of data (batch, channel, " +
			"spatial...) into num_groups groups, normalises each group of each sample, then scales by gamma and " +
			"shifts by beta, which have one value per group (shape (num_groups,)) as in MXNet 1.9. float16, " +
			"float32 and float64, all arrays of one dtype. output_mean_var=True returns [out, mean, std] as MXNet " +
			"does: shape (batch, num_groups), std = sqrt(var + eps), in data's dtype.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "num_groups", Kind: ops.ParamInt, Default: "1", Doc: "the number of channel groups"},
			{Name: "eps", Kind: ops.ParamFloat, Default: "1e-05", Doc: "added to the variance"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and std"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			_, err := groupNormSpec("GroupNorm", in, at.Int("num_groups"), 0)
			stat := []int{0, at.Int("num_groups")}
			if err == nil {
				stat[0] = in[0].Shape()[0]
			}
			return withMeanVar(in[0], at, stat, in[0].DType()), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := groupNormSpec("GroupNorm", in, at.Int("num_groups"), nnEps(at))
			if err != nil {
				return err
			}
			return normKernel(in, out, s)
		},
		Grad: groupNormGrad,
	})
}

// withMeanVar is the results of a normalisation of x: x's shape and dtype, and with
// output_mean_var two statistics of the given shape and dtype, as MXNet returns them.
func withMeanVar(x *ndarray.NDArray, at ops.Attrs, stat []int, dt ndarray.DType) []ops.Result {
	res := []ops.Result{{Shape: x.Shape(), DType: x.DType()}}
	if at.Bool("output_mean_var") {
		res = append(res, ops.Result{Shape: stat, DType: dt}, ops.Result{Shape: slices.Clone(stat), DType: dt})
	}
	return res
}

// normKernel normalises in into out[0] (nnNormalize) and, when out has the statistics
// too (output_mean_var), writes each group's mean and std = sqrt(var + eps) into out[1]
// and out[2], in the order of the groups (MXNet's shapes keep it).
func normKernel(in, out []*ndarray.NDArray, s nnNormSpec) error {
	var mean, std []float64
	err := nnCompute(in, out[0],
		func(x [][]float32, y []float32) { nnNormalize(x, y, s); mean, std = nnNormStats(x[0], s, len(out) > 1) },
		func(x [][]float64, y []float64) { nnNormalize(x, y, s); mean, std = nnNormStats(x[0], s, len(out) > 1) })
	if err != nil || len(out) == 1 {
		return err
	}
	writeFloats(out[1], mean)
	writeFloats(out[2], std)
	return nil
}

// nnNormStats is the mean and sqrt(var + eps) of each group of s (none unless want).
func nnNormStats[T nnFloat](data []T, s nnNormSpec, want bool) (mean, std []float64) {
	if !want {
		return nil, nil
	}
	groups := s.outer * s.inner
	mean, std = make([]float64, groups), make([]float64, groups)
	for gi := range groups {
		o, i := gi/s.inner, gi%s.inner
		m, v := nnMoments(data, o*s.n*s.inner+i, s.n, s.inner)
		mean[gi], std[gi] = m, math.Sqrt(v+s.eps)
	}
	return mean, std
}

// writeFloats stores v into a, in C order, converted to a's dtype.
func writeFloats(a *ndarray.NDArray, v []float64) {
	i := 0
	ops.FillInOrder(a, func() float64 { i++; return v[i-1] })
}

// bnInvStd is BatchNorm's 1/sqrt(var + eps) in inference, computed as MXNet's CPU kernel
// does: the sum in the data's dtype (so float16 data round it to float16, which moves
// the result by up to 5e-4) and the square root in float32 but for float64 data.
func bnInvStd(v, eps float64, dt ndarray.DType) float64 {
	switch dt {
	case ndarray.Float64:
		return 1 / math.Sqrt(v+eps)
	case ndarray.Float16:
		sum := ops.F16ToF32(ops.F32ToF16(float32(v) + ops.F16ToF32(ops.F32ToF16(float32(eps)))))
		return float64(float32(1 / float64(float32(math.Sqrt(float64(sum))))))
	}
	return float64(float32(1 / float64(float32(math.Sqrt(float64(float32(v)+float32(eps)))))))
}

// nnAxisDims splits shape around axis (already checked) as (outer, n, inner).
func nnAxisDims(shape []int, axis int) (outer, n, inner int) {
	outer, _ = ndarray.Size(shape[:axis])
	inner, _ = ndarray.Size(shape[axis+1:])
	return outer, shape[axis], inner
}

// nnAxis resolves an operator's axis parameter against ndim (negative from the end).
func nnAxis(op string, axis, ndim int) (int, error) {
	a := axis
	if a < 0 {
		a += ndim
	}
	if a < 0 || a >= ndim {
		return 0, mxerr.ValueErr("%s: axis %d is out of range for %d-dimensional data", op, axis, ndim)
	}
	return a, nil
}

// nnCheckParams checks that the arrays after data are 1-D of length n.
func nnCheckParams(op string, in []*ndarray.NDArray, names []string, n int) error {
	for i, a := range in[1:] {
		if err := nnCheckShape(op, names[i+1], a.Shape(), []int{n}); err != nil {
			return err
		}
	}
	return nil
}

var batchNormInputs = []string{"data", "gamma", "beta", "moving_mean", "moving_var"}

func batchNormDims(in []*ndarray.NDArray, at ops.Attrs) (outer, c, inner int, err error) {
	const op = "BatchNorm"
	x := in[0]
	axis, err := nnAxis(op, at.Int("axis"), x.NDim())
	if err != nil {
		return
	}
	want := ndarray.Float32 // MXNet keeps float16 data's parameters in float32
	if x.DType() == ndarray.Float64 {
		want = ndarray.Float64
	}
	for i, a := range in[1:] {
		if a.DType() != want {
			return 0, 0, 0, mxerr.TypeErr("%s: %s has dtype %s, expected %s for %s data", op, batchNormInputs[i+1], a.DType(), want, x.DType())
		}
	}
	outer, c, inner = nnAxisDims(x.Shape(), axis)
	return outer, c, inner, nnCheckParams(op, in, batchNormInputs, c)
}

// nnBatchNorm applies ((x - mean) * invstd) * gamma + beta per channel, in that order
// as MXNet's CPU kernel (which keeps results near 0 exact where a folded scale and
// shift would cancel); invstd is bnInvStd's, per channel.
func nnBatchNorm[T nnFloat](x [][]T, y []T, outer, c, inner int, means, inv []float64, fixGamma bool) {
	data, mean, invstd, gamma := x[0], make([]T, c), make([]T, c), make([]T, c)
	for j, v := range inv {
		mean[j], invstd[j], gamma[j] = T(means[j]), T(v), 1
		if !fixGamma {
			gamma[j] = x[1][j]
		}
	}
	if ys, ok := any(y).([]float32); ok && simd.BNAffine(ys, any(data).([]float32), outer, c, inner, any(mean).([]float32),
		any(invstd).([]float32), any(gamma).([]float32), any(x[2]).([]float32), gemm.PoolTasks(outer*c, inner)) {
		return
	}
	nnParallel(outer*c, inner, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			j := r % c
			nnAffine(y[r*inner:(r+1)*inner], data[r*inner:(r+1)*inner], mean[j], invstd[j], gamma[j:j+1], x[2][j:j+1])
		}
	})
}

// layerNormSpec checks LayerNorm's arguments: the axis (resolved) and the normalisation.
func layerNormSpec(in []*ndarray.NDArray, at ops.Attrs) (int, nnNormSpec, error) {
	const op = "LayerNorm"
	if err := nnSameDType(op, in, []string{"data", "gamma", "beta"}); err != nil {
		return 0, nnNormSpec{}, err
	}
	axis, err := nnAxis(op, at.Int("axis"), in[0].NDim())
	if err != nil {
		return 0, nnNormSpec{}, err
	}
	outer, n, inner := nnAxisDims(in[0].Shape(), axis)
	s := nnNormSpec{outer: outer, n: n, inner: inner, eps: nnEps(at), perPos: true}
	return axis, s, nnCheckParams(op, in, []string{"data", "gamma", "beta"}, n)
}

// nnNormSpec describes a normalisation over the n elements at stride inner of each of
// outer*inner groups; gamma and beta (x[1], x[2]) are indexed by the position within
// the group (perPos, LayerNorm) or by the outer index modulo their length.
type nnNormSpec struct {
	outer, n, inner int
	eps             float64
	perPos          bool
}

// groupNormSpec checks InstanceNorm (groups 0: one per channel) or GroupNorm arguments.
func groupNormSpec(op string, in []*ndarray.NDArray, groups int, eps float64) (nnNormSpec, error) {
	x := in[0]
	if x.NDim() < 3 {
		return nnNormSpec{}, mxerr.ValueErr("%s needs data of at least 3 dimensions (batch, channel, spatial...), got shape %v", op, x.Shape())
	}
	if err := nnSameDType(op, in, []string{"data", "gamma", "beta"}); err != nil {
		return nnNormSpec{}, err
	}
	c := x.Shape()[1]
	if groups == 0 {
		groups = c
	}
	if groups < 1 || c%groups != 0 {
		return nnNormSpec{}, mxerr.ValueErr("%s: %d channels cannot be split into %d groups", op, c, groups)
	}
	if err := nnCheckParams(op, in, []string{"data", "gamma", "beta"}, groups); err != nil {
		return nnNormSpec{}, err
	}
	outer, n, _ := nnAxisDims(x.Shape(), 1)
	spatial := x.Size() / max(1, outer*n)
	return nnNormSpec{outer: outer * groups, n: n / groups * spatial, inner: 1, eps: eps}, nil
}

// nnNormalize sets each group of x[0] to mean 0 and variance 1, then applies gamma and beta.
func nnNormalize[T nnFloat](x [][]T, y []T, s nnNormSpec) {
	data, gamma, beta := x[0], x[1], x[2]
	nnParallel(s.outer*s.inner, s.n, func(lo, hi int) {
		if s.perPos && s.inner == 1 && layerNormRowsC(y[lo*s.n:hi*s.n], data[lo*s.n:hi*s.n], s.n, s.eps, gamma, beta) {
			return
		}
		for gi := lo; gi < hi; gi++ {
			o, i := gi/s.inner, gi%s.inner
			base := o*s.n*s.inner + i
			mean, v := nnMoments(data, base, s.n, s.inner)
			m, inv := T(mean), T(1/math.Sqrt(v+s.eps))
			switch {
			case !s.perPos: // one gamma and beta for the whole group; inner is 1
				k := o % len(gamma)
				scale := []T{inv * gamma[k]} // times 1 first: exact
				nnAffine(y[base:base+s.n], data[base:base+s.n], m, 1, scale, beta[k:k+1])
			case s.inner == 1:
				nnAffine(y[base:base+s.n], data[base:base+s.n], m, inv, gamma, beta)
			default:
				for j := range s.n {
					p := base + j*s.inner
					y[p] = (data[p]-m)*inv*gamma[j] + beta[j]
				}
			}
		}
	})
}

// layerNormRowsC is nnNormalize's rows of LayerNorm over the last axis in one C call,
// for float32 (simd.LayerNormRows).
func layerNormRowsC[T nnFloat](y, x []T, n int, eps float64, gamma, beta []T) bool {
	ys, ok := any(y).([]float32)
	return ok && simd.LayerNormRows(ys, any(x).([]float32), n, eps, any(gamma).([]float32), any(beta).([]float32))
}

// nnMoments are the mean and (biased) variance of the n elements of x at base + j*stride,
// accumulated in float64 (contiguous rows in nnSum16's order).
func nnMoments[T nnFloat](x []T, base, n, stride int) (mean, variance float64) {
	if stride == 1 {
		row := x[base : base+n]
		mean = nnSum16(row) / float64(n)
		return mean, nnSqDev16(row, mean) / float64(n)
	}
	for j := range n {
		mean += float64(x[base+j*stride])
	}
	mean /= float64(n)
	for j := range n {
		d := float64(x[base+j*stride]) - mean
		variance += d * d
	}
	return mean, variance / float64(n)
}

// nnEps is an operator's eps parameter rounded to float32, as MXNet's parameter
// structs store it (for float64 data too).
func nnEps(at ops.Attrs) float64 { return float64(float32(at.Float("eps"))) }
