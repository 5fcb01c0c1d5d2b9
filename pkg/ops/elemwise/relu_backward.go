package elemwise

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// relu's gradient in one pass: g where relu's result y is positive, else 0. Written as
// g * (y > 0) it takes a comparison (through a bool temporary), a cast and a product:
// three passes and an allocation on every relu of every training step (relu and
// Activation's relu call it).

func init() {
	ops.Register(&ops.Op{
		Name: "_relu_backward", Doc: "relu's gradient: g where y (relu's result) is positive, else 0.",
		Category: ops.Broadcast, Inputs: []string{"g", "y"}, DTypes: ops.FloatDTypes, InPlace: true,
		Infer: ops.InferBroadcastSameDType,
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
				switch in[0].DType() {
				case ndarray.Float32:
					ops.Map2(out[0], in[0], in[1], reluBackward[float32])
				case ndarray.Float64:
					ops.Map2(out[0], in[0], in[1], reluBackward[float64])
				default:
					ops.FloatMap2(out[0], in[0], in[1], reluBackward[float64])
				}
				return nil
			})
		},
		// second order: d/dg is the same mask, y's is zero almost everywhere
		Grad: ops.GradExpr("_relu_backward(g, b)", ""),
	})
}

func reluBackward[T float32 | float64](g, y T) T {
	if y > 0 {
		return g
	}
	return 0
}
