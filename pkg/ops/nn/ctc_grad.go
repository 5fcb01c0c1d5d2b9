package nn

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// CTCLoss's gradient, MXNet 1.9.1's (warp-ctc's, checked against it): with respect to
// data only, for each frame within the sequence's length
//
//	dx[f, b, :] = g[b] * (softmax(x[f, b, :]) - occupancy[f, :])
//
// with occupancy[f, c] the posterior probability that frame f emits symbol c, from the
// forward and backward recursions (alpha*beta over the label's positions holding c);
// frames past a sequence's length, and sequences no path fits (loss 0), get zero. The
// labels and lengths get none (MXNet gives them zeros). The recursions are no operator:
// _backward_ctc_loss, without a gradient of its own (as MXNet's backward nodes).

func init() {
	fwd, _ := ops.Lookup("_ctc_loss") // ctc.go, initialised before this file
	registerBackward(fwd, "_backward_ctc_loss", 0, func(in []*ndarray.NDArray, at ops.Attrs) ([]float64, error) {
		p, err := newCTCProblem(in[:len(in)-1], at)
		if err != nil {
			return nil, err
		}
		head := ops.IndexValues(in[len(in)-1])
		dx := make([]float64, p.t*p.n*p.k)
		for b := range p.n {
			if err := ctcGradOf(p, b, head[b], dx); err != nil {
				return nil, err
			}
		}
		return dx, nil
	})
}

var ctcGrad = backwardGrad("_backward_ctc_loss")

// ctcGradOf sets sequence b's frames of dx (T, N, K) to g times its loss's gradient.
func ctcGradOf(p *ctcProblem, b int, g float64, dx []float64) error {
	ext, err := ctcExtended(p.seqs[b], p.blank, p.k)
	if err != nil || p.frames[b] == 0 {
		return err
	}
	lp := p.logProbs(b)
	alphas, betas := ctcAlphas(lp, ext, p.blank), ctcBetas(lp, ext, p.blank)
	ll := ctcLogLikelihood(alphas[len(lp)-1])
	if math.IsInf(ll, -1) {
		return nil // no path fits: MXNet's loss 0 and gradient 0
	}
	occ := make([]float64, p.k)
	for f := range lp {
		for c := range occ {
			occ[c] = math.Inf(-1)
		}
		for s, c := range ext {
			// alpha and beta both hold frame f's probability of c: divide it out once
			occ[c] = logAddExp(occ[c], alphas[f][s]+betas[f][s]-lp[f][c])
		}
		row := dx[(f*p.n+b)*p.k : (f*p.n+b+1)*p.k]
		for c := range row {
			row[c] = g * (math.Exp(lp[f][c]) - math.Exp(occ[c]-ll))
		}
	}
	return nil
}

// ctcBetas is the backward recursion: betas[f][s], the log-probability of the paths over
// frames f..end that start at ext[s] and emit the rest of the label.
func ctcBetas(lp [][]float64, ext []int, blank int) [][]float64 {
	last, n := len(lp)-1, len(ext)
	betas := make([][]float64, len(lp))
	beta := make([]float64, n)
	for i := range beta {
		beta[i] = math.Inf(-1)
	}
	beta[n-1] = lp[last][ext[n-1]]
	if n > 1 {
		beta[n-2] = lp[last][ext[n-2]]
	}
	betas[last] = beta
	for f := last - 1; f >= 0; f-- {
		next, cur := betas[f+1], make([]float64, n)
		for s := range ext {
			b := next[s]
			if s+1 < n {
				b = logAddExp(b, next[s+1])
			}
			if s+2 < n && ext[s] != blank && ext[s] != ext[s+2] {
				b = logAddExp(b, next[s+2])
			}
			cur[s] = b + lp[f][ext[s]]
		}
		betas[f] = cur
	}
	return betas
}
