package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The optimizer update operators (pkg/ops/optim): states updated in place through
// Op.Mutates, the weight through out, MXNet's formulas; bad calls refused before anything
// runs. tests_py/test_mxnet_optimizer.py compares every one with MXNet itself.

func TestSGDMomentumUpdatesItsStateInPlace(t *testing.T) {
	checkLeaks(t)
	w := fromValues(t, ndarray.Float32, []float64{1, -2, 3}, 3)
	g := fromValues(t, ndarray.Float32, []float64{0.5, 4, -1}, 3)
	mom := fromValues(t, ndarray.Float32, []float64{0.25, 0, -0.5}, 3)
	_, err := runOp(t, "sgd_mom_update", []*ndarray.NDArray{w, g, mom}, w,
		"lr=0.5;momentum=0.5;wd=0.25;rescale_grad=0.5;clip_gradient=1")
	require.NoError(t, err)
	// mom = 0.5*mom - 0.5*0.25*w - 0.5*clip(0.5*g, 1); w += mom
	wantMom := []float64{-0.125, 0.25 - 0.5, -0.25 - 0.375 + 0.25}
	assert.InDeltaSlice(t, wantMom, values(t, mom), 1e-7)
	assert.InDeltaSlice(t, []float64{1 + wantMom[0], -2 + wantMom[1], 3 + wantMom[2]}, values(t, w), 1e-7)
}

func TestAdamFormula(t *testing.T) {
	checkLeaks(t)
	w := fromValues(t, ndarray.Float64, []float64{1, -1}, 2)
	g := fromValues(t, ndarray.Float64, []float64{2, 0.5}, 2)
	mean := fromValues(t, ndarray.Float64, []float64{0, 1}, 2)
	vr := fromValues(t, ndarray.Float64, []float64{0, 4}, 2)
	r, err := runOp(t, "adam_update", []*ndarray.NDArray{w, g, mean, vr}, nil, "lr=0.5;beta1=0.5;beta2=0.75;epsilon=0;wd=0.5")
	require.NoError(t, err)
	// g' = g + wd*w = [2.5, 0]; mean = [1.25, 0.5]; var = [1.5625, 3]
	assert.InDeltaSlice(t, []float64{1.25, 0.5}, values(t, mean), 1e-12)
	assert.InDeltaSlice(t, []float64{1.5625, 3}, values(t, vr), 1e-12)
	assert.InDeltaSlice(t, []float64{1 - 0.5*1.25/1.25, -1 - 0.5*0.5/math.Sqrt(3)}, values(t, r), 1e-12)
	assert.Equal(t, []float64{1, -1}, values(t, w), "without out the weight is read only")
}

func TestMultiPrecisionWritesTheMasterCopy(t *testing.T) {
	checkLeaks(t)
	w := fromValues(t, ndarray.Float16, []float64{1, 2}, 2)
	g := fromValues(t, ndarray.Float16, []float64{1, -1}, 2)
	w32 := fromValues(t, ndarray.Float32, []float64{1.0001, 2.0001}, 2)
	_, err := runOp(t, "mp_sgd_update", []*ndarray.NDArray{w, g, w32}, w, "lr=0.25")
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{0.7501, 2.2501}, values(t, w32), 1e-6)
	assert.Equal(t, []float64{0.75, 2.25}, values(t, w), "the weight is the master copy, rounded")
}

func TestAggregatedUpdateMatchesOneByOne(t *testing.T) {
	checkLeaks(t)
	w1, g1 := fromValues(t, ndarray.Float32, seq(6), 2, 3), fromValues(t, ndarray.Float32, []float64{1, 1, 1, 2, 2, 2}, 2, 3)
	w2, g2 := fromValues(t, ndarray.Float32, []float64{5, 6}, 2), fromValues(t, ndarray.Float32, []float64{-1, 1}, 2)
	_, err := runOps(t, "multi_sgd_update", []*ndarray.NDArray{w1, g1, w2, g2}, []*ndarray.NDArray{w1, w2},
		"lrs=0.5,0.25;wds=0,0.5;num_weights=2")
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{-0.5, 0.5, 1.5, 2, 3, 4}, values(t, w1), 1e-6)
	assert.InDeltaSlice(t, []float64{5*(1-0.125) + 0.25, 6*(1-0.125) - 0.25}, values(t, w2), 1e-6)
}

// The weights of a multi_* update are its outs without a copy (the operator runs in
// place); an out that is another group's weight still gets the update computed from that
// group's old values, whichever group runs first.
func TestMultiUpdateOutsSwapped(t *testing.T) {
	checkLeaks(t)
	w1, g1 := fromValues(t, ndarray.Float32, []float64{1, 2}, 2), fromValues(t, ndarray.Float32, []float64{1, 1}, 2)
	w2, g2 := fromValues(t, ndarray.Float32, []float64{5, 6}, 2), fromValues(t, ndarray.Float32, []float64{-1, 1}, 2)
	_, err := runOps(t, "multi_sgd_update", []*ndarray.NDArray{w1, g1, w2, g2}, []*ndarray.NDArray{w2, w1},
		"lrs=0.5,0.25;wds=0,0;num_weights=2")
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 1.5}, values(t, w2), "group 1's new weight, from w1 before the update")
	assert.Equal(t, []float64{5.25, 5.75}, values(t, w1), "group 2's new weight, from w2 before the update")
}

func TestLargeUpdateSplitsAcrossCores(t *testing.T) {
	checkLeaks(t)
	n := 3 * ndarray.SerialBelow
	w, g := empty(t, ndarray.Float32, n), empty(t, ndarray.Float32, n)
	rawSet(w, make([]float32, n))
	gs := make([]float32, n)
	for i := range gs {
		gs[i] = float32(i % 7)
	}
	rawSet(g, gs)
	_, err := runOp(t, "signsgd_update", []*ndarray.NDArray{w, g}, w, "lr=0.5")
	require.NoError(t, err)
	require.NoError(t, ops.WaitToRead(w))
	for i, v := range rawValues[float32](w) {
		if want := float32(-0.5) * float32(min(i%7, 1)); v != want {
			t.Fatalf("element %d: %v, want %v", i, v, want)
		}
	}
}

func TestBadUpdateCallsAreRefusedIntact(t *testing.T) {
	checkLeaks(t)
	f32 := func(shape ...int) *ndarray.NDArray { return fromValues(t, ndarray.Float32, seq(prod(shape)), shape...) }
	w, g, mom := f32(2, 3), f32(2, 3), f32(2, 3)
	for _, c := range []struct {
		what string
		op   string
		in   []*ndarray.NDArray
		out  *ndarray.NDArray
		kind mxerr.Kind
	}{
		{"a grad of another shape", "sgd_mom_update", []*ndarray.NDArray{w, f32(3, 2), mom}, w, mxerr.Value},
		{"a state of another shape", "sgd_mom_update", []*ndarray.NDArray{w, g, f32(6)}, w, mxerr.Value},
		{"a state of another dtype", "sgd_mom_update", []*ndarray.NDArray{w, g, empty(t, ndarray.Float64, 2, 3)}, w, mxerr.Type},
		{"the state is the weight", "sgd_mom_update", []*ndarray.NDArray{w, g, w}, w, mxerr.Value},
		{"out is the state", "sgd_mom_update", []*ndarray.NDArray{w, g, mom}, mom, mxerr.Value},
		{"an integer weight", "sgd_update", []*ndarray.NDArray{arange(t, ndarray.Int32, 2), arange(t, ndarray.Int32, 2)}, nil, mxerr.Type},
		{"a float16 master copy", "mp_sgd_update", []*ndarray.NDArray{w, g, empty(t, ndarray.Float16, 2, 3)}, w, mxerr.Type},
	} {
		_, err := runOp(t, c.op, c.in, c.out, "lr=0.1")
		requireKind(t, err, c.kind)
	}
	_, err := runOps(t, "multi_sgd_update", []*ndarray.NDArray{w, g, w}, []*ndarray.NDArray{w}, "lrs=0.1;wds=0;num_weights=1")
	requireKind(t, err, mxerr.Value, "needs 2 arrays")
	_, err = runOps(t, "multi_sgd_update", []*ndarray.NDArray{w, g}, []*ndarray.NDArray{w}, "lrs=0.1,0.2;wds=0;num_weights=1")
	requireKind(t, err, mxerr.Value, "learning rates")
	assert.Equal(t, seq(6), values(t, w), "nothing ran")
	assert.Equal(t, seq(6), values(t, mom))
}

// An update large enough to be queued on the engine: a later reader of its state waits
// for it (the state is among the call's engine writes, Op.Mutates).
func TestQueuedUpdateOrdersItsStateWrites(t *testing.T) {
	checkLeaks(t)
	n := 5 << 20
	w, g, mom := empty(t, ndarray.Float32, n), empty(t, ndarray.Float32, n), empty(t, ndarray.Float32, n)
	ones := make([]float32, n)
	for i := range ones {
		ones[i] = 1
	}
	rawSet(w, ones)
	rawSet(g, ones)
	rawSet(mom, make([]float32, n))
	_, err := runOp(t, "sgd_mom_update", []*ndarray.NDArray{w, g, mom}, w, "lr=0.5;momentum=0.9")
	require.NoError(t, err)
	neg := mustOp(t, "negative", "", mom) // pushed while the update may still be queued
	require.NoError(t, ops.WaitToRead(neg))
	for i, v := range rawValues[float32](neg) {
		if v != 0.5 {
			t.Fatalf("element %d of -mom: %v, want 0.5", i, v)
		}
	}
	assert.Equal(t, float32(0.5), rawValues[float32](w)[n-1])
}

// A gradient that partly overlaps the weight (both views of one array) is read as
// itself, not as the weight.
func TestOverlappingInputsAreReadAsThemselves(t *testing.T) {
	checkLeaks(t)
	a := fromValues(t, ndarray.Float32, []float64{1, 2, 3, 4, 5}, 5)
	w, g := index(t, a, S(0, 4, nil)), index(t, a, S(1, 5, nil))
	r, err := runOp(t, "sgd_update", []*ndarray.NDArray{w, g}, nil, "lr=1")
	require.NoError(t, err)
	assert.Equal(t, []float64{-1, -1, -1, -1}, values(t, r))
}
