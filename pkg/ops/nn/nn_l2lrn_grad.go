package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The gradients of L2Normalization and LRN. L2Normalization's, with y = x/n and n =
// sqrt(sum(x²) + eps) over the mode's axes, is (g - y*sum(g*y))/n, by operators on data
// seen as (outer, n, inner) (so that every mode sums axis 1). LRN's is MXNet's formula,
// in a kernel of its own (_backward_LRN: its channel windows are no operator):
//
//	dx = g*norm^-beta - 2*beta*alpha/nsize * x * chsum(g*x*norm^(-beta-1))
//
// with norm = knorm + alpha/nsize*chsum(x²) and chsum the sum over the nsize channels
// around each one, the forward's window (for an even nsize MXNet's backward sums the same
// window, which is then not the adjoint of the forward's: mxgo follows it).

func init() {
	lrn, _ := ops.Lookup("LRN") // nn_embed.go, initialised before this file
	ops.Register(&ops.Op{
		Name: "_backward_LRN",
		Doc: "The gradient of LRN's data from its data and the gradient of its result, with LRN's parameters. " +
			"Internal: LRN's Grad calls it.",
		Category: ops.General, Inputs: []string{"data", "out_grad"}, DTypes: lrn.DTypes, Params: lrn.Params,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if err := nnCheckShape("_backward_LRN", "out_grad", in[1].Shape(), in[0].Shape()); err != nil {
				return nil, 0, err
			}
			return lrn.Infer(in[:1], at)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s := in[0].Shape()
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { lrnBackward(x[0], x[1], y, s[0], s[1], s[2]*s[3], at) },
				func(x [][]float64, y []float64) { lrnBackward(x[0], x[1], y, s[0], s[1], s[2]*s[3], at) })
		},
	})
}

// lrnBackward sets dx from x (batch, c, plane) and the head gradient g.
func lrnBackward[T nnFloat](x, g, dx []T, batch, c, plane int, at ops.Attrs) {
	size := at.Int("nsize")
	salpha, beta, k := at.Float("alpha")/float64(size), at.Float("beta"), at.Float("knorm")
	window := func(ch int) (int, int) { return max(0, ch-size/2), min(c, ch-size/2+size) }
	nnParallel(batch*plane, 2*c*size, func(lo, hi int) {
		norm, t := make([]float64, c), make([]float64, c)
		for gi := lo; gi < hi; gi++ {
			base := gi/plane*c*plane + gi%plane
			for ch := range c {
				var sum float64
				a, b := window(ch)
				for q := a; q < b; q++ {
					v := float64(x[base+q*plane])
					sum += v * v
				}
				norm[ch] = k + salpha*sum
				p := base + ch*plane
				t[ch] = float64(g[p]) * float64(x[p]) * math.Pow(norm[ch], -beta-1)
			}
			for ch := range c {
				var sum float64
				a, b := window(ch)
				for q := a; q < b; q++ {
					sum += t[q]
				}
				p := base + ch*plane
				dx[p] = T(float64(g[p])*math.Pow(norm[ch], -beta) - 2*beta*salpha*sum*float64(x[p]))
			}
		}
	})
}

var lrnGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	dx, err := runBackward(c, "_backward_LRN", c.Attrs, c.In[0], c.OutGrad[0])
	return []*ndarray.NDArray{dx}, err
}}

var l2NormGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	spec, err := l2NormSpec(c.Shapes[0], c.Attrs)
	if err != nil {
		return nil, err
	}
	s := &ops.GradCalls{C: c}
	as3 := "shape=" + ops.WireInts([]int{spec.outer, spec.n, spec.inner})
	x, y, g := s.Call("reshape", as3, c.In[0]), s.Call("reshape", as3, c.Out[0]), s.Call("reshape", as3, c.OutGrad[0])
	const lane = "axis=1;keepdims=1"
	n := s.Call("sqrt", "", s.Call("_add_scalar", nnScalar(spec.eps), s.Call("sum", lane, s.Call("multiply", "", x, x))))
	gy := s.Call("sum", lane, s.Call("multiply", "", g, y))
	dx := s.Call("divide", "", s.Call("subtract", "", g, s.Call("multiply", "", y, gy)), n)
	return s.Done(s.Call("reshape", "shape="+ops.WireInts(c.Shapes[0]), dx))
}}
