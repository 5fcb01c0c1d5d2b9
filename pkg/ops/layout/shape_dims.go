package layout

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's operators that rearrange dimensions: expand_dims, squeeze, flatten (Flatten),
// swapaxes (SwapAxis), flip (reverse) and slice_axis. Each returns a copy, as MXNet's do;
// the kernels copy from a strided view of the input (negative strides for flip, a
// permutation for swapaxes, an offset for slice_axis) or in C order (the reshapes).

func init() {
	ops.Register(&ops.Op{
		Name: "expand_dims", Grad: ops.ReshapeBack,
		Doc: "Inserts an axis of length 1 at position axis (a copy; x.expand_dims(axis, inplace=True) is a view).\n\n" +
			"axis counts in the result: -ndim-1 <= axis <= ndim.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "axis", Kind: ops.ParamInt, Doc: "where the new axis goes"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			axis, err := joinAxis("expand_dims", at.Int("axis"), len(s)+1)
			if err != nil {
				return nil, 0, err
			}
			return insertDim(s, axis, 1), in[0].DType(), nil
		},
		Kernel: reshapeKernel,
	})
	ops.Register(&ops.Op{
		Name: "squeeze", Grad: ops.ReshapeBack,
		Doc: "Removes axes of length 1 (a copy; x.squeeze(inplace=True) is a view).\n\n" +
			"axis=None removes every axis of length 1; a named axis must have length 1. As in MXNet, " +
			"squeezing every axis of an array leaves shape (1,).",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: "the axes to remove (None: every axis of length 1)"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, err := squeezeShape(in[0].Shape(), at.Ints("axis"))
			return shape, in[0].DType(), err
		},
		Kernel: reshapeKernel,
	})
	ops.RegisterAs(&ops.Op{
		Doc: "Collapses every axis but the first: shape (d0, d1*...*dk) (MXNet's Flatten; a 1-D array " +
			"becomes (d0, 1), a 0-d one (1, 1)).",
		Category: ops.General, Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			if len(s) == 0 {
				return []int{1, 1}, in[0].DType(), nil
			}
			rest, _ := ndarray.Size(s[1:])
			return []int{s[0], rest}, in[0].DType(), nil
		},
		Kernel: reshapeKernel,
		Grad:   ops.ReshapeBack,
	}, "flatten", "Flatten")
	ops.RegisterAs(&ops.Op{
		Doc:      "Interchanges two axes of an array (a copy). Negative axes count from the end.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "dim1", Kind: ops.ParamInt, Default: "0", Doc: "the first axis"},
			{Name: "dim2", Kind: ops.ParamInt, Default: "0", Doc: "the second axis"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			perm, err := swapPerm(in[0].NDim(), at)
			if err != nil {
				return nil, 0, err
			}
			return permute(in[0].Shape(), perm), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			perm, err := swapPerm(in[0].NDim(), at)
			if err != nil {
				return err
			}
			return moveFromView(out[0], in[0], permute(in[0].Shape(), perm), permute(in[0].Strides(), perm), in[0].Offset())
		},
		Grad: ops.SelfInverse,
	}, "swapaxes", "SwapAxis")
	ops.RegisterAs(&ops.Op{
		Doc: "Reverses the order of the elements along the given axes (a copy).\n\n" +
			"As in MXNet, axes are non-negative, and an axis named twice is reversed twice.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "axis", Kind: ops.ParamAxes, Doc: "the axes to reverse"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := flipAxes(in[0].NDim(), at.Ints("axis"))
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			flipped, err := flipAxes(in[0].NDim(), at.Ints("axis"))
			if err != nil {
				return err
			}
			a := in[0]
			strides, off := append([]int(nil), a.Strides()...), a.Offset()
			for ax, f := range flipped {
				if f && a.Shape()[ax] > 0 {
					off += (a.Shape()[ax] - 1) * strides[ax]
					strides[ax] = -strides[ax]
				}
			}
			return moveFromView(out[0], a, a.Shape(), strides, off)
		},
		Grad: ops.SelfInverse,
	}, "flip", "reverse")
	ops.Register(&ops.Op{
		Name: "slice_axis", Grad: ops.RegionGrad(sliceAxisRegion),
		Doc: "Takes elements begin <= i < end along one axis (a copy).\n\n" +
			"Negative begin and end count from the end; end=None is the axis' length. As in MXNet, " +
			"the slice must be in range and not empty.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamInt, Doc: "the axis to slice (negative counts from the end)"},
			{Name: "begin", Kind: ops.ParamInt, Doc: "the first index taken"},
			{Name: "end", Kind: ops.ParamOptInt, Doc: "one past the last index taken (None: the end)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			axis, b, e, err := sliceAxisRange(in[0].Shape(), at)
			if err != nil {
				return nil, 0, err
			}
			shape := append([]int(nil), in[0].Shape()...)
			shape[axis] = e - b
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			axis, b, _, err := sliceAxisRange(in[0].Shape(), at)
			if err != nil {
				return err
			}
			a := in[0]
			return moveFromView(out[0], a, out[0].Shape(), a.Strides(), a.Offset()+b*a.Strides()[axis])
		},
	})
}

// reshapeKernel copies the input's elements in C order into the output (another shape).
func reshapeKernel(in, out []*ndarray.NDArray, _ ops.Attrs) error { return reshapeInto(out[0], in[0]) }

// moveFromView copies into dst the view of src's storage with the given layout (same
// shape as dst, every element inside src).
func moveFromView(dst, src *ndarray.NDArray, shape, strides []int, offset int) error {
	v, err := ndarray.View(src.Storage(), src.DType(), shape, strides, offset, false)
	if err != nil {
		return err
	}
	defer v.Release()
	ndarray.MoveElems(dst, v)
	return nil
}

func insertDim(s []int, at, d int) []int {
	out := make([]int, 0, len(s)+1)
	out = append(out, s[:at]...)
	out = append(out, d)
	return append(out, s[at:]...)
}

func permute(s, perm []int) []int {
	out := make([]int, len(perm))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

func squeezeShape(s []int, axes []int) ([]int, error) {
	drop := make([]bool, len(s))
	if axes == nil {
		for i, d := range s {
			drop[i] = d == 1
		}
	} else {
		norm, err := ops.NormalizeAxes(axes, len(s))
		if err != nil {
			return nil, ops.WithOpName("squeeze", err)
		}
		for _, a := range norm {
			if s[a] != 1 {
				return nil, mxerr.ValueErr("squeeze: cannot select an axis to squeeze out which has size=%d not equal to one (axis %d)", s[a], a)
			}
			drop[a] = true
		}
	}
	out := []int{}
	for i, d := range s {
		if !drop[i] {
			out = append(out, d)
		}
	}
	if len(out) == 0 && len(s) > 0 {
		out = append(out, 1) // MXNet has no 0-d result here
	}
	return out, nil
}

func swapPerm(ndim int, at ops.Attrs) ([]int, error) {
	d1, err := joinAxis("swapaxes", at.Int("dim1"), ndim)
	if err != nil {
		return nil, err
	}
	d2, err := joinAxis("swapaxes", at.Int("dim2"), ndim)
	if err != nil {
		return nil, err
	}
	perm := make([]int, ndim)
	for i := range perm {
		perm[i] = i
	}
	perm[d1], perm[d2] = perm[d2], perm[d1]
	return perm, nil
}

// flipAxes says which axes flip reverses: MXNet takes axes in [0, ndim) only, and an axis
// named twice is reversed twice.
func flipAxes(ndim int, axes []int) ([]bool, error) {
	if axes == nil {
		return nil, mxerr.TypeErr("flip: the axis parameter is required")
	}
	flipped := make([]bool, ndim)
	for _, a := range axes {
		if a < 0 || a >= ndim {
			return nil, mxerr.IndexErr("flip: axis %d is out of range [0, %d) (MXNet takes no negative axes here)", a, ndim)
		}
		flipped[a] = !flipped[a]
	}
	return flipped, nil
}

func fmtOptInt(at ops.Attrs, name string) string {
	if v, ok := at.OptInt(name); ok {
		return strconv.Itoa(v)
	}
	return "None"
}

// sliceAxisRange resolves slice_axis's parameters as MXNet does.
func sliceAxisRange(s []int, at ops.Attrs) (axis, b, e int, err error) {
	if axis, err = joinAxis("slice_axis", at.Int("axis"), len(s)); err != nil {
		return 0, 0, 0, err
	}
	n := s[axis]
	b = at.Int("begin")
	if b < 0 {
		b += n
	}
	e, given := at.OptInt("end")
	switch {
	case !given:
		e = n
	case e < 0:
		e += n
	}
	if b < 0 || e > n || b >= e {
		return 0, 0, 0, mxerr.ValueErr("slice_axis: invalid begin=%d, end=%s for axis %d of length %d "+
			"(MXNet needs 0 <= begin < end <= length)", at.Int("begin"), fmtOptInt(at, "end"), axis, n)
	}
	return axis, b, e, nil
}
