package ndarray

import (
	"runtime"
	"sync/atomic"
	"syscall"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// BroadcastShapes returns the shape NumPy's broadcasting rules give shapes, or a
// ValueError naming them.
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	nd := 0
	for _, s := range shapes {
		nd = max(nd, len(s))
	}
	out := make([]int, nd)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for i, d := range s {
			j := nd - len(s) + i
			switch {
			case d == out[j] || d == 1:
			case out[j] == 1:
				out[j] = d
			default:
				return nil, mxerr.ValueErr("operands could not be broadcast together with shapes %v", shapes)
			}
		}
	}
	return out, nil
}

// BroadcastTo returns a read-only view of a with the given shape: new leading
// dimensions and dimensions of length 1 repeat with stride 0.
func (a *NDArray) BroadcastTo(shape []int) (*NDArray, error) {
	if len(shape) < len(a.shape) {
		return nil, mxerr.ValueErr("cannot broadcast shape %v to %v", a.shape, shape)
	}
	lead := len(shape) - len(a.shape)
	strides := make([]int, len(shape))
	for i, d := range a.shape {
		switch {
		case d == shape[lead+i]:
			strides[lead+i] = a.strides[i]
		case d == 1:
			strides[lead+i] = 0
		default:
			return nil, mxerr.ValueErr("cannot broadcast shape %v to %v", a.shape, shape)
		}
	}
	v := a.view(append([]int(nil), shape...), strides, a.offset)
	v.writable = false
	return v, nil
}

// chunkMin is the fewest elements of a chunk when a loop is split, which starts at
// SerialBelow elements. Waking a goroutine on another core costs 30-100 us on this kind
// of VM, while the AVX2 kernels stream 1e6 float32 elements in ~150 us on one core; so a
// split loop is cut into several chunks per core, which the caller works through until
// the other goroutines wake and take their share (ForChunks), and below 2^19 elements
// the wake-up costs more than it could save. Measured with float32 add into out=: 6e5
// elements 74 us (serial 78), 1e6 114 us (serial 164); chunks of 2^17 left a late
// goroutine's last chunk to wait for (6e5: 111 us).
const chunkMin = 1 << 16

// SerialBelow is the element count below which ParallelRows runs on the calling
// goroutine, without forking.
const SerialBelow = 1 << 19

// ParallelRows is Rows split across the machine's cores for large shapes: the
// outermost dimension (after merging contiguous ones) is cut into one chunk per
// worker. fn runs concurrently on disjoint chunks, so it must only write through the
// offsets it is given. Order-dependent loops must use Rows.
func ParallelRows(shape []int, ops []Operand, fn func(offs []int, n int, steps []int)) {
	ParallelRowsCost(shape, ops, 1, fn)
}

// ParallelRowsCost is ParallelRows for a loop whose elements each cost about cost times
// a float32 add's (exp: 8): it splits from SerialBelow/cost elements on, in chunks of at
// least chunkMin/cost.
func ParallelRowsCost(shape []int, ops []Operand, cost int, fn func(offs []int, n int, steps []int)) {
	total := 1
	for _, d := range shape {
		total *= d
	}
	work := total * max(cost, 1)
	if chunkTasks(work, total) < 2 {
		Rows(shape, ops, fn)
		return
	}
	shp, strides := coalesce(shape, ops)
	tasks := chunkTasks(work, shp[0])
	if tasks < 2 {
		Rows(shape, ops, fn)
		return
	}
	ForChunks(shp[0], tasks, func(lo, hi int) {
		sub := append([]int{hi - lo}, shp[1:]...)
		subOps := make([]Operand, len(ops))
		for k, op := range ops {
			subOps[k] = Operand{Strides: strides[k], Offset: op.Offset + lo*strides[k][0]}
		}
		Rows(sub, subOps, fn)
	})
}

// ForItems runs fn over [0, n), items of perItem elements each: on the calling goroutine
// below SerialBelow elements in all, else in chunks of at least chunkMin elements that the
// cores share (ForChunks), as ParallelRows cuts a shape. For loops that are not over
// operands' offsets (gathers, tables).
func ForItems(n, perItem int, fn func(lo, hi int)) {
	if tasks := chunkTasks(n*perItem, n); tasks >= 2 {
		ForChunks(n, tasks, fn)
		return
	}
	fn(0, n)
}

// chunkTasks is the number of chunks a loop over total elements in items outer items is
// cut into: 1 (the caller runs it) below SerialBelow elements or on one core, else up to
// four per core of at least chunkMin elements each.
func chunkTasks(total, items int) int {
	if total < SerialBelow { // before Cores: runtime.GOMAXPROCS takes the scheduler's lock
		return 1
	}
	workers := Cores()
	if workers < 2 {
		return 1
	}
	return min(4*workers, total/chunkMin, items)
}

// ForChunks cuts [0, n) into tasks chunks of (nearly) equal length, runs fn on each
// and returns when all have. The caller and up to one helper per other core take the
// chunks in turn: the pool's helper threads (workers.go; the C kernels' helpers too),
// which spin a while between jobs, or goroutines of the loop's own when the pool is
// busy. A thread that was asleep can take a hundred microseconds to start (measured on
// these 2-core machines), so the caller runs whatever chunks are still untaken rather
// than waiting for a helper, and waits only for chunks already running.
func ForChunks(n, tasks int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	KeepScheduling()
	chunk := (n + tasks - 1) / tasks
	l := &loop{fn: fn, n: n, chunk: chunk, chunks: (n + chunk - 1) / chunk}
	pooled := false
	if helpers := min(l.chunks, Cores()) - 1; helpers > 0 {
		if pooled = offerLoop(l, helpers); !pooled {
			for range helpers {
				go l.work()
			}
		}
	}
	defer func() { // even if a chunk of the caller's panics: the others use the same memory
		l.finish()
		if pooled {
			releaseWorkers()
		}
	}()
	l.work()
}

// loop is one ForChunks call: its chunks, taken in turn by whoever runs work.
type loop struct {
	fn               func(lo, hi int)
	n, chunk, chunks int
	next, running    atomic.Int64
}

func (l *loop) work() {
	l.running.Add(1) // before taking: a finish that saw 0 is followed by no taken chunk
	defer l.running.Add(-1)
	for {
		c := int(l.next.Add(1) - 1)
		if c >= l.chunks {
			return
		}
		l.fn(c*l.chunk, min((c+1)*l.chunk, l.n))
	}
}

// finish stops the taking of chunks and waits for the ones running, yielding the CPU
// rather than the goroutine: the caller is often Python's thread, whose goroutine is
// locked to it (a cgo callback), and there runtime.Gosched hands the P to another thread
// and puts this one to sleep until the goroutine is scheduled again: two context switches
// and futex calls per yield, a third of a LeNet step's switches. Only a long wait yields
// to the Go scheduler too, for a chunk's goroutine that would be waiting for a P.
func (l *loop) finish() {
	l.next.Store(int64(l.chunks))
	for i := 1; l.running.Load() != 0; i++ {
		if i%64 == 0 {
			_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) // cannot fail
		}
		if i%(64<<8) == 0 {
			runtime.Gosched()
		}
	}
}
