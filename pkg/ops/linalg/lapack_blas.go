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
	simd.Dgemm(1, m, n, k, alpha, ptr(a), ars, acs, ptr(b), brs, bcs, beta, ptr(c), ldc)
}

// syrkBlock is the number of rows of C per Dgemm in Dsyrk and Dsyr2k.
const syrkBlock = 48

// opRows returns op(x) from row i on, for x row-major with leading dimension ld, where
// op(x) is x (NoTrans) or x^T.
func opRows(x []float64, t blas.Transpose, ld, i int) []float64 {
	if t == blas.NoTrans {
		return x[i*ld:]
	}
	return x[i:]
}

func flip(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.Trans
	}
	return blas.NoTrans
}

// triBlocks runs, for each block of syrkBlock rows [i0, i1) of the n x n C, rect on the
// part of those rows in uplo's triangle left (Lower) or right (Upper) of the diagonal
// block, columns [j0, j1), and diag on the diagonal block.
func triBlocks(uplo blas.Uplo, n int, rect func(i0, i1, j0, j1 int), diag func(i0, i1 int)) {
	for i0 := 0; i0 < n; i0 += syrkBlock {
		i1 := min(i0+syrkBlock, n)
		if uplo == blas.Lower && i0 > 0 {
			rect(i0, i1, 0, i0)
		} else if uplo == blas.Upper && i1 < n {
			rect(i0, i1, i1, n)
		}
		diag(i0, i1)
	}
}

// Dsyrk: C = alpha op(A) op(A)^T + beta C on uplo's triangle, the off-diagonal blocks
// by Dgemm.
func (f fastBLAS) Dsyrk(uplo blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int,
	beta float64, c []float64, ldc int) {
	if n*n*k < 4*fastMin || alpha == 0 {
		f.Implementation.Dsyrk(uplo, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	triBlocks(uplo, n, func(i0, i1, j0, j1 int) {
		f.Dgemm(t, flip(t), i1-i0, j1-j0, k, alpha, opRows(a, t, lda, i0), lda, opRows(a, t, lda, j0), lda,
			beta, c[i0*ldc+j0:], ldc)
	}, func(i0, i1 int) {
		f.Implementation.Dsyrk(uplo, t, i1-i0, k, alpha, opRows(a, t, lda, i0), lda, beta, c[i0*ldc+i0:], ldc)
	})
}

// Dsyr2k: C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C on uplo's triangle,
// the off-diagonal blocks by two Dgemm.
func (f fastBLAS) Dsyr2k(uplo blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int,
	b []float64, ldb int, beta float64, c []float64, ldc int) {
	if n*n*k < 4*fastMin || alpha == 0 {
		f.Implementation.Dsyr2k(uplo, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	triBlocks(uplo, n, func(i0, i1, j0, j1 int) {
		cc := c[i0*ldc+j0:]
		f.Dgemm(t, flip(t), i1-i0, j1-j0, k, alpha, opRows(a, t, lda, i0), lda, opRows(b, t, ldb, j0), ldb, beta, cc, ldc)
		f.Dgemm(t, flip(t), i1-i0, j1-j0, k, alpha, opRows(b, t, ldb, i0), ldb, opRows(a, t, lda, j0), lda, 1, cc, ldc)
	}, func(i0, i1 int) {
		f.Implementation.Dsyr2k(uplo, t, i1-i0, k, alpha, opRows(a, t, lda, i0), lda, opRows(b, t, ldb, i0), ldb,
			beta, c[i0*ldc+i0:], ldc)
	})
}

// Dsymv: y = alpha A x + beta y on the AVX2 kernel (each stored row read once for both
// its halves of the product); strided vectors (LAPACK's columns) go through contiguous
// copies, O(n) next to the O(n^2) product.
func (f fastBLAS) Dsymv(uplo blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int,
	beta float64, y []float64, incY int) {
	if incX < 1 || incY < 1 || n < 16 || alpha == 0 {
		f.Implementation.Dsymv(uplo, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	xc, yc := gather(x, incX, n, true), gather(y, incY, n, beta != 0)
	simd.Dsymv(uplo == blas.Lower, n, alpha, a, lda, xc, beta, yc)
	if incY != 1 {
		for i, v := range yc {
			y[i*incY] = v
		}
	}
}

// gather returns the n elements of v inc apart: v itself when inc is 1, else a copy
// (with their values when read).
func gather(v []float64, inc, n int, read bool) []float64 {
	if inc == 1 {
		return v[:n]
	}
	c := make([]float64, n)
	if read {
		for i := range c {
			c[i] = v[i*inc]
		}
	}
	return c
}

// Dger: A += alpha x y^T on the AVX2 kernel (row-major rows, contiguous y), the update
// that gonum's unblocked LU (Dgetf2: det, inverse, and the panels of larger LUs) spends
// its time in.
func (f fastBLAS) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if incX < 1 || incY != 1 || m*n < 64 || alpha == 0 {
		f.Implementation.Dger(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	simd.Dger(m, n, alpha, x, incX, y, a, lda)
}
