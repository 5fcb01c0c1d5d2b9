package elemwise

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
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
					if g, y, o, ok := contiguous32(in[0], in[1], out[0]); ok {
						if !simd.ReluBackward32(o, g, y) {
							reluBackward32(o, g, y)
						}
						return nil
					}
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

// reluBackward32 is reluBackward on contiguous rows without a branch: with y's bits b
// read as an int32, y > 0 exactly when 0 < b <= +inf's bits, and each of those
// comparisons is a sign bit spread by an arithmetic shift.
func reluBackward32(o, g, y []float32) {
	for i, v := range y {
		b := int32(math.Float32bits(v))
		keep := (-b >> 31) &^ (b >> 31) &^ ((0x7f800000 - b) >> 31) // b > 0, not -0, not a NaN
		o[i] = math.Float32frombits(math.Float32bits(g[i]) & uint32(keep))
	}
}

// contiguous32 returns the elements of g, y and o as slices when all three are
// C-contiguous float32 arrays of one shape.
func contiguous32(g, y, o *ndarray.NDArray) (gs, ys, os []float32, ok bool) {
	if !g.Contiguous() || !y.Contiguous() || !o.Contiguous() || ndarray.SameShape(g.Shape(), y.Shape()) != nil ||
		ndarray.SameShape(g.Shape(), o.Shape()) != nil {
		return nil, nil, nil, false
	}
	n := o.Size()
	return unsafe.Slice((*float32)(g.Data()), n), unsafe.Slice((*float32)(y.Data()), n), unsafe.Slice((*float32)(o.Data()), n), true
}
