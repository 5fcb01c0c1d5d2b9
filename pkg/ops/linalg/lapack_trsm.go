package linalg

import (
	"gonum.org/v1/gonum/blas"

	"github.com/mxgo/mxgo/internal/simd"
)

// Dtrsm solves op(A) X = alpha B (Left) or X op(A) = alpha B (Right) for X, into B, by
// recursion on the triangle: its leading and trailing halves are solved separately and
// the block between them is a Dgemm update of the other half's right-hand sides, so the
// O(n^2 m) work runs on the packed product kernel; triangles of at most trsmBase rows
// are the base case (smallTrsm in C, or gonum's loops). The blocked LU, Cholesky and the
// inverse of the triangles spend about half their time here (inverse, potrf of 256 x
// 256: 40%).
func (f fastBLAS) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64,
	a []float64, lda int, b []float64, ldb int) {
	k := m // the triangle's order
	if s == blas.Right {
		k = n
	}
	if k <= trsmBase || m == 0 || n == 0 || alpha == 0 {
		rhs := n // the right-hand sides: rows of B (Left) or columns (Right)
		if s == blas.Right {
			rhs = m
		}
		switch {
		case simd.DgemmSupported && k > 1 && alpha != 0 && rhs >= trsmCMin:
			f.smallTrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		case s == blas.Right && m >= trsmBase && k > 1 && alpha != 0:
			f.rightByLeft(ul, tA, d, m, n, alpha, a, lda, b, ldb)
		default:
			f.Implementation.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		}
		return
	}
	h := half(k)
	a11, a22 := a, a[h*lda+h:]
	// op(A)'s off-diagonal block below (a21) or right of (a12) the leading triangle, as
	// a Dgemm operand with tA: A's own block, or the transposed one for op = transpose.
	a21, a12 := a[h*lda:], a[h:]
	if tA != blas.NoTrans {
		a21, a12 = a12, a21
	}
	lower := (ul == blas.Lower) == (tA == blas.NoTrans) // op(A) is lower triangular
	solve := func(t []float64, mm, nn int, alpha float64, x []float64) {
		f.Dtrsm(s, ul, tA, d, mm, nn, alpha, t, lda, x, ldb)
	}
	if s == blas.Left { // rows of B: X1 = B[:h], X2 = B[h:]
		b1, b2 := b, b[h*ldb:]
		if lower {
			solve(a11, h, n, alpha, b1)
			f.Dgemm(tA, blas.NoTrans, m-h, n, h, -1, a21, lda, b1, ldb, alpha, b2, ldb)
			solve(a22, m-h, n, 1, b2)
		} else {
			solve(a22, m-h, n, alpha, b2)
			f.Dgemm(tA, blas.NoTrans, h, n, m-h, -1, a12, lda, b2, ldb, alpha, b1, ldb)
			solve(a11, h, n, 1, b1)
		}
		return
	}
	b1, b2 := b, b[h:] // columns of B: X1 = B[:, :h], X2 = B[:, h:]
	if lower {
		solve(a22, m, n-h, alpha, b2)
		f.Dgemm(blas.NoTrans, tA, m, h, n-h, -1, b2, ldb, a21, lda, alpha, b1, ldb)
		solve(a11, m, h, 1, b1)
	} else {
		solve(a11, m, h, alpha, b1)
		f.Dgemm(blas.NoTrans, tA, m, n-h, h, -1, b1, ldb, a12, lda, alpha, b2, ldb)
		solve(a22, m, n-h, 1, b2)
	}
}

// trsmBase is the largest triangle Dtrsm leaves to its base case; trsmCMin the fewest
// right-hand sides for which that is C rather than gonum's loops (below, a cgo call costs
// more than it saves: 64 inverses of 64 x 64 took 3.7 ms in C against 2.9 in Go).
const (
	trsmBase = 16
	trsmCMin = 64
)

// smallTrsm is the base case in C (internal/simd's trsm_f64.c): gonum's loops made a
// call per row of B and, for the right side, a transposition in Go; 256 x 256 inverse
// 2.0 -> 1.6 ms.
func (f fastBLAS) smallTrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64,
	a []float64, lda int, b []float64, ldb int) {
	lower := (ul == blas.Lower) == (tA == blas.NoTrans) // op(A) is lower triangular
	trans, unit := tA != blas.NoTrans, d == blas.Unit
	if s == blas.Left {
		simd.DtrsmLeft(lower, trans, unit, m, n, alpha, a, lda, b, ldb)
		return
	}
	buf := getScratch(n * m)
	defer putScratch(buf)
	simd.DtrsmRight(lower, trans, unit, m, n, alpha, a, lda, b, ldb, *buf)
}

// rightByLeft solves X op(A) = alpha B as op(A)^T X^T = alpha B^T on a transposed copy
// of B: gonum's loops solve from the left with axpys along B's rows, from the right
// with dots along op(A)'s short rows, one call per element of B (five times as long
// for the 16-row triangles of the recursion).
func (f fastBLAS) rightByLeft(ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64,
	a []float64, lda int, b []float64, ldb int) {
	buf := getScratch(n * m)
	defer putScratch(buf)
	bt := *buf
	transpose(bt, m, b, ldb, m, n)
	f.Implementation.Dtrsm(blas.Left, ul, flip(tA), d, n, m, alpha, a, lda, bt, m)
	transpose(b, ldb, bt, m, n, m)
}
