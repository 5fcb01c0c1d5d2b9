package ops

import "github.com/mxgo/mxgo/internal/simd"

// The float32 product on CPUs with AVX2 and FMA: internal/simd's packed, cache-blocked
// kernel (simd.Sgemm), and its matrix-vector one for products with a vector (simd.Sgemv;
// the packed kernel would do 16 times the work there). Both read any strides the views
// here have, skip no term (0 * inf is nan, as in NumPy), and are entered once per
// block of the result: a large product is split into row (or column) blocks, one per
// core, each with its own pack buffers. An element's terms are summed in the same order
// whatever block it falls in, so the split changes no bit of the result.

// sgemm is the float32 kernel: the packed one, or gonum's Sgemm.
var sgemm = func() gemmFunc {
	if simd.SgemmSupported {
		return packedSgemm
	}
	return blasSgemm
}()

var blasSgemm = blasGemm(blasImpl.Sgemm, true)

const f32Size = 4

func packedSgemm(m, n, k int, a, b, c mview, parallel bool) {
	switch {
	case simd.Misaligned(f32Size, a.p, b.p, c.p): // imported memory: Go's loads do not care
		blasSgemm(m, n, k, a, b, c, parallel)
	// A contiguous vector against a matrix with contiguous rows or columns.
	case n == 1 && b.rs == 1 && (a.rs == 1 || a.cs == 1 || m == 1): // matrix . vector
		gemmSplitRows(m, k, parallel, func(i0, i1 int) {
			av, cv := a.rows(i0, f32Size), c.rows(i0, f32Size)
			simd.Sgemv(i1-i0, k, av.p, av.rs, av.cs, b.p, cv.p, cv.rs)
		})
	case m == 1 && a.cs == 1 && (b.rs == 1 || b.cs == 1): // vector . matrix: c' = b' . a'
		gemmSplitRows(n, k, parallel, func(j0, j1 int) {
			bv, cv := b.cols(j0, f32Size), c.cols(j0, f32Size)
			simd.Sgemv(j1-j0, k, bv.p, bv.cs, bv.rs, a.p, cv.p, cv.cs)
		})
	case m >= n: // split the rows of c across the cores
		gemmSplitRows(m, n*k, parallel, func(i0, i1 int) {
			av, cv := a.rows(i0, f32Size), c.rows(i0, f32Size)
			simd.Sgemm(i1-i0, n, k, av.p, av.rs, av.cs, b.p, b.rs, b.cs, cv.p, cv.rs)
		})
	default: // or its columns
		gemmSplitRows(n, m*k, parallel, func(j0, j1 int) {
			bv, cv := b.cols(j0, f32Size), c.cols(j0, f32Size)
			simd.Sgemm(m, j1-j0, k, a.p, a.rs, a.cs, bv.p, bv.rs, bv.cs, cv.p, cv.rs)
		})
	}
}
