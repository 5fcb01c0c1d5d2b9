package ops

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Shared pieces for operator definitions.

// InferSame: the output has the (single) input's shape and dtype.
func InferSame(in []*ndarray.NDArray, _ Attrs) ([]int, ndarray.DType, error) {
	return in[0].Shape(), in[0].DType(), nil
}

// InferBroadcastSameDType: inputs share a dtype (as MXNet requires) and broadcast.
func InferBroadcastSameDType(in []*ndarray.NDArray, _ Attrs) ([]int, ndarray.DType, error) {
	if err := SameDType(in); err != nil {
		return nil, 0, err
	}
	shape, err := BroadcastShape(in)
	return shape, in[0].DType(), err
}

func SameDType(in []*ndarray.NDArray) error {
	for _, a := range in[1:] {
		if a.DType() != in[0].DType() {
			return mxerr.TypeErr("dtype mismatch: %s and %s (cast one with astype)", in[0].DType(), a.DType())
		}
	}
	return nil
}

// BroadcastShape returns the shape of in broadcast together: in[0]'s own slice when all
// have the same shape (callers must not modify it).
func BroadcastShape(in []*ndarray.NDArray) ([]int, error) {
	if SameShapes(in[1:], in[0].Shape()) {
		return in[0].Shape(), nil
	}
	shapes := make([][]int, len(in))
	for i, a := range in {
		shapes[i] = a.Shape()
	}
	return ndarray.BroadcastShapes(shapes...)
}

// BroadcastKernel runs kernel on read-only views of in broadcast to out's shape.
func BroadcastKernel(in []*ndarray.NDArray, out *ndarray.NDArray, kernel func(in []*ndarray.NDArray) error) error {
	if SameShapes(in, out.Shape()) { // the common case needs no views (nor their allocations)
		return kernel(in)
	}
	views := make([]*ndarray.NDArray, len(in))
	for i, a := range in {
		v, err := a.BroadcastTo(out.Shape())
		if err != nil {
			ReleaseAll(views[:i])
			return err
		}
		views[i] = v
	}
	defer ReleaseAll(views)
	return kernel(views)
}

func SameShapes(in []*ndarray.NDArray, shape []int) bool {
	for _, a := range in {
		if !slices.Equal(a.Shape(), shape) {
			return false
		}
	}
	return true
}

// DTypesExcept lists every dtype but the ones given.
func DTypesExcept(skip ...ndarray.DType) []ndarray.DType {
	var out []ndarray.DType
outer:
	for _, dt := range ndarray.DTypes() {
		for _, s := range skip {
			if dt == s {
				continue outer
			}
		}
		out = append(out, dt)
	}
	return out
}

// InvokeInto runs the named operator into out, for Go callers that already have one.
func InvokeInto(name string, in []*ndarray.NDArray, out *ndarray.NDArray, at Attrs) error {
	op, err := Lookup(name)
	if err != nil {
		return err
	}
	r, err := op.Invoke(in, out, at)
	if err != nil {
		return err
	}
	r.Release()
	return nil
}
