package layout

import (
	"maps"
	"slices"
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Gradients of pad, Crop, diag, depth_to_space / space_to_depth and the Sequence
// operators, as MXNet 1.9.1 defines them. Where a gradient is another layout operator
// (the inverse movement) it is a call; where elements of the result repeat elements of the
// input (pad's edge and reflect borders, SequenceLast's pick of one step) an internal
// backward operator adds them up.

func init() {
	ops.Register(&ops.Op{
		Name:     "_backward_Pad",
		Doc:      "The gradient of pad's data in modes 'edge' and 'reflect': each border element's gradient added to the element it copies. Internal: pad's Grad calls it.",
		Category: ops.General, Inputs: []string{"out_grad"},
		Params: []ops.Param{
			{Name: "shape", Kind: ops.ParamShape, Doc: "the shape of pad's data"},
			{Name: "mode", Kind: ops.ParamString, Choices: padModes[1:], Doc: "'edge' or 'reflect'"},
			{Name: "pad_width", Kind: ops.ParamShape, Doc: "pad's pad_width"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return at.Ints("shape"), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, width, mode := at.Ints("shape"), at.Ints("pad_width"), at.Str("mode")
			offs := []int{0}
			st := ndarray.ContiguousStrides(s)
			for d, n := range s { // the source of each output position, axis by axis in C order
				before := width[2*d]
				next := make([]int, 0, len(offs)*(n+before+width[2*d+1]))
				for _, o := range offs {
					for p := range n + before + width[2*d+1] {
						src := p
						if p < before || p >= before+n {
							src = padSource(p, before, n, mode)
						}
						next = append(next, o+(src-before)*st[d])
					}
				}
				offs = next
			}
			return ops.ScatterAdd(out[0], in[0], offs)
		},
	})
	ops.Register(&ops.Op{
		Name:     "_backward_sequence_last",
		Doc:      "The gradient of SequenceLast's data: the result's gradient at each sequence's last step, zeros elsewhere. Internal: SequenceLast's Grad calls it.",
		Category: ops.General, Inputs: []string{"*data"}, Params: seqParamsOf("the time axis: 0 or 1"),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), in[1].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := seqArgs("SequenceLast", slices.Delete(slices.Clone(in), 1, 2), at, 1)
			if err != nil {
				return err
			}
			o, og := out[0], in[1]
			ops.FillKernel(o, ops.Scalar{})
			for b, n := range g.lengths {
				if n < 1 {
					continue
				}
				shape := slices.Concat([]int{1}, og.Shape()[1:])
				row, err := ndarray.View(og.Storage(), og.DType(), shape, og.Strides(), og.Offset()+b*og.Strides()[0], false)
				if err != nil {
					return err
				}
				err = withSeqView(o, g, b, n-1, 1, 1, func(v *ndarray.NDArray) { ndarray.MoveElems(v, row) })
				row.Release()
				if err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// padGrad: in mode constant the gradient is the inner region of the result's; the edge and
// reflect borders also add into the elements they copy (_backward_Pad).
var padGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s, width := c.Shapes[0], c.Attrs.Ints("pad_width")
	if mode := c.Attrs.Str("mode"); mode != "constant" {
		op, err := ops.Lookup("_backward_Pad")
		if err != nil {
			return nil, err
		}
		g, err := c.Run(op, c.OutGrad, ops.Attrs{"shape": slices.Clone(s), "mode": mode, "pad_width": width})
		return []*ndarray.NDArray{g}, err
	}
	begin, end := make([]int, len(s)), make([]int, len(s))
	for d, n := range s {
		begin[d], end[d] = width[2*d], width[2*d]+n
	}
	g, err := c.Call("slice", "begin="+ops.WireInts(begin)+";end="+ops.WireInts(end), c.OutGrad[0])
	return []*ndarray.NDArray{g}, err
}}

// spaceGrad: depth_to_space and space_to_depth undo each other (inverse names the other).
func spaceGrad(inverse string) *ops.Gradient {
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		g, err := c.Call(inverse, "block_size="+strconv.Itoa(c.Attrs.Int("block_size")), c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}}
}

// diagGrad: a diagonal matrix made from a 1-D array gives back its diagonal; a diagonal
// taken from an array gets the gradient on that diagonal, zeros elsewhere.
var diagGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	if len(c.Shapes[0]) == 1 {
		g, err := c.Call("diag", "k="+strconv.Itoa(c.Attrs.Int("k")), c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}
	return diagRegionGrad.Func(c)
}}

var diagRegionGrad = ops.RegionGrad(func(z *ndarray.NDArray, _ []int, at ops.Attrs) ([]int, []int, int, error) {
	a1, a2, err := diagAxes(z.NDim(), at)
	if err != nil {
		return nil, nil, 0, err
	}
	shape, strides, off := diagLayout(z.Shape(), z.Strides(), z.Offset(), a1, a2, at.Int("k"))
	return shape, strides, off, nil
})

// cropRegion: Crop's window over z (the second array, read for its shape, gets none).
func cropRegion(z *ndarray.NDArray, out []int, at ops.Attrs) ([]int, []int, int, error) {
	s, st, off := z.Shape(), z.Strides(), at.Ints("offset")
	if at.Bool("center_crop") {
		off = []int{(s[2] - out[2]) / 2, (s[3] - out[3]) / 2}
	}
	return out, st, z.Offset() + off[0]*st[2] + off[1]*st[3], nil
}

// The Sequence operators' gradients: SequenceMask masks the gradient as it masked the
// data (with 0), SequenceReverse reverses it back, SequenceLast puts it at each last step.
// sequence_length gets none.

var seqMaskGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	at := maps.Clone(c.Attrs)
	at["value"] = 0.0
	return seqRun(c, c.Op, at, c.OutGrad[0])
}}

var seqReverseGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	return seqRun(c, c.Op, c.Attrs, c.OutGrad[0])
}}

var seqLastGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	op, err := ops.Lookup("_backward_sequence_last")
	if err != nil {
		return nil, err
	}
	return seqRun(c, op, c.Attrs, c.In[0], c.OutGrad[0])
}}

// seqRun runs op on arrays and the call's sequence lengths, when it had them.
func seqRun(c *ops.GradCtx, op *ops.Op, at ops.Attrs, arrays ...*ndarray.NDArray) ([]*ndarray.NDArray, error) {
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	in := arrays
	if len(c.Shapes) == 2 {
		in = append(slices.Clone(arrays), c.In[1])
	}
	g, err := c.Run(op, in, at)
	grads[0] = g
	return grads, err
}
