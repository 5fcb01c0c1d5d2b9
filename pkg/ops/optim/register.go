package optim

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// floatDTypes are the weights' dtypes MXNet's update kernels take.
var floatDTypes = []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64}

// The parameters most update operators share, with MXNet's defaults (lr is required).
var (
	pLR       = ops.Param{Name: "lr", Kind: ops.ParamFloat, Doc: "the learning rate"}
	pWD       = ops.Param{Name: "wd", Kind: ops.ParamFloat, Default: "0", Doc: "the weight decay"}
	pRescale  = ops.Param{Name: "rescale_grad", Kind: ops.ParamFloat, Default: "1", Doc: "multiplies the gradient first"}
	pClip     = ops.Param{Name: "clip_gradient", Kind: ops.ParamFloat, Default: "-1", Doc: "clips the rescaled gradient to [-clip_gradient, clip_gradient]; negative: off"}
	pLazy     = ops.Param{Name: "lazy_update", Kind: ops.ParamBool, Default: "1", Doc: "accepted for MXNet compatibility (sparse gradients only)"}
	pMomentum = ops.Param{Name: "momentum", Kind: ops.ParamFloat, Default: "0", Doc: "the momentum's decay rate"}
	pBeta1    = ops.Param{Name: "beta1", Kind: ops.ParamFloat, Default: "0.9", Doc: "the decay rate of the first moment"}
	pBeta2    = ops.Param{Name: "beta2", Kind: ops.ParamFloat, Default: "0.999", Doc: "the decay rate of the second moment"}
	pEpsilon  = ops.Param{Name: "epsilon", Kind: ops.ParamFloat, Default: "1e-08", Doc: "added for numerical stability"}
)

// update is an update operator of one weight: inputs are its arrays (the weight first),
// the kernel updates those at mutates in place and writes the new weight into out; the
// inputs at f32 are float32 whatever the weight's dtype (multi-precision copies).
type update struct {
	name, doc string
	inputs    []string
	mutates   []int
	f32       []int
	params    []ops.Param
	b32       func(ops.Attrs) body[float32]
	b64       func(ops.Attrs) body[float64]
	// out is the result's dtype; nil: the weight's.
	out func(in []*ndarray.NDArray) ndarray.DType
}

func (u update) register() {
	ops.Register(&ops.Op{
		Name: u.name, Doc: u.doc + " Non-differentiable, as MXNet's.", Category: ops.General,
		Inputs: u.inputs, Params: u.params, DTypes: floatDTypes, InPlace: true,
		Mutates: func(int) []int { return u.mutates },
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			dt := in[0].DType()
			if u.out != nil {
				dt = u.out(in)
			}
			return in[0].Shape(), dt, checkArrays(u.name, u.inputs, in, u.f32...)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			arrs := append(slices.Clip(in), out[0])
			return sweep(arrs, append(slices.Clip(u.mutates), len(in)), u.b32(at), u.b64(at))
		},
	})
}
