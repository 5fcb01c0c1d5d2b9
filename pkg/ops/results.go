package ops

import (
	"errors"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Operators of several results (Op.InferOuts): one kernel writes every result, as
// topk(ret_typ='both'), moments and slogdet do, and gradients (one per input) will.

// Result is the shape and dtype of one of an operator's results (InferOuts).
type Result struct {
	Shape []int
	DType ndarray.DType
}

// InvokeAll is Invoke for any operator, returning every result: into outs when given
// (one array per result), else into new arrays. The caller releases each result.
func (op *Op) InvokeAll(in, outs []*ndarray.NDArray, at Attrs) ([]*ndarray.NDArray, error) {
	if op.InferOuts == nil {
		if len(outs) > 1 {
			return nil, mxerr.TypeErr("%s returns one array, out has %d", op.Name, len(outs))
		}
		var out *ndarray.NDArray
		if len(outs) == 1 {
			out = outs[0]
		}
		r, err := op.Invoke(in, out, at)
		if err != nil {
			return nil, err
		}
		return []*ndarray.NDArray{r}, nil
	}
	ndarray.KeepScheduling()
	want, err := op.inferAll(in, outs, at)
	if err != nil {
		return nil, err
	}
	return op.invokeAll(in, outs, at, want)
}

// ErrSeveralResults is in the chain of Invoke's error for a call that would give more
// than one result: front ends take such a call through InvokeAll instead.
var ErrSeveralResults = errors.New("ops: several results")

// severalResults is a TypeError that errors.Is finds ErrSeveralResults in.
type severalResults struct{ err error }

func (e severalResults) Error() string   { return e.err.Error() }
func (e severalResults) Unwrap() []error { return []error{e.err, ErrSeveralResults} }

// invokeOne is Invoke for an operator of several results, which must give one here
// (topk with a ret_typ other than 'both'); the count is checked before anything runs.
func (op *Op) invokeOne(in []*ndarray.NDArray, out *ndarray.NDArray, at Attrs) (*ndarray.NDArray, error) {
	var outs []*ndarray.NDArray
	if out != nil {
		outs = []*ndarray.NDArray{out}
	}
	want, err := op.inferAll(in, outs, at)
	if err != nil {
		return nil, err
	}
	if len(want) != 1 {
		return nil, severalResults{mxerr.TypeErr("%s returns %d arrays with these arguments, where one is expected", op.Name, len(want))}
	}
	res, err := op.invokeAll(in, outs, at, want)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// inferAll checks a call of an operator of several results and infers them.
func (op *Op) inferAll(in, outs []*ndarray.NDArray, at Attrs) ([]Result, error) {
	if err := op.checkCall(in, nil); err != nil {
		return nil, err
	}
	for _, o := range outs {
		if !o.Storage().OnHost() {
			return nil, noKernel("operator "+op.Name, o)
		}
	}
	return op.InferOuts(in, at)
}

// invokeAll runs an operator of several results whose results want describes.
func (op *Op) invokeAll(in, outs []*ndarray.NDArray, at Attrs, want []Result) ([]*ndarray.NDArray, error) {
	var err error
	fresh := len(outs) == 0
	if !fresh && len(outs) != len(want) {
		return nil, mxerr.TypeErr("%s returns %d arrays, out has %d", op.Name, len(want), len(outs))
	}
	for i := range outs {
		for _, o := range outs[:i] {
			if ndarray.Overlaps(o, outs[i]) {
				return nil, mxerr.ValueErr("%s: the out arrays overlap", op.Name)
			}
		}
	}
	if err = op.checkMutates(in, outs); err != nil {
		return nil, err
	}
	res := make([]*ndarray.NDArray, len(want))
	for i, w := range want {
		var o *ndarray.NDArray
		if !fresh {
			o = outs[i]
		}
		if res[i], err = op.result(in, o, w.Shape, w.DType); err != nil {
			ReleaseAll(res[:i])
			return nil, err
		}
	}
	if op.Prepare != nil {
		op.Prepare(at)
	}
	op.push(in, res, func(ins, outs []*ndarray.NDArray) error {
		if !fresh { // an input overlapping any out is read from a copy
			for _, o := range outs {
				sep, release, err := separate(ins, o, op.InPlace)
				if err != nil {
					return err
				}
				defer release()
				ins = sep
			}
		}
		return op.Kernel(ins, outs, at)
	})
	return res, nil
}
