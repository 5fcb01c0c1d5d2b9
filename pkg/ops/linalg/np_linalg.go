package linalg

import (
	"slices"

	"gonum.org/v1/gonum/lapack"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The kernels mx.np.linalg needs that MXNet 1.x's linalg operators lack, under the
// names MXNet's NumPy operators have (_npi_solve, _npi_svd, _npi_eig, _npi_eigvals): a
// general solve with partial pivoting, the singular value decomposition and the
// eigendecomposition of general matrices (real eigenvalues only, as MXNet's), on stacks of matrices in
// float32 or float64 (computed in float64, lapack_batch.go). Broadcasting of the batch
// axes and NumPy's 1-d right-hand sides are mx.np.linalg's (Python) business.

func init() {
	ops.Register(&ops.Op{
		Name: "_npi_solve", Category: ops.General, Inputs: []string{"A", "B"}, DTypes: ops.F32F64DTypes, Grad: solveGrad,
		Doc: "Solves A X = B for X (LU factorization with partial pivoting), per matrix of the stacks A (..., n, n) " +
			"and B (..., n, k) (the same batch axes). A singular A raises.",
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if err := ops.SameDType(in); err != nil {
				return nil, 0, ops.WithOpName("_npi_solve", err)
			}
			a, b := in[0].Shape(), in[1].Shape()
			n, err := squareMatrices("solve", a)
			if err != nil {
				return nil, 0, err
			}
			if len(b) != len(a) || b[len(b)-2] != n || !slices.Equal(a[:len(a)-2], b[:len(b)-2]) {
				return nil, 0, mxerr.ValueErr("solve: B must have shape (..., %d, k) with A's batch axes %s, got %s",
					n, ops.FmtShape(a[:len(a)-2]), ops.FmtShape(b))
			}
			return slices.Clone(b), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			b := in[1].Shape()
			return laRun(in, out, laBatchCount(b, 2), solveKernel(b[len(b)-2], b[len(b)-1]))
		},
	})
	ops.Register(&ops.Op{
		Name: "_npi_svd", Category: ops.General, Inputs: []string{"A"}, DTypes: ops.F32F64DTypes, Grad: svdGrad,
		Params: []ops.Param{{Name: "full_matrices", Kind: ops.ParamBool, Default: "0",
			Doc: "U (..., m, m) and Vh (..., n, n) (else (..., m, k) and (..., k, n), k = min(m, n))"}},
		Doc: "Singular value decomposition A = U diag(S) Vh of each m x n matrix: [U, S, Vh], S descending " +
			"(LAPACK's gesvd). For m <= n this is MXNet's np.linalg.svd's [ut, l, v]; MXNet raises for m > n.",
		InferOuts: func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
			a := in[0].Shape()
			if len(a) < 2 {
				return nil, mxerr.ValueErr("svd: input A must have at least 2 dimensions, got shape %s", ops.FmtShape(a))
			}
			m, n, k, ku, kv := svdDims(a, at.Bool("full_matrices"))
			dt := in[0].DType()
			return []ops.Result{{Shape: laWithLast(a, 2, m, ku), DType: dt}, {Shape: laWithLast(a, 2, k), DType: dt},
				{Shape: laWithLast(a, 2, kv, n), DType: dt}}, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			m, n, _, ku, kv := svdDims(in[0].Shape(), at.Bool("full_matrices"))
			return laRun(in, out, laBatchCount(in[0].Shape(), 2), svdKernel(m, n, ku, kv))
		},
	})
	for _, vectors := range []bool{true, false} {
		name, results, doc := "_npi_eig", 2, "Eigenvalues w (..., n) and right eigenvectors v (..., n, n; unit columns) "+
			"of each square matrix: [w, v]"
		if !vectors {
			name, results, doc = "_npi_eigvals", 1, "Eigenvalues of each square matrix"
		}
		laSquare(name, doc+" (LAPACK's geev), unordered. Complex eigenvalues raise, as in MXNet 1.9.1.", nil,
			results, func(a []int, _ ops.Attrs) ([][]int, error) {
				if vectors {
					return [][]int{slices.Clone(a[:len(a)-1]), slices.Clone(a)}, nil
				}
				return [][]int{slices.Clone(a[:len(a)-1])}, nil
			}, func(n int, _ ops.Attrs, _ ndarray.DType) matKernel { return eigKernel(n, vectors) }, nil)
	}
}

// eigKernel: the eigenvalues (out[0]) and, with vectors, the right eigenvectors (the
// columns of out[1]) of the n x n matrix, by geev; complex eigenvalues are refused.
func eigKernel(n int, vectors bool) matKernel {
	jobVR := lapack.RightEVNone
	if vectors {
		jobVR = lapack.RightEVCompute
	}
	return func(in, out [][]float64) error {
		if n == 0 {
			return nil
		}
		a, wi := slices.Clone(in[0]), make([]float64, n)
		var vr []float64
		if vectors {
			vr = out[1]
		}
		ldvr := 1
		if vectors {
			ldvr = n
		}
		work := laWorkspace(func(w []float64) {
			lapackImpl.Dgeev(lapack.LeftEVNone, jobVR, n, a, n, out[0], wi, nil, 1, vr, ldvr, w, -1)
		})
		if lapackImpl.Dgeev(lapack.LeftEVNone, jobVR, n, a, n, out[0], wi, nil, 1, vr, ldvr, work, len(work)) > 0 {
			return mxerr.ValueErr("eig: the eigenvalue algorithm did not converge")
		}
		for _, v := range wi {
			if v != 0 {
				return mxerr.ValueErr("eig: the matrix has complex eigenvalues, which mx.np.linalg.eig does not " +
					"return (as MXNet's); use eigh for symmetric matrices")
			}
		}
		return nil
	}
}

// svdDims: the matrix dimensions m x n of shape a, k = min(m, n), and the columns of U
// and rows of Vh (k, or m and n for full matrices).
func svdDims(a []int, full bool) (m, n, k, ku, kv int) {
	m, n = a[len(a)-2], a[len(a)-1]
	k = min(m, n)
	if full {
		return m, n, k, m, n
	}
	return m, n, k, k, k
}

// solveKernel: X (n x k) with A X = B, by getrf and getrs.
func solveKernel(n, k int) matKernel {
	return func(in, out [][]float64) error {
		x := out[0]
		copy(x, in[1])
		if n == 0 || k == 0 {
			return nil
		}
		a := slices.Clone(in[0])
		ipiv := make([]int, n)
		if !lapackImpl.Dgetrf(n, n, a, n, ipiv) {
			return mxerr.ValueErr("solve: the matrix A is singular")
		}
		lapackImpl.Dgetrs(laTrans(false), n, k, a, n, ipiv, x, k)
		return nil
	}
}

// svdKernel: U (m x ku), S (min(m, n)) and Vh (kv x n) by gesvd (row-major, as gonum's).
func svdKernel(m, n, ku, kv int) matKernel {
	jobU, jobV := lapack.SVDStore, lapack.SVDStore
	if ku == m && m > n {
		jobU = lapack.SVDAll
	}
	if kv == n && n > m {
		jobV = lapack.SVDAll
	}
	return func(in, out [][]float64) error {
		u, s, vt := out[0], out[1], out[2]
		if m == 0 || n == 0 {
			clear(u)
			clear(vt)
			fillIdentity(u, m, ku)
			fillIdentity(vt, kv, n)
			return nil
		}
		a := slices.Clone(in[0])
		work := laWorkspace(func(w []float64) { lapackImpl.Dgesvd(jobU, jobV, m, n, a, n, s, u, ku, vt, n, w, -1) })
		if !lapackImpl.Dgesvd(jobU, jobV, m, n, a, n, s, u, ku, vt, n, work, len(work)) {
			return mxerr.ValueErr("svd: the algorithm did not converge (does the input hold inf or nan?)")
		}
		return nil
	}
}

// fillIdentity writes ones on the diagonal of the r x c matrix a (the bases of an empty SVD).
func fillIdentity(a []float64, r, c int) {
	for i := 0; i < min(r, c); i++ {
		a[i*c+i] = 1
	}
}

// solveGrad: for X = A^-1 B, dB = A^-T g and dA = -dB X^T.
var solveGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	db := s.Call("_npi_solve", "", s.Call("swapaxes", "dim1=-1;dim2=-2", c.In[0]), c.OutGrad[0])
	da := s.Call("linalg_gemm2", "transpose_b=1;alpha=-1", db, c.Out[0])
	return s.Done(da, db)
}}
