package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// syevd's eigensolver (tridiagonal QL with the eigenvectors as rows, rotated by
// simd.DrotSeq) against gonum's Dsyev, the path it replaced: eigenvalues within
// 2 n eps ||A||, eigenvectors (sign-normalised as MXNet's) within n eps ||A|| / gap
// where the spectrum is separated, and everywhere the residual ||A v - w v|| and the
// orthogonality of the vectors within n eps ||A||, over sizes from 1 to 256 (both sides
// of 8-column blocks, rows padded apart), batches, float32 and float64, and degenerate spectra.

// The AVX2 rotation kernel gives DrotSeqGo's bits, column block and tail alike, in one
// part or cut into column blocks on the pool's threads.
func TestDrotSeqMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{1, 3, 7, 8, 9, 16, 21, 44} {
		for _, span := range [][2]int{{0, 1}, {0, 5}, {2, 4}, {3, 3}} {
			for _, parts := range []int{1, 2, 3} {
				rows, ld := span[1]+2, n+3
				z := randomFloats(r, rows*ld)
				ang := randomFloats(r, rows)
				c, s := make([]float64, rows), make([]float64, rows)
				for i, a := range ang {
					c[i], s[i] = math.Cos(3*a), math.Sin(3*a)
				}
				want := append([]float64(nil), z...)
				simd.DrotSeq(z, ld, n, span[0], span[1], c, s, parts)
				simd.DrotSeqGo(want, ld, n, span[0], span[1], c, s)
				require.Equal(t, want, z, "n %d rows %v parts %d", n, span, parts)
			}
		}
	}
}

// eigTestMatrix returns a symmetric n x n matrix: random, or with the spectrum spec
// (Q diag(spec) Q^T with Q a product of random reflections) when spec is given.
func eigTestMatrix(r *rand.Rand, n int, spec []float64) []float64 {
	a := randomFloats(r, n*n)
	if spec == nil {
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				a[j*n+i] = a[i*n+j]
			}
		}
		return a
	}
	clear(a)
	for i, x := range spec {
		a[i*n+i] = x
	}
	for range 3 { // a = H a H with H = I - 2 v v^T / v^T v
		v := randomFloats(r, n)
		vv := 0.0
		for _, x := range v {
			vv += x * x
		}
		h := make([]float64, n*n)
		for i := range n {
			for j := range n {
				h[i*n+j] = -2 * v[i] * v[j] / vv
			}
			h[i*n+i]++
		}
		a = laMul(h, laMul(a, h, n, n, n), n, n, n)
	}
	for i := 0; i < n; i++ { // exactly symmetric
		for j := 0; j < i; j++ {
			a[j*n+i] = a[i*n+j]
		}
	}
	return a
}

// refEig is gonum's Dsyev with syevd's sign convention: ascending eigenvalues, the
// eigenvectors as rows with their largest component positive.
func refEig(a []float64, n int) (w, u []float64) {
	x := append([]float64(nil), a...)
	w = make([]float64, n)
	var impl lapackgo.Implementation
	work := []float64{0}
	impl.Dsyev(lapack.EVCompute, blas.Lower, n, x, n, w, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dsyev(lapack.EVCompute, blas.Lower, n, x, n, w, work, len(work))
	u = transposeFlat(x, n, n)
	for i := 0; i < n; i++ {
		row, big := u[i*n:(i+1)*n], 0
		for j := range row {
			if math.Abs(row[j]) > math.Abs(row[big]) {
				big = j
			}
		}
		if row[big] < 0 {
			for j := range row {
				row[j] = -row[j]
			}
		}
	}
	return w, u
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

func TestSyevdAgainstDsyev(t *testing.T) {
	checkLeaks(t)
	r := rand.New(rand.NewPCG(33, 34))
	type problem struct {
		name string
		n    int
		spec []float64 // nil: random entries
	}
	var probs []problem
	for _, n := range []int{1, 2, 3, 7, 8, 9, 17, 33, 64, 130, 256} { // 256: rows padded for the sweeps (rotStride)
		probs = append(probs, problem{"random", n, nil})
	}
	spaced := func(n int, f func(i int) float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	probs = append(probs,
		problem{"separated", 40, spaced(40, func(i int) float64 { return float64(i) - 13 })},
		problem{"repeated", 25, spaced(25, func(i int) float64 { return float64(i % 3) })},
		problem{"all equal", 12, spaced(12, func(int) float64 { return 2.5 })},
		problem{"zero", 5, spaced(5, func(int) float64 { return 0 })},
		problem{"tiny", 20, spaced(20, func(i int) float64 { return (float64(i) + 1) * 1e-300 })},
		problem{"huge", 20, spaced(20, func(i int) float64 { return (float64(i) - 7.5) * 1e300 })},
		problem{"graded", 30, spaced(30, func(i int) float64 { return math.Pow(10, float64(i-15)) })},
	)
	for _, p := range probs {
		n := p.n
		const batch = 2
		var a []float64
		for range batch {
			a = append(a, eigTestMatrix(r, n, p.spec)...)
		}
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			if dt == ndarray.Float32 && (p.name == "tiny" || p.name == "huge") {
				continue // out of float32's range
			}
			eps := 0x1p-52
			if dt == ndarray.Float32 {
				eps = 0x1p-23
				for i, x := range a { // the matrix float32 holds
					a[i] = float64(float32(x))
				}
			}
			ev := mustOps(t, "_linalg_syevd", "", fromValues(t, dt, a, batch, n, n))
			u, w := values(t, ev[0]), values(t, ev[1])
			for b := range batch {
				what := fmt.Sprintf("%s n=%d %s #%d", p.name, n, dt, b)
				ab, ub, wb := a[b*n*n:(b+1)*n*n], u[b*n*n:(b+1)*n*n], w[b*n:(b+1)*n]
				norm := max(maxAbs(ab)*float64(n), 0x1p-1022) // the zero matrix: residuals must be 0
				tol := 4 * float64(n) * eps * norm
				rw, ru := refEig(ab, n)
				for i := range n {
					require.InDelta(t, rw[i], wb[i], tol+1e-300, "%s: eigenvalue %d", what, i)
					if i > 0 {
						require.LessOrEqual(t, wb[i-1], wb[i], "%s: ascending", what)
					}
					row := ub[i*n : (i+1)*n]
					av := laMul(ab, row, n, n, 1)
					for j := range n { // residual A v - w v
						require.InDelta(t, 0, (av[j]-wb[i]*row[j])/norm, 4*float64(n)*eps, "%s: residual of %d", what, i)
					}
					for k := 0; k <= i; k++ { // orthonormal rows
						dot := laMul(row, ub[k*n:(k+1)*n], 1, n, 1)[0]
						require.InDelta(t, b2f(k == i), dot, 4*float64(n)*eps, "%s: rows %d and %d", what, i, k)
					}
					gap := math.Inf(1)
					for j := range n {
						if j != i {
							gap = min(gap, math.Abs(rw[j]-rw[i]))
						}
					}
					if gap > 1e-3*norm { // the eigenvector is well determined: same as Dsyev's
						for j := range n {
							require.InDelta(t, ru[i*n+j], row[j], 8*float64(n)*eps*norm/gap, "%s: vector %d [%d]", what, i, j)
						}
					}
				}
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// The sweeps of a large matrix are split by columns across the cores: the same bits on
// any number of them.
func TestSyevdIndependentOfCores(t *testing.T) {
	checkLeaks(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const n = 150
	a := fromValues(t, ndarray.Float64, eigTestMatrix(rand.New(rand.NewPCG(37, 38)), n, nil), n, n)
	var first []float64
	for _, procs := range []int{1, 2, 3} {
		useCores(procs)
		got := rawValues[float64](mustOps(t, "_linalg_syevd", "", a)[0])
		if first == nil {
			first = got
		}
		require.Equal(t, first, got, "GOMAXPROCS=%d", procs)
	}
}
