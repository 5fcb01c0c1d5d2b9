package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// _ctc_loss is MXNet's CTCLoss forward (pysrc/mxgo/ndarray/loss.py passes its optional
// length arrays): the negative log-likelihood of each label sequence under the softmax of
// data's activations, by the CTC forward recursion in log space. As MXNet: blank_label
// 'first' makes channel 0 the blank and label 0 padding; 'last' makes the last channel the
// blank and -1 padding; a sequence that cannot fit its frames has loss 0.

func init() {
	ops.Register(&ops.Op{
		Name: "_ctc_loss",
		Doc: "CTC loss of data (T, N, alphabet), label (N, L) and, when use_data_lengths / use_label_lengths, " +
			"data_lengths (N,) and label_lengths (N,), in that order. The result has shape (N,).",
		Category: ops.General, Inputs: []string{"*arrays"}, DTypes: ops.FloatDTypes,
		Params: []ops.Param{
			{Name: "use_data_lengths", Kind: ops.ParamBool, Default: "0", Doc: "data_lengths is given"},
			{Name: "use_label_lengths", Kind: ops.ParamBool, Default: "0", Doc: "label_lengths is given"},
			{Name: "blank_label", Kind: ops.ParamString, Default: "first", Choices: []string{"first", "last"}, Doc: "'first' or 'last'"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			want := 2
			for _, p := range []string{"use_data_lengths", "use_label_lengths"} {
				if at.Bool(p) {
					want++
				}
			}
			if len(in) != want {
				return nil, 0, mxerr.ValueErr("CTCLoss: expected %d arrays, got %d", want, len(in))
			}
			d, l := in[0].Shape(), in[1].Shape()
			if len(d) != 3 || d[2] < 2 || len(l) != 2 || l[0] != d[1] {
				return nil, 0, mxerr.ValueErr("CTCLoss: needs data (T, N, alphabet >= 2) and label (N, L), got %s and %s",
					ops.FmtShape(d), ops.FmtShape(l))
			}
			for _, a := range in[2:] {
				if s := a.Shape(); len(s) != 1 || s[0] != d[1] {
					return nil, 0, mxerr.ValueErr("CTCLoss: lengths must have shape (%d,), got %s", d[1], ops.FmtShape(s))
				}
			}
			return []int{d[1]}, in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			s := in[0].Shape()
			t, n, k := s[0], s[1], s[2]
			x, labels := ops.IndexValues(in[0]), ops.IndexValues(in[1])
			l := in[1].Shape()[1]
			blank, pad := 0.0, 0.0
			if at.Str("blank_label") == "last" {
				blank, pad = float64(k-1), -1
			}
			var dataLens, labelLens []float64
			rest := in[2:]
			if at.Bool("use_data_lengths") {
				dataLens, rest = ops.IndexValues(rest[0]), rest[1:]
			}
			if at.Bool("use_label_lengths") {
				labelLens = ops.IndexValues(rest[0])
			}
			losses := make([]float64, n)
			for b := range n {
				frames := t
				if dataLens != nil {
					frames = int(dataLens[b])
				}
				seq := labels[b*l : (b+1)*l]
				if labelLens != nil {
					seq = seq[:min(max(int(labelLens[b]), 0), l)]
				} else {
					for i, v := range seq {
						if v == pad {
							seq = seq[:i]
							break
						}
					}
				}
				if frames < 0 || frames > t {
					return mxerr.ValueErr("CTCLoss: data length %d is outside [0, %d]", frames, t)
				}
				probs := make([][]float64, frames)
				for f := range frames {
					probs[f] = logSoftmaxRow(x, (f*n+b)*k, k)
				}
				loss, err := ctcNegLogLikelihood(probs, seq, int(blank), k)
				if err != nil {
					return err
				}
				losses[b] = loss
			}
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return losses[i-1] })
			return nil
		},
	})
}

func logSoftmaxRow(x []float64, off, k int) []float64 {
	row := x[off : off+k]
	m := math.Inf(-1)
	for _, v := range row {
		m = math.Max(m, v)
	}
	sum := 0.0
	for _, v := range row {
		sum += math.Exp(v - m)
	}
	out := make([]float64, k)
	for i, v := range row {
		out[i] = v - m - math.Log(sum)
	}
	return out
}

// ctcNegLogLikelihood runs the forward recursion over the label with blanks between and
// around its symbols; 0 where no path fits (MXNet's value).
func ctcNegLogLikelihood(lp [][]float64, seq []float64, blank, k int) (float64, error) {
	ext := make([]int, 0, 2*len(seq)+1)
	ext = append(ext, blank)
	for _, v := range seq {
		c := int(v)
		if v != math.Trunc(v) || c < 0 || c >= k || c == blank {
			return 0, mxerr.ValueErr("CTCLoss: label %g is not a symbol of an alphabet of %d with blank %d", v, k, blank)
		}
		ext = append(ext, c, blank)
	}
	if len(lp) == 0 {
		return 0, nil
	}
	neg := math.Inf(-1)
	alpha := make([]float64, len(ext))
	for i := range alpha {
		alpha[i] = neg
	}
	alpha[0] = lp[0][ext[0]]
	if len(ext) > 1 {
		alpha[1] = lp[0][ext[1]]
	}
	next := make([]float64, len(ext))
	for f := 1; f < len(lp); f++ {
		for s := range ext {
			a := alpha[s]
			if s > 0 {
				a = logAddExp(a, alpha[s-1])
			}
			if s > 1 && ext[s] != blank && ext[s] != ext[s-2] {
				a = logAddExp(a, alpha[s-2])
			}
			next[s] = a + lp[f][ext[s]]
		}
		alpha, next = next, alpha
	}
	ll := alpha[len(ext)-1]
	if len(ext) > 1 {
		ll = logAddExp(ll, alpha[len(ext)-2])
	}
	if math.IsInf(ll, -1) {
		return 0, nil
	}
	return -ll, nil
}

func logAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}
