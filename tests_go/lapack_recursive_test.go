package mxgotest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"

	"github.com/mxgo/mxgo/pkg/ops/linalg"
)

// The operators' recursive LU (linalg.LAPACK's Dgetrf) against gonum's blocked one:
// the same pivots, factors within rounding, the same ok for singular matrices, and the
// columns right of the matrix (lda > n) untouched. Sizes cross the panel width (16),
// the 8-column cuts and gonum's own block (64); tall matrices too.
func TestRecursiveLUAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	fast, ref := linalg.LAPACK(), lapackgo.Implementation{}
	for _, mn := range [][2]int{{1, 1}, {5, 5}, {16, 16}, {17, 17}, {40, 33}, {64, 64}, {100, 100}, {150, 70}, {257, 257}} {
		for _, singular := range []bool{false, true} {
			m, n := mn[0], mn[1]
			lda := n + 3
			a := randomFloats(r, m*lda)
			if singular && n > 2 {
				for i := range m { // column 2 zero: U gets a zero pivot, and stays zero exactly
					a[i*lda+2] = 0
				}
			}
			want := append([]float64(nil), a...)
			ip, wantIP := make([]int, n), make([]int, n)
			ok := fast.Dgetrf(m, n, a, lda, ip)
			wantOK := ref.Dgetrf(m, n, want, lda, wantIP)
			require.Equal(t, wantOK, ok, "%v singular=%v", mn, singular)
			require.Equal(t, wantIP, ip, "%v singular=%v: pivots", mn, singular)
			for i := range a {
				if i%lda >= n {
					require.Equal(t, want[i], a[i], "%v: padding [%d]", mn, i)
					continue
				}
				require.InDelta(t, want[i], a[i], 1e-12*float64(n), "%v singular=%v [%d, %d]", mn, singular, i/lda, i%lda)
			}
		}
	}
}

// The recursive Cholesky against gonum's, both triangles: the same factor within
// rounding, the other triangle untouched, and false for a matrix that is not positive
// definite (at a pivot in the recursion's second half as well as its first).
func TestRecursiveCholeskyAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 54))
	fast, ref := linalg.LAPACK(), lapackgo.Implementation{}
	for _, n := range []int{1, 7, 32, 33, 64, 100, 129, 256} {
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, bad := range []int{-1, 0, n - 1} { // -1: positive definite
				lda := n + 2
				g := randomFloats(r, n*n)
				a := make([]float64, n*lda)
				for i := range n { // a = g g^T + n I, then a non-positive pivot at bad
					for j := range n {
						s := 0.0
						for k := range n {
							s += g[i*n+k] * g[j*n+k]
						}
						a[i*lda+j] = s
					}
					a[i*lda+i] += float64(n)
					a[i*lda+n], a[i*lda+n+1] = math.NaN(), float64(i)
				}
				if bad >= 0 {
					a[bad*lda+bad] = -1e6
				}
				want := append([]float64(nil), a...)
				ok := fast.Dpotrf(ul, n, a, lda)
				require.Equal(t, ref.Dpotrf(ul, n, want, lda), ok, "n=%d %c bad=%d", n, ul, bad)
				require.Equal(t, bad < 0, ok, "n=%d %c bad=%d", n, ul, bad)
				if !ok {
					continue
				}
				for i := range n {
					for j := range lda {
						w, g := want[i*lda+j], a[i*lda+j]
						if j >= n || (ul == blas.Lower && j > i) || (ul == blas.Upper && j < i) { // padding, the other triangle
							require.True(t, w == g || math.IsNaN(w) && math.IsNaN(g), "n=%d %c [%d, %d] written", n, ul, i, j)
							continue
						}
						require.InDelta(t, w, g, 1e-12*math.Sqrt(float64(n)+1)*float64(n), "n=%d %c [%d, %d]", n, ul, i, j)
					}
				}
			}
		}
	}
}

// The recursive triangular inverse against gonum's: both triangles and diagonals, the
// other triangle (and a unit diagonal) untouched, and a zero on the diagonal refused
// with the matrix unchanged.
func TestRecursiveTrtriAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 56))
	fast, ref := linalg.LAPACK(), lapackgo.Implementation{}
	for _, n := range []int{20, 65, 100, 200} {
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
				lda := n + 1
				a := randomFloats(r, n*lda)
				for i := range n {
					a[i*lda+i] = 2 + r.Float64() // well conditioned
					for j := range n {
						if (ul == blas.Lower) == (j < i) {
							a[i*lda+j] /= float64(n)
						}
					}
				}
				want := append([]float64(nil), a...)
				require.True(t, fast.Dtrtri(ul, d, n, a, lda))
				require.True(t, ref.Dtrtri(ul, d, n, want, lda))
				for i := range a {
					require.InDelta(t, want[i], a[i], 1e-12*float64(n), "n=%d %c %c [%d, %d]", n, ul, d, i/lda, i%lda)
				}
				if d == blas.NonUnit {
					b := append([]float64(nil), a...)
					b[(n/2)*lda+n/2] = 0
					c := append([]float64(nil), b...)
					require.False(t, fast.Dtrtri(ul, d, n, b, lda))
					require.Equal(t, c, b, "n=%d %c: a refused matrix is unchanged", n, ul)
				}
			}
		}
	}
}

// The inverse from the LU (Dgetri on the recursive Dtrtri and Dtrsm) against gonum's on
// the same factors, its workspace query, and a singular U refused.
func TestRecursiveGetriAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 58))
	fast, ref := linalg.LAPACK(), lapackgo.Implementation{}
	for _, n := range []int{30, 65, 130, 257} {
		lda := n + 2
		a := randomFloats(r, n*lda)
		ip := make([]int, n)
		require.True(t, fast.Dgetrf(n, n, a, lda, ip))
		want := append([]float64(nil), a...)
		q := []float64{0}
		require.True(t, fast.Dgetri(n, a, lda, ip, q, -1))
		require.GreaterOrEqual(t, int(q[0]), n*n)
		work := make([]float64, int(q[0]))
		require.True(t, fast.Dgetri(n, a, lda, ip, work, len(work)))
		ref.Dgetri(n, want, lda, ip, work, len(work))
		for i := range a {
			if i%lda >= n {
				continue
			}
			require.InDelta(t, want[i], a[i], 1e-9, "n=%d [%d, %d]", n, i/lda, i%lda)
		}
		a[(n/3)*lda+n/3] = 0 // U singular
		require.False(t, fast.Dgetri(n, a, lda, ip, work, len(work)))
	}
}
