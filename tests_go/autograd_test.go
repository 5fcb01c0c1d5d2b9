package mxgotest

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/autograd"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The tape (pkg/autograd) driven from Go: recording, backward and grad, grad_req, the
// release of the graph, the write check, and the expression language of gradients.

var recording = autograd.Mode{Recording: true, Training: true}

// checkGraphLeaks is checkLeaks for tests that make variables: a variable's gradient
// buffer, like an abandoned graph's arrays, is released when the Go collector finds its
// node unreachable, so the count is checked after collections.
func checkGraphLeaks(t *testing.T) {
	t.Helper()
	base := ndarray.LiveStorages()
	t.Cleanup(func() {
		require.NoError(t, ops.WaitAll())
		deadline := time.Now().Add(5 * time.Second)
		for ndarray.LiveStorages() != base && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		require.Equal(t, base, ndarray.LiveStorages(), "storages leaked")
	})
}

// call runs operator name under m and releases its result when the test ends.
func call(t *testing.T, m autograd.Mode, name, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	op, at, err := parsedOp(t, name, attrs)
	require.NoError(t, err)
	r, err := autograd.Invoke(op, in, nil, at, m)
	require.NoError(t, err, name)
	t.Cleanup(r.Release)
	return r
}

// variable makes x a variable with a fresh gradient buffer (attach_grad), returned.
func variable(t *testing.T, x *ndarray.NDArray, req autograd.GradReq) *ndarray.NDArray {
	t.Helper()
	g := empty(t, x.DType(), x.Shape()...)
	require.NoError(t, ops.Fill(g, ops.Scalar{}))
	require.NoError(t, autograd.MarkVariables([]*ndarray.NDArray{x}, []*ndarray.NDArray{g}, []autograd.GradReq{req}))
	return g
}

func TestBackwardChainRule(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{0.5, -1, 2}, 3)
	g := variable(t, x, autograd.ReqWrite)
	// y = sin(x) * x + x / 2: dy/dx = cos(x) x + sin(x) + 1/2
	y := call(t, recording, "add", "", call(t, recording, "multiply", "", call(t, recording, "sin", "", x), x),
		call(t, recording, "_divide_scalar", "scalar=f:2", x))
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	for i, v := range []float64{0.5, -1, 2} {
		assert.InDelta(t, math.Cos(v)*v+math.Sin(v)+0.5, values(t, g)[i], 1e-12)
	}
	err := autograd.Backward([]*ndarray.NDArray{y}, nil, false, true)
	requireKind(t, err, mxerr.MXNet, "not in a computational graph")
}

func TestNotRecordedOutsideRecording(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	variable(t, x, autograd.ReqWrite)
	y := call(t, autograd.Mode{}, "exp", "", x)
	assert.False(t, autograd.Takes(y))
	requireKind(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true), mxerr.MXNet, "not in a computational graph")
	z := call(t, recording, "exp", "", fromValues(t, ndarray.Float32, []float64{1}, 1))
	assert.False(t, autograd.Takes(z), "an operation on arrays outside any graph is not recorded")
}

func TestGradReqAddAndNull(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2, 3}, 3)
	g := variable(t, x, autograd.ReqAdd)
	for range 3 {
		y := call(t, recording, "square", "", x)
		require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	}
	assert.Equal(t, []float64{6, 12, 18}, values(t, g))
	w := fromValues(t, ndarray.Float32, []float64{1, 2, 3}, 3)
	gw := variable(t, w, autograd.ReqNull)
	require.NoError(t, ops.Fill(gw, ops.Scalar{Value: 7}))
	y := call(t, recording, "square", "", w)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	assert.Equal(t, []float64{7, 7, 7}, values(t, gw), "grad_req null leaves the buffer alone")
}

func TestRetainGraphAndRelease(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	g := variable(t, x, autograd.ReqAdd)
	y := call(t, recording, "exp", "", x)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, true, true))
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	assert.InDeltaSlice(t, []float64{2 * math.Exp(1), 2 * math.Exp(2)}, values(t, g), 1e-5)
	assert.False(t, autograd.Takes(y), "released without retain_graph")
	assert.False(t, x.Storage().InGraph() && !autograd.Takes(x), "a variable stays in its graph")
}

func TestHeadGradientsChecked(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	g := variable(t, x, autograd.ReqWrite)
	y := call(t, recording, "_multiply_scalar", "scalar=f:3", x)
	bad := []struct {
		head *ndarray.NDArray
		kind mxerr.Kind
	}{{empty(t, ndarray.Float32, 3), mxerr.Value}, {empty(t, ndarray.Float64, 2), mxerr.Type}}
	for _, b := range bad {
		requireKind(t, autograd.Backward([]*ndarray.NDArray{y}, []*ndarray.NDArray{b.head}, true, true), b.kind, "head gradient")
	}
	head := fromValues(t, ndarray.Float32, []float64{10, 100}, 2)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, []*ndarray.NDArray{head}, false, true))
	assert.Equal(t, []float64{30, 300}, values(t, g), "the failed calls left the graph intact")
}

func TestGradCreateGraphSecondOrder(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{0.5, 1}, 2)
	g := variable(t, x, autograd.ReqWrite)
	y := call(t, recording, "sin", "", x)
	dy, err := autograd.Grad([]*ndarray.NDArray{y}, []*ndarray.NDArray{x}, nil, true, true, true)
	require.NoError(t, err)
	t.Cleanup(func() { ops.ReleaseAll(dy) })
	assert.True(t, autograd.Takes(dy[0]), "create_graph records the gradient")
	require.NoError(t, autograd.Backward(dy, nil, false, true))
	assert.InDeltaSlice(t, []float64{-math.Sin(0.5), -math.Sin(1)}, values(t, g), 1e-12)
}

func TestGradOfUnreachedVariable(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1}, 1)
	w := fromValues(t, ndarray.Float32, []float64{1}, 1)
	variable(t, x, autograd.ReqWrite)
	variable(t, w, autograd.ReqWrite)
	y := call(t, recording, "exp", "", x)
	_, err := autograd.Grad([]*ndarray.NDArray{y}, []*ndarray.NDArray{w}, nil, false, false, true)
	requireKind(t, err, mxerr.MXNet, "did not take part")
}

func TestWriteIntoGraphRefused(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	variable(t, x, autograd.ReqWrite)
	op, at, err := parsedOp(t, "exp", "")
	require.NoError(t, err)
	_, err = autograd.Invoke(op, []*ndarray.NDArray{x}, x, at, recording)
	requireKind(t, err, mxerr.MXNet, "Assigning to NDArrays")
	part := index(t, x, S(1, nil, nil))
	requireKind(t, autograd.CheckWrite(part, recording), mxerr.MXNet, "Assigning to NDArrays")
	assert.NoError(t, autograd.CheckWrite(part, autograd.Mode{}), "outside recording nothing is checked")
}

func TestNotDifferentiable(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	variable(t, x, autograd.ReqWrite)
	y := call(t, recording, "_onehot_encode", "depth=3", x) // an operator without Grad (sort now has one)
	requireKind(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true), mxerr.MXNet, "non-differentiable")
}

// An abandoned graph (never differentiated) lets its saved arrays go when collected.
func TestAbandonedGraphFreesItsArrays(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	variable(t, x, autograd.ReqWrite)
	for range 50 {
		y, err := autograd.Invoke(mustLookup(t, "exp"), []*ndarray.NDArray{x}, nil, nil, recording)
		require.NoError(t, err)
		y.Release()
	}
}

func TestGradExprMalformedPanicsAtRegistration(t *testing.T) {
	for _, e := range []string{"g *", "q * g", "2 * 3", "g * (x", "cos(x"} {
		assert.Panics(t, func() { ops.GradExpr(e) }, e)
	}
	assert.NotPanics(t, func() { ops.GradExpr("-g * $scalar ** ($scalar - 1) / (x >= 0)") })
}

func mustLookup(t *testing.T, name string) *ops.Op {
	op, err := ops.Lookup(name)
	require.NoError(t, err)
	return op
}

func TestFreshGradIsSetByBackwardAndClearedByTheCaller(t *testing.T) {
	checkGraphLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2}, 2)
	unused := fromValues(t, ndarray.Float32, []float64{3}, 1)
	variable(t, x, autograd.ReqWrite)
	variable(t, unused, autograd.ReqWrite)
	assert.False(t, autograd.FreshGrad(x))
	y := call(t, recording, "exp", "", x)
	require.NoError(t, autograd.Backward([]*ndarray.NDArray{y}, nil, false, true))
	assert.True(t, autograd.FreshGrad(x))
	assert.False(t, autograd.FreshGrad(unused), "a variable the backward did not reach stays stale")
	assert.True(t, autograd.SetFreshGrad(x, false))
	assert.False(t, autograd.FreshGrad(x))
	assert.False(t, autograd.SetFreshGrad(y, true), "a result is not a variable")
}
