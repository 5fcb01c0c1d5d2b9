package linalg

import (
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/gemm"
)

// Matrix products: dot (MXNet's), batch_dot (MXNet's) and matmul (NumPy's, the operator
// behind x @ y). All three reduce to batchGemm (gemm.go).

// linalgDTypes: every dtype with arithmetic (bool has none in MXNet).
var linalgDTypes = ops.DTypesExcept(ndarray.Bool)

var transposeParams = []ops.Param{
	{Name: "transpose_a", Kind: ops.ParamBool, Default: "0", Doc: "use the transpose of lhs (for N-D lhs: contract its first axis)"},
	{Name: "transpose_b", Kind: ops.ParamBool, Default: "0", Doc: "use the transpose of rhs (for N-D rhs: contract its last axis)"},
}

const sameDTypeDoc = "\n\nBoth arrays must have the same dtype, as in MXNet; the result has that dtype. " +
	"Integers wrap around on overflow as in NumPy; float16 and bfloat16 accumulate in float32."

func init() {
	ops.Register(&ops.Op{
		Name: "dot",
		Doc: "Dot product of two arrays, as MXNet's dot.\n\n" +
			"1-D . 1-D is the inner product (a 0-d result, as NumPy's), 2-D . 2-D the matrix product, " +
			"2-D . 1-D and 1-D . 2-D matrix-vector products. N-D arrays contract the last axis of lhs " +
			"with the first axis of rhs (MXNet's rule; NumPy's dot uses the second-to-last axis of rhs): " +
			"the result has shape lhs.shape[:-1] + rhs.shape[1:]. transpose_a and transpose_b transpose " +
			"an operand first. 0-d arrays are not accepted (use multiply)." + sameDTypeDoc,
		Category: ops.General, Inputs: []string{"lhs", "rhs"}, DTypes: linalgDTypes, Params: transposeParams,
		Infer:  inferDot,
		Kernel: dotKernel,
		Grad:   dotGrad,
	})
	ops.Register(&ops.Op{
		Name: "batch_dot",
		Doc: "Batched matrix product, as MXNet's batch_dot.\n\n" +
			"lhs has shape (B..., M, K) and rhs (B..., K, N), with the same batch dimensions B (at least " +
			"one, no broadcasting); the result has shape (B..., M, N). transpose_a and transpose_b " +
			"transpose the last two axes of an operand first." + sameDTypeDoc,
		Category: ops.General, Inputs: []string{"lhs", "rhs"}, DTypes: linalgDTypes,
		Params: []ops.Param{
			{Name: "transpose_a", Kind: ops.ParamBool, Default: "0", Doc: "use the transpose of each matrix of lhs"},
			{Name: "transpose_b", Kind: ops.ParamBool, Default: "0", Doc: "use the transpose of each matrix of rhs"},
		},
		Infer:  inferBatchDot,
		Kernel: batchDotKernel,
		Grad:   batchDotGrad,
	})
	ops.Register(&ops.Op{
		Name: "matmul",
		Doc: "Matrix product with NumPy's matmul rules (the operator behind x @ y).\n\n" +
			"The last two axes of each array are the matrices; the others are batch axes and " +
			"broadcast. A 1-D lhs is a row vector and a 1-D rhs a column vector, and that axis is " +
			"removed from the result. 0-d arrays are not accepted." + sameDTypeDoc,
		Category: ops.General, Inputs: []string{"lhs", "rhs"}, DTypes: linalgDTypes,
		Infer:  inferMatmul,
		Kernel: matmulKernel,
		Grad:   matmulGrad,
	})
}

// dotShapes returns the parts of the result's shape that come from lhs and from rhs.
func dotShapes(l, r []int, ta, tb bool) (lead, trail []int, err error) {
	if len(l) == 0 || len(r) == 0 {
		return nil, nil, mxerr.ValueErr("dot: 0-d arrays are not supported (shapes %s and %s); use multiply",
			ops.FmtShape(l), ops.FmtShape(r))
	}
	kl, kr := l[len(l)-1], r[0]
	lead, trail = l[:len(l)-1], r[1:]
	la, ra := len(l)-1, 0
	if ta {
		kl, lead, la = l[0], l[1:], 0
	}
	if tb {
		kr, trail, ra = r[len(r)-1], r[:len(r)-1], len(r)-1
	}
	if kl != kr {
		return nil, nil, mxerr.ValueErr("dot: shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)",
			ops.FmtShape(l), ops.FmtShape(r), kl, la, kr, ra)
	}
	if len(lead)+len(trail) > ndarray.MaxDims {
		return nil, nil, mxerr.ValueErr("dot: the result would have more than %d dimensions", ndarray.MaxDims)
	}
	return lead, trail, nil
}

func inferDot(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	if err := ops.SameDType(in); err != nil {
		return nil, 0, ops.WithOpName("dot", err)
	}
	lead, trail, err := dotShapes(in[0].Shape(), in[1].Shape(), at.Bool("transpose_a"), at.Bool("transpose_b"))
	if err != nil {
		return nil, 0, err
	}
	if len(lead)+len(trail) == 0 {
		return []int{1}, in[0].DType(), nil // MXNet: the dot of two vectors has shape (1,)
	}
	return append(append([]int{}, lead...), trail...), in[0].DType(), nil
}

func dotKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	l, r, o := in[0], in[1], out[0]
	ta, tb := at.Bool("transpose_a"), at.Bool("transpose_b")
	if gemm.Direct2D(l, r, o, ta, tb) {
		return nil
	}
	var views []*ndarray.NDArray
	defer func() { ops.ReleaseAll(views) }()
	keep := func(v *ndarray.NDArray, err error) (*ndarray.NDArray, error) {
		if v != nil {
			views = append(views, v)
		}
		return v, err
	}
	// lhs as an (M, K) matrix and rhs as a (K, N) one.
	var a, b *ndarray.NDArray
	var err error
	if ta {
		if a, err = keep(matrixOf(l, 1)); err == nil { // (K, M)
			a, err = keep(a.Transpose(nil))
		}
	} else {
		a, err = keep(matrixOf(l, l.NDim()-1))
	}
	if err != nil {
		return err
	}
	if tb {
		if b, err = keep(matrixOf(r, r.NDim()-1)); err == nil { // (N, K)
			b, err = keep(b.Transpose(nil))
		}
	} else {
		b, err = keep(matrixOf(r, 1))
	}
	if err != nil {
		return err
	}
	lead := l.NDim() - 1
	c, err := keep(matrixView(o, lead))
	if err == ndarray.ErrNotContiguous { // an N-D out= that cannot be seen as a matrix
		tmp, err := ndarray.Empty(o.DType(), o.Shape(), o.Device())
		if err != nil {
			return err
		}
		views = append(views, tmp)
		if c, err = keep(matrixView(tmp, lead)); err != nil {
			return err
		}
		if err := gemm.Batch(a, b, c); err != nil {
			return err
		}
		ndarray.MoveElems(o, tmp)
		return nil
	}
	if err != nil {
		return err
	}
	return gemm.Batch(a, b, c)
}

// matrixView returns x as a matrix whose rows run over x's first split axes and whose
// columns run over the rest, as a view; ErrNotContiguous when that needs a copy.
func matrixView(x *ndarray.NDArray, split int) (*ndarray.NDArray, error) {
	newAxis := ndarray.KeyItem{Kind: ndarray.KeyNewAxis}
	all := ndarray.KeyItem{Kind: ndarray.KeySlice}
	switch {
	case x.NDim() == 2 && split == 1:
		return x.Share(), nil
	case x.NDim() == 1 && split == 0:
		return x.Index([]ndarray.KeyItem{newAxis, all})
	case x.NDim() == 1 && split == 1:
		return x.Index([]ndarray.KeyItem{all, newAxis})
	case x.NDim() == 0:
		return x.Index([]ndarray.KeyItem{newAxis, newAxis})
	}
	rows := 1
	for _, d := range x.Shape()[:split] {
		rows *= d
	}
	cols := 1
	for _, d := range x.Shape()[split:] {
		cols *= d
	}
	return x.Reshape([]int{rows, cols})
}

// matrixOf is matrixView for an input: when x cannot be viewed as a matrix it returns a
// contiguous copy instead.
func matrixOf(x *ndarray.NDArray, split int) (*ndarray.NDArray, error) {
	v, err := matrixView(x, split)
	if err != ndarray.ErrNotContiguous {
		return v, err
	}
	tmp, err := ndarray.Empty(x.DType(), x.Shape(), x.Device())
	if err != nil {
		return nil, err
	}
	defer tmp.Release()
	ndarray.MoveElems(tmp, x)
	return matrixView(tmp, split)
}

func inferBatchDot(in []*ndarray.NDArray, at ops.Attrs) ([]int, ndarray.DType, error) {
	if err := ops.SameDType(in); err != nil {
		return nil, 0, ops.WithOpName("batch_dot", err)
	}
	l, r := in[0].Shape(), in[1].Shape()
	if len(l) < 3 || len(r) < 3 || len(l) != len(r) {
		return nil, 0, mxerr.ValueErr("batch_dot: both arrays need the same number (at least 3) of dimensions "+
			"(batch..., rows, columns), got shapes %s and %s", ops.FmtShape(l), ops.FmtShape(r))
	}
	nd := len(l)
	if ndarray.SameShape(l[:nd-2], r[:nd-2]) != nil {
		return nil, 0, mxerr.ValueErr("batch_dot: batch dimensions differ: shapes %s and %s", ops.FmtShape(l), ops.FmtShape(r))
	}
	m, kl := l[nd-2], l[nd-1]
	if at.Bool("transpose_a") {
		m, kl = kl, m
	}
	kr, n := r[nd-2], r[nd-1]
	if at.Bool("transpose_b") {
		kr, n = n, kr
	}
	if kl != kr {
		return nil, 0, mxerr.ValueErr("batch_dot: shapes %s and %s not aligned: %d != %d (transpose_a=%v, transpose_b=%v)",
			ops.FmtShape(l), ops.FmtShape(r), kl, kr, at.Bool("transpose_a"), at.Bool("transpose_b"))
	}
	shape := append(append([]int{}, l[:nd-2]...), m, n)
	return shape, in[0].DType(), nil
}

func batchDotKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	a, b := in[0].Share(), in[1].Share()
	defer func() { a.Release(); b.Release() }()
	var err error
	if at.Bool("transpose_a") {
		if a, err = swapLast(a); err != nil {
			return err
		}
	}
	if at.Bool("transpose_b") {
		if b, err = swapLast(b); err != nil {
			return err
		}
	}
	return gemm.Batch(a, b, out[0])
}

// swapLast replaces x by a view with its last two axes swapped, releasing x.
func swapLast(x *ndarray.NDArray) (*ndarray.NDArray, error) {
	nd := x.NDim()
	perm := make([]int, nd)
	for i := range perm {
		perm[i] = i
	}
	perm[nd-2], perm[nd-1] = nd-1, nd-2
	v, err := x.Transpose(perm)
	if err != nil {
		return x, err
	}
	x.Release()
	return v, nil
}

func inferMatmul(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
	if err := ops.SameDType(in); err != nil {
		return nil, 0, ops.WithOpName("matmul", err)
	}
	l, r := in[0].Shape(), in[1].Shape()
	for i, s := range [][]int{l, r} {
		if len(s) == 0 {
			return nil, 0, mxerr.ValueErr("matmul: input operand %d does not have enough dimensions (0-d arrays are not accepted; use multiply)", i)
		}
	}
	l2, r2 := l, r
	if len(l) == 1 {
		l2 = []int{1, l[0]}
	}
	if len(r) == 1 {
		r2 = []int{r[0], 1}
	}
	if k1, k2 := l2[len(l2)-1], r2[len(r2)-2]; k1 != k2 {
		return nil, 0, mxerr.ValueErr("matmul: input operand 1 has a mismatch in its core dimension 0 "+
			"(size %d is different from %d): shapes %s and %s", k2, k1, ops.FmtShape(l), ops.FmtShape(r))
	}
	batch, err := ndarray.BroadcastShapes(l2[:len(l2)-2], r2[:len(r2)-2])
	if err != nil {
		return nil, 0, mxerr.ValueErr("matmul: batch dimensions of shapes %s and %s could not be broadcast together",
			ops.FmtShape(l), ops.FmtShape(r))
	}
	shape := batch
	if len(l) > 1 {
		shape = append(shape, l[len(l)-2])
	}
	if len(r) > 1 {
		shape = append(shape, r[len(r)-1])
	}
	return shape, in[0].DType(), nil
}

func matmulKernel(in, out []*ndarray.NDArray, _ ops.Attrs) error {
	if gemm.Direct2D(in[0], in[1], out[0], false, false) {
		return nil
	}
	newAxis := ndarray.KeyItem{Kind: ndarray.KeyNewAxis}
	all := ndarray.KeyItem{Kind: ndarray.KeySlice}
	ellipsis := ndarray.KeyItem{Kind: ndarray.KeyEllipsis}
	l, r := in[0], in[1]
	a, b, c := l.Share(), r.Share(), out[0].Share()
	defer func() { a.Release(); b.Release(); c.Release() }()
	// reindex replaces *x by x[key], releasing the old view.
	reindex := func(x **ndarray.NDArray, key ...ndarray.KeyItem) error {
		v, err := (*x).Index(key)
		if err != nil {
			return err
		}
		(*x).Release()
		*x = v
		return nil
	}
	if r.NDim() == 1 { // a column vector; its axis is missing from out
		if err := reindex(&b, all, newAxis); err != nil {
			return err
		}
		if err := reindex(&c, ellipsis, newAxis); err != nil {
			return err
		}
	}
	if l.NDim() == 1 { // a row vector
		if err := reindex(&a, newAxis, all); err != nil {
			return err
		}
		if err := reindex(&c, ellipsis, newAxis, all); err != nil {
			return err
		}
	}
	return gemm.Batch(a, b, c)
}
