package engine

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mxgo/mxgo/pkg/proc"
)

// Fn is an operation's work. It runs on an engine goroutine, never holding engine locks.
type Fn func() error

// Var is the engine's handle for a piece of memory (an mxgo storage).
type Var struct {
	mu        sync.Mutex
	lastWrite *op   // the newest write pushed, nil once it has finished
	reads     []*op // reads pushed since lastWrite, unfinished ones only
	err       error // the first error of a write to this Var not yet returned by a wait
}

// NewVar returns a Var with no pending work.
func NewVar() *Var { return &Var{} }

type op struct {
	fn         Fn
	cleanup    func(ran bool) // always called once, after fn or instead of it
	reads      []*Var
	writes     []*Var
	mu         sync.Mutex
	pending    int   // unfinished dependencies, plus one while Push is wiring them
	dependents []*op // ops waiting for this one
	finished   bool
	err        error // inherited: held by one of its Vars when pushed, or from a failed dependency
	done       chan struct{}
}

// Engine runs operations in dependency order.
type Engine struct {
	naive   bool
	pushMu  sync.Mutex // serialises the wiring of pushes, which would otherwise form cycles
	mu      sync.Mutex
	idle    *sync.Cond // signalled when running drops to 0
	running int        // operations pushed and not finished
	errs    []error    // errors not yet returned by WaitAll
	errVars []*Var     // Vars holding an error, cleared by WaitAll
	// busy counts running operations plus Vars holding an error: zero means no wait can
	// block or fail. It may live in C memory (MirrorBusy), for C code that wants to know
	// without calling Go. Swapped only by MirrorBusy: reading it takes no lock, as each
	// operator call on borrowed memory reads it twice.
	busy atomic.Pointer[atomic.Int64]
}

// New returns an engine; synchronous (naive) when MXGO_ENGINE=naive.
func New() *Engine {
	e := &Engine{naive: proc.Getenv("MXGO_ENGINE") == "naive"}
	e.busy.Store(new(atomic.Int64))
	e.idle = sync.NewCond(&e.mu)
	return e
}

// MirrorBusy moves the engine's busy count to *p (C memory read by C code): from then on
// *p is zero exactly when no operation is running and no Var holds an error. Call it
// before the engine's first operation: a count changed while it moves would be lost.
func (e *Engine) MirrorBusy(p *atomic.Int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p.Store(e.count().Load())
	e.busy.Store(p)
}

// Busy reports the count MirrorBusy describes.
func (e *Engine) Busy() int64 { return e.count().Load() }

func (e *Engine) count() *atomic.Int64 { return e.busy.Load() }

// Naive reports whether the engine runs operations synchronously.
func (e *Engine) Naive() bool { return e.naive }

// Push schedules fn after the pending work it depends on: the last write of every Var
// in reads and writes, and the reads since then of every Var in writes. A Var listed in
// both is treated as written. Push returns at once (after fn has run in naive mode).
// The engine keeps reads and writes: callers must not change them afterwards.
func (e *Engine) Push(fn Fn, reads, writes []*Var) { e.PushCleanup(fn, nil, reads, writes) }

// PushCleanup is Push with a cleanup that runs exactly once, whether or not fn runs:
// cleanup(true) after fn returned, cleanup(false) when fn was skipped because a
// dependency had failed. Operations release what they hold there; it runs before any
// wait on the operation returns.
func (e *Engine) PushCleanup(fn Fn, cleanup func(ran bool), reads, writes []*Var) {
	e.push(fn, cleanup, reads, writes, false)
}

// PushInline is PushCleanup for small operations: when nothing it depends on is
// pending, fn runs on the caller's goroutine before PushInline returns, since handing
// a tiny operation to another thread and waking its waiter costs more than running it.
// Ordering is unchanged: it runs exactly when it would have been ready anyway.
func (e *Engine) PushInline(fn Fn, cleanup func(ran bool), reads, writes []*Var) {
	e.push(fn, cleanup, reads, writes, true)
}

// RunNow runs fn on the caller, at once, when nothing it would wait for is pending (no
// unfinished write of any Var, no unfinished read of a written one, no error held), and
// reports whether it did; otherwise it does nothing and the caller pushes instead. It
// is the cheapest way to run a small operation: no operation record, and the caller's
// own references stay valid throughout, so nothing needs to be retained. Other pushes
// wait while fn runs, which keeps the order a push would have had; fn must not push.
// An error of fn is held as a pushed operation's would be, for the next wait.
func (e *Engine) RunNow(fn Fn, reads, writes []*Var) bool {
	if e.count().Load() != 0 && !e.quiet(reads, writes) {
		return false
	}
	e.pushMu.Lock()
	if e.count().Load() != 0 && !e.quiet(reads, writes) {
		e.pushMu.Unlock()
		return false
	}
	e.mu.Lock()
	e.running++
	e.count().Add(1)
	e.mu.Unlock()
	err := call(fn)
	e.pushMu.Unlock()
	e.finish(err, writes)
	return true
}

// quiet reports whether none of the Vars has anything RunNow would have to wait for.
func (e *Engine) quiet(reads, writes []*Var) bool {
	for _, v := range reads {
		v.mu.Lock()
		busy := v.lastWrite != nil || v.err != nil
		v.mu.Unlock()
		if busy {
			return false
		}
	}
	for _, v := range writes {
		v.mu.Lock()
		v.reads = pruneFinished(v.reads)
		busy := v.lastWrite != nil || v.err != nil || len(v.reads) > 0
		v.mu.Unlock()
		if busy {
			return false
		}
	}
	return true
}

func (e *Engine) push(fn Fn, cleanup func(ran bool), reads, writes []*Var, inline bool) {
	o := &op{fn: fn, cleanup: cleanup, reads: dedupe(reads, writes), writes: dedupe(writes, nil), pending: 1, done: make(chan struct{})}
	e.mu.Lock()
	e.running++
	e.count().Add(1)
	e.mu.Unlock()
	e.pushMu.Lock()
	for _, v := range o.reads {
		v.mu.Lock()
		o.inherit(v.err)
		if w := v.lastWrite; w != nil {
			o.dependOn(w)
		}
		v.reads = append(pruneFinished(v.reads), o)
		v.mu.Unlock()
	}
	for _, v := range o.writes {
		v.mu.Lock()
		o.inherit(v.err)
		if w := v.lastWrite; w != nil {
			o.dependOn(w)
		}
		for _, r := range v.reads {
			o.dependOn(r)
		}
		v.lastWrite, v.reads = o, v.reads[:0]
		v.mu.Unlock()
	}
	e.pushMu.Unlock()
	ready := o.release()
	if ready {
		if e.naive || inline {
			e.run(o)
		} else {
			go e.run(o)
		}
	}
	if e.naive {
		<-o.done
	}
}

// dependOn records that o waits for d (a no-op if d has finished).
func (o *op) dependOn(d *op) {
	if d == o {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.finished {
		return
	}
	d.dependents = append(d.dependents, o)
	o.mu.Lock()
	o.pending++
	o.mu.Unlock()
}

// inherit records err (if not nil) as o's error unless o already has one.
func (o *op) inherit(err error) {
	if err == nil {
		return
	}
	o.mu.Lock()
	if o.err == nil {
		o.err = err
	}
	o.mu.Unlock()
}

// touches reports whether o reads or writes any of vs.
func (o *op) touches(vs []*Var) bool {
	for _, v := range vs {
		for _, u := range o.reads {
			if u == v {
				return true
			}
		}
		for _, u := range o.writes {
			if u == v {
				return true
			}
		}
	}
	return false
}

// release drops one pending dependency and reports whether o is now ready.
func (o *op) release() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending--
	return o.pending == 0
}

func (e *Engine) run(o *op) {
	o.mu.Lock()
	err := o.err
	o.mu.Unlock()
	ran := err == nil
	if ran {
		err = call(o.fn)
	}
	if o.cleanup != nil {
		if cerr := call(func() error { o.cleanup(ran); return nil }); err == nil {
			err = cerr
		}
	}
	e.holdErr(err, o.writes)
	for _, v := range o.writes {
		v.mu.Lock()
		if v.lastWrite == o {
			v.lastWrite = nil
		}
		v.mu.Unlock()
	}
	o.mu.Lock()
	o.finished = true
	deps := o.dependents
	o.dependents = nil
	o.mu.Unlock()
	close(o.done)
	for _, d := range deps {
		if err != nil && d.touches(o.writes) {
			d.inherit(err) // before d can run, whatever a wait does to the Vars meanwhile
		}
		if d.release() {
			if e.naive {
				e.run(d)
			} else {
				go e.run(d)
			}
		}
	}
	e.finish(nil, nil)
}

// holdErr records err (if any) for WaitAll and, on every Var in writes, for the next wait.
func (e *Engine) holdErr(err error, writes []*Var) {
	if err == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, err)
	for _, v := range writes {
		v.mu.Lock()
		if v.err == nil {
			v.err = err
			e.errVars = append(e.errVars, v)
			e.count().Add(1)
		}
		v.mu.Unlock()
	}
}

// finish ends a running operation, holding its error (if any) on writes.
func (e *Engine) finish(err error, writes []*Var) {
	e.holdErr(err, writes)
	e.mu.Lock()
	e.count().Add(-1)
	if e.running--; e.running == 0 {
		e.idle.Broadcast()
	}
	e.mu.Unlock()
}

// call runs fn, turning a panic into an error so one bad kernel cannot kill the process.
func call(fn Fn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("operation panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return fn()
}

// WaitToRead waits for v's pending writes and returns (and clears) v's error.
func (e *Engine) WaitToRead(v *Var) error {
	v.mu.Lock()
	w := v.lastWrite
	v.mu.Unlock()
	if w != nil {
		<-w.done
	}
	return e.takeErr(v)
}

// WaitToWrite waits for v's pending reads and writes and returns (and clears) v's error.
func (e *Engine) WaitToWrite(v *Var) error {
	v.mu.Lock()
	pending := append([]*op(nil), v.reads...)
	if v.lastWrite != nil {
		pending = append(pending, v.lastWrite)
	}
	v.mu.Unlock()
	for _, o := range pending {
		<-o.done
	}
	return e.takeErr(v)
}

// Pending reports whether v has unfinished writes (reads too when forWrite), so callers
// holding a lock such as Python's GIL can release it before waiting.
func (v *Var) Pending(forWrite bool) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.lastWrite != nil || v.err != nil {
		return true
	}
	if forWrite {
		for _, r := range v.reads {
			select {
			case <-r.done:
			default:
				return true
			}
		}
	}
	return false
}

func (e *Engine) takeErr(v *Var) error {
	v.mu.Lock()
	err := v.err
	v.err = nil
	v.mu.Unlock()
	if err != nil {
		e.count().Add(-1)
	}
	return err
}

// WaitAll waits for every operation pushed so far and returns the first error raised
// since the previous WaitAll, clearing them all.
func (e *Engine) WaitAll() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for e.running > 0 {
		e.idle.Wait()
	}
	for _, v := range e.errVars {
		e.takeErr(v)
	}
	e.errVars = nil
	if len(e.errs) == 0 {
		return nil
	}
	err := e.errs[0]
	e.errs = nil
	return err
}

// Forget drops err from the errors the next WaitAll returns: for a caller that waited for
// its operation and reported err itself (a TVM-FFI global function), so that a later
// WaitAll does not raise it again to someone else.
func (e *Engine) Forget(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i := slices.IndexFunc(e.errs, func(x error) bool { return errors.Is(x, err) }); i >= 0 {
		e.errs = slices.Delete(e.errs, i, i+1)
	}
}

func pruneFinished(ops []*op) []*op {
	out := ops[:0]
	for _, o := range ops {
		select {
		case <-o.done:
		default:
			out = append(out, o)
		}
	}
	return out
}

// dedupe returns vs without duplicates and without members of skip: vs itself when it
// has neither (push keeps the slices it is given).
func dedupe(vs, skip []*Var) []*Var {
	if distinct(vs, skip) {
		return vs
	}
	out := make([]*Var, 0, len(vs))
	for _, v := range vs {
		if !slices.Contains(skip, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// distinct reports whether vs has no repeats and nothing in skip.
func distinct(vs, skip []*Var) bool {
	for i, v := range vs {
		if slices.Contains(skip, v) || slices.Contains(vs[:i], v) {
			return false
		}
	}
	return true
}
