package layout

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's operators that repeat elements: tile, repeat, broadcast_to, broadcast_like and
// broadcast_axis (broadcast_axes). Each kernel copies from a view of the input whose
// repeated dimensions have stride 0; tile and repeat view the output's C order as more
// dimensions than it has (each repeated axis split in two).

func init() {
	ops.Register(&ops.Op{
		Name: "tile", Grad: tileGrad,
		Doc: "Repeats the whole array reps[i] times along each axis i.\n\n" +
			"A shorter reps is padded with leading 1s, a longer one adds leading axes to the array " +
			"(as NumPy's tile). A rep of 0 gives an empty result (MXNet 1.x, which has no empty arrays, refuses it).",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "reps", Kind: ops.ParamShape, Doc: "the number of repetitions along each axis"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, r, err := tileDims(in[0].Shape(), at.Ints("reps"))
			if err != nil {
				return nil, 0, err
			}
			out, err := grown("tile", s, r)
			return out, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0]
			s, r, err := tileDims(a.Shape(), at.Ints("reps"))
			if err != nil {
				return err
			}
			lead := len(s) - a.NDim()
			var shape, strides []int
			for i := range s {
				st := 0
				if i >= lead {
					st = a.Strides()[i-lead]
				}
				if r[i] != 1 { // the copies of axis i: stride 0
					shape, strides = append(shape, r[i]), append(strides, 0)
				}
				if s[i] != 1 || r[i] == 1 {
					shape, strides = append(shape, s[i]), append(strides, st)
				}
			}
			return repeatInto(out[0], a, shape, strides)
		},
	})
	ops.Register(&ops.Op{
		Name: "repeat", Grad: repeatGrad,
		Doc: "Repeats each element repeats times along axis (axis=None: of the flattened array, giving 1-D).\n\n" +
			"repeats=0 gives an empty result.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "repeats", Kind: ops.ParamInt, Doc: "how many times each element repeats"},
			{Name: "axis", Kind: ops.ParamOptInt, Default: "None", Doc: "the axis to repeat along (negative counts from the end; None: flatten first)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			axis, flat, err := repeatAxis(s, at)
			if err != nil {
				return nil, 0, err
			}
			if flat {
				s, axis = []int{in[0].Size()}, 0
			}
			factors := make([]int, len(s))
			for i := range factors {
				factors[i] = 1
			}
			factors[axis] = at.Int("repeats")
			out, err := grown("repeat", s, factors)
			return out, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0]
			axis, flat, err := repeatAxis(a.Shape(), at)
			if err != nil {
				return err
			}
			if flat { // repeating the last axis repeats the flat order (-1: a 0-d array's element)
				axis = a.NDim() - 1
			}
			// a view with an axis of length repeats and stride 0 after axis: its elements
			// in C order are the result's (flat or not)
			shape := slices.Insert(slices.Clone(a.Shape()), axis+1, at.Int("repeats"))
			strides := slices.Insert(slices.Clone(a.Strides()), axis+1, 0)
			return repeatInto(out[0], a, shape, strides)
		},
	})
	ops.Register(&ops.Op{
		Name: "broadcast_to", Grad: ops.SumBack,
		Doc: "Broadcasts an array to a shape with as many axes: axes of length 1 repeat (a copy).\n\n" +
			"A 0 in shape keeps the input's length there (MXNet's convention). NDArray.broadcast_to " +
			"also accepts more axes (added in front).",
		Category: ops.Broadcast, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "shape", Kind: ops.ParamShape, Doc: "the shape of the result (0: keep)"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, want := in[0].Shape(), at.Ints("shape")
			if len(want) != len(s) {
				return nil, 0, mxerr.ValueErr("broadcast_to: operand of shape %s cannot be broadcast to %s "+
					"(the number of axes must match)", ops.FmtShape(s), ops.FmtShape(want))
			}
			out := make([]int, len(s))
			for i, d := range want {
				switch {
				case d < 0:
					return nil, 0, mxerr.ValueErr("broadcast_to: negative length %d in shape %s", d, ops.FmtShape(want))
				case d == 0:
					d = s[i]
				case s[i] != d && s[i] != 1:
					return nil, 0, mxerr.ValueErr("broadcast_to: array cannot be broadcast from %s to %s", ops.FmtShape(s), ops.FmtShape(want))
				}
				out[i] = d
			}
			return out, in[0].DType(), nil
		},
		Kernel: broadcastCopy,
	})
	ops.Register(&ops.Op{
		Name: "broadcast_like", Grad: ops.SumBack,
		Doc: "Broadcasts lhs to the shape of rhs (a copy; only rhs's shape is read).\n\n" +
			"Without axes both have as many axes and lhs's differ from rhs's only where they are 1. " +
			"With lhs_axes and rhs_axes (both, of one non-zero length), axis lhs_axes[i] of lhs, which " +
			"must be 1, takes the length of axis rhs_axes[i] of rhs.",
		Category: ops.Broadcast, Inputs: []string{"lhs", "rhs"},
		Params: []ops.Param{
			{Name: "lhs_axes", Kind: ops.ParamAxes, Default: "None", Doc: "axes of lhs to broadcast (negative counts from the end)"},
			{Name: "rhs_axes", Kind: ops.ParamAxes, Default: "None", Doc: "the axes of rhs whose lengths they take"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, err := broadcastLikeShape(in[0].Shape(), in[1].Shape(), at.Ints("lhs_axes"), at.Ints("rhs_axes"))
			return shape, in[0].DType(), err
		},
		Kernel: broadcastCopy,
	})
	ops.RegisterAs(&ops.Op{
		Doc: "Broadcasts axes of length 1 to new lengths: axis[i] gets length size[i] (a copy).\n\n" +
			"As in MXNet, axes are non-negative.",
		Category: ops.Broadcast, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: "the axes to broadcast (None: none)"},
			{Name: "size", Kind: ops.ParamAxes, Default: "None", Doc: "their new lengths, one per axis (None: none)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			axes, sizes := at.Ints("axis"), at.Ints("size")
			if len(axes) != len(sizes) {
				return nil, 0, mxerr.ValueErr("broadcast_axis: axis %v and size %v differ in length", axes, sizes)
			}
			out := append([]int(nil), in[0].Shape()...)
			for i, a := range axes {
				switch {
				case a < 0 || a >= len(out):
					return nil, 0, mxerr.IndexErr("broadcast_axis: axis %d is out of range [0, %d)", a, len(out))
				case out[a] != 1:
					return nil, 0, mxerr.ValueErr("broadcast_axis: broadcasting axis %d must have length 1, not %d", a, out[a])
				case sizes[i] < 0:
					return nil, 0, mxerr.ValueErr("broadcast_axis: negative size %d", sizes[i])
				}
				out[a] = sizes[i]
			}
			return out, in[0].DType(), nil
		},
		Kernel: broadcastCopy,
		Grad:   ops.SumBack,
	}, "broadcast_axis", "broadcast_axes")
}

// broadcastCopy copies in[0] broadcast to out's shape (same number of axes).
func broadcastCopy(in, out []*ndarray.NDArray, _ ops.Attrs) error {
	v, err := in[0].BroadcastTo(out[0].Shape())
	if err != nil {
		return err
	}
	defer v.Release()
	ndarray.MoveElems(out[0], v)
	return nil
}

// repeatInto copies the view of a's storage with shape and strides (the same elements as
// dst, in C order, with more axes) into dst.
func repeatInto(dst, a *ndarray.NDArray, shape, strides []int) error {
	v, err := ndarray.View(a.Storage(), a.DType(), shape, strides, a.Offset(), false)
	if err != nil {
		return err
	}
	defer v.Release()
	return reshapeInto(dst, v)
}

// grown returns shape with each length multiplied by its factor, or a ValueError when
// the result's size does not fit in an int.
func grown(name string, shape, factors []int) ([]int, error) {
	out := make([]int, len(shape))
	for i, d := range shape {
		out[i] = d * factors[i]
		if d != 0 && out[i]/d != factors[i] {
			return nil, mxerr.ValueErr("%s: the result is too large", name)
		}
	}
	if _, err := ndarray.Size(out); err != nil {
		return nil, ops.WithOpName(name, err)
	}
	return out, nil
}

// tileDims pads shape and reps with leading 1s to the same length.
func tileDims(shape, reps []int) ([]int, []int, error) {
	for _, r := range reps {
		if r < 0 {
			return nil, nil, mxerr.ValueErr("tile: reps must not be negative, got %s", ops.FmtShape(reps))
		}
	}
	n := max(len(shape), len(reps))
	if n > ndarray.MaxDims {
		return nil, nil, mxerr.ValueErr("tile: %d dimensions exceed the maximum of %d", n, ndarray.MaxDims)
	}
	s, r := make([]int, n), make([]int, n)
	for i := range n {
		s[i], r[i] = 1, 1
	}
	copy(s[n-len(shape):], shape)
	copy(r[n-len(reps):], reps)
	return s, r, nil
}

func repeatAxis(s []int, at ops.Attrs) (axis int, flat bool, err error) {
	if at.Int("repeats") < 0 {
		return 0, false, mxerr.ValueErr("repeat: repeats cannot be a negative number, got %d", at.Int("repeats"))
	}
	ax, given := at.OptInt("axis")
	if !given {
		return 0, true, nil
	}
	axis, err = joinAxis("repeat", ax, len(s))
	return axis, false, err
}

func broadcastLikeShape(ls, rs, laxes, raxes []int) ([]int, error) {
	if laxes == nil || raxes == nil {
		if len(ls) != len(rs) {
			return nil, mxerr.ValueErr("broadcast_like: operand of shape %s cannot be broadcast to %s "+
				"(the number of axes must match)", ops.FmtShape(ls), ops.FmtShape(rs))
		}
		for i := range ls {
			if ls[i] != rs[i] && ls[i] != 1 {
				return nil, mxerr.ValueErr("broadcast_like: array cannot be broadcast from %s to %s", ops.FmtShape(ls), ops.FmtShape(rs))
			}
		}
		return append([]int(nil), rs...), nil
	}
	if len(laxes) != len(raxes) {
		return nil, mxerr.ValueErr("broadcast_like: lhs_axes %v and rhs_axes %v differ in length", laxes, raxes)
	}
	if len(laxes) == 0 {
		return nil, mxerr.ValueErr("broadcast_like: empty axes are not allowed")
	}
	out := append([]int(nil), ls...)
	for i := range laxes {
		la, err := joinAxis("broadcast_like", laxes[i], len(ls))
		if err != nil {
			return nil, err
		}
		ra, err := joinAxis("broadcast_like", raxes[i], len(rs))
		if err != nil {
			return nil, err
		}
		if ls[la] != 1 {
			return nil, mxerr.ValueErr("broadcast_like: axis %d of lhs has length %d; only length 1 can be broadcast to %d", la, ls[la], rs[ra])
		}
		out[la] = rs[ra]
	}
	return out, nil
}
