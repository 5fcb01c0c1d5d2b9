package linalg

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The gradients of dot, batch_dot and matmul, as products of the head gradient with the
// other operand (MXNet's DotBackward_ and BatchDotBackward_), built from the same
// operators: recorded, they give the second order of MXNet's dot for nothing.

// factor is one product of the gradient rule: lhs and rhs (0 for A, 1 for B, 2 for g)
// and their transposes.
type factor struct {
	l, r   int
	ta, tb bool
}

// matGrads is the 2-D rule for C = op(A) op(B), op a transpose where ta (tb), indexed by
// [ta][tb]: the products giving dA and dB from the gradient g of C. With P = op(A) and
// Q = op(B), dP = g Q^T and dQ = P^T g, transposed back where op transposed.
var matGrads = [2][2][2]factor{
	{
		{{2, 1, false, true}, {0, 2, true, false}},  // dA = g B^T, dB = A^T g
		{{2, 1, false, false}, {2, 0, true, false}}, // tb: dA = g B, dB = g^T A
	},
	{
		{{1, 2, false, true}, {0, 2, false, false}}, // ta: dA = B g^T, dB = A g
		{{1, 2, true, true}, {2, 0, true, true}},    // both: dA = B^T g^T, dB = g^T A^T
	},
}

// productGrads computes the gradients of a product op(A) op(B) by the operator product
// (dot or batch_dot) on a, b and g as given (matrices, or batches of them).
func productGrads(s *ops.GradCalls, product string, a, b, g *ndarray.NDArray, ta, tb bool) (da, db *ndarray.NDArray) {
	arrs := [3]*ndarray.NDArray{a, b, g}
	rule := matGrads[b2i(ta)][b2i(tb)]
	var out [2]*ndarray.NDArray
	for i, f := range rule {
		if s.C.Need[i] {
			out[i] = s.Call(product, "transpose_a="+b01(f.ta)+";transpose_b="+b01(f.tb), arrs[f.l], arrs[f.r])
		}
	}
	return out[0], out[1]
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

func b01(v bool) string { return string('0' + byte(b2i(v))) }

// dotGrad views A, B and g as the matrices dot multiplies (dotShapes' rule: A is
// (M, K), or (K, M) with transpose_a; B (K, N), or (N, K) with transpose_b), applies the
// 2-D rule and gives each gradient its input's shape back.
var dotGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	ta, tb := c.Attrs.Bool("transpose_a"), c.Attrs.Bool("transpose_b")
	l, r := c.Shapes[0], c.Shapes[1]
	am := asMatrix(l, !ta)
	bm := asMatrix(r, tb)
	m, n := am[0], bm[1]
	if ta {
		m = am[1]
	}
	if tb {
		n = bm[0]
	}
	a, b := s.Reshape(c.In[0], am), s.Reshape(c.In[1], bm)
	g := s.Reshape(c.OutGrad[0], []int{m, n})
	da, db := productGrads(s, "dot", a, b, g, ta, tb)
	if da != nil {
		da = s.Reshape(da, l)
	}
	if db != nil {
		db = s.Reshape(db, r)
	}
	return s.Done(da, db)
}}

// asMatrix is the 2-D shape dot reads an operand of shape sh as: its last axis as the
// columns when lastCols, else its first axis as the rows (the rest flattened).
func asMatrix(sh []int, lastCols bool) []int {
	if lastCols {
		rows, _ := ndarray.Size(sh[:len(sh)-1])
		return []int{rows, sh[len(sh)-1]}
	}
	cols, _ := ndarray.Size(sh[1:])
	return []int{sh[0], cols}
}

// batchDotGrad is the 2-D rule on each matrix of the batch.
var batchDotGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	da, db := productGrads(s, "batch_dot", c.In[0], c.In[1], c.OutGrad[0], c.Attrs.Bool("transpose_a"), c.Attrs.Bool("transpose_b"))
	return s.Done(da, db)
}}

// matmulGrad is NumPy's: 1-D operands become a row (lhs) or a column (rhs), g gets the
// axes the result dropped back, dA = g B^T and dB = A^T g by matmul (broadcasting the
// batch axes), summed to each operand's batch shape and reshaped to it.
var matmulGrad = &ops.Gradient{Uses: ops.UsesInputs, Func: func(c *ops.GradCtx) ([]*ndarray.NDArray, error) {
	s := &ops.GradCalls{C: c}
	l, r := c.Shapes[0], c.Shapes[1]
	l2, r2 := l, r
	if len(l) == 1 {
		l2 = []int{1, l[0]}
	}
	if len(r) == 1 {
		r2 = []int{r[0], 1}
	}
	batch, err := ndarray.BroadcastShapes(l2[:len(l2)-2], r2[:len(r2)-2])
	if err != nil {
		return nil, err
	}
	gs := append(append([]int{}, batch...), l2[len(l2)-2], r2[len(r2)-1])
	a, b := s.Reshape(c.In[0], l2), s.Reshape(c.In[1], r2)
	g := s.Reshape(c.OutGrad[0], gs)
	var da, db *ndarray.NDArray
	if c.Need[0] {
		bt := s.Call("swapaxes", "dim1=-1;dim2=-2", b)
		da = sumReshape(s, s.Call("matmul", "", g, bt), l2, l)
	}
	if c.Need[1] {
		at := s.Call("swapaxes", "dim1=-1;dim2=-2", a)
		db = sumReshape(s, s.Call("matmul", "", at, g), r2, r)
	}
	return s.Done(da, db)
}}

// sumReshape sums x down to shape (the gradient of broadcasting) and reshapes it to final.
func sumReshape(s *ops.GradCalls, x *ndarray.NDArray, shape, final []int) *ndarray.NDArray {
	return s.Reshape(s.SumTo(x, shape), final)
}
