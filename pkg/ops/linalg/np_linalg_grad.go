package linalg

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// svdGrad: the gradient of A = U diag(S) Vh (k = min(m, n)) from gU, gS and gVh (zeros
// where none flowed), the standard formula (Townsend, "Differentiating the singular value
// decomposition", 2016) on the reduced factors, with F[i][j] = 1/(s_j^2 - s_i^2) off the
// diagonal:
//
//	J = F * (U^T gU - gU^T U),  K = F * (Vh gVh^T - gVh Vh^T)
//	dA = U (J S + S K + diag(gS)) Vh
//	   + (gU - U U^T gU) S^-1 Vh      (m > k: the part of gU outside U's span)
//	   + U S^-1 (gVh - gVh Vh^T Vh)   (n > k: the part of gVh outside Vh's)
//
// Equal (or zero) singular values would make F (or S^-1) infinite; they count as zero
// there, so that a loss of S alone (svdvals, norm) keeps a finite gradient.
var svdGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	a := c.Shapes[0]
	m, n := a[len(a)-2], a[len(a)-1]
	k, batch := min(m, n), a[:len(a)-2]
	s := &ops.GradCalls{C: c}
	u, sv, vh, gu, gs, gvh := c.Out[0], c.Out[1], c.Out[2], c.OutGrad[0], c.OutGrad[1], c.OutGrad[2]
	if c.Attrs.Bool("full_matrices") {
		u, gu = fullToReduced(s, u, gu, k, -1)
		vh, gvh = fullToReduced(s, vh, gvh, k, -2)
	}
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

// fullToReduced turns a full factor x (U with axis -1, Vh with axis -2) and its gradient
// g into the reduced ones: the first k vectors, and g's first k with what the others'
// gradient gives them. The others X2 span the complement of the first k X1, fixed by A
// only up to a rotation among themselves; for a loss that does not depend on that
// rotation (of the projector X2 X2^T, or not of X2 at all), X1^T X2 = 0 makes
// dX2 = -X1 dX1^T X2, so X1's gradient gains -X2 g2^T X1 (the transposes for Vh).
// (Other losses of X2 have no gradient: X2 is no function of A.)
func fullToReduced(s *ops.GradCalls, x, g *ndarray.NDArray, k, axis int) (x1, g1 *ndarray.NDArray) {
	if x.Shape()[len(x.Shape())+axis] == k {
		return x, g
	}
	part := func(a *ndarray.NDArray, begin int, end string) *ndarray.NDArray {
		return s.Call("slice_axis", "axis="+strconv.Itoa(axis)+";begin="+strconv.Itoa(begin)+";end="+end, a)
	}
	kEnd := strconv.Itoa(k)
	x1, x2, g1, g2 := part(x, 0, kEnd), part(x, k, "None"), part(g, 0, kEnd), part(g, k, "None")
	if axis == -1 { // U: g1 - X2 (g2^T X1)
		return x1, s.Call("linalg_gemm", "alpha=-1;beta=1", x2, s.Call("linalg_gemm2", "transpose_a=1", g2, x1), g1)
	}
	// Vh: g1 - (X1 g2^T) X2
	return x1, s.Call("linalg_gemm", "alpha=-1;beta=1", s.Call("linalg_gemm2", "transpose_b=1", x1, g2), x2, g1)
}

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
