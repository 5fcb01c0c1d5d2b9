package gemm

import (
	"runtime"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
)

// The float32 product on CPUs with AVX2 and FMA: internal/simd's packed, cache-blocked
// kernel (simd.Sgemm), and its matrix-vector one for products with a vector (simd.Sgemv;
// the packed kernel would do 16 times the work there). Both read any strides the views
// here have and skip no term (0 * inf is nan, as in NumPy). A large product is cut into
// row (or column) blocks of the result that internal/simd's thread pool runs, one per
// core, each with its own pack buffers; the matrix-vector one is split here. An
// element's terms are summed in the same order whatever block it falls in, so the split
// changes no bit of the result.

// sgemm is the float32 kernel: the packed one, or gonum's Sgemm.
var sgemm = func() gemmFunc {
	if simd.SgemmSupported {
		return packedSgemm
	}
	return blasSgemm
}()

var blasSgemm = blasGemm(BLAS.Sgemm, true)

const f32Size = 4

func packedSgemm(m, n, k int, a, b, c MView, parallel bool) {
	switch {
	case simd.Misaligned(f32Size, a.P, b.P, c.P): // imported memory, which C may not read
		alignedGemm[float32](packedSgemm, m, n, k, a, b, c, parallel)
	// A contiguous vector against a matrix with contiguous rows or columns.
	case n == 1 && b.Rs == 1 && (a.Rs == 1 || a.Cs == 1 || m == 1): // matrix . vector
		SplitRows(m, k, parallel, func(i0, i1 int) {
			av, cv := a.rows(i0, f32Size), c.rows(i0, f32Size)
			simd.Sgemv(i1-i0, k, av.P, av.Rs, av.Cs, b.P, cv.P, cv.Rs)
		})
	case m == 1 && a.Cs == 1 && (b.Rs == 1 || b.Cs == 1): // vector . matrix: c' = b' . a'
		SplitRows(n, k, parallel, func(j0, j1 int) {
			bv, cv := b.cols(j0, f32Size), c.cols(j0, f32Size)
			simd.Sgemv(j1-j0, k, bv.P, bv.Cs, bv.Rs, a.P, cv.P, cv.Cs)
		})
	default: // blocks of rows (or columns) of c across the cores
		simd.Sgemm(packedTasks(m, n, k, parallel), m, n, k, a.P, a.Rs, a.Cs, b.P, b.Rs, b.Cs, c.P, c.Rs)
	}
}

// alignedGemm is packed (packedSgemm or packedDgemm) on aligned copies of the operands
// that are not aligned to their elements (T's). Each copy keeps its original's strides,
// so the same kernel runs in the same order and the result has the bits an aligned
// operand gives (gonum's order would differ, and gonum cannot read every layout the
// packed kernel takes).
func alignedGemm[T float32 | float64](packed gemmFunc, m, n, k int, a, b, c MView, parallel bool) {
	size := int(unsafe.Sizeof(T(0)))
	ac, abuf := alignedCopy[T](a, m, k)
	bc, bbuf := alignedCopy[T](b, k, n)
	cc, cbuf := c, []T(nil)
	if simd.Misaligned(uintptr(size), c.P, nil, nil) {
		cbuf = make([]T, m*n)
		cc = MView{unsafe.Pointer(&cbuf[0]), n, 1}
	}
	packed(m, n, k, ac, bc, cc, parallel)
	if cbuf != nil {
		for i := range m {
			for j := range n {
				*(*T)(unsafe.Add(c.P, (i*c.Rs+j*c.Cs)*size)) = cbuf[i*n+j]
			}
		}
	}
	runtime.KeepAlive(abuf)
	runtime.KeepAlive(bbuf)
}

// alignedCopy returns v when it is aligned, or else a view with v's strides into a copy
// (buf) of the elements its rows x cols matrix spans, gaps included.
func alignedCopy[T float32 | float64](v MView, rows, cols int) (view MView, buf []T) {
	size := int(unsafe.Sizeof(T(0)))
	if !simd.Misaligned(uintptr(size), v.P, nil, nil) {
		return v, nil
	}
	lo := min(0, (rows-1)*v.Rs) + min(0, (cols-1)*v.Cs) // element offsets from v.p
	hi := max(0, (rows-1)*v.Rs) + max(0, (cols-1)*v.Cs)
	buf = make([]T, hi-lo+1)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*size),
		unsafe.Slice((*byte)(unsafe.Add(v.P, lo*size)), len(buf)*size))
	return MView{unsafe.Add(unsafe.Pointer(&buf[0]), -lo*size), v.Rs, v.Cs}, buf
}
