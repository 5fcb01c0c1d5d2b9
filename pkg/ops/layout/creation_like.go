package layout

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Arrays made from a shape or another array's shape: zeros_like, ones_like, diag, and
// the operators behind mx.nd.linspace and mx.nd.eye (_linspace, _eye: Python adds ctx).

func init() {
	for _, c := range []struct {
		name string
		v    int64
	}{{"zeros_like", 0}, {"ones_like", 1}} {
		fillWith := ops.Scalar{IsInt: true, Int: c.v, Value: complex(float64(c.v), 0)}
		ops.Register(&ops.Op{
			Name: c.name, Grad: ops.ZeroGrad, Doc: "Returns an array of " + map[int64]string{0: "zeros", 1: "ones"}[c.v] +
				" with the input's shape and dtype (its values are not read).",
			Category: ops.Elementwise, Inputs: []string{"data"}, InPlace: true,
			Infer: ops.InferSame,
			Kernel: func(_, out []*ndarray.NDArray, _ ops.Attrs) error {
				ops.FillKernel(out[0], fillWith)
				return nil
			},
		})
	}
	ops.Register(&ops.Op{
		Name: "_linspace",
		Doc: "num evenly spaced values from start to stop (mx.nd.linspace).\n\n" +
			"Element i is start + i*step computed in float64 and cast to dtype (truncating toward zero for " +
			"integers), step = (stop-start)/(num-1) with endpoint, (stop-start)/num without.",
		Category: ops.General, Inputs: []string{},
		Params: []ops.Param{
			{Name: "start", Kind: ops.ParamFloat, Doc: "the first value"},
			{Name: "stop", Kind: ops.ParamFloat, Doc: "the last value (with endpoint)"},
			{Name: "num", Kind: ops.ParamInt, Doc: "the number of values"},
			{Name: "endpoint", Kind: ops.ParamBool, Default: "1", Doc: "whether stop is the last value"},
			{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "the dtype of the result (not bool)"},
		},
		Infer: func(_ []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if n := at.Int("num"); n < 0 {
				return nil, 0, mxerr.ValueErr("linspace: num must be non-negative, got %d", n)
			}
			dt, err := creationDType("linspace", at.DType("dtype"))
			return []int{at.Int("num")}, dt, err
		},
		Kernel: func(_, out []*ndarray.NDArray, at ops.Attrs) error {
			start, num := at.Float("start"), at.Int("num")
			div := num
			if at.Bool("endpoint") {
				div = num - 1
			}
			step := 0.0
			if div > 0 {
				step = (at.Float("stop") - start) / float64(div)
			}
			switch o := out[0]; {
			case o.Contiguous() && o.DType() == ndarray.Float32:
				linspaceInto(unsafe.Slice((*float32)(o.Data()), o.Size()), start, step)
			case o.Contiguous() && o.DType() == ndarray.Float64:
				linspaceInto(unsafe.Slice((*float64)(o.Data()), o.Size()), start, step)
			default:
				ops.ArangeKernel(o, start, step)
			}
			return nil
		},
	})
	ops.Register(&ops.Op{
		Name: "_eye",
		Doc: "A 2-D array with ones on diagonal k and zeros elsewhere (mx.nd.eye).\n\n" +
			"N rows, M columns (M <= 0: N, as in MXNet); k > 0 is above the main diagonal, k < 0 below.",
		Category: ops.General, Inputs: []string{},
		Params: []ops.Param{
			{Name: "N", Kind: ops.ParamInt, Doc: "the number of rows"},
			{Name: "M", Kind: ops.ParamInt, Default: "0", Doc: "the number of columns (0: N)"},
			{Name: "k", Kind: ops.ParamInt, Default: "0", Doc: "the diagonal"},
			{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "the dtype of the result (not bool)"},
		},
		Infer: func(_ []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			n, m := at.Int("N"), at.Int("M")
			if n < 0 {
				return nil, 0, mxerr.ValueErr("eye: N must be non-negative, got %d", n)
			}
			if m <= 0 {
				m = n
			}
			dt, err := creationDType("eye", at.DType("dtype"))
			return []int{n, m}, dt, err
		},
		Kernel: func(_, out []*ndarray.NDArray, at ops.Attrs) error {
			o := out[0]
			ops.FillKernel(o, ops.Scalar{IsInt: true})
			k := min(max(at.Int("k"), -o.Shape()[0]), o.Shape()[1]) // off the matrix: no diagonal
			return withDiagonal(o, 0, 1, k, true, func(d *ndarray.NDArray) error {
				ops.FillKernel(d, ops.Scalar{IsInt: true, Int: 1, Value: 1})
				return nil
			})
		},
	})
	ops.Register(&ops.Op{
		Name: "diag", Grad: diagGrad,
		Doc: "Extracts a diagonal, or makes a diagonal matrix (a copy).\n\n" +
			"For a 1-D array: the square matrix with the array on diagonal k. For more dimensions: diagonal k " +
			"of the axes axis1 and axis2, which are removed, the diagonal becoming the last axis (NumPy's " +
			"diagonal). As in MXNet, k must lie within the matrix (-rows <= k <= columns).",
		Category: ops.General, Inputs: []string{"data"},
		Params: []ops.Param{
			{Name: "k", Kind: ops.ParamInt, Default: "0", Doc: "the diagonal (> 0: above the main one)"},
			{Name: "axis1", Kind: ops.ParamInt, Default: "0", Doc: "the axis of the rows (arrays of 2 or more dimensions)"},
			{Name: "axis2", Kind: ops.ParamInt, Default: "1", Doc: "the axis of the columns"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, k := in[0].Shape(), at.Int("k")
			if len(s) == 0 {
				return nil, 0, mxerr.ValueErr("diag: the input must have at least one dimension")
			}
			if len(s) == 1 {
				n := s[0] + max(k, -k)
				if _, err := ndarray.Size([]int{n, n}); err != nil || n < 0 {
					return nil, 0, mxerr.ValueErr("diag: the result is too large")
				}
				return []int{n, n}, in[0].DType(), nil
			}
			a1, a2, err := diagAxes(len(s), at)
			if err != nil {
				return nil, 0, err
			}
			if k > s[a2] || k < -s[a1] {
				return nil, 0, mxerr.ValueErr("diag: diagonal %d does not exist in a matrix of %d rows and %d columns", k, s[a1], s[a2])
			}
			shape, _, _ := diagLayout(s, make([]int, len(s)), 0, a1, a2, k)
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a, o, k := in[0], out[0], at.Int("k")
			if a.NDim() == 1 {
				ops.FillKernel(o, ops.Scalar{IsInt: true})
				return withDiagonal(o, 0, 1, k, true, func(d *ndarray.NDArray) error {
					ndarray.MoveElems(d, a)
					return nil
				})
			}
			a1, a2, err := diagAxes(a.NDim(), at)
			if err != nil {
				return err
			}
			return withDiagonal(a, a1, a2, k, false, func(d *ndarray.NDArray) error {
				ndarray.MoveElems(o, d)
				return nil
			})
		},
	})
}

// linspaceInto is arange's loop for a contiguous float row (same values).
func linspaceInto[T float32 | float64](dst []T, start, step float64) {
	for i := range dst {
		dst[i] = T(start + float64(i)*step)
	}
}

// creationDType checks the dtype of _linspace's, _eye's and one_hot's result: MXNet refuses
// bool there (mxgo's other dtypes, which MXNet lacks, are accepted).
func creationDType(name string, dt ndarray.DType) (ndarray.DType, error) {
	if dt == ndarray.Bool {
		return 0, mxerr.TypeErr("%s: dtype bool is not supported (MXNet refuses it too)", name)
	}
	return dt, nil
}

// diagAxes resolves diag's axis1 and axis2 against ndim.
func diagAxes(ndim int, at ops.Attrs) (int, int, error) {
	a1, err := joinAxis("diag", at.Int("axis1"), ndim)
	if err != nil {
		return 0, 0, err
	}
	a2, err := joinAxis("diag", at.Int("axis2"), ndim)
	if err != nil {
		return 0, 0, err
	}
	if a1 == a2 {
		return 0, 0, mxerr.ValueErr("diag: axis1 and axis2 cannot refer to the same axis %d", a1)
	}
	return a1, a2, nil
}

// diagLayout is the layout of diagonal k of axes a1 and a2 (rows, columns) of an array of
// the given layout: the other axes in order, then the diagonal (-rows <= k <= columns).
func diagLayout(shape, strides []int, off, a1, a2, k int) ([]int, []int, int) {
	var n int
	if k >= 0 {
		n, off = min(shape[a1], shape[a2]-k), off+k*strides[a2]
	} else {
		n, off = min(shape[a1]+k, shape[a2]), off-k*strides[a1]
	}
	var outShape, outStrides []int
	for i := range shape {
		if i != a1 && i != a2 {
			outShape, outStrides = append(outShape, shape[i]), append(outStrides, strides[i])
		}
	}
	return append(outShape, max(n, 0)), append(outStrides, strides[a1]+strides[a2]), off
}

// withDiagonal runs fn on a view of diagonal k of axes a1 and a2 of a.
func withDiagonal(a *ndarray.NDArray, a1, a2, k int, writable bool, fn func(*ndarray.NDArray) error) error {
	shape, strides, off := diagLayout(a.Shape(), a.Strides(), a.Offset(), a1, a2, k)
	v, err := ndarray.View(a.Storage(), a.DType(), shape, strides, off, writable)
	if err != nil {
		return err
	}
	defer v.Release()
	return fn(v)
}
