package ndarray

import "github.com/mxgo/mxgo/pkg/mxerr"

// TransposeAxes resolves a transpose's axes against ndim, as NumPy does: nil reverses
// the axes; otherwise axes must name every axis once (negative axes count from the
// end). A wrong count or a repeated axis is a ValueError, an axis out of range an
// IndexError (NumPy's AxisError is both).
func TransposeAxes(axes []int, ndim int) ([]int, error) {
	perm := make([]int, ndim)
	if axes == nil {
		for i := range perm {
			perm[i] = ndim - 1 - i
		}
		return perm, nil
	}
	if len(axes) != ndim {
		return nil, mxerr.ValueErr("axes don't match array: %d axes %v for an array of dimension %d", len(axes), axes, ndim)
	}
	seen := make([]bool, ndim)
	for i, ax := range axes {
		a := ax
		if a < 0 {
			a += ndim
		}
		if a < 0 || a >= ndim {
			return nil, mxerr.IndexErr("axis %d is out of bounds for array of dimension %d", ax, ndim)
		}
		if seen[a] {
			return nil, mxerr.ValueErr("repeated axis in transpose: %v", axes)
		}
		seen[a] = true
		perm[i] = a
	}
	return perm, nil
}

// Transpose returns a view of a with its axes permuted (see TransposeAxes): dimension i
// of the result is dimension axes[i] of a. No element moves; the view shares a's
// storage and writability, as NumPy's a.transpose(axes) and a.T do.
func (a *NDArray) Transpose(axes []int) (*NDArray, error) {
	perm, err := TransposeAxes(axes, len(a.shape))
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(perm))
	strides := make([]int, len(perm))
	for i, p := range perm {
		shape[i], strides[i] = a.shape[p], a.strides[p]
	}
	return a.view(shape, strides, a.offset), nil
}

// ResolveShape returns the shape a would have after a.Reshape(shape) (one -1 inferred),
// or the error that reshape would give, without making a view: for callers that copy.
func (a *NDArray) ResolveShape(shape []int) ([]int, error) { return a.resolveShape(shape) }
