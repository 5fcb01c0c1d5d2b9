package ops

import (
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Seed resets the generator so that later random fills repeat.
func Seed(seed uint64) {
	rngMu.Lock()
	rng = rand.New(rand.NewPCG(seed, 0x5eed))
	rngMu.Unlock()
}

// DrawSeed takes the next seed pair from the process generator.
func DrawSeed() [2]uint64 {
	rngMu.Lock()
	defer rngMu.Unlock()
	return [2]uint64{rng.Uint64(), rng.Uint64()}
}

// FillSampled writes samples into a in C order (sequentially: the stream is ordered).
func FillSampled(a *ndarray.NDArray, r *rand.Rand, sample func(*rand.Rand) float64) {
	FillInOrder(a, func() float64 { return sample(r) })
}

// FillInOrder stores next()'s values into a, element by element in C order.
func FillInOrder(a *ndarray.NDArray, next func() float64) {
	if a.Contiguous() { // the usual result: typed stores, without a complex128 per element
		switch n := a.Size(); a.DType() {
		case ndarray.Float32:
			v := unsafe.Slice((*float32)(a.Data()), n)
			for i := range v {
				v[i] = float32(next())
			}
			return
		case ndarray.Float64:
			v := unsafe.Slice((*float64)(a.Data()), n)
			for i := range v {
				v[i] = next()
			}
			return
		}
	}
	store := IOTable[a.DType()].StoreC
	size := a.DType().Size()
	base := a.Storage().Ptr()
	ndarray.Rows(a.Shape(), Operands(a), func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			store(unsafe.Add(base, (offs[0]+i*steps[0])*size), complex(next(), 0))
		}
	})
}

// One seeded generator for the process, as MXNet's mx.random.seed sets one global state.
// Each random operation draws its own seed from it when it is pushed, so results depend
// on the order of calls, not on the order the engine happens to run them in.
var (
	rngMu sync.Mutex
	rng   = rand.New(rand.NewPCG(0x6d78676f, 0x5eed))
)
