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
	}
	uses := ops.GradUses(0)
	if kind == redProd || kind == redMax || kind == redMin || nan {
		uses = ops.UsesInputs | ops.UsesOutputs
	}
	return &ops.Gradient{Uses: uses, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		s := &ops.GradCalls{C: c}
		kept := keptOf(c.Shapes[0], c.Attrs)
		g := back(s, kept, c.OutGrad[0])
		switch {
		case kind == redMean:
			g = s.Call("_divide_scalar", "scalar=i:"+ops.WireInts([]int{reducedCount(c.Shapes[0], kept)}), g)
		case nan && kind == redProd: // nanprod: g * y / x, and nothing for the NaNs
			v := s.Call("divide", "", s.Call("multiply", "", g, back(s, kept, c.Out[0])), c.In[0])
			g = s.Call("where", "", s.Call("equal", "", c.In[0], c.In[0]), v, s.Call("zeros_like", "", v))
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
	return s.Call("broadcast_to", "shape="+ops.WireInts(s.C.Shapes[0]), s.Reshape(a, kept))
}

// keptShape is shape with the axes a reduction reduces set to 1: axes (all when empty),
// or with exclude every other axis.
func keptShape(shape, axes []int, exclude bool) []int {
	norm, _ := ops.NormalizeAxes(axes, len(shape)) // checked when the call was made
	out := slices.Clone(shape)
	for i := range out {
		if len(axes) == 0 || slices.Contains(norm, i) != (exclude && len(axes) > 0) {
			out[i] = 1
		}
	}
	return out
}

// keptOf is keptShape for a reduction's attributes (axis, and exclude where it has one).
func keptOf(shape []int, at ops.Attrs) []int {
	exclude, _ := at["exclude"].(bool)
	return keptShape(shape, at.Ints("axis"), exclude)
}

// reducedCount is the number of elements of shape that reduce into one (kept: keptShape).
func reducedCount(shape, kept []int) int {
	n := 1
	for i, d := range shape {
		if kept[i] == 1 && d != 1 {
			n *= d
		}
	}
	return n
}

// momentsGrad: the mean's gradient spreads evenly, the variance's as 2 (x - mean) / n.
var momentsGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	kept := keptShape(c.Shapes[0], c.Attrs.Ints("axes"), false)
	dev := s.Call("subtract", "", c.In[0], back(s, kept, c.Out[0]))
	gv := s.Call("multiply", "", back(s, kept, c.OutGrad[1]), s.Call("_multiply_scalar", "scalar=f:2", dev))
	g := s.Call("add", "", back(s, kept, c.OutGrad[0]), gv)
	return s.Done(s.Call("_divide_scalar", "scalar=i:"+ops.WireInts([]int{reducedCount(c.Shapes[0], kept)}), g))
}}

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
	kept := keptOf(c.Shapes[0], c.Attrs)
	g := back(s, kept, c.OutGrad[0])
	if c.Attrs.Int("ord") == 1 {
		return s.Done(s.Call("multiply", "", g, s.Call("sign", "", c.In[0])))
	}
	return s.Done(s.Call("multiply", "", g, s.Call("divide", "", c.In[0], back(s, kept, c.Out[0]))))
}}
