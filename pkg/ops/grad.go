package ops

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Gradients. An operator is differentiable when its Grad is set: given the gradient of
// each of its results, Grad returns the gradient of each input, computed by calling
// operators (GradCtx.Call) rather than by touching memory. So a gradient runs on the
// engine like every operation, and when package autograd records those calls (a graph
// of the gradient, create_graph) it gets higher-order gradients for nothing, as MXNet's
// FGradient, which builds its backward from graph nodes, does.

// GradFunc computes an operator's input gradients; an input that gets no gradient (a
// non-differentiable operand such as an index, or one not in the graph) may get nil,
// which counts as zero.
type GradFunc func(c *GradCtx) ([]*ndarray.NDArray, error)

// Gradient is an operator's gradient: Func, and which arrays of the call it reads.
type Gradient struct {
	Func GradFunc
	Uses GradUses
}

// GradUses says which of a call's arrays its gradient reads, so that recording keeps
// only those alive until backward (the shapes and dtypes of the inputs are always kept).
type GradUses uint8

const (
	UsesInputs  GradUses = 1 << iota // GradCtx.In
	UsesOutputs                      // GradCtx.Out
)

// GradCtx is one call's gradient: the recorded call and the gradients of its results.
type GradCtx struct {
	Op      *Op
	Attrs   Attrs
	In, Out []*ndarray.NDArray // the call's arrays, where the operator's GradUses keeps them (else nil)
	Shapes  [][]int            // every input's shape
	DTypes  []ndarray.DType    // every input's dtype
	OutGrad []*ndarray.NDArray // the gradient of each result, zeros where none flowed
	Need    []bool             // which inputs take part in the graph (the others' gradients are dropped)
	// Run runs an operator for the gradient; package autograd records it when the
	// gradient itself is being differentiated.
	Run func(op *Op, in []*ndarray.NDArray, at Attrs) (*ndarray.NDArray, error)
	// Into holds, for some inputs, an array of the input's shape and dtype that its
	// gradient may be written into instead of a new one (nil elsewhere, or nil): package
	// autograd's gradient buffer of a variable under grad_req "write" whose only gradient
	// this is, outside recording. A Func that makes an input's gradient with one call
	// makes it with CallInto, which spares backward copying it into the buffer; RunInto
	// runs that call.
	Into    []*ndarray.NDArray
	RunInto func(op *Op, in []*ndarray.NDArray, out *ndarray.NDArray, at Attrs) (*ndarray.NDArray, error)
}

// Call runs operator name with attrs in their wire form ("axis=0;keepdims=1") on in and
// returns its result, which the caller releases.
func (c *GradCtx) Call(name, attrs string, in ...*ndarray.NDArray) (*ndarray.NDArray, error) {
	return c.CallInto(-1, name, attrs, in...)
}

// CallInto is Call for the gradient of input i: written into Into[i] where there is one
// (the result is then a new reference to it).
func (c *GradCtx) CallInto(i int, name, attrs string, in ...*ndarray.NDArray) (*ndarray.NDArray, error) {
	op, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	at, err := ParseAttrs(op, attrs)
	if err != nil {
		return nil, err
	}
	if i >= 0 && i < len(c.Into) && c.Into[i] != nil {
		return c.RunInto(op, in, c.Into[i], at)
	}
	return c.Run(op, in, at)
}

// ZeroGrad is the Gradient of operators whose result is constant almost everywhere in their
// inputs (comparisons, rounding, argmax, ...): every input gets a zero gradient, as
// MXNet's MakeZeroGradNodes gives.
var ZeroGrad = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	return make([]*ndarray.NDArray, len(c.Shapes)), nil
}}

// ErrNotDifferentiable is what backward through an operator without Grad gives.
func ErrNotDifferentiable(name string) error {
	return mxerr.New(mxerr.MXNet, "Operator %s is non-differentiable because it didn't register FGradient attribute.", name)
}

// SumTo sums g (of a broadcast shape) down to shape, the gradient of broadcasting an
// operand of that shape; g itself (with a new reference) when it has it already.
func (c *GradCtx) SumTo(g *ndarray.NDArray, shape []int) (*ndarray.NDArray, error) {
	gs := g.Shape()
	if ndarray.SameShape(gs, shape) == nil {
		return g.ShareWithEntry(), nil
	}
	lead := len(gs) - len(shape)
	var axes []int
	for i := range gs {
		if i < lead || (shape[i-lead] == 1 && gs[i] != 1) {
			axes = append(axes, i)
		}
	}
	s, err := c.Call("sum", "axis="+WireInts(axes)+";keepdims=1", g)
	if err != nil {
		return nil, err
	}
	defer s.Release()
	return c.Call("reshape", "shape="+WireInts(shape), s)
}

// WireInts is ints in their wire form, "0,2" (a ParamAxes or ParamShape value).
func WireInts(v []int) string {
	b := make([]byte, 0, 4*len(v))
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// ReshapeBack is the Gradient of operators that only change their input's shape
// (reshape, expand_dims, squeeze, flatten): the gradient reshaped to the input's.
// Inputs after the first (reshape_like's model) get none.
var ReshapeBack = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	g, err := c.Call("reshape", "shape="+WireInts(c.Shapes[0]), c.OutGrad[0])
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	grads[0] = g
	return grads, err
}}

// SelfInverse is the Gradient of operators that are their own inverse with the same
// parameters (swapaxes, flip): the operator applied to the gradient.
var SelfInverse = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	g, err := c.Run(c.Op, []*ndarray.NDArray{c.OutGrad[0]}, c.Attrs)
	return []*ndarray.NDArray{g}, err
}}

// RegionGrad is the Gradient of operators whose result copies a region of their first
// input (slice, slice_axis, slice_like, split): zeros of the input's shape with the
// result's gradient copied into the region, which region lays out over z (an array of
// the input's shape) as the forward lays it out over its input (out is the result's
// shape). Not recorded: such gradients have no second order.
func RegionGrad(region func(z *ndarray.NDArray, out []int, at Attrs) (shape, strides []int, off int, err error)) *Gradient {
	return &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
		g := c.OutGrad[0]
		z, err := ndarray.Empty(c.DTypes[0], c.Shapes[0], g.Device())
		if err != nil {
			return nil, err
		}
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		grads[0] = z
		if err = Fill(z, Scalar{}); err == nil {
			err = copyIntoRegion(z, g, c.Attrs, region)
		}
		if err != nil {
			z.Release()
			return nil, err
		}
		return grads, nil
	}}
}

func copyIntoRegion(z, g *ndarray.NDArray, at Attrs, region func(*ndarray.NDArray, []int, Attrs) ([]int, []int, int, error)) error {
	shape, strides, off, err := region(z, g.Shape(), at)
	if err != nil {
		return err
	}
	part, err := ndarray.View(z.Storage(), z.DType(), shape, strides, off, true)
	if err != nil {
		return err
	}
	defer part.Release()
	src, err := Reshape(g, shape) // a split's squeezed axis: the same elements
	if err != nil {
		return err
	}
	defer src.Release()
	return Copy(part, src)
}

// PassThrough is the Gradient of operators whose every input adds into the result
// unchanged (identity, add_n): each input gets the result's gradient.
var PassThrough = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	for i := range grads {
		grads[i] = c.OutGrad[0].ShareWithEntry()
	}
	return grads, nil
}}

// CastBack is the Gradient of dtype conversions (cast, and NDArray's astype and copyto):
// the gradient converted back to the input's dtype.
var CastBack = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	g := c.OutGrad[0]
	if g.DType() == c.DTypes[0] {
		return []*ndarray.NDArray{g.ShareWithEntry()}, nil
	}
	r, err := c.Call("Cast", "dtype="+c.DTypes[0].String(), g)
	return []*ndarray.NDArray{r}, err
}}

// SumBack is the Gradient of operators that broadcast their first input (broadcast_to,
// broadcast_axis, broadcast_like): the gradient summed back to its shape (SumTo); other
// inputs, read only for their shapes, get none.
var SumBack = &Gradient{Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
	g, err := c.SumTo(c.OutGrad[0], c.Shapes[0])
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	grads[0] = g
	return grads, err
}}
