package nn

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The internal backward operators of the loss and spatial layers (CTCLoss, ROIPooling,
// BilinearSampler, Correlation), whose forwards compute in float64 on their arrays'
// values: each takes its forward's arrays followed by out_grad, with its forward's
// parameters, and gives the gradient of one input, computed in float64 and stored in
// that input's dtype. No gradient of their own (MXNet's backward nodes have none).

// registerBackward registers name, the gradient of fwd's input wrt computed by grad from
// fwd's arrays and out_grad (last), which it checks against the shape fwd infers.
func registerBackward(fwd *ops.Op, name string, wrt int, grad func(in []*ndarray.NDArray, at ops.Attrs) ([]float64, error)) {
	inputs, of := []string{"*arrays"}, "data" // CTCLoss's arrays vary in number; data is the first
	if fwd.Inputs[0] != "*arrays" {
		inputs, of = append(append([]string(nil), fwd.Inputs...), "out_grad"), fwd.Inputs[wrt]
	}
	ops.Register(&ops.Op{
		Name: name,
		Doc: "The gradient of " + fwd.Name + "'s " + of + " from its arrays and " +
			"the gradient of its result, with " + fwd.Name + "'s parameters. Internal: its Grad calls it.",
		Category: ops.General, Inputs: inputs, DTypes: fwd.DTypes, Params: fwd.Params,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if len(in) < wrt+2 {
				return nil, 0, mxerr.ValueErr("%s: expected %s's arrays and out_grad, got %d arrays", name, fwd.Name, len(in))
			}
			want, _, err := fwd.Infer(in[:len(in)-1], at)
			if err != nil {
				return nil, 0, err
			}
			if err := nnCheckShape(name, "out_grad", in[len(in)-1].Shape(), want); err != nil {
				return nil, 0, err
			}
			return in[wrt].Shape(), in[wrt].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			d, err := grad(in, at)
			if err != nil {
				return err
			}
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return d[i-1] })
			return nil
		},
	})
}

// backwardGrad is the Gradient that runs backward operator names[i] (registerBackward's)
// for input i; inputs without a name (labels, rois, lengths) get none.
func backwardGrad(names ...string) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		args := append(c.In[:len(c.In):len(c.In)], c.OutGrad[0])
		for i, name := range names {
			if name == "" || !c.Need[i] {
				continue
			}
			var err error
			if grads[i], err = runBackward(c, name, c.Attrs, args...); err != nil {
				ops.ReleaseAll(grads)
				return nil, err
			}
		}
		return grads, nil
	}}
}
