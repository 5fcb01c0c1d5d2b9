package elemwise

import (
	"math"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

func init() {
	ops.Register(&ops.Op{
		Name: "where", Grad: whereGrad, Category: ops.Broadcast, Inputs: []string{"condition", "x", "y"}, DTypes: ops.AllDTypes, InPlace: true,
		Doc: "Elements of x where condition is true (nonzero), of y elsewhere; all three broadcast together " +
			"(NumPy broadcasting), except that, as in MXNet, a 1-D condition as long as the first axis of x " +
			"(and y) picks whole rows: x[i] where condition[i] is true, else y[i].\n\nThe condition may have " +
			"any dtype (NaN counts as true, -0.0 as false); x and y must have the same dtype, which the result has.",
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if err := ops.SameDType(in[1:]); err != nil {
				return nil, 0, err
			}
			in, release, err := whereOperands(in)
			if err != nil {
				return nil, 0, err
			}
			defer release()
			shape, err := ops.BroadcastShape(in)
			return shape, in[1].DType(), err
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			in, release, err := whereOperands(in)
			if err != nil {
				return err
			}
			defer release()
			return ops.BroadcastKernel(in, out[0], func(in []*ndarray.NDArray) error {
				runWhere(out[0], in[0], in[1], in[2])
				return nil
			})
		},
	})
	ops.Register(&ops.Op{
		Name: "clip", Grad: ops.GradExpr("g * (x >= $a_min) * (x <= $a_max)"), Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: ops.RealNumericDTypes, InPlace: true,
		Doc: "Limits the values of data to [a_min, a_max]: minimum(maximum(data, a_min), a_max), as NumPy's clip " +
			"(so a_min > a_max gives a_max, and NaN propagates).\n\nThe result keeps data's dtype: floating-point " +
			"arrays use the bounds rounded to their dtype; integer arrays round them inward (a_min up, a_max down) " +
			"and saturate them to the dtype's range, and refuse NaN bounds (ValueError).",
		Params: []ops.Param{
			{Name: "a_min", Kind: ops.ParamFloat, Doc: "lower bound (-inf: none)"},
			{Name: "a_max", Kind: ops.ParamFloat, Doc: "upper bound (inf: none)"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			lo, hi := at.Float("a_min"), at.Float("a_max")
			if ops.IsIntegral(in[0].DType()) && (math.IsNaN(lo) || math.IsNaN(hi)) {
				return nil, 0, mxerr.ValueErr("clip: the bounds of an integer array must not be NaN (got a_min=%v, a_max=%v)", lo, hi)
			}
			return in[0].Shape(), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			runClip(out[0], in[0], at.Float("a_min"), at.Float("a_max"))
			return nil
		},
	})
}

// whereOperands returns where's operands with MXNet's row form made a broadcast: a 1-D
// condition as long as the first axis of x and y (broadcast together, of two or more
// dimensions) becomes a view of shape (n, 1, ..., 1), which MXNet's where reads as
// "pick row i of x or of y". release frees that view.
func whereOperands(in []*ndarray.NDArray) (_ []*ndarray.NDArray, release func(), err error) {
	cond := in[0]
	if cond.NDim() != 1 {
		return in, func() {}, nil
	}
	xy, err := ops.BroadcastShape(in[1:])
	if err != nil || len(xy) < 2 || xy[0] != cond.Shape()[0] {
		return in, func() {}, nil // an ordinary broadcast (or its error, from the caller)
	}
	key := []ndarray.KeyItem{{Kind: ndarray.KeySlice}}
	for range len(xy) - 1 {
		key = append(key, ndarray.KeyItem{Kind: ndarray.KeyNewAxis})
	}
	rows, err := cond.Index(key)
	if err != nil {
		return nil, nil, err
	}
	return []*ndarray.NDArray{rows, in[1], in[2]}, rows.Release, nil
}

// runWhere picks x or y by condition, reading the condition's bits: a value is zero when
// its bits are, except for the sign bits of floating-point (and complex) zeros.
func runWhere(out, cond, x, y *ndarray.NDArray) {
	const f64, c64 = 1<<63 - 1, 0x7fffffff7fffffff
	switch cond.DType() {
	case ndarray.Bool, ndarray.Int8, ndarray.Uint8:
		whereBy(out, cond, x, y, func(c uint8) bool { return c != 0 })
	case ndarray.Int16, ndarray.Uint16:
		whereBy(out, cond, x, y, func(c uint16) bool { return c != 0 })
	case ndarray.Float16, ndarray.Bfloat16:
		whereBy(out, cond, x, y, func(c uint16) bool { return c&0x7fff != 0 })
	case ndarray.Int32, ndarray.Uint32:
		whereBy(out, cond, x, y, func(c uint32) bool { return c != 0 })
	case ndarray.Float32:
		whereBy(out, cond, x, y, func(c uint32) bool { return c&0x7fffffff != 0 })
	case ndarray.Int64, ndarray.Uint64:
		whereBy(out, cond, x, y, func(c uint64) bool { return c != 0 })
	case ndarray.Float64:
		whereBy(out, cond, x, y, func(c uint64) bool { return c&f64 != 0 })
	case ndarray.Complex64:
		whereBy(out, cond, x, y, func(c uint64) bool { return c&c64 != 0 })
	case ndarray.Complex128:
		whereBy(out, cond, x, y, func(c [2]uint64) bool { return (c[0]|c[1])&f64 != 0 })
	}
}

// whereBy copies elements of x or y, moved as unsigned words of their size.
func whereBy[C any](out, cond, x, y *ndarray.NDArray, nz func(C) bool) {
	switch x.DType().Size() {
	case 1:
		ops.Map3(out, cond, x, y, pick[C, uint8](nz))
	case 2:
		ops.Map3(out, cond, x, y, pick[C, uint16](nz))
	case 4:
		ops.Map3(out, cond, x, y, pick[C, uint32](nz))
	case 8:
		ops.Map3(out, cond, x, y, pick[C, uint64](nz))
	case 16:
		ops.Map3(out, cond, x, y, pick[C, [2]uint64](nz))
	}
}

func pick[C, E any](nz func(C) bool) func(C, E, E) E {
	return func(c C, a, b E) E {
		if nz(c) {
			return a
		}
		return b
	}
}

// runClip is clip's kernel.
func runClip(out, in *ndarray.NDArray, lo, hi float64) {
	dt := in.DType()
	if ops.IsFloat(dt) {
		l := real(ops.ScalarLoad(dt, ops.Scalar{Value: complex(lo, 0)}))
		h := real(ops.ScalarLoad(dt, ops.Scalar{Value: complex(hi, 0)}))
		ops.RealMap(out, in, func(x float64) float64 { return fminimum(fmaximum(x, l), h) })
		return
	}
	lo, hi = math.Ceil(lo), math.Floor(hi)
	switch dt {
	case ndarray.Int8:
		clipInt[int8](out, in, lo, hi)
	case ndarray.Int16:
		clipInt[int16](out, in, lo, hi)
	case ndarray.Int32:
		clipInt[int32](out, in, lo, hi)
	case ndarray.Int64:
		clipInt[int64](out, in, lo, hi)
	case ndarray.Uint8:
		clipInt[uint8](out, in, lo, hi)
	case ndarray.Uint16:
		clipInt[uint16](out, in, lo, hi)
	case ndarray.Uint32:
		clipInt[uint32](out, in, lo, hi)
	case ndarray.Uint64:
		clipInt[uint64](out, in, lo, hi)
	}
}

func clipInt[T ops.IntElem](out, in *ndarray.NDArray, lo, hi float64) {
	l, h := saturate[T](lo), saturate[T](hi)
	ops.Map1(out, in, func(x T) T { return min(max(x, l), h) })
}

// saturate converts the integral (or infinite) v to T, clamping it to T's range.
func saturate[T ops.IntElem](v float64) T {
	var zero T
	bits := int(8 * unsafe.Sizeof(zero))
	if ^zero < 0 { // signed: [-2**(bits-1), 2**(bits-1))
		top := math.Ldexp(1, bits-1)
		switch {
		case v <= -top:
			return T(int64(-1) << (bits - 1))
		case v >= top:
			return T(uint64(1)<<(bits-1) - 1)
		}
		return T(int64(v))
	}
	switch {
	case v <= 0:
		return 0
	case v >= math.Ldexp(1, bits):
		return ^zero
	}
	return T(uint64(v))
}

// whereGrad gives x the gradient where the condition holds and y the rest (where of the
// gradient and zeros, so MXNet's row form of the condition applies as in the forward);
// the condition gets none.
var whereGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	g := c.OutGrad[0]
	zero, err := c.Call("zeros_like", "", g)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
	grads := make([]*ndarray.NDArray, 3)
	for i, pair := range [][2]*ndarray.NDArray{{g, zero}, {zero, g}} {
		if !c.Need[i+1] {
			continue
		}
		w, err := c.Call("where", "", c.In[0], pair[0], pair[1])
		if err == nil {
			grads[i+1], err = c.SumTo(w, c.Shapes[i+1])
			w.Release()
		}
		if err != nil {
			ops.ReleaseAll(grads)
			return nil, err
		}
	}
	return grads, nil
}}
