package autograd

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// errNotInGraph is the error of differentiating an array that no recorded graph holds
// (never recorded, or its graph released by an earlier backward): MXNet's words.
func errNotInGraph() error {
	return mxerr.New(mxerr.MXNet, "Cannot differentiate node because it is not in a computational graph. You need to set "+
		"is_recording to true or use autograd.record() to save computational graphs for backward. If you want to "+
		"differentiate the same graph twice, you need to pass retain_graph=True to backward.")
}

// Backward computes the gradients of heads (headGrads[i] is head i's gradient, nil for
// ones; headGrads may be nil) and stores each variable's by its grad_req. The gradient's
// operations are pushed to the engine; errors in them surface at the next wait, as any
// operation's do. Unless retain, the walked graph is released.
func Backward(heads, headGrads []*ndarray.NDArray, retain, train bool) error {
	w, err := walk(heads, headGrads, nil, Mode{Training: train}, true)
	if err != nil {
		return err
	}
	defer w.drop()
	for _, n := range w.order {
		if n.v != nil && n.v.req != ReqNull {
			if err := n.v.store(w.grads[key{n, 0}]); err != nil {
				return err
			}
		}
	}
	w.finish(retain)
	return nil
}

// Grad returns the gradients of heads with respect to vars (any arrays that take part
// in the graph), as new arrays, leaving gradient buffers alone (autograd.grad). With
// create, the gradient's operations are recorded, so that it can be differentiated in
// turn (higher order).
func Grad(heads, vars, headGrads []*ndarray.NDArray, retain, create, train bool) ([]*ndarray.NDArray, error) {
	want := make([]key, len(vars))
	for i, v := range vars {
		e := entryOf(v)
		if e == nil {
			return nil, mxerr.New(mxerr.MXNet, "autograd.grad: variable %d is not in a computational graph (attach_grad or mark_variables first)", i)
		}
		want[i] = key{e.n, e.index}
	}
	w, err := walk(heads, headGrads, want, Mode{Recording: create, Training: train}, false)
	if err != nil {
		return nil, err
	}
	defer w.drop()
	out := make([]*ndarray.NDArray, len(vars))
	for i, k := range want {
		g := w.grads[k]
		if g == nil {
			if !slices.Contains(w.order, k.n) {
				ops.ReleaseAll(out[:i])
				return nil, mxerr.New(mxerr.MXNet, "autograd.grad: variable %d did not take part in computing the heads", i)
			}
			r := k.n.outs[k.i] // reached, but every path to it has a zero gradient
			if g, err = filled(r.shape, r.dtype, vars[i].Device(), 0); err != nil {
				ops.ReleaseAll(out[:i])
				return nil, err
			}
			out[i] = g
			continue
		}
		out[i] = g.ShareWithEntry()
	}
	if create { // MXNet's gradient graph holds even a gradient that no variable reaches
		for _, g := range out {
			if entryOf(g) == nil {
				constant(g)
			}
		}
	}
	w.finish(retain)
	return out, nil
}

// constant makes a a leaf of a recorded graph that is not a variable: backward from a
// head computed from it reaches it and stops there.
func constant(a *ndarray.NDArray) {
	n := &node{name: "constant", grad: ops.ZeroGrad, kept: keptNothing, seq: seq.Add(1)}
	n.outs = n.result[:]
	n.outs[0] = result{shape: a.Shape(), dtype: a.DType(), storage: a.Storage()}
	a.Storage().UseInGraph(1)
	n.first.n = n
	a.SetGradEntry(&n.first)
}

// key names one result of a node.
type key struct {
	n *node
	i int
}

// walked is a finished reverse walk: the nodes reached, in reverse order of recording,
// the gradient summed at each result that got one, and the variables whose gradient is
// written straight into their buffer (direct).
type walked struct {
	order  []*node
	grads  map[key]*ndarray.NDArray
	direct map[*node]bool
}

// drop releases the gradients the walk holds.
func (w *walked) drop() {
	for _, g := range w.grads {
		g.Release()
	}
}

// finish releases the walked graph unless retain.
func (w *walked) finish(retain bool) {
	if !retain {
		for _, n := range w.order {
			n.free()
		}
	}
}

// walk differentiates the graph behind heads; results named in keep keep their
// gradients (Grad's variables), every other operation's are released once used. With
// store (Backward), a gradient that is a variable's buffer's whole new value is written
// into the buffer where it can be (direct).
func walk(heads, headGrads []*ndarray.NDArray, keep []key, m Mode, store bool) (*walked, error) {
	if headGrads != nil && len(headGrads) != len(heads) {
		return nil, mxerr.ValueErr("backward: %d heads and %d head gradients", len(heads), len(headGrads))
	}
	w := &walked{grads: map[key]*ndarray.NDArray{}}
	seen := map[*node]bool{}
	var stack []*node
	for i, h := range heads {
		e := entryOf(h)
		if e == nil {
			w.drop()
			return nil, errNotInGraph()
		}
		g, err := headGrad(h, headGrads, i)
		if err == nil {
			err = w.add(key{e.n, e.index}, g, m)
		}
		if err != nil {
			w.drop()
			return nil, err
		}
		if !seen[e.n] {
			seen[e.n] = true
			stack = append(stack, e.n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		w.order = append(w.order, n)
		for _, in := range n.inputs {
			if in != nil && !seen[in.n] && (in.n.v != nil || in.n.kept != nil) {
				seen[in.n] = true
				stack = append(stack, in.n)
			}
		}
	}
	slices.SortFunc(w.order, func(a, b *node) int { return int(b.seq - a.seq) })
	if store && !m.Recording {
		w.direct = directVariables(heads, headGrads, w.order)
	}
	for _, n := range w.order {
		if n.v != nil {
			continue
		}
		if err := w.step(n, keep, m); err != nil {
			w.drop()
			return nil, err
		}
	}
	return w, nil
}

// directVariables returns the variables of order whose gradient a step may write into
// their buffer: grad_req "write", one gradient flowing in (one use in the graph, not a
// head: nothing to sum), and a buffer whose memory no step reads (no array a node keeps
// for its gradient, no head gradient, no recorded result) and so may change mid-walk.
func directVariables(heads, headGrads []*ndarray.NDArray, order []*node) map[*node]bool {
	uses := map[*node]int{}
	read := map[*ndarray.Storage]bool{}
	for i, h := range heads {
		if e := entryOf(h); e != nil {
			uses[e.n] += 2 // a head's own gradient is given: never written into
		}
		if headGrads != nil && headGrads[i] != nil {
			read[headGrads[i].Storage()] = true
		}
	}
	for _, n := range order {
		for _, e := range n.inputs {
			if e != nil && e.n.v != nil {
				uses[e.n]++
			}
		}
		if k := n.kept; k != nil {
			for _, a := range k.in {
				read[a.Storage()] = true
			}
			for _, a := range k.out {
				read[a.Storage()] = true
			}
		}
	}
	direct := map[*node]bool{}
	for n, u := range uses {
		if v := n.v; u == 1 && v != nil && v.req == ReqWrite && v.grad != nil && !read[v.grad.Storage()] &&
			!v.grad.Storage().InGraph() {
			direct[n] = true
		}
	}
	return direct
}

// headGrad returns head i's gradient: the one given, checked, or ones.
func headGrad(h *ndarray.NDArray, headGrads []*ndarray.NDArray, i int) (*ndarray.NDArray, error) {
	if headGrads == nil || headGrads[i] == nil {
		return filled(h.Shape(), h.DType(), h.Device(), 1)
	}
	g := headGrads[i]
	if ndarray.SameShape(g.Shape(), h.Shape()) != nil {
		return nil, mxerr.ValueErr("backward: head gradient %d has shape %v, its head %v", i, g.Shape(), h.Shape())
	}
	if g.DType() != h.DType() {
		return nil, mxerr.TypeErr("backward: head gradient %d has dtype %s, its head %s", i, g.DType(), h.DType())
	}
	return g.Share(), nil
}

// step runs node n's gradient and adds what it gives to its inputs' results.
func (w *walked) step(n *node, keep []key, m Mode) error {
	outGrads := make([]*ndarray.NDArray, len(n.outs))
	flows := false
	for i := range n.outs {
		outGrads[i] = w.grads[key{n, i}]
		flows = flows || outGrads[i] != nil
	}
	if !flows {
		return nil // nothing flows through n (a path whose gradient is zero)
	}
	if n.grad == nil {
		return ops.ErrNotDifferentiable(n.name)
	}
	var made []*ndarray.NDArray // what this step allocated, released at its end
	defer func() { ops.ReleaseAll(made) }()
	for i, r := range n.outs {
		if outGrads[i] == nil {
			z, err := filled(r.shape, r.dtype, r.storage.Device(), 0)
			if err != nil {
				return err
			}
			made = append(made, z)
			outGrads[i] = z
		}
	}
	c := &ops.GradCtx{Op: n.op, Attrs: n.attrs, Shapes: n.shapes, DTypes: n.dtypes, OutGrad: outGrads,
		Need: make([]bool, len(n.shapes)), Run: runner(m)}
	for i, e := range n.inputs {
		c.Need[i] = e != nil
		if e != nil && w.direct[e.n] {
			if c.Into == nil {
				c.Into = make([]*ndarray.NDArray, len(n.inputs))
				c.RunInto = func(op *ops.Op, in []*ndarray.NDArray, out *ndarray.NDArray, at ops.Attrs) (*ndarray.NDArray, error) {
					return Invoke(op, in, out, at, m)
				}
			}
			c.Into[i] = e.n.v.grad
		}
	}
	if k := n.kept; k != nil {
		c.In, c.Out = k.in, k.out
		if m.Recording { // the gradient is recorded: its operands link back to the graph
			c.In, c.Out = n.linked(k.in, true), n.linked(k.out, false)
			made = append(made, c.In...)
			made = append(made, c.Out...)
		}
	}
	grads, err := n.grad.Func(c)
	if err != nil {
		return err
	}
	for i, g := range grads {
		if g == nil {
			continue
		}
		if n.inputs[i] == nil {
			g.Release()
			continue
		}
		if err := w.add(key{n.inputs[i].n, n.inputs[i].index}, g, m); err != nil {
			ops.ReleaseAll(grads[i+1:])
			return err
		}
	}
	for i := range n.outs { // used up, unless Grad returns it
		k := key{n, i}
		if g := w.grads[k]; g != nil && !slices.Contains(keep, k) {
			g.Release()
			delete(w.grads, k)
		}
	}
	return nil
}

// linked returns new references to arrs carrying the entries they had when recorded:
// n's inputs' (in), or n's own results (out).
func (n *node) linked(arrs []*ndarray.NDArray, in bool) []*ndarray.NDArray {
	out := make([]*ndarray.NDArray, len(arrs))
	for i, a := range arrs {
		out[i] = a.Share()
		if in && n.inputs[i] != nil {
			out[i].SetGradEntry(n.inputs[i])
		} else if !in {
			out[i].SetGradEntry(&entry{n: n, index: i})
		}
	}
	return out
}

// add sums g (whose reference it takes) into the gradient of result k.
func (w *walked) add(k key, g *ndarray.NDArray, m Mode) error {
	old := w.grads[k]
	if old == nil {
		w.grads[k] = g
		return nil
	}
	op, err := ops.Lookup("add")
	if err != nil {
		return err
	}
	s, err := runner(m)(op, []*ndarray.NDArray{old, g}, nil)
	g.Release()
	if err != nil {
		return err
	}
	old.Release()
	w.grads[k] = s
	return nil
}

// runner runs the gradient's operations, recorded in Recording mode.
func runner(m Mode) func(op *ops.Op, in []*ndarray.NDArray, at ops.Attrs) (*ndarray.NDArray, error) {
	return func(op *ops.Op, in []*ndarray.NDArray, at ops.Attrs) (*ndarray.NDArray, error) {
		return Invoke(op, in, nil, at, m)
	}
}

// store applies a variable's gradient g (nil: none flowed, zero) to its buffer.
func (v *variable) store(g *ndarray.NDArray) error {
	v.fresh.Store(true)
	switch {
	case g == nil && v.req == ReqWrite:
		return ops.Fill(v.grad, ops.Scalar{})
	case g == nil:
		return nil
	case v.req == ReqWrite && g.Storage() == v.grad.Storage() && g.Offset() == v.grad.Offset():
		return nil // written into the buffer (walked.direct)
	case v.req == ReqWrite:
		return ops.Copy(v.grad, g)
	}
	return ops.InvokeInto("add", []*ndarray.NDArray{v.grad, g}, v.grad, nil)
}

// filled returns a new array of shape and dtype holding v everywhere.
func filled(shape []int, dt ndarray.DType, dev device.Device, v float64) (*ndarray.NDArray, error) {
	a, err := ndarray.Empty(dt, shape, dev)
	if err != nil {
		return nil, err
	}
	if err := ops.Fill(a, ops.Scalar{Value: complex(v, 0)}); err != nil {
		a.Release()
		return nil, err
	}
	return a, nil
}
