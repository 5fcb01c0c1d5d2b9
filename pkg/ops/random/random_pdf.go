package random

import (
	"math"
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's random_pdf_<name>: the density (or mass) of each sample under the distribution
// whose parameters sit at the sample's leading index: parameters of shape P, samples of
// shape P + (n, ...). MXNet's formulas and quirks are kept: pdf_gamma's beta is a rate
// (random_gamma's is a scale), pdf_uniform is 1/(high-low) outside [low, high) too, and
// no parameter is checked. One departure: pdf_normal with sigma < 0 uses |sigma| (MXNet
// returns a negative density).

type density struct {
	name   string
	params []string
	logPDF func(x float64, p []float64) float64
}

var densities = []density{
	{"uniform", []string{"low", "high"}, func(_ float64, p []float64) float64 { return -math.Log(p[1] - p[0]) }},
	{"normal", []string{"mu", "sigma"}, normalLogPDF},
	{"exponential", []string{"lam"}, func(x float64, p []float64) float64 { return math.Log(p[0]) - p[0]*x }},
	{"gamma", []string{"alpha", "beta"}, func(x float64, p []float64) float64 {
		return p[0]*math.Log(p[1]) - lgamma(p[0]) + xLogY(p[0]-1, x) - p[1]*x
	}},
	{"poisson", []string{"lam"}, func(x float64, p []float64) float64 { return x*math.Log(p[0]) - p[0] - lgamma(x+1) }},
	{"negative_binomial", []string{"k", "p"}, func(x float64, p []float64) float64 { return negBinomialLogPMF(x, p[0], p[1]) }},
	{"generalized_negative_binomial", []string{"mu", "alpha"}, func(x float64, p []float64) float64 {
		if p[1] == 0 {
			return x*math.Log(p[0]) - p[0] - lgamma(x+1)
		}
		return negBinomialLogPMF(x, 1/p[1], 1/(1+p[1]*p[0]))
	}},
}

func normalLogPDF(x float64, p []float64) float64 {
	z := (x - p[0]) / p[1]
	return -0.5*z*z - math.Log(math.Abs(p[1])) - 0.5*math.Log(2*math.Pi)
}

func negBinomialLogPMF(x, k, p float64) float64 {
	return lgamma(x+k) - lgamma(x+1) - lgamma(k) + k*math.Log(p) + x*math.Log1p(-p)
}

// xLogY is x*log(y), 0 where x is 0 (the density of gamma(1, beta) at 0 is beta).
func xLogY(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(y)
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

const pdfDoc = "\n\nParameters have one shape P; samples have shape P + (...), and each is scored under the " +
	"parameters at its leading index. The result has the samples' shape and dtype; is_log gives the log density."

func init() {
	isLog := ops.Param{Name: "is_log", Kind: ops.ParamBool, Default: "0", Doc: "return the log of the density"}
	for i := range densities {
		d := &densities[i]
		ops.Register(&ops.Op{
			Name: "random_pdf_" + d.name, Doc: "The density of samples under the " + d.name + " distribution." + pdfDoc,
			Category: ops.General, Inputs: append([]string{"sample"}, d.params...), Params: []ops.Param{isLog},
			Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
				return pdfShape("random_pdf_"+d.name, in, 0)
			},
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				x, params := pdfInputs(in)
				per := len(x) / max(len(params[0]), 1)
				p := make([]float64, len(params))
				i := 0
				ops.FillInOrder(out[0], func() float64 {
					for j := range params {
						p[j] = params[j][i/per]
					}
					v := d.logPDF(x[i], p)
					i++
					return expUnlessLog(v, at.Bool("is_log"))
				})
				return nil
			},
		})
	}
	ops.Register(&ops.Op{
		Name: "random_pdf_dirichlet", Doc: "The density of samples under the Dirichlet distribution: alpha has shape " +
			"P + (k,), samples P + (n, ..., k).\n\nThe result has the samples' shape without the last axis.",
		Category: ops.General, Inputs: []string{"sample", "alpha"}, Params: []ops.Param{isLog},
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			return pdfShape("random_pdf_dirichlet", in, 1)
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			x, params := pdfInputs(in)
			alpha := params[0]
			k := in[1].Shape()[in[1].NDim()-1]
			per := len(x) / k / (len(alpha) / k)
			i := 0
			ops.FillInOrder(out[0], func() float64 {
				a := alpha[(i/per)*k : (i/per+1)*k]
				xs := x[i*k : (i+1)*k]
				sum, v := 0.0, 0.0
				for j, aj := range a {
					sum += aj
					v += (aj-1)*math.Log(xs[j]) - lgamma(aj)
				}
				i++
				return expUnlessLog(v+lgamma(sum), at.Bool("is_log"))
			})
			return nil
		},
	})
}

// pdfShape checks that the parameters share a shape P (for Dirichlet, P + (k,), with
// vector = 1) that leads the samples' shape, and returns the result's shape.
func pdfShape(name string, in []*ndarray.NDArray, vector int) ([]int, ndarray.DType, error) {
	s := in[0].Shape()
	ps := in[1].Shape()
	for _, a := range in {
		if err := checkSampleDType(a.DType()); err != nil {
			return nil, 0, err
		}
		if a != in[0] && !slices.Equal(a.Shape(), ps) {
			return nil, 0, mxerr.ValueErr("%s: the parameters have shapes %s and %s", name, ops.FmtShape(ps), ops.FmtShape(a.Shape()))
		}
	}
	lead := ps[:len(ps)-vector]
	if vector == 1 && (len(ps) == 0 || len(s) < len(ps) || s[len(s)-1] != ps[len(ps)-1]) {
		return nil, 0, mxerr.ValueErr("%s: samples of shape %s do not end in alpha's last axis %s", name, ops.FmtShape(s), ops.FmtShape(ps))
	}
	if len(s) < len(lead) || !slices.Equal(s[:len(lead)], lead) {
		return nil, 0, mxerr.ValueErr("%s: samples of shape %s must have shape %s + (...)", name, ops.FmtShape(s), ops.FmtShape(lead))
	}
	if vector == 1 {
		s = s[:len(s)-1]
	}
	return s, in[0].DType(), nil
}

func pdfInputs(in []*ndarray.NDArray) ([]float64, [][]float64) {
	params := make([][]float64, len(in)-1)
	for i, a := range in[1:] {
		params[i] = ops.IndexValues(a)
	}
	return ops.IndexValues(in[0]), params
}

func expUnlessLog(v float64, isLog bool) float64 {
	if isLog {
		return v
	}
	return math.Exp(v)
}
