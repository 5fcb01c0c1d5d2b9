package nn

import (
	"slices"
	"strconv"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Embedding's gradient, MXNet's dense one: weight's gradient adds each row of the head
// gradient into the row its index selected (rows no index selected get 0); a gradient of
// the indices is refused, as MXNet refuses it. The scatter-add is _backward_Embedding, a kernel of its own: as products of
// one-hot matrices it would cost a pass over input_dim for every index.

func init() {
	ops.Register(&ops.Op{
		Name: "_backward_Embedding",
		Doc: "The gradient of Embedding's weight (input_dim, output_dim) from its indices and the gradient " +
			"of its result. Internal: Embedding's Grad calls it.",
		Category: ops.General, Inputs: []string{"data", "out_grad"},
		Params: []ops.Param{
			{Name: "input_dim", Kind: ops.ParamInt, Doc: "the number of rows of weight"},
			{Name: "output_dim", Kind: ops.ParamInt, Doc: "the number of columns of weight"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			want := append(slices.Clone(in[0].Shape()), at.Int("output_dim"))
			if err := nnCheckShape("_backward_Embedding", "out_grad", in[1].Shape(), want); err != nil {
				return nil, 0, err
			}
			return []int{at.Int("input_dim"), at.Int("output_dim")}, in[1].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			idx, err := nnContiguous(in[0], ndarray.Float64)
			if err != nil {
				return err
			}
			defer idx.Release()
			rows, cols := at.Int("input_dim"), at.Int("output_dim")
			sel := make([]int, idx.Size())
			for i, v := range nnSlice[float64](idx) {
				sel[i] = embedRow(v, rows)
			}
			return nnCompute(in[1:], out[0],
				func(x [][]float32, y []float32) { embedScatter(sel, cols, x[0], y) },
				func(x [][]float64, y []float64) { embedScatter(sel, cols, x[0], y) })
		},
	})
}

// embedScatter sets dw to the sum of g's rows into the rows sel names.
func embedScatter[T nnFloat](sel []int, cols int, g, dw []T) {
	clear(dw)
	for i, r := range sel {
		dst := dw[r*cols : (r+1)*cols]
		for j, v := range g[i*cols : (i+1)*cols] {
			dst[j] += v
		}
	}
}

// embeddingGrad refuses a gradient of the indices, as MXNet's (its message).
var embeddingGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	if c.Need[0] {
		return nil, mxerr.New(mxerr.MXNet, "Embedding layer doesn't support calculate data gradient")
	}
	if !c.Need[1] {
		return []*ndarray.NDArray{nil, nil}, nil
	}
	dw, err := c.CallInto(1, "_backward_Embedding", "input_dim="+strconv.Itoa(c.Attrs.Int("input_dim"))+
		";output_dim="+strconv.Itoa(c.Attrs.Int("output_dim")), c.In[0], c.OutGrad[0])
	return []*ndarray.NDArray{nil, dw}, err
}}
