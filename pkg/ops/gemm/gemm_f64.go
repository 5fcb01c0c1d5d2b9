package gemm

import (
	"github.com/mxgo/mxgo/internal/simd"
)

// The float64 product on CPUs with AVX2 and FMA: internal/simd's packed kernel
// (simd.Dgemm), split over the cores by row (or column) blocks of the result as the
// float32 one is; the split changes no bit. Products with a vector (the packed kernel
// would do 8 times the work) take gonum's Dgemm, and operands not aligned to 8 bytes the
// packed kernel on aligned copies, as float32's (usesBLAS stays true for float64: every
// operand arrives in a layout BLAS reads).

var dgemm = func() gemmFunc {
	if simd.DgemmSupported {
		return packedDgemm
	}
	return blasDgemm
}()

var blasDgemm = blasGemm(BLAS.Dgemm, true)

const f64Size = 8

func packedDgemm(m, n, k int, a, b, c MView, parallel bool) {
	switch {
	case m == 1 || n == 1:
		blasDgemm(m, n, k, a, b, c, parallel)
	case simd.Misaligned(f64Size, a.P, b.P, c.P): // imported memory, which C may not read
		alignedGemm[float64](packedDgemm, m, n, k, a, b, c, parallel)
	default:
		simd.Dgemm(packedTasks(m, n, k, parallel), m, n, k, 1, a.P, a.Rs, a.Cs, b.P, b.Rs, b.Cs, 0, c.P, c.Rs)
	}
}
