package ops

import (
	"runtime"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
)

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
	case simd.Misaligned(f32Size, a.p, b.p, c.p): // imported memory, which C may not read
		alignedSgemm(m, n, k, a, b, c, parallel)
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

// alignedSgemm is packedSgemm on aligned copies of the operands that are not aligned to
// their elements. Each copy keeps its original's strides, so the same kernel runs in the
// same order and the result has the bits an aligned operand gives (gonum's order would
// differ, and gonum cannot read every layout the packed kernel takes).
func alignedSgemm(m, n, k int, a, b, c mview, parallel bool) {
	ac, abuf := alignedCopy(a, m, k)
	bc, bbuf := alignedCopy(b, k, n)
	cc, cbuf := c, []float32(nil)
	if simd.Misaligned(f32Size, c.p, nil, nil) {
		cbuf = make([]float32, m*n)
		cc = mview{unsafe.Pointer(&cbuf[0]), n, 1}
	}
	packedSgemm(m, n, k, ac, bc, cc, parallel)
	if cbuf != nil {
		for i := range m {
			for j := range n {
				*(*float32)(unsafe.Add(c.p, (i*c.rs+j*c.cs)*f32Size)) = cbuf[i*n+j]
			}
		}
	}
	runtime.KeepAlive(abuf)
	runtime.KeepAlive(bbuf)
}

// alignedCopy returns v when it is aligned, or else a view with v's strides into a copy
// (buf) of the elements its rows x cols matrix spans, gaps included.
func alignedCopy(v mview, rows, cols int) (view mview, buf []float32) {
	if !simd.Misaligned(f32Size, v.p, nil, nil) {
		return v, nil
	}
	lo := min(0, (rows-1)*v.rs) + min(0, (cols-1)*v.cs) // element offsets from v.p
	hi := max(0, (rows-1)*v.rs) + max(0, (cols-1)*v.cs)
	buf = make([]float32, hi-lo+1)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*f32Size),
		unsafe.Slice((*byte)(unsafe.Add(v.p, lo*f32Size)), len(buf)*f32Size))
	return mview{unsafe.Add(unsafe.Pointer(&buf[0]), -lo*f32Size), v.rs, v.cs}, buf
}
