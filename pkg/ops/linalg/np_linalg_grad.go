package linalg

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// svdGrad: the gradient of the reduced A = U diag(S) Vh (k = min(m, n)) from gU, gS and
// gVh (zeros where none flowed), the standard formula (Townsend, "Differentiating the
// singular value decomposition", 2016) with F[i][j] = 1/(s_j^2 - s_i^2) off the diagonal:
//
//	J = F * (U^T gU - gU^T U),  K = F * (Vh gVh^T - gVh Vh^T)
//	dA = U (J S + S K + diag(gS)) Vh
//	   + (gU - U U^T gU) S^-1 Vh      (m > k: the part of gU outside U's span)
//	   + U S^-1 (gVh - gVh Vh^T Vh)   (n > k: the part of gVh outside Vh's)
//
// Equal (or zero) singular values would make F (or S^-1) infinite; they count as zero
// there, so that a loss of S alone (svdvals, norm) keeps a finite gradient. The extra
// columns of a full U (rows of a full Vh) of a non-square A are any basis of a
// complement, not a function of A: backward through them is refused.
var svdGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	a := c.Shapes[0]
	m, n := a[len(a)-2], a[len(a)-1]
	if c.Attrs.Bool("full_matrices") && m != n {
		return nil, mxerr.New(mxerr.MXNet, "svd: no gradient with full_matrices=True for a %dx%d matrix: the "+
			"extra singular vectors are not unique (use full_matrices=False)", m, n)
	}
	s := &ops.GradCalls{C: c}
	u, sv, vh, gu, gs, gvh := c.Out[0], c.Out[1], c.Out[2], c.OutGrad[0], c.OutGrad[1], c.OutGrad[2]
	k, batch := min(m, n), a[:len(a)-2]
	sRow, sCol := s.Reshape(sv, laWithLast(batch, 0, 1, k)), s.Reshape(sv, laWithLast(batch, 0, k, 1))
	f := recipOffDiag(s, s.Call("multiply", "", sRow, sRow), s.Call("multiply", "", sCol, sCol))
	utgu := s.Call("linalg_gemm2", "transpose_a=1", u, gu)
	vhgv := s.Call("linalg_gemm2", "transpose_b=1", vh, gvh)
	j := s.Call("multiply", "", f, antisym(s, utgu))
	kk := s.Call("multiply", "", f, antisym(s, vhgv))
	inner := s.Call("add", "", s.Call("add", "", s.Call("multiply", "", j, sRow), s.Call("multiply", "", sCol, kk)),
		s.Call("linalg_makediag", "", gs))
	right := s.Call("linalg_gemm2", "", inner, vh)
	if n > k {
		outside := s.Call("linalg_gemm", "transpose_a=1;alpha=-1;beta=1", vhgv, vh, gvh)
		right = s.Call("add", "", right, s.Call("multiply", "", safeRecip(s, sCol), outside))
	}
	da := s.Call("linalg_gemm2", "", u, right)
	if m > k {
		outside := s.Call("linalg_gemm", "alpha=-1;beta=1", u, utgu, gu)
		da = s.Call("linalg_gemm", "beta=1", s.Call("multiply", "", outside, safeRecip(s, sRow)), vh, da)
	}
	return s.Done(da)
}}

// antisym is x - x^T over the last two axes.
func antisym(s *ops.GradCalls, x *ndarray.NDArray) *ndarray.NDArray {
	return s.Call("subtract", "", x, s.Call("swapaxes", "dim1=-1;dim2=-2", x))
}

// recipOffDiag is F[i][j] = 1 / (row_j - col_i) from a row (..., 1, k) and a column
// (..., k, 1) of the same values: 0 where they are equal, the diagonal among them.
func recipOffDiag(s *ops.GradCalls, row, col *ndarray.NDArray) *ndarray.NDArray {
	return safeRecip(s, s.Call("subtract", "", row, col))
}

// safeRecip is 1/x elementwise with 0 where x is 0: 1/(x + z) - z with z = (x == 0).
func safeRecip(s *ops.GradCalls, x *ndarray.NDArray) *ndarray.NDArray {
	z := s.Call("_equal_scalar", "scalar=f:0", x)
	return s.Call("subtract", "", s.Call("reciprocal", "", s.Call("add", "", x, z)), z)
}
