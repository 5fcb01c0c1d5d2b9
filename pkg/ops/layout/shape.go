package layout

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Operators that move elements without computing: transpose, reshape, concat, stack and
// cast. Each writes a new array (or out=); the view forms (NDArray.reshape, and
// ndarray.(*NDArray).Transpose for x.T) share memory instead.

func init() {
	ops.Register(&ops.Op{
		Name: "transpose", Grad: transposeGrad,
		Doc: "Permutes the axes of an array (a copy; x.T and x.transpose() are views).\n\n" +
			"axes=None reverses the axes; otherwise axes names every axis once, as in NumPy.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "axes", Kind: ops.ParamAxes, Default: "None", Doc: "the new order of the axes (None: reversed)"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			perm, err := ndarray.TransposeAxes(at.Ints("axes"), in[0].NDim())
			if err != nil {
				return nil, 0, ops.WithOpName("transpose", err)
			}
			shape := make([]int, len(perm))
			for i, p := range perm {
				shape[i] = in[0].Shape()[p]
			}
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			v, err := in[0].Transpose(at.Ints("axes"))
			if err != nil {
				return err
			}
			defer v.Release()
			ndarray.MoveElems(out[0], v)
			return nil
		},
	})
	ops.RegisterAs(&ops.Op{ // Reshape: MXNet's capitalised alias
		Doc: "Returns the elements of an array, in C order, in a new shape (a copy; NDArray.reshape is a view when it can be).\n\n" +
			"MXNet's codes: 0 copies the source dimension, -1 is inferred, -2 copies the remaining dimensions, " +
			"-3 merges the next two, -4 splits the next one into the two that follow (one may be -1); " +
			"reverse matches the codes from the right.",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "shape", Kind: ops.ParamShape, Doc: "the new shape, with MXNet's codes 0, -1, -2, -3, -4"},
			{Name: "reverse", Kind: ops.ParamBool, Default: "0", Doc: "match the codes from the right"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			spec, err := ops.MXNetShape(in[0].Shape(), at.Ints("shape"), at.Bool("reverse"))
			if err != nil {
				return nil, 0, err
			}
			shape, err := in[0].ResolveShape(spec)
			if err != nil {
				return nil, 0, ops.WithOpName("reshape", err)
			}
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return reshapeInto(out[0], in[0]) },
		Grad:   ops.ReshapeBack,
	}, "reshape", "Reshape")
	ops.RegisterAs(&ops.Op{
		Name: "concat", Grad: joinGrad(false),
		Doc: "Joins arrays along an existing axis.\n\n" +
			"All arrays have the same dtype, the same number of dimensions (at least one) and the same " +
			"shape except along dim. The default dim=1 is MXNet's (NumPy's concatenate uses 0).",
		Category: ops.General, Inputs: []string{"*data"},
		Params: []ops.Param{{Name: "dim", Kind: ops.ParamInt, Default: "1", Doc: "the axis to join along (negative counts from the end)"}},
		Infer:  inferConcat,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			axis, err := joinAxis("concat", at.Int("dim"), out[0].NDim())
			if err != nil {
				return err
			}
			key := fullKey(out[0].NDim())
			start := 0
			for _, a := range in {
				n := a.Shape()[axis]
				key[axis] = ndarray.KeyItem{Kind: ndarray.KeySlice, Start: start, Stop: start + n, HasStart: true, HasStop: true}
				if err := copyToPart(out[0], key, a); err != nil {
					return err
				}
				start += n
			}
			return nil
		},
	}, "concat", "Concat")
	ops.Register(&ops.Op{
		Name: "stack", Grad: joinGrad(true),
		Doc: "Joins arrays along a new axis.\n\n" +
			"All arrays have the same shape and dtype; the result has one more dimension, of length the " +
			"number of arrays, at position axis.",
		Category: ops.General, Inputs: []string{"*data"},
		Params: []ops.Param{{Name: "axis", Kind: ops.ParamInt, Default: "0", Doc: "where the new axis goes in the result (negative counts from the end)"}},
		Infer:  inferStack,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			axis, err := joinAxis("stack", at.Int("axis"), out[0].NDim())
			if err != nil {
				return err
			}
			key := fullKey(out[0].NDim())
			for i, a := range in {
				key[axis] = ndarray.KeyItem{Kind: ndarray.KeyInt, Start: i}
				if err := copyToPart(out[0], key, a); err != nil {
					return err
				}
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "cast", Grad: ops.CastBack,
		Doc: "Converts an array to another dtype, as NumPy's astype does (C casts: floats truncate " +
			"toward zero into integers, complex numbers lose their imaginary part).",
		Category: ops.Elementwise, Inputs: []string{"data"},
		Params: []ops.Param{{Name: "dtype", Kind: ops.ParamDType, Doc: "the dtype of the result"}},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			return in[0].Shape(), at.DType("dtype"), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error { return ops.CopyCast(out[0], in[0]) },
	})
}

// joinAxis resolves a possibly negative axis of an ndim-dimensional array.
func joinAxis(name string, axis, ndim int) (int, error) {
	a := axis
	if a < 0 {
		a += ndim
	}
	if a < 0 || a >= ndim {
		return 0, mxerr.IndexErr("%s: axis %d is out of bounds for array of dimension %d", name, axis, ndim)
	}
	return a, nil
}

func inferConcat(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	if err := ops.SameDType(in); err != nil {
		return nil, 0, ops.WithOpName("concat", err)
	}
	first := in[0].Shape()
	if len(first) == 0 {
		return nil, 0, mxerr.ValueErr("concat: zero-dimensional arrays cannot be concatenated")
	}
	axis, err := joinAxis("concat", at.Int("dim"), len(first))
	if err != nil {
		return nil, 0, err
	}
	shape := append([]int(nil), first...)
	for i, a := range in[1:] {
		s := a.Shape()
		if len(s) != len(first) {
			return nil, 0, mxerr.ValueErr("concat: all the input arrays must have the same number of dimensions, "+
				"but array 0 has %d dimension(s) and array %d has %d", len(first), i+1, len(s))
		}
		for d := range s {
			if d != axis && s[d] != first[d] {
				return nil, 0, mxerr.ValueErr("concat: the shapes of the arrays must match except along dim %d, "+
					"but array 0 has shape %v and array %d has shape %v", axis, first, i+1, s)
			}
		}
		shape[axis] += s[axis]
		if shape[axis] < 0 {
			return nil, 0, mxerr.ValueErr("concat: the result is too large")
		}
	}
	return shape, in[0].DType(), nil
}

func inferStack(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	if err := ops.SameDType(in); err != nil {
		return nil, 0, ops.WithOpName("stack", err)
	}
	first := in[0].Shape()
	for i, a := range in[1:] {
		if ndarray.SameShape(first, a.Shape()) != nil {
			return nil, 0, mxerr.ValueErr("stack: all input arrays must have the same shape, "+
				"but array 0 has shape %v and array %d has shape %v", first, i+1, a.Shape())
		}
	}
	axis, err := joinAxis("stack", at.Int("axis"), len(first)+1)
	if err != nil {
		return nil, 0, err
	}
	shape := make([]int, 0, len(first)+1)
	shape = append(shape, first[:axis]...)
	shape = append(shape, len(in))
	shape = append(shape, first[axis:]...)
	return shape, in[0].DType(), nil
}

// fullKey is the index key a[:, :, ...] of an ndim-dimensional array.
func fullKey(ndim int) []ndarray.KeyItem {
	key := make([]ndarray.KeyItem, ndim)
	for i := range key {
		key[i] = ndarray.KeyItem{Kind: ndarray.KeySlice}
	}
	return key
}

// copyToPart copies src into the part of dst that key selects.
func copyToPart(dst *ndarray.NDArray, key []ndarray.KeyItem, src *ndarray.NDArray) error {
	v, err := dst.Index(key)
	if err != nil {
		return err
	}
	defer v.Release()
	if err := ndarray.SameShape(v.Shape(), src.Shape()); err != nil {
		return err
	}
	ndarray.MoveElems(v, src)
	return nil
}

// reshapeInto copies src's elements in C order into dst (same size, any shapes and
// layouts), through views when either side is contiguous.
func reshapeInto(dst, src *ndarray.NDArray) error {
	if v, err := src.Reshape(dst.Shape()); err == nil {
		defer v.Release()
		ndarray.MoveElems(dst, v)
		return nil
	}
	if v, err := dst.Reshape(src.Shape()); err == nil {
		defer v.Release()
		ndarray.MoveElems(v, src)
		return nil
	}
	tmp, err := ndarray.Empty(src.DType(), src.Shape(), src.Device())
	if err != nil {
		return err
	}
	defer tmp.Release()
	ndarray.MoveElems(tmp, src)
	v, err := tmp.Reshape(dst.Shape())
	if err != nil {
		return err
	}
	defer v.Release()
	ndarray.MoveElems(dst, v)
	return nil
}
