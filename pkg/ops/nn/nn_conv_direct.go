package nn

import (
	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// convForwardDirect is convForward by internal/simd's direct convolution, reporting
// false (doing nothing) where it does not take g: float32 1-D and 2-D windows at unit
// stride and dilation that are not pointwise, kernels up to Conv2DMaxKW wide, with at
// least two filters a group and two outputs an image (a product with one row or column
// of results takes the matrix-vector kernel, whose sums are grouped otherwise). A LeNet's
// layers (6 and 16 filters of 5x5) wrote 25 and 150 im2col rows an output for a product
// that read each row 6 or 16 times; the direct loops read the images in place: 374 -> 166
// and 301 -> 220 µs a batch of 64 (best of 300). The sums are the packed product's, so
// the bits are the im2col path's.
func convForwardDirect[T nnFloat](g *convGeom, x [][]T, y []T) bool {
	xs, ok1 := any(x[0]).([]float32)
	ws, ok2 := any(x[1]).([]float32)
	ys, ok3 := any(y).([]float32)
	cg, fg, iv, ov := g.c/g.group, g.f/g.group, g.inVol(), g.outVol()
	if !ok1 || !ok2 || !ok3 || g.n == 0 || g.nd > 2 || g.pointwise() || fg < 2 || ov < 2 ||
		g.s != [3]int{1, 1, 1} || g.d != [3]int{1, 1, 1} || g.k[2] > simd.Conv2DMaxKW ||
		!simd.Conv2DReady(ptr32(xs), ptr32(ws), ptr32(ys)) {
		return false
	}
	geom := simd.Conv2D{g.n, cg, g.in[1], g.in[2], fg, g.k[1], g.k[2], g.p[1], g.p[2], g.out[1], g.out[2],
		g.c * iv, g.f * ov}
	rows := cg * g.kernelVol()
	ndarray.ForChunks(g.n, min(ndarray.Cores(), g.n), func(lo, hi int) {
		for gi := range g.group {
			simd.Conv2DF32(&geom, ptr32(xs[gi*cg*iv:]), ptr32(ws[gi*fg*rows:]), ptr32(ys[gi*fg*ov:]), lo, hi)
		}
		convAddBias(g, x, y, lo, hi)
	})
	return true
}
