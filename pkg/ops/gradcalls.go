package ops

import "github.com/mxgo/mxgo/pkg/ndarray"

// GradCalls runs a sequence of operator calls for a gradient of several steps (BatchNorm's,
// softmax's, FullyConnected's): each call's result is kept until Done, the first error
// stops the sequence (later calls return nil and do nothing), and Done hands back the
// chosen results, releasing the intermediates. A Func then reads as its formula, without
// an error check and a release after every operation.
type GradCalls struct {
	C    *GradCtx
	err  error
	made []*ndarray.NDArray
}

// Call is GradCtx.Call within the sequence: nil once a call has failed.
func (s *GradCalls) Call(name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	return s.CallInto(-1, name, attrs, in...)
}

// CallInto is GradCtx.CallInto within the sequence.
func (s *GradCalls) CallInto(i int, name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	if s.err != nil {
		return nil
	}
	for _, a := range in {
		if a == nil { // an operand of a failed call (a bug of the caller otherwise)
			return nil
		}
	}
	r, err := s.C.CallInto(i, name, attrs, in...)
	if err != nil {
		s.err = err
		return nil
	}
	s.made = append(s.made, r)
	return r
}

// Reshape is a reshape within the sequence that returns a itself (no copy) when it has
// the shape already, as 2-D operands of FullyConnected and dot have.
func (s *GradCalls) Reshape(a *ndarray.NDArray, shape []int) *ndarray.NDArray {
	if a != nil && ndarray.SameShape(a.Shape(), shape) == nil {
		return a
	}
	return s.Call("reshape", "shape="+WireInts(shape), a)
}

// SumTo is GradCtx.SumTo within the sequence.
func (s *GradCalls) SumTo(g *ndarray.NDArray, shape []int) *ndarray.NDArray {
	if s.err != nil || g == nil {
		return nil
	}
	r, err := s.C.SumTo(g, shape)
	if err != nil {
		s.err = err
		return nil
	}
	s.made = append(s.made, r)
	return r
}

// Fail stops the sequence with err (when it has not failed already).
func (s *GradCalls) Fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Done returns the gradients grads (results of Call, context arrays such as an OutGrad,
// or nil), each with a reference of its own, and releases every other result; or the
// first error, releasing everything.
func (s *GradCalls) Done(grads ...*ndarray.NDArray) ([]*ndarray.NDArray, error) {
	if s.err != nil {
		ReleaseAll(s.made)
		return nil, s.err
	}
	out := make([]*ndarray.NDArray, len(grads))
	for i, g := range grads {
		if g != nil {
			out[i] = g.ShareWithEntry()
		}
	}
	ReleaseAll(s.made)
	return out, nil
}
