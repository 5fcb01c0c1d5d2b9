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

// foldSum sums g viewed as shape (its elements in C order) over axes and reshapes the
// sum to to: the gradient of tile and repeat, whose copies the view puts on axes.
func foldSum(c *ops.GradCtx, shape, axes, to []int) ([]*ndarray.NDArray, error) {
	v, err := c.Call("reshape", "shape="+ops.WireInts(shape), c.OutGrad[0])
	if err != nil {
		return nil, err
	}
	defer v.Release()
	s, err := c.Call("sum", "axis="+ops.WireInts(axes)+";keepdims=0", v)
	if err != nil {
		return nil, err
	}
	defer s.Release()
	g, err := c.Call("reshape", "shape="+ops.WireInts(to), s)
	return []*ndarray.NDArray{g}, err
}

// tileGrad: the result is the input's copies laid out (rep, element) on each axis; the
// gradient sums over the reps.
var tileGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s, r, err := tileDims(c.Shapes[0], c.Attrs.Ints("reps"))
	if err != nil {
		return nil, err
	}
	var shape, axes []int
	for i := range s {
		axes = append(axes, len(shape))
		shape = append(shape, r[i], s[i])
	}
	return foldSum(c, shape, axes, c.Shapes[0])
}}

// repeatGrad: each element's copies follow it along the axis; the gradient sums them.
var repeatGrad = &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	in := c.Shapes[0]
	axis, flat, err := repeatAxis(in, c.Attrs)
	if err != nil {
		return nil, err
	}
	s := in
	if flat || len(in) == 0 {
		n, _ := ndarray.Size(in)
		s, axis = []int{n}, 0
	}
	shape := append(append(append([]int(nil), s[:axis+1]...), c.Attrs.Int("repeats")), s[axis+1:]...)
	return foldSum(c, shape, []int{axis + 1}, in)
}}
