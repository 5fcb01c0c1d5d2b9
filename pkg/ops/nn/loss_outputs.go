package nn

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's output layers: forward, they return data (the logistic one its sigmoid) and
// only check the label's shape and dtype; their loss lives in the gradient
// (softmax_grad.go's regressionGrad, loss_outputs_grad.go's svmGrad). And khatri_rao, the column-wise
// Kronecker product.

func init() {
	grad := ops.Param{Name: "grad_scale", Kind: ops.ParamFloat, Default: "1", Doc: "scales the gradient (unused forward)"}
	for _, o := range []struct {
		name, what   string
		sigmoid, mae bool
	}{
		{"LinearRegressionOutput", "data (squared loss in the backward pass)", false, false},
		{"MAERegressionOutput", "data (absolute loss in the backward pass)", false, true},
		{"LogisticRegressionOutput", "sigmoid(data) (logistic loss in the backward pass)", true, false},
	} {
		op := outputLayer(o.name, "Forward: "+o.what+". label has data's shape (or, where data's last axis "+
			"is 1, data's shape without it) and dtype.", []ops.Param{grad}, o.sigmoid, regressionLabel)
		op.Grad = regressionGrad(o.mae)
		ops.Register(op)
	}
	svm := outputLayer("SVMOutput", "Forward: data (the hinge loss is in the backward pass). label has data's "+
		"shape without the last axis and data's dtype.", []ops.Param{
		{Name: "margin", Kind: ops.ParamFloat, Default: "1", Doc: "the margin (unused forward)"},
		{Name: "regularization_coefficient", Kind: ops.ParamFloat, Default: "1", Doc: "unused forward"},
		{Name: "use_linear", Kind: ops.ParamBool, Default: "0", Doc: "L1 rather than L2 SVM (unused forward)"},
	}, false, func(d, l []int) bool { return len(d) > 0 && slices.Equal(l, d[:len(d)-1]) })
	svm.Grad = svmGrad
	ops.Register(svm)
	ops.Register(&ops.Op{
		Name: "khatri_rao",
		Doc: "The Khatri-Rao product: the column-wise Kronecker product of matrices with one number of columns; " +
			"for (m, k) and (n, k), row i*n + j is the elementwise product of rows i and j.",
		Category: ops.General, Inputs: []string{"*args"}, DTypes: ops.FloatDTypes,
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			rows := 1
			for _, a := range in {
				s := a.Shape()
				if len(s) != 2 || s[1] != in[0].Shape()[1] || a.DType() != in[0].DType() {
					return nil, 0, mxerr.ValueErr("khatri_rao: needs matrices of one dtype with %d columns, got %s %s",
						in[0].Shape()[len(in[0].Shape())-1], a.DType(), ops.FmtShape(s))
				}
				rows *= s[0]
			}
			shape := []int{rows, in[0].Shape()[1]}
			_, err := ndarray.Size(shape)
			return shape, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			k := in[0].Shape()[1]
			prod := make([]float64, k) // one all-ones row to start from
			for c := range prod {
				prod[c] = 1
			}
			for _, a := range in {
				v := ops.IndexValues(a)
				next := make([]float64, 0, len(prod)*a.Shape()[0])
				for i := 0; i < len(prod); i += k {
					for j := 0; j < len(v); j += k {
						for c := 0; c < k; c++ {
							next = append(next, prod[i+c]*v[j+c])
						}
					}
				}
				prod = next
			}
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return prod[i-1] })
			return nil
		},
	})
}

func regressionLabel(d, l []int) bool {
	return slices.Equal(l, d) || (len(d) > 0 && d[len(d)-1] == 1 && slices.Equal(l, d[:len(d)-1]))
}

func outputLayer(name, doc string, params []ops.Param, sigmoid bool, labelFits func(data, label []int) bool) *ops.Op {
	return &ops.Op{
		Name: name, Doc: doc, Category: ops.Elementwise, Inputs: []string{"data", "label"}, Params: params,
		DTypes: ops.FloatDTypes,
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if !labelFits(in[0].Shape(), in[1].Shape()) {
				return nil, 0, mxerr.ValueErr("%s: label of shape %s does not fit data of shape %s", name,
					ops.FmtShape(in[1].Shape()), ops.FmtShape(in[0].Shape()))
			}
			if in[1].DType() != in[0].DType() {
				return nil, 0, mxerr.TypeErr("%s: label is %s, data %s", name, in[1].DType(), in[0].DType())
			}
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			if sigmoid {
				sigmoidDef().Run(out[0], in[0])
			} else {
				ndarray.MoveElems(out[0], in[0])
			}
			return nil
		},
	}
}

func sigmoidDef() *unary.Def {
	for i := range unary.Defs {
		if unary.Defs[i].Name == "sigmoid" {
			return &unary.Defs[i]
		}
	}
	panic("ops: no sigmoid")
}
