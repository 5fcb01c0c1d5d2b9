package mxgotest

import (
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/engine"
)

// No test here asserts on timings. Orderings are forced with channels and checked with
// flags and logs; every wait that could hang if the engine were wrong is bounded by
// engineTimeout and fails the test instead. Cells written by operations are plain
// (non-atomic) variables on purpose, so `go test -race` checks that the engine orders
// conflicting accesses.

const engineTimeout = 10 * time.Second

// threadedEngine returns a threaded engine whatever MXGO_ENGINE says in the environment
// (several tests block inside operations, which would hang a naive engine's Push).
func threadedEngine(t *testing.T) *engine.Engine {
	t.Helper()
	t.Setenv("MXGO_ENGINE", "")
	e := engine.New()
	require.False(t, e.Naive())
	return e
}

func naiveEngine(t *testing.T) *engine.Engine {
	t.Helper()
	t.Setenv("MXGO_ENGINE", "naive")
	e := engine.New()
	require.True(t, e.Naive())
	return e
}

// within runs f on its own goroutine and fails the test if it has not returned within
// engineTimeout (a deadlock, or an ordering the engine should have allowed but did not).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(engineTimeout):
		t.Fatalf("%s: still blocked after %v (deadlock?)", what, engineTimeout)
	}
}

// withinErr is within for a function returning an error, which it returns.
func withinErr(t *testing.T, what string, f func() error) error {
	t.Helper()
	var err error
	within(t, what, func() { err = f() })
	return err
}

func waitAll(t *testing.T, e *engine.Engine) error {
	t.Helper()
	return withinErr(t, "WaitAll", e.WaitAll)
}

func waitToRead(t *testing.T, e *engine.Engine, v *engine.Var) error {
	t.Helper()
	return withinErr(t, "WaitToRead", func() error { return e.WaitToRead(v) })
}

func waitToWrite(t *testing.T, e *engine.Engine, v *engine.Var) error {
	t.Helper()
	return withinErr(t, "WaitToWrite", func() error { return e.WaitToWrite(v) })
}

// recv waits for one value on ch, bounded by engineTimeout.
func recv[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case x := <-ch:
		return x
	case <-time.After(engineTimeout):
		t.Fatalf("%s: nothing received after %v", what, engineTimeout)
	}
	panic("unreachable")
}

// notYet asserts that nothing can be received from ch now, after giving the scheduler a
// chance to run whatever is runnable. It proves nothing on its own (the engine might just
// be slow); the tests pair it with a flag checked inside the operation itself.
func notYet[T any](t *testing.T, what string, ch <-chan T) {
	t.Helper()
	for range 20 {
		runtime.Gosched()
	}
	select {
	case <-ch:
		t.Fatalf("%s happened too early", what)
	default:
	}
}

// gate is a channel operations block on until the test opens it. Cleanup opens it too,
// so a failing test does not leave operations blocked forever.
type gate struct {
	ch   chan struct{}
	once sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{ch: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gate) open() { g.once.Do(func() { close(g.ch) }) }

// wait blocks until the gate is open; a gate never opened fails the operation (by
// panicking, which the engine turns into an error) rather than hanging it.
func (g *gate) wait() {
	select {
	case <-g.ch:
	case <-time.After(2 * engineTimeout):
		panic("gate never opened")
	}
}

// barrier lets n operations wait until all n are running at the same time.
type barrier struct {
	arrived chan struct{}
	all     *gate
}

func newBarrier(t *testing.T, n int) *barrier {
	b := &barrier{arrived: make(chan struct{}, n), all: newGate(t)}
	go func() {
		for range n {
			select {
			case <-b.arrived:
			case <-time.After(engineTimeout):
				return // the test's own recv on allIn fails it
			}
		}
		b.all.open()
	}()
	return b
}

// arrive signals arrival and blocks until all n have arrived.
func (b *barrier) arrive() {
	b.arrived <- struct{}{}
	b.all.wait()
}

// await fails the test unless all n arrive, i.e. unless they all run at once.
func (b *barrier) await(t *testing.T, what string) {
	t.Helper()
	select {
	case <-b.all.ch:
	case <-time.After(engineTimeout):
		t.Fatalf("%s: not all operations were running at the same time after %v", what, engineTimeout)
	}
}

// opLog records the order in which operations ran.
type opLog struct {
	mu  sync.Mutex
	ids []string
}

func (l *opLog) add(id string) {
	l.mu.Lock()
	l.ids = append(l.ids, id)
	l.mu.Unlock()
}

func (l *opLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ids...)
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

func vars(vs ...*engine.Var) []*engine.Var { return vs }

// parallelism is how many operations the parallel tests run at once: enough to show
// parallelism, no more than a worker pool sized to the machine would hold.
func parallelism() int {
	return min(8, max(2, runtime.NumCPU(), runtime.GOMAXPROCS(0)))
}

// ---------------------------------------------------------------------------------------
// Ordering

func TestEngineWritesRunInPushOrder(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	var log opLog
	cell := 0 // written by every op without a lock: -race checks they never overlap
	const n = 200
	for i := range n {
		e.Push(func() error {
			log.add(strconv.Itoa(i))
			cell = cell*3 + i
			return nil
		}, nil, vars(v))
	}
	require.NoError(t, waitAll(t, e))
	want, ref := make([]string, n), 0
	for i := range n {
		want[i] = strconv.Itoa(i)
		ref = ref*3 + i
	}
	assert.Equal(t, want, log.get())
	assert.Equal(t, ref, cell)
}

func TestEngineReadSeesPrecedingWrite(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	cell := 0
	for round := range 20 {
		g := newGate(t)
		e.Push(func() error { g.wait(); cell = round * 10; return nil }, nil, vars(v))
		seen := make(chan int, 3)
		for range 3 {
			e.Push(func() error { seen <- cell; return nil }, vars(v), nil)
		}
		notYet(t, "a read pushed after a blocked write", seen)
		g.open()
		for range 3 {
			assert.Equal(t, round*10, recv(t, "read after write", seen))
		}
	}
	require.NoError(t, waitAll(t, e))
}

func TestEngineWriteWaitsForAllEarlierReads(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	n := parallelism()
	g := newGate(t)
	started := make(chan struct{}, n)
	var readsDone atomic.Int32
	cell := 1
	sum := make([]int, n)
	for i := range n {
		e.Push(func() error {
			started <- struct{}{}
			g.wait()
			sum[i] = cell
			readsDone.Add(1)
			return nil
		}, vars(v), nil)
	}
	for range n {
		recv(t, "read start", started)
	}
	writeStarted := make(chan struct{}, 1)
	var readsSeenByWrite int32 = -1
	e.Push(func() error {
		writeStarted <- struct{}{}
		readsSeenByWrite = readsDone.Load()
		cell = 2
		return nil
	}, nil, vars(v))
	notYet(t, "the write while reads are blocked", writeStarted)
	assert.True(t, v.Pending(true))
	g.open()
	recv(t, "write start", writeStarted)
	require.NoError(t, waitToWrite(t, e, v))
	assert.EqualValues(t, n, readsSeenByWrite, "the write ran before every earlier read had finished")
	for i := range n {
		assert.Equal(t, 1, sum[i], "read %d saw the later write", i)
	}
	assert.Equal(t, 2, cell)
	require.NoError(t, waitAll(t, e))
}

// A mixed sequence on one Var: r r W r r W W r, with each op checking what it sees.
func TestEngineMixedSequenceOrder(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	var log opLog
	version := 0 // bumped by writes
	seen := map[string]int{}
	var seenMu sync.Mutex
	prog := "rrWrrWWrWr"
	writes := 0
	for i, k := range prog {
		id := fmt.Sprintf("%c%d", k, i)
		if k == 'W' {
			writes++
			want := writes
			e.Push(func() error {
				runtime.Gosched()
				version++
				log.add(id)
				if version != want {
					return fmt.Errorf("%s: version %d, want %d", id, version, want)
				}
				return nil
			}, nil, vars(v))
			continue
		}
		e.Push(func() error {
			runtime.Gosched()
			x := version
			seenMu.Lock()
			seen[id] = x
			seenMu.Unlock()
			log.add(id)
			return nil
		}, vars(v), nil)
	}
	require.NoError(t, waitAll(t, e))
	ids := log.get()
	require.Len(t, ids, len(prog))
	w := 0
	for i, k := range prog {
		id := fmt.Sprintf("%c%d", k, i)
		if k == 'W' {
			w++
			continue
		}
		assert.Equal(t, w, seen[id], "read %s saw the wrong version", id)
	}
	// Every write comes after every op pushed before it and before every op pushed after.
	for i, k := range prog {
		if k != 'W' {
			continue
		}
		wi := indexOf(ids, fmt.Sprintf("W%d", i))
		for j, k2 := range prog {
			other := indexOf(ids, fmt.Sprintf("%c%d", k2, j))
			if j < i {
				assert.Less(t, other, wi, "op %d ran after the write %d pushed later", j, i)
			} else if j > i {
				assert.Greater(t, other, wi, "op %d ran before the write %d pushed earlier", j, i)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------
// Parallelism

func TestEngineParallelReads(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	cell := 7
	n := parallelism()
	for round := range 3 {
		b := newBarrier(t, n)
		got := make([]int, n)
		for i := range n {
			e.Push(func() error { b.arrive(); got[i] = cell; return nil }, vars(v), nil)
		}
		b.await(t, fmt.Sprintf("round %d: %d reads of one Var", round, n))
		require.NoError(t, waitToWrite(t, e, v))
		for i := range n {
			assert.Equal(t, 7, got[i])
		}
	}
	require.NoError(t, waitAll(t, e))
}

func TestEngineIndependentVarsRunInParallel(t *testing.T) {
	e := threadedEngine(t)
	n := parallelism()
	vs := make([]*engine.Var, n)
	cells := make([]int, n)
	b := newBarrier(t, n)
	for i := range n {
		vs[i] = engine.NewVar()
		e.Push(func() error { b.arrive(); cells[i] = i + 1; return nil }, nil, vars(vs[i]))
	}
	b.await(t, fmt.Sprintf("writes of %d distinct Vars", n))
	require.NoError(t, waitAll(t, e))
	for i := range n {
		assert.Equal(t, i+1, cells[i])
	}

	// A write of x and a read of y run at the same time, as do two ops reading a shared
	// Var and writing different ones.
	x, y, z := engine.NewVar(), engine.NewVar(), engine.NewVar()
	b2 := newBarrier(t, 4)
	e.Push(func() error { b2.arrive(); return nil }, nil, vars(x))
	e.Push(func() error { b2.arrive(); return nil }, vars(y), nil)
	e.Push(func() error { b2.arrive(); return nil }, vars(z), vars(engine.NewVar()))
	e.Push(func() error { b2.arrive(); return nil }, vars(z), vars(engine.NewVar()))
	b2.await(t, "ops with no conflicting Vars")
	require.NoError(t, waitAll(t, e))
}

// ---------------------------------------------------------------------------------------
// Several Vars per op

func TestEngineMultipleReadsAndWrites(t *testing.T) {
	e := threadedEngine(t)
	a, b, c, d := engine.NewVar(), engine.NewVar(), engine.NewVar(), engine.NewVar()
	var log opLog
	g := newGate(t)
	ca, cb, cc, cd := 1, 2, 0, 0
	// op1 writes a and b and blocks.
	e.Push(func() error { g.wait(); ca, cb = 10, 20; log.add("w_ab"); return nil }, nil, vars(a, b))
	// op2 reads a and b, writes c: waits for op1.
	e.Push(func() error { cc = ca + cb; log.add("r_ab_w_c"); return nil }, vars(a, b), vars(c))
	// op3 reads only b, writes d: waits for op1.
	e.Push(func() error { cd = cb * 2; log.add("r_b_w_d"); return nil }, vars(b), vars(d))
	// op4 writes a: waits for op2's read of a (and op1).
	e.Push(func() error { ca = -1; log.add("w_a"); return nil }, nil, vars(a))
	// op5 reads c and d: waits for op2 and op3.
	sum := make(chan int, 1)
	e.Push(func() error { sum <- cc + cd; log.add("r_cd"); return nil }, vars(c, d), nil)

	// An op on an unrelated Var is not held up by the blocked op1.
	free := make(chan struct{}, 1)
	e.Push(func() error { free <- struct{}{}; return nil }, vars(engine.NewVar()), vars(engine.NewVar()))
	recv(t, "an unrelated op", free)
	assert.Empty(t, log.get())

	g.open()
	assert.Equal(t, 70, recv(t, "op5", sum))
	require.NoError(t, waitAll(t, e))
	ids := log.get()
	require.Len(t, ids, 5)
	assert.Equal(t, "w_ab", ids[0])
	assert.Less(t, indexOf(ids, "r_ab_w_c"), indexOf(ids, "w_a"))
	assert.Less(t, indexOf(ids, "r_ab_w_c"), indexOf(ids, "r_cd"))
	assert.Less(t, indexOf(ids, "r_b_w_d"), indexOf(ids, "r_cd"))
	assert.Equal(t, -1, ca)
}

// A Var in both reads and writes is written: it waits for earlier reads, and later reads
// wait for it.
func TestEngineVarInReadsAndWritesIsWritten(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	cell := 1
	g1 := newGate(t)
	readStarted := make(chan struct{}, 1)
	var readFinished atomic.Bool
	e.Push(func() error { readStarted <- struct{}{}; g1.wait(); _ = cell; readFinished.Store(true); return nil }, vars(v), nil)
	recv(t, "blocked read", readStarted)

	rwStarted := make(chan struct{}, 1)
	g2 := newGate(t)
	var rwSawRead bool
	e.Push(func() error {
		rwStarted <- struct{}{}
		rwSawRead = readFinished.Load()
		g2.wait()
		cell = cell * 5
		return nil
	}, vars(v), vars(v))
	notYet(t, "the read-write op while an earlier read is blocked", rwStarted)
	assert.True(t, v.Pending(false), "the read-write op counts as a pending write")

	g1.open()
	recv(t, "read-write start", rwStarted)
	// A read pushed now must wait for the read-write op (were it a plain read, it would
	// not: reads run in parallel).
	later := make(chan int, 1)
	e.Push(func() error { later <- cell; return nil }, vars(v), nil)
	notYet(t, "a read pushed after the blocked read-write op", later)
	g2.open()
	assert.Equal(t, 5, recv(t, "later read", later))
	assert.True(t, rwSawRead, "the read-write op started before the earlier read finished")
	require.NoError(t, waitAll(t, e))

	// Writes listed first and reads second, and a Var listed in reads of one op and
	// writes of a concurrent one: -race checks no overlap.
	for i := range 50 {
		e.Push(func() error { cell += i; return nil }, vars(v, v), vars(v))
		e.Push(func() error { _ = cell; return nil }, vars(v), nil)
	}
	require.NoError(t, waitAll(t, e))
}

func TestEngineDuplicateVars(t *testing.T) {
	e := threadedEngine(t)
	x, y := engine.NewVar(), engine.NewVar()
	var runs atomic.Int32
	cx, cy := 1, 0
	g := newGate(t)
	e.Push(func() error { g.wait(); cx = 3; return nil }, nil, vars(x, x, x))
	e.Push(func() error { runs.Add(1); cy = cx * 2; return nil }, vars(x, x, y, x), vars(y, y))
	e.Push(func() error { runs.Add(1); cy++; return nil }, vars(y, y), vars(y, x, y))
	g.open()
	require.NoError(t, waitToRead(t, e, y))
	assert.Equal(t, 7, cy)
	assert.EqualValues(t, 2, runs.Load(), "each op runs once however often its Vars repeat")
	require.NoError(t, waitAll(t, e))
	assert.False(t, x.Pending(true))
	assert.False(t, y.Pending(true))

	// An op with no Vars at all runs, and WaitAll waits for it.
	ran := false
	e.Push(func() error { ran = true; return nil }, nil, nil)
	require.NoError(t, waitAll(t, e))
	assert.True(t, ran)
}

// ---------------------------------------------------------------------------------------
// Waits

func TestEngineWaitToRead(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	require.NoError(t, waitToRead(t, e, v), "a fresh Var")

	// Waits for a pending write.
	cell := 0
	g := newGate(t)
	e.Push(func() error { g.wait(); cell = 42; return nil }, nil, vars(v))
	returned := make(chan error, 1)
	go func() { returned <- e.WaitToRead(v) }()
	notYet(t, "WaitToRead with a blocked write", returned)
	g.open()
	require.NoError(t, recv(t, "WaitToRead", returned))
	assert.Equal(t, 42, cell, "the write's effect is visible after WaitToRead")

	// Does not wait for pending reads.
	gr := newGate(t)
	readStarted := make(chan struct{}, 1)
	e.Push(func() error { readStarted <- struct{}{}; gr.wait(); _ = cell; return nil }, vars(v), nil)
	recv(t, "blocked read", readStarted)
	require.NoError(t, waitToRead(t, e, v), "WaitToRead must not wait for a blocked read")
	assert.Equal(t, 42, cell)

	// Waits for the newest of several writes (the last one queued behind the read).
	e.Push(func() error { cell = 43; return nil }, nil, vars(v))
	e.Push(func() error { cell = 44; return nil }, vars(v), vars(v))
	returned2 := make(chan error, 1)
	go func() { returned2 <- e.WaitToRead(v) }()
	notYet(t, "WaitToRead with writes queued behind a blocked read", returned2)
	gr.open()
	require.NoError(t, recv(t, "WaitToRead", returned2))
	assert.Equal(t, 44, cell)
	require.NoError(t, waitAll(t, e))
}

func TestEngineWaitToWrite(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	require.NoError(t, waitToWrite(t, e, v), "a fresh Var")

	// Waits for pending reads.
	n := parallelism()
	g := newGate(t)
	var readsDone atomic.Int32
	cell := 5
	for range n {
		e.Push(func() error { g.wait(); _ = cell; readsDone.Add(1); return nil }, vars(v), nil)
	}
	returned := make(chan error, 1)
	go func() { returned <- e.WaitToWrite(v) }()
	notYet(t, "WaitToWrite with blocked reads", returned)
	g.open()
	require.NoError(t, recv(t, "WaitToWrite", returned))
	assert.EqualValues(t, n, readsDone.Load())
	cell = 6 // safe now: -race would flag an unfinished read

	// Waits for pending writes.
	gw := newGate(t)
	e.Push(func() error { gw.wait(); cell = 9; return nil }, nil, vars(v))
	returned2 := make(chan error, 1)
	go func() { returned2 <- e.WaitToWrite(v) }()
	notYet(t, "WaitToWrite with a blocked write", returned2)
	gw.open()
	require.NoError(t, recv(t, "WaitToWrite", returned2))
	assert.Equal(t, 9, cell)

	// Waits for reads pushed after the last write has finished.
	gr := newGate(t)
	e.Push(func() error { gr.wait(); _ = cell; return nil }, vars(v), nil)
	returned3 := make(chan error, 1)
	go func() { returned3 <- e.WaitToWrite(v) }()
	notYet(t, "WaitToWrite with a read after a finished write", returned3)
	gr.open()
	require.NoError(t, recv(t, "WaitToWrite", returned3))
	cell = 10
	require.NoError(t, waitAll(t, e))
}

func TestEngineWaitAll(t *testing.T) {
	e := threadedEngine(t)
	require.NoError(t, waitAll(t, e), "an idle engine")
	g := newGate(t)
	var done atomic.Int32
	vs := []*engine.Var{engine.NewVar(), engine.NewVar(), engine.NewVar()}
	for i := range 30 {
		r, w := vs[i%3], vs[(i+1)%3]
		e.Push(func() error { g.wait(); done.Add(1); return nil }, vars(r), vars(w))
		e.Push(func() error { done.Add(1); return nil }, vars(engine.NewVar()), nil)
	}
	returned := make(chan error, 1)
	go func() { returned <- e.WaitAll() }()
	notYet(t, "WaitAll with blocked ops", returned)
	g.open()
	require.NoError(t, recv(t, "WaitAll", returned))
	assert.EqualValues(t, 60, done.Load())
	for _, v := range vs {
		assert.False(t, v.Pending(true))
	}
}

// Push from inside a running op is allowed, including ops that depend on the running op
// itself; WaitAll waits for them too.
func TestEngineNestedPush(t *testing.T) {
	e := threadedEngine(t)
	v, w := engine.NewVar(), engine.NewVar()
	cv, cw := 0, 0
	var total atomic.Int32
	var push func(depth int)
	push = func(depth int) {
		e.Push(func() error {
			total.Add(1)
			if depth < 3 {
				for range 3 {
					push(depth + 1) // independent ops
				}
			}
			return nil
		}, vars(engine.NewVar()), vars(engine.NewVar()))
	}
	push(0)

	// An op writing v pushes a read of v and a write of w that reads v: both depend on the
	// pushing op, which is still running, so they must run after it (and see cv = 1 even
	// though it is set after the nested Push calls).
	seen := make(chan int, 2)
	e.Push(func() error {
		e.Push(func() error { seen <- cv; return nil }, vars(v), nil)
		e.Push(func() error { cw = cv + 1; seen <- cw; return nil }, vars(v), vars(w))
		cv = 1
		return nil
	}, nil, vars(v))

	require.NoError(t, waitAll(t, e))
	assert.EqualValues(t, 1+3+9+27, total.Load(), "WaitAll returned before nested ops ran")
	got := []int{recv(t, "nested read", seen), recv(t, "nested write", seen)}
	assert.ElementsMatch(t, []int{1, 2}, got)
	assert.Equal(t, 2, cw)
	assert.False(t, v.Pending(true))
	assert.False(t, w.Pending(true))
}

func TestEnginePending(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	assert.False(t, v.Pending(false))
	assert.False(t, v.Pending(true))

	g := newGate(t)
	e.Push(func() error { g.wait(); return nil }, nil, vars(v))
	assert.True(t, v.Pending(false), "blocked write")
	assert.True(t, v.Pending(true), "blocked write")
	g.open()
	require.NoError(t, waitToRead(t, e, v))
	assert.False(t, v.Pending(false))
	assert.False(t, v.Pending(true))

	gr := newGate(t)
	started := make(chan struct{}, 1)
	e.Push(func() error { started <- struct{}{}; gr.wait(); return nil }, vars(v), nil)
	recv(t, "blocked read", started)
	assert.False(t, v.Pending(false), "a blocked read is no pending write")
	assert.True(t, v.Pending(true), "a blocked read is pending for a writer")
	gr.open()
	require.NoError(t, waitToWrite(t, e, v))
	assert.False(t, v.Pending(false))
	assert.False(t, v.Pending(true))

	// A Var holding an error reports pending work until a wait returns the error, so a
	// caller that checks Pending before waiting still gets the error.
	boom := errors.New("pending-error")
	u := engine.NewVar()
	e.Push(func() error { return boom }, vars(u), vars(v))
	e.Push(func() error { return nil }, nil, vars(u)) // runs after the failing op's read of u
	require.NoError(t, waitToWrite(t, e, u))
	assert.True(t, v.Pending(false), "a Var holding an error")
	assert.True(t, v.Pending(true), "a Var holding an error")
	require.Same(t, boom, waitToRead(t, e, v))
	assert.False(t, v.Pending(false))
	assert.False(t, v.Pending(true))
	require.NoError(t, waitAll(t, e), "the wait on v raised it")
}

// Busy counts running operations and errors not yet raised: C code exports without
// calling Go only while it is zero, so it must never read zero while a wait could block
// or fail, and must come back to zero once everything is waited for.
func TestEngineBusy(t *testing.T) {
	for name, e := range map[string]*engine.Engine{"threaded": threadedEngine(t), "naive": naiveEngine(t)} {
		t.Run(name, func(t *testing.T) {
			var mirror atomic.Int64
			mirror.Store(-99) // overwritten: MirrorBusy carries the current count over
			e.MirrorBusy(&mirror)
			assert.Zero(t, mirror.Load())
			v, u := engine.NewVar(), engine.NewVar()
			if !e.Naive() {
				g := newGate(t)
				e.Push(func() error { g.wait(); return nil }, nil, vars(v))
				e.Push(func() error { return nil }, vars(v), nil)
				assert.Equal(t, int64(2), mirror.Load(), "two operations pending")
				g.open()
				require.NoError(t, waitToWrite(t, e, v))
				require.NoError(t, waitAll(t, e))
				assert.Zero(t, mirror.Load())
			}
			boom := errors.New("busy-error")
			e.Push(func() error { return boom }, nil, vars(u, v))
			require.Eventually(t, func() bool { return e.Busy() == 1 }, 5*time.Second, time.Millisecond,
				"one error (on u and v) waits to be raised")
			assert.Equal(t, int64(1), mirror.Load())
			require.ErrorIs(t, waitToRead(t, e, u), boom)
			assert.Zero(t, mirror.Load(), "raised: no wait can fail now")
			require.NoError(t, waitToRead(t, e, v), "raised once, at u")
			require.NoError(t, waitAll(t, e))
			assert.Zero(t, mirror.Load())

			// Errors WaitAll raises leave the count too, and the Vars they reached quiet.
			e.Push(func() error { return boom }, nil, vars(u))
			e.Push(func() error { return boom }, nil, vars(v))
			require.Eventually(t, func() bool { return e.Busy() == 2 }, 5*time.Second, time.Millisecond)
			require.ErrorIs(t, waitAll(t, e), boom)
			assert.Zero(t, mirror.Load())
			assert.False(t, u.Pending(true))
			assert.False(t, v.Pending(true))
		})
	}
}

// RunNow runs on the caller exactly when nothing it would wait for is pending, holds
// its error like a pushed operation's, and keeps pushes from overtaking it.
func TestEngineRunNow(t *testing.T) {
	e := threadedEngine(t)
	v, w := engine.NewVar(), engine.NewVar()
	ran := 0
	require.True(t, e.RunNow(func() error { ran++; return nil }, vars(v), vars(w)))
	assert.Equal(t, 1, ran, "ran on the caller, before RunNow returned")

	g := newGate(t)
	e.Push(func() error { g.wait(); return nil }, nil, vars(v)) // a pending write of v
	assert.False(t, e.RunNow(func() error { ran++; return nil }, vars(v), nil), "a read waits for the write")
	assert.False(t, e.RunNow(func() error { ran++; return nil }, nil, vars(v)), "so does a write")
	assert.True(t, e.RunNow(func() error { ran++; return nil }, vars(w), nil), "other Vars are free")
	g.open()
	require.NoError(t, waitAll(t, e))

	gr := newGate(t)
	started := make(chan struct{}, 1)
	e.Push(func() error { started <- struct{}{}; gr.wait(); return nil }, vars(v), nil) // a pending read
	recv(t, "blocked read", started)
	assert.True(t, e.RunNow(func() error { ran++; return nil }, vars(v), nil), "reads run beside reads")
	assert.False(t, e.RunNow(func() error { ran++; return nil }, nil, vars(v)), "a write waits for reads")
	gr.open()
	require.NoError(t, waitAll(t, e))
	assert.Equal(t, 3, ran)

	// Errors and panics are held for the next wait, as a pushed operation's are; a Var
	// holding one is not quiet.
	boom := errors.New("run-now")
	require.True(t, e.RunNow(func() error { return boom }, nil, vars(v)))
	assert.False(t, e.RunNow(func() error { ran++; return nil }, vars(v), nil))
	require.ErrorIs(t, waitToRead(t, e, v), boom)
	require.True(t, e.RunNow(func() error { panic("run-now panic") }, nil, vars(w)))
	err := waitToWrite(t, e, w)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run-now panic")
	assert.Zero(t, e.Busy())
	require.NoError(t, waitAll(t, e), "both raised by their waits")

	// A push made while RunNow runs is wired after it: a write to v waits for it.
	inside, release := make(chan struct{}), make(chan struct{})
	order := make(chan string, 2)
	go e.RunNow(func() error { close(inside); <-release; order <- "run-now"; return nil }, vars(v), nil)
	<-inside
	pushed := make(chan struct{})
	go func() { e.Push(func() error { order <- "push"; return nil }, nil, vars(v)); close(pushed) }()
	time.Sleep(20 * time.Millisecond)
	close(release)
	recv(t, "push", pushed)
	require.NoError(t, waitAll(t, e))
	assert.Equal(t, "run-now", <-order)
	assert.Equal(t, "push", <-order)
}

// ---------------------------------------------------------------------------------------
// Errors

// engineTestError is a custom error type, to check errors keep their type.
type engineTestError struct{ msg string }

func (e *engineTestError) Error() string { return e.msg }

func TestEngineErrorAtNextWaitOnce(t *testing.T) {
	e := threadedEngine(t)
	in, v, w := engine.NewVar(), engine.NewVar(), engine.NewVar()
	boom := &engineTestError{"kernel failed: shape (2,3) vs (4,)"}
	e.Push(func() error { return boom }, vars(in), vars(v, w))

	err := waitToRead(t, e, v)
	require.Error(t, err)
	var te *engineTestError
	require.ErrorAs(t, err, &te, "the error keeps its type")
	assert.Same(t, boom, te)
	assert.Equal(t, boom.msg, err.Error())
	assert.NoError(t, waitToRead(t, e, v), "an error is raised once")
	assert.NoError(t, waitToWrite(t, e, v), "an error is raised once")
	assert.NoError(t, waitToWrite(t, e, w), "once in all: w held the same error")
	assert.NoError(t, waitToRead(t, e, w))
	assert.NoError(t, waitToRead(t, e, in), "a Var the failing op only read holds no error")
	require.NoError(t, waitAll(t, e), "nor does WaitAll raise it again")

	// Every written Var holds it: a wait on w raises it as well as one on v would.
	e.Push(func() error { return boom }, vars(in), vars(v, w))
	err = waitToWrite(t, e, w)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, boom.msg, err.Error())
	assert.NoError(t, waitToRead(t, e, v))

	// Ops on these Vars run normally again.
	ran := false
	e.Push(func() error { ran = true; return nil }, vars(v, in), vars(w))
	require.NoError(t, waitToRead(t, e, w))
	assert.True(t, ran)
	require.NoError(t, waitAll(t, e))
}

func TestEngineWaitAllReturnsFirstErrorAndClearsAll(t *testing.T) {
	e := threadedEngine(t)
	r, x, y := engine.NewVar(), engine.NewVar(), engine.NewVar()
	errA, errB := errors.New("first failure"), errors.New("second failure")
	// A reads r and writes x; B writes r, so it runs after A (but inherits nothing: A
	// only read r) and fails on its own.
	bRan := false
	e.Push(func() error { return errA }, vars(r), vars(x))
	e.Push(func() error { bRan = true; return errB }, nil, vars(r, y))
	err := waitAll(t, e)
	require.ErrorIs(t, err, errA)
	assert.Equal(t, "first failure", err.Error())
	assert.True(t, bRan)
	for i, v := range []*engine.Var{r, x, y} {
		assert.NoError(t, waitToRead(t, e, v), "WaitAll clears the error of Var %d", i)
		assert.False(t, v.Pending(true))
	}
	assert.NoError(t, waitAll(t, e))

	// Independent failures: WaitAll returns one of them and clears both.
	p, q := engine.NewVar(), engine.NewVar()
	errP, errQ := errors.New("p"), errors.New("q")
	e.Push(func() error { return errP }, nil, vars(p))
	e.Push(func() error { return errQ }, nil, vars(q))
	err = waitAll(t, e)
	require.Error(t, err)
	assert.True(t, errors.Is(err, errP) || errors.Is(err, errQ), "got %v", err)
	assert.NoError(t, waitToRead(t, e, p))
	assert.NoError(t, waitToRead(t, e, q))
	assert.NoError(t, waitAll(t, e))
}

func TestEngineErrorPropagates(t *testing.T) {
	e := threadedEngine(t)
	x, y, z, other := engine.NewVar(), engine.NewVar(), engine.NewVar(), engine.NewVar()
	boom := &engineTestError{"upstream failed"}
	g := newGate(t)
	e.Push(func() error { g.wait(); return boom }, nil, vars(x))
	var ranY, ranZ, ranX2, ranRead, ranOther atomic.Bool
	e.Push(func() error { ranY.Store(true); return nil }, vars(x, other), vars(y)) // reads x
	e.Push(func() error { ranZ.Store(true); return nil }, vars(y), vars(z))        // reads y
	e.Push(func() error { ranRead.Store(true); return nil }, vars(z), nil)         // only reads
	e.Push(func() error { ranOther.Store(true); return nil }, vars(other), nil)    // unrelated
	e.Push(func() error { ranX2.Store(true); return nil }, nil, vars(x))           // writes x
	g.open()

	errZ := waitToWrite(t, e, z)
	require.ErrorIs(t, errZ, boom, "an op reading a failed Var passes the error on down the chain")
	assert.Equal(t, boom.msg, errZ.Error())
	require.NoError(t, waitToRead(t, e, y), "raised at z, so nowhere else")
	require.NoError(t, waitToRead(t, e, x))
	require.NoError(t, waitToWrite(t, e, other))
	assert.False(t, ranY.Load(), "an op reading a Var holding an error must not run")
	assert.False(t, ranZ.Load())
	assert.False(t, ranRead.Load())
	assert.False(t, ranX2.Load(), "an op writing a Var holding an error must not run")
	assert.True(t, ranOther.Load())
	require.NoError(t, waitAll(t, e))

	// Raised, the error is gone: x, y, z are usable again.
	cx := 0
	e.Push(func() error { cx = 1; return nil }, nil, vars(x))
	e.Push(func() error { ranY.Store(true); return nil }, vars(x), vars(y))
	require.NoError(t, waitToRead(t, e, y))
	assert.True(t, ranY.Load())
	assert.Equal(t, 1, cx)
	require.NoError(t, waitAll(t, e))
}

// failBesideGate pushes, on a threaded engine, a write of q that waits for the gate and
// a write of x that fails with boom.
func failBesideGate(t *testing.T) (e *engine.Engine, x, q *engine.Var, gq *gate, boom error) {
	e = threadedEngine(t)
	x, q = engine.NewVar(), engine.NewVar()
	boom = errors.New("boom")
	gq = newGate(t)
	e.Push(func() error { gq.wait(); return nil }, nil, vars(q))
	e.Push(func() error { return boom }, nil, vars(x))
	return e, x, q, gq, boom
}

// Whether an op inherits an error is fixed by program order, not by timing: a reader of a
// failed op's output that is still queued (here behind a blocked write of its other
// input) must not run even if a wait has meanwhile raised the error.
func TestEngineErrorReachesQueuedReaderAfterWait(t *testing.T) {
	e, x, q, gq, boom := failBesideGate(t)
	y, z := engine.NewVar(), engine.NewVar()
	var ranY, ranZ atomic.Bool
	e.Push(func() error { ranY.Store(true); return nil }, vars(x), vars(y))
	e.Push(func() error { ranZ.Store(true); return nil }, vars(y, q), vars(z)) // queued behind q

	require.ErrorIs(t, waitToRead(t, e, y), boom)
	gq.open()
	require.NoError(t, waitToRead(t, e, z), "raised at y")
	assert.False(t, ranY.Load())
	assert.False(t, ranZ.Load(), "an op reading the output of a failed op ran")
	require.NoError(t, waitToRead(t, e, x))
	require.NoError(t, waitAll(t, e))
}

// The other side of program order: an op pushed after a wait raised the error runs, even
// when what it reads is the output of an op that inherited the error and is still queued.
// Its caller has seen the error (and may have mended the memory): as in MXNet 1.x.
func TestEngineOpPushedAfterTheRaiseRuns(t *testing.T) {
	e, x, q, gq, boom := failBesideGate(t)
	y, z := engine.NewVar(), engine.NewVar()
	var ranY, ranZ, ranX atomic.Bool
	e.Push(func() error { ranY.Store(true); return nil }, vars(x, q), vars(y)) // inherits; queued behind q
	require.ErrorIs(t, waitToRead(t, e, x), boom)
	e.Push(func() error { ranZ.Store(true); return nil }, vars(y), vars(z)) // after the raise
	e.Push(func() error { ranX.Store(true); return nil }, nil, vars(x))
	gq.open()
	require.NoError(t, waitToRead(t, e, z))
	require.NoError(t, waitToRead(t, e, y), "raised at x")
	require.NoError(t, waitToRead(t, e, x))
	assert.False(t, ranY.Load(), "pushed before the raise")
	assert.True(t, ranZ.Load(), "pushed after the raise, behind a skipped op")
	assert.True(t, ranX.Load(), "pushed after the raise")
	require.NoError(t, waitAll(t, e))
}

// Of two errors reaching one op, it inherits the one pushed first, whichever failed first.
func TestEngineEarliestErrorWins(t *testing.T) {
	for _, aFailsFirst := range []bool{true, false} {
		e := threadedEngine(t)
		a, b, c := engine.NewVar(), engine.NewVar(), engine.NewVar()
		errA, errB := errors.New("pushed first"), errors.New("pushed second")
		ga, gb := newGate(t), newGate(t)
		e.Push(func() error { ga.wait(); return errA }, nil, vars(a))
		e.Push(func() error { gb.wait(); return errB }, nil, vars(b))
		e.Push(func() error { return nil }, vars(a, b), vars(c))
		// a reader of each, skipped once its input has failed: its cleanup says so
		failed := make(chan struct{}, 2)
		noted := func(bool) { failed <- struct{}{} }
		e.PushCleanup(func() error { return nil }, noted, vars(a), nil)
		e.PushCleanup(func() error { return nil }, noted, vars(b), nil)
		first, second := ga, gb
		if !aFailsFirst {
			first, second = gb, ga
		}
		first.open()
		recv(t, "the first failure", failed)
		second.open()
		require.ErrorIs(t, waitToRead(t, e, c), errA, "a failed first: %v", aFailsFirst)
		require.NoError(t, waitToRead(t, e, a))
		require.ErrorIs(t, waitToRead(t, e, b), errB)
		require.NoError(t, waitAll(t, e))
	}
}

// A wait raises only the error it meets; WaitAll raises the others.
func TestEngineWaitRaisesOnlyItsError(t *testing.T) {
	e := threadedEngine(t)
	mine, theirs := engine.NewVar(), engine.NewVar()
	errMine, errTheirs := errors.New("mine"), errors.New("theirs")
	e.Push(func() error { return errMine }, nil, vars(mine))
	e.Push(func() error { return errTheirs }, nil, vars(theirs))
	require.ErrorIs(t, e.WaitToRead(mine), errMine)
	assert.ErrorIs(t, waitAll(t, e), errTheirs)
	assert.NoError(t, waitAll(t, e))
	assert.NoError(t, e.WaitToRead(theirs), "WaitAll raised it")
}

func TestEnginePanicBecomesError(t *testing.T) {
	e := threadedEngine(t)
	v := engine.NewVar()
	e.Push(func() error { panic("kaboom in kernel") }, nil, vars(v))
	err := waitToRead(t, e, v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "panicked")
	assert.Contains(t, err.Error(), "kaboom in kernel")
	require.NoError(t, waitAll(t, e), "raised by the wait")

	// Runtime panics too (index out of range), from several ops at once.
	n := parallelism()
	outs := make([]*engine.Var, n)
	for i := range n {
		outs[i] = engine.NewVar()
		e.Push(func() error {
			var s []int
			_ = s[i+5]
			return nil
		}, nil, vars(outs[i]))
	}
	for i := range n {
		err := waitToWrite(t, e, outs[i])
		require.Error(t, err)
		assert.Contains(t, err.Error(), "panicked")
		assert.Contains(t, err.Error(), "index out of range")
	}
	require.NoError(t, waitAll(t, e))

	// The engine keeps working: ordering, parallel reads and waits as before.
	cell := 0
	for i := range 50 {
		e.Push(func() error { cell += i; return nil }, nil, vars(v))
	}
	b := newBarrier(t, 2)
	e.Push(func() error { b.arrive(); return nil }, vars(v), nil)
	e.Push(func() error { b.arrive(); return nil }, vars(v), nil)
	b.await(t, "parallel reads after panics")
	require.NoError(t, waitToWrite(t, e, v))
	assert.Equal(t, 50*49/2, cell)
	require.NoError(t, waitAll(t, e))
}

// ---------------------------------------------------------------------------------------
// Naive mode

func TestEngineNaiveMode(t *testing.T) {
	e := naiveEngine(t)
	v, w := engine.NewVar(), engine.NewVar()
	ran := false
	e.Push(func() error { ran = true; return nil }, nil, vars(v))
	assert.True(t, ran, "Push returns only after the op ran")
	assert.False(t, v.Pending(true))

	var log opLog
	cell := 0
	for i := range 20 {
		id := strconv.Itoa(i)
		switch i % 3 {
		case 0:
			e.Push(func() error { cell = cell*2 + 1; log.add(id); return nil }, vars(w), vars(v))
		case 1:
			e.Push(func() error { _ = cell; log.add(id); return nil }, vars(v), nil)
		case 2:
			e.Push(func() error { log.add(id); return nil }, vars(v), vars(w))
		}
		ids := log.get()
		require.Len(t, ids, i+1, "op %d had not run when Push returned", i)
		assert.Equal(t, id, ids[i])
	}
	assert.Equal(t, 127, cell)

	// Errors behave as in the threaded engine.
	boom := errors.New("naive failure")
	e.Push(func() error { return boom }, nil, vars(v))
	assert.True(t, v.Pending(false), "v holds an error")
	ranAfter := false
	e.Push(func() error { ranAfter = true; return nil }, vars(v), vars(w))
	assert.False(t, ranAfter)
	require.ErrorIs(t, waitToRead(t, e, w), boom)
	require.NoError(t, waitToRead(t, e, v), "raised once, at w")
	require.NoError(t, waitAll(t, e))
	e.Push(func() error { panic("naive panic") }, nil, vars(v))
	err := waitToWrite(t, e, v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "panicked")
	e.Push(func() error { return boom }, nil, vars(v))
	require.ErrorIs(t, waitAll(t, e), boom)
	require.NoError(t, waitAll(t, e))

	// Pushes from several goroutines at once are each synchronous.
	var wg sync.WaitGroup
	var count atomic.Int32
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				done := false
				e.Push(func() error { done = true; count.Add(1); return nil }, vars(w), vars(engine.NewVar()))
				if !done {
					panic("naive Push returned before its op ran")
				}
			}
		}()
	}
	within(t, "concurrent naive pushes", wg.Wait)
	assert.EqualValues(t, 200, count.Load())
	require.NoError(t, waitAll(t, e))
}

// ---------------------------------------------------------------------------------------
// Concurrent pushers

// Pushes from several goroutines at once (Python threads with the GIL released, or ops
// pushing from inside the engine) must never wire a dependency cycle: here one goroutine
// pushes "read x, write y" and another "read y, write x" (and writes of {x, y} in opposite
// orders). Whatever order the engine picks, every op must run and -race must see no
// overlap of conflicting ops.
func TestEngineConcurrentPushersNoDeadlock(t *testing.T) {
	e := threadedEngine(t)
	x, y := engine.NewVar(), engine.NewVar()
	cx, cy := 0, 0
	const n = 2000
	var ran atomic.Int32
	start := newGate(t)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start.wait()
		for i := range n {
			if i%2 == 0 {
				e.Push(func() error { cy = cx + 1; ran.Add(1); return nil }, vars(x), vars(y))
			} else {
				e.Push(func() error { cx, cy = cx+1, cy+1; ran.Add(1); return nil }, nil, vars(x, y))
			}
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		start.wait()
		for i := range n {
			if i%2 == 0 {
				e.Push(func() error { cx = cy + 1; ran.Add(1); return nil }, vars(y), vars(x))
			} else {
				e.Push(func() error { cx, cy = cx+1, cy+1; ran.Add(1); return nil }, nil, vars(y, x))
			}
		}
	}()
	start.open()
	within(t, "pushing", wg.Wait)
	require.NoError(t, waitAll(t, e))
	assert.EqualValues(t, 2*n, ran.Load())
}

// ---------------------------------------------------------------------------------------
// Randomized differential tests: random programs over int64 cells, one Var per cell, run
// on the engine and sequentially, must end (and agree at every wait) with equal cells.

const (
	progVars = 8
	progOps  = 200
)

type progOp struct {
	kind   int // pushOp, waitReadOp, waitWriteOp, waitAllOp
	reads  []int
	writes []int
	mul    []int64
	add    int64
	fail   int // 0 ok, 1 returns an error after writing, 2 panics before writing
	id     int
	target int   // waitReadOp, waitWriteOp
	value  int64 // waitWriteOp: value the host writes
}

const (
	pushOp = iota
	waitReadOp
	waitWriteOp
	waitAllOp
)

// opErr is a failing op's error; its message names the op.
type opErr struct{ id int }

func (e *opErr) Error() string { return fmt.Sprintf("op#%d# failed", e.id) }

var opIDRe = regexp.MustCompile(`op#(\d+)#`)

func randVarList(r *rand.Rand, maxLen int) []int {
	out := make([]int, r.Intn(maxLen+1))
	for i := range out {
		out[i] = r.Intn(progVars)
	}
	return out
}

func randProgram(r *rand.Rand, withWaits, withErrors bool) []progOp {
	prog := make([]progOp, progOps)
	for i := range prog {
		op := progOp{id: i, kind: pushOp}
		if withWaits {
			switch x := r.Intn(100); {
			case x < 4:
				op.kind = waitReadOp
			case x < 7:
				op.kind = waitWriteOp
			case x < 8:
				op.kind = waitAllOp
			}
		}
		op.target = r.Intn(progVars)
		op.value = r.Int63n(1000)
		op.reads = randVarList(r, 3)
		op.writes = randVarList(r, 2)
		if len(op.writes) == 0 && r.Intn(2) == 0 {
			op.writes = []int{r.Intn(progVars)}
		}
		op.mul = make([]int64, len(op.reads))
		for j := range op.mul {
			op.mul[j] = r.Int63n(7) - 3
		}
		op.add = r.Int63n(100)
		if withErrors {
			switch x := r.Intn(100); {
			case x < 3:
				op.fail = 1
			case x < 5:
				op.fail = 2
			}
		}
		prog[i] = op
	}
	return prog
}

// body is op's work on cells: it reads op.reads (and the cells it writes) and writes
// op.writes, in list order, duplicates included.
func (op *progOp) body(cells *[progVars]int64) error {
	if op.fail == 2 {
		panic(&opErr{op.id})
	}
	s := op.add
	for j, rd := range op.reads {
		s = s*31 + cells[rd]*op.mul[j]
	}
	for j, wr := range op.writes {
		cells[wr] = cells[wr]*7 + s + int64(j)
		s ^= cells[wr] >> 3
	}
	if op.fail == 1 {
		return &opErr{op.id}
	}
	return nil
}

func varsOf(vs []*engine.Var, idx []int) []*engine.Var {
	out := make([]*engine.Var, len(idx))
	for i, x := range idx {
		out[i] = vs[x]
	}
	return out
}

// errIDs returns the op ids an error names (a returned opErr or a panic of one).
func errID(t *testing.T, err error) int {
	t.Helper()
	m := opIDRe.FindStringSubmatch(err.Error())
	require.NotNil(t, m, "error %q names no op", err)
	id, _ := strconv.Atoi(m[1])
	return id
}

// runProgram runs prog on e and sequentially at once, checking cells and errors at every
// wait and at the end. Program order alone decides which ops fail and which error each
// wait raises: an op fails with its own error, or inherits the earliest error not yet
// raised among those the last writers of the Vars it touches carry; the first wait that
// meets an error raises it, and then no wait does.
func runProgram(t *testing.T, e *engine.Engine, prog []progOp, seed int64) {
	t.Helper()
	var cells, ref [progVars]int64
	for i := range progVars {
		cells[i] = int64(i + 1)
		ref[i] = int64(i + 1)
	}
	vs := make([]*engine.Var, progVars)
	for i := range vs {
		vs[i] = engine.NewVar()
	}
	// carry[v]: the failing op whose error v's last write carries, or -1.
	carry := make([]int, progVars)
	for i := range carry {
		carry[i] = -1
	}
	raised := map[int]bool{} // failing op -> whether a wait has raised its error
	live := func(id int) bool { return id >= 0 && !raised[id] }

	// checkRoot checks that err is the error of the failing op id, as that op raised it.
	checkRoot := func(err error, id, at int) {
		require.NotEqual(t, 0, prog[id].fail, "seed %d op %d: got the error of op %d, which did not fail", seed, at, id)
		if prog[id].fail == 1 {
			var oe *opErr
			require.ErrorAs(t, err, &oe, "seed %d op %d: the error lost its type", seed, at)
			require.Equal(t, id, oe.id)
		} else {
			require.Contains(t, err.Error(), "panicked")
		}
	}
	// checkVarErr checks what a wait on Var v raised at step at.
	checkVarErr := func(err error, v, at int) {
		id := carry[v]
		carry[v] = -1
		if !live(id) {
			require.NoError(t, err, "seed %d op %d: Var %d (carries %d)", seed, at, v, id)
			return
		}
		require.Error(t, err, "seed %d op %d: Var %d should raise op %d's error", seed, at, v, id)
		require.Equal(t, id, errID(t, err), "seed %d op %d: Var %d: %v", seed, at, v, err)
		checkRoot(err, id, at)
		raised[id] = true
	}
	checkWaitAll := func(at int) {
		err := waitAll(t, e)
		pending := false
		for _, r := range raised {
			pending = pending || !r
		}
		if pending {
			require.Error(t, err, "seed %d op %d: WaitAll", seed, at)
			id := errID(t, err)
			require.True(t, live(id), "seed %d op %d: WaitAll raised op %d's error, raised before or never made", seed, at, id)
			checkRoot(err, id, at)
		} else {
			require.NoError(t, err, "seed %d op %d: WaitAll", seed, at)
		}
		for id := range raised {
			raised[id] = true
		}
	}

	for i := range prog {
		op := &prog[i]
		switch op.kind {
		case pushOp:
			e.Push(func() error { return op.body(&cells) }, varsOf(vs, op.reads), varsOf(vs, op.writes))
			failed := -1
			for _, x := range append(append([]int(nil), op.reads...), op.writes...) {
				if id := carry[x]; live(id) && (failed < 0 || id < failed) {
					failed = id
				}
			}
			if failed < 0 {
				func() {
					defer func() {
						if recover() != nil {
							failed = op.id
						}
					}()
					if op.body(&ref) != nil {
						failed = op.id
					}
				}()
				if failed == op.id {
					raised[op.id] = false
				}
			}
			for _, w := range op.writes {
				carry[w] = failed
			}
		case waitReadOp:
			checkVarErr(waitToRead(t, e, vs[op.target]), op.target, i)
			require.Equal(t, ref[op.target], cells[op.target], "seed %d op %d: cell %d after WaitToRead", seed, i, op.target)
		case waitWriteOp:
			checkVarErr(waitToWrite(t, e, vs[op.target]), op.target, i)
			require.Equal(t, ref[op.target], cells[op.target], "seed %d op %d: cell %d after WaitToWrite", seed, i, op.target)
			cells[op.target] = op.value // the host writes the memory
			ref[op.target] = op.value
		case waitAllOp:
			checkWaitAll(i)
			require.Equal(t, ref, cells, "seed %d op %d: cells after WaitAll", seed, i)
		}
	}

	// Every Var's wait (each error raised once), then WaitAll's, then the cells.
	for v := range progVars {
		checkVarErr(waitToRead(t, e, vs[v]), v, len(prog))
		require.NoError(t, waitToRead(t, e, vs[v]), "seed %d: Var %d raised twice", seed, v)
	}
	checkWaitAll(len(prog))
	require.Equal(t, ref, cells, "seed %d: final cells", seed)
	require.NoError(t, waitAll(t, e), "seed %d", seed)
	for v := range progVars {
		require.False(t, vs[v].Pending(true), "seed %d: Var %d", seed, v)
	}
	require.Zero(t, e.Busy(), "seed %d", seed)
}

func TestEngineRandomProgramsMatchSequential(t *testing.T) {
	e := threadedEngine(t)
	for p := range 200 {
		seed := int64(1000 + p)
		runProgram(t, e, randProgram(rand.New(rand.NewSource(seed)), true, false), seed)
	}
}

func TestEngineRandomProgramsWithErrors(t *testing.T) {
	e := threadedEngine(t)
	for p := range 200 {
		seed := int64(5000 + p)
		runProgram(t, e, randProgram(rand.New(rand.NewSource(seed)), true, true), seed)
	}
}

func TestEngineRandomProgramsNaive(t *testing.T) {
	e := naiveEngine(t)
	for p := range 30 {
		seed := int64(9000 + p)
		r := rand.New(rand.NewSource(seed))
		runProgram(t, e, randProgram(r, true, p%2 == 1), seed)
	}
}

// Random programs pushed by several goroutines at once, each over its own cells but
// sharing some read-only Vars: each goroutine's result must match its own sequential run.
func TestEngineRandomProgramsConcurrentPushers(t *testing.T) {
	e := threadedEngine(t)
	shared := []*engine.Var{engine.NewVar(), engine.NewVar()}
	sharedCells := []int64{11, 13}
	const pushers = 4
	var wg sync.WaitGroup
	failures := make(chan string, pushers)
	for g := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(20000 + g)))
			var cells, ref [progVars]int64
			vs := make([]*engine.Var, progVars)
			for i := range vs {
				vs[i] = engine.NewVar()
			}
			for range 2000 {
				reads, writes := randVarList(r, 3), randVarList(r, 2)
				sh := r.Intn(3) // 2: no shared read
				k := r.Int63n(5)
				f := func(c *[progVars]int64) {
					s := k
					if sh < 2 {
						s += sharedCells[sh]
					}
					for _, rd := range reads {
						s = s*3 + c[rd]
					}
					for _, wr := range writes {
						c[wr] = c[wr]*5 + s
					}
				}
				rv := varsOf(vs, reads)
				if sh < 2 {
					rv = append(rv, shared[sh])
				}
				e.Push(func() error { f(&cells); return nil }, rv, varsOf(vs, writes))
				f(&ref)
			}
			for i := range vs {
				if err := e.WaitToRead(vs[i]); err != nil {
					failures <- err.Error()
					return
				}
			}
			if cells != ref {
				failures <- fmt.Sprintf("pusher %d: cells %v, want %v", g, cells, ref)
			}
		}()
	}
	within(t, "concurrent random programs", wg.Wait)
	close(failures)
	var msgs []string
	for m := range failures {
		msgs = append(msgs, m)
	}
	require.Empty(t, msgs, strings.Join(msgs, "\n"))
	require.NoError(t, waitAll(t, e))
}

// TestEnginePushCleanupRunsOnceEitherWay: the cleanup of an operation runs after fn, or
// instead of it when a failed dependency makes the engine skip fn, and before waits return.
func TestEnginePushCleanupRunsOnceEitherWay(t *testing.T) {
	t.Setenv("MXGO_ENGINE", "")
	e := engine.New()
	v := engine.NewVar()
	var mu sync.Mutex
	var calls []bool
	record := func(ran bool) {
		mu.Lock()
		calls = append(calls, ran)
		mu.Unlock()
	}
	e.PushCleanup(func() error { return errors.New("boom") }, record, nil, []*engine.Var{v})
	e.PushCleanup(func() error { t.Error("skipped operation ran"); return nil }, record, []*engine.Var{v}, nil)
	require.EqualError(t, e.WaitAll(), "boom")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []bool{true, false}, calls)
}
