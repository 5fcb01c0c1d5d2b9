package linalg

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"
)

// MXNet 1.x's linear-algebra operators (mx.nd.linalg.<fn>, registered as linalg_<fn>;
// MXNet's own names are _linalg_<fn>). All work on stacks of matrices in the last two
// axes (gemm and gemm2 may take the rows from another axis), in float32 or float64 only,
// as MXNet's do. gemm and gemm2 use the matrix-product kernel of gemm.go in the input's
// dtype; the LAPACK ones run per matrix in float64 (lapack_batch.go, lapack_kernels.go);
// extract/make diag/trian only move elements (lapack_packed.go).
//
// slogdet, gelqf and syevd have two results (registered as _linalg_<fn>, the functions of
// mx.nd.linalg calling them): one kernel writes both.

var triangParams = []ops.Param{
	{Name: "transpose", Kind: ops.ParamBool, Default: "0", Doc: "use the transpose of the triangular matrix A"},
	{Name: "rightside", Kind: ops.ParamBool, Default: "0", Doc: "multiply B by A from the right (B A)"},
	{Name: "lower", Kind: ops.ParamBool, Default: "1", Doc: "A is lower triangular (else upper): only that triangle is read"},
	{Name: "alpha", Kind: ops.ParamFloat, Default: "1", Doc: "scale factor of the result"},
}

var choleskyParams = []ops.Param{
	{Name: "lower", Kind: ops.ParamBool, Default: "1", Doc: "use (and return) the lower triangle, else the upper one"},
}

func gemmParams(mac bool) []ops.Param {
	p := []ops.Param{
		{Name: "transpose_a", Kind: ops.ParamBool, Default: "0", Doc: "multiply with the transpose of A"},
		{Name: "transpose_b", Kind: ops.ParamBool, Default: "0", Doc: "multiply with the transpose of B"},
		{Name: "alpha", Kind: ops.ParamFloat, Default: "1", Doc: "scale factor of A B"},
	}
	if mac {
		p = append(p, ops.Param{Name: "beta", Kind: ops.ParamFloat, Default: "1", Doc: "scale factor of C"})
	}
	return append(p, ops.Param{Name: "axis", Kind: ops.ParamInt, Default: "-2", Doc: "the axis of the matrix rows (the columns are the last axis)"})
}

// laSquare registers an operator from a stack of square matrices A to the results of the
// given shapes: one for most, two for slogdet and syevd (an operator of several results),
// differentiated by grad (nil: none yet, lapack_grad.go).
func laSquare(name, doc string, params []ops.Param, results int, shapes func(a []int, at ops.Attrs) ([][]int, error),
	kernel func(n int, at ops.Attrs, out ndarray.DType) matKernel, grad *ops.Gradient) {
	inferOuts := func(in []*ndarray.NDArray, at ops.Attrs) ([]ops.Result, error) {
		a := in[0].Shape()
		if _, err := squareMatrices(name, a); err != nil {
			return nil, err
		}
		ss, err := shapes(a, at)
		res := make([]ops.Result, len(ss))
		for i, s := range ss {
			res[i] = ops.Result{Shape: s, DType: in[0].DType()}
		}
		return res, err
	}
	op := &ops.Op{
		Name: name, Doc: doc, Category: ops.General, Inputs: []string{"A"}, Params: params, DTypes: ops.F32F64DTypes,
		InferOuts: inferOuts,
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0].Shape()
			return laRun(in, out, laBatchCount(a, 2), kernel(a[len(a)-1], at, out[0].DType()))
		},
		Grad: grad,
	}
	if results == 1 { // an ordinary operator
		op.InferOuts = nil
		op.Infer = func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			res, err := inferOuts(in, at)
			if err != nil {
				return nil, 0, err
			}
			return res[0].Shape, res[0].DType, nil
		}
	}
	ops.Register(op)
}

// one turns a shape rule of a one-result operator into laSquare's.
func one(shape func(a []int, at ops.Attrs) ([]int, error)) func(a []int, at ops.Attrs) ([][]int, error) {
	return func(a []int, at ops.Attrs) ([][]int, error) {
		s, err := shape(a, at)
		return [][]int{s}, err
	}
}

func sameAsInput(a []int, _ ops.Attrs) ([]int, error) { return slices.Clone(a), nil }

// reducedShape is the result shape of det, slogdet and sumlogdiag: the batch axes, or
// (1,) for one matrix, as in MXNet 1.x (size-0 matrices give a 0-d result there).
func reducedShape(a []int, _ ops.Attrs) ([]int, error) {
	if len(a) > 2 {
		return append([]int{}, a[:len(a)-2]...), nil
	}
	if a[0]*a[1] == 0 {
		return []int{}, nil
	}
	return []int{1}, nil
}

func init() {
	for _, mac := range []bool{true, false} {
		name, inputs, doc := "linalg_gemm", []string{"A", "B", "C"}, "alpha * op(A) op(B) + beta * C"
		if !mac {
			name, inputs, doc = "linalg_gemm2", []string{"A", "B"}, "alpha * op(A) op(B)"
		}
		ops.Register(&ops.Op{
			Name: name, Category: ops.General, Inputs: inputs, Params: gemmParams(mac), DTypes: ops.F32F64DTypes,
			Doc: "Batched matrix product " + doc + ", as MXNet's linalg." + name[7:] + ".\n\n" +
				"op(X) is X or its transpose. The matrices' rows run along axis (default -2) and their " +
				"columns along the last axis; every other axis is a batch axis, and A and B must agree on them " +
				"(no broadcasting).",
			Infer:  inferLaGemm,
			Kernel: laGemmKernel,
			Grad:   gemmGrad(mac),
		})
	}
	laSquare("linalg_potrf", "Cholesky factor L of each symmetric positive-definite matrix A = L L^T "+
		"(lower=False: the upper factor U, A = U^T U), as MXNet's linalg.potrf.\n\nOnly the chosen triangle of A "+
		"is read; the other triangle of the result is zero. A matrix that is not positive definite raises.",
		choleskyParams, 1, one(sameAsInput), func(n int, at ops.Attrs, _ ndarray.DType) matKernel {
			return potrfKernel(n, at.Bool("lower"))
		}, potrfGrad)
	laSquare("linalg_potri", "Inverse of A = L L^T from its Cholesky factor L (the result of potrf), as "+
		"MXNet's linalg.potri.\n\nOnly the chosen triangle of L is read; the result is symmetric.",
		choleskyParams, 1, one(sameAsInput), func(n int, at ops.Attrs, _ ndarray.DType) matKernel {
			return potriKernel(n, at.Bool("lower"))
		}, potriGrad)
	laSquare("linalg_inverse", "Inverse of each square matrix (LU factorization), as MXNet's linalg.inverse. "+
		"A singular matrix raises.", nil, 1, one(sameAsInput), func(n int, _ ops.Attrs, _ ndarray.DType) matKernel {
		return inverseKernel(n)
	}, inverseGrad)
	laSquare("linalg_det", "Determinant of each square matrix (LU factorization), as MXNet's linalg.det.\n\n"+
		"A 2-D input gives shape (1,), as in MXNet 1.x.", nil, 1, one(reducedShape),
		func(n int, _ ops.Attrs, _ ndarray.DType) matKernel { return detKernel(n, false) }, detGrad)
	laSquare("linalg_sumlogdiag", "Sum of the logarithms of the diagonal of each square matrix, as MXNet's "+
		"linalg.sumlogdiag.", nil, 1, one(reducedShape), func(n int, _ ops.Attrs, _ ndarray.DType) matKernel {
		return sumLogDiagKernel(n)
	}, sumLogDiagGrad)
	laSquare("_linalg_slogdet", "Sign and log|det| of each square matrix: [sign, logabsdet] (mx.nd.linalg.slogdet).", nil, 2,
		func(a []int, at ops.Attrs) ([][]int, error) {
			s, err := reducedShape(a, at)
			return [][]int{s, s}, err
		},
		func(n int, _ ops.Attrs, _ ndarray.DType) matKernel { return detKernel(n, true) }, slogdetGrad)
	laSquare("_linalg_syevd", "Eigenvectors U (rows) and eigenvalues of each symmetric matrix: [U, lambda] "+
		"(mx.nd.linalg.syevd).", nil, 2,
		func(a []int, _ ops.Attrs) ([][]int, error) {
			return [][]int{slices.Clone(a), slices.Clone(a[:len(a)-1])}, nil
		},
		func(n int, _ ops.Attrs, dt ndarray.DType) matKernel { return syevdKernel(n, roundTo(dt)) }, syevdGrad)
	registerLaOthers()
}

// roundTo returns the rounding of a float64 to dt's values.
func roundTo(dt ndarray.DType) func(float64) float64 {
	if dt == ndarray.Float32 {
		return func(x float64) float64 { return float64(float32(x)) }
	}
	return func(x float64) float64 { return x }
}

func registerLaOthers() {
	for _, solve := range []bool{true, false} {
		name, what := "linalg_trsm", "Solves op(A) X = alpha B (rightside: X op(A) = alpha B) for X"
		if !solve {
			name, what = "linalg_trmm", "Computes alpha op(A) B (rightside: alpha B op(A))"
		}
		ops.Register(&ops.Op{
			Name: name, Category: ops.General, Inputs: []string{"A", "B"}, Params: triangParams, DTypes: ops.F32F64DTypes,
			Doc: what + " with triangular matrices A, as MXNet's linalg." + name[7:] + ".\n\n" +
				"op(A) is A or its transpose; only A's lower (or upper) triangle is read.",
			Infer: inferTriang,
			Grad:  triangGrad(solve),
			Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
				b := in[1].Shape()
				rows, cols := b[len(b)-2], b[len(b)-1]
				k := triangKernel(solve, rows, cols, at.Bool("transpose"), at.Bool("rightside"), at.Bool("lower"),
					at.Float("alpha"))
				return laRun(in, out, laBatchCount(b, 2), k)
			},
		})
	}
	ops.Register(&ops.Op{
		Name: "linalg_syrk", Grad: syrkGrad, Category: ops.General, Inputs: []string{"A"}, DTypes: ops.F32F64DTypes,
		Doc: "alpha A A^T (transpose: alpha A^T A) for each matrix A, as MXNet's linalg.syrk.",
		Params: []ops.Param{
			{Name: "transpose", Kind: ops.ParamBool, Default: "0", Doc: "compute A^T A"},
			{Name: "alpha", Kind: ops.ParamFloat, Default: "1", Doc: "scale factor of the result"},
		},
		Infer: func(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
			a := in[0].Shape()
			if len(a) < 2 {
				return nil, 0, mxerr.ValueErr("linalg_syrk: input A must have at least 2 dimensions, got shape %s", ops.FmtShape(a))
			}
			n := a[len(a)-2]
			if at.Bool("transpose") {
				n = a[len(a)-1]
			}
			return laWithLast(a, 2, n, n), in[0].DType(), nil
		},
		Kernel: func(in, out []*ndarray.NDArray, at ops.Attrs) error {
			a := in[0].Shape()
			k := syrkKernel(a[len(a)-2], a[len(a)-1], at.Bool("transpose"), at.Float("alpha"))
			return laRun(in, out, laBatchCount(a, 2), k)
		},
	})
	ops.Register(&ops.Op{
		Name: "_linalg_gelqf", Grad: gelqfGrad, Category: ops.General, Inputs: []string{"A"}, DTypes: ops.F32F64DTypes,
		Doc: "LQ factorization A = L Q of each m x n matrix (m <= n): [Q (m x n), L (m x m)] (mx.nd.linalg.gelqf).",
		InferOuts: func(in []*ndarray.NDArray, _ ops.Attrs) ([]ops.Result, error) {
			a := in[0].Shape()
			if len(a) < 2 {
				return nil, mxerr.ValueErr("gelqf: input A must have at least 2 dimensions, got shape %s", ops.FmtShape(a))
			}
			m, n := a[len(a)-2], a[len(a)-1]
			if m > n {
				return nil, mxerr.ValueErr("gelqf: each matrix needs at least as many columns as rows, got shape %s",
					ops.FmtShape(a))
			}
			l := append(slices.Clone(a[:len(a)-1]), m)
			return []ops.Result{{Shape: slices.Clone(a), DType: in[0].DType()}, {Shape: l, DType: in[0].DType()}}, nil
		},
		Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
			a := in[0].Shape()
			return laRun(in, out, laBatchCount(a, 2), gelqfKernel(a[len(a)-2], a[len(a)-1]))
		},
	})
}

// laPair checks the two array inputs of gemm, trsm and trmm (one dtype, the same number,
// at least 2, of dimensions) and returns their shapes.
func laPair(name string, in []*ndarray.NDArray) (a, b []int, err error) {
	if err := ops.SameDType(in); err != nil {
		return nil, nil, ops.WithOpName(name, err)
	}
	a, b = in[0].Shape(), in[1].Shape()
	if len(a) < 2 || len(a) != len(b) {
		return nil, nil, mxerr.ValueErr("%s: A and B must have the same number (at least 2) of dimensions, "+
			"got shapes %s and %s", name, ops.FmtShape(a), ops.FmtShape(b))
	}
	return a, b, nil
}

func inferTriang(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	a, b, err := laPair("trsm/trmm", in)
	if err != nil {
		return nil, 0, err
	}
	nd := len(a)
	if a[nd-2] != a[nd-1] {
		return nil, 0, mxerr.ValueErr("trsm/trmm: A must be a stack of square matrices, got shape %s", ops.FmtShape(a))
	}
	if ndarray.SameShape(a[:nd-2], b[:nd-2]) != nil {
		return nil, 0, mxerr.ValueErr("trsm/trmm: the batch axes of A %s and B %s differ", ops.FmtShape(a), ops.FmtShape(b))
	}
	k := b[nd-2]
	if at.Bool("rightside") {
		k = b[nd-1]
	}
	if k != a[nd-1] {
		return nil, 0, mxerr.ValueErr("trsm/trmm: incompatible matrix dimensions: A %s, B %s (rightside=%v)",
			ops.FmtShape(a), ops.FmtShape(b), at.Bool("rightside"))
	}
	return append([]int{}, b...), in[0].DType(), nil
}

// laGemmAxis returns gemm's row axis, checked, for ndim-dimensional operands.
func laGemmAxis(at ops.Attrs, ndim int) (int, error) {
	axis := at.Int("axis")
	if axis < 0 {
		axis += ndim
	}
	if axis < 0 || axis >= ndim-1 {
		return 0, mxerr.ValueErr("gemm: invalid row axis %d for %d-dimensional matrices (the last axis holds the columns)",
			at.Int("axis"), ndim)
	}
	return axis, nil
}

func inferLaGemm(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	a, b, err := laPair("gemm", in)
	if err != nil {
		return nil, 0, err
	}
	nd := len(a)
	axis, err := laGemmAxis(at, nd)
	if err != nil {
		return nil, 0, err
	}
	ta, tb := at.Bool("transpose_a"), at.Bool("transpose_b")
	out := append([]int{}, a...)
	for i := 0; i < nd-1; i++ {
		if i != axis && a[i] != b[i] {
			return nil, 0, mxerr.ValueErr("gemm: shapes %s and %s must be the same except on the row and column axes",
				ops.FmtShape(a), ops.FmtShape(b))
		}
	}
	ka, kb := a[nd-1], b[axis]
	if ta {
		ka, out[axis] = a[axis], a[nd-1]
	}
	if tb {
		kb, out[nd-1] = b[nd-1], b[axis]
	} else {
		out[nd-1] = b[nd-1]
	}
	if ka != kb {
		return nil, 0, mxerr.ValueErr("gemm: incompatible matrix dimensions for multiplication: shapes %s and %s "+
			"(transpose_a=%v, transpose_b=%v)", ops.FmtShape(a), ops.FmtShape(b), ta, tb)
	}
	if len(in) == 3 && ndarray.SameShape(in[2].Shape(), out) != nil {
		return nil, 0, mxerr.ValueErr("gemm: C has shape %s, the product has shape %s", ops.FmtShape(in[2].Shape()), ops.FmtShape(out))
	}
	return out, in[0].DType(), nil
}

// rowsLast returns a view of x with its row axis moved just before the last axis (so
// that the matrices are in the last two axes), transposed when t is set.
func rowsLast(x *ndarray.NDArray, axis int, t bool) (*ndarray.NDArray, error) {
	nd := x.NDim()
	perm := make([]int, 0, nd)
	for i := 0; i < nd-1; i++ {
		if i != axis {
			perm = append(perm, i)
		}
	}
	perm = append(perm, axis, nd-1)
	if t {
		perm[nd-2], perm[nd-1] = perm[nd-1], perm[nd-2]
	}
	return x.Transpose(perm)
}

// laGemmKernel: the product by batchGemm on views with the rows moved next to the
// columns, then alpha and beta C applied in the output's dtype (C is not read when
// beta is 0, as BLAS does not read it).
func laGemmKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	axis, err := laGemmAxis(at, in[0].NDim())
	if err != nil {
		return err
	}
	var views []*ndarray.NDArray
	defer func() { ops.ReleaseAll(views) }()
	for i, x := range []*ndarray.NDArray{in[0], in[1], out[0]} {
		t := (i == 0 && at.Bool("transpose_a")) || (i == 1 && at.Bool("transpose_b"))
		v, err := rowsLast(x, axis, t)
		if err != nil {
			return err
		}
		views = append(views, v)
	}
	if err := gemm.Batch(views[0], views[1], views[2]); err != nil {
		return err
	}
	alpha, beta := at.Float("alpha"), 0.0
	if len(in) == 3 {
		beta = at.Float("beta")
	}
	if out[0].DType() == ndarray.Float32 {
		scaleAdd(out[0], in, float32(alpha), float32(beta))
	} else {
		scaleAdd(out[0], in, alpha, beta)
	}
	return nil
}

// scaleAdd sets d = alpha d + beta C (C = in[2], when there is one and beta != 0).
func scaleAdd[T float32 | float64](d *ndarray.NDArray, in []*ndarray.NDArray, alpha, beta T) {
	switch {
	case len(in) == 3 && beta != 0:
		ops.Map2(d, d, in[2], func(x, c T) T { return alpha*x + beta*c })
	case alpha != 1:
		ops.Map1(d, d, func(x T) T { return alpha * x })
	}
}
