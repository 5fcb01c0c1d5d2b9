package nn

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// SVMOutput's gradient, MXNet 1.9.1's (checked against it): the gradient of its hinge loss,
// the head gradient ignored as by the other output layers, and zero for the label. Data
// is seen as (rows, classes) and each row's label, truncated toward zero, picks its class
// k (none when out of range); with s the row's scores, m the margin and r the
// regularization coefficient:
//
//	L1 (use_linear): -r*[m > s_k] at k, r*[m > -s_j] elsewhere
//	L2:              -2r*(m - s_k)*[m > s_k] at k, 2r*(m + s_j)*[m > -s_j] elsewhere
//
// m and r are float32, as MXNet's parameters, for every dtype. _backward_SVMOutput computes it.

func init() {
	svm, _ := ops.Lookup("SVMOutput") // loss_outputs.go, initialised before this file
	ops.Register(&ops.Op{
		Name: "_backward_SVMOutput",
		Doc: "SVMOutput's gradient (MXNet's backward of it) from its data and label, with SVMOutput's " +
			"parameters. Internal: SVMOutput's Grad calls it.",
		Category: ops.General, Inputs: []string{"data", "label"}, DTypes: svm.DTypes, Params: svm.Params,
		Infer: svm.Infer,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			label := ops.IndexValues(in[1])
			return nnCompute(in[:1], out[0],
				func(x [][]float32, y []float32) { svmBackward(x[0], label, y, at) },
				func(x [][]float64, y []float64) { svmBackward(x[0], label, y, at) })
		},
	})
}

func svmBackward[T nnFloat](x []T, label []float64, dx []T, at ops.Attrs) {
	m, r := T(float32(at.Float("margin"))), T(float32(at.Float("regularization_coefficient")))
	linear := at.Bool("use_linear")
	rows := len(label)
	if rows == 0 {
		return
	}
	k := len(x) / rows
	for i, l := range label {
		for j := range k {
			s, d := x[i*k+j], T(0)
			switch {
			case j == int(l) && linear && m > s:
				d = -r
			case j == int(l) && m > s:
				d = -2 * r * (m - s)
			case j != int(l) && linear && m > -s:
				d = r
			case j != int(l) && m > -s:
				d = 2 * r * (m + s)
			}
			dx[i*k+j] = d
		}
	}
}

var svmGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	dx, err := runBackward(c, "_backward_SVMOutput", c.Attrs, c.In...)
	return []*ndarray.NDArray{dx, nil}, err
}}
