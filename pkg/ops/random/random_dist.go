package random

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNet's continuous and count distributions, each registered twice: random_<name>
// (scalar parameters, a given shape) and sample_<name> (parameters as arrays: shape is
// appended to theirs, one set of draws per element). Parameter names, defaults and the
// checks are MXNet 1.9.1's; where MXNet accepts a parameter and returns garbage
// (negative_binomial with p = 0 gives -2^31) mxgo refuses it.

type distribution struct {
	name     string
	doc      string
	params   []string
	defaults []string
	check    func(p []float64) error
	sample   func(r *rand.Rand, p []float64) float64
}

// fills give some distributions' sample values faster, without a call per element.
var fills = map[string]func(a *ndarray.NDArray, seed [2]uint64, p []float64){
	"uniform":     func(a *ndarray.NDArray, seed [2]uint64, p []float64) { ops.FillUniform(a, seed, p[0], p[1]) },
	"exponential": func(a *ndarray.NDArray, seed [2]uint64, p []float64) { ops.FillExponential(a, seed, p[0]) },
}

var distributions = []distribution{
	{"uniform", "the uniform distribution on [low, high)", []string{"low", "high"}, []string{"0", "1"},
		func(p []float64) error {
			return need(p[1] >= p[0], "uniform: low (%g) must not exceed high (%g)", p[0], p[1])
		},
		func(r *rand.Rand, p []float64) float64 { return p[0] + (p[1]-p[0])*r.Float64() }},
	{"normal", "the normal distribution N(loc, scale**2)", []string{"loc", "scale"}, []string{"0", "1"},
		func(p []float64) error { return need(p[1] > 0, "normal: scale must be positive, got %g", p[1]) },
		func(r *rand.Rand, p []float64) float64 { return p[0] + p[1]*r.NormFloat64() }},
	{"exponential", "the exponential distribution with rate lam (mean 1/lam)", []string{"lam"}, []string{"1"},
		func(p []float64) error { return need(p[0] > 0, "exponential: lam must be positive, got %g", p[0]) },
		func(r *rand.Rand, p []float64) float64 { return r.ExpFloat64() / p[0] }},
	{"gamma", "the gamma distribution with shape alpha and scale beta", []string{"alpha", "beta"}, []string{"1", "1"},
		func(p []float64) error {
			return need(p[0] > 0 && p[1] > 0, "gamma: alpha and beta must be positive, got %g and %g", p[0], p[1])
		},
		func(r *rand.Rand, p []float64) float64 { return gammaDraw(r, p[0]) * p[1] }},
	{"poisson", "the Poisson distribution with mean lam (counts, in a floating-point dtype)", []string{"lam"}, []string{"1"},
		func(p []float64) error { return need(p[0] >= 0, "poisson: lam must be non-negative, got %g", p[0]) },
		func(r *rand.Rand, p []float64) float64 { return poissonDraw(r, p[0]) }},
	{"negative_binomial", "the negative binomial distribution: failures before the k-th success of trials " +
		"that succeed with probability p", []string{"k", "p"}, []string{"1", "1"},
		func(p []float64) error {
			return need(p[0] >= 0 && p[1] > 0 && p[1] <= 1, "negative_binomial: k must be non-negative and p in (0, 1], got %g and %g", p[0], p[1])
		},
		func(r *rand.Rand, p []float64) float64 {
			if p[0] == 0 || p[1] == 1 {
				return 0
			}
			return poissonDraw(r, gammaDraw(r, p[0])*(1-p[1])/p[1])
		}},
	{"generalized_negative_binomial", "the generalized negative binomial distribution with mean mu and dispersion alpha",
		[]string{"mu", "alpha"}, []string{"1", "1"},
		func(p []float64) error {
			return need(p[0] >= 0 && p[1] >= 0, "generalized_negative_binomial: mu and alpha must be non-negative, got %g and %g", p[0], p[1])
		},
		func(r *rand.Rand, p []float64) float64 {
			if p[1] == 0 || p[0] == 0 {
				return poissonDraw(r, p[0])
			}
			return poissonDraw(r, gammaDraw(r, 1/p[1])*p[1]*p[0])
		}},
}

func need(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return mxerr.ValueErr(format, args...)
}

func init() {
	for i := range distributions {
		d := &distributions[i]
		names := []string{"random_" + d.name}
		if d.name == "uniform" || d.name == "normal" { // MXNet's older names for the same operators
			names = append(names, d.name)
		}
		ops.RegisterAs(randomOp(d), names...)
		ops.Register(sampleOp(d))
	}
}

var (
	sampleDTypeParam = ops.Param{Name: "dtype", Kind: ops.ParamDType, Default: "float32", Doc: "a floating-point dtype"}
	// (1,) by default where MXNet's random_<name> raises without a shape (its mx.nd.random
	// functions pass (1,))
	randomShapeParam = ops.Param{Name: "shape", Kind: ops.ParamShape, Default: "1", Doc: "shape of the result"}
)

func checkRandomShape(shape []int) error {
	_, err := ndarray.Size(shape)
	return err
}

func checkSampleDType(dt ndarray.DType) error {
	if k := dt.Kind(); k != ndarray.KindFloat && k != ndarray.KindBfloat {
		return mxerr.TypeErr("random sampling needs a floating-point dtype, got %s", dt)
	}
	return nil
}

func randomOp(d *distribution) *ops.Op {
	var params []ops.Param
	for i, n := range d.params {
		params = append(params, ops.Param{Name: n, Kind: ops.ParamFloat, Default: d.defaults[i], Doc: "a parameter of the distribution"})
	}
	params = append(params, randomShapeParam, sampleDTypeParam)
	return &ops.Op{
		Name: "random_" + d.name, Doc: "Samples from " + d.doc + ". The generator is seeded with mx.random.seed.",
		Category: ops.General, Inputs: []string{}, Params: params,
		Infer: func(_ []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			if err := checkSampleDType(at.DType("dtype")); err != nil {
				return nil, 0, err
			}
			if err := checkRandomShape(at.Ints("shape")); err != nil {
				return nil, 0, err
			}
			return at.Ints("shape"), at.DType("dtype"), d.check(d.values(at))
		},
		Prepare: func(at ops.Attrs) { at["seed"] = ops.DrawSeed() },
		Kernel: func(_, out []*ndarray.NDArray, at ops.Attrs) error {
			seed, p := at["seed"].([2]uint64), d.values(at)
			if fill := fills[d.name]; fill != nil {
				fill(out[0], seed, p)
			} else {
				ops.FillSeeded(out[0], seed, func(r *rand.Rand) float64 { return d.sample(r, p) })
			}
			return nil
		},
	}
}

func (d *distribution) values(at ops.Attrs) []float64 {
	p := make([]float64, len(d.params))
	for i, n := range d.params {
		p[i] = at.Float(n)
	}
	return p
}

func sampleOp(d *distribution) *ops.Op {
	return &ops.Op{
		Name: "sample_" + d.name, Grad: ops.ZeroGrad, // MXNet: draws have a zero gradient in their parameters
		Doc: "Samples from " + d.doc + ", with parameters from arrays of one shape: the result has their shape " +
			"followed by shape, and element [i, ...] is drawn with the parameters at i.",
		Category: ops.General, Inputs: d.params,
		Params: []ops.Param{{Name: "shape", Kind: ops.ParamShape, Default: "()", Doc: "the draws per element (() for one)"}, sampleDTypeParam},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			for i, a := range in {
				if !slices.Equal(a.Shape(), in[0].Shape()) {
					return nil, 0, mxerr.ValueErr("sample_%s: %s has shape %s, %s %s", d.name, d.params[i], ops.FmtShape(a.Shape()),
						d.params[0], ops.FmtShape(in[0].Shape()))
				}
				if err := checkSampleDType(a.DType()); err != nil {
					return nil, 0, err
				}
			}
			if err := checkSampleDType(at.DType("dtype")); err != nil {
				return nil, 0, err
			}
			shape := slices.Concat(in[0].Shape(), at.Ints("shape"))
			if len(shape) == 0 { // 0-d parameters (which MXNet lacks), one draw: (1,)
				shape = []int{1}
			}
			if _, err := ndarray.Size(shape); err != nil || len(shape) > ndarray.MaxDims {
				return nil, 0, mxerr.ValueErr("sample_%s: a result of shape %v cannot be made", d.name, shape)
			}
			return shape, at.DType("dtype"), nil
		},
		Prepare: func(at ops.Attrs) { at["seed"] = ops.DrawSeed() },
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			cols := make([][]float64, len(in))
			for i, a := range in {
				cols[i] = ops.IndexValues(a)
			}
			per, _ := ndarray.Size(at.Ints("shape"))
			p := make([]float64, len(in))
			for j := range cols[0] {
				for i := range cols {
					p[i] = cols[i][j]
				}
				if err := d.check(p); err != nil {
					return err
				}
			}
			seed := at["seed"].([2]uint64)
			r := rand.New(rand.NewPCG(seed[0], seed[1]))
			k := 0
			ops.FillSampled(out[0], r, func(r *rand.Rand) float64 {
				for i := range cols {
					p[i] = cols[i][k/per]
				}
				k++
				return d.sample(r, p)
			})
			return nil
		},
	}
}

// gammaDraw samples Gamma(alpha, 1) by Marsaglia and Tsang's method (alpha < 1 boosted by
// U^(1/alpha)).
func gammaDraw(r *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		return gammaDraw(r, alpha+1) * math.Pow(r.Float64(), 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if u := r.Float64(); math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// poissonDraw samples Poisson(lam): by multiplying uniforms below lam = 10, by Hörmann's
// transformed rejection (PTRS) above, which costs O(1) draws for any lam.
func poissonDraw(r *rand.Rand, lam float64) float64 {
	if lam < 10 {
		limit, prod, k := math.Exp(-lam), r.Float64(), 0.0
		for prod > limit {
			prod *= r.Float64()
			k++
		}
		return k
	}
	slam, loglam := math.Sqrt(lam), math.Log(lam)
	b := 0.931 + 2.53*slam
	a := -0.059 + 0.02483*b
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return k
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		lg, _ := math.Lgamma(k + 1)
		if math.Log(v)+math.Log(invAlpha)-math.Log(a/(us*us)+b) <= -lam+k*loglam-lg {
			return k
		}
	}
}
