package ops

import "github.com/mxgo/mxgo/pkg/ndarray"

// ViaTemp runs kernel into out, or, when out's dtype is not dt (what the kernel writes),
// into a temporary array of dtype dt cast into out afterwards: MXNet's comparisons and
// reductions give the input's dtype where the kernels compute in bool, int64 or float64.
func ViaTemp(out *ndarray.NDArray, dt ndarray.DType, kernel func(o *ndarray.NDArray) error) error {
	if out.DType() == dt {
		return kernel(out)
	}
	tmp, err := ndarray.Empty(dt, out.Shape(), out.Device())
	if err != nil {
		return err
	}
	defer tmp.Release()
	if err := kernel(tmp); err != nil {
		return err
	}
	return CopyCast(out, tmp)
}

// ContiguousOf returns a itself (a new reference) when C-contiguous, else a C-contiguous
// copy: for kernels that read their input as one flat run. The caller releases it.
func ContiguousOf(a *ndarray.NDArray) (*ndarray.NDArray, error) {
	if a.Contiguous() {
		return a.Share(), nil
	}
	c, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
	if err != nil {
		return nil, err
	}
	ndarray.MoveElems(c, a)
	return c, nil
}

// IntoContiguous runs fn on out, or on a C-contiguous temporary copied into out after.
func IntoContiguous(out *ndarray.NDArray, fn func(*ndarray.NDArray) error) error {
	if out.Contiguous() {
		return fn(out)
	}
	tmp, err := ndarray.Empty(out.DType(), out.Shape(), out.Device())
	if err != nil {
		return err
	}
	defer tmp.Release()
	if err := fn(tmp); err != nil {
		return err
	}
	ndarray.MoveElems(out, tmp)
	return nil
}
