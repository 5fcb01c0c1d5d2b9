package layout

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Gradients of the layout operators that the core's shared ones (ReshapeBack,
// SelfInverse, RegionGrad, SumBack, CastBack) do not cover: each undoes its forward's
// movement of elements with another layout operator.

// transposeGrad transposes the gradient back by the inverse permutation.
var transposeGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	perm, err := ndarray.TransposeAxes(c.Attrs.Ints("axes"), len(c.Shapes[0]))
	if err != nil {
		return nil, err
	}
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	g, err := c.Call("transpose", "axes="+ops.WireInts(inv), c.OutGrad[0])
	return []*ndarray.NDArray{g}, err
}}

// joinGrad is the gradient of concat (stack: each input a new axis): each input gets
// its part of the gradient along the joined axis.
func joinGrad(stack bool) *ops.Gradient {
	param := "dim"
	if stack {
		param = "axis"
	}
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		g := c.OutGrad[0]
		axis, err := joinAxis(c.Op.Name, c.Attrs.Int(param), g.NDim())
		if err != nil {
			return nil, err
		}
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		start := 0
		for i, s := range c.Shapes {
			n := 1
			if !stack {
				n = s[axis]
			}
			if c.Need[i] {
				grads[i], err = c.Call("slice_axis", "axis="+ops.WireInts([]int{axis})+";begin="+ops.WireInts([]int{start})+
					";end="+ops.WireInts([]int{start + n}), g)
				if err == nil && stack {
					part := grads[i]
					grads[i], err = c.Call("reshape", "shape="+ops.WireInts(s), part)
					part.Release()
				}
				if err != nil {
					ops.ReleaseAll(grads[:i])
					return nil, err
				}
			}
			start += n
		}
		return grads, nil
	}}
}

// The regions that slice, slice_axis, slice_like and _split_part copy, laid out over an
// array z of their input's shape (ops.RegionGrad).

func sliceAxisRegion(z *ndarray.NDArray, _ []int, at ops.Attrs) ([]int, []int, int, error) {
	axis, b, e, err := sliceAxisRange(z.Shape(), at)
	if err != nil {
		return nil, nil, 0, err
	}
	shape := append([]int(nil), z.Shape()...)
	shape[axis] = e - b
	return shape, z.Strides(), z.Offset() + b*z.Strides()[axis], nil
}

func splitRegion(z *ndarray.NDArray, _ []int, at ops.Attrs) ([]int, []int, int, error) {
	p, err := splitPart(z.Shape(), at)
	if err != nil {
		return nil, nil, 0, err
	}
	shape := append([]int(nil), z.Shape()...)
	shape[p.axis] = p.end - p.begin
	return shape, z.Strides(), z.Offset() + p.begin*z.Strides()[p.axis], nil
}

func sliceRegion(z *ndarray.NDArray, _ []int, at ops.Attrs) ([]int, []int, int, error) {
	return sliceLayout(z, at)
}

// sliceLikeRegion: slice_like keeps the start of every axis.
func sliceLikeRegion(z *ndarray.NDArray, out []int, _ ops.Attrs) ([]int, []int, int, error) {
	return out, z.Strides(), z.Offset(), nil
}
