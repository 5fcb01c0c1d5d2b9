package nn

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Correlation's gradient, MXNet 1.9.1's: each term's share g/(kernel_size²·C) of its
// result's gradient times the other map's element (products), or times the sign of
// data1 - data2 for absolute differences, where MXNet counts a tie as positive (data1
// gets +, data2 -); padding gets none. The terms' windows are no operator:
// _backward_Correlation_data1 and _data2, without gradients of their own.

func init() {
	fwd, _ := ops.Lookup("Correlation") // correlation.go, initialised before this file
	for part, name := range []string{"data1", "data2"} {
		registerBackward(fwd, "_backward_Correlation_"+name, part, func(in []*ndarray.NDArray, at ops.Attrs) ([]float64, error) {
			return correlationBackward(in, at, part), nil
		})
	}
}

var correlationGrad = backwardGrad("_backward_Correlation_data1", "_backward_Correlation_data2")

// correlationBackward is the gradient of map part (0: data1, 1: data2) from in = data1,
// data2, out_grad.
func correlationBackward(in []*ndarray.NDArray, at ops.Attrs, part int) []float64 {
	g, _ := correlationGeometry(in[0].Shape(), at)
	a, b, gy := ops.IndexValues(in[0]), ops.IndexValues(in[1]), ops.IndexValues(in[2])
	mul := at.Bool("is_multiply")
	norm := float64(at.Int("kernel_size") * at.Int("kernel_size") * g.c)
	d := make([]float64, len(a))
	forCorrelationTerms(g, at, func(o, i1, i2 int) {
		own, other := i1, corrValue(b, i2)
		if part == 1 {
			own, other = i2, corrValue(a, i1)
		}
		if own < 0 {
			return
		}
		if !mul {
			sign := 1.0 // d|u - v|/du, a tie counting as positive
			if corrValue(a, i1) < corrValue(b, i2) {
				sign = -1
			}
			if part == 1 {
				sign = -sign
			}
			other = sign
		}
		d[own] += gy[o] * other / norm
	})
	return d
}
