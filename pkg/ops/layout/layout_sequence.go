package layout

import (
	"cmp"
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's SequenceMask, SequenceLast and SequenceReverse on data laid out as (T, B, ...)
// (axis=0) or (B, T, ...) (axis=1), with an optional 1-D sequence_length of B lengths
// (truncated toward zero, as MXNet's cast does). The operators here take one or two
// arrays, as MXNet's do depending on use_sequence_length; mxgo/ndarray/layout.py gives
// them MXNet's signatures. The kernels work on per-sequence strided views: one copy or
// fill per batch entry, whatever the layout. Where MXNet reads or writes out of bounds
// (a length past T, or SequenceLast's length 0) mxgo clamps lengths to [0, T], and
// SequenceLast gives zeros for an empty sequence.

func init() {
	seqParams := seqParamsOf
	ops.Register(&ops.Op{
		Name: "_sequence_mask", Grad: seqMaskGrad,
		Doc:      "SequenceMask: sets the steps t >= sequence_length[b] of each sequence to value.",
		Category: ops.General, Inputs: []string{"*data"},
		Params: append(seqParams("the time axis: 0 or 1"),
			ops.Param{Name: "value", Kind: ops.ParamFloat, Default: "0", Doc: "the value of the masked steps"}),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := seqArgs("SequenceMask", in, at, 1)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := seqArgs("SequenceMask", in, at, 1)
			if err != nil {
				return err
			}
			ndarray.MoveElems(out[0], in[0])
			value := ops.Scalar{Value: complex(at.Float("value"), 0)}
			for b, n := range g.lengths {
				if n < g.t {
					if err := withSeqView(out[0], g, b, n, g.t-n, 1, func(v *ndarray.NDArray) { ops.FillKernel(v, value) }); err != nil {
						return err
					}
				}
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "_sequence_last", Grad: seqLastGrad,
		Doc:      "SequenceLast: the step sequence_length[b]-1 of each sequence (the last step without lengths).",
		Category: ops.General, Inputs: []string{"*data"}, Params: seqParams("the time axis: 0 or 1"),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			g, err := seqArgs("SequenceLast", in, at, 1)
			if err != nil {
				return nil, 0, err
			}
			s := in[0].Shape()
			return slices.Concat(s[:g.axis], s[g.axis+1:]), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := seqArgs("SequenceLast", in, at, 1)
			if err != nil {
				return err
			}
			o := out[0]
			for b, n := range g.lengths {
				// out[b:b+1, ...]: the shape of withSeqView's one-step view of the data
				shape := slices.Concat([]int{1}, o.Shape()[1:])
				row, err := ndarray.View(o.Storage(), o.DType(), shape, o.Strides(), o.Offset()+b*o.Strides()[0], true)
				if err != nil {
					return err
				}
				if n < 1 { // an empty sequence: out of bounds in MXNet
					ops.FillKernel(row, ops.Scalar{})
				} else {
					err = withSeqView(in[0], g, b, n-1, 1, 1, func(v *ndarray.NDArray) { ndarray.MoveElems(row, v) })
				}
				row.Release()
				if err != nil {
					return err
				}
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "_sequence_reverse", Grad: seqReverseGrad,
		Doc:      "SequenceReverse: reverses the first sequence_length[b] steps of each sequence (every step without lengths).",
		Category: ops.General, Inputs: []string{"*data"}, Params: seqParams("the time axis: 0 only"),
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			_, err := seqArgs("SequenceReverse", in, at, 0)
			return in[0].Shape(), in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			g, err := seqArgs("SequenceReverse", in, at, 0)
			if err != nil {
				return err
			}
			ndarray.MoveElems(out[0], in[0]) // the steps past each length stay in place
			for b, n := range g.lengths {
				if n < 2 {
					continue
				}
				var inner error
				err := withSeqView(in[0], g, b, n-1, n, -1, func(src *ndarray.NDArray) {
					inner = withSeqView(out[0], g, b, 0, n, 1, func(dst *ndarray.NDArray) { ndarray.MoveElems(dst, src) })
				})
				if err = cmp.Or(err, inner); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

func seqParamsOf(axisDoc string) []ops.Param {
	return []ops.Param{
		{Name: "use_sequence_length", Kind: ops.ParamBool, Default: "0", Doc: "whether sequence_length is given (else every sequence is whole)"},
		{Name: "axis", Kind: ops.ParamInt, Default: "0", Doc: axisDoc},
	}
}

// seqGeom is a sequence operator's layout: the time axis, its length T, and each batch
// entry's length clamped to [0, T].
type seqGeom struct {
	axis, t int
	lengths []int
}

func seqArgs(name string, in []*ndarray.NDArray, at ops.Attrs, maxAxis int) (seqGeom, error) {
	var g seqGeom
	use := at.Bool("use_sequence_length")
	want := 1
	if use {
		want = 2
	}
	if len(in) != want {
		return g, mxerr.TypeErr("%s takes %d array(s) when use_sequence_length is %v, got %d", name, want, use, len(in))
	}
	s := in[0].Shape()
	g.axis = at.Int("axis")
	if len(s) < 2 {
		return g, mxerr.ValueErr("%s: the data must have at least 2 dimensions, got %d", name, len(s))
	}
	if g.axis < 0 || g.axis > maxAxis {
		return g, mxerr.ValueErr("%s: axis must be %s, got %d", name, map[int]string{0: "0", 1: "0 or 1"}[maxAxis], g.axis)
	}
	g.t = s[g.axis]
	batch := s[1-g.axis]
	g.lengths = make([]int, batch)
	if !use {
		for b := range g.lengths {
			g.lengths[b] = g.t
		}
		return g, nil
	}
	if ls := in[1].Shape(); len(ls) != 1 || ls[0] != batch {
		return g, mxerr.ValueErr("%s: sequence_length must have shape (%d,), got %s", name, batch, ops.FmtShape(ls))
	}
	if err := checkIndexDType(name, in[1].DType()); err != nil {
		return g, err
	}
	for b, n := range readIndices(in[1], false) {
		g.lengths[b] = int(min(max(n, 0), int64(g.t)))
	}
	return g, nil
}

// withSeqView runs fn on the view of a (data or out) holding the n steps t0, t0+step, ...
// of batch entry b, shape (n, rest...).
func withSeqView(a *ndarray.NDArray, g seqGeom, b, t0, n, step int, fn func(*ndarray.NDArray)) error {
	st := a.Strides()
	tAxis, bAxis := g.axis, 1-g.axis
	shape := slices.Concat([]int{n}, a.Shape()[2:])
	strides := slices.Concat([]int{st[tAxis] * step}, st[2:])
	v, err := ndarray.View(a.Storage(), a.DType(), shape, strides, a.Offset()+t0*st[tAxis]+b*st[bAxis], true)
	if err != nil {
		return err
	}
	defer v.Release()
	fn(v)
	return nil
}
