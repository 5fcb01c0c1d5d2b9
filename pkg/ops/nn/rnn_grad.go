package nn

import (
	"fmt"
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// RNN's gradient: backpropagation through time by _backward_RNN, which reruns the
// forward keeping its trace (its dropout redrawn from the call's seed) and gives the
// gradients of data, parameters, state and state_cell as one vector, which the Gradient
// cuts into the inputs' shapes.

func init() {
	fwd, _ := ops.Lookup("RNN")
	ops.Register(&ops.Op{
		Name: "_backward_RNN",
		Doc: "The gradients of RNN's data, parameters, state (and state_cell) from its arrays and the gradients " +
			"of its results, concatenated flat, with RNN's parameters. Internal: its Grad calls it.",
		Category: ops.General, Inputs: []string{"*arrays"}, DTypes: ops.F32F64DTypes, Params: fwd.Params,
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			d, n, err := rnnBackCheck(fwd, in, at)
			if err != nil {
				return nil, 0, err
			}
			return []int{d.T*d.N*d.I + d.paramSize() + (n-2)*d.L*d.D*d.N*d.H}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			d, n, err := rnnBackCheck(fwd, in, at)
			if err != nil {
				return err
			}
			return nnCompute(in, out[0],
				func(x [][]float32, y []float32) { rnnBackward(d, x[:n], x[n:], y) },
				func(x [][]float64, y []float64) { rnnBackward(d, x[:n], x[n:], y) })
		},
	})
}

// rnnBackCheck checks _backward_RNN's arrays: RNN's n inputs, then the gradient of each
// of its results.
func rnnBackCheck(fwd *ops.Op, in []*ndarray.NDArray, at ops.Attrs) (*rnnDims, int, error) {
	n := 3 + nnB2i(at.Str("mode") == "lstm")
	if len(in) <= n {
		return nil, 0, mxerr.ValueErr("_backward_RNN: expected RNN's %d arrays and out_grads, got %d arrays", n, len(in))
	}
	d, err := rnnCheck(in[:n], at)
	if err != nil {
		return nil, 0, err
	}
	res, _ := fwd.InferOuts(in[:n], at)
	if len(in) != n+len(res) {
		return nil, 0, mxerr.ValueErr("_backward_RNN: expected %d out_grads, got %d", len(res), len(in)-n)
	}
	for i, r := range res {
		if err := nnCheckShape("_backward_RNN", "out_grad", in[n+i].Shape(), r.Shape); err != nil {
			return nil, 0, err
		}
	}
	return d, n, nil
}

var rnnGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	flat, err := runBackward(c, "_backward_RNN", c.Attrs, append(slices.Clone(c.In), c.OutGrad...)...)
	if err != nil {
		return nil, err
	}
	defer flat.Release()
	s := &ops.GradCalls{C: c}
	grads := make([]*ndarray.NDArray, len(c.Shapes))
	off := 0
	for i, shape := range c.Shapes {
		size, _ := ndarray.Size(shape)
		if c.Need[i] {
			part := s.Call("slice_axis", fmt.Sprintf("axis=0;begin=%d;end=%d", off, off+size), flat)
			grads[i] = s.Reshape(part, shape)
		}
		off += size
	}
	return s.Done(grads...)
}}

// rnnBackward writes into g the gradients of RNN's inputs x from those of its results dy.
func rnnBackward[T nnFloat](d *rnnDims, x, dy [][]T, g []T) {
	tr := &rnnTrace[T]{}
	rnnForward(d, x, [][]T{make([]T, d.T*d.N*d.D*d.H)}, tr)
	clear(g)
	ss := d.L * d.D * d.N * d.H
	ddata, dparams := g[:d.T*d.N*d.I], g[d.T*d.N*d.I:][:d.paramSize()]
	dstates := [][]T{g[len(ddata)+len(dparams):][:ss], nil}
	if len(x) > 3 {
		dstates[1] = g[len(g)-ss:]
	}
	for i, ds := range dstates { // the final states' gradients start the recurrence
		if ds != nil && len(dy) > i+1 {
			copy(ds, dy[i+1])
		}
	}
	dY := slices.Clone(dy[0])
	for l := d.L - 1; l >= 0; l-- {
		dX := ddata
		if l > 0 {
			dX = make([]T, d.T*d.N*d.in(l))
		}
		for dir := 0; dir < d.D; dir++ {
			rnnLayerBack(d, l, dir, tr, x[1], dY, dX, dparams, dstates)
		}
		if m := tr.masks[max(l-1, 0)]; l > 0 && m != nil {
			for i := range dX {
				dX[i] *= m[i]
			}
		}
		dY = dX
	}
}

// rnnLayerBack backpropagates direction dir of layer l through time from dY, the
// gradient of the layer's output: it adds the gradient of the layer's input to dX and
// writes those of its parameters and initial states (which hold the final states'
// gradients on entry).
func rnnLayerBack[T nnFloat](d *rnnDims, l, dir int, tr *rnnTrace[T], params, dY, dX, dparams []T, dstates [][]T) {
	k, gh, nh, ni := l*d.D+dir, d.G*d.H, d.N*d.H, d.in(l)
	wx, wh, bx, bh := d.offsets(l, dir)
	dh := dstates[0][k*nh : (k+1)*nh]
	var dc []T
	if dstates[1] != nil {
		dc = dstates[1][k*nh : (k+1)*nh]
	}
	dxg := make([]T, d.T*d.N*gh) // by time step
	dhg := make([]T, d.T*d.N*gh) // by step, as tr.hs
	tmp := make([]T, max(nh, d.T*d.N*ni))
	hs, cs := tr.hs[k], tr.cs[k]
	for s := d.T - 1; s >= 0; s-- {
		t := d.rnnStep(dir, s)
		for n := 0; n < d.N; n++ {
			row := dY[(t*d.N+n)*d.D*d.H+dir*d.H:][:d.H]
			for j, v := range row {
				dh[n*d.H+j] += v
			}
		}
		st := rnnState[T]{d: d, hp: hs[s*nh:], h: hs[(s+1)*nh:], g: tr.gates[k][s*d.N*gh:]}
		if cs != nil {
			st.cp, st.c = cs[s*nh:], cs[(s+1)*nh:]
		}
		if tr.hn[k] != nil {
			st.hn = tr.hn[k][s*nh:]
		}
		st.backward(dh, dc, dxg[t*d.N*gh:], dhg[s*d.N*gh:], tmp)
		nnGemm(d.N, d.H, gh, dhg[s*d.N*gh:], gh, 1, params[wh:], d.H, 1, tmp, true)
		for i := range dh {
			dh[i] += tmp[i]
		}
	}
	nnGemm(gh, d.H, d.T*d.N, dhg, 1, gh, hs, d.H, 1, dparams[wh:], true)
	nnGemm(gh, ni, d.T*d.N, dxg, 1, gh, tr.xs[l], ni, 1, dparams[wx:], true)
	rnnColSum(dparams[bh:bh+gh], dhg, d.T*d.N)
	rnnColSum(dparams[bx:bx+gh], dxg, d.T*d.N)
	nnGemm(d.T*d.N, ni, gh, dxg, gh, 1, params[wx:], ni, 1, tmp, true)
	for i := range dX {
		dX[i] += tmp[i]
	}
}

// rnnColSum sets dst to the sums of the columns of the rows x len(dst) matrix m.
func rnnColSum[T nnFloat](dst, m []T, rows int) {
	clear(dst)
	for r := 0; r < rows; r++ {
		for j, v := range m[r*len(dst) : (r+1)*len(dst)] {
			dst[j] += v
		}
	}
}
