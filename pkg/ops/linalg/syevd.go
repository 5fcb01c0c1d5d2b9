package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"

	"github.com/mxgo/mxgo/internal/simd"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The symmetric eigensolver behind syevd: gonum's Householder tridiagonalisation
// (Dsytrd, Dorgtr: A = Q T Q^T), then the implicit QL iteration with Wilkinson shifts on
// T. gonum's Dsteqr would rotate columns of the row-major Q, one strided pass over Q per
// rotation (three quarters of the time); here the eigenvectors are kept as the rows of
// Q^T, and each QL sweep's rotations run down neighbouring rows in one pass
// (simd.DrotSeq), every element loaded and stored once per sweep.

// eigSym sets w to the eigenvalues of the symmetric n x n matrix a (its lower triangle
// is read; a is overwritten), ascending, and row i of u to the unit eigenvector of w[i].
// It reports false when the iteration does not converge (inf or nan in a).
func eigSym(a []float64, n int, w, u []float64) bool {
	if n == 1 {
		w[0], u[0] = a[0], 1
		return !math.IsNaN(a[0]) && !math.IsInf(a[0], 0)
	}
	sigma := eigScale(a, n)
	e, tau := make([]float64, n), make([]float64, n-1)
	work := laWorkspace(func(wk []float64) {
		lapackImpl.Dsytrd(blas.Lower, n, a, n, w, e, tau, wk, -1)
		w2 := []float64{0}
		lapackImpl.Dorgtr(blas.Lower, n, a, n, tau, w2, -1)
		wk[0] = max(wk[0], w2[0])
	})
	lapackImpl.Dsytrd(blas.Lower, n, a, n, w, e, tau, work, len(work))
	lapackImpl.Dorgtr(blas.Lower, n, a, n, tau, work, len(work))
	ld := rotStride(n)
	q := u
	if ld != n {
		buf := getScratch(n * ld)
		defer putScratch(buf)
		q = *buf
	}
	for i := 0; i < n; i++ { // q = Q^T
		for j := 0; j < n; j++ {
			q[i*ld+j] = a[j*n+i]
		}
	}
	if !tridiagQL(w, e, q, n, ld) {
		return false
	}
	if ld != n {
		for i := 0; i < n; i++ {
			copy(u[i*n:(i+1)*n], q[i*ld:i*ld+n])
		}
	}
	for i := range w {
		w[i] /= sigma
	}
	sortEigen(w, u, n)
	return true
}

// eigScale scales the lower triangle of a into the range where the iteration neither
// overflows nor underflows (as LAPACK's dsyev does) and returns the factor.
func eigScale(a []float64, n int) float64 {
	const smlnum = 0x1p-1022 / 0x1p-53
	rmin, rmax := math.Sqrt(smlnum), math.Sqrt(1/smlnum)
	anrm := 0.0
	for i := 0; i < n; i++ {
		for _, x := range a[i*n : i*n+i+1] {
			anrm = max(anrm, math.Abs(x))
		}
	}
	sigma := 1.0
	switch {
	case anrm > 0 && anrm < rmin:
		sigma = rmin / anrm
	case anrm > rmax && !math.IsInf(anrm, 0):
		sigma = rmax / anrm
	}
	if sigma != 1 {
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				a[i*n+j] *= sigma
			}
		}
	}
	return sigma
}

// tridiagQL diagonalises the symmetric tridiagonal matrix with diagonal d and
// subdiagonal e[:n-1] (e is destroyed) by the implicit QL iteration, leaving the
// eigenvalues in d and applying each rotation to the rows of u (the eigenvectors as
// rows, ld apart). It reports false when 30 n iterations (LAPACK's dsteqr's budget) do
// not suffice.
func tridiagQL(d, e, u []float64, n, ld int) bool {
	const eps = 0x1p-53
	e[n-1] = 0
	cs, sn := make([]float64, n), make([]float64, n)
	budget := 30 * n
	for l := 0; l < n; l++ {
		for {
			m := l
			for ; m < n-1; m++ { // the first negligible subdiagonal element splits T
				if math.Abs(e[m]) <= eps*(math.Abs(d[m])+math.Abs(d[m+1])) {
					break
				}
			}
			if m == l {
				break
			}
			if budget--; budget < 0 {
				return false
			}
			g := (d[l+1] - d[l]) / (2 * e[l]) // the Wilkinson shift
			r := math.Hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			lo := l
			for i := m - 1; i >= l; i-- { // chase the bulge up from m to l
				f, b := s*e[i], c*e[i]
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 { // underflow: T splits at i+1, recover and restart
					d[i+1] -= p
					e[m] = 0
					lo = i + 1
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				cs[i], sn[i] = c, s
			}
			rotateRows(u, n, ld, lo, m, cs, sn)
			if lo > l {
				continue
			}
			d[l] -= p
			e[l], e[m] = g, 0
		}
	}
	return true
}

// rotTaskMin is the number of elements a sweep rotates per core at least when split
// (about 4 µs of work; the pool's helpers start within a microsecond).
const rotTaskMin = 1 << 14

// rotateRows is simd.DrotSeq on the n x n u (rows ld apart), split by columns across
// the cores for matrices of 128 and more (a batch of smaller ones already fills them):
// every column is rotated on its own, so the split changes no bit.
func rotateRows(u []float64, n, ld, lo, hi int, c, s []float64) {
	tasks := 1
	if n >= 128 {
		tasks = min(ndarray.Cores(), (hi-lo)*n/rotTaskMin)
	}
	simd.DrotSeq(u, ld, n, lo, hi, c, s, tasks)
}

// rotStride is the distance between the rows of the eigenvectors during the QL sweeps:
// n, unless two rows are then a multiple of 4 KiB apart, give or take 256 bytes. A sweep
// stores row i+1 and next loads row i-1, and a load whose address matches a pending
// store's in its low 12 bits waits for it: at n = 256 (rows of 2 KiB) the sweeps ran
// three times slower than over rows 2,112 bytes apart.
func rotStride(n int) int {
	ld := n
	for (2*ld*8+256)%4096 < 512 {
		ld++
	}
	return ld
}

// sortEigen sorts the eigenvalues w ascending, moving the rows of u with them.
func sortEigen(w, u []float64, n int) {
	for i := 0; i < n-1; i++ {
		k := i
		for j := i + 1; j < n; j++ {
			if w[j] < w[k] {
				k = j
			}
		}
		if k != i {
			w[i], w[k] = w[k], w[i]
			ri, rk := u[i*n:(i+1)*n], u[k*n:(k+1)*n]
			for j := range ri {
				ri[j], rk[j] = rk[j], ri[j]
			}
		}
	}
}

// hypot is math.Hypot, by the plain formula where the squares neither overflow nor
// underflow (math.Hypot's scaling is a fifth of the QL sweep's time).
func hypot(x, y float64) float64 {
	const lo, hi = 0x1p-500, 0x1p500
	ax, ay := math.Abs(x), math.Abs(y)
	if ax < hi && ay < hi && (ax > lo || ay > lo) {
		return math.Sqrt(x*x + y*y)
	}
	return math.Hypot(x, y)
}
