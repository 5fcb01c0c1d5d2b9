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
			p, err := newCTCProblem(in, at)
			if err != nil {
				return err
			}
			losses := make([]float64, p.n)
			for b := range p.n {
				if losses[b], err = ctcNegLogLikelihood(p.logProbs(b), p.seqs[b], p.blank, p.k); err != nil {
					return err
				}
			}
			i := 0
			ops.FillInOrder(out[0], func() float64 { i++; return losses[i-1] })
			return nil
		},
		Grad: ctcGrad,
	})
}

// ctcProblem is a CTCLoss call read from its arrays: data's activations (T, N, K) in
// float64, each sequence's label (without padding) and frame count, and the blank.
type ctcProblem struct {
	t, n, k, blank int
	x              []float64
	seqs           [][]float64
	frames         []int
}

func newCTCProblem(in []*ndarray.NDArray, at ops.Attrs) (*ctcProblem, error) {
	s := in[0].Shape()
	p := &ctcProblem{t: s[0], n: s[1], k: s[2], x: ops.IndexValues(in[0])}
	labels := ops.IndexValues(in[1])
	l := in[1].Shape()[1]
	pad := 0.0
	if at.Str("blank_label") == "last" {
		p.blank, pad = p.k-1, -1
	}
	var dataLens, labelLens []float64
	rest := in[2:]
	if at.Bool("use_data_lengths") {
		dataLens, rest = ops.IndexValues(rest[0]), rest[1:]
	}
	if at.Bool("use_label_lengths") {
		labelLens = ops.IndexValues(rest[0])
	}
	p.seqs, p.frames = make([][]float64, p.n), make([]int, p.n)
	for b := range p.n {
		frames := p.t
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
		if frames < 0 || frames > p.t {
			return nil, mxerr.ValueErr("CTCLoss: data length %d is outside [0, %d]", frames, p.t)
		}
		p.seqs[b], p.frames[b] = seq, frames
	}
	return p, nil
}

// logProbs is the log-softmax of sequence b's activations, frame by frame.
func (p *ctcProblem) logProbs(b int) [][]float64 {
	probs := make([][]float64, p.frames[b])
	for f := range probs {
		probs[f] = logSoftmaxRow(p.x, (f*p.n+b)*p.k, p.k)
	}
	return probs
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
	ext, err := ctcExtended(seq, blank, k)
	if err != nil || len(lp) == 0 {
		return 0, err
	}
	alphas := ctcAlphas(lp, ext, blank)
	ll := ctcLogLikelihood(alphas[len(lp)-1])
	if math.IsInf(ll, -1) {
		return 0, nil
	}
	return -ll, nil
}

// ctcExtended is seq with a blank between and around its symbols, after checking them.
func ctcExtended(seq []float64, blank, k int) ([]int, error) {
	ext := make([]int, 0, 2*len(seq)+1)
	ext = append(ext, blank)
	for _, v := range seq {
		c := int(v)
		if v != math.Trunc(v) || c < 0 || c >= k || c == blank {
			return nil, mxerr.ValueErr("CTCLoss: label %g is not a symbol of an alphabet of %d with blank %d", v, k, blank)
		}
		ext = append(ext, c, blank)
	}
	return ext, nil
}

// ctcAlphas is the forward recursion: alphas[f][s], the log-probability of the paths
// over frames 0..f that end at ext[s] having emitted ext[:s+1].
func ctcAlphas(lp [][]float64, ext []int, blank int) [][]float64 {
	neg := math.Inf(-1)
	alphas := make([][]float64, len(lp))
	alpha := make([]float64, len(ext))
	for i := range alpha {
		alpha[i] = neg
	}
	alpha[0] = lp[0][ext[0]]
	if len(ext) > 1 {
		alpha[1] = lp[0][ext[1]]
	}
	alphas[0] = alpha
	for f := 1; f < len(lp); f++ {
		prev, next := alphas[f-1], make([]float64, len(ext))
		for s := range ext {
			a := prev[s]
			if s > 0 {
				a = logAddExp(a, prev[s-1])
			}
			if s > 1 && ext[s] != blank && ext[s] != ext[s-2] {
				a = logAddExp(a, prev[s-2])
			}
			next[s] = a + lp[f][ext[s]]
		}
		alphas[f] = next
	}
	return alphas
}

// ctcLogLikelihood is the label's log-likelihood from the last frame's alphas: the paths
// that end at the last symbol or at the blank after it.
func ctcLogLikelihood(last []float64) float64 {
	ll := last[len(last)-1]
	if len(last) > 1 {
		ll = logAddExp(ll, last[len(last)-2])
	}
	return ll
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
