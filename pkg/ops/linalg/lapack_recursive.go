package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
)

// fastLAPACK is gonum's LAPACK with the LU and Cholesky factorizations and the
// triangular inverse recursive: each halves its matrix and joins the halves with a
// triangular solve and a product, so nearly all the work runs in the BLAS's level-3
// calls (the packed product kernel, see lapack_blas.go); and the inverse from the LU
// built on them. gonum's blocked versions spend most of their time in unblocked 64-wide
// panels, whose row-major columns are strided: det and inverse of 256 x 256 took twice
// OpenBLAS's time.
type fastLAPACK struct{ lapackgo.Implementation }

// Recursion stops at panels of at most luBase columns (panelLU), and leaves matrices
// whose rows span at most luSmall elements (m * lda: 32 KiB, L1's size) and triangles
// of at most cholBase rows to gonum's unblocked Dgetf2 and Dpotf2: for a 64 x 64
// matrix the recursion's small products cost twice what they save (a batch of 64:
// potrf 0.46 -> 1.0 ms, det 1.9 -> 2.2 ms).
const (
	luBase   = 16
	luSmall  = 64 * 64
	cholBase = 64
)

// half returns where a recursion cuts n: about the middle, on a multiple of 8 when n is
// large enough for it (the product kernel's blocks).
func half(n int) int {
	if h := n / 2; h >= 8 {
		return h - h%8
	}
	return n / 2
}

// Dgetrf is LAPACK's LU factorization with partial pivoting, P A = L U, for m >= n
// (wider matrices take gonum's): recursive on the columns (Toledo), so the pivots are
// chosen from the whole updated column as the unblocked algorithm chooses them. ok is
// false when U has a zero on its diagonal; the factorization is completed regardless.
func (f fastLAPACK) Dgetrf(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
	if m < n || m*lda <= luSmall || lda < max(1, n) || len(ipiv) != n || len(a) < (m-1)*lda+n {
		return f.Implementation.Dgetrf(m, n, a, lda, ipiv) // which also reports bad arguments
	}
	if n <= luBase {
		return panelLU(m, n, a, lda, ipiv)
	}
	bi := blas64.Implementation()
	n1 := half(n)
	n2 := n - n1
	ok = f.Dgetrf(m, n1, a, lda, ipiv[:n1])
	f.Dlaswp(n2, a[n1:], lda, 0, n1-1, ipiv[:n1], 1)
	bi.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, n1, n2, 1, a, lda, a[n1:], lda)
	a22 := a[n1*lda+n1:]
	bi.Dgemm(blas.NoTrans, blas.NoTrans, m-n1, n2, n1, -1, a[n1*lda:], lda, a[n1:], lda, 1, a22, lda)
	if !f.Dgetrf(m-n1, n2, a22, lda, ipiv[n1:]) {
		ok = false
	}
	for i := n1; i < n; i++ {
		ipiv[i] += n1
	}
	f.Dlaswp(n1, a, lda, n1, n-1, ipiv, 1)
	return ok
}

// Dpotrf is LAPACK's Cholesky factorization (A = L L^T from the lower triangle, A =
// U^T U from the upper), recursive on the triangle. ok is false when A is not positive
// definite; the factor is then incomplete.
func (f fastLAPACK) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	if n <= cholBase || lda < max(1, n) || len(a) < (n-1)*lda+n || (ul != blas.Lower && ul != blas.Upper) {
		return f.Implementation.Dpotrf(ul, n, a, lda)
	}
	bi := blas64.Implementation()
	n1 := half(n)
	n2 := n - n1
	if !f.Dpotrf(ul, n1, a, lda) {
		return false
	}
	a22 := a[n1*lda+n1:]
	if ul == blas.Lower { // L21 = A21 L11^-T; A22 -= L21 L21^T
		a21 := a[n1*lda:]
		bi.Dtrsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, n2, n1, 1, a, lda, a21, lda)
		bi.Dsyrk(blas.Lower, blas.NoTrans, n2, n1, -1, a21, lda, 1, a22, lda)
	} else { // U12 = U11^-T A12; A22 -= U12^T U12
		a12 := a[n1:]
		bi.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, n1, n2, 1, a, lda, a12, lda)
		bi.Dsyrk(blas.Upper, blas.Trans, n2, n1, -1, a12, lda, 1, a22, lda)
	}
	return f.Dpotrf(ul, n2, a22, lda)
}

// Dtrtri inverts a triangular matrix in place, recursive as Dpotrf: with the halves
// T11 and T22, the off-diagonal block of the inverse is -T11^-1 T12 T22^-1 (upper) or
// -T22^-1 T21 T11^-1 (lower), two triangular solves, before the halves are inverted.
// ok is false when a diagonal element is zero (the matrix is then unchanged).
func (f fastLAPACK) Dtrtri(ul blas.Uplo, d blas.Diag, n int, a []float64, lda int) (ok bool) {
	if n <= cholBase || lda < max(1, n) || len(a) < (n-1)*lda+n || (ul != blas.Lower && ul != blas.Upper) ||
		(d != blas.Unit && d != blas.NonUnit) {
		return f.Implementation.Dtrtri(ul, d, n, a, lda)
	}
	if d == blas.NonUnit {
		for i := range n {
			if a[i*lda+i] == 0 {
				return false
			}
		}
	}
	f.trtri(ul, d, n, a, lda)
	return true
}

// trtri is Dtrtri's recursion, on a triangle without zeros on its diagonal.
func (f fastLAPACK) trtri(ul blas.Uplo, d blas.Diag, n int, a []float64, lda int) {
	if n <= cholBase {
		f.Implementation.Dtrtri(ul, d, n, a, lda)
		return
	}
	bi := blas64.Implementation()
	n1 := half(n)
	n2 := n - n1
	a22 := a[n1*lda+n1:]
	if ul == blas.Upper {
		a12 := a[n1:]
		bi.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, d, n1, n2, 1, a22, lda, a12, lda)
		bi.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, d, n1, n2, -1, a, lda, a12, lda)
	} else {
		a21 := a[n1*lda:]
		bi.Dtrsm(blas.Right, blas.Lower, blas.NoTrans, d, n2, n1, 1, a, lda, a21, lda)
		bi.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, d, n2, n1, -1, a22, lda, a21, lda)
	}
	f.trtri(ul, d, n1, a, lda)
	f.trtri(ul, d, n2, a22, lda)
}

// Dgetri is LAPACK's inverse from Dgetrf's factors, inv(A) = inv(U) inv(L) P^T: U
// inverted in place (Dtrtri), L copied out to work and solved for from the right (a
// Dtrsm on the whole matrix, so on the product kernel), then the columns swapped back.
// gonum's own spends a third of its time in unblocked loops. work needs n*n elements;
// lwork -1 asks for the size in work[0]. ok is false for a singular U.
func (f fastLAPACK) Dgetri(n int, a []float64, lda int, ipiv []int, work []float64, lwork int) (ok bool) {
	if lwork == -1 {
		f.Implementation.Dgetri(n, a, lda, ipiv, work, lwork)
		work[0] = max(work[0], float64(n*n))
		return true
	}
	if n <= cholBase || lda < max(1, n) || len(a) < (n-1)*lda+n || len(ipiv) != n || lwork < n*n || len(work) < lwork {
		return f.Implementation.Dgetri(n, a, lda, ipiv, work, lwork)
	}
	if !f.Dtrtri(blas.Upper, blas.NonUnit, n, a, lda) {
		return false
	}
	l := work[:n*n]
	for i := range n {
		copy(l[i*n:i*n+i], a[i*lda:i*lda+i])
		clear(a[i*lda : i*lda+i])
	}
	blas64.Implementation().Dtrsm(blas.Right, blas.Lower, blas.NoTrans, blas.Unit, n, n, 1, l, n, a, lda)
	for j := n - 2; j >= 0; j-- {
		if p := ipiv[j]; p != j {
			for i := range n {
				a[i*lda+j], a[i*lda+p] = a[i*lda+p], a[i*lda+j]
			}
		}
	}
	return true
}

// LAPACK returns the LAPACK behind the operators, for tests that hold its recursive
// factorizations to gonum's.
func LAPACK() lapack.Float64 { return lapackImpl }
