package layout

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's slicing operators: slice (crop), slice_like, reshape_like, shape_array,
// size_array and _split_part (one output of split, SliceChannel and split_v2: the Python
// wrappers call it once per output, so every output is an ordinary one-output operator).
// Each result is a copy read through a strided view of the input.

func init() {
	ops.RegisterAs(&ops.Op{
		Doc: "Takes a strided region of an array (a copy): begin, end and step per leading axis, " +
			"None meaning the whole axis.\n\n" +
			"As in MXNet 1.9 (and Python slicing), negative bounds count from the end and out-of-range " +
			"bounds are clipped, so a slice may be empty; step may be negative but not 0. Axes past " +
			"len(begin) are taken whole. crop is MXNet's deprecated alias.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "begin", Kind: ops.ParamOptInts, Doc: "the first index taken on each axis (None: the start)"},
			{Name: "end", Kind: ops.ParamOptInts, Doc: "one past the last index on each axis (None: the end)"},
			{Name: "step", Kind: ops.ParamOptInts, Default: "()", Doc: "the step on each axis (None or (): 1)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, _, _, err := sliceLayout(in[0], at)
			return shape, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			shape, strides, off, err := sliceLayout(in[0], at)
			if err != nil || out[0].Size() == 0 {
				return err
			}
			return moveFromView(out[0], in[0], shape, strides, off)
		},
		Grad: ops.RegionGrad(sliceRegion),
	}, "slice", "crop")
	ops.Register(&ops.Op{
		Name: "slice_like", Grad: ops.RegionGrad(sliceLikeRegion),
		Doc: "Slices data to the shape of shape_like on the given axes, keeping the start of each axis.\n\n" +
			"axes=() or None (the default) means every axis, and then both arrays have the same number of " +
			"dimensions. shape_like's size on each axis may not exceed data's.",
		Category: ops.General, Inputs: []string{"data", "shape_like"},
		Params: []ops.Param{{Name: "axes", Kind: ops.ParamAxes, Default: "None", Doc: "the axes to slice (None or (): every axis)"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, err := sliceLikeShape(in[0].Shape(), in[1].Shape(), at.Ints("axes"))
			return shape, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			if out[0].Size() == 0 {
				return nil
			}
			return moveFromView(out[0], in[0], out[0].Shape(), in[0].Strides(), in[0].Offset())
		},
	})
	ops.Register(&ops.Op{
		Name: "reshape_like", Grad: ops.ReshapeBack,
		Doc: "Reshapes lhs (in C order, a copy) to lhs.shape[:lhs_begin] + rhs.shape[rhs_begin:rhs_end] + " +
			"lhs.shape[lhs_end:].\n\nBy default the whole of lhs takes rhs's whole shape. Negative bounds " +
			"count from the end; each range must be non-empty and the sizes must agree.",
		Category: ops.General, Inputs: []string{"lhs", "rhs"},
		Params: []ops.Param{
			{Name: "lhs_begin", Kind: ops.ParamOptInt, Default: "None", Doc: "the first axis of lhs replaced (None: 0)"},
			{Name: "lhs_end", Kind: ops.ParamOptInt, Default: "None", Doc: "one past the last axis of lhs replaced (None: ndim)"},
			{Name: "rhs_begin", Kind: ops.ParamOptInt, Default: "None", Doc: "the first axis of rhs used (None: 0)"},
			{Name: "rhs_end", Kind: ops.ParamOptInt, Default: "None", Doc: "one past the last axis of rhs used (None: ndim)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, err := reshapeLikeShape(in[0].Shape(), in[1].Shape(), at)
			return shape, in[0].DType(), err
		},
		Kernel: reshapeKernel,
	})
	ops.Register(&ops.Op{
		Name: "shape_array", Grad: ops.ZeroGrad,
		Doc:      "Returns the shape of an array as a 1-D int64 array.",
		Category: ops.General, Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{in[0].NDim()}, ndarray.Int64, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return storeInts(out[0], in[0].Shape()) },
	})
	ops.Register(&ops.Op{
		Name: "size_array", Grad: ops.ZeroGrad,
		Doc:      "Returns the number of elements of an array as an int64 array of shape (1,).",
		Category: ops.General, Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return []int{1}, ndarray.Int64, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return storeInts(out[0], []int{in[0].Size()}) },
	})
	ops.Register(&ops.Op{
		Name: "_split_part", Grad: ops.RegionGrad(splitRegion),
		Doc: "One output of split/SliceChannel (num_outputs equal parts) or split_v2 (parts starting at " +
			"indices): the part numbered part along axis, without the axis when squeeze_axis.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "num_outputs", Kind: ops.ParamOptInt, Default: "None", Doc: "the number of equal parts (None: use indices)"},
			{Name: "indices", Kind: ops.ParamOptInts, Default: "()", Doc: "where each part starts (split_v2)"},
			{Name: "axis", Kind: ops.ParamInt, Default: "1", Doc: "the axis to split"},
			{Name: "squeeze_axis", Kind: ops.ParamBool, Default: "0", Doc: "remove the axis (each part has length 1 on it)"},
			{Name: "part", Kind: ops.ParamInt, Default: "0", Doc: "which part to return"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			p, err := splitPart(in[0].Shape(), at)
			if err != nil {
				return nil, 0, err
			}
			return p.outShape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			p, err := splitPart(in[0].Shape(), at)
			if err != nil || out[0].Size() == 0 {
				return err
			}
			a := in[0]
			strides := a.Strides()
			if at.Bool("squeeze_axis") { // the part has length 1 on the axis: drop its stride
				strides = append(strides[:p.axis:p.axis], strides[p.axis+1:]...)
			}
			return moveFromView(out[0], a, p.outShape, strides, a.Offset()+p.begin*a.Strides()[p.axis])
		},
	})
}

// sliceLayout resolves slice's parameters as MXNet 1.9's GetIndexRange and
// SetSliceOpOutputDimSize do, giving the layout of the view of a that is the result.
func sliceLayout(a *ndarray.NDArray, at ops.Attrs) (shape, strides []int, off int, err error) {
	begin, end, step := at.OptInts("begin"), at.OptInts("end"), at.OptInts("step")
	s := a.Shape()
	switch {
	case len(s) == 0:
		return nil, nil, 0, mxerr.ValueErr("slice: cannot slice a 0-d array")
	case len(begin) > len(s) || len(end) > len(s):
		return nil, nil, 0, mxerr.ValueErr("slice: slicing %d axes exceeds the %d dimensions of the data", max(len(begin), len(end)), len(s))
	case len(begin) != len(end):
		return nil, nil, 0, mxerr.ValueErr("slice: begin and end must have the same length, got %d and %d", len(begin), len(end))
	case len(step) != 0 && len(step) != len(begin):
		return nil, nil, 0, mxerr.ValueErr("slice: step and begin must have the same length, got %d and %d", len(step), len(begin))
	}
	shape = append([]int(nil), s...)
	strides = append([]int(nil), a.Strides()...)
	off = a.Offset()
	for i := range begin {
		st := 1
		if len(step) > 0 && step[i].Set {
			st = step[i].V
		}
		if st == 0 {
			return nil, nil, 0, mxerr.ValueErr("slice: step[%d] cannot be 0", i)
		}
		b, n := sliceBounds(s[i], begin[i], end[i], st)
		shape[i] = n
		if n > 0 {
			off += b * strides[i]
		}
		strides[i] *= st
	}
	return shape, strides, off, nil
}

// sliceBounds is MXNet 1.9's range of one axis of length n: the first index and the
// number of elements (begin past the axis gives none; end is clipped to [-1, n]).
func sliceBounds(n int, begin, end ops.OptInt, step int) (b, count int) {
	if n == 0 {
		return 0, 0
	}
	b, e := 0, n
	if step < 0 {
		b, e = n-1, -1
	}
	if begin.Set {
		if b = begin.V; b < 0 {
			b += n
		}
	}
	if end.Set {
		if e = end.V; e < 0 {
			e += n
		}
	}
	if b < 0 && step > 0 {
		b = 0
	}
	if b > n-1 && step < 0 {
		b = n - 1
	}
	if b < 0 || b > n-1 {
		return 0, 0
	}
	e = min(max(e, -1), n)
	switch {
	case step > 0 && e > b:
		return b, (e-b-1)/step + 1
	case step < 0 && e < b:
		return b, (b-e-1)/(-step) + 1
	}
	return 0, 0
}

func sliceLikeShape(s, like, axes []int) ([]int, error) {
	out := append([]int(nil), s...)
	if len(axes) == 0 {
		if len(s) != len(like) {
			return nil, mxerr.ValueErr("slice_like: with axes=() every axis is sliced, but the inputs have %d and %d dimensions", len(s), len(like))
		}
		for i := range s {
			if like[i] > s[i] {
				return nil, mxerr.ValueErr("slice_like: axis %d of shape_like has size %d, more than data's %d", i, like[i], s[i])
			}
		}
		return append([]int(nil), like...), nil
	}
	for _, ax := range axes {
		a := ax
		if a < 0 {
			a += len(s)
		}
		if a < 0 || a >= len(s) {
			return nil, mxerr.IndexErr("slice_like: axis %d is out of bounds for data of dimension %d", ax, len(s))
		}
		if a >= len(like) {
			return nil, mxerr.IndexErr("slice_like: axis %d is out of bounds for shape_like of dimension %d", ax, len(like))
		}
		if like[a] > s[a] {
			return nil, mxerr.ValueErr("slice_like: axis %d of shape_like has size %d, more than data's %d", a, like[a], s[a])
		}
		out[a] = like[a]
	}
	return out, nil
}

func reshapeLikeShape(ls, rs []int, at ops.Attrs) ([]int, error) {
	lb, le, err := reshapeLikeRange(len(ls), at, "lhs")
	if err != nil {
		return nil, err
	}
	rb, re, err := reshapeLikeRange(len(rs), at, "rhs")
	if err != nil {
		return nil, err
	}
	shape := append(append(append([]int{}, ls[:lb]...), rs[rb:re]...), ls[le:]...)
	if len(shape) > ndarray.MaxDims {
		return nil, mxerr.ValueErr("reshape_like: the result has %d dimensions, more than %d", len(shape), ndarray.MaxDims)
	}
	n, _ := ndarray.Size(ls)
	if m, err := ndarray.Size(shape); err != nil || m != n {
		return nil, mxerr.ValueErr("reshape_like: cannot reshape lhs of shape %s to %s: the sizes differ", ops.FmtShape(ls), ops.FmtShape(shape))
	}
	return shape, nil
}

// reshapeLikeRange resolves side's (lhs or rhs) begin and end, as MXNet checks them.
func reshapeLikeRange(ndim int, at ops.Attrs, side string) (b, e int, err error) {
	b, _ = at.OptInt(side + "_begin")
	if b < 0 {
		b += ndim
	}
	e, given := at.OptInt(side + "_end")
	switch {
	case !given:
		e = ndim
	case e < 0:
		e += ndim
	}
	if b < 0 || e > ndim || b >= e {
		return 0, 0, mxerr.ValueErr("reshape_like: invalid %s_begin=%s, %s_end=%s for %d dimensions (MXNet needs 0 <= begin < end <= ndim)",
			side, fmtOptInt(at, side+"_begin"), side, fmtOptInt(at, side+"_end"), ndim)
	}
	return b, e, nil
}

// storeInts writes v into the 1-D int64 array out.
func storeInts(out *ndarray.NDArray, v []int) error {
	for i, x := range v {
		*ops.ElemAt[int64](out.Storage().Ptr(), out.Offset()+i*out.Strides()[0]) = int64(x)
	}
	return nil
}

type splitRange struct {
	axis, begin, end int
	outShape         []int
}

// splitPart resolves one part of split (equal parts) or split_v2 (parts starting at
// indices), with MXNet's checks.
func splitPart(s []int, at ops.Attrs) (splitRange, error) {
	var p splitRange
	axis, err := joinAxis("split", at.Int("axis"), len(s))
	if err != nil {
		return p, err
	}
	n := s[axis]
	var starts []int
	for _, x := range at.OptInts("indices") {
		if !x.Set {
			return p, mxerr.TypeErr("split: indices must be ints, got None")
		}
		starts = append(starts, x.V)
	}
	if k, ok := at.OptInt("num_outputs"); ok {
		if k < 1 {
			return p, mxerr.ValueErr("split: num_outputs must be at least 1, got %d", k)
		}
		if n%k != 0 || k > max(n, 1) { // (more parts than elements: only possible when n is 0)
			return p, mxerr.ValueErr("split: axis %d of an array of shape %s cannot be split into %d equal parts", axis, ops.FmtShape(s), k)
		}
		starts = make([]int, k)
		for i := range starts {
			starts[i] = i * (n / k)
		}
	}
	for i, b := range starts {
		e := n
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		switch {
		case b < 0 || b > e:
			return p, mxerr.ValueErr("split: part %d starts at %d, after its end %d", i, b, e)
		case e > n:
			return p, mxerr.ValueErr("split: part %d ends at %d, past the axis' length %d", i, e, n)
		case at.Bool("squeeze_axis") && e-b != 1:
			return p, mxerr.ValueErr("split: with squeeze_axis every part has length 1 along the axis, part %d has %d", i, e-b)
		}
	}
	k := at.Int("part")
	if k < 0 || k >= len(starts) {
		return p, mxerr.IndexErr("split: part %d is out of range for %d parts", k, len(starts))
	}
	p.axis, p.begin, p.end = axis, starts[k], n
	if k+1 < len(starts) {
		p.end = starts[k+1]
	}
	p.outShape = append([]int(nil), s...)
	p.outShape[axis] = p.end - p.begin
	if at.Bool("squeeze_axis") {
		p.outShape = append(p.outShape[:axis:axis], s[axis+1:]...)
	}
	return p, nil
}
