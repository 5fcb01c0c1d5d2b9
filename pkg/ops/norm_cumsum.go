package ops

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// cumsum: MXNet's mx.nd.cumsum(a, axis=None, dtype=None), the running sum along an axis
// (None: of the flattened array; as in MXNet 1.9.1, a negative axis is an error). The result has the dtype parameter, else the input's
// (bool: int64); integer sums wrap in the result's dtype, floating-point sums run in
// float64.

func init() {
	Register(&Op{
		Name: "cumsum",
		Doc: "Cumulative sum along an axis (None: of the flattened array, shape (size,)).\n\n" +
			"The result has the dtype parameter, else the input's (int64 for bool), as in MXNet.",
		Category: General, Inputs: []string{"a"}, DTypes: realDTypes,
		Params: []Param{
			{Name: "axis", Kind: ParamOptInt, Default: "None", Doc: "the axis to sum along (None: the flattened array)"},
			{Name: "dtype", Kind: ParamOptDType, Default: "None", Doc: "the result's dtype (None: the input's; int64 for bool)"},
		},
		Infer: cumsumInfer,
		Kernel: func(in, out []*ndarray.NDArray, at Attrs) error {
			x := in[0]
			if _, _, err := cumsumInfer(in, at); err != nil {
				return err
			}
			axis, ok := at.OptInt("axis")
			if !ok {
				src, ls, release, err := flatLanes(x)
				if err != nil {
					return err
				}
				defer release()
				cumsumLanes(src, out[0], ls, lanes{n: ls.n, stride: out[0].Strides()[0], starts: []int{out[0].Offset()}})
				return nil
			}
			cumsumLanes(x, out[0], lanesOf(x, axis), lanesOf(out[0], axis))
			return nil
		},
	})
}

// cumsumDTypes are the result dtypes MXNet's cumsum takes for its dtype parameter.
var cumsumDTypes = []ndarray.DType{ndarray.Float16, ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Int8}

func cumsumInfer(in []*ndarray.NDArray, at Attrs) ([]int, ndarray.DType, error) {
	x := in[0]
	dt, ok := at.OptDType("dtype")
	if ok && !slices.Contains(cumsumDTypes, dt) {
		return nil, 0, mxerr.TypeErr("cumsum: dtype must be one of %s, not %s", dtypeNames(cumsumDTypes), dt)
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

func cumsumLanes(x, out *ndarray.NDArray, ls, ol lanes) {
	lio, oio := ioTable[x.DType()], ioTable[out.DType()]
	exact := isIntegral(x.DType()) && isIntegral(out.DType()) // wrapping integer sums
	xb, ob, xs, os := laneBase(x), laneBase(out), x.DType().Size(), out.DType().Size()
	var typed func(xb, ob unsafe.Pointer, ls, ol lanes, lo, hi int) // the common dtypes, read in place
	if x.DType() == out.DType() {
		typed = map[ndarray.DType]func(xb, ob unsafe.Pointer, ls, ol lanes, lo, hi int){
			ndarray.Float32: cumsumTyped[float32, float64], ndarray.Float64: cumsumTyped[float64, float64],
			ndarray.Int32: cumsumTyped[int32, int64], ndarray.Int64: cumsumTyped[int64, int64],
		}[x.DType()]
	}
	forLanes(len(ls.starts), ls.n, func() struct{} { return struct{}{} }, func(_ struct{}, lo, hi int) {
		if typed != nil {
			typed(xb, ob, ls, ol, lo, hi)
			return
		}
		for l := lo; l < hi; l++ {
			p, q := unsafe.Add(xb, ls.starts[l]*xs), unsafe.Add(ob, ol.starts[l]*os)
			var si uint64
			var sf float64
			for i := 0; i < ls.n; i++ {
				src, dst := unsafe.Add(p, i*ls.stride*xs), unsafe.Add(q, i*ol.stride*os)
				if exact {
					si += lio.loadI(src)
					oio.storeI(dst, si)
				} else {
					sf += real(lio.loadC(src))
					oio.storeC(dst, complex(sf, 0))
				}
			}
		}
	})
}

// cumsumTyped is cumsumLanes for an output of x's dtype T, summed in A.
func cumsumTyped[T int32 | int64 | float32 | float64, A int64 | float64](xb, ob unsafe.Pointer, ls, ol lanes, lo, hi int) {
	for l := lo; l < hi; l++ {
		var s A
		for i := 0; i < ls.n; i++ {
			s += A(*elemAt[T](xb, ls.starts[l]+i*ls.stride))
			*elemAt[T](ob, ol.starts[l]+i*ol.stride) = T(s)
		}
	}
}
