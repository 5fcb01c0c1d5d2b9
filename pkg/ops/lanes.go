package ops

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Lanes: the 1-D runs along one axis that sort, argsort, topk, cumsum and the softmax
// family work on, one at a time. A lane is a start offset and a stride (in elements),
// so any layout (transposed, negative strides, offsets) is read in place.

type Lanes struct {
	N      int   // elements per lane (the axis length)
	Stride int   // along the axis, in elements
	Starts []int // the first element of each lane, C order over the other axes
}

// LanesOf returns a's lanes along axis.
func LanesOf(a *ndarray.NDArray, axis int) Lanes {
	s, st := a.Shape(), a.Strides()
	rs := append(append([]int{}, s[:axis]...), s[axis+1:]...)
	rst := append(append([]int{}, st[:axis]...), st[axis+1:]...)
	return Lanes{N: s[axis], Stride: st[axis], Starts: OffsetsOf(rs, rst, a.Offset())}
}

// FlatLanes is a's single lane in C order (axis=None): a itself when it is contiguous,
// else a contiguous copy (release it with the returned function).
func FlatLanes(a *ndarray.NDArray) (*ndarray.NDArray, Lanes, func(), error) {
	n := a.Size()
	if a.Contiguous() {
		return a, Lanes{N: n, Stride: 1, Starts: []int{a.Offset()}}, func() {}, nil
	}
	t, err := ndarray.Empty(a.DType(), a.Shape(), a.Device())
	if err != nil {
		return nil, Lanes{}, nil, err
	}
	ndarray.MoveElems(t, a)
	return t, Lanes{N: n, Stride: 1, Starts: []int{t.Offset()}}, t.Release, nil
}

// laneGrain is the work (elements) below which lanes are not split across goroutines.
const laneGrain = 1 << 15

// ForLanes calls fn on chunks [lo, hi) of count lanes of n elements each, on several
// cores when there is enough work. Each call gets its own scratch state from newState.
func ForLanes[S any](count, n int, newState func() S, fn func(st S, lo, hi int)) {
	tasks := min(count, count*max(n, 1)/laneGrain)
	if tasks >= 2 { // small work asks no Cores, whose runtime.GOMAXPROCS takes the scheduler's lock
		tasks = min(tasks, ndarray.Cores())
	}
	if tasks < 2 {
		fn(newState(), 0, count)
		return
	}
	ndarray.ForChunks(count, tasks, func(lo, hi int) { fn(newState(), lo, hi) })
}

// LaneAxis resolves an axis parameter (negative counts from the end) for an array of
// ndim dimensions.
func LaneAxis(name string, axis, ndim int) (int, error) {
	if axis < -ndim || axis >= ndim {
		return 0, mxerr.New(mxerr.Index, "%s: axis %d is out of bounds for array of dimension %d", name, axis, ndim)
	}
	if axis < 0 {
		axis += ndim
	}
	return axis, nil
}

// base is the address of a's storage (offsets are added per lane).
func LaneBase(a *ndarray.NDArray) unsafe.Pointer { return a.Storage().Ptr() }
