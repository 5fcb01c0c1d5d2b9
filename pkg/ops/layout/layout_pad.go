package layout

import (
	"cmp"
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's pad (Pad): pads the spatial axes of a 4-D or 5-D floating-point array, the two
// leading (batch and channel) axes never, as MXNet's implementation requires. The kernel
// copies the input into the middle of the output, then fills the borders: with the
// constant, or axis by axis by copying whole slices of the output (the edge slice, or
// the mirrored one for reflect), so each border element is written once.

var padModes = []string{"constant", "edge", "reflect"}

func init() {
	ops.RegisterAs(&ops.Op{
		Grad: padGrad,
		Doc: "Pads the spatial axes of a 4-D or 5-D array.\n\n" +
			"pad_width gives (before, after) for every axis, as a flat tuple of 2*ndim values; those of the " +
			"first two axes must be 0. mode: 'constant' (constant_value), 'edge' (repeat the edge) or " +
			"'reflect' (mirror without the edge; each pad smaller than the axis). Floating-point dtypes only, " +
			"as in MXNet.",
		Category: ops.General, Inputs: []string{"data"},
		DTypes: []ndarray.DType{ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64},
		Params: []ops.Param{
			{Name: "mode", Kind: ops.ParamString, Choices: padModes, Doc: "'constant', 'edge' or 'reflect'"},
			{Name: "pad_width", Kind: ops.ParamShape, Doc: "(before, after) for each axis, flattened"},
			{Name: "constant_value", Kind: ops.ParamFloat, Default: "0", Doc: "the value of the padding in mode 'constant'"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			shape, err := padShape(in[0].Shape(), at.Ints("pad_width"), at.Str("mode"))
			return shape, in[0].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			return padInto(out[0], in[0], at.Ints("pad_width"), at.Str("mode"), at.Float("constant_value"))
		},
	}, "pad", "Pad")
}

func padShape(s, width []int, mode string) ([]int, error) {
	switch {
	case len(s) != 4 && len(s) != 5:
		return nil, mxerr.ValueErr("pad: only 4-D and 5-D arrays can be padded (MXNet's rule), got %d-D", len(s))
	case len(width) != 2*len(s):
		return nil, mxerr.ValueErr("pad: pad_width has %d values; a %d-D array needs %d", len(width), len(s), 2*len(s))
	case slices.ContainsFunc(width[:4], func(w int) bool { return w != 0 }):
		return nil, mxerr.ValueErr("pad: the padding of the first two axes must be 0, got pad_width=%s", ops.FmtShape(width))
	case slices.ContainsFunc(width, func(w int) bool { return w < 0 }):
		return nil, mxerr.ValueErr("pad: pad_width values must be non-negative, got %s", ops.FmtShape(width))
	}
	out := make([]int, len(s))
	for i, d := range s {
		if mode != "constant" && d == 0 && width[2*i]+width[2*i+1] > 0 {
			return nil, mxerr.ValueErr("pad: mode %s cannot extend the empty axis %d", mode, i)
		}
		if mode == "reflect" && (width[2*i] >= d || width[2*i+1] >= d) && d > 0 {
			return nil, mxerr.ValueErr("pad: reflect padding must be smaller than the axis: axis %d has length %d, "+
				"pad_width (%d, %d)", i, d, width[2*i], width[2*i+1])
		}
		out[i] = d + width[2*i] + width[2*i+1]
		if out[i] < d {
			return nil, mxerr.ValueErr("pad: the result is too large")
		}
	}
	if _, err := ndarray.Size(out); err != nil {
		return nil, mxerr.ValueErr("pad: the result is too large")
	}
	return out, nil
}

func padInto(out, a *ndarray.NDArray, width []int, mode string, value float64) error {
	if out.Size() == 0 {
		return nil
	}
	constant := ops.Scalar{Value: complex(value, 0)}
	s := a.Shape()
	if a.Size() == 0 { // (only in mode constant: padShape refuses to extend an empty axis otherwise)
		ops.FillKernel(out, constant)
		return nil
	}
	// lo[d], hi[d]: the region of out that holds valid elements so far (the interior, growing
	// to the whole axis as each axis is padded)
	lo, hi := make([]int, len(s)), make([]int, len(s))
	for d := range s {
		lo[d], hi[d] = width[2*d], width[2*d]+s[d]
	}
	if err := withOutRegion(out, lo, hi, func(inner *ndarray.NDArray) { ndarray.MoveElems(inner, a) }); err != nil {
		return err
	}
	for d := 2; d < len(s); d++ {
		before, n, end := width[2*d], s[d], out.Shape()[d]
		if mode == "constant" { // the two borders of axis d, each one fill
			for _, r := range [][2]int{{0, before}, {before + n, end}} {
				l, h := slices.Clone(lo), slices.Clone(hi)
				l[d], h[d] = r[0], r[1]
				if err := withOutRegion(out, l, h, func(v *ndarray.NDArray) { ops.FillKernel(v, constant) }); err != nil {
					return err
				}
			}
		}
		for p := 0; p < end && mode != "constant"; p++ {
			if p >= before && p < before+n {
				continue
			}
			if err := copyOutSlice(out, lo, hi, d, padSource(p, before, n, mode), p); err != nil {
				return err
			}
		}
		lo[d], hi[d] = 0, end
	}
	return nil
}

// padSource is the index along an axis of the output that border position p copies:
// the nearest edge, or its mirror image about the edge for reflect.
func padSource(p, before, n int, mode string) int {
	last := before + n - 1
	switch {
	case mode == "edge" && p < before:
		return before
	case mode == "edge":
		return last
	case p < before:
		return 2*before - p
	}
	return 2*last - p
}

// withOutRegion runs fn on the writable view of out over lo[d] <= i < hi[d] on each axis.
func withOutRegion(out *ndarray.NDArray, lo, hi []int, fn func(*ndarray.NDArray)) error {
	shape := make([]int, len(lo))
	off := out.Offset()
	for d := range lo {
		shape[d] = hi[d] - lo[d]
		off += lo[d] * out.Strides()[d]
	}
	v, err := ndarray.View(out.Storage(), out.DType(), shape, out.Strides(), off, true)
	if err != nil {
		return err
	}
	defer v.Release()
	if v.Size() > 0 {
		fn(v)
	}
	return nil
}

// copyOutSlice copies, within the region lo..hi of out, the slice at index src of axis d
// onto the slice at index dst.
func copyOutSlice(out *ndarray.NDArray, lo, hi []int, d, src, dst int) error {
	from, to := [2][]int{slices.Clone(lo), slices.Clone(hi)}, [2][]int{slices.Clone(lo), slices.Clone(hi)}
	from[0][d], from[1][d], to[0][d], to[1][d] = src, src+1, dst, dst+1
	var inner error
	err := withOutRegion(out, from[0], from[1], func(f *ndarray.NDArray) {
		inner = withOutRegion(out, to[0], to[1], func(t *ndarray.NDArray) { ndarray.MoveElems(t, f) })
	})
	return cmp.Or(err, inner)
}
