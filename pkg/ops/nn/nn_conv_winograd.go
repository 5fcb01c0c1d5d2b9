package nn

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// convForwardWinograd is convForward by Winograd's F(2x2, 3x3) (internal/simd's
// winograd.c transforms, nnGemm's products), reporting false (doing nothing) where it does
// not take g: float32 2-D 3x3 windows at unit stride and dilation, one group, at least
// winoMinChannels channels and filters, output rows of at most 2 simd.WinoMaxTW, and
// finite data and weights (the transforms mix a tile's inputs, so an infinity would make
// NaN of outputs whose direct sums never meet it). It multiplies 2.25 times less than
// the direct sums, whose bits it does not give: its results differ from them by a few
// float32 roundings of the terms (tests_go/conv_winograd_test.go bounds it), as oneDNN's
// and cuDNN's Winograd convolutions do.
func convForwardWinograd[T nnFloat](g *convGeom, x [][]T, y []T) bool {
	xs, ok1 := any(x[0]).([]float32)
	ws, ok2 := any(x[1]).([]float32)
	ys, ok3 := any(y).([]float32)
	if !ok1 || !ok2 || !ok3 || !simd.WinogradOn() || g.nd != 2 || g.group != 1 || g.n == 0 ||
		g.k != [3]int{1, 3, 3} || g.s != [3]int{1, 1, 1} || g.d != [3]int{1, 1, 1} ||
		g.c < winoMinChannels || g.f < winoMinChannels || (g.out[2]+1)/2 > simd.WinoMaxTW || winoWaste(g) ||
		!simd.Finite32(ws) || !simd.Finite32(xs[:g.n*g.c*g.inVol()]) {
		return false
	}
	var bias []float32
	if len(x) == 3 {
		bias = any(x[2]).([]float32)
	}
	th, tw := (g.out[1]+1)/2, (g.out[2]+1)/2
	geom := simd.Wino{g.c, g.f, g.in[1], g.in[2], g.p[1], g.p[2], g.out[1], g.out[2], th, tw}
	cores, tiles := ndarray.Cores(), g.n*th*tw
	chunk := min(tiles, max(winoMinChunk, winoChunkFloats/(16*(g.c+g.f))))
	u, v, m := getScratch[float32](16*g.f*g.c), getScratch[float32](16*g.c*chunk), getScratch[float32](16*g.f*chunk)
	defer func() { putScratch(u); putScratch(v); putScratch(m) }()
	ndarray.ForChunks(g.f, min(cores, g.f), func(lo, hi int) { simd.WinoFilters(&geom, u, ws, lo, hi) })
	for t0 := 0; t0 < tiles; t0 += chunk {
		t1 := min(tiles, t0+chunk)
		nt := t1 - t0
		ndarray.ForChunks(g.c, min(cores, g.c), func(lo, hi int) { simd.WinoInputs(&geom, v, xs, t0, t1, lo, hi) })
		ndarray.ForChunks(16, min(cores, 16), func(lo, hi int) { // one product a core: 16 to share
			for xi := lo; xi < hi; xi++ {
				nnGemm(g.f, nt, g.c, u[xi*g.f*g.c:], g.c, 1, v[xi*g.c*nt:], 1, g.c, m[xi*g.f*nt:], false)
			}
		})
		ndarray.ForChunks(g.f, min(cores, g.f), func(lo, hi int) { simd.WinoOutputs(&geom, ys, m, bias, t0, t1, lo, hi) })
	}
	return true
}

// winoWaste reports whether the tiles would compute over a fifth more outputs than the
// planes have: small planes of odd sides (7x7 takes 8x8, 31% more), where the direct
// paths are as fast.
func winoWaste(g *convGeom) bool {
	tiled := 4 * ((g.out[1] + 1) / 2) * ((g.out[2] + 1) / 2)
	return 5*tiled > 6*g.out[1]*g.out[2]
}

const (
	// winoMinChannels is the fewest channels and filters Winograd takes: below, its
	// products are too thin to beat the direct convolution.
	winoMinChannels = 32
	// winoChunkFloats bounds the transformed inputs and products of one chunk of tiles
	// (1 MB, the size of a core's L2 cache), so that the products read them from the cache
	// they were written to; winoMinChunk keeps the products from being too thin. On the
	// AMD VM, 256 -> 256 channels at 14x14, batch 8 (BenchmarkConv3x3, best of 3): 5.4-6.0
	// ms with chunks of 64 tiles, 6.5-6.8 ms with 256-512 (7.6 ms at the same chunks
	// before the inputs were transformed 16 channels a vector; 10.6 ms direct).
	winoChunkFloats = 1 << 18
	winoMinChunk    = 64
)
