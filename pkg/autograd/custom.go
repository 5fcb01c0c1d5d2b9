package autograd

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Steps that are not registered operators: the views NDArray's methods make (basic
// indexing, reshape, transpose), copies between arrays, and user Functions. The caller
// computes outs from in itself and records the step with the gradient that undoes it.

// Record records outs as computed from in by a step named name, differentiated by g,
// when m is recording and an input takes part. onFree, when not nil, runs once when the
// step is released (by backward, or when its graph is collected); it is how a step lets
// go of what it holds outside Go. Record reports whether it recorded (if not, onFree
// never runs).
func Record(name string, g *ops.Gradient, in, outs []*ndarray.NDArray, m Mode, onFree func()) bool {
	return m.Recording && record(name, nil, g, nil, in, outs, onFree)
}

// ViewGrad is the gradient of view, a view of src (basic indexing): the view's
// gradient placed where the view lies in src, zeros elsewhere, as MXNet's slice
// backward gives. It is computed in memory laid out as src's storage, so it needs no
// map from one layout to the other; it is not itself recorded (no higher order).
func ViewGrad(src, view *ndarray.NDArray) *ops.Gradient {
	type layout struct {
		shape, strides []int
		offset         int
	}
	s := layout{src.Shape(), src.Strides(), src.Offset()}
	v := layout{view.Shape(), view.Strides(), view.Offset()}
	nbytes, dt := src.Storage().Bytes(), src.DType()
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		st, err := ndarray.NewHostStorage(nbytes)
		if err != nil {
			return nil, err
		}
		whole, err := ndarray.Adopt(st, dt, s.shape, s.strides, s.offset, true)
		if err != nil {
			return nil, err
		}
		part, err := ndarray.View(st, dt, v.shape, v.strides, v.offset, true)
		if err == nil {
			defer part.Release()
			if err = ops.Fill(whole, ops.Scalar{}); err == nil {
				err = ops.Copy(part, c.OutGrad[0])
			}
		}
		if err != nil {
			whole.Release()
			return nil, err
		}
		return []*ndarray.NDArray{whole}, nil
	}}
}

// ReshapeGrad is the gradient of a reshape of an array of shape from: the gradient
// reshaped back.
func ReshapeGrad(from []int) *ops.Gradient {
	attrs := "shape=" + ops.WireInts(from)
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		g, err := c.Call("reshape", attrs, c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}}
}

// TransposeGrad is the gradient of a transpose by perm: the gradient transposed back.
func TransposeGrad(perm []int) *ops.Gradient {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[(p+len(perm))%len(perm)] = i // axes may count from the end
	}
	attrs := "axes=" + ops.WireInts(inv)
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		g, err := c.Call("transpose", attrs, c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}}
}
