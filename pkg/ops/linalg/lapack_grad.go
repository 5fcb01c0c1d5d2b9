package linalg

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Gradients of mx.nd.linalg, as MXNet's (src/operator/tensor/la_op.h's backward
// formulas), built from the linalg operators themselves so that they are recorded for
// higher order: gemm and gemm2 by matGrads' products, the packed copies by their
// inverses, sumlogdiag, inverse, det, syrk, slogdet, trmm, trsm, potrf, potri, gelqf and
// syevd by their closed forms.

// gemmGrad is the gradient of alpha op(A) op(B) (+ beta C, mac): matGrads' products by
// linalg_gemm2 along the same axis, scaled by alpha; C's is beta g.
func gemmGrad(mac bool) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		s := &ops.GradCalls{C: c}
		ta, tb := c.Attrs.Bool("transpose_a"), c.Attrs.Bool("transpose_b")
		common := ";alpha=" + wireFloat(c.Attrs.Float("alpha")) + ";axis=" + strconv.Itoa(c.Attrs.Int("axis"))
		arrs := [3]*ndarray.NDArray{c.In[0], c.In[1], c.OutGrad[0]}
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		for i, f := range matGrads[b2i(ta)][b2i(tb)] {
			if c.Need[i] {
				grads[i] = s.Call("linalg_gemm2", "transpose_a="+b01(f.ta)+";transpose_b="+b01(f.tb)+common, arrs[f.l], arrs[f.r])
			}
		}
		if mac && c.Need[2] {
			grads[2] = s.Call("_multiply_scalar", "scalar=f:"+wireFloat(c.Attrs.Float("beta")), c.OutGrad[0])
		}
		return s.Done(grads...)
	}}
}

// packedGrad is the gradient of linalg_extract<what> (linalg_make<what>): the other
// operator of the pair, with the same offset (and lower).
func packedGrad(inverse string, trian bool) *ops.Gradient {
	return &ops.Gradient{Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		attrs := "offset=" + strconv.Itoa(c.Attrs.Int("offset"))
		if trian {
			attrs += ";lower=" + b01(c.Attrs.Bool("lower"))
		}
		g, err := c.Call(inverse, attrs, c.OutGrad[0])
		return []*ndarray.NDArray{g}, err
	}}
}

// sumLogDiagGrad: d/dA sum(log(diag A)) is diag(1 / diag A).
var sumLogDiagGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	g := s.Reshape(c.OutGrad[0], perMatrix(c.Shapes[0], 1))
	return s.Done(s.Call("linalg_makediag", "", s.Call("divide", "", g, s.Call("linalg_extractdiag", "", c.In[0]))))
}}

// inverseGrad: with Y = A^-1, dA = -Y^T g Y^T.
var inverseGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	y := c.Out[0]
	yg := s.Call("linalg_gemm2", "transpose_a=1", y, c.OutGrad[0])
	return s.Done(s.Call("linalg_gemm2", "transpose_b=1;alpha=-1", yg, y))
}}

// detGrad: d det(A) / dA = det(A) A^-T.
var detGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	gy := s.Reshape(s.Call("multiply", "", c.OutGrad[0], c.Out[0]), perMatrix(c.Shapes[0], 2))
	invT := s.Call("swapaxes", "dim1=-1;dim2=-2", s.Call("linalg_inverse", "", c.In[0]))
	return s.Done(s.Call("multiply", "", gy, invT))
}}

// syrkGrad: for Y = alpha A A^T, dA = alpha (g + g^T) A; for alpha A^T A, alpha A (g + g^T).
var syrkGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	g := c.OutGrad[0]
	sym := s.Call("add", "", g, s.Call("swapaxes", "dim1=-1;dim2=-2", g))
	alpha := "alpha=" + wireFloat(c.Attrs.Float("alpha"))
	if c.Attrs.Bool("transpose") {
		return s.Done(s.Call("linalg_gemm2", alpha, c.In[0], sym))
	}
	return s.Done(s.Call("linalg_gemm2", alpha, sym, c.In[0]))
}}

// perMatrix is the shape of one value per matrix of a stack of shape a (the batch axes)
// followed by k axes of length 1, to broadcast against the matrices.
func perMatrix(a []int, k int) []int {
	s := append([]int{}, a[:len(a)-2]...)
	for range k {
		s = append(s, 1)
	}
	return s
}

func wireFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// slogdetGrad: log|det A|'s gradient is A^-T (the sign's is zero).
var slogdetGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	g := s.Reshape(c.OutGrad[1], perMatrix(c.Shapes[0], 2))
	invT := s.Call("swapaxes", "dim1=-1;dim2=-2", s.Call("linalg_inverse", "", c.In[0]))
	return s.Done(s.Call("multiply", "", g, invT))
}}

// triangGrad is the gradient of trmm (solve false) and trsm (solve true) with M = op(A):
//
//	trmm  Y = alpha M B:      dB = alpha M^T g               dM = alpha g B^T
//	trsm  X = alpha M^-1 B:   dB = alpha M^-T g (a trsm)     dM = -(M^-T g) X^T
//
// mirrored for rightside; dA is dM (transposed back when op transposes) within A's
// triangle, the only part of A read.
func triangGrad(solve bool) *ops.Gradient {
	return &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
		s := &ops.GradCalls{C: c}
		t, right, lower := c.Attrs.Bool("transpose"), c.Attrs.Bool("rightside"), c.Attrs.Bool("lower")
		alpha := wireFloat(c.Attrs.Float("alpha"))
		a, b, g := c.In[0], c.In[1], c.OutGrad[0]
		same := "rightside=" + b01(right) + ";lower=" + b01(lower)
		grads := make([]*ndarray.NDArray, 2)
		name := "linalg_trmm"
		if solve {
			name = "linalg_trsm"
		}
		if c.Need[1] { // the same operator with op transposed
			grads[1] = s.Call(name, "transpose="+b01(!t)+";"+same+";alpha="+alpha, a, g)
		}
		if !c.Need[0] {
			return s.Done(grads...)
		}
		var dm *ndarray.NDArray
		switch {
		case !solve && !right:
			dm = s.Call("linalg_gemm2", "transpose_b=1;alpha="+alpha, g, b)
		case !solve:
			dm = s.Call("linalg_gemm2", "transpose_a=1;alpha="+alpha, b, g)
		case !right:
			dm = s.Call("linalg_gemm2", "transpose_b=1;alpha=-1", s.Call(name, "transpose="+b01(!t)+";"+same, a, g), c.Out[0])
		default:
			dm = s.Call("linalg_gemm2", "transpose_a=1;alpha=-1", c.Out[0], s.Call(name, "transpose="+b01(!t)+";"+same, a, g))
		}
		if t {
			dm = s.Call("swapaxes", "dim1=-1;dim2=-2", dm)
		}
		tri := "lower=" + b01(lower)
		grads[0] = s.Call("linalg_maketrian", tri, s.Call("linalg_extracttrian", tri, dm))
		return s.Done(grads...)
	}}
}

// potrfGrad: for A = L L^T, with P = L^T dL made symmetric from its lower triangle
// (MXNet's copyLTU), dA = 1/2 L^-T P L^-1. The upper factor (lower=False) is the
// transpose of the lower one: its gradient goes through the same formula transposed.
var potrfGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	l, g := c.Out[0], c.OutGrad[0]
	if !c.Attrs.Bool("lower") {
		l, g = s.Call("swapaxes", "dim1=-1;dim2=-2", l), s.Call("swapaxes", "dim1=-1;dim2=-2", g)
	}
	x := s.Call("linalg_trsm", "transpose=1", l, lowerSym(s, s.Call("linalg_gemm2", "transpose_a=1", l, g)))
	return s.Done(s.Call("linalg_trsm", "rightside=1;alpha=0.5", l, x))
}}

// potriGrad: for Y = (L L^T)^-1, dL = -Y (g + g^T) Y L within L's triangle.
var potriGrad = &ops.Gradient{Uses: ops.UsesInputs | ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	y, g := c.Out[0], c.OutGrad[0]
	sym := s.Call("add", "", g, s.Call("swapaxes", "dim1=-1;dim2=-2", g))
	ysy := s.Call("linalg_gemm2", "", s.Call("linalg_gemm2", "", y, sym), y)
	var dl *ndarray.NDArray
	if c.Attrs.Bool("lower") { // A = L L^T
		dl = s.Call("linalg_gemm2", "alpha=-1", ysy, c.In[0])
	} else { // A = U^T U
		dl = s.Call("linalg_gemm2", "alpha=-1", c.In[0], ysy)
	}
	tri := "lower=" + b01(c.Attrs.Bool("lower"))
	return s.Done(s.Call("linalg_maketrian", tri, s.Call("linalg_extracttrian", tri, dl)))
}}

// gelqfGrad: for A = L Q with the gradients dQ and dL of [Q, L] (zeros where none
// flowed), M = L^T dL - dQ Q^T made symmetric from its lower triangle, and
// dA = L^-T (dQ + M Q), as MXNet's.
var gelqfGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	q, l, dq, dl := c.Out[0], c.Out[1], c.OutGrad[0], c.OutGrad[1]
	m := s.Call("linalg_gemm", "transpose_b=1;alpha=-1;beta=1", dq, q, s.Call("linalg_gemm2", "transpose_a=1", l, dl))
	return s.Done(s.Call("linalg_trsm", "transpose=1", l, s.Call("add", "", dq, s.Call("linalg_gemm2", "", lowerSym(s, m), q))))
}}

// syevdGrad: for A = U^T diag(lambda) U (U's rows the eigenvectors) with the gradients
// dU and dlambda, dA = U^T (diag(dlambda) + F * (U dU^T)) U made symmetric, where
// F[i][j] = 1 / (lambda_j - lambda_i) off the diagonal and 0 on it, as MXNet's (0 also
// between equal eigenvalues, where MXNet's is infinite).
var syevdGrad = &ops.Gradient{Uses: ops.UsesOutputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	u, lam, du, dlam := c.Out[0], c.Out[1], c.OutGrad[0], c.OutGrad[1]
	n := c.Shapes[0][len(c.Shapes[0])-1]
	batch := c.Shapes[0][:len(c.Shapes[0])-2]
	row := s.Reshape(lam, append(append([]int{}, batch...), 1, n))
	col := s.Reshape(lam, append(append([]int{}, batch...), n, 1))
	f := recipOffDiag(s, row, col)
	inner := s.Call("add", "", s.Call("linalg_makediag", "", dlam), s.Call("multiply", "", f, s.Call("linalg_gemm2", "transpose_b=1", u, du)))
	da := s.Call("linalg_gemm2", "", s.Call("linalg_gemm2", "transpose_a=1", u, inner), u)
	return s.Done(s.Call("_multiply_scalar", "scalar=f:0.5", s.Call("add", "", da, s.Call("swapaxes", "dim1=-1;dim2=-2", da))))
}}

// lowerSym is m with its upper triangle replaced by the mirror of its lower one (MXNet's
// copyLTU).
func lowerSym(s *ops.GradCalls, m *ndarray.NDArray) *ndarray.NDArray {
	tri := s.Call("linalg_maketrian", "", s.Call("linalg_extracttrian", "", m))
	return s.Call("subtract", "", s.Call("add", "", tri, s.Call("swapaxes", "dim1=-1;dim2=-2", tri)),
		s.Call("linalg_makediag", "", s.Call("linalg_extractdiag", "", m)))
}
