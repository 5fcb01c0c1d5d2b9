package sorting

import (
	"maps"
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Gradients of sort and topk, as MXNet 1.9.1's: the values' gradient goes back to the
// positions the values came from (sort is topk of the whole axis). The positions are the
// forward's indices, recomputed from the saved input by the same stable sort, and the
// scatter-add is _backward_topk, an internal operator (no second order, as in MXNet).
// Indices, masks and argsort are constant almost everywhere: zero gradients.

func init() {
	ops.Register(&ops.Op{
		Name: "_backward_topk",
		Doc: "The gradient of topk's (or sort's) data: each element of out_grad added at the position along axis " +
			"that indices names (None: into the flattened array). Internal: topk's and sort's Grad call it.",
		Category: ops.General, Inputs: []string{"out_grad", "indices"},
		Params: []ops.Param{
			{Name: "shape", Kind: ops.ParamShape, Doc: "the shape of the forward's data"},
			{Name: "axis", Kind: ops.ParamOptInt, Default: "-1", Doc: sortAxisDoc},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if !slices.Equal(in[0].Shape(), in[1].Shape()) {
				return nil, 0, mxerr.ValueErr("_backward_topk: out_grad %s and indices %s differ in shape",
					ops.FmtShape(in[0].Shape()), ops.FmtShape(in[1].Shape()))
			}
			return at.Ints("shape"), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s := at.Ints("shape")
			pre, n, post := 1, 1, 1
			for _, d := range s {
				n *= d
			}
			if axis, ok := at.OptInt("axis"); ok {
				a, err := ops.LaneAxis("topk", axis, len(s))
				if err != nil {
					return err
				}
				pre, _ = ndarray.Size(s[:a])
				post, _ = ndarray.Size(s[a+1:])
				n = s[a]
			}
			idx := ops.IndexValues(in[1])
			k := len(idx) / max(pre*post, 1)
			offs := make([]int, len(idx)) // element (p, r, q) came from (p, idx, q)
			for i, v := range idx {
				p, q := i/(k*post), i%post
				offs[i] = (p*n+int(v))*post + q
			}
			return ops.ScatterAdd(out[0], in[0], offs)
		},
	})
}

// sortGrad is sort's and topk's Gradient: the values' head gradient scattered back through
// the indices that the same call with ret_typ='indices' gives.
var sortGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	rets := sortRets(c.Op.Name, c.Attrs)
	vi := slices.Index(rets, "value")
	if vi < 0 || !c.Need[0] { // indices or a mask only
		return make([]*ndarray.NDArray, 1), nil
	}
	at := maps.Clone(c.Attrs)
	at["dtype"] = ndarray.Int64
	op, err := ops.Lookup("topk")
	if err != nil {
		return nil, err
	}
	if c.Op.Name == "sort" {
		at["k"] = 0
	}
	at["ret_typ"] = "indices"
	idx, err := c.Run(op, c.In, at)
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	back, err := ops.Lookup("_backward_topk")
	if err != nil {
		return nil, err
	}
	g, err := c.Run(back, []*ndarray.NDArray{c.OutGrad[vi], idx}, ops.Attrs{"shape": slices.Clone(c.Shapes[0]), "axis": c.Attrs["axis"]})
	return []*ndarray.NDArray{g}, err
}}
