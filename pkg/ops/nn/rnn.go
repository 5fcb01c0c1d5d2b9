package nn

import (
	"math/rand/v2"
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// RNN: MXNet's fused recurrent operator (rnn_relu, rnn_tanh, lstm, gru; stacked,
// bidirectional, dropout between layers), float32 and float64, layout TNC. Each layer
// and direction projects every step's input at once (one GEMM), then runs its steps,
// each one recurrent GEMM and the gates. The forward can keep a trace of what its
// gradient reads (rnn_grad.go), which recomputes it rather than keeping it between calls.

func init() {
	ops.Register(&ops.Op{
		Name: "RNN",
		Doc: "Applies a recurrent neural network to a sequence (MXNet's fused RNN operator).\n\n" +
			"data is (seq_len, batch, input_size); parameters is one vector: every layer's and direction's " +
			"i2h then h2h weight (layer by layer, the forward direction first), then their biases in the same order; " +
			"state (and, for lstm, state_cell) is (num_layers * directions, batch, state_size). Gates are ordered " +
			"i, f, g, o (lstm) and r, z, n (gru, whose reset gate scales the recurrent product after its bias, " +
			"as cuDNN's). Returns out (seq_len, batch, directions * state_size) and, with state_outputs, the final " +
			"state (and cell state). p drops the outputs of every layer but the last while training. " +
			"float32 and float64.",
		Category: ops.General, Inputs: []string{"data", "parameters", "state", "state_cell?"}, DTypes: ops.F32F64DTypes,
		Params: []ops.Param{
			{Name: "state_size", Kind: ops.ParamInt, Doc: "the size of each layer's state"},
			{Name: "num_layers", Kind: ops.ParamInt, Doc: "the number of stacked layers"},
			{Name: "bidirectional", Kind: ops.ParamBool, Default: "0", Doc: "run each layer both ways"},
			{Name: "mode", Kind: ops.ParamString, Choices: []string{"gru", "lstm", "rnn_relu", "rnn_tanh"}, Doc: "the cell"},
			{Name: "p", Kind: ops.ParamFloat, Default: "0", Doc: "dropout rate between layers (training only)"},
			{Name: "state_outputs", Kind: ops.ParamBool, Default: "0", Doc: "also return the final states"},
			{Name: "projection_size", Kind: ops.ParamOptInt, Default: "None", Doc: "not implemented: only None"},
			{Name: "lstm_state_clip_min", Kind: ops.ParamOptFloat, Default: "None", Doc: "refused, as by MXNet's CPU kernel: only None"},
			{Name: "lstm_state_clip_max", Kind: ops.ParamOptFloat, Default: "None", Doc: "refused, as by MXNet's CPU kernel: only None"},
			{Name: "lstm_state_clip_nan", Kind: ops.ParamBool, Default: "0", Doc: "ignored without clipping"},
			{Name: "use_sequence_length", Kind: ops.ParamBool, Default: "0", Doc: "not implemented: only False"},
		},
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			d, err := rnnCheck(in, at)
			if err != nil {
				return nil, err
			}
			dt := in[0].DType()
			res := []ops.Result{{Shape: []int{d.T, d.N, d.D * d.H}, DType: dt}}
			if at.Bool("state_outputs") {
				for range in[2:] {
					res = append(res, ops.Result{Shape: slices.Clone(in[2].Shape()), DType: dt})
				}
			}
			return res, nil
		},
		Prepare: dropoutPrepare,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			d, err := rnnCheck(in, at)
			if err != nil {
				return err
			}
			return nnComputeAll(in, out,
				func(x, y [][]float32) { rnnForward(d, x, y, nil) },
				func(x, y [][]float64) { rnnForward(d, x, y, nil) })
		},
		Grad:       rnnGrad,
		TrainAware: true,
	})
}

// rnnDims are a call's sizes: gates per cell G, layers L, directions D, steps T,
// batch N, input I, state H; drop is the dropout rate when it applies, seed its draws.
type rnnDims struct {
	mode             string
	G, L, D, T, N, I int
	H                int
	drop             float64
	seed             [2]uint64
}

var rnnGates = map[string]int{"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}

// in is the input size of layer l.
func (d *rnnDims) in(l int) int {
	if l == 0 {
		return d.I
	}
	return d.D * d.H
}

// offsets are where the i2h and h2h weights and biases of layer l, direction dir start
// in the packed parameters: all weights first, then all biases, each in (layer, direction) order.
func (d *rnnDims) offsets(l, dir int) (wx, wh, bx, bh int) {
	gh := d.G * d.H
	for k := 0; k < l*d.D+dir; k++ {
		wx += gh * (d.in(k/d.D) + d.H)
	}
	bx = d.weights() + (l*d.D+dir)*2*gh
	return wx, wx + gh*d.in(l), bx, bx + gh
}

func (d *rnnDims) weights() int {
	n := 0
	for l := 0; l < d.L; l++ {
		n += d.D * d.G * d.H * (d.in(l) + d.H)
	}
	return n
}

func (d *rnnDims) paramSize() int { return d.weights() + d.L*d.D*2*d.G*d.H }

// rnnCheck checks a call's arrays and parameters and returns its sizes.
func rnnCheck(in []*ndarray.NDArray, at ops.Attrs) (*rnnDims, error) {
	d := &rnnDims{mode: at.Str("mode"), L: at.Int("num_layers"), H: at.Int("state_size"), D: 1 + nnB2i(at.Bool("bidirectional"))}
	d.G = rnnGates[d.mode]
	if p, set := at.OptInt("projection_size"); set {
		return nil, mxerr.New(mxerr.NotImplemented, "RNN: projection_size=%d is not implemented in mxgo (only None)", p)
	}
	_, lo := at.OptFloat("lstm_state_clip_min")
	if _, hi := at.OptFloat("lstm_state_clip_max"); lo || hi {
		return nil, mxerr.New(mxerr.NotImplemented, "RNN: LSTM state clipping is only supported for GPU with CuDNN "+
			"later than 7.2.1 (MXNet's CPU kernel refuses it too)")
	}
	if at.Bool("use_sequence_length") {
		return nil, mxerr.New(mxerr.NotImplemented, "RNN: use_sequence_length is not implemented in mxgo")
	}
	if d.H < 1 || d.L < 1 {
		return nil, mxerr.ValueErr("RNN: state_size and num_layers must be at least 1, got %d and %d", d.H, d.L)
	}
	if p := at.Float("p"); p < 0 || p >= 1 {
		return nil, mxerr.ValueErr("RNN: p must be in [0, 1), got %v", p)
	}
	names := []string{"data", "parameters", "state", "state_cell"}
	if err := nnArity("RNN", in, 3+nnB2i(d.mode == "lstm")); err != nil {
		return nil, err
	}
	if err := nnSameDType("RNN", in, names); err != nil {
		return nil, err
	}
	s := in[0].Shape()
	if len(s) != 3 {
		return nil, mxerr.ValueErr("RNN: data must be 3-D (seq_len, batch, input_size), got shape %s", ops.FmtShape(s))
	}
	d.T, d.N, d.I = s[0], s[1], s[2]
	if want := d.paramSize(); !slices.Equal(in[1].Shape(), []int{want}) {
		return nil, mxerr.ValueErr("RNN: parameters must be a vector of %d elements for mode=%s, num_layers=%d, "+
			"bidirectional=%v, input_size=%d, state_size=%d; got shape %s",
			want, d.mode, d.L, d.D == 2, d.I, d.H, ops.FmtShape(in[1].Shape()))
	}
	for i := 2; i < len(in); i++ {
		if err := nnCheckShape("RNN", names[i], in[i].Shape(), []int{d.L * d.D, d.N, d.H}); err != nil {
			return nil, err
		}
	}
	if p := at.Float("p"); p > 0 && d.L > 1 && ops.Training(at) {
		d.drop = p
		d.seed, _ = at["seed"].([2]uint64) // drawn after inference, before the kernel
	}
	return d, nil
}

// rnnTrace is what the gradient reads of a forward, per layer l (xs: the layer's input,
// after dropout; masks: dropout's scale of the layer's output) and per layer and
// direction k = l*D + dir, in the order the steps run: hs and cs the T+1 states from the
// initial one, gates the activated gates of each step, hn gru's recurrent n product.
type rnnTrace[T nnFloat] struct {
	xs, masks         [][]T
	hs, cs, gates, hn [][]T
}

// rnnForward computes out (x: data, parameters, state[, state_cell]; y: out[, hy[, cy]]),
// filling tr when it is not nil.
func rnnForward[T nnFloat](d *rnnDims, x, y [][]T, tr *rnnTrace[T]) {
	if tr == nil {
		tr = &rnnTrace[T]{}
	}
	K := d.L * d.D
	tr.hs, tr.cs, tr.gates, tr.hn = make([][]T, K), make([][]T, K), make([][]T, K), make([][]T, K)
	tr.xs, tr.masks = [][]T{x[0]}, rnnMasks[T](d)
	nh := d.N * d.H
	for l := 0; l < d.L; l++ {
		out := y[0]
		if l < d.L-1 {
			out = make([]T, d.T*d.N*d.D*d.H)
		}
		for dir := 0; dir < d.D; dir++ {
			k := l*d.D + dir
			h0 := x[2][k*nh : (k+1)*nh]
			var c0 []T
			if d.mode == "lstm" {
				c0 = x[3][k*nh : (k+1)*nh]
			}
			rnnLayer(d, l, dir, tr.xs[l], x[1], h0, c0, out, tr)
			if len(y) > 1 {
				copy(y[1][k*nh:], tr.hs[k][d.T*nh:])
			}
			if len(y) > 2 {
				copy(y[2][k*nh:], tr.cs[k][d.T*nh:])
			}
		}
		if l < d.L-1 {
			if m := tr.masks[l]; m != nil {
				for i := range out {
					out[i] *= m[i]
				}
			}
			tr.xs = append(tr.xs, out)
		}
	}
}

// rnnMasks draws dropout's scales of the outputs of the layers but the last (nil when
// dropout does not apply), from the call's seed: the gradient redraws the same.
func rnnMasks[T nnFloat](d *rnnDims) [][]T {
	masks := make([][]T, d.L)
	if d.drop == 0 {
		return masks
	}
	r := rand.New(rand.NewPCG(d.seed[0], d.seed[1]))
	keep := T(1 / (1 - d.drop))
	for l := range masks[:d.L-1] {
		m := make([]T, d.T*d.N*d.D*d.H)
		for i := range m {
			if r.Float64() >= d.drop {
				m[i] = keep
			}
		}
		masks[l] = m
	}
	return masks
}

// rnnStep is time step t of step s of a direction (the steps of the backward direction
// run from the last time step).
func (d *rnnDims) rnnStep(dir, s int) int {
	if dir == 1 {
		return d.T - 1 - s
	}
	return s
}

// rnnLayer runs direction dir of layer l on its input xs (T, N, in), writing its part of
// out (T, N, D*H) and its trace.
func rnnLayer[T nnFloat](d *rnnDims, l, dir int, xs, params, h0, c0, out []T, tr *rnnTrace[T]) {
	k, gh, nh, ni := l*d.D+dir, d.G*d.H, d.N*d.H, d.in(l)
	wx, wh, bx, bh := d.offsets(l, dir)
	xg := make([]T, d.T*d.N*gh) // every step's input product, i2h bias included
	nnGemm(d.T*d.N, gh, ni, xs, ni, 1, params[wx:], 1, ni, xg, true)
	nnAddBias(xg, params[bx:bx+gh], d.T*d.N, gh, 1)
	hs := make([]T, (d.T+1)*nh)
	copy(hs, h0)
	var cs []T
	if c0 != nil {
		cs = make([]T, (d.T+1)*nh)
		copy(cs, c0)
	}
	gates := make([]T, d.T*d.N*gh)
	var hn []T
	if d.mode == "gru" {
		hn = make([]T, d.T*nh)
	}
	hg := make([]T, d.N*gh)
	for s := 0; s < d.T; s++ {
		t := d.rnnStep(dir, s)
		nnGemm(d.N, gh, d.H, hs[s*nh:], d.H, 1, params[wh:], 1, d.H, hg, true)
		nnAddBias(hg, params[bh:bh+gh], d.N, gh, 1)
		st := rnnState[T]{d: d, xg: xg[t*d.N*gh:], hg: hg, hp: hs[s*nh:], h: hs[(s+1)*nh:], g: gates[s*d.N*gh:]}
		if cs != nil {
			st.cp, st.c = cs[s*nh:], cs[(s+1)*nh:]
		}
		if hn != nil {
			st.hn = hn[s*nh:]
		}
		st.forward()
		for n := 0; n < d.N; n++ {
			copy(out[(t*d.N+n)*d.D*d.H+dir*d.H:][:d.H], st.h[n*d.H:(n+1)*d.H])
		}
	}
	tr.hs[k], tr.cs[k], tr.gates[k], tr.hn[k] = hs, cs, gates, hn
}
