package mxgotest

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// MXNet's linalg operators (pkg/ops/linalg/lapack*.go) checked by the identities their results
// must satisfy (L L^T = A, A inv(A) = I, U^T diag(w) U = A, ...) against naive loops,
// on contiguous and transposed inputs, in float32 and float64.

var lapackDTypes = []ndarray.DType{ndarray.Float32, ndarray.Float64}

// laTol is the tolerance of a result of dt computed from well-conditioned inputs.
func laTol(dt ndarray.DType) float64 {
	if dt == ndarray.Float32 {
		return 1e-4
	}
	return 1e-10
}

// laMul is the naive product of an (m, k) and a (k, n) C-order matrix.
func laMul(a, b []float64, m, k, n int) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for p := 0; p < k; p++ {
			for j := 0; j < n; j++ {
				c[i*n+j] += a[i*k+p] * b[p*n+j]
			}
		}
	}
	return c
}

// laSPD returns batch symmetric positive-definite n x n matrices (diagonally dominant).
func laSPD(batch, n int) []float64 {
	out := make([]float64, batch*n*n)
	for b := 0; b < batch; b++ {
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				v := float64((i*3+j*5+b*7)%9-4) / 8
				if i == j {
					v = float64(n) + float64(b+i)
				}
				out[b*n*n+i*n+j], out[b*n*n+j*n+i] = v, v
			}
		}
	}
	return out
}

// laInputs returns a C-order array of vals and a transposed view holding the same matrices.
func laInputs(t *testing.T, dt ndarray.DType, vals []float64, batch, rows, cols int) map[string]*ndarray.NDArray {
	tv := make([]float64, 0, len(vals))
	for b := 0; b < batch; b++ {
		tv = append(tv, transposeFlat(vals[b*rows*cols:(b+1)*rows*cols], rows, cols)...)
	}
	return map[string]*ndarray.NDArray{
		"contiguous": fromValues(t, dt, vals, batch, rows, cols),
		"transposed": transposeView(t, fromValues(t, dt, tv, batch, cols, rows), []int{0, 2, 1}),
	}
}

func laClose(t *testing.T, want, got []float64, tol float64, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	for i := range want {
		require.InDelta(t, want[i], got[i], tol*(1+math.Abs(want[i])), "%s: element %d", what, i)
	}
}

func TestPotrfAndPotri(t *testing.T) {
	checkLeaks(t)
	const batch, n = 3, 5
	a := laSPD(batch, n)
	for _, dt := range lapackDTypes {
		for layout, x := range laInputs(t, dt, a, batch, n, n) {
			for _, lower := range []bool{true, false} {
				what := fmt.Sprintf("%s %s lower=%v", dt, layout, lower)
				attrs := "lower=" + b01(lower)
				f := values(t, mustOp(t, "linalg_potrf", attrs, x))
				inv := values(t, mustOp(t, "linalg_potri", attrs, mustOp(t, "linalg_potrf", attrs, x)))
				for b := 0; b < batch; b++ {
					fb, ab := f[b*n*n:(b+1)*n*n], a[b*n*n:(b+1)*n*n]
					for i := 0; i < n; i++ {
						for j := i + 1; j < n; j++ { // the other triangle is zero
							r, c := i, j
							if !lower {
								r, c = j, i
							}
							require.Zero(t, fb[r*n+c], what)
						}
					}
					prod := laMul(fb, transposeFlat(fb, n, n), n, n, n) // L L^T
					if !lower {
						prod = laMul(transposeFlat(fb, n, n), fb, n, n, n) // U^T U
					}
					laClose(t, ab, prod, laTol(dt), what+" factor")
					laClose(t, laIdentity(n), laMul(ab, inv[b*n*n:(b+1)*n*n], n, n, n), laTol(dt), what+" potri")
				}
			}
		}
	}
}

func laIdentity(n int) []float64 {
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		out[i*n+i] = 1
	}
	return out
}

func TestPotrfRefusesNonPositiveDefinite(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float32, []float64{1, 2, 2, 1}, 2, 2)
	r, err := runOp(t, "linalg_potrf", []*ndarray.NDArray{x}, nil, "")
	require.NoError(t, err) // the kernel fails on the engine: the error comes with the result
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "positive definite")
	require.NoError(t, ops.WaitAll(), "raised by the wait, once (as in MXNet 1.x)")
}

func TestInverseDetSlogdet(t *testing.T) {
	checkLeaks(t)
	const batch, n = 4, 4
	a := make([]float64, batch*n*n)
	for i := range a {
		a[i] = float64((i*7)%11-5) / 3
	}
	for b := 0; b < batch; b++ {
		for i := 0; i < n; i++ {
			a[b*n*n+i*n+i] += float64(2*b - 3) // some determinants negative
		}
	}
	for _, dt := range lapackDTypes {
		for layout, x := range laInputs(t, dt, a, batch, n, n) {
			what := fmt.Sprintf("%s %s", dt, layout)
			inv := values(t, mustOp(t, "linalg_inverse", "", x))
			det := values(t, mustOp(t, "linalg_det", "", x))
			sl := mustOps(t, "_linalg_slogdet", "", x)
			sign, logAbs := values(t, sl[0]), values(t, sl[1])
			for b := 0; b < batch; b++ {
				ab := a[b*n*n : (b+1)*n*n]
				laClose(t, laIdentity(n), laMul(ab, inv[b*n*n:(b+1)*n*n], n, n, n), laTol(dt), what+" inverse")
				want := laCofactorDet(ab, n)
				assert.InDelta(t, want, det[b], laTol(dt)*(1+math.Abs(want)), what+" det")
				assert.Equal(t, math.Copysign(1, want), sign[b], what+" sign")
				assert.InDelta(t, math.Log(math.Abs(want)), logAbs[b], laTol(dt), what+" logabsdet")
			}
		}
	}
}

// laCofactorDet is the determinant by cofactor expansion along the first row.
func laCofactorDet(a []float64, n int) float64 {
	if n == 1 {
		return a[0]
	}
	d := 0.0
	for c := 0; c < n; c++ {
		minor := make([]float64, 0, (n-1)*(n-1))
		for i := 1; i < n; i++ {
			for j := 0; j < n; j++ {
				if j != c {
					minor = append(minor, a[i*n+j])
				}
			}
		}
		d += math.Pow(-1, float64(c)) * a[c] * laCofactorDet(minor, n-1)
	}
	return d
}

func TestSingularMatrices(t *testing.T) {
	checkLeaks(t)
	x := fromValues(t, ndarray.Float64, []float64{1, 2, 2, 4}, 2, 2)
	assert.Equal(t, []float64{0}, values(t, mustOp(t, "linalg_det", "", x)))
	sl := mustOps(t, "_linalg_slogdet", "", x)
	assert.Equal(t, []int{1}, sl[0].Shape(), "a 2-D input's results have shape (1,), as in MXNet")
	assert.Equal(t, []float64{0}, values(t, sl[0]))
	assert.True(t, math.IsInf(values(t, sl[1])[0], -1))
	r, err := runOp(t, "linalg_inverse", []*ndarray.NDArray{x}, nil, "")
	require.NoError(t, err)
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "singular")
	require.NoError(t, ops.WaitAll(), "raised by the wait")
}

// laTriRef is the triangle of a (n x n) that trsm and trmm read, as a full matrix.
func laTriRef(a []float64, n int, lower bool) []float64 {
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if (lower && j <= i) || (!lower && j >= i) {
				out[i*n+j] = a[i*n+j]
			}
		}
	}
	return out
}

func TestTrsmTrmm(t *testing.T) {
	checkLeaks(t)
	const n, m = 4, 3
	a := laSPD(1, n) // a full matrix: only one triangle may be read
	bl := make([]float64, n*m)
	for i := range bl {
		bl[i] = float64(i%5) - 1.5
	}
	for _, dt := range lapackDTypes {
		for _, right := range []bool{false, true} {
			rows, cols := n, m // B's shape
			if right {
				rows, cols = m, n
			}
			for layout, ax := range laInputs(t, dt, a, 1, n, n) {
				bx := fromValues(t, dt, bl, 1, rows, cols)
				for _, lower := range []bool{true, false} {
					for _, trans := range []bool{false, true} {
						what := fmt.Sprintf("%s %s right=%v lower=%v trans=%v", dt, layout, right, lower, trans)
						attrs := fmt.Sprintf("rightside=%s;lower=%s;transpose=%s;alpha=2", b01(right), b01(lower), b01(trans))
						op := laTriRef(a, n, lower)
						if trans {
							op = transposeFlat(op, n, n)
						}
						// trmm: 2 op(A) B (or 2 B op(A)); trsm: X with op(A) X = 2 B (or X op(A) = 2 B)
						mm := values(t, mustOp(t, "linalg_trmm", attrs, ax, bx))
						sm := values(t, mustOp(t, "linalg_trsm", attrs, ax, bx))
						want, back := laMul(op, bl, n, n, m), laMul(op, sm, n, n, m)
						if right {
							want, back = laMul(bl, op, m, n, n), laMul(sm, op, m, n, n)
						}
						for i := range want {
							want[i] *= 2
						}
						laClose(t, want, mm, laTol(dt), what+" trmm")
						twoB := append([]float64{}, bl...)
						for i := range twoB {
							twoB[i] *= 2
						}
						laClose(t, twoB, back, laTol(dt)*10, what+" trsm")
					}
				}
			}
		}
	}
}

func TestGemmAlphaBetaAxis(t *testing.T) {
	checkLeaks(t)
	// A (2, 3, 4) with rows on axis 0: matrices A[:, i, :] of shape (2, 4); B (4, 3, 5).
	av, bv, cv := seq(24), seq(60), seq(30)
	for _, dt := range lapackDTypes {
		x, y, c := fromValues(t, dt, av, 2, 3, 4), fromValues(t, dt, bv, 4, 3, 5), fromValues(t, dt, cv, 2, 3, 5)
		got := values(t, mustOp(t, "linalg_gemm", "axis=0;alpha=0.5;beta=-2", x, y, c))
		got2 := values(t, mustOp(t, "linalg_gemm2", "axis=-3;alpha=0.5", x, y))
		for i := 0; i < 3; i++ {
			ai, bi := make([]float64, 8), make([]float64, 20)
			for r := 0; r < 2; r++ {
				copy(ai[r*4:], av[r*12+i*4:r*12+i*4+4])
			}
			for r := 0; r < 4; r++ {
				copy(bi[r*5:], bv[r*15+i*5:r*15+i*5+5])
			}
			p := laMul(ai, bi, 2, 4, 5)
			for r := 0; r < 2; r++ {
				for j := 0; j < 5; j++ {
					k := r*15 + i*5 + j
					assert.InDelta(t, 0.5*p[r*5+j]-2*cv[k], got[k], 1e-3, "%s gemm", dt)
					assert.InDelta(t, 0.5*p[r*5+j], got2[k], 1e-3, "%s gemm2", dt)
				}
			}
		}
	}
}

func TestSyevdAndGelqf(t *testing.T) {
	checkLeaks(t)
	const batch, n = 2, 4
	a := laSPD(batch, n)
	for _, dt := range lapackDTypes {
		for layout, x := range laInputs(t, dt, a, batch, n, n) {
			what := fmt.Sprintf("%s %s", dt, layout)
			ev := mustOps(t, "_linalg_syevd", "", x)
			assert.Equal(t, []int{batch, n, n}, ev[0].Shape())
			assert.Equal(t, []int{batch, n}, ev[1].Shape())
			u, w := values(t, ev[0]), values(t, ev[1])
			for b := 0; b < batch; b++ {
				ub, wb := u[b*n*n:(b+1)*n*n], w[b*n:(b+1)*n]
				d := make([]float64, n*n)
				for i := 0; i < n; i++ {
					d[i*n+i] = wb[i]
					if i > 0 {
						assert.LessOrEqual(t, wb[i-1], wb[i], what+" ascending")
					}
					big := 0
					for j := range n {
						if math.Abs(ub[i*n+j]) > math.Abs(ub[i*n+big]) {
							big = j
						}
					}
					assert.Positive(t, ub[i*n+big], what+" sign")
				}
				laClose(t, a[b*n*n:(b+1)*n*n], laMul(transposeFlat(ub, n, n), laMul(d, ub, n, n, n), n, n, n), laTol(dt), what+" syevd")
			}
		}
		const m, k = 3, 5
		g := seq(m * k)
		for i := range g {
			g[i] = math.Sin(g[i] + 1)
		}
		lq := mustOps(t, "_linalg_gelqf", "", fromValues(t, dt, g, m, k))
		assert.Equal(t, []int{m, k}, lq[0].Shape())
		assert.Equal(t, []int{m, m}, lq[1].Shape())
		q, l := values(t, lq[0]), values(t, lq[1])
		laClose(t, g, laMul(l, q, m, m, k), laTol(dt), "gelqf L Q")
		laClose(t, laIdentity(m), laMul(q, transposeFlat(q, m, k), m, k, m), laTol(dt), "gelqf Q Q^T")
		for i := 0; i < m; i++ {
			for j := i + 1; j < m; j++ {
				assert.Zero(t, l[i*m+j], "gelqf L is lower triangular")
			}
		}
	}
}

func TestDiagAndTrianRoundTrips(t *testing.T) {
	checkLeaks(t)
	for _, dt := range lapackDTypes {
		x := fromValues(t, dt, seq(2*4*4), 2, 4, 4)
		xt := transposeView(t, x, []int{0, 2, 1})
		for k := -3; k <= 3; k++ {
			d := mustOp(t, "linalg_extractdiag", fmt.Sprintf("offset=%d", k), xt)
			require.Equal(t, []int{2, 4 - laAbsInt(k)}, d.Shape())
			for b, v := range values(t, d) {
				i := b % (4 - laAbsInt(k))
				r, c := i+max(-k, 0), i+max(k, 0)
				require.Equal(t, float64(b/(4-laAbsInt(k))*16+c*4+r), v, "extractdiag of the transpose, offset %d", k)
			}
			back := values(t, mustOp(t, "linalg_extractdiag", fmt.Sprintf("offset=%d", k),
				mustOp(t, "linalg_makediag", fmt.Sprintf("offset=%d", k), d)))
			require.Equal(t, values(t, d), back)
			for _, lower := range []bool{true, false} {
				attrs := fmt.Sprintf("offset=%d;lower=%s", k, b01(lower))
				p := mustOp(t, "linalg_extracttrian", attrs, xt)
				m := 4 - laAbsInt(k)
				require.Equal(t, []int{2, m * (m + 1) / 2}, p.Shape())
				full := mustOp(t, "linalg_maketrian", attrs, p)
				require.Equal(t, values(t, p), values(t, mustOp(t, "linalg_extracttrian", attrs, full)))
			}
		}
	}
}

func laAbsInt(x int) int { return max(x, -x) }

func TestLapackErrors(t *testing.T) {
	checkLeaks(t)
	f := func(shape ...int) *ndarray.NDArray { return empty(t, ndarray.Float32, shape...) }
	for _, c := range []struct {
		op    string
		attrs string
		in    []*ndarray.NDArray
		kind  mxerr.Kind
	}{
		{"linalg_potrf", "", []*ndarray.NDArray{empty(t, ndarray.Int32, 2, 2)}, mxerr.Type},
		{"linalg_det", "", []*ndarray.NDArray{empty(t, ndarray.Float16, 2, 2)}, mxerr.Type},
		{"linalg_gemm2", "", []*ndarray.NDArray{f(2, 2), empty(t, ndarray.Float64, 2, 2)}, mxerr.Type},
		{"linalg_potrf", "", []*ndarray.NDArray{f(2, 3)}, mxerr.Value},
		{"linalg_inverse", "", []*ndarray.NDArray{f(3)}, mxerr.Value},
		{"linalg_gemm2", "", []*ndarray.NDArray{f(2, 3), f(2, 3)}, mxerr.Value},
		{"linalg_gemm2", "axis=-1", []*ndarray.NDArray{f(2, 3), f(3, 2)}, mxerr.Value},
		{"linalg_gemm", "", []*ndarray.NDArray{f(2, 3), f(3, 2), f(3, 3)}, mxerr.Value},
		{"linalg_trsm", "", []*ndarray.NDArray{f(2, 2), f(3, 2)}, mxerr.Value},
		{"linalg_trsm", "", []*ndarray.NDArray{f(2, 2, 2), f(3, 2, 2)}, mxerr.Value},
		{"linalg_extractdiag", "offset=2", []*ndarray.NDArray{f(2, 2)}, mxerr.Value},
		{"linalg_maketrian", "", []*ndarray.NDArray{f(4)}, mxerr.Value},
		{"linalg_makediag", "", []*ndarray.NDArray{f()}, mxerr.Value},
		{"_linalg_gelqf", "", []*ndarray.NDArray{f(3, 2)}, mxerr.Value},
		{"linalg_syrk", "", []*ndarray.NDArray{f(3)}, mxerr.Value},
	} {
		_, err := runOp(t, c.op, c.in, nil, c.attrs)
		requireKind(t, err, c.kind)
	}
}

func TestLapackEmptyShapes(t *testing.T) {
	checkLeaks(t)
	for _, op := range []string{"linalg_potrf", "linalg_inverse", "linalg_det", "_linalg_syevd", "_linalg_gelqf", "linalg_syrk"} {
		for _, shape := range [][]int{{0, 2, 2}, {0, 0}, {3, 0, 0}} {
			res, err := runOps(t, op, []*ndarray.NDArray{empty(t, ndarray.Float64, shape...)}, nil, "")
			require.NoError(t, err, "%s %v", op, shape)
			for _, r := range res {
				require.NoError(t, ops.WaitToRead(r), "%s %v", op, shape)
			}
		}
	}
	// the determinant of 0 x 0 matrices is 1
	assert.Equal(t, []float64{1, 1, 1}, values(t, mustOp(t, "linalg_det", "", empty(t, ndarray.Float64, 3, 0, 0))))
}

func TestLapackNonFiniteInputs(t *testing.T) {
	checkLeaks(t)
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		vals := laSPD(1, 3)
		vals[4] = v
		x := fromValues(t, ndarray.Float64, vals, 3, 3)
		for _, op := range []string{"linalg_potrf", "linalg_potri", "linalg_inverse", "linalg_det", "_linalg_slogdet",
			"_linalg_syevd", "_linalg_gelqf", "linalg_sumlogdiag", "linalg_syrk"} {
			res, err := runOps(t, op, []*ndarray.NDArray{x}, nil, "")
			require.NoError(t, err, op)
			if err := ops.WaitToRead(res[len(res)-1]); err != nil { // an error, never a panic or a hang
				requireKind(t, err, mxerr.Value)
				require.NoError(t, ops.WaitAll(), "raised by the wait")
			}
		}
		for _, op := range []string{"linalg_trsm", "linalg_trmm", "linalg_gemm2"} {
			require.NoError(t, ops.WaitToRead(mustOp(t, op, "", x, x)), op)
		}
	}
}
