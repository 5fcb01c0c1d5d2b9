package reduce

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Gradients of the reductions, as MXNet's: the result's gradient spread back over the
// reduced axes (sum), divided by their count (mean), times y/x (prod), or onto every
// element equal to the extremum (max and min: ties each get it all, MXNet's eq mask);
// nansum's NaNs and the index reductions get none.

// reduceGrad is the Gradient of a reduction of kind (nan: NaN counts as the identity).
func reduceGrad(kind reduceKind, nan bool) *ops.Gradient {
	switch {
	case kind.isArg():
		return ops.ZeroGrad
	case nan && kind == redProd:
		return nil // nanprod: not differentiable in mxgo yet
	}
	uses := ops.GradUses(0)
	if kind == redProd || kind == redMax || kind == redMin || nan {
		uses = ops.UsesInputs | ops.UsesOutputs
	}
	return &ops.Gradient{Uses: uses, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		s := &ops.GradCalls{C: c}
		kept := keptShape(c.Shapes[0], c.Attrs)
		g := back(s, kept, c.OutGrad[0])
		switch {
		case kind == redMean:
			n := 1
			for i, d := range c.Shapes[0] {
				if kept[i] == 1 && d != 1 {
					n *= d
				}
			}
			g = s.Call("_divide_scalar", "scalar=i:"+ops.WireInts([]int{n}), g)
		case kind == redProd: // g * y / x
			g = s.Call("divide", "", s.Call("multiply", "", g, back(s, kept, c.Out[0])), c.In[0])
		case kind == redMax || kind == redMin:
			g = s.Call("multiply", "", g, s.Call("equal", "", c.In[0], back(s, kept, c.Out[0])))
		case nan: // NaNs (x != x) get no gradient
			g = s.Call("multiply", "", g, s.Call("equal", "", c.In[0], c.In[0]))
		}
		return s.Done(g)
	}}
}

// back broadcasts a, of a reduction's result shape, back to the input's: reshaped to
// kept (the input's shape with each reduced axis 1), then broadcast.
func back(s *ops.GradCalls, kept []int, a *ndarray.NDArray) *ndarray.NDArray {
	return s.Call("broadcast_to", "shape="+ops.WireInts(s.C.Shapes[0]), s.Call("reshape", "shape="+ops.WireInts(kept), a))
}

// keptShape is shape with the axes a reduction's attributes reduce set to 1 (axis None
// or () reduces all; exclude reduces the others).
func keptShape(shape []int, at ops.Attrs) []int {
	axes := at.Ints("axis")
	norm, _ := ops.NormalizeAxes(axes, len(shape)) // checked when the call was made
	out := slices.Clone(shape)
	exclude, _ := at["exclude"].(bool)
	for i := range out {
		if len(axes) == 0 || slices.Contains(norm, i) != (exclude && len(axes) > 0) {
			out[i] = 1
		}
	}
	return out
}

// cumsumGrad: each element of the input adds into every later sum along the axis, so
// its gradient is the reversed cumulative sum of the result's gradient (over the
// flattened array, reshaped back, when axis is None).
var cumsumGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	axis, ok := c.Attrs.OptInt("axis")
	if !ok {
		axis = 0
	}
	at := "axis=" + ops.WireInts([]int{axis})
	g := s.Call("flip", at, s.Call("cumsum", at, s.Call("flip", at, c.OutGrad[0])))
	if !ok {
		g = s.Call("reshape", "shape="+ops.WireInts(c.Shapes[0]), g)
	}
	if c.OutGrad[0].DType() != c.DTypes[0] {
		g = s.Call("Cast", "dtype="+c.DTypes[0].String(), g)
	}
	return s.Done(g)
}}

// normGrad: ord 2 gives x / ||x|| (spread back), ord 1 sign(x), each times the gradient.
var normGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	kept := keptShape(c.Shapes[0], c.Attrs)
	g := back(s, kept, c.OutGrad[0])
	if c.Attrs.Int("ord") == 1 {
		return s.Done(s.Call("multiply", "", g, s.Call("sign", "", c.In[0])))
	}
	return s.Done(s.Call("multiply", "", g, s.Call("divide", "", c.In[0], back(s, kept, c.Out[0]))))
}}
