package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.np.linalg's own kernels (pkg/ops/linalg/np_linalg.go): _npi_solve checked by A X = B,
// _npi_svd by U diag(S) Vh = A with orthonormal factors and descending S, on contiguous and
// transposed inputs in float32 and float64.

// laGeneral returns batch rows x cols matrices of varied values (well-conditioned when square).
func laGeneral(batch, rows, cols int) []float64 {
	out := make([]float64, batch*rows*cols)
	for i := range out {
		out[i] = float64((i*7+3)%13-6) / 5
	}
	for b := 0; b < batch; b++ {
		for i := 0; i < min(rows, cols); i++ {
			out[b*rows*cols+i*cols+i] += 4
		}
	}
	return out
}

func TestNpSolve(t *testing.T) {
	checkLeaks(t)
	const batch, n, k = 3, 4, 2
	a, bv := laGeneral(batch, n, n), laGeneral(batch, n, k)
	for _, dt := range lapackDTypes {
		for layout, x := range laInputs(t, dt, a, batch, n, n) {
			what := fmt.Sprintf("%s %s", dt, layout)
			sol := values(t, mustOp(t, "_npi_solve", "", x, fromValues(t, dt, bv, batch, n, k)))
			for b := 0; b < batch; b++ {
				laClose(t, bv[b*n*k:(b+1)*n*k], laMul(a[b*n*n:(b+1)*n*n], sol[b*n*k:(b+1)*n*k], n, n, k), laTol(dt), what)
			}
		}
	}
	singular := fromValues(t, ndarray.Float64, []float64{1, 2, 2, 4}, 2, 2)
	r, err := runOp(t, "_npi_solve", []*ndarray.NDArray{singular, fromValues(t, ndarray.Float64, []float64{1, 1}, 2, 1)}, nil, "")
	require.NoError(t, err)
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "singular")
	require.NoError(t, ops.WaitAll())
	_, err = runOp(t, "_npi_solve", []*ndarray.NDArray{singular, fromValues(t, ndarray.Float64, []float64{1, 1, 1}, 3, 1)}, nil, "")
	requireKind(t, err, mxerr.Value, "B must have shape")
}

func TestNpSvd(t *testing.T) {
	checkLeaks(t)
	const batch = 2
	for _, dims := range [][2]int{{3, 5}, {5, 3}, {4, 4}} {
		m, n := dims[0], dims[1]
		k := min(m, n)
		a := laGeneral(batch, m, n)
		for _, dt := range lapackDTypes {
			for layout, x := range laInputs(t, dt, a, batch, m, n) {
				for _, full := range []bool{false, true} {
					what := fmt.Sprintf("%s %s %dx%d full=%v", dt, layout, m, n, full)
					res := mustOps(t, "_npi_svd", "full_matrices="+b01(full), x)
					ku, kv := k, k
					if full {
						ku, kv = m, n
					}
					require.Equal(t, []int{batch, m, ku}, res[0].Shape(), what)
					require.Equal(t, []int{batch, kv, n}, res[2].Shape(), what)
					u, s, vh := values(t, res[0]), values(t, res[1]), values(t, res[2])
					for b := 0; b < batch; b++ {
						ub, sb, vb := u[b*m*ku:(b+1)*m*ku], s[b*k:(b+1)*k], vh[b*kv*n:(b+1)*kv*n]
						us := make([]float64, m*k) // the first k columns of U, scaled by S
						for i := 0; i < m; i++ {
							for j := 0; j < k; j++ {
								us[i*k+j] = ub[i*ku+j] * sb[j]
							}
						}
						laClose(t, a[b*m*n:(b+1)*m*n], laMul(us, vb[:k*n], m, k, n), laTol(dt), what+" U S Vh")
						laClose(t, laIdentity(ku), laMul(transposeFlat(ub, m, ku), ub, ku, m, ku), laTol(dt), what+" U^T U")
						laClose(t, laIdentity(kv), laMul(vb, transposeFlat(vb, kv, n), kv, n, kv), laTol(dt), what+" Vh Vh^T")
						for j := 1; j < k; j++ {
							require.GreaterOrEqual(t, sb[j-1], sb[j], what+" descending")
						}
					}
				}
			}
		}
	}
}

func TestNpEig(t *testing.T) {
	checkLeaks(t)
	const batch, n = 2, 4
	a := laGeneral(batch, n, n)
	for i := range a { // upper triangular plus a small lower part: real, distinct eigenvalues
		if r, c := (i%(n*n))/n, i%n; r > c {
			a[i] /= 50
		}
	}
	for _, dt := range lapackDTypes {
		for layout, x := range laInputs(t, dt, a, batch, n, n) {
			what := fmt.Sprintf("%s %s", dt, layout)
			res := mustOps(t, "_npi_eig", "", x)
			w, v := values(t, res[0]), values(t, res[1])
			require.Equal(t, w, values(t, mustOp(t, "_npi_eigvals", "", x)), what+" eigvals")
			for b := 0; b < batch; b++ {
				vb := v[b*n*n : (b+1)*n*n]
				vw := make([]float64, n*n) // V diag(w)
				for i := range vw {
					vw[i] = vb[i] * w[b*n+i%n]
				}
				laClose(t, vw, laMul(a[b*n*n:(b+1)*n*n], vb, n, n, n), laTol(dt), what+" A V = V diag(w)")
			}
		}
	}
	rot := fromValues(t, ndarray.Float64, []float64{0, 1, -1, 0}, 2, 2)
	r, err := runOp(t, "_npi_eigvals", []*ndarray.NDArray{rot}, nil, "")
	require.NoError(t, err)
	requireKind(t, ops.WaitToRead(r), mxerr.Value, "complex eigenvalues")
	require.NoError(t, ops.WaitAll())
}
