package optim

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The one pass every update operator makes over its arrays. Each array is seen as a flat
// slice of the compute type (float64 when the weight is float64, else float32, as
// MXNet's multi-precision kernels and its float16 math do): the array's own memory when
// it is contiguous in that type, else a contiguous copy (float16 arrays, strided views)
// whose new values are cast back after the pass. Large arrays are cut into one chunk per
// core; a body reads element i of every array before it writes element i of any, so the
// weight may be its own out.

type float interface{ ~float32 | ~float64 }

// body updates elements [lo, hi) of the arrays v (the operator's array operands, then
// its outs) in place.
type body[T float] func(v [][]T, lo, hi int)

// sweep runs f32 or f64 over arrs, writing back those whose index is in written.
func sweep(arrs []*ndarray.NDArray, written []int, f32 body[float32], f64 body[float64]) error {
	if arrs[0].DType() == ndarray.Float64 {
		return sweepAs(arrs, written, ndarray.Float64, f64)
	}
	return sweepAs(arrs, written, ndarray.Float32, f32)
}

func sweepAs[T float](arrs []*ndarray.NDArray, written []int, dt ndarray.DType, f body[T]) error {
	v := make([][]T, len(arrs))
	streams := 0                                  // the distinct arrays the pass reads or writes
	copyOf := make([]*ndarray.NDArray, len(arrs)) // the copy array i is seen through, if any
	var copies []*ndarray.NDArray
	defer func() { ops.ReleaseAll(copies) }()
	for i, a := range arrs {
		// an array that is an earlier one (out that is the weight) is its slice, as in
		// MXNet's kernels, which read weight[i] again after writing out[i]; partial
		// overlaps are between inputs only (ops separated the rest), which are read
		if j := slices.IndexFunc(arrs[:i], func(b *ndarray.NDArray) bool { return same(a, b) }); j >= 0 {
			v[i], copyOf[i] = v[j], copyOf[j]
			continue
		}
		streams++
		c := a
		if a.DType() != dt || !a.Contiguous() {
			var err error
			if c, err = ndarray.Empty(dt, a.Shape(), a.Device()); err != nil {
				return err
			}
			copies, copyOf[i] = append(copies, c), c
			if err := ops.CopyCast(c, a); err != nil {
				return err
			}
		}
		if n := c.Size(); n > 0 {
			v[i] = unsafe.Slice((*T)(c.Data()), n)
		}
	}
	n := arrs[0].Size()
	// split by the elements the pass moves, which is three to five arrays' worth: measured
	// with the workers' pool, multi_sgd_mom_update over an MLP's 670k weights (the largest
	// 401k) took 352 us on one core and 202 us split (PyTorch's SGD step: 274 us)
	tasks := 1
	if work := n * streams; work >= ndarray.SerialBelow {
		tasks = min(ndarray.Cores(), 2*work/ndarray.SerialBelow)
	}
	ndarray.ForChunks(n, tasks, func(lo, hi int) { f(v, lo, hi) })
	for _, i := range written {
		if copyOf[i] != nil {
			if err := ops.CopyCast(arrs[i], copyOf[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// same reports whether a and b are the same elements in the same order.
func same(a, b *ndarray.NDArray) bool {
	return a.Storage() == b.Storage() && a.Offset() == b.Offset() && slices.Equal(a.Shape(), b.Shape()) &&
		slices.Equal(a.Strides(), b.Strides())
}

// hyper holds the parameters every update shares, as MXNet's float parameters: rounded
// to float32 (then widened for float64 weights).
type hyper[T float] struct{ lr, wd, rescale, clip T }

func param[T float](at ops.Attrs, name string) T {
	if _, ok := at[name]; !ok {
		return 0
	}
	return T(float32(at.Float(name)))
}

func hyperOf[T float](at ops.Attrs) hyper[T] {
	return hyper[T]{lr: param[T](at, "lr"), wd: param[T](at, "wd"), rescale: param[T](at, "rescale_grad"), clip: param[T](at, "clip_gradient")}
}

// grad is g rescaled and clipped to [-clip, clip] unless clip is negative (off).
func (h hyper[T]) grad(g T) T { return clip(h.rescale*g, h.clip) }

func clip[T float](x, c T) T {
	if c >= 0 {
		return max(-c, min(x, c))
	}
	return x
}

func sign[T float](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// checkArrays checks the arrays of one weight's update: every array has the weight's
// shape, and the dtype the operator needs (the weight's, or float32 for the
// multi-precision copies and states, those whose index is in f32).
func checkArrays(op string, names []string, arrs []*ndarray.NDArray, f32 ...int) error {
	w := arrs[0]
	if !isFloat(w.DType()) {
		return mxerr.TypeErr("%s: %s must be float16, float32 or float64, got %s", op, names[0], w.DType())
	}
	for i, a := range arrs[1:] {
		i++
		want := w.DType()
		for _, j := range f32 {
			if i == j {
				want = ndarray.Float32
			}
		}
		if a.DType() != want {
			return mxerr.TypeErr("%s: %s has dtype %s, expected %s", op, names[i], a.DType(), want)
		}
		if err := ndarray.SameShape(a.Shape(), w.Shape()); err != nil {
			return mxerr.ValueErr("%s: %s has shape %v, %s has %v", op, names[i], a.Shape(), names[0], w.Shape())
		}
	}
	return nil
}

func isFloat(dt ndarray.DType) bool {
	return dt == ndarray.Float16 || dt == ndarray.Float32 || dt == ndarray.Float64
}
