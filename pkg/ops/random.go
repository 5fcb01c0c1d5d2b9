package ops

import (
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// One seeded generator for the process, as MXNet's mx.random.seed sets one global state.
// Each random operation draws its own seed from it when it is pushed, so results depend
// on the order of calls, not on the order the engine happens to run them in.
var (
	rngMu sync.Mutex
	rng   = rand.New(rand.NewPCG(0x6d78676f, 0x5eed))
)

// Seed resets the generator so that later random fills repeat.
func Seed(seed uint64) {
	rngMu.Lock()
	rng = rand.New(rand.NewPCG(seed, 0x5eed))
	rngMu.Unlock()
}

func init() {
	for _, d := range []struct {
		name, doc, a, b string
		check           func(a, b float64) error
		sample          func(r *rand.Rand, a, b float64) float64
	}{
		{"random_uniform", "Samples from the uniform distribution on [low, high).", "low", "high",
			func(low, high float64) error {
				if high < low {
					return mxerr.ValueErr("uniform: high (%g) must not be less than low (%g)", high, low)
				}
				return nil
			},
			func(r *rand.Rand, low, high float64) float64 { return low + (high-low)*r.Float64() }},
		{"random_normal", "Samples from the normal distribution N(loc, scale**2).", "loc", "scale",
			func(_, scale float64) error {
				if scale < 0 {
					return mxerr.ValueErr("normal: scale (%g) must be non-negative", scale)
				}
				return nil
			},
			func(r *rand.Rand, loc, scale float64) float64 { return loc + scale*r.NormFloat64() }},
	} {
		d := d
		Register(&Op{
			Name: d.name, Doc: d.doc + " The generator is seeded with mx.random.seed.",
			Category: General, Inputs: []string{},
			Params: []Param{
				{Name: d.a, Kind: ParamFloat, Default: "0", Doc: "first parameter of the distribution"},
				{Name: d.b, Kind: ParamFloat, Default: "1", Doc: "second parameter of the distribution"},
				{Name: "shape", Kind: ParamShape, Default: "1", Doc: "shape of the result"},
				{Name: "dtype", Kind: ParamDType, Default: "float32", Doc: "a floating-point dtype"},
			},
			Infer: func(_ []*ndarray.NDArray, at Attrs) ([]int, ndarray.DType, error) {
				dt := at.DType("dtype")
				if k := dt.Kind(); k != ndarray.KindFloat && k != ndarray.KindBfloat {
					return nil, 0, mxerr.TypeErr("random sampling needs a floating-point dtype, got %s", dt)
				}
				if _, err := ndarray.Size(at.Ints("shape")); err != nil {
					return nil, 0, err
				}
				return at.Ints("shape"), dt, d.check(at.Float(d.a), at.Float(d.b))
			},
			Prepare: func(at Attrs) { at["seed"] = drawSeed() },
			Kernel: func(_, out []*ndarray.NDArray, at Attrs) error {
				seed, a, b := at["seed"].([2]uint64), at.Float(d.a), at.Float(d.b)
				fillSampled(out[0], rand.New(rand.NewPCG(seed[0], seed[1])), func(r *rand.Rand) float64 { return d.sample(r, a, b) })
				return nil
			},
		})
	}
}

// Uniform fills a with samples from [low, high) (on the engine).
func Uniform(a *ndarray.NDArray, low, high float64) error {
	return invokeInto("random_uniform", nil, a, randomAttrs(a, "low", low, "high", high))
}

// Normal fills a with samples from N(loc, scale^2) (on the engine).
func Normal(a *ndarray.NDArray, loc, scale float64) error {
	return invokeInto("random_normal", nil, a, randomAttrs(a, "loc", loc, "scale", scale))
}

func randomAttrs(a *ndarray.NDArray, na string, va float64, nb string, vb float64) Attrs {
	return Attrs{na: va, nb: vb, "shape": a.Shape(), "dtype": a.DType()}
}

// drawSeed takes the next seed pair from the process generator.
func drawSeed() [2]uint64 {
	rngMu.Lock()
	defer rngMu.Unlock()
	return [2]uint64{rng.Uint64(), rng.Uint64()}
}

// fillSampled writes samples into a in C order (sequentially: the stream is ordered).
func fillSampled(a *ndarray.NDArray, r *rand.Rand, sample func(*rand.Rand) float64) {
	store := ioTable[a.DType()].storeC
	size := a.DType().Size()
	base := a.Storage().Ptr()
	ndarray.Rows(a.Shape(), operands(a), func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			store(unsafe.Add(base, (offs[0]+i*steps[0])*size), complex(sample(r), 0))
		}
	})
}
