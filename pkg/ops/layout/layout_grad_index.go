package layout

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The gathers' gradients (take, pick, gather_nd, advanced indexing): the head gradient
// added back into a zero array of the table's shape at the positions the forward read, so
// repeated indices accumulate. A scatter-add cannot be built from operator calls, so each
// is an internal operator of its own (_backward_<op>, as MXNet names them) whose kernel is
// ops.ScatterAdd; they have no gradient themselves (no second order, as in MXNet). The
// indices get none: nil, a zero gradient, as MXNet gives them.

func init() {
	shapeParam := ops.Param{Name: "shape", Kind: ops.ParamShape, Doc: "the shape of the forward's data"}
	axisParam := ops.Param{Name: "axis", Kind: ops.ParamInt, Doc: "the forward's axis"}
	modeParam := ops.Param{Name: "mode", Kind: ops.ParamString, Default: "clip", Choices: indexModes, Doc: "the forward's mode"}
	backward := func(name string, params []ops.Param, offs func(in []*ndarray.NDArray, at ops.Attrs) ([]int, error)) {
		ops.Register(&ops.Op{
			Name:     "_backward_" + name,
			Doc:      "The gradient of " + name + "'s data from its indices and the gradient of its result. Internal: " + name + "'s Grad calls it.",
			Category: ops.General, Inputs: []string{"out_grad", "indices"}, Params: append([]ops.Param{shapeParam}, params...),
			Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
				return at.Ints("shape"), in[0].DType(), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				o, err := offs(in, at)
				if err != nil {
					return err
				}
				if len(o) != in[0].Size() {
					return mxerr.ValueErr("_backward_%s: out_grad of shape %s does not fit the indices", name, ops.FmtShape(in[0].Shape()))
				}
				return ops.ScatterAdd(out[0], in[0], o)
			},
		})
	}
	backward("take", []ops.Param{axisParam, modeParam}, func(in []*ndarray.NDArray, at ops.Attrs) ([]int, error) {
		s, axis := at.Ints("shape"), at.Int("axis")
		rows, err := resolveIndices("take", readIndices(in[1], false), s[axis], at.Str("mode"))
		return ops.AlongOffsets(s, axis, rows, false), err
	})
	backward("pick", []ops.Param{axisParam, modeParam}, func(in []*ndarray.NDArray, at ops.Attrs) ([]int, error) {
		s, axis := at.Ints("shape"), at.Int("axis")
		rows, err := resolveIndices("pick", readIndices(in[1], true), s[axis], at.Str("mode"))
		return ops.AlongOffsets(s, axis, rows, true), err
	})
	backward("gather_nd", nil, func(in []*ndarray.NDArray, at ops.Attrs) ([]int, error) {
		s := at.Ints("shape")
		rows, err := ndOffsets(s, ndarray.ContiguousStrides(s), in[1])
		block, _ := ndarray.Size(s[in[1].Shape()[0]:])
		return spanOffs([]int{0}, rows, block), err
	})
	backward("gather_axes", []ops.Param{axisParam}, func(in []*ndarray.NDArray, at ops.Attrs) ([]int, error) {
		s, axis := at.Ints("shape"), at.Int("axis")
		st := ndarray.ContiguousStrides(s)
		rows, err := spanOffsets(s, st, in[1], axis)
		post, _ := ndarray.Size(s[axis+in[1].Shape()[0]:])
		return spanOffs(ops.OffsetsOf(s[:axis], st[:axis], 0), rows, post), err
	})
}

// spanOffs is the C order of a gather from a contiguous array: for each offset of the
// axes before the gathered ones (pre), each row (an offset over the gathered axes) and
// each of the post elements after them.
func spanOffs(pre, rows []int, post int) []int {
	offs := make([]int, 0, len(pre)*len(rows)*post)
	for _, p := range pre {
		for _, r := range rows {
			for q := range post {
				offs = append(offs, p+r+q)
			}
		}
	}
	return offs
}

// indexGrad is the Gradient of a gather whose data gradient is _backward_<name> of the
// head gradient and the indices, with the forward's parameters and the data's shape.
func indexGrad(name string, params func(c *ops.GradCtx) (ops.Attrs, error)) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		if !c.Need[0] {
			return grads, nil
		}
		at, err := params(c)
		if err != nil {
			return nil, err
		}
		at["shape"] = slices.Clone(c.Shapes[0])
		op, err := ops.Lookup("_backward_" + name)
		if err != nil {
			return nil, err
		}
		grads[0], err = c.Run(op, []*ndarray.NDArray{c.OutGrad[0], c.In[1]}, at)
		return grads, err
	}}
}

// alongParams: take's and pick's axis (resolved) and mode.
func alongParams(name string) func(c *ops.GradCtx) (ops.Attrs, error) {
	return func(c *ops.GradCtx) (ops.Attrs, error) {
		axis, err := joinAxis(name, c.Attrs.Int("axis"), len(c.Shapes[0]))
		return ops.Attrs{"axis": axis, "mode": c.Attrs.Str("mode")}, err
	}
}

var (
	takeGrad       = indexGrad("take", alongParams("take"))
	pickGrad       = indexGrad("pick", alongParams("pick"))
	gatherNDGrad   = indexGrad("gather_nd", func(*ops.GradCtx) (ops.Attrs, error) { return ops.Attrs{}, nil })
	gatherAxesGrad = indexGrad("gather_axes", func(c *ops.GradCtx) (ops.Attrs, error) {
		return ops.Attrs{"axis": c.Attrs.Int("axis")}, nil
	})
)

// scatterNDGrad: scatter_nd's data gradient is gather_nd of the head gradient at the same
// indices (every element that was written, repeated ones too, as MXNet's).
var scatterNDGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	g, err := c.Call("gather_nd", "", c.OutGrad[0], c.In[1])
	return []*ndarray.NDArray{g, nil}, err
}}
