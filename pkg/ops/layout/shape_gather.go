package layout

import (
	"math"
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's gathers: take, pick and one_hot. Indices may have any real dtype (bool
// included); as in MXNet, floating-point indices truncate toward zero. take reads them
// as 64-bit integers and pick as 32-bit ones (NaN and values out of range become the
// most negative integer, as the x86 conversions MXNet compiles to do), which only shows
// with mode='wrap' on absurd indices. take and one_hot write a C-contiguous result
// (through a temporary when out= is strided); pick writes out= in its own layout (pick.go).

var indexModes = []string{"clip", "wrap", "raise"}

func init() {
	ops.Register(&ops.Op{
		Name: "take", Grad: takeGrad,
		Doc: "Takes elements of a along axis at the given indices: a.shape[:axis] + indices.shape + a.shape[axis+1:].\n\n" +
			"mode says what out-of-range indices do: 'clip' (the default) clamps them to the axis, 'wrap' " +
			"wraps them around it, 'raise' raises IndexError.",
		Category: ops.General, Inputs: []string{"a", "indices"},
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamInt, Default: "0", Doc: "the axis to take along (negative counts from the end)"},
			{Name: "mode", Kind: ops.ParamString, Default: "clip", Choices: indexModes, Doc: "'clip', 'wrap' or 'raise'"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			axis, err := joinAxis("take", at.Int("axis"), len(s))
			if err != nil {
				return nil, 0, err
			}
			if err := checkIndexDType("take", in[1].DType()); err != nil {
				return nil, 0, err
			}
			shape := append(append(append([]int(nil), s[:axis]...), in[1].Shape()...), s[axis+1:]...)
			if len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("take: the result has %d dimensions, more than %d", len(shape), ndarray.MaxDims)
			}
			return shape, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0]
			axis, _ := joinAxis("take", at.Int("axis"), a.NDim())
			rows, err := resolveIndices("take", readIndices(in[1], false), a.Shape()[axis], at.Str("mode"))
			if err != nil {
				return err
			}
			return ops.GatherAlong(out[0], a, axis, rows, false)
		},
	})
	ops.RegisterAs(&ops.Op{ // choose_element_0index: MXNet's old name
		Grad: pickGrad,
		Doc: "Picks one element along axis for each position of the other axes: out[i, j] = data[i, index[i, j], j].\n\n" +
			"index has data's shape without axis (or with it of length 1). mode: 'clip' (the default) or 'wrap'. " +
			"As in MXNet, a result with no axes left has shape (1,).",
		Category: ops.General, Inputs: []string{"data", "index"},
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamInt, Default: "-1", Doc: "the axis to pick along (negative counts from the end)"},
			{Name: "keepdims", Kind: ops.ParamBool, Default: "0", Doc: "keep axis, with length 1"},
			{Name: "mode", Kind: ops.ParamString, Default: "clip", Choices: indexModes[:2], Doc: "'clip' or 'wrap'"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s := in[0].Shape()
			axis, err := joinAxis("pick", at.Int("axis"), len(s))
			if err != nil {
				return nil, 0, err
			}
			if err := checkIndexDType("pick", in[1].DType()); err != nil {
				return nil, 0, err
			}
			kept := slices.Concat(s[:axis], []int{1}, s[axis+1:])
			dropped := slices.Concat(s[:axis], s[axis+1:])
			is := in[1].Shape()
			if !slices.Equal(is, dropped) && !slices.Equal(is, kept) {
				return nil, 0, mxerr.ValueErr("pick: index has shape %s; data of shape %s needs %s or %s along axis %d",
					ops.FmtShape(is), ops.FmtShape(s), ops.FmtShape(dropped), ops.FmtShape(kept), axis)
			}
			if at.Bool("keepdims") {
				return kept, in[0].DType(), nil
			}
			if len(dropped) == 0 {
				dropped = []int{1}
			}
			return dropped, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			axis, _ := joinAxis("pick", at.Int("axis"), in[0].NDim())
			return pickInto(out[0], in[0], in[1], axis, at.Str("mode") == "wrap")
		},
	}, "pick", "choose_element_0index")
	ops.Register(&ops.Op{
		Name: "one_hot", Grad: ops.ZeroGrad, // MXNet's: constant in the indices
		Doc: "One-hot encoding: indices.shape + (depth,), on_value where the last index equals the index, " +
			"off_value elsewhere.\n\nIndices out of [0, depth) give a row of off_value. on_value and off_value " +
			"convert to dtype as C casts do.",
		Category: ops.General, Inputs: []string{"indices"},
		Params: []ops.Param{
			{Name: "depth", Kind: ops.ParamInt, Doc: "the length of the new last axis"},
			{Name: "on_value", Kind: ops.ParamFloat, Default: "1", Doc: "the value at the index"},
			{Name: "off_value", Kind: ops.ParamFloat, Default: "0", Doc: "the value elsewhere"},
			{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "the dtype of the result (not bool)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if d := at.Int("depth"); d < 0 {
				return nil, 0, mxerr.ValueErr("one_hot: depth must be a non-negative integer, got %d", d)
			}
			if err := checkIndexDType("one_hot", in[0].DType()); err != nil {
				return nil, 0, err
			}
			shape := append(append([]int(nil), in[0].Shape()...), at.Int("depth"))
			if _, err := ndarray.Size(shape); err != nil || len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("one_hot: a result of shape %v cannot be made", shape)
			}
			dt, err := creationDType("one_hot", at.DType("dtype"))
			return shape, dt, err
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			idx := readIndices(in[0], false)
			depth := at.Int("depth")
			on := ops.Scalar{Value: complex(at.Float("on_value"), 0)}
			return ops.IntoContiguous(out[0], func(o *ndarray.NDArray) error {
				ops.FillKernel(o, ops.Scalar{Value: complex(at.Float("off_value"), 0)})
				var elem [16]byte
				size := o.DType().Size()
				on.Store(o.DType(), unsafe.Pointer(&elem[0]))
				base := o.Storage().Ptr()
				for i, v := range idx {
					if v >= 0 && v < int64(depth) {
						copy(unsafe.Slice((*byte)(unsafe.Add(base, (o.Offset()+i*depth+int(v))*size)), size), elem[:size])
					}
				}
				return nil
			})
		},
	})
}

func checkIndexDType(name string, dt ndarray.DType) error {
	if dt.Kind() == ndarray.KindComplex {
		return mxerr.TypeErr("%s: indices must have a real dtype, not %s", name, dt)
	}
	return nil
}

// readIndices returns idx's values in C order as integers: floats truncate toward zero;
// as 32-bit integers when int32s is set, else 64-bit.
func readIndices(idx *ndarray.NDArray, int32s bool) []int64 {
	if idx.Contiguous() { // the common index arrays, without a call per element
		switch n := idx.Size(); idx.DType() {
		case ndarray.Float32:
			return floatIndices(unsafe.Slice((*float32)(idx.Data()), n), int32s)
		case ndarray.Float64:
			return floatIndices(unsafe.Slice((*float64)(idx.Data()), n), int32s)
		case ndarray.Int64:
			return intIndices(unsafe.Slice((*int64)(idx.Data()), n), int32s)
		case ndarray.Int32:
			return intIndices(unsafe.Slice((*int32)(idx.Data()), n), int32s)
		}
	}
	load, size, base := indexLoader(idx.DType(), int32s), idx.DType().Size(), idx.Storage().Ptr()
	out := make([]int64, 0, idx.Size())
	ndarray.Rows(idx.Shape(), ops.Operands(idx), func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			out = append(out, load(unsafe.Add(base, (offs[0]+i*steps[0])*size)))
		}
	})
	return out
}

func floatIndices[T float32 | float64](v []T, int32s bool) []int64 {
	out := make([]int64, len(v))
	for i, f := range v {
		out[i] = truncIndex(float64(f), int32s)
	}
	return out
}

func intIndices[T int32 | int64](v []T, int32s bool) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = wrapIndex(int64(x), int32s)
	}
	return out
}

// truncIndex converts a float index as x86's cvttsd2si does: toward zero, NaN and values
// out of range giving the most negative integer.
func truncIndex(f float64, int32s bool) int64 {
	if int32s {
		if !(f > math.MinInt32-1 && f < math.MaxInt32+1) {
			return math.MinInt32
		}
		return int64(f)
	}
	if !(f >= math.MinInt64 && f < math.MaxInt64) {
		return math.MinInt64
	}
	return int64(f)
}

// wrapIndex converts an integer index, keeping its low 32 bits when int32s (C's cast).
func wrapIndex(v int64, int32s bool) int64 {
	if int32s {
		return int64(int32(v))
	}
	return v
}

// resolveIndices maps indices into [0, n) by mode (clip, wrap or raise).
func resolveIndices(name string, idx []int64, n int, mode string) ([]int, error) {
	rows := make([]int, len(idx))
	if len(idx) > 0 && n == 0 {
		return nil, mxerr.IndexErr("%s: cannot index an axis of length 0", name)
	}
	for i, v := range idx {
		switch {
		case v >= 0 && v < int64(n):
		case mode == "wrap":
			v %= int64(n)
			if v < 0 {
				v += int64(n)
			}
		case mode == "clip":
			v = min(max(v, 0), int64(n)-1)
		default:
			return nil, mxerr.IndexErr("%s: index %d is out of bounds for an axis of length %d", name, v, n)
		}
		rows[i] = int(v)
	}
	return rows, nil
}
