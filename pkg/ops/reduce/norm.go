package reduce

import (
	"math"
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// More of MXNet's reductions, on reduce.go's machinery (its axis handling, loop nest and
// accumulators): sum_axis, max_axis and min_axis (sum, max and min with MXNet's
// exclude), nansum and nanprod (NaN counts as 0 or 1), norm (L1 or L2) and
// argmax_channel (argmax over axis 1). Results keep the input's dtype, as MXNet's.

// nanDTypes are the dtypes nansum, nanprod and norm take: the real ones (a bool result
// is whether any element, or for nanprod every element, is true, as in MXNet).
var nanDTypes = ops.RealDTypes

var excludeParams = []ops.Param{
	{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: "axes to reduce: None or () (all), an int or a tuple of ints"},
	{Name: "keepdims", Kind: ops.ParamBool, Default: "0", Doc: "keep reduced axes as dimensions of length 1"},
	{Name: "exclude", Kind: ops.ParamBool, Default: "0", Doc: "reduce every axis except those in axis"},
}

func init() {
	for _, d := range []struct {
		name, doc string
		kind      reduceKind
		nan       bool
	}{
		{"sum_axis", "Sum over the given axes: sum with MXNet's exclude parameter.", redSum, false},
		{"max_axis", "Maximum over the given axes: max with MXNet's exclude parameter.", redMax, false},
		{"min_axis", "Minimum over the given axes: min with MXNet's exclude parameter.", redMin, false},
		{"nansum", "Sum over the given axes, NaN counting as 0. The result keeps the input's dtype (for bool: any).", redSum, true},
		{"nanprod", "Product over the given axes, NaN counting as 1. The result keeps the input's dtype (for bool: all).", redProd, true},
	} {
		registerExclude(d.name, d.doc, d.kind, d.nan, false)
	}
	ops.Register(&ops.Op{
		Name: "norm", Grad: normGrad,
		Doc: "L1 (ord=1) or L2 (ord=2) norm over the given axes, in the input's dtype.\n\n" +
			"out_dtype, as in MXNet, may only repeat the input's dtype. Floating-point norms accumulate in float64;\n" +
			"integer L2 norms follow MXNet's scaled integer algorithm (norm([3, 4]) is 4 for int32, as in MXNet).",
		Category: ops.Reduction, Inputs: []string{"data"}, DTypes: nanDTypes,
		Params: []ops.Param{
			{Name: "ord", Kind: ops.ParamInt, Default: "2", Doc: "1 or 2"},
			{Name: "axis", Kind: ops.ParamAxes, Default: "None", Doc: "axes to reduce: None or () (all), an int or a tuple of ints"},
			{Name: "out_dtype", Kind: ops.ParamOptDType, Default: "None", Doc: "the result's dtype: None or the input's"},
			{Name: "keepdims", Kind: ops.ParamBool, Default: "0", Doc: "keep reduced axes as dimensions of length 1"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, err := normSpec(in[0], at)
			if err != nil {
				return nil, 0, err
			}
			return s.outShape, s.outDType, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := normSpec(in[0], at)
			if err != nil {
				return err
			}
			return ops.ViaTemp(out[0], s.accDType, func(o *ndarray.NDArray) error { return runNorm(at.Int("ord"), in[0], o, s) })
		},
	})
	ops.Register(&ops.Op{
		Name: "argmax_channel", // no gradient: MXNet registers none (backward raises)
		Doc: "Indices of the maxima along axis 1, in the input's dtype (MXNet's argmax_channel: argmax(data, axis=1)).\n\n" +
			"Ties give the first occurrence, and a NaN counts as the maximum.",
		Category: ops.Reduction, Inputs: []string{"data"},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			s, err := newReduceSpec(redArgmax, in[0], channelAttrs)
			if err != nil {
				return nil, 0, err
			}
			return s.outShape, s.outDType, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			s, err := newReduceSpec(redArgmax, in[0], channelAttrs)
			if err != nil {
				return err
			}
			return ops.ViaTemp(out[0], s.accDType, func(o *ndarray.NDArray) error { return runReduce(redArgmax, in[0], o, s) })
		},
	})
}

// registerExclude registers a reduction that takes MXNet's exclude parameter: sum, mean,
// prod, max, min, their _axis forms, and nansum and nanprod (nan: NaN counts as the
// identity, for the real dtypes only).
// registerExclude registers a reduction of kind that takes MXNet's exclude (nan: NaN
// counts as the identity). npShape: NumPy's shapes, a whole-array reduction without
// keepdims is 0-d (mx.np's one-call reductions) instead of MXNet's (1,).
func registerExclude(name, doc string, kind reduceKind, nan, npShape bool) {
	var dts []ndarray.DType
	if nan {
		dts = nanDTypes
	}
	ops.Register(&ops.Op{
		Name: name, Doc: doc, Category: ops.Reduction, Inputs: []string{"data"}, DTypes: dts, Params: excludeParams,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			s, err := excludeSpec(kind, in[0], at)
			if err != nil || s == nil {
				return in[0].Shape(), in[0].DType(), err
			}
			if npShape && len(s.axes) == in[0].NDim() && !at.Bool("keepdims") {
				return []int{}, s.outDType, nil
			}
			return s.outShape, s.outDType, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s, err := excludeSpec(kind, in[0], at)
			if err != nil {
				return err
			}
			if s == nil { // every axis excluded: nothing to reduce (MXNet copies)
				return ops.CopyCast(out[0], in[0])
			}
			return ops.ViaTemp(out[0], s.accDType, func(o *ndarray.NDArray) error {
				if nan && ops.IsFloat(in[0].DType()) {
					return nanReduce(kind, in[0], o, s)
				}
				return runReduce(kind, in[0], o, s)
			})
		},
		Grad: reduceGrad(kind, nan),
	})
}

var channelAttrs = ops.Attrs{"axis": []int{1}, "keepdims": false}

// excludeSpec is newReduceSpec with MXNet's exclude: the axes not named are reduced
// (when axis names some). It returns nil when exclude leaves no axis to reduce.
func excludeSpec(kind reduceKind, x *ndarray.NDArray, at ops.Attrs) (*reduceSpec, error) {
	axes := at.Ints("axis")
	if at.Bool("exclude") && len(axes) > 0 {
		norm, err := ops.NormalizeAxes(axes, x.NDim())
		if err != nil {
			return nil, err
		}
		var rest []int
		for d := range x.NDim() {
			if !slices.Contains(norm, d) {
				rest = append(rest, d)
			}
		}
		if len(rest) == 0 {
			return nil, nil
		}
		axes = rest
	}
	return reduceSpecOf(kind, x, axes, at.Bool("keepdims"))
}

func normSpec(x *ndarray.NDArray, at ops.Attrs) (*reduceSpec, error) {
	if ord := at.Int("ord"); ord != 1 && ord != 2 {
		return nil, mxerr.ValueErr("norm: only ord=1 and ord=2 are supported, got %d", ord)
	}
	if dt, ok := at.OptDType("out_dtype"); ok && dt != x.DType() {
		return nil, mxerr.TypeErr("norm: out_dtype %s differs from the input's dtype %s (MXNet supports only the same)", dt, x.DType())
	}
	return newReduceSpec(redSum, x, at)
}

// nanReduce is nansum or nanprod of a floating-point x: the sum's and product's kernels
// with NaN loaded as 0 or 1.
func nanReduce(kind reduceKind, x, out *ndarray.NDArray, s *reduceSpec) error {
	dims, nOut, _ := reducePlan(x, s.axes)
	fill := 0.0
	if kind == redProd {
		fill = 1
	}
	io := redFloatIO(x.DType())
	io.load = mapLoad(io.load, func(v float64) float64 {
		if v != v {
			return fill
		}
		return v
	})
	io.setRows(nil, nil)
	switch x.DType() {
	case ndarray.Float32:
		io.setRows(redRowSumBy(nanSumRow[float32]), nanVecSum[float32])
	case ndarray.Float64:
		io.setRows(redRowSumBy(nanSumRow[float64]), nanVecSum[float64])
	}
	reduceTyped(x, out, dims, nOut, redArithReducer[float64](kind), io, redFloatStorer(out.DType()))
	return nil
}

// runNorm is norm's kernel.
func runNorm(ord int, x, out *ndarray.NDArray, s *reduceSpec) error {
	dims, nOut, _ := reducePlan(x, s.axes)
	dt := x.DType()
	switch {
	case dt == ndarray.Bool: // either norm of bools is whether any is true, as in MXNet
		return runReduce(redSum, x, out, s)
	case dt.Kind() == ndarray.KindUint && ord == 1: // |x| is x
		reduceTyped(x, out, dims, nOut, redArithReducer[uint64](redSum), redIO[uint64]{load: redUintIO(dt).load}, redUintStorer(out.DType()))
	case dt.Kind() == ndarray.KindInt && ord == 1:
		load := mapLoad(redIntIO(dt).load, func(v int64) int64 { return max(v, -v) })
		reduceTyped(x, out, dims, nOut, redArithReducer[int64](redSum), redIO[int64]{load: load}, redIntStorer(out.DType()))
	case ord == 2 && (dt.Kind() == ndarray.KindInt || dt.Kind() == ndarray.KindUint):
		intNorm2(x, out, s.axes)
	default:
		io := redFloatIO(dt)
		f, store := math.Abs, redFloatStorer(out.DType())
		io.setRows(nil, nil)
		switch {
		case ord == 1 && dt == ndarray.Float32:
			io.setRows(redRowSumBy(absSumRow[float32]), absVecSum[float32])
		case ord == 1 && dt == ndarray.Float64:
			io.setRows(redRowSumBy(absSumRow[float64]), absVecSum[float64])
		case ord == 2:
			f = func(v float64) float64 { return v * v }
			inner := store
			store = func(p unsafe.Pointer, v float64) { inner(p, math.Sqrt(v)) }
			switch dt {
			case ndarray.Float32:
				io.setRows(redRowSumBy(sqSumRow32), sqVecSum[float32])
			case ndarray.Float64:
				io.setRows(redRowSumBy(sqSumRow[float64]), sqVecSum[float64])
			}
		}
		io.load = mapLoad(io.load, f)
		reduceTyped(x, out, dims, nOut, redArithReducer[float64](redSum), io, store)
	}
	return nil
}

// intNorm2 is MXNet's L2 norm of integers (mshadow's nrm2 in the integer dtype): a
// running scale (the largest |x| so far) and sum of squares of x/scale, both integer
// divisions, over each output's elements in C order; the result scale*sqrt(sum),
// truncated. out is int64 (the kernel's dtype, cast to the input's after).
func intNorm2(x, out *ndarray.NDArray, axes []int) {
	var ks, kst, rs, rst []int
	for d, n := range x.Shape() {
		if slices.Contains(axes, d) {
			rs, rst = append(rs, n), append(rst, x.Strides()[d])
		} else {
			ks, kst = append(ks, n), append(kst, x.Strides()[d])
		}
	}
	kept, red := ops.OffsetsOf(ks, kst, x.Offset()), ops.OffsetsOf(rs, rst, 0)
	outs := ops.OffsetsOf(out.Shape(), out.Strides(), out.Offset())
	load, base, sz := ops.IOTable[x.DType()].LoadI, ops.LaneBase(x), x.DType().Size()
	unsigned := x.DType().Kind() == ndarray.KindUint
	for i, k := range kept {
		var scale, ssq uint64
		for _, r := range red {
			v := load(unsafe.Add(base, (k+r)*sz))
			if !unsigned && int64(v) < 0 {
				v = -v
			}
			switch {
			case v == 0:
			case scale < v:
				ssq = 1 + ssq*(scale/v)*(scale/v)
				scale = v
			default:
				ssq += (v / scale) * (v / scale)
			}
		}
		*ops.ElemAt[int64](ops.LaneBase(out), outs[i]) = int64(float64(scale) * math.Sqrt(float64(ssq)))
	}
}
