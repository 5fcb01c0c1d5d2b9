package nn

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// fcGrad is FullyConnected's gradient, from data read as the (m, k) matrix X of the
// forward and the head gradient as G (m, num_hidden): dX = G W, dW = G^T X, dbias = the
// column sums of G, each by operators (dot, sum), so that it has a second order.
var fcGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	m, k := fcDims(c.Shapes[0], c.Attrs.Bool("flatten"))
	h := c.Attrs.Int("num_hidden")
	g := s.Reshape(c.OutGrad[0], []int{m, h})
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	if c.Need[0] {
		grads[0] = s.Reshape(s.Call("dot", "", g, c.In[1]), c.Shapes[0])
	}
	if c.Need[1] {
		x := s.Reshape(c.In[0], []int{m, k})
		grads[1] = s.CallInto(1, "dot", "transpose_a=1", g, x)
	}
	if len(grads) == 3 && c.Need[2] {
		grads[2] = s.CallInto(2, "sum", "axis=0", g)
	}
	return s.Done(grads...)
}}
