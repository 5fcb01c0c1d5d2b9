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

// Uniform fills a with samples from [low, high).
func Uniform(a *ndarray.NDArray, low, high float64) error {
	if high < low {
		return mxerr.ValueErr("uniform: high (%g) must not be less than low (%g)", high, low)
	}
	return fillRandom(a, func(r *rand.Rand) float64 { return low + (high-low)*r.Float64() })
}

// Normal fills a with samples from N(loc, scale^2).
func Normal(a *ndarray.NDArray, loc, scale float64) error {
	if scale < 0 {
		return mxerr.ValueErr("normal: scale (%g) must be non-negative", scale)
	}
	return fillRandom(a, func(r *rand.Rand) float64 { return loc + scale*r.NormFloat64() })
}

func fillRandom(a *ndarray.NDArray, sample func(*rand.Rand) float64) error {
	if k := a.DType().Kind(); k != ndarray.KindFloat && k != ndarray.KindBfloat {
		return mxerr.TypeErr("random sampling needs a floating-point dtype, got %s", a.DType())
	}
	if err := a.CheckWritable(); err != nil {
		return err
	}
	rngMu.Lock()
	s1, s2 := rng.Uint64(), rng.Uint64()
	rngMu.Unlock()
	push(nil, []*ndarray.NDArray{a}, func(_, out []*ndarray.NDArray) error {
		a := out[0]
		r := rand.New(rand.NewPCG(s1, s2))
		store := ioTable[a.DType()].storeC
		size := a.DType().Size()
		base := a.Storage().Ptr()
		ndarray.Rows(a.Shape(), operands(a), func(offs []int, n int, steps []int) {
			for i := 0; i < n; i++ {
				store(unsafe.Add(base, (offs[0]+i*steps[0])*size), complex(sample(r), 0))
			}
		})
		return nil
	})
	return nil
}
