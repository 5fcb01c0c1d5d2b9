package engine

import (
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
	lastWrite *op      // the newest write pushed, nil once it has finished
	reads     []*op    // reads pushed since lastWrite, unfinished ones only
	err       *failure // of the last finished write, when it failed or inherited one
}

// NewVar returns a Var with no pending work.
func NewVar() *Var { return &Var{} }

// failure is an operation's error, shared by everything it reaches: the Vars that
// operation wrote, the operations that inherited it and the Vars they wrote, WaitAll's
// list. As in MXNet 1.x, the first wait that meets it raises it, and then it is raised
// nowhere else: not by waits on the other Vars it reached, nor by WaitAll.
type failure struct {
	err error
	seq uint64 // the failing operation's push: of two failures, an operation inherits the earlier
	// raisedAt is 0 while no wait has raised f, else 1 + the number of pushes before the
	// wait raised it: an operation pushed after that runs (its caller has seen the error).
	raisedAt atomic.Uint64
}

// live reports whether f is an error no wait has raised yet.
func (f *failure) live() bool { return f != nil && f.raisedAt.Load() == 0 }

func (f *failure) raised() bool { return !f.live() }

// reaches reports whether an operation pushed as push number seq inherits f: unless a wait
// raised f before that push. Program order decides this, not the timing of operations.
func (f *failure) reaches(seq uint64) bool {
	r := f.raisedAt.Load()
	return r == 0 || r > seq
}

// edge is a dependent d's wait for an operation. inherit: the operation is the last write
// of a Var d touches, so its failure reaches d. Otherwise d only waits for it to stop
// reading a Var d writes; d meets whatever it wrote through those Vars' own last writes.
type edge struct {
	d       *op
	inherit bool
}

type op struct {
	fn         Fn
	seq        uint64         // the push that made it
	cleanup    func(ran bool) // always called once, after fn or instead of it
	reads      []*Var
	writes     []*Var
	mu         sync.Mutex
	pending    int    // unfinished dependencies, plus one while Push is wiring them
	dependents []edge // ops waiting for this one
	finished   bool
	err        *failure // inherited: held by one of its Vars when pushed, or from a failed dependency
	done       chan struct{}
}

// Engine runs operations in dependency order.
type Engine struct {
	naive   bool
	pushMu  sync.Mutex // serialises the wiring of pushes, which would otherwise form cycles
	mu      sync.Mutex
	idle    *sync.Cond    // signalled when running drops to 0
	running int           // operations pushed and not finished
	errs    []*failure    // failures since the last WaitAll, in the order they happened
	pushes  atomic.Uint64 // operations pushed (and RunNow's that failed) so far: their seq
	// busy counts running operations plus failures not yet raised: zero means no wait can
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
// *p is zero exactly when no operation is running and no error waits to be raised. Call it
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
	if err := call(fn); err != nil {
		// Its place among the pushes, taken only now (RunNow never inherits): pushMu
		// still orders it after every earlier push and before every later one.
		e.hold(e.fail(err, e.pushes.Add(1)), writes) // before a later push looks at writes
	}
	e.pushMu.Unlock()
	e.finish()
	return true
}

// quiet reports whether none of the Vars has anything RunNow would have to wait for.
func (e *Engine) quiet(reads, writes []*Var) bool {
	for _, v := range reads {
		v.mu.Lock()
		busy := v.lastWrite != nil || v.err.live()
		v.mu.Unlock()
		if busy {
			return false
		}
	}
	for _, v := range writes {
		v.mu.Lock()
		v.reads = pruneFinished(v.reads)
		busy := v.lastWrite != nil || v.err.live() || len(v.reads) > 0
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
	o.seq = e.pushes.Add(1)
	for _, v := range o.reads {
		v.mu.Lock()
		o.after(v)
		v.reads = append(pruneFinished(v.reads), o)
		v.mu.Unlock()
	}
	for _, v := range o.writes {
		v.mu.Lock()
		o.after(v)
		for _, r := range v.reads {
			o.dependOn(r, false)
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

// after makes o wait for v's last write, whose failure (if any) reaches o when it finishes;
// once that write has finished, o inherits the failure it left on v. (While it runs, v
// may still hold an earlier write's failure, which is not necessarily the one it passes.)
// The caller holds v.mu.
func (o *op) after(v *Var) {
	if w := v.lastWrite; w != nil {
		o.dependOn(w, true)
	} else {
		o.inherit(v.err)
	}
}

// dependOn records that o waits for d (a no-op if d has finished), inheriting d's failure
// if inherit.
func (o *op) dependOn(d *op, inherit bool) {
	if d == o {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.finished {
		return
	}
	d.dependents = append(d.dependents, edge{o, inherit})
	o.mu.Lock()
	o.pending++
	o.mu.Unlock()
}

// inherit records f as o's failure when it reaches o and is earlier than the one o has.
// Taking the earliest makes which error o raises independent of the order in which its
// dependencies happened to finish.
func (o *op) inherit(f *failure) {
	if f == nil || !f.reaches(o.seq) {
		return
	}
	o.mu.Lock()
	if o.err == nil || f.seq < o.err.seq {
		o.err = f
	}
	o.mu.Unlock()
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
	f := o.err
	o.mu.Unlock()
	ran := f == nil
	var err error
	if ran {
		err = call(o.fn)
	}
	if o.cleanup != nil {
		if cerr := call(func() error { o.cleanup(ran); return nil }); err == nil {
			err = cerr
		}
	}
	if f == nil && err != nil {
		f = e.fail(err, o.seq)
	}
	e.hold(f, o.writes)
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
	for _, ed := range deps {
		if f != nil && ed.inherit {
			ed.d.inherit(f) // before d can run; reaches, not timing, decides whether d runs
		}
		if ed.d.release() {
			if e.naive {
				e.run(ed.d)
			} else {
				go e.run(ed.d)
			}
		}
	}
	e.finish()
}

// fail records err, the error of the operation pushed as seq, for the waits to raise.
func (e *Engine) fail(err error, seq uint64) *failure {
	f := &failure{err: err, seq: seq}
	e.count().Add(1) // until raised
	e.mu.Lock()
	e.errs = append(slices.DeleteFunc(e.errs, (*failure).raised), f)
	e.mu.Unlock()
	return f
}

// hold gives f (if any) to the Vars an operation wrote, for their next wait.
func (e *Engine) hold(f *failure, writes []*Var) {
	if f == nil {
		return
	}
	for _, v := range writes {
		v.mu.Lock()
		v.err = f
		v.mu.Unlock()
	}
}

// raise returns f's error if no wait has raised it yet, and marks it raised.
func (e *Engine) raise(f *failure) error {
	if f == nil || !f.raisedAt.CompareAndSwap(0, e.pushes.Load()+1) {
		return nil
	}
	e.count().Add(-1)
	return f.err
}

// finish ends a running operation.
func (e *Engine) finish() {
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

// WaitToRead waits for v's pending writes and raises v's error: returns it unless a wait
// has already raised it.
func (e *Engine) WaitToRead(v *Var) error {
	v.mu.Lock()
	w := v.lastWrite
	v.mu.Unlock()
	if w != nil {
		<-w.done
	}
	return e.takeErr(v)
}

// WaitToWrite waits for v's pending reads and writes and raises v's error.
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
	if v.lastWrite != nil || v.err.live() {
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
	f := v.err
	v.err = nil
	v.mu.Unlock()
	return e.raise(f)
}

// WaitAll waits for every operation pushed so far and raises every error no wait has
// raised yet, returning the first of them.
func (e *Engine) WaitAll() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for e.running > 0 {
		e.idle.Wait()
	}
	var first error
	for _, f := range e.errs {
		if err := e.raise(f); first == nil {
			first = err
		}
	}
	e.errs = nil
	return first
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
