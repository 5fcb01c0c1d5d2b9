package linalg

import (
	"math"

	"github.com/mxgo/mxgo/pkg/ops/gemm"

	"gonum.org/v1/gonum/blas"

	"github.com/mxgo/mxgo/pkg/mxerr"
)

// Per-problem kernels of MXNet's linalg operators (la_op-inl.h), on C-order float64
// matrices (see lapack_batch.go). gonum's LAPACK and BLAS are row-major, as MXNet's
// arrays are, so "lower" means the same triangle in both.

// lapackImpl is gonum's LAPACK with recursive LU and Cholesky (lapack_recursive.go).
var lapackImpl fastLAPACK

func laUplo(lower bool) blas.Uplo {
	if lower {
		return blas.Lower
	}
	return blas.Upper
}

func laTrans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// potrfKernel: the Cholesky factor of the n x n matrix (only its lower or upper
// triangle is read); the other triangle of the result is zero.
func potrfKernel(n int, lower bool) matKernel {
	return func(in, out [][]float64) error {
		a := out[0]
		copy(a, in[0])
		if n > 0 && !lapackImpl.Dpotrf(laUplo(lower), n, a, n) {
			return mxerr.ValueErr("potrf failed: the input matrix is not symmetric positive definite")
		}
		zeroTriangle(a, n, lower)
		return nil
	}
}

// potriKernel: the inverse of A = L L^T (or U^T U) from its Cholesky factor, symmetric.
func potriKernel(n int, lower bool) matKernel {
	return func(in, out [][]float64) error {
		a := out[0]
		copy(a, in[0])
		if n > 0 && !lapackImpl.Dpotri(laUplo(lower), n, a, n) {
			return mxerr.ValueErr("potri failed: the input matrix is not a Cholesky factor " +
				"(a zero on its diagonal); pass the result of potrf")
		}
		mirrorTriangle(a, n, lower)
		return nil
	}
}

// triangKernel runs trsm (solve) or trmm on B (rows x cols) with the triangle of A.
func triangKernel(solve bool, rows, cols int, transpose, rightside, lower bool, alpha float64) matKernel {
	side, na := blas.Left, rows
	if rightside {
		side, na = blas.Right, cols
	}
	return func(in, out [][]float64) error {
		b := out[0]
		copy(b, in[1])
		if rows == 0 || cols == 0 {
			return nil
		}
		if solve {
			gemm.BLAS.Dtrsm(side, laUplo(lower), laTrans(transpose), blas.NonUnit, rows, cols, alpha, in[0], na, b, cols)
		} else {
			gemm.BLAS.Dtrmm(side, laUplo(lower), laTrans(transpose), blas.NonUnit, rows, cols, alpha, in[0], na, b, cols)
		}
		return nil
	}
}

// syrkKernel: alpha A A^T (or alpha A^T A) for an m x k A; the result is n x n.
func syrkKernel(m, k int, transpose bool, alpha float64) matKernel {
	n, kk := m, k
	if transpose {
		n, kk = k, m
	}
	return func(in, out [][]float64) error {
		c := out[0]
		clear(c)
		if n == 0 || kk == 0 {
			return nil
		}
		gemm.BLAS.Dsyrk(blas.Lower, laTrans(transpose), n, kk, alpha, in[0], k, 0, c, n)
		mirrorTriangle(c, n, true)
		return nil
	}
}

// laWorkspace returns a work slice of the size LAPACK asks for through query (lwork -1).
func laWorkspace(query func(work []float64)) []float64 {
	w := []float64{0}
	query(w)
	return make([]float64, max(1, int(w[0])))
}

// inverseKernel: the inverse through an LU factorization (getrf, getri).
func inverseKernel(n int) matKernel {
	return func(in, out [][]float64) error {
		a := out[0]
		copy(a, in[0])
		if n == 0 {
			return nil
		}
		ipiv := make([]int, n)
		if !lapackImpl.Dgetrf(n, n, a, n, ipiv) {
			return mxerr.ValueErr("inverse: the input matrix is singular (not invertible)")
		}
		work := laWorkspace(func(w []float64) { lapackImpl.Dgetri(n, a, n, ipiv, w, -1) })
		if !lapackImpl.Dgetri(n, a, n, ipiv, work, len(work)) {
			return mxerr.ValueErr("inverse: the input matrix is singular (not invertible)")
		}
		return nil
	}
}

// signLogDet returns the sign and the log of the absolute value of the determinant of
// the n x n matrix a (overwritten by its LU factors), as MXNet's SignedLogDet computes
// them: a singular matrix has sign 0 and log -inf; a nan pivot gives sign 0 and log nan.
func signLogDet(a []float64, n int) (sign, logAbs float64) {
	ipiv := make([]int, n)
	if n > 0 {
		lapackImpl.Dgetrf(n, n, a, n, ipiv) // factors a singular matrix too
	}
	sign = 1
	for j := 0; j < n; j++ {
		if ipiv[j] != j {
			sign = -sign
		}
		d := a[j*n+j]
		switch {
		case d < 0:
			sign = -sign
		case !(d > 0): // 0 or nan
			sign *= 0
		}
		logAbs += math.Log(math.Abs(d))
	}
	return sign, logAbs
}

// detKernel: the determinant (sign * exp(log|det|), as MXNet computes it); logDet
// instead writes the sign into out[0] and log|det| into out[1] (slogdet). The LU
// overwrites the input, laRun's own copy.
func detKernel(n int, logDet bool) matKernel {
	return func(in, out [][]float64) error {
		sign, logAbs := signLogDet(in[0], n)
		if logDet {
			out[0][0], out[1][0] = sign, logAbs
		} else {
			out[0][0] = sign * math.Exp(logAbs)
		}
		return nil
	}
}

// sumLogDiagKernel: the sum of the logs of the diagonal.
func sumLogDiagKernel(n int) matKernel {
	return func(in, out [][]float64) error {
		s := 0.0
		for i := 0; i < n; i++ {
			s += math.Log(in[0][i*n+i])
		}
		out[0][0] = s
		return nil
	}
}

// gelqfKernel: A (m x n, m <= n) = L Q with Q's rows orthonormal (out[0], m x n) and
// L lower triangular (out[1], m x m), by Householder reflections as LAPACK's gelqf and
// orglq (so that the signs match MXNet's).
func gelqfKernel(m, n int) matKernel {
	return func(in, out [][]float64) error {
		q, l := out[0], out[1]
		copy(q, in[0])
		if m == 0 {
			return nil
		}
		tau := make([]float64, m)
		work := laWorkspace(func(w []float64) {
			lapackImpl.Dgelqf(m, n, q, n, tau, w, -1)
			w2 := []float64{0}
			lapackImpl.Dorglq(m, n, m, q, n, tau, w2, -1)
			w[0] = max(w[0], w2[0])
		})
		lapackImpl.Dgelqf(m, n, q, n, tau, work, len(work))
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				if j <= i {
					l[i*m+j] = q[i*n+j]
				} else {
					l[i*m+j] = 0
				}
			}
		}
		lapackImpl.Dorglq(m, n, m, q, n, tau, work, len(work))
		return nil
	}
}

// syevdKernel: the eigenvalues (ascending, out[1]) and eigenvectors (the rows of
// out[0]) of the symmetric n x n matrix whose lower triangle is read. As in MXNet each
// eigenvector's largest component (the first of equals) is made positive; round gives
// the output dtype's values, so that the comparison sees what MXNet's does.
func syevdKernel(n int, round func(float64) float64) matKernel {
	return func(in, out [][]float64) error {
		u, w := out[0], out[1]
		a := make([]float64, n*n)
		copy(a, in[0])
		if n == 0 {
			return nil
		}
		if !eigSym(a, n, w, u) {
			return mxerr.ValueErr("syevd: the eigenvalue algorithm did not converge (does the input hold inf or nan?)")
		}
		for i := 0; i < n; i++ { // eigenvector i is row i of u
			best, at := -1.0, 0
			for j := 0; j < n; j++ {
				if v := math.Abs(round(u[i*n+j])); v > best {
					best, at = v, j
				}
			}
			if round(u[i*n+at]) < 0 {
				for j := 0; j < n; j++ {
					u[i*n+j] = -u[i*n+j]
				}
			}
		}
		return nil
	}
}
