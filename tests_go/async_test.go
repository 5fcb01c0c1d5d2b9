package mxgotest

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// ops.PushFunc: foreign work (mx.nd.run_async's Python callables) on the engine.

func TestPushFuncIsOrderedWithOperations(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Float64, 4)
	require.NoError(t, ops.Fill(a, floatScalar(1)))
	var seen []float64
	gate := make(chan struct{})
	var ran atomic.Int32
	require.NoError(t, ops.PushFunc(nil, []*ndarray.NDArray{a}, func() error {
		<-gate // the Fill pushed below must wait for this
		// Straight to memory: inside the work, waiting on a (as rawValues does) would wait
		// for this very work.
		mem := unsafe.Slice((*float64)(a.Data()), 4)
		seen = append([]float64(nil), mem...)
		copy(mem, []float64{5, 5, 5, 5})
		return nil
	}, func(ran2 bool) {
		assert.True(t, ran2)
		ran.Add(1)
	}))
	require.NoError(t, ops.Fill(index(t, a, S(nil, nil, 2)), floatScalar(9)))
	close(gate)
	require.NoError(t, ops.WaitToRead(a))
	assert.Equal(t, []float64{1, 1, 1, 1}, seen)
	assert.Equal(t, []float64{9, 5, 9, 5}, values(t, a))
	require.NoError(t, ops.WaitAll())
	assert.Equal(t, int32(1), ran.Load())
}

func TestPushFuncReadsRunInParallel(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Int32, 3)
	var wg sync.WaitGroup
	wg.Add(2)
	both := make(chan struct{})
	reader := func() error {
		wg.Done()
		select {
		case <-both:
			return nil
		case <-time.After(engineTimeout):
			return errors.New("the other reader never started")
		}
	}
	require.NoError(t, ops.PushFunc([]*ndarray.NDArray{a}, nil, reader, nil))
	require.NoError(t, ops.PushFunc([]*ndarray.NDArray{a}, nil, reader, nil))
	go func() { wg.Wait(); close(both) }()
	require.NoError(t, ops.WaitAll())
}

func TestPushFuncErrorGoesToWritesOnly(t *testing.T) {
	checkLeaks(t)
	r := empty(t, ndarray.Float32, 2)
	w := empty(t, ndarray.Float32, 2)
	var finals []bool
	require.NoError(t, ops.PushFunc([]*ndarray.NDArray{r}, []*ndarray.NDArray{w}, func() error {
		return mxerr.IndexErr("callback says no")
	}, func(ran bool) { finals = append(finals, ran) }))
	require.NoError(t, ops.WaitToRead(r))
	requireKind(t, ops.WaitToRead(w), mxerr.Index, "callback says no")
	require.NoError(t, ops.WaitToRead(w), "raised once")
	require.NoError(t, ops.WaitAll(), "raised once, by the wait on w")
	assert.Equal(t, []bool{true}, finals)
}

func TestPushFuncPanicBecomesAnError(t *testing.T) {
	checkLeaks(t)
	w := empty(t, ndarray.Int64, 1)
	var final atomic.Int32
	require.NoError(t, ops.PushFunc(nil, []*ndarray.NDArray{w}, func() error { panic("kaboom") },
		func(bool) { final.Add(1) }))
	err := ops.WaitToRead(w)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kaboom")
	_ = ops.WaitAll()
	assert.Equal(t, int32(1), final.Load())
}

func TestPushFuncSkippedAfterAFailedDependencyStillFinishes(t *testing.T) {
	checkLeaks(t)
	w := empty(t, ndarray.Float64, 3)
	require.NoError(t, ops.PushFunc(nil, []*ndarray.NDArray{w}, func() error {
		return mxerr.ValueErr("first fails")
	}, nil))
	var called atomic.Int32
	finals := make(chan bool, 10)
	for range 5 {
		require.NoError(t, ops.PushFunc(nil, []*ndarray.NDArray{w}, func() error {
			called.Add(1)
			return nil
		}, func(ran bool) { finals <- ran }))
	}
	requireKind(t, ops.WaitAll(), mxerr.Value, "first fails")
	for range 5 {
		select {
		case ran := <-finals:
			assert.False(t, ran, "skipped work is finished with ran=false")
		case <-time.After(engineTimeout):
			t.Fatal("finally was not called for skipped work")
		}
	}
	assert.Zero(t, called.Load())
	select {
	case <-finals:
		t.Fatal("finally called twice")
	case <-time.After(20 * time.Millisecond):
	}
}

func TestPushFuncRefusesReadOnlyWrites(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Float32, 2)
	ro := a.ReadOnly()
	defer ro.Release()
	err := ops.PushFunc(nil, []*ndarray.NDArray{ro}, func() error {
		t.Error("must not run")
		return nil
	}, func(bool) { t.Error("must not finish") })
	requireKind(t, err, mxerr.Value, "read-only")
}

func TestPushFuncHoldsItsArrays(t *testing.T) {
	base := ndarray.LiveStorages()
	a, err := ndarray.Empty(ndarray.Float64, []int{2}, device.Host)
	require.NoError(t, err)
	gate := make(chan struct{})
	require.NoError(t, ops.PushFunc([]*ndarray.NDArray{a}, nil, func() error {
		<-gate
		return nil
	}, nil))
	a.Release() // the pushed work still holds the storage
	assert.Equal(t, base+1, ndarray.LiveStorages())
	close(gate)
	require.NoError(t, ops.WaitAll())
	assert.Equal(t, base, ndarray.LiveStorages())
}
