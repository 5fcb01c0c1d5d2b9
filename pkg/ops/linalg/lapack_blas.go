package linalg

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/mxgo/mxgo/internal/simd"
)

// gonum's LAPACK calls its BLAS through blas64's global implementation. fastBLAS is
// gonum's pure-Go BLAS with the level-3 products that blocked factorizations spend their
// time in (Dgemm, and Dsyrk and Dsyr2k through it) on internal/simd's packed AVX2
// kernel, where the CPU has one. Small products stay with gonum: packing costs more than
// it saves there.
type fastBLAS struct{ gonum.Implementation }

func init() {
	if simd.DgemmSupported {
		blas64.Use(fastBLAS{})
	}
}

// fastMin is the number of multiply-adds from which the packed kernel wins.
const fastMin = 4096

// strides returns the element strides of op(x) for a row-major x with leading dimension ld.
func strides(t blas.Transpose, ld int) (rs, cs int) {
	if t == blas.NoTrans {
		return ld, 1
	}
	return 1, ld
}

func ptr(s []float64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

func (f fastBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int,
	b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m < 2 || n < 2 || k == 0 || alpha == 0 || m*n*k < fastMin {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	ars, acs := strides(tA, lda)
	brs, bcs := strides(tB, ldb)
	simd.Dgemm(m, n, k, alpha, ptr(a), ars, acs, ptr(b), brs, bcs, beta, ptr(c), ldc)
}
