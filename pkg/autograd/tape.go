package autograd

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Mode is the caller's autograd state: MXNet's is_recording and is_training.
type Mode struct {
	Recording bool // record operations on arrays that take part in a gradient
	Training  bool // operators with a training behaviour (Dropout, BatchNorm) use it
}

// GradReq is what backward does with a variable's gradient (MXNet's grad_req).
type GradReq int

const (
	ReqNull  GradReq = iota // leave the gradient buffer alone
	ReqWrite                // overwrite it
	ReqAdd                  // add to it
)

// ParseGradReq reads MXNet's names of GradReq.
func ParseGradReq(s string) (GradReq, error) {
	switch s {
	case "null":
		return ReqNull, nil
	case "write", "inplace":
		return ReqWrite, nil
	case "add":
		return ReqAdd, nil
	}
	return 0, mxerr.ValueErr("grad_req must be 'write', 'add' or 'null', got %q", s)
}

// node is a recorded operation, or a variable (a leaf).
type node struct {
	name   string
	grad   *ops.Gradient // nil: not differentiable (op says why)
	op     *ops.Op       // nil for custom steps and variables
	attrs  ops.Attrs
	inputs []*entry // each input's entry; nil where the input takes no part
	shapes [][]int  // every input's shape and dtype
	dtypes []ndarray.DType
	outs   []result // every result's shape and dtype, and its storage
	kept   *kept    // the arrays the gradient reads; nil once released
	seq    uint64   // order of recording: inputs always have smaller ones
	v      *variable
	// one result's entry and record, and two inputs' entries, shapes and dtypes, in the
	// node's own allocation (most operators have one result and at most two inputs;
	// recording is on every operator call's path)
	first    entry
	result   [1]result
	inBuf    [2]*entry
	shapeBuf [2][]int
	dtypeBuf [2]ndarray.DType
}

// result is what a node remembers of each of its results.
type result struct {
	shape   []int
	dtype   ndarray.DType
	storage *ndarray.Storage // counted in its InGraph until the node is released
}

// kept holds the arrays a node's gradient reads, each with its own reference (no
// entries: the entries are the node's inputs and the node itself, which backward puts
// back when it differentiates the gradient). A node that is never released (its graph
// dropped without backward) lets them go when it is collected.
type kept struct {
	in, out []*ndarray.NDArray
	onFree  func() // what a custom step holds outside Go (a Python Function), let go
	once    sync.Once
}

// keptNothing is the kept of every live node whose gradient reads no arrays and that
// holds nothing outside Go: its release has nothing to do, so one value serves them all.
var keptNothing = &kept{}

// variable is a leaf's gradient buffer and request.
type variable struct {
	grad  *ndarray.NDArray // nil with ReqNull and no buffer
	req   GradReq
	fresh atomic.Bool // a backward stored a gradient since the Trainer last updated (MXNet's _fresh_grad)
}

// entry names one result of a node; arrays carry it (ndarray's GradEntry).
type entry struct {
	n     *node
	index int
}

var seq atomic.Uint64

// entryOf returns the live entry a carries: nil when a takes no part in any graph (or
// its graph was released).
func entryOf(a *ndarray.NDArray) *entry {
	e, _ := a.GradEntry().(*entry)
	if e == nil || (e.n.v == nil && e.n.kept == nil) {
		return nil
	}
	return e
}

// Takes reports whether a takes part in a recorded graph (a variable, or the result of a
// recorded operation not yet released).
func Takes(a *ndarray.NDArray) bool { return entryOf(a) != nil }

// errInGraph is the error of a write, while recording, into memory that a recorded
// graph uses: MXNet refuses it, since the gradient would read the new values.
func errInGraph() error {
	return mxerr.New(mxerr.MXNet, "Assigning to NDArrays that are already in a computational graph will cause undefined "+
		"behavior when evaluating gradients. Please call backward first to clear the graph or do this out side of a record section.")
}

// CheckWrite refuses, while recording, a write into a's memory when a recorded graph
// uses it (through a or any view of its storage).
func CheckWrite(a *ndarray.NDArray, m Mode) error {
	if m.Recording && (entryOf(a) != nil || a.Storage().InGraph()) {
		return errInGraph()
	}
	return nil
}

// Invoke is op.Invoke, recorded when m says so and an input takes part in a graph. An
// out that a graph uses is refused while recording. A TrainAware operator gets m's
// training flag (ops.WithTraining), recording or not, as MXNet's is_train.
func Invoke(op *ops.Op, in []*ndarray.NDArray, out *ndarray.NDArray, at ops.Attrs, m Mode) (*ndarray.NDArray, error) {
	at = ops.WithTraining(op, at, m.Training)
	if !m.Recording {
		return op.Invoke(in, out, at)
	}
	if out != nil {
		if err := CheckWrite(out, m); err != nil {
			return nil, err
		}
	}
	r, err := op.Invoke(in, out, at)
	if err != nil {
		return nil, err
	}
	target := r
	if out != nil {
		target = out // the array the caller holds; r is a new reference it releases
	}
	record(op.Name, op, op.Grad, at, in, []*ndarray.NDArray{target}, nil)
	return r, nil
}

// InvokeAll is op.InvokeAll, recorded as Invoke is.
func InvokeAll(op *ops.Op, in, outs []*ndarray.NDArray, at ops.Attrs, m Mode) ([]*ndarray.NDArray, error) {
	at = ops.WithTraining(op, at, m.Training)
	if !m.Recording {
		return op.InvokeAll(in, outs, at)
	}
	for _, o := range outs {
		if err := CheckWrite(o, m); err != nil {
			return nil, err
		}
	}
	res, err := op.InvokeAll(in, outs, at)
	if err != nil {
		return nil, err
	}
	targets := res
	if len(outs) > 0 {
		targets = outs
	}
	record(op.Name, op, op.Grad, at, in, targets, nil)
	return res, nil
}

// record adds a node for a call whose results are outs, when an input takes part, and
// reports whether it did. onFree (may be nil) runs once when the node is released.
func record(name string, op *ops.Op, g *ops.Gradient, at ops.Attrs, in, outs []*ndarray.NDArray, onFree func()) bool {
	if !slices.ContainsFunc(in, Takes) {
		return false // nothing to differentiate: MXNet records only what needs a gradient
	}
	n := &node{name: name, grad: g, op: op, attrs: at, seq: seq.Add(1)}
	if len(in) <= len(n.inBuf) {
		n.inputs, n.shapes, n.dtypes = n.inBuf[:len(in)], n.shapeBuf[:len(in)], n.dtypeBuf[:len(in)]
	} else {
		n.inputs, n.shapes, n.dtypes = make([]*entry, len(in)), make([][]int, len(in)), make([]ndarray.DType, len(in))
	}
	for i, a := range in {
		n.inputs[i] = entryOf(a)                        // nil where a takes no part
		n.shapes[i], n.dtypes[i] = a.Shape(), a.DType() // shapes are never changed: shared, not copied
	}
	n.outs = n.result[:]
	if len(outs) != 1 {
		n.outs = make([]result, len(outs))
	}
	keepsIn := g != nil && g.Uses&ops.UsesInputs != 0
	keepsOut := g != nil && g.Uses&ops.UsesOutputs != 0
	n.kept = keptNothing
	if keepsIn || keepsOut || onFree != nil {
		k := &kept{onFree: onFree}
		if keepsIn {
			k.in = ops.ShareAll(in)
		}
		if keepsOut {
			k.out = ops.ShareAll(outs)
		}
		n.kept = k
		runtime.AddCleanup(n, (*kept).releaseOnce, k)
	}
	for i, o := range outs {
		n.outs[i] = result{shape: o.Shape(), dtype: o.DType(), storage: o.Storage()}
		o.Storage().UseInGraph(1)
		e := &n.first
		if i > 0 {
			e = &entry{index: i}
		}
		e.n = n
		o.SetGradEntry(e)
	}
	return true
}

// releaseOnce releases k's arrays the first time it is called (backward, or the node's
// collection, whichever comes first).
func (k *kept) releaseOnce() {
	k.once.Do(func() {
		ops.ReleaseAll(k.in)
		ops.ReleaseAll(k.out)
		if k.onFree != nil {
			k.onFree()
		}
		k.in, k.out, k.onFree = nil, nil, nil
	})
}

// free releases what n keeps and uncounts its results; its entries are dead from here on.
func (n *node) free() {
	if n.kept == nil || n.v != nil {
		return
	}
	k := n.kept
	n.kept = nil
	for _, r := range n.outs {
		r.storage.UseInGraph(-1)
	}
	k.releaseOnce()
}

// MarkVariables makes each vars[i] a variable whose gradient backward handles by
// reqs[i] into grads[i] (which may be nil only with ReqNull), as attach_grad and
// mark_variables do. A variable marked again starts a new leaf.
func MarkVariables(vars, grads []*ndarray.NDArray, reqs []GradReq) error {
	if len(grads) != len(vars) || len(reqs) != len(vars) {
		return mxerr.ValueErr("mark_variables: %d variables, %d gradients and %d grad_reqs", len(vars), len(grads), len(reqs))
	}
	for i, v := range vars {
		g := grads[i]
		if g == nil && reqs[i] != ReqNull {
			return mxerr.ValueErr("mark_variables: variable %d has no gradient array", i)
		}
		if g != nil && (ndarray.SameShape(g.Shape(), v.Shape()) != nil || g.DType() != v.DType()) {
			return mxerr.ValueErr("mark_variables: gradient %d has shape %v and dtype %s, its variable %v and %s",
				i, g.Shape(), g.DType(), v.Shape(), v.DType())
		}
	}
	for i, v := range vars {
		var g *ndarray.NDArray
		if grads[i] != nil {
			g = grads[i].Share()
		}
		n := &node{name: "variable", seq: seq.Add(1), v: &variable{grad: g, req: reqs[i]},
			outs: []result{{shape: v.Shape(), dtype: v.DType(), storage: v.Storage()}}}
		if g != nil {
			runtime.AddCleanup(n, (*ndarray.NDArray).Release, g)
		}
		if old := entryOf(v); old == nil || old.n.v == nil {
			v.Storage().UseInGraph(1) // a variable's memory stays in the graph while it lives
		}
		v.SetGradEntry(&entry{n: n})
	}
	return nil
}

// GradOf returns a new reference to a variable's gradient buffer, or nil when a is not a
// variable or has none (grad_req 'null').
func GradOf(a *ndarray.NDArray) *ndarray.NDArray {
	e := entryOf(a)
	if e == nil || e.n.v == nil || e.n.v.grad == nil {
		return nil
	}
	return e.n.v.grad.Share()
}

// FreshGrad reports whether a backward stored variable a's gradient since SetFreshGrad
// last cleared it (false for arrays that are not variables): what Gluon's Trainer checks
// to find Parameters a step did not reach.
func FreshGrad(a *ndarray.NDArray) bool {
	e := entryOf(a)
	return e != nil && e.n.v != nil && e.n.v.fresh.Load()
}

// SetFreshGrad sets variable a's fresh flag; it reports whether a is a variable.
func SetFreshGrad(a *ndarray.NDArray, fresh bool) bool {
	e := entryOf(a)
	if e == nil || e.n.v == nil {
		return false
	}
	e.n.v.fresh.Store(fresh)
	return true
}

// GradReqOf returns a variable's grad_req, and whether a is a variable.
func GradReqOf(a *ndarray.NDArray) (GradReq, bool) {
	if e := entryOf(a); e != nil && e.n.v != nil {
		return e.n.v.req, true
	}
	return ReqNull, false
}

// Detach returns a new array over a's memory that takes part in no graph (NDArray.detach).
func Detach(a *ndarray.NDArray) *ndarray.NDArray { return a.Share() }
