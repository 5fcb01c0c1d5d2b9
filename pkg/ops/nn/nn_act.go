package nn

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's activation layers in inference: Activation, LeakyReLU and Dropout. relu,
// sigmoid and tanh are unary.go's kernels; the others map each element in float64 and
// round once to the data's dtype (float16, float32 or float64, as MXNet's accept).

// selu's constants, rounded to float32 as MXNet's are (for float64 data too).
var (
	nnSeluAlpha  = float64(float32(1.6732632423543772848170429916717))
	nnSeluLambda = float64(float32(1.0507009873554804934193349852946))
)

func init() {
	ops.Register(&ops.Op{
		Name: "Activation",
		Doc: "Applies an activation function elementwise, as MXNet's Activation: relu (NaN gives 0 in float32, as in MXNet), sigmoid, tanh, " +
			"softrelu (log(1 + exp(x))) or softsign (x / (1 + |x|)). float16, float32 and float64.",
		Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: nnFloatDTypes, InPlace: true,
		Params: []ops.Param{{Name: "act_type", Kind: ops.ParamString, Choices: []string{"relu", "sigmoid", "tanh", "softrelu", "softsign"},
			Doc: "the activation function"}},
		Infer: ops.InferSame,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			switch t := at.Str("act_type"); t {
			case "relu": // MXNet's float32 relu (oneDNN's) makes NaN 0, its others keep it
				if in[0].DType() != ndarray.Float32 {
					nnUnary(t, out[0], in[0])
					break
				}
				ops.MapRows(out[0], in[0], nnRelu32Rows)
			case "softrelu":
				ops.RealMap(out[0], in[0], nnSoftrelu)
			case "softsign":
				ops.RealMap(out[0], in[0], func(x float64) float64 { return x / (1 + math.Abs(x)) })
			default:
				nnUnary(t, out[0], in[0])
			}
			return nil
		},
		Grad: activationGrad,
	})
	ops.Register(&ops.Op{
		Name: "LeakyReLU",
		Doc: "Applies a leaky rectifier or one of its relatives elementwise, as MXNet's LeakyReLU in inference.\n\n" +
			"act_type leaky: x if x > 0 else slope*x; prelu: the same with a learned slope, the array gamma given " +
			"after data (one value, or one per channel; matched as MXNet does, see preluGamma); elu: slope*(exp(x) - 1) " +
			"for x <= 0; selu: scaled elu with fixed constants; gelu: x*Phi(x) (the erf form); rrelu: leaky with " +
			"the slope (lower_bound + upper_bound) / 2, as in inference, returning [out, mask] as MXNet does; the " +
			"mask (data's shape and dtype) holds zeros, where MXNet leaves it unwritten in inference. float16, " +
			"float32 and float64.",
		Category: ops.General, Inputs: []string{"data", "gamma?"}, DTypes: nnFloatDTypes,
		Params: []ops.Param{
			{Name: "act_type", Kind: ops.ParamString, Default: "leaky", Choices: []string{"leaky", "prelu", "elu", "selu", "gelu", "rrelu"},
				Doc: "the activation function"},
			{Name: "slope", Kind: ops.ParamFloat, Default: "0.25", Doc: "the slope of leaky and the scale of elu"},
			{Name: "lower_bound", Kind: ops.ParamFloat, Default: "0.125", Doc: "rrelu's lower slope"},
			{Name: "upper_bound", Kind: ops.ParamFloat, Default: "0.334", Doc: "rrelu's upper slope"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			res := []ops.Result{{Shape: in[0].Shape(), DType: in[0].DType()}}
			switch at.Str("act_type") {
			case "prelu":
				g, err := preluGamma(in)
				if err == nil {
					g.Release()
				}
				return res, err
			case "rrelu": // MXNet's second result, the random slopes of training
				res = append(res, ops.Result{Shape: in[0].Shape(), DType: in[0].DType()})
			}
			return res, nnArity("LeakyReLU", in, 1)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			if len(out) == 2 { // rrelu's mask: MXNet leaves it unwritten in inference
				ops.FillKernel(out[1], ops.Scalar{})
			}
			if at.Str("act_type") == "prelu" {
				g, err := preluGamma(in)
				if err != nil {
					return err
				}
				defer g.Release()
				ops.FloatMap2(out[0], in[0], g, nnLeaky)
				return nil
			}
			ops.RealMap(out[0], in[0], nnLeakyFn(at))
			return nil
		},
		Grad: leakyGrad,
	})
	ops.Register(&ops.Op{
		Name: "Dropout",
		Doc: "Dropout, as MXNet's nd.Dropout: mode 'training' (the default) drops in training mode only " +
			"(autograd.record() or train_mode()) and returns the data unchanged otherwise; mode 'always' zeroes each element with probability p and scales the " +
			"others by 1/(1-p), sharing one draw along the given axes. float16, float32 and float64.",
		Category: ops.General, Inputs: []string{"data"}, DTypes: nnFloatDTypes, InPlace: true,
		Params: []ops.Param{
			{Name: "p", Kind: ops.ParamFloat, Default: "0.5", Doc: "the probability of dropping an element, in [0, 1]"},
			{Name: "mode", Kind: ops.ParamString, Default: "training", Choices: []string{"training", "always"}, Doc: "when to drop"},
			{Name: "axes", Kind: ops.ParamAxes, Default: "None", Doc: "axes along which one draw is shared (None or (): none)"},
			{Name: "cudnn_off", Kind: ops.ParamBool, Default: "0", Doc: "accepted for MXNet compatibility"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if p := at.Float("p"); !(p >= 0 && p <= 1) {
				return nil, 0, mxerr.ValueErr("Dropout: p = %g is outside [0, 1]", p)
			}
			_, err := dropoutMaskShape(in[0].Shape(), at.Ints("axes"))
			return in[0].Shape(), in[0].DType(), err
		},
		Prepare:    dropoutPrepare,
		Kernel:     dropoutKernel,
		Grad:       dropoutGrad,
		TrainAware: true,
	})
}

// nnUnary runs unary.go's kernel of the operator called name.
func nnUnary(name string, out, in *ndarray.NDArray) {
	unary.Defs[slices.IndexFunc(unary.Defs, func(d unary.Def) bool { return d.Name == name })].Run(out, in)
}

// nnRelu32Rows is MXNet's float32 relu (NaN gives 0), as a mask of the bits: a branch
// on the sign of random data mispredicts half the time (5x slower). The mask is relu's
// gradient's (keep where 0 < x, NaN not), so long rows take its C kernel with x as both
// the gradient and the output.
func nnRelu32Rows(dst, src []float32) {
	if simd.ReluBackward32(dst[:len(src)], src, src) {
		return
	}
	for i, v := range src {
		m := uint32(0)
		if v > 0 {
			m = ^uint32(0)
		}
		dst[i] = math.Float32frombits(math.Float32bits(v) & m)
	}
}

func nnSoftrelu(x float64) float64 {
	if x > 20 { // as MXNet's: exp would only round back to x
		return x
	}
	return math.Log1p(math.Exp(x))
}

func nnLeaky(x, slope float64) float64 {
	if x > 0 {
		return x
	}
	return slope * x
}

// nnLeakyFn is the elementwise function of LeakyReLU's act_type (all but prelu).
func nnLeakyFn(at ops.Attrs) func(float64) float64 {
	slope := float64(float32(at.Float("slope"))) // MXNet's parameters are float32, for float64 data too
	switch at.Str("act_type") {
	case "elu":
		return func(x float64) float64 {
			if x > 0 {
				return x
			}
			return slope * math.Expm1(x)
		}
	case "selu":
		return func(x float64) float64 {
			if x > 0 {
				return nnSeluLambda * x
			}
			return nnSeluLambda * nnSeluAlpha * math.Expm1(x)
		}
	case "gelu":
		return func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }
	case "rrelu": // the mean slope, computed in float32 as MXNet does
		slope = float64((float32(at.Float("lower_bound")) + float32(at.Float("upper_bound"))) / 2)
	}
	s32 := float32(slope)
	return func(x float64) float64 { // MXNet multiplies in float32, for float64 data too
		if x > 0 {
			return x
		}
		return float64(float32(x) * s32)
	}
}

// preluGamma checks prelu's gamma against data and returns it broadcast to data's
// shape. As MXNet's expand_shape does, gamma's axes are matched from the right against
// data's first two axes only (an axis of 1 broadcasts), and the axes left over are
// broadcast: a (C,) gamma scales the channels of (N, C, ...) data, but a gamma whose
// length is N (and not C) scales the samples.
func preluGamma(in []*ndarray.NDArray) (*ndarray.NDArray, error) {
	if err := nnArity("LeakyReLU", in, 2); err != nil {
		return nil, err
	}
	if err := nnSameDType("LeakyReLU", in, []string{"data", "gamma"}); err != nil {
		return nil, err
	}
	x, g := in[0], in[1]
	ds, gst := x.Shape(), g.Strides()
	axes, err := preluAxes(ds, g.Shape())
	if err != nil {
		return nil, err
	}
	shape, strides := make([]int, len(ds)), make([]int, len(ds))
	for i := range shape {
		shape[i] = 1
	}
	for s, i := range axes {
		shape[i], strides[i] = g.Shape()[s], gst[s]
	}
	v, err := ndarray.View(g.Storage(), g.DType(), shape, strides, g.Offset(), false)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return v.BroadcastTo(ds)
}

// preluAxes matches gamma's axes to data's (preluGamma's rule): the data axis of each.
func preluAxes(ds, gs []int) ([]int, error) {
	axes := make([]int, len(gs))
	s := len(gs) - 1
	for i := len(ds) - 1; i >= 0 && s >= 0; i-- {
		if i <= 1 && (ds[i] == gs[s] || gs[s] == 1) {
			axes[s] = i
			s--
		}
	}
	if s != -1 {
		return nil, mxerr.ValueErr("LeakyReLU: cannot broadcast gamma of shape %v to data of shape %v", gs, ds)
	}
	return axes, nil
}

// preluShape is gamma's shape as it broadcasts against data: data's rank, 1 on the
// axes gamma does not match.
func preluShape(ds, gs []int) ([]int, error) {
	axes, err := preluAxes(ds, gs)
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(ds))
	for i := range shape {
		shape[i] = 1
	}
	for s, i := range axes {
		shape[i] = gs[s]
	}
	return shape, nil
}

// dropoutMaskShape is the shape of Dropout's draws: data's, with 1 on the shared axes.
func dropoutMaskShape(shape, axes []int) ([]int, error) {
	ax, err := ops.NormalizeAxes(axes, len(shape))
	if axes == nil || err != nil {
		return slices.Clone(shape), err
	}
	out := slices.Clone(shape)
	for _, a := range ax {
		out[a] = 1
	}
	return out, nil
}

func dropoutKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	p := at.Float("p")
	if !dropoutApplies(at) {
		return ndarray.CopyInto(out[0], in[0])
	}
	x := in[0]
	shape, err := dropoutMaskShape(x.Shape(), at.Ints("axes"))
	if err != nil {
		return err
	}
	mask, err := ndarray.Empty(x.DType(), shape, x.Device())
	if err != nil {
		return err
	}
	defer mask.Release()
	seed := at["seed"].([2]uint64)
	r := rand.New(rand.NewPCG(seed[0], seed[1]))
	keep := float64(1 / (1 - float32(p))) // in float32, as MXNet's (for float64 too); 0 * inf is NaN where p is 1
	ops.FillSampled(mask, r, func(r *rand.Rand) float64 {
		if r.Float64() < p {
			return 0 * keep
		}
		return keep
	})
	b, err := mask.BroadcastTo(x.Shape())
	if err != nil {
		return err
	}
	defer b.Release()
	ops.FloatMap2(out[0], x, b, func(v, m float64) float64 { return v * m })
	return nil
}
