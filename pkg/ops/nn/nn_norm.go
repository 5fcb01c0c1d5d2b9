package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

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
			"float32 (float64 for float64 data). output_mean_var=True (three results in MXNet) is refused.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta", "moving_mean", "moving_var"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "eps", Kind: ops.ParamFloat, Default: "0.001", Doc: "added to the variance"},
			{Name: "momentum", Kind: ops.ParamFloat, Default: "0.9", Doc: "the moving averages' momentum (training only)"},
			{Name: "fix_gamma", Kind: ops.ParamBool, Default: "1", Doc: "use 1 for gamma"},
			{Name: "use_global_stats", Kind: ops.ParamBool, Default: "0", Doc: "use the moving statistics (always, in inference)"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and variance (not supported)"},
			{Name: "axis", Kind: ops.ParamInt, Default: "1", Doc: "the channel axis"},
			{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, _, _, err := batchNormDims(in, at)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			outer, c, inner, err := batchNormDims(in, at)
			if err != nil {
				return err
			}
			eps, fix := nnEps(at), at.Bool("fix_gamma")
			if batchNormTrains(at) {
				return nnCompute(in, out[0],
					func(x [][]float32, y []float32) { nnBatchNormTrain(x, y, outer, c, inner, eps, fix) },
					func(x [][]float64, y []float64) { nnBatchNormTrain(x, y, outer, c, inner, eps, fix) })
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { nnBatchNorm(x, y, outer, c, inner, eps, fix) },
				func(x [][]float64, y []float64) { nnBatchNorm(x, y, outer, c, inner, eps, fix) })
		},
		Grad:       batchNormGrad,
		TrainAware: true,
	})
	ops.Register(&ops.Op{
		Name: "LayerNorm",
		Doc: "Layer normalisation, as MXNet's LayerNorm: normalises data along axis (the last by default) to " +
			"mean 0 and variance 1, then scales by gamma and shifts by beta (both of that axis' length). " +
			"float16, float32 and float64, all arrays of one dtype. output_mean_var=True is refused.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamInt, Default: "-1", Doc: "the axis to normalise"},
			{Name: "eps", Kind: ops.ParamFloat, Default: "1e-05", Doc: "added to the variance"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and std (not supported)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, _, _, err := layerNormDims(in, at)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			outer, n, inner, err := layerNormDims(in, at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) {
					nnNormalize(x, y, nnNormSpec{outer: outer, n: n, inner: inner, eps: nnEps(at), perPos: true})
				},
				func(x [][]float64, y []float64) {
					nnNormalize(x, y, nnNormSpec{outer: outer, n: n, inner: inner, eps: nnEps(at), perPos: true})
				})
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
			"float32 and float64, all arrays of one dtype. output_mean_var=True is refused.",
		Category: ops.General, Inputs: []string{"data", "gamma", "beta"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "num_groups", Kind: ops.ParamInt, Default: "1", Doc: "the number of channel groups"},
			{Name: "eps", Kind: ops.ParamFloat, Default: "1e-05", Doc: "added to the variance"},
			{Name: "output_mean_var", Kind: ops.ParamBool, Default: "0", Doc: "also return the mean and std (not supported)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if err := noMeanVar("GroupNorm", at); err != nil {
				return nil, 0, err
			}
			_, err := groupNormSpec("GroupNorm", in, at.Int("num_groups"), 0)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := groupNormSpec("GroupNorm", in, at.Int("num_groups"), nnEps(at))
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { nnNormalize(x, y, s) },
				func(x [][]float64, y []float64) { nnNormalize(x, y, s) })
		},
	})
}

// noMeanVar refuses output_mean_var, whose extra results mxgo's operators cannot return.
func noMeanVar(op string, at ops.Attrs) error {
	if at.Bool("output_mean_var") {
		return mxerr.New(mxerr.NotImplemented, "%s: output_mean_var=True (several results) is not supported", op)
	}
	return nil
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
	if err = noMeanVar(op, at); err != nil {
		return
	}
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
// shift would cancel).
func nnBatchNorm[T nnFloat](x [][]T, y []T, outer, c, inner int, eps float64, fixGamma bool) {
	data, mean, invstd := x[0], x[3], make([]T, c)
	for j := range c {
		invstd[j] = T(1 / math.Sqrt(float64(x[4][j])+eps))
	}
	nnParallel(outer*c, inner, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			j := r % c
			m, s, g, b := mean[j], invstd[j], T(1), x[2][j]
			if !fixGamma {
				g = x[1][j]
			}
			row := y[r*inner : (r+1)*inner]
			for i, v := range data[r*inner : (r+1)*inner] {
				row[i] = ((v-m)*s)*g + b
			}
		}
	})
}

func layerNormDims(in []*ndarray.NDArray, at ops.Attrs) (outer, n, inner int, err error) {
	const op = "LayerNorm"
	if err = noMeanVar(op, at); err != nil {
		return
	}
	if err = nnSameDType(op, in, []string{"data", "gamma", "beta"}); err != nil {
		return
	}
	axis, err := nnAxis(op, at.Int("axis"), in[0].NDim())
	if err != nil {
		return
	}
	outer, n, inner = nnAxisDims(in[0].Shape(), axis)
	return outer, n, inner, nnCheckParams(op, in, []string{"data", "gamma", "beta"}, n)
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
		for gi := lo; gi < hi; gi++ {
			o, i := gi/s.inner, gi%s.inner
			base := o*s.n*s.inner + i
			mean, v := nnMoments(data, base, s.n, s.inner)
			m, inv := T(mean), T(1/math.Sqrt(v+s.eps))
			switch {
			case !s.perPos: // one gamma and beta for the whole group
				k := o % len(gamma)
				scale, shift := inv*gamma[k], beta[k]
				for j := range s.n {
					p := base + j*s.inner
					y[p] = (data[p]-m)*scale + shift
				}
			case s.inner == 1:
				out := y[base : base+s.n]
				for j, e := range data[base : base+s.n] {
					out[j] = (e-m)*inv*gamma[j] + beta[j]
				}
			default:
				for j := range s.n {
					p := base + j*s.inner
					y[p] = (data[p]-m)*inv*gamma[j] + beta[j]
				}
			}
		}
	})
}

// nnMoments are the mean and (biased) variance of the n elements of x at base + j*stride,
// accumulated in float64.
func nnMoments[T nnFloat](x []T, base, n, stride int) (mean, variance float64) {
	if stride == 1 { // four partial sums: one chain of dependent adds would run at a quarter speed
		row := x[base : base+n]
		var s [4]float64
		j := 0
		for ; j+4 <= n; j += 4 {
			s[0] += float64(row[j])
			s[1] += float64(row[j+1])
			s[2] += float64(row[j+2])
			s[3] += float64(row[j+3])
		}
		for ; j < n; j++ {
			s[0] += float64(row[j])
		}
		mean = (s[0] + s[1] + s[2] + s[3]) / float64(n)
		s = [4]float64{}
		for j = 0; j+4 <= n; j += 4 {
			d0, d1, d2, d3 := float64(row[j])-mean, float64(row[j+1])-mean, float64(row[j+2])-mean, float64(row[j+3])-mean
			s[0] += d0 * d0
			s[1] += d1 * d1
			s[2] += d2 * d2
			s[3] += d3 * d3
		}
		for ; j < n; j++ {
			d := float64(row[j]) - mean
			s[0] += d * d
		}
		return mean, (s[0] + s[1] + s[2] + s[3]) / float64(n)
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
