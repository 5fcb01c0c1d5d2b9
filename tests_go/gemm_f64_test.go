package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The float64 product (the packed AVX2 kernel, gemm_f64.c, where the CPU has one)
// against a float64 reference summed in another order: shapes around the register tile
// (6 x 8) and the cache blocks (k 256, rows 96, columns 2040), every operand layout,
// non-finite values, alpha and beta, and splits across cores (which change no bit).

// f64Tol is the rounding bound of two k-term float64 sums in different orders, per unit
// of the sum of the terms' magnitudes.
func f64Tol(k int) float64 { return float64(2*k+2) * 0x1p-53 }

// checkGemmF64 compares got with want within f64Tol(k) * mag (nan and inf exactly).
func checkGemmF64(t *testing.T, got, want, mag []float64, k int, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i, w := range want {
		g := got[i]
		switch {
		case math.IsNaN(w):
			require.True(t, math.IsNaN(g), "%s: [%d] = %v, want nan", what, i, g)
		case math.IsInf(w, 0):
			require.Equal(t, w, g, "%s: [%d]", what, i)
		default:
			require.InDelta(t, w, g, f64Tol(k)*mag[i]+1e-300, "%s: [%d]", what, i)
		}
	}
}

func gemmF64Matrix(t *testing.T, how string, vals []float64, rows, cols int) *ndarray.NDArray {
	return gemmF32MatrixIn(t, how, vals, rows, cols, func(buf []float64, r, c int) *ndarray.NDArray {
		return fromValues(t, ndarray.Float64, buf, r, c)
	})
}

func TestGemmF64ShapesLayoutsAndSplits(t *testing.T) {
	checkLeaks(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(21, 22))
	for _, s := range [][3]int{ // m, k, n
		{1, 1, 1}, {2, 1, 2}, {2, 3, 2}, {6, 8, 8}, {7, 13, 9}, {5, 17, 15}, {12, 256, 16},
		{13, 257, 17}, {11, 255, 7}, {97, 101, 103}, {1, 40, 30}, {30, 40, 1}, {64, 64, 64},
		{193, 300, 97}, {9, 20, 2050}, {2, 515, 3},
	} {
		m, k, n := s[0], s[1], s[2]
		av, bv := randomFloats(r, m*k), randomFloats(r, k*n)
		want, mag := refGemm64(av, bv, m, n, k)
		var first []float64
		for _, la := range gemmF32Layouts {
			for _, lb := range gemmF32Layouts {
				a, b := gemmF64Matrix(t, la, av, m, k), gemmF64Matrix(t, lb, bv, k, n)
				procsList := []int{2}
				if la == lb { // the splits: on a few layouts
					procsList = []int{1, 2, 3}
				}
				for _, procs := range procsList {
					useCores(procs)
					what := fmt.Sprintf("%v %s . %s on %d cores", s, la, lb, procs)
					c := mustOp(t, "dot", "", a, b)
					got := rawValues[float64](c)
					checkGemmF64(t, got, want, mag, k, what)
					if first == nil {
						first = got
					} else if m > 1 && n > 1 { // the packed kernel: same bits whatever the layout or split
						require.Equal(t, first, got, what)
					}
				}
			}
		}
	}
}

func TestGemmF64BatchesAndNonFinite(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(23, 24))
	const nb, m, k, n = 5, 19, 300, 21
	av, bv := randomFloats(r, nb*m*k), randomFloats(r, nb*k*n)
	av[3*k+5], bv[5*n+9] = math.Inf(1), 0 // inf * 0: nan at (0, 3, 9)
	av[m*k+7*k+1], av[m*k+7*k+2] = math.Inf(1), math.Inf(1)
	bv[k*n+1*n+4], bv[k*n+2*n+4] = 1, -1 // inf - inf: nan at (1, 7, 4)
	bv[2*k*n+11*n] = math.NaN()          // column 0 of problem 2
	var want, mag []float64
	for i := 0; i < nb; i++ {
		w, g := refGemm64(av[i*m*k:(i+1)*m*k], bv[i*k*n:(i+1)*k*n], m, n, k)
		want, mag = append(want, w...), append(mag, g...)
	}
	require.True(t, math.IsNaN(want[3*n+9]) && math.IsNaN(want[m*n+7*n+4]) && math.IsNaN(want[2*m*n]))
	a, b := fromValues(t, ndarray.Float64, av, nb, m, k), fromValues(t, ndarray.Float64, bv, nb, k, n)
	checkGemmF64(t, values(t, mustOp(t, "batch_dot", "", a, b)), want, mag, k, "batch_dot")
	checkGemmF64(t, values(t, mustOp(t, "linalg_gemm2", "", a, b)), want, mag, k, "linalg_gemm2")
}

// simd.Dgemm's alpha and beta: c = alpha a b + beta c, c unread when beta is 0 (nan
// there stays out of the result), nothing outside the m x n window written.
func TestDgemmAlphaBeta(t *testing.T) {
	if !simd.DgemmSupported { // the product runs gonum's Dgemm; the kernel refuses to run
		x := []float64{1}
		p := unsafe.Pointer(&x[0])
		require.Panics(t, func() { simd.Dgemm(1, 1, 1, 1, 1, p, 1, 1, p, 1, 1, 0, p, 1) })
		return
	}
	r := rand.New(rand.NewPCG(25, 26))
	for _, s := range [][3]int{{1, 1, 1}, {6, 8, 8}, {7, 300, 11}, {100, 20, 35}, {13, 513, 9}} {
		m, k, n := s[0], s[1], s[2]
		av, bv := randomFloats(r, m*k), randomFloats(r, k*n)
		prod, mag := refGemm64(av, bv, m, n, k)
		for _, ab := range [][2]float64{{1, 0}, {-0.5, 0}, {1, 1}, {2, -0.25}} {
			alpha, beta := ab[0], ab[1]
			ldc := n + 2
			c := make([]float64, (m+1)*ldc)
			c0 := randomFloats(r, len(c))
			for i := range c {
				c[i] = c0[i]
				if beta == 0 {
					c[i] = math.NaN()
				}
			}
			simd.Dgemm(1, m, n, k, alpha, unsafe.Pointer(&av[0]), k, 1, unsafe.Pointer(&bv[0]), n, 1,
				beta, unsafe.Pointer(&c[1]), ldc)
			for i := 0; i <= m; i++ {
				for j := 0; j < ldc; j++ {
					g := c[i*ldc+j]
					if i == m || j == 0 || j > n {
						require.True(t, math.IsNaN(g) && beta == 0 || g == c0[i*ldc+j], "%v: c[%d, %d] was written", s, i, j)
						continue
					}
					w := alpha*prod[i*n+j-1] + beta*c0[i*ldc+j]
					require.InDelta(t, w, g, f64Tol(k)*(math.Abs(alpha)*mag[i*n+j-1]+math.Abs(beta*c0[i*ldc+j])), "%v %v", s, ab)
				}
			}
		}
	}
}

// gonum's LAPACK calls the BLAS installed in blas64, where package linalg puts the packed
// Dgemm: it must agree with gonum's own for every transpose, alpha, beta and size.
func TestLapackBLASDgemm(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	fast, ref := blas64.Implementation(), gonum.Implementation{}
	for _, s := range [][3]int{{1, 5, 7}, {3, 3, 3}, {16, 16, 16}, {70, 33, 65}, {130, 64, 97}} {
		m, k, n := s[0], s[1], s[2]
		for _, ta := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tb := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float64{{1, 0}, {-1, 1}, {0.5, 2}} {
					lda, ldb, ldc := k+1, n+3, n+2
					if ta == blas.Trans {
						lda = m + 1
					}
					if tb == blas.Trans {
						ldb = k + 3
					}
					a, b := randomFloats(r, max(m, k)*lda), randomFloats(r, max(k, n)*ldb)
					c := randomFloats(r, m*ldc)
					want := append([]float64(nil), c...)
					fast.Dgemm(ta, tb, m, n, k, ab[0], a, lda, b, ldb, ab[1], c, ldc)
					ref.Dgemm(ta, tb, m, n, k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
					for i := range c {
						require.InDelta(t, want[i], c[i], f64Tol(k)*float64(k+4), "%v %c%c %v [%d]", s, ta, tb, ab, i)
					}
				}
			}
		}
	}
}

// Dsyrk and Dsyr2k of the installed BLAS (their off-diagonal blocks on the packed
// Dgemm) against gonum's: both triangles, both transposes, the other triangle untouched.
func TestLapackBLASSyrk(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	fast, ref := blas64.Implementation(), gonum.Implementation{}
	for _, nk := range [][2]int{{5, 3}, {47, 20}, {100, 33}, {130, 64}} {
		n, k := nk[0], nk[1]
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				lda, ldc := k+1, n+2
				if tr == blas.Trans {
					lda = n + 1
				}
				a, b := randomFloats(r, max(n, k)*lda), randomFloats(r, max(n, k)*lda)
				c := randomFloats(r, n*ldc)
				want, want2, c2 := append([]float64(nil), c...), append([]float64(nil), c...), append([]float64(nil), c...)
				fast.Dsyrk(ul, tr, n, k, 0.5, a, lda, -1, c, ldc)
				ref.Dsyrk(ul, tr, n, k, 0.5, a, lda, -1, want, ldc)
				fast.Dsyr2k(ul, tr, n, k, 0.5, a, lda, b, lda, 2, c2, ldc)
				ref.Dsyr2k(ul, tr, n, k, 0.5, a, lda, b, lda, 2, want2, ldc)
				for i := range c {
					require.InDelta(t, want[i], c[i], f64Tol(k)*float64(k+4), "syrk %v %c %c [%d]", nk, ul, tr, i)
					require.InDelta(t, want2[i], c2[i], 2*f64Tol(2*k)*float64(k+4), "syr2k %v %c %c [%d]", nk, ul, tr, i)
				}
			}
		}
	}
}

// Dsymv of the installed BLAS (the AVX2 kernel for contiguous vectors) against gonum's:
// both triangles (the other one holds nan and must not be read), alpha and beta, and
// sizes on both sides of the 8-element vector loop.
func TestLapackBLASSymv(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	fast, ref := blas64.Implementation(), gonum.Implementation{}
	for _, n := range []int{16, 17, 23, 64, 101} {
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, ab := range [][2]float64{{1, 0}, {-0.5, 2}} {
				lda := n + 1
				a := randomFloats(r, n*lda)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						if (ul == blas.Lower && j > i) || (ul == blas.Upper && j < i) {
							a[i*lda+j] = math.NaN()
						}
					}
				}
				inc := 1 + n%3 // strided vectors too (LAPACK passes columns)
				x, y := randomFloats(r, n*inc), randomFloats(r, n*inc)
				want := append([]float64(nil), y...)
				if ab[1] == 0 {
					y[0] = math.NaN() // not read
				}
				fast.Dsymv(ul, n, ab[0], a, lda, x, inc, ab[1], y, inc)
				ref.Dsymv(ul, n, ab[0], a, lda, x, inc, ab[1], want, inc)
				for i := range y {
					require.InDelta(t, want[i], y[i], f64Tol(n)*float64(n+4), "%d %c %v [%d]", n, ul, ab, i)
				}
			}
		}
	}
}

// Dger of the installed BLAS (the AVX2 kernel for a contiguous y) against gonum's, on
// a window of a wider matrix (nothing beside it written), a strided x, and every
// length around the 8-element vector loop.
func TestLapackBLASDger(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	fast, ref := blas64.Implementation(), gonum.Implementation{}
	for _, mn := range [][2]int{{1, 64}, {9, 8}, {13, 15}, {64, 63}, {30, 100}} {
		m, n := mn[0], mn[1]
		lda, incX := n+3, 2
		a, x, y := randomFloats(r, m*lda), randomFloats(r, m*incX), randomFloats(r, n)
		want := append([]float64(nil), a...)
		fast.Dger(m, n, -1.5, x, incX, y, 1, a, lda)
		ref.Dger(m, n, -1.5, x, incX, y, 1, want, lda)
		for i := range a {
			require.InDelta(t, want[i], a[i], 4*0x1p-53*3, "%v [%d]", mn, i)
		}
	}
}

// Dtrsm of the installed BLAS (recursion on the triangle with Dgemm updates) against
// gonum's: both sides, triangles, transposes and diagonals, alpha 1 and not, triangles
// on both sides of the recursion's base and of its halves' 8-row rounding. The other
// triangle (and a unit diagonal) holds nan, so reading it shows; B's padding must stay.
func TestLapackBLASTrsm(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	fast, ref := blas64.Implementation(), gonum.Implementation{}
	for _, mn := range [][2]int{{5, 40}, {33, 7}, {70, 65}, {129, 50}, {200, 3}} {
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			m, n := mn[0], mn[1]
			if s == blas.Right {
				m, n = n, m
			}
			k := m
			if s == blas.Right {
				k = n
			}
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				for _, tr := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
						lda, ldb := k+2, n+3
						a := randomFloats(r, k*lda)
						for i := range k {
							for j := range k {
								other := (ul == blas.Lower && j > i) || (ul == blas.Upper && j < i)
								switch {
								case other || (i == j && d == blas.Unit):
									a[i*lda+j] = math.NaN()
								case i == j:
									a[i*lda+j] = 2 + r.Float64() // well conditioned: |X| stays near |B|
								default:
									a[i*lda+j] /= float64(k)
								}
							}
						}
						b := randomFloats(r, m*ldb)
						want := append([]float64(nil), b...)
						alpha := []float64{1, -0.75}[(m+n)%2]
						fast.Dtrsm(s, ul, tr, d, m, n, alpha, a, lda, b, ldb)
						ref.Dtrsm(s, ul, tr, d, m, n, alpha, a, lda, want, ldb)
						for i := range b {
							if i%ldb >= n {
								require.Equal(t, want[i], b[i], "padding [%d]", i)
								continue
							}
							require.InDelta(t, want[i], b[i], f64Tol(k)*float64(k+4), "%v %c %c %c %c [%d]", mn, s, ul, tr, d, i)
						}
					}
				}
			}
		}
	}
}
