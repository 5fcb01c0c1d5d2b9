package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The fused RNN operator (pkg/ops/nn/rnn.go): result shapes, the refusal of bad arrays
// and parameters, and its gradient (_backward_RNN) against central differences of the
// forward in float64. Its values are checked against MXNet in tests_py/test_mxnet_rnn.py.

// rnnCase is a call: mode, layers, directions, steps, batch, input and state sizes.
type rnnCase struct {
	mode             string
	L, D, T, N, I, H int
}

func (c rnnCase) gates() int {
	return map[string]int{"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}[c.mode]
}

func (c rnnCase) params() int {
	n := 0
	for l := 0; l < c.L; l++ {
		in := c.I
		if l > 0 {
			in = c.D * c.H
		}
		n += c.D * c.gates() * c.H * (in + c.H + 2)
	}
	return n
}

func (c rnnCase) attrs(extra string) string {
	return fmt.Sprintf("mode=%s;num_layers=%d;state_size=%d;bidirectional=%d%s", c.mode, c.L, c.H, c.D-1, extra)
}

// shapes are the shapes of the inputs: data, parameters, state (and state_cell).
func (c rnnCase) shapes() [][]int {
	s := [][]int{{c.T, c.N, c.I}, {c.params()}, {c.L * c.D, c.N, c.H}}
	if c.mode == "lstm" {
		s = append(s, s[2])
	}
	return s
}

// inputs are arrays of the shapes with the values vals (random ones when nil).
func (c rnnCase) inputs(t *testing.T, dt ndarray.DType, vals [][]float64) ([]*ndarray.NDArray, [][]float64) {
	var in []*ndarray.NDArray
	for i, s := range c.shapes() {
		if vals == nil || len(vals) <= i {
			a, v := nnRandom(t, dt, uint64(i+1), s...)
			in, vals = append(in, a), append(vals, v)
			continue
		}
		in = append(in, fromValues(t, dt, vals[i], s...))
	}
	return in, vals
}

func TestRNNShapes(t *testing.T) {
	checkLeaks(t)
	for _, mode := range []string{"rnn_relu", "rnn_tanh", "lstm", "gru"} {
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			c := rnnCase{mode, 2, 2, 3, 2, 4, 5}
			in, _ := c.inputs(t, dt, nil)
			res := mustOps(t, "RNN", c.attrs(";state_outputs=1"), in...)
			require.Len(t, res, len(in)-1, mode)
			assert.Equal(t, []int{3, 2, 10}, res[0].Shape())
			for _, r := range res[1:] {
				assert.Equal(t, []int{4, 2, 5}, r.Shape())
				assert.Equal(t, dt, r.DType())
			}
			assert.Len(t, mustOps(t, "RNN", c.attrs(""), in...), 1, "without state_outputs: out alone")
		}
	}
}

func TestRNNBadInputs(t *testing.T) {
	checkLeaks(t)
	c := rnnCase{"lstm", 2, 1, 3, 2, 4, 5}
	in, _ := c.inputs(t, ndarray.Float32, nil)
	short := empty(t, ndarray.Float32, c.params()-1)
	wrongState := empty(t, ndarray.Float32, 2, 3, 5)
	flat := empty(t, ndarray.Float32, 3, 8)
	wide := empty(t, ndarray.Float64, 2, 2, 5)
	for _, b := range []struct {
		in    []*ndarray.NDArray
		attrs string
		kind  mxerr.Kind
		frag  string
	}{
		{[]*ndarray.NDArray{in[0], short, in[2], in[3]}, "", mxerr.Value, fmt.Sprintf("vector of %d elements", c.params())},
		{[]*ndarray.NDArray{in[0], in[1], wrongState, in[3]}, "", mxerr.Value, "state"},
		{[]*ndarray.NDArray{in[0], in[1], in[2], wrongState}, "", mxerr.Value, "state_cell"},
		{[]*ndarray.NDArray{in[0], in[1], in[2]}, "", mxerr.Value, "expects 4 inputs"},
		{[]*ndarray.NDArray{flat, in[1], in[2], in[3]}, "", mxerr.Value, "3-D"},
		{[]*ndarray.NDArray{in[0], in[1], wide, in[3]}, "", mxerr.Type, "uniform type"},
		{in, ";projection_size=3", mxerr.NotImplemented, "projection_size"},
		{in, ";use_sequence_length=1", mxerr.NotImplemented, "use_sequence_length"},
		{in, ";p=1", mxerr.Value, "p must be"},
	} {
		_, err := runOps(t, "RNN", b.in, nil, c.attrs(b.attrs))
		requireKind(t, err, b.kind, b.frag)
	}
	_, err := runOps(t, "RNN", in, nil, "mode=lstm;num_layers=2;state_size=5;lstm_state_clip_min=-1")
	requireKind(t, err, mxerr.NotImplemented, "state clipping")
	_, err = runOps(t, "RNN", in, nil, "mode=lstmx;num_layers=2;state_size=5")
	requireKind(t, err, mxerr.Value, "mode")
}

// rnnCall runs operator name (RNN or _backward_RNN) with c's attributes and state
// outputs; with dropout p > 0, in training mode with a fixed seed, so that every call
// drops the same elements.
func rnnCall(t *testing.T, name string, c rnnCase, p float64, in ...*ndarray.NDArray) []*ndarray.NDArray {
	t.Helper()
	op, at, err := parsedOp(t, name, c.attrs(fmt.Sprintf(";state_outputs=1;p=%g", p)))
	require.NoError(t, err)
	if p > 0 {
		at["seed"], at[ops.TrainingAttr] = [2]uint64{5, 6}, true
	}
	res, err := op.InvokeAll(in, nil, at)
	require.NoError(t, err)
	t.Cleanup(func() { ops.ReleaseAll(res) })
	return res
}

// rnnLoss is the sum of every result of RNN on vals times its head gradient.
func rnnLoss(t *testing.T, c rnnCase, p float64, vals, heads [][]float64) float64 {
	in, _ := c.inputs(t, ndarray.Float64, vals)
	loss := 0.0
	for i, r := range rnnCall(t, "RNN", c, p, in...) {
		for j, v := range values(t, r) {
			loss += v * heads[i][j]
		}
	}
	return loss
}

func TestRNNGradient(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []struct {
		c rnnCase
		p float64
	}{
		{rnnCase{"rnn_tanh", 2, 2, 3, 2, 3, 2}, 0}, {rnnCase{"rnn_relu", 1, 2, 3, 2, 3, 2}, 0},
		{rnnCase{"lstm", 2, 2, 3, 2, 3, 2}, 0}, {rnnCase{"gru", 2, 2, 3, 2, 3, 2}, 0},
		{rnnCase{"gru", 3, 2, 3, 2, 3, 4}, 0.5}, // dropout between layers: the gradient redraws its mask
	} {
		c := k.c
		in, vals := c.inputs(t, ndarray.Float64, nil)
		res := rnnCall(t, "RNN", c, k.p, in...)
		if k.p > 0 {
			assert.NotEqual(t, values(t, rnnCall(t, "RNN", c, 0, in...)[0]), values(t, res[0]), "dropout applies")
		}
		var heads [][]float64
		args := append([]*ndarray.NDArray{}, in...)
		for i, o := range res {
			h, hv := nnRandom(t, ndarray.Float64, uint64(10+i), o.Shape()...)
			heads, args = append(heads, hv), append(args, h)
		}
		g := values(t, rnnCall(t, "_backward_RNN", c, k.p, args...)[0])
		off := 0
		for i := range vals {
			for range 4 { // a few coordinates of each input
				j := r.IntN(len(vals[i]))
				keep, eps := vals[i][j], 1e-6
				vals[i][j] = keep + eps
				up := rnnLoss(t, c, k.p, vals, heads)
				vals[i][j] = keep - eps
				down := rnnLoss(t, c, k.p, vals, heads)
				vals[i][j] = keep
				assert.InDelta(t, (up-down)/(2*eps), g[off+j], 1e-5, "%s input %d element %d", c.mode, i, j)
			}
			off += len(vals[i])
		}
		assert.Equal(t, off, len(g))
		assert.False(t, math.IsNaN(g[0]))
	}
}
