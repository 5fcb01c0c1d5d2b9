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
		r := spread{c: c, kept: keptShape(c.Shapes[0], c.Attrs)}
		g := r.back(c.OutGrad[0])
		switch {
		case kind == redMean:
			n := 1
			for i, d := range c.Shapes[0] {
				if r.kept[i] == 1 && d != 1 {
					n *= d
				}
			}
			g = r.call("_divide_scalar", "scalar=i:"+ops.WireInts([]int{n}), g)
		case kind == redProd: // g * y / x
			g = r.call("divide", "", r.call("multiply", "", g, r.back(c.Out[0])), c.In[0].ShareWithEntry())
		case kind == redMax || kind == redMin:
			g = r.call("multiply", "", g, r.call("equal", "", c.In[0].ShareWithEntry(), r.back(c.Out[0])))
		case nan: // NaNs (x != x) get no gradient
			g = r.call("multiply", "", g, r.call("equal", "", c.In[0].ShareWithEntry(), c.In[0].ShareWithEntry()))
		}
		if r.err != nil {
			return nil, r.err
		}
		return []*ndarray.NDArray{g}, nil
	}}
}

// spread composes a reduction's gradient, keeping the first error (every step after it
// does nothing) so that the formulas above read as formulas.
type spread struct {
	c    *ops.GradCtx
	kept []int // the input's shape with each reduced axis 1
	err  error
}

// call runs an operator on arrays whose references it takes, and returns its result.
func (r *spread) call(name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	defer func() {
		for _, a := range in {
			if a != nil {
				a.Release()
			}
		}
	}()
	if r.err != nil || slices.Contains(in, nil) {
		return nil
	}
	out, err := r.c.Call(name, attrs, in...)
	r.err = err
	return out
}

// back broadcasts a of the reduction's result shape back to the input's (without
// taking a's reference).
func (r *spread) back(a *ndarray.NDArray) *ndarray.NDArray {
	k := r.call("reshape", "shape="+ops.WireInts(r.kept), a.ShareWithEntry())
	return r.call("broadcast_to", "shape="+ops.WireInts(r.c.Shapes[0]), k)
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
	r := spread{c: c}
	axis, ok := c.Attrs.OptInt("axis")
	if !ok {
		axis = 0
	}
	at := "axis=" + ops.WireInts([]int{axis})
	g := r.call("flip", at, r.call("cumsum", at, r.call("flip", at, c.OutGrad[0].ShareWithEntry())))
	if !ok {
		g = r.call("reshape", "shape="+ops.WireInts(c.Shapes[0]), g)
	}
	if g != nil && g.DType() != c.DTypes[0] {
		g = r.call("Cast", "dtype="+c.DTypes[0].String(), g)
	}
	if r.err != nil {
		return nil, r.err
	}
	return []*ndarray.NDArray{g}, nil
}}

// normGrad: ord 2 gives x / ||x|| (spread back), ord 1 sign(x), each times the gradient.
var normGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	r := spread{c: c, kept: keptShape(c.Shapes[0], c.Attrs)}
	g := r.back(c.OutGrad[0])
	if c.Attrs.Int("ord") == 1 {
		g = r.call("multiply", "", g, r.call("sign", "", c.In[0].ShareWithEntry()))
	} else {
		g = r.call("multiply", "", g, r.call("divide", "", c.In[0].ShareWithEntry(), r.back(c.Out[0])))
	}
	if r.err != nil {
		return nil, r.err
	}
	return []*ndarray.NDArray{g}, nil
}}
