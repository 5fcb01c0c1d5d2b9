package nn

import (
	"maps"
	"slices"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Deconvolution's gradient. A deconvolution is the adjoint of the convolution its geometry
// describes (nn_deconv.go), so its data's gradient is that convolution of the head
// gradient (convForward) and its weight's is that convolution's weight gradient with the
// roles swapped (convWeightGrad of the head gradient against the data); the bias gets the
// head gradient summed per filter. Both kernels take the deconvolution's own geometry, so
// every parameter (target_shape's derived pad and adj included) is as the forward had it:
// _backward_Deconvolution_data and _backward_Deconvolution_weight, without gradients of
// their own (MXNet's Deconvolution has no second order either).

func init() {
	deconv, _ := ops.Lookup("Deconvolution") // nn_deconv.go, initialised before this file
	for _, part := range []string{"data", "weight"} {
		wrtData := part == "data"
		ops.Register(&ops.Op{
			Name: "_backward_Deconvolution_" + part,
			Doc: "The gradient of Deconvolution's " + part + " from its data, weight and the gradient of its result, " +
				"with Deconvolution's parameters. Internal: Deconvolution's Grad calls it.",
			Category: ops.General, Inputs: []string{"data", "weight", "out_grad"}, DTypes: ops.F32F64DTypes, Params: deconv.Params,
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				if _, err := deconvBackGeom(in, at); err != nil {
					return nil, 0, err
				}
				if wrtData {
					return in[0].Shape(), in[0].DType(), nil
				}
				return in[1].Shape(), in[1].DType(), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				g, err := deconvBackGeom(in, at)
				if err != nil {
					return err
				}
				if wrtData { // the adjoint convolution of out_grad by weight
					return nnCompute([]*ndarray.NDArray{in[2], in[1]}, out[0],
						func(x [][]float32, y []float32) { convForward(g, x, y) },
						func(x [][]float64, y []float64) { convForward(g, x, y) })
				}
				return nnCompute([]*ndarray.NDArray{in[2], in[0]}, out[0],
					func(x [][]float32, y []float32) { convWeightGrad(g, x, y) },
					func(x [][]float64, y []float64) { convWeightGrad(g, x, y) })
			},
		})
	}
}

// deconvBackGeom is the geometry of the deconvolution of data and weight (in[:2]) whose
// result's gradient is in[2], after checking its shape.
func deconvBackGeom(in []*ndarray.NDArray, at ops.Attrs) (*convGeom, error) {
	at = maps.Clone(at)
	at["no_bias"] = true
	g, err := newDeconvGeom(in[:2], at)
	if err != nil {
		return nil, err
	}
	want := append([]int{g.n, g.c}, g.in[3-g.nd:]...)
	if !slices.Equal(in[2].Shape(), want) || in[2].DType() != in[0].DType() {
		return nil, nnCheckShape("_backward_Deconvolution", "out_grad", in[2].Shape(), want)
	}
	return g, nil
}

// deconvGrad is Deconvolution's Gradient: the backward kernels run with the forward's
// attributes (runBackward), the bias' gradient by sum.
var deconvGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	gy := c.OutGrad[0]
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	var err error
	for i, part := range []string{"data", "weight"} {
		if c.Need[i] && err == nil {
			grads[i], err = runBackward(c, "_backward_Deconvolution_"+part, c.Attrs, c.In[0], c.In[1], gy)
		}
	}
	if len(grads) == 3 && c.Need[2] && err == nil {
		axes := []int{0}
		for i := 2; i < len(c.Shapes[0]); i++ {
			axes = append(axes, i)
		}
		grads[2], err = c.CallInto(2, "sum", "axis="+ops.WireInts(axes), gy)
	}
	if err != nil {
		ops.ReleaseAll(grads)
		return nil, err
	}
	return grads, nil
}}
