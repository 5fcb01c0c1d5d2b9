package ops

import (
	"sync"

	"github.com/mxgo/mxgo/pkg/engine"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

var (
	engineOnce sync.Once
	eng        *engine.Engine
)

// Engine returns the process-wide dependency engine that every operation in this package
// runs on. It is made on first use, so MXGO_ENGINE may be set until then.
func Engine() *engine.Engine {
	engineOnce.Do(func() { eng = engine.New() })
	return eng
}

// push runs kernel on the engine after the pending work on ins and outs. Arrays below
// runNowBelow with nothing pending run at once on the caller (engine.RunNow), on the caller's
// arrays; otherwise push holds its own references, so callers may release theirs at
// once, and kernel receives those. Either way kernel must not keep or release them.
//
// push is for CPU kernels: a kernel given an array in device memory is replaced by one
// that fails (guardHost). Device paths push with pushAny.
func push(ins, outs []*ndarray.NDArray, kernel func(ins, outs []*ndarray.NDArray) error) {
	pushAny(ins, outs, guardHost(ins, outs, kernel))
}

// pushAny is push for kernels that handle device memory themselves (device.go).
func pushAny(ins, outs []*ndarray.NDArray, kernel func(ins, outs []*ndarray.NDArray) error) {
	if smaller(ins, runNowBelow) && smaller(outs, runNowBelow) {
		var rv, wv [4]*engine.Var // most operations: no allocation for the Var lists
		if Engine().RunNow(func() error { return kernel(ins, outs) }, varsInto(rv[:0], ins), varsInto(wv[:0], outs)) {
			return
		}
	}
	ri, ro := ShareAll(ins), ShareAll(outs)
	pushFn := Engine().PushCleanup
	if serial(ri) && serial(ro) {
		pushFn = Engine().PushInline
	}
	pushFn(func() error { return kernel(ri, ro) }, func(bool) {
		ReleaseAll(ri) // also when the kernel is skipped after a failed dependency
		ReleaseAll(ro)
	}, varsInto(nil, ri), varsInto(nil, ro))
}

// runNowBelow bounds the operations that run on the caller when nothing they depend on
// is pending (engine.RunNow), splitting across cores themselves from SerialBelow on: a
// hand-off to an engine goroutine costs two thread wake-ups (the worker's and the
// waiter's, 30-80 µs on a 2-vCPU VM), more than a 1e6-element add takes. Above it an
// operation is long enough for the caller to gain from overlapping it with Python.
const runNowBelow = 1 << 22

// serial reports whether every array is smaller than ndarray.SerialBelow. A pending
// operation on such arrays still runs on the caller when its inputs are ready
// (engine.PushInline): its loops do not fork.
func serial(arrs []*ndarray.NDArray) bool { return smaller(arrs, ndarray.SerialBelow) }

// smaller reports whether every array has fewer than n elements.
func smaller(arrs []*ndarray.NDArray, n int) bool {
	for _, a := range arrs {
		if a.Size() >= n {
			return false
		}
	}
	return true
}

// ShareAll returns a new reference to each array (Share), for work that outlives the
// caller's references: queued kernels, and what a recorded graph keeps.
func ShareAll(arrs []*ndarray.NDArray) []*ndarray.NDArray {
	out := make([]*ndarray.NDArray, len(arrs))
	for i, a := range arrs {
		out[i] = a.Share()
	}
	return out
}

func ReleaseAll(arrs []*ndarray.NDArray) {
	for _, a := range arrs {
		if a != nil { // gradients leave nil where an input gets none
			a.Release()
		}
	}
}

// varsInto appends the arrays' Vars to dst.
func varsInto(dst []*engine.Var, arrs []*ndarray.NDArray) []*engine.Var {
	for _, a := range arrs {
		dst = append(dst, a.Var())
	}
	return dst
}

// WaitToRead waits until a's pending writes are done and returns their error, if any.
func WaitToRead(a *ndarray.NDArray) error { return Engine().WaitToRead(a.Var()) }

// WaitToWrite waits until a's pending reads and writes are done.
func WaitToWrite(a *ndarray.NDArray) error { return Engine().WaitToWrite(a.Var()) }

// WaitAll waits for every pushed operation and returns the first error since the last
// WaitAll.
func WaitAll() error { return Engine().WaitAll() }

// Reshape returns a's elements in C order with a new shape: a view of a contiguous a,
// otherwise a new contiguous array filled by an asynchronous copy.
func Reshape(a *ndarray.NDArray, shape []int) (*ndarray.NDArray, error) {
	v, err := a.Reshape(shape)
	if err != ndarray.ErrNotContiguous {
		return v, err
	}
	c, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
	if err != nil {
		return nil, err
	}
	defer c.Release()
	if err := Copy(c, a); err != nil {
		return nil, err
	}
	return c.Reshape(shape)
}
