package ops

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Category groups operators by how their output relates to their inputs.
type Category string

// Operator categories.
const (
	Elementwise Category = "elementwise" // output has the input's shape
	Broadcast   Category = "broadcast"   // inputs broadcast to a common shape (NumPy rules)
	Reduction   Category = "reduction"   // reduces over axes
	General     Category = "general"     // anything else (dot, concat, transpose, ...)
)

// Op describes an operator: the one kernel signature every operator shares, plus what
// front ends need to expose it (MXNet generated its Python API from the same kind of
// registry).
type Op struct {
	Name     string
	Doc      string // first line is a summary
	Category Category
	// Inputs names the array arguments; a single name starting with '*' takes any
	// number (at least one) of arrays. Names ending in '?' are optional and come last
	// (MXNet's bias of FullyConnected: "bias?"); a caller may leave them out. Operators
	// without inputs (random sampling) allocate their result on the host.
	Inputs []string
	Params []Param
	// DTypes lists the input dtypes the kernel supports (nil: all).
	DTypes []ndarray.DType
	// InPlace: the kernel is correct when out is exactly one of the inputs (same
	// layout). Other overlaps are always handled by copying the input first.
	InPlace bool
	// ScalarOp names the operator that takes the second input as a Python number.
	ScalarOp string
	// Infer checks inputs and attributes and returns the output's shape and dtype; it
	// runs when the operator is called, so bad arguments raise at once.
	Infer func(in []*ndarray.NDArray, at Attrs) ([]int, ndarray.DType, error)
	// InferOuts replaces Infer on an operator of several results (topk with
	// ret_typ='both', moments, slogdet, a gradient per input): it gives each result's
	// shape and dtype, and how many there are may depend on the attributes. Its Kernel
	// writes every out from one pass; callers use InvokeAll.
	InferOuts func(in []*ndarray.NDArray, at Attrs) ([]Result, error)
	// Prepare, when set, runs at call time after Infer and may add attributes the kernel
	// needs fixed at call time (random operators draw their seed here, so results
	// follow the order of calls, not the order the engine runs them in).
	Prepare func(at Attrs)
	// Kernel computes out[0] (every out, with InferOuts) from in; it runs on the engine.
	Kernel func(in, out []*ndarray.NDArray, at Attrs) error
	// Grad makes the operator differentiable (grad.go); nil: backward through it fails
	// as MXNet's does for operators without FGradient.
	Grad *Gradient
	// Mutates gives the inputs (their indices, for a call of n arrays) that the kernel also
	// writes in place, as MXNet's FMutateInputs: an optimizer's momentum and moments. They
	// must be writable and overlap no other array of the call; the engine orders the call
	// as a writer of each. nil: none.
	Mutates func(n int) []int
	// TrainAware: the kernel behaves differently in training (Dropout, BatchNorm); the
	// caller's training flag reaches it as the attribute TrainingAttr (see Training).
	TrainAware bool
}

var registry = struct {
	sync.RWMutex
	ops map[string]*Op
}{ops: map[string]*Op{}}

// Register adds op to the registry; it panics on a duplicate name (a programming error
// caught by any test).
func Register(op *Op) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.ops[op.Name]; dup {
		panic("ops: duplicate operator " + op.Name)
	}
	registry.ops[op.Name] = op
}

// Lookup returns the operator called name.
func Lookup(name string) (*Op, error) {
	registry.RLock()
	op, ok := registry.ops[name]
	registry.RUnlock()
	if !ok {
		return nil, mxerr.ValueErr("unknown operator %q", name)
	}
	return op, nil
}

// Ops returns every registered operator, sorted by name.
func Ops() []*Op {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]*Op, 0, len(registry.ops))
	for _, op := range registry.ops {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Variadic reports whether op takes any number of arrays.
func (op *Op) Variadic() bool { return len(op.Inputs) == 1 && op.Inputs[0][0] == '*' }

// Invoke checks the call, allocates out when it is nil, and pushes the kernel to the
// engine. It returns the output array (out itself when given, with a new reference the
// caller must release either way). An operator of several results (InferOuts) goes
// through InvokeAll; here it must give exactly one. The caller's P is kept scheduling
// (ndarray.KeepScheduling): Python's thread reaches Go here.
func (op *Op) Invoke(in []*ndarray.NDArray, out *ndarray.NDArray, at Attrs) (*ndarray.NDArray, error) {
	ndarray.KeepScheduling()
	if op.InferOuts != nil {
		return op.invokeOne(in, out, at)
	}
	if err := op.checkCall(in, out); err != nil {
		return nil, err
	}
	if err := op.checkMutates(in, []*ndarray.NDArray{out}); err != nil {
		return nil, err
	}
	shape, dt, err := op.Infer(in, at)
	if err != nil {
		return nil, err
	}
	fresh := out == nil // a new result cannot overlap an input: nothing to separate
	if out, err = op.result(in, out, shape, dt); err != nil {
		return nil, err
	}
	if op.Prepare != nil {
		op.Prepare(at)
	}
	op.push(in, []*ndarray.NDArray{out}, func(ins, outs []*ndarray.NDArray) error {
		if fresh {
			return op.Kernel(ins, outs, at)
		}
		ins, release, err := separate(ins, outs[0], op.InPlace)
		if err != nil {
			return err
		}
		defer release()
		return op.Kernel(ins, outs, at)
	})
	return out, nil
}

// checkMutates checks the inputs op writes in place (Op.Mutates): each must be writable
// and overlap no other array of the call, since a copy made to separate them would take
// the writes. outs may hold nil (a result still to be made).
func (op *Op) checkMutates(in, outs []*ndarray.NDArray) error {
	if op.Mutates == nil {
		return nil
	}
	for _, i := range op.Mutates(len(in)) {
		m := in[i]
		if err := m.CheckWritable(); err != nil {
			return err
		}
		for j, a := range append(slices.Clip(in), outs...) {
			if j != i && a != nil && ndarray.Overlaps(m, a) {
				return mxerr.ValueErr("%s: %s, which it updates in place, overlaps another of its arrays", op.Name, op.inputName(i))
			}
		}
	}
	return nil
}

// inputName is the name of input i (a variadic operator's: its name and index).
func (op *Op) inputName(i int) string {
	if op.Variadic() {
		return fmt.Sprintf("%s[%d]", op.Inputs[0][1:], i)
	}
	return strings.TrimSuffix(op.Inputs[i], "?")
}

// push pushes kernel with the inputs op updates in place (Op.Mutates) among the engine
// writes; kernel gets outs alone, and reads and writes those inputs through ins.
func (op *Op) push(in, outs []*ndarray.NDArray, kernel func(ins, outs []*ndarray.NDArray) error) {
	if op.Mutates == nil {
		push(in, outs, kernel)
		return
	}
	writes := slices.Clone(outs)
	for _, i := range op.Mutates(len(in)) {
		writes = append(writes, in[i])
	}
	n := len(outs)
	push(in, writes, func(ins, ws []*ndarray.NDArray) error { return kernel(ins, ws[:n]) })
}

// checkCall checks what Invoke can check before inferring: the arity, the dtypes, and
// that every array is in host memory.
func (op *Op) checkCall(in []*ndarray.NDArray, out *ndarray.NDArray) error {
	if err := op.checkArity(len(in)); err != nil {
		return err
	}
	if err := op.checkDTypes(in); err != nil {
		return err
	}
	if a := offHost(in); a != nil {
		return noKernel("operator "+op.Name, a)
	}
	if out != nil && !out.Storage().OnHost() {
		return noKernel("operator "+op.Name, out)
	}
	return nil
}

// result returns a new array for a result of shape and dtype dt (on the device of the
// first input), or out checked against them, with a reference of its own.
func (op *Op) result(in []*ndarray.NDArray, out *ndarray.NDArray, shape []int, dt ndarray.DType) (*ndarray.NDArray, error) {
	if out == nil {
		dev := device.Host
		if len(in) > 0 {
			dev = in[0].Device()
		}
		return ndarray.Empty(dt, shape, dev)
	}
	if out.DType() != dt {
		return nil, mxerr.TypeErr("%s: out has dtype %s, the result is %s", op.Name, out.DType(), dt)
	}
	if err := ndarray.SameShape(out.Shape(), shape); err != nil {
		return nil, mxerr.ValueErr("%s: out has shape %v, the result has shape %v", op.Name, out.Shape(), shape)
	}
	if err := out.CheckWritable(); err != nil {
		return nil, err
	}
	return out.Share(), nil
}

func (op *Op) checkArity(n int) error {
	if op.Variadic() {
		if n == 0 {
			return mxerr.TypeErr("%s needs at least one array", op.Name)
		}
		return nil
	}
	if required := op.RequiredInputs(); n < required || n > len(op.Inputs) {
		want := fmt.Sprint(required)
		if required < len(op.Inputs) {
			want = fmt.Sprintf("%d to %d", required, len(op.Inputs))
		}
		return mxerr.TypeErr("%s takes %s array argument(s) (%v), got %d", op.Name, want, op.Inputs, n)
	}
	return nil
}

// RequiredInputs is the number of inputs a call must give: those not marked optional.
func (op *Op) RequiredInputs() int {
	n := 0
	for _, name := range op.Inputs {
		if !strings.HasSuffix(name, "?") {
			n++
		}
	}
	return n
}

func (op *Op) checkDTypes(in []*ndarray.NDArray) error {
	if op.DTypes == nil {
		return nil
	}
	for _, a := range in {
		if !slices.Contains(op.DTypes, a.DType()) {
			return mxerr.TypeErr("%s does not support dtype %s (supported: %v)", op.Name, a.DType(), op.DTypes)
		}
	}
	return nil
}

// separate copies any input that overlaps out, unless it is exactly out and the kernel
// may run in place, so a kernel never reads what it has already overwritten.
func separate(in []*ndarray.NDArray, out *ndarray.NDArray, inPlace bool) ([]*ndarray.NDArray, func(), error) {
	var tmps []*ndarray.NDArray
	res := in
	for i, a := range in {
		if (inPlace && sameLayout(out, a)) || !ndarray.Overlaps(out, a) {
			continue
		}
		t, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
		if err == nil {
			err = ndarray.CopyInto(t, a)
		}
		if err != nil {
			if t != nil {
				t.Release()
			}
			ReleaseAll(tmps)
			return nil, nil, err
		}
		if &res[0] == &in[0] {
			res = append([]*ndarray.NDArray(nil), in...)
		}
		res[i] = t
		tmps = append(tmps, t)
	}
	if len(tmps) == 0 {
		return res, func() {}, nil // nothing to allocate in the common case
	}
	made := tmps // captured by value: tmps itself then stays off the heap
	return res, func() { ReleaseAll(made) }, nil
}

// sameLayout reports whether x and y are the same elements in the same order.
func sameLayout(x, y *ndarray.NDArray) bool {
	if x.Storage() != y.Storage() || x.Offset() != y.Offset() || x.NDim() != y.NDim() {
		return false
	}
	for i, s := range x.Strides() {
		if x.Shape()[i] != y.Shape()[i] || (y.Strides()[i] != s && x.Shape()[i] > 1) {
			return false
		}
	}
	return true
}

// String is the operator's Python-style signature, for error messages and docs.
func (op *Op) String() string {
	return fmt.Sprintf("%s(%v, %v)", op.Name, op.Inputs, op.Params)
}

// WithOpName puts an operator's name in front of an error's message, keeping its kind.
func WithOpName(name string, err error) error {
	return mxerr.New(mxerr.KindOf(err), "%s: %s", name, err.Error())
}

// RegisterAs registers op under each name (MXNet's aliases: flatten and Flatten, ...).
func RegisterAs(op *Op, names ...string) {
	for _, n := range names {
		o := *op
		o.Name = n
		Register(&o)
	}
}
