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

// SeedBlock is how many elements one generator draws in FillSeeded and SeededBlocks.
// Blocks are fixed by element index, so a seed gives the same values on any number of
// cores; 2^16 draws (0.2-1 ms) are worth a goroutine's wake-up.
const SeedBlock = 1 << 16

// blockSeed is block b's generator seed: the operation's own for block 0 (an array of up
// to SeedBlock elements draws the one stream FillSampled would), a SplitMix64 mix of it
// and b for the others.
func blockSeed(seed [2]uint64, b int) [2]uint64 {
	if b == 0 {
		return seed
	}
	return [2]uint64{splitMix(seed[0] ^ uint64(b)), splitMix(seed[1] + uint64(b)*0x9e3779b97f4a7c15)}
}

func splitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// SeededBlocks runs fn over [0, n) in blocks of SeedBlock elements, each with a generator
// of its own seeded from seed and the block's index, spread over the cores. fn must
// write only its block's elements.
func SeededBlocks(n int, seed [2]uint64, fn func(g *rand.PCG, lo, hi int)) {
	blocks := (n + SeedBlock - 1) / SeedBlock
	run := func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			s := blockSeed(seed, b)
			fn(rand.NewPCG(s[0], s[1]), b*SeedBlock, min((b+1)*SeedBlock, n))
		}
	}
	if tasks := min(ndarray.Cores(), blocks); tasks > 1 {
		ndarray.ForChunks(blocks, tasks, run)
		return
	}
	run(0, blocks)
}

// FillSeeded writes sample's draws into a in C order, from SeededBlocks' generators.
func FillSeeded(a *ndarray.NDArray, seed [2]uint64, sample func(*rand.Rand) float64) {
	fillTyped(a, seed, func(g *rand.PCG) func() float64 {
		r := rand.New(g)
		return func() float64 { return sample(r) }
	}, nil, nil)
}

// FillUniform is FillSeeded with low + (high-low)*r.Float64() (the same values), without
// a call per element.
func FillUniform(a *ndarray.NDArray, seed [2]uint64, low, high float64) {
	w := high - low
	fillTyped(a, seed, nil, func(g *rand.PCG, v []float32) {
		for i := range v {
			v[i] = float32(low + w*unit(g.Uint64()))
		}
	}, func(g *rand.PCG, v []float64) {
		for i := range v {
			v[i] = low + w*unit(g.Uint64())
		}
	})
}

// FillExponential is FillSeeded with r.ExpFloat64() / lam (the same values), without the
// three calls through function values per element that the general path makes:
// bench_index.py's 4M float32 17.8 -> 10.3 ms.
func FillExponential(a *ndarray.NDArray, seed [2]uint64, lam float64) {
	fillTyped(a, seed, nil, func(g *rand.PCG, v []float32) {
		r := rand.New(g)
		for i := range v {
			v[i] = float32(r.ExpFloat64() / lam)
		}
	}, func(g *rand.PCG, v []float64) {
		r := rand.New(g)
		for i := range v {
			v[i] = r.ExpFloat64() / lam
		}
	})
}

// unit is rand.Rand.Float64's map of a draw to [0, 1).
func unit(x uint64) float64 { return float64(x<<11>>11) / (1 << 53) }

// fillTyped fills a block by block, through f32 and f64 when given (else with next's
// values): contiguous float32/float64 results in place, others drawn in order into a
// float64 buffer, then stored.
func fillTyped(a *ndarray.NDArray, seed [2]uint64, next func(*rand.PCG) func() float64,
	f32 func(*rand.PCG, []float32), f64 func(*rand.PCG, []float64)) {
	n := a.Size()
	switch {
	case a.Contiguous() && a.DType() == ndarray.Float32:
		fillBlocks(unsafe.Slice((*float32)(a.Data()), n), seed, next, f32)
	case a.Contiguous() && a.DType() == ndarray.Float64:
		fillBlocks(unsafe.Slice((*float64)(a.Data()), n), seed, next, f64)
	default:
		v := make([]float64, n)
		fillBlocks(v, seed, next, f64)
		i := 0
		FillInOrder(a, func() float64 { i++; return v[i-1] })
	}
}

func fillBlocks[T float32 | float64](v []T, seed [2]uint64, next func(*rand.PCG) func() float64,
	typed func(*rand.PCG, []T)) {
	SeededBlocks(len(v), seed, func(g *rand.PCG, lo, hi int) {
		if typed != nil {
			typed(g, v[lo:hi])
			return
		}
		draw := next(g)
		for i := lo; i < hi; i++ {
			v[i] = T(draw())
		}
	})
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
