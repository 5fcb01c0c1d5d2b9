package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Operators of several results (Op.InferOuts, Op.InvokeAll), on _linalg_slogdet: one
// kernel writes [sign, logabsdet].

func TestInvokeAllIntoOuts(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{2, 0, 0, -3, 1, 2, 3, 4}, 2, 2, 2)
	sign, logAbs := empty(t, ndarray.Float64, 2), empty(t, ndarray.Float64, 2)
	res, err := runOps(t, "_linalg_slogdet", []*ndarray.NDArray{x}, []*ndarray.NDArray{sign, logAbs}, "")
	require.NoError(t, err)
	require.Len(t, res, 2)
	assert.Same(t, sign.Storage(), res[0].Storage(), "the results are the outs")
	assert.Equal(t, []float64{-1, -1}, values(t, sign))
	assert.InDeltaSlice(t, []float64{1.791759469228055, 0.6931471805599453}, values(t, logAbs), 1e-12)
}

func TestInvokeAllBadOuts(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{1, 2, 3, 4}, 2, 2)
	f64 := func(shape ...int) *ndarray.NDArray { return empty(t, ndarray.Float64, shape...) }
	both := f64(2)
	half, err := both.Index([]ndarray.KeyItem{{Kind: ndarray.KeySlice, Stop: 1, HasStop: true}})
	require.NoError(t, err)
	defer half.Release()
	for _, c := range []struct {
		what string
		outs []*ndarray.NDArray
		kind mxerr.Kind
	}{
		{"one out for two results", []*ndarray.NDArray{f64(1)}, mxerr.Type},
		{"three outs", []*ndarray.NDArray{f64(1), f64(1), f64(1)}, mxerr.Type},
		{"a wrong shape", []*ndarray.NDArray{f64(1), f64(2)}, mxerr.Value},
		{"a wrong dtype", []*ndarray.NDArray{f64(1), empty(t, ndarray.Float32, 1)}, mxerr.Type},
		{"overlapping outs", []*ndarray.NDArray{half, both}, mxerr.Value},
	} {
		_, err := runOps(t, "_linalg_slogdet", []*ndarray.NDArray{x}, c.outs, "")
		requireKind(t, err, c.kind)
	}
	_, err = runOp(t, "_linalg_slogdet", []*ndarray.NDArray{x}, nil, "")
	requireKind(t, err, mxerr.Type, "returns 2 arrays")
	assert.ErrorIs(t, err, ops.ErrSeveralResults, "front ends fall back to InvokeAll on it")
	require.NoError(t, ops.WaitAll())
}

func TestInvokeAllOfOneResult(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{1, 2, 3, 4}, 2, 2)
	res := mustOps(t, "linalg_det", "", x)
	require.Len(t, res, 1)
	assert.Equal(t, []float64{-2}, values(t, res[0]))
	_, err := runOps(t, "negative", []*ndarray.NDArray{x}, []*ndarray.NDArray{x, x}, "")
	requireKind(t, err, mxerr.Type)
}
