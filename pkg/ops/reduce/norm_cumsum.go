package reduce

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// cumsum: MXNet's mx.nd.cumsum(a, axis=None, dtype=None), the running sum along an axis
// (None: of the flattened array; as in MXNet 1.9.1, a negative axis is an error). The result has the dtype parameter, else the input's
// (bool: int64); integer sums wrap in the result's dtype, floating-point sums run in
// float64.

func init() {
	ops.Register(&ops.Op{
		Name: "cumsum", Grad: cumsumGrad,
		Doc: "Cumulative sum along an axis (None: of the flattened array, shape (size,)).\n\n" +
			"The result has the dtype parameter, else the input's (int64 for bool), as in MXNet.",
		Category: ops.General, Inputs: []string{"a"}, DTypes: ops.RealDTypes,
		Params: []ops.Param{
			{Name: "axis", Kind: ops.ParamOptInt, Default: "None", Doc: "the axis to sum along (None: the flattened array)"},
			{Name: "dtype", Kind: ops.ParamOptDType, Default: "None", Doc: "the result's dtype (None: the input's; int64 for bool)"},
		},
		Infer: cumsumInfer,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			x := in[0]
			if _, _, err := cumsumInfer(in, at); err != nil {
				return err
			}
			axis, ok := at.OptInt("axis")
			if !ok {
				src, ls, release, err := ops.FlatLanes(x)
				if err != nil {
					return err
				}
				defer release()
				cumsumLanes(src, out[0], ls, ops.Lanes{N: ls.N, Stride: out[0].Strides()[0], Starts: []int{out[0].Offset()}})
				return nil
			}
			cumsumLanes(x, out[0], ops.LanesOf(x, axis), ops.LanesOf(out[0], axis))
			return nil
		},
	})
}

// cumsumDTypes are the result dtypes MXNet's cumsum takes for its dtype parameter.
var cumsumDTypes = []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Int8}

func cumsumInfer(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	x := in[0]
	dt, ok := at.OptDType("dtype")
	if ok && !slices.Contains(cumsumDTypes, dt) {
		return nil, 0, mxerr.TypeErr("cumsum: dtype must be one of %s, not %s", ops.DTypeNames(cumsumDTypes), dt)
	}
	if !ok {
		dt = x.DType()
		if dt == ndarray.Bool {
			dt = ndarray.Int64
		}
	}
	axis, ok := at.OptInt("axis")
	if !ok {
		return []int{x.Size()}, dt, nil
	}
	if axis < 0 || axis >= x.NDim() { // MXNet 1.9.1's cumsum refuses negative axes
		return nil, 0, mxerr.New(mxerr.Index, "cumsum: axis %d must be in [0, %d)", axis, x.NDim())
	}
	return x.Shape(), dt, nil
}

func cumsumLanes(x, out *ndarray.NDArray, ls, ol ops.Lanes) {
	lio, oio := ops.IOTable[x.DType()], ops.IOTable[out.DType()]
	exact := ops.IsIntegral(x.DType()) && ops.IsIntegral(out.DType()) // wrapping integer sums
	xb, ob, xs, os := ops.LaneBase(x), ops.LaneBase(out), x.DType().Size(), out.DType().Size()
	var typed func(xb, ob unsafe.Pointer, ls, ol ops.Lanes, lo, hi int) // the common dtypes, read in place
	if x.DType() == out.DType() {
		typed = map[ndarray.DType]func(xb, ob unsafe.Pointer, ls, ol ops.Lanes, lo, hi int){
			ndarray.Float32: cumsumTyped[float32, float64], ndarray.Float64: cumsumTyped[float64, float64],
			ndarray.Int32: cumsumTyped[int32, int64], ndarray.Int64: cumsumTyped[int64, int64],
		}[x.DType()]
	}
	ops.ForLanes(len(ls.Starts), ls.N, func() struct{} { return struct{}{} }, func(_ struct{}, lo, hi int) {
		if typed != nil {
			typed(xb, ob, ls, ol, lo, hi)
			return
		}
		for l := lo; l < hi; l++ {
			p, q := unsafe.Add(xb, ls.Starts[l]*xs), unsafe.Add(ob, ol.Starts[l]*os)
			var si uint64
			var sf float64
			for i := 0; i < ls.N; i++ {
				src, dst := unsafe.Add(p, i*ls.Stride*xs), unsafe.Add(q, i*ol.Stride*os)
				if exact {
					si += lio.LoadI(src)
					oio.StoreI(dst, si)
				} else {
					sf += real(lio.LoadC(src))
					oio.StoreC(dst, complex(sf, 0))
				}
			}
		}
	})
}

// cumsumTyped is cumsumLanes for an output of x's dtype T, summed in A.
func cumsumTyped[T int32 | int64 | float32 | float64, A int64 | float64](xb, ob unsafe.Pointer, ls, ol ops.Lanes, lo, hi int) {
	for l := lo; l < hi; l++ {
		var s A
		for i := 0; i < ls.N; i++ {
			s += A(*ops.ElemAt[T](xb, ls.Starts[l]+i*ls.Stride))
			*ops.ElemAt[T](ob, ol.Starts[l]+i*ol.Stride) = T(s)
		}
	}
}
