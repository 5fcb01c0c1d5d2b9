package elemwise

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

func init() {
	ops.Register(&ops.Op{
		Name: "where", Grad: whereGrad, Category: ops.Broadcast, Inputs: []string{"condition", "x", "y"}, DTypes: ops.AllDTypes, InPlace: true,
		Doc: "Elements of x where condition is true (nonzero), of y elsewhere. As in MXNet nothing broadcasts: x " +
			"and y have one shape, and the condition has it too, or is 1-D as long as the first axis of x and " +
			"picks whole rows: x[i] where condition[i] is true, else y[i] (ValueError otherwise).\n\nThe " +
			"condition may have any dtype (NaN counts as true, -0.0 as false); x and y must have the same dtype, " +
			"which the result has.",
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
		Doc: "Limits the values of data to [a_min, a_max], as MXNet's clip: a_max where data > a_max, else a_min " +
			"where data < a_min, else data (so a_min > a_max gives a_min where data <= a_max, and NaN passes).\n\n" +
			"The result keeps data's dtype. As in MXNet the bounds are float32: each element compares with them in " +
			"float32 (float64 data in float64) and takes the bound converted to its dtype as C casts (integer " +
			"arrays truncate: clip(int32 x, 1.5, 2.5) limits x to [1, 2]; NaN bounds never compare).",
		Params: []ops.Param{
			{Name: "a_min", Kind: ops.ParamFloat, Doc: "lower bound (-inf: none)"},
			{Name: "a_max", Kind: ops.ParamFloat, Doc: "upper bound (inf: none)"},
		},
		Infer: ops.InferSame,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			runClip(out[0], in[0], at.Float("a_min"), at.Float("a_max"))
			return nil
		},
	})
}

// whereOperands checks where's shapes as MXNet does, which does not broadcast: x and y
// have one shape, and the condition has it too or is 1-D as long as its first axis
// (MXNet's "pick row i of x or of y"). That row form is returned as a view of shape (n,
// 1, ..., 1), so one broadcasting kernel serves both; release frees it.
func whereOperands(in []*ndarray.NDArray) (_ []*ndarray.NDArray, release func(), err error) {
	cond, shape := in[0], in[1].Shape()
	if !slices.Equal(in[2].Shape(), shape) {
		return nil, nil, mxerr.ValueErr("where: x and y must have the same shape, as in MXNet (which does not broadcast): got %v and %v", shape, in[2].Shape())
	}
	if slices.Equal(cond.Shape(), shape) {
		return in, func() {}, nil
	}
	if cond.NDim() != 1 || len(shape) < 1 || cond.Shape()[0] != shape[0] {
		return nil, nil, mxerr.ValueErr("where: the condition must have x's shape %v, or be 1-D as long as x's first axis (%v), as in MXNet", shape, cond.Shape())
	}
	key := []ndarray.KeyItem{{Kind: ndarray.KeySlice}}
	for range len(shape) - 1 {
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

// runClip is clip's kernel, MXNet's: its bounds are float32 parameters, each element
// compares with them in float32 (float64 data in float64) and, when out of range, takes
// the bound converted to the array's dtype as C does. So integer arrays get truncated
// bounds (1.5 is 1, -1.5 is -1), a_min > a_max gives a_min below a_max, and NaN (as data
// or as a bound) never compares: it passes through.
func runClip(out, in *ndarray.NDArray, lo, hi float64) {
	l, h := float32(lo), float32(hi)
	switch in.DType() {
	case ndarray.Int8:
		clipInt[int8](out, in, l, h)
	case ndarray.Int16:
		clipInt[int16](out, in, l, h)
	case ndarray.Int32:
		clipInt[int32](out, in, l, h)
	case ndarray.Int64:
		clipInt[int64](out, in, l, h)
	case ndarray.Uint8:
		clipInt[uint8](out, in, l, h)
	case ndarray.Uint16:
		clipInt[uint16](out, in, l, h)
	case ndarray.Uint32:
		clipInt[uint32](out, in, l, h)
	case ndarray.Uint64:
		clipInt[uint64](out, in, l, h)
	default: // float16 and bfloat16 widen exactly, so float64 compares as float32 would
		ops.RealMap(out, in, func(x float64) float64 { return clipped(x, float64(l), float64(h)) })
	}
}

// clipped is MXNet's clip of one element: the upper bound is tested first.
func clipped(x, lo, hi float64) float64 {
	switch {
	case x > hi:
		return hi
	case x < lo:
		return lo
	}
	return x
}

func clipInt[T ops.IntElem](out, in *ndarray.NDArray, lo, hi float32) {
	l, h := ops.CToInt[T](float64(lo)), ops.CToInt[T](float64(hi))
	ops.Map1(out, in, func(x T) T {
		switch f := float32(x); { // C compares an integer with a float in float
		case f > hi:
			return h
		case f < lo:
			return l
		}
		return x
	})
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
