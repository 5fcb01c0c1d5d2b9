package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Matrix products (dot, batch_dot, matmul) against naive loops in complex128.

// linalgDTypes: every dtype the products support (all but bool).
var linalgDTypes = []ndarray.DType{
	ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64,
	ndarray.Uint8, ndarray.Uint16, ndarray.Uint32, ndarray.Uint64,
	ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64,
	ndarray.Complex64, ndarray.Complex128,
}

// runOp invokes a registered operator with wire-form attributes (as the Python front end
// does) and releases its result when the test ends.
func runOp(t *testing.T, name string, in []*ndarray.NDArray, out *ndarray.NDArray, attrs string) (*ndarray.NDArray, error) {
	t.Helper()
	op, at, err := parsedOp(t, name, attrs)
	if err != nil {
		return nil, err
	}
	r, err := op.Invoke(in, out, at)
	if err != nil {
		return nil, err
	}
	t.Cleanup(r.Release)
	return r, nil
}

// parsedOp looks up operator name (which must exist) and parses attrs for it.
func parsedOp(t *testing.T, name, attrs string) (*ops.Op, ops.Attrs, error) {
	t.Helper()
	op, err := ops.Lookup(name)
	require.NoError(t, err)
	at, err := ops.ParseAttrs(op, attrs)
	return op, at, err
}

// runOps runs an operator through InvokeAll (every result, into outs when given); the
// results are released when the test ends.
func runOps(t *testing.T, name string, in, outs []*ndarray.NDArray, attrs string) ([]*ndarray.NDArray, error) {
	t.Helper()
	op, at, err := parsedOp(t, name, attrs)
	if err != nil {
		return nil, err
	}
	res, err := op.InvokeAll(in, outs, at)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { ops.ReleaseAll(res) })
	return res, nil
}

// mustOps is runOps that fails the test on an error.
func mustOps(t *testing.T, name string, attrs string, in ...*ndarray.NDArray) []*ndarray.NDArray {
	t.Helper()
	res, err := runOps(t, name, in, nil, attrs)
	require.NoError(t, err, "%s(%s)", name, attrs)
	return res
}

func mustOp(t *testing.T, name string, attrs string, in ...*ndarray.NDArray) *ndarray.NDArray {
	t.Helper()
	r, err := runOp(t, name, in, nil, attrs)
	require.NoError(t, err, "%s(%s)", name, attrs)
	return r
}

// laValues are n small values every dtype holds exactly, such that the products below
// stay exact in every dtype (int8 and float16 included): 0..4 for unsigned dtypes,
// -3..3 otherwise, with imaginary parts for complex ones.
func laValues(dt ndarray.DType, n, seed int) []complex128 {
	out := make([]complex128, n)
	for i := range out {
		j := i*7 + seed*3
		switch dt.Kind() {
		case ndarray.KindUint:
			out[i] = complex(float64(j%5), 0)
		case ndarray.KindComplex:
			out[i] = complex(float64(j%7-3), float64((i*3+seed)%5-2))
		default:
			out[i] = complex(float64(j%7-3), 0)
		}
	}
	return out
}

// fromComplex allocates an array of dt holding vals (C order) in shape.
func fromComplex(t *testing.T, dt ndarray.DType, vals []complex128, shape ...int) *ndarray.NDArray {
	t.Helper()
	src := empty(t, ndarray.Complex128, shape...)
	rawSet(src, vals)
	dst := empty(t, dt, shape...)
	require.NoError(t, ops.Copy(dst, src))
	require.NoError(t, ops.WaitToRead(dst))
	return dst
}

// laArray is an array of laValues.
func laArray(t *testing.T, dt ndarray.DType, seed int, shape ...int) *ndarray.NDArray {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	return fromComplex(t, dt, laValues(dt, n, seed), shape...)
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// refGemm multiplies row-major matrices a (m x k) and b (k x n).
func refGemm(a, b []complex128, m, n, k int) []complex128 {
	c := make([]complex128, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s complex128
			for p := 0; p < k; p++ {
				s += a[i*k+p] * b[p*n+j]
			}
			c[i*n+j] = s
		}
	}
	return c
}

// transposeFlat transposes a row-major rows x cols matrix.
func transposeFlat[T any](x []T, rows, cols int) []T {
	out := make([]T, len(x))
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			out[j*rows+i] = x[i*cols+j]
		}
	}
	return out
}

// refDot is MXNet's dot on C-order values: lhs flattened to (M, K) (or (K, M) with ta),
// rhs to (K, N) (or (N, K) with tb).
func refDot(l []complex128, ls []int, r []complex128, rs []int, ta, tb bool) []complex128 {
	var m, k, n int
	a, b := l, r
	if ta {
		k, m = ls[0], prod(ls[1:])
		a = transposeFlat(l, k, m)
	} else {
		m, k = prod(ls[:len(ls)-1]), ls[len(ls)-1]
	}
	if tb {
		n = prod(rs[:len(rs)-1])
		b = transposeFlat(r, n, k)
	} else {
		n = prod(rs[1:])
	}
	return refGemm(a, b, m, n, k)
}

// refMatmul is NumPy's matmul on C-order values, 1-D operands and broadcasting included.
func refMatmul(l []complex128, ls []int, r []complex128, rs []int) ([]complex128, []int) {
	l2, r2 := ls, rs
	if len(ls) == 1 {
		l2 = []int{1, ls[0]}
	}
	if len(rs) == 1 {
		r2 = []int{rs[0], 1}
	}
	lb, rb := l2[:len(l2)-2], r2[:len(r2)-2]
	batch, err := ndarray.BroadcastShapes(lb, rb)
	if err != nil {
		panic(err)
	}
	m, k, n := l2[len(l2)-2], l2[len(l2)-1], r2[len(r2)-1]
	var out []complex128
	if prod(batch) > 0 {
		forEach(batch, func(idx []int) {
			at := func(shape []int) int { // the batch index into an operand with batch shape
				off := 0
				for i, d := range shape {
					j := idx[len(idx)-len(shape)+i]
					if d == 1 {
						j = 0
					}
					off = off*d + j
				}
				return off
			}
			ia, ib := at(lb), at(rb)
			out = append(out, refGemm(l[ia*m*k:(ia+1)*m*k], r[ib*k*n:(ib+1)*k*n], m, n, k)...)
		})
	}
	shape := append([]int{}, batch...)
	if len(ls) > 1 {
		shape = append(shape, m)
	}
	if len(rs) > 1 {
		shape = append(shape, n)
	}
	return out, shape
}

// checkProduct compares got with want exactly (the inputs make every product exact).
func checkProduct(t *testing.T, got *ndarray.NDArray, want []complex128, shape []int, dt ndarray.DType, what string) {
	t.Helper()
	require.Equal(t, dt, got.DType(), what)
	require.Equal(t, ints(shape), ints(got.Shape()), what)
	if len(want) == 0 {
		want = []complex128{}
	}
	gotVals := complexValues(t, got)
	if gotVals == nil {
		gotVals = []complex128{}
	}
	assert.Equal(t, want, gotVals, what)
}

var dotCases = []struct {
	l, r   []int
	ta, tb bool
}{
	{[]int{5}, []int{5}, false, false},             // inner product: shape (1,)
	{[]int{3, 4}, []int{4, 5}, false, false},       // matrix product
	{[]int{3, 4}, []int{4}, false, false},          // matrix . vector
	{[]int{4}, []int{4, 5}, false, false},          // vector . matrix
	{[]int{4, 3}, []int{4, 5}, true, false},        // A^T B
	{[]int{3, 4}, []int{5, 4}, false, true},        // A B^T
	{[]int{4, 3}, []int{5, 4}, true, true},         // A^T B^T
	{[]int{2, 3, 4}, []int{4, 2, 3}, false, false}, // N-D: last axis of lhs with first of rhs
	{[]int{4, 2, 3}, []int{4, 3}, true, false},
	{[]int{2, 3}, []int{4, 3}, false, true},
	{[]int{1, 1}, []int{1, 1}, false, false},
	{[]int{6}, []int{6}, true, true},
	{[]int{2, 3, 4}, []int{4}, false, false},
}

func TestDotValuesEveryDType(t *testing.T) {
	checkLeaks(t)
	for _, dt := range linalgDTypes {
		for _, c := range dotCases {
			l, r := laArray(t, dt, 1, c.l...), laArray(t, dt, 2, c.r...)
			got := mustOp(t, "dot", fmt.Sprintf("transpose_a=%s;transpose_b=%s", b01(c.ta), b01(c.tb)), l, r)
			lead := c.l[:len(c.l)-1]
			if c.ta {
				lead = c.l[1:]
			}
			trail := c.r[1:]
			if c.tb {
				trail = c.r[:len(c.r)-1]
			}
			want := refDot(complexValues(t, l), c.l, complexValues(t, r), c.r, c.ta, c.tb)
			checkProduct(t, got, want, dotShape(lead, trail), dt, fmt.Sprintf("%s %v", dt, c))
		}
	}
}

// dotShape is MXNet's shape of dot's result: lhs's leading dimensions then rhs's trailing
// ones, and (1,) for the inner product of two vectors (MXNet has no 0-d results).
func dotShape(lead, trail []int) []int {
	if len(lead)+len(trail) == 0 {
		return []int{1}
	}
	return append(append([]int{}, lead...), trail...)
}

func b01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func TestBatchDotValuesEveryDType(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		l, r   []int
		ta, tb bool
	}{
		{[]int{3, 2, 4}, []int{3, 4, 5}, false, false},
		{[]int{3, 4, 2}, []int{3, 4, 5}, true, false},
		{[]int{3, 2, 4}, []int{3, 5, 4}, false, true},
		{[]int{3, 4, 2}, []int{3, 5, 4}, true, true},
		{[]int{2, 2, 1, 3}, []int{2, 2, 3, 2}, false, false},
		{[]int{1, 1, 1}, []int{1, 1, 1}, false, false},
	}
	for _, dt := range linalgDTypes {
		for _, c := range cases {
			l, r := laArray(t, dt, 3, c.l...), laArray(t, dt, 4, c.r...)
			got := mustOp(t, "batch_dot", fmt.Sprintf("transpose_a=%s;transpose_b=%s", b01(c.ta), b01(c.tb)), l, r)
			nd := len(c.l)
			lv, rv := complexValues(t, l), complexValues(t, r)
			m, k := c.l[nd-2], c.l[nd-1]
			if c.ta {
				m, k = k, m
			}
			n := c.r[nd-1]
			if c.tb {
				n = c.r[nd-2]
			}
			var want []complex128
			for bi := 0; bi < prod(c.l[:nd-2]); bi++ {
				a := lv[bi*m*k : (bi+1)*m*k]
				if c.ta {
					a = transposeFlat(a, k, m)
				}
				b := rv[bi*k*n : (bi+1)*k*n]
				if c.tb {
					b = transposeFlat(b, n, k)
				}
				want = append(want, refGemm(a, b, m, n, k)...)
			}
			shape := append(append([]int{}, c.l[:nd-2]...), m, n)
			checkProduct(t, got, want, shape, dt, fmt.Sprintf("%s %v", dt, c))
		}
	}
}

var matmulCases = [][2][]int{
	{{3, 4}, {4, 5}},
	{{4}, {4}},
	{{4}, {4, 5}},
	{{3, 4}, {4}},
	{{2, 3, 4}, {4, 5}},       // rhs broadcast over the batch
	{{3, 4}, {2, 4, 5}},       // lhs broadcast
	{{2, 1, 3, 4}, {5, 4, 2}}, // batch dims broadcast both ways: (2, 5)
	{{4}, {2, 3, 4, 5}},       // 1-D lhs against a batch
	{{2, 3, 4}, {4}},          // batch against a 1-D rhs
	{{1, 1}, {1, 1}},
	{{7, 1, 2}, {7, 2, 1}},
}

func TestMatmulValuesEveryDType(t *testing.T) {
	checkLeaks(t)
	for _, dt := range linalgDTypes {
		for _, c := range matmulCases {
			l, r := laArray(t, dt, 5, c[0]...), laArray(t, dt, 6, c[1]...)
			got := mustOp(t, "matmul", "", l, r)
			want, shape := refMatmul(complexValues(t, l), c[0], complexValues(t, r), c[1])
			checkProduct(t, got, want, shape, dt, fmt.Sprintf("%s %v", dt, c))
		}
	}
}

func TestProductsOfEmptyArrays(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Float16, ndarray.Complex128} {
		for _, c := range [][2][]int{{{0, 3}, {3, 4}}, {{2, 0}, {0, 3}}, {{3, 4}, {4, 0}}, {{0}, {0}}, {{0}, {0, 2}}} {
			l, r := laArray(t, dt, 1, c[0]...), laArray(t, dt, 2, c[1]...)
			got := mustOp(t, "dot", "", l, r)
			want := refDot(complexValues(t, l), c[0], complexValues(t, r), c[1], false, false)
			checkProduct(t, got, want, dotShape(c[0][:len(c[0])-1], c[1][1:]), dt, fmt.Sprint("dot ", dt, c))
			got = mustOp(t, "matmul", "", l, r)
			want, shape := refMatmul(complexValues(t, l), c[0], complexValues(t, r), c[1])
			checkProduct(t, got, want, shape, dt, fmt.Sprint("matmul ", dt, c))
		}
		// k == 0 writes zeros over whatever out held
		out := empty(t, dt, 2, 3)
		require.NoError(t, ops.Fill(out, intScalar(7)))
		_, err := runOp(t, "batch_dot", []*ndarray.NDArray{laArray(t, dt, 1, 1, 2, 0), laArray(t, dt, 1, 1, 0, 3)}, nil, "")
		require.NoError(t, err)
		_, err = runOp(t, "dot", []*ndarray.NDArray{laArray(t, dt, 1, 2, 0), laArray(t, dt, 1, 0, 3)}, out, "")
		require.NoError(t, err)
		assert.Equal(t, make([]float64, 6), values(t, out))
		batch := mustOp(t, "matmul", "", laArray(t, dt, 1, 0, 2, 3), laArray(t, dt, 1, 3, 4))
		assert.Equal(t, []int{0, 2, 4}, batch.Shape())
	}
}

// stridedViews returns, for a logical (rows, cols) matrix, several views of the same
// values with different layouts: contiguous, transposed (BLAS's trans flag), every
// other element (a copy first), reversed rows (negative strides) and a broadcast
// column (stride 0).
func stridedViews(t *testing.T, dt ndarray.DType, seed, rows, cols int) (map[string]*ndarray.NDArray, []complex128) {
	vals := laValues(dt, rows*cols, seed)
	views := map[string]*ndarray.NDArray{"contiguous": fromComplex(t, dt, vals, rows, cols)}
	tr := fromComplex(t, dt, transposeFlat(vals, rows, cols), cols, rows)
	views["transposed"] = transposeView(t, tr, nil)
	wide := make([]complex128, 4*rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			wide[(2*i)*(2*cols)+2*j] = vals[i*cols+j]
		}
	}
	views["step2"] = index(t, fromComplex(t, dt, wide, 2*rows, 2*cols), S(nil, nil, 2), S(nil, nil, 2))
	rev := make([]complex128, rows*cols)
	for i := 0; i < rows; i++ {
		copy(rev[(rows-1-i)*cols:(rows-i)*cols], vals[i*cols:(i+1)*cols])
	}
	views["reversed"] = index(t, fromComplex(t, dt, rev, rows, cols), S(nil, nil, -1))
	return views, vals
}

// transposeView is ndarray's Transpose, released when the test ends.
func transposeView(t *testing.T, a *ndarray.NDArray, axes []int) *ndarray.NDArray {
	t.Helper()
	v, err := a.Transpose(axes)
	require.NoError(t, err)
	t.Cleanup(v.Release)
	return v
}

func TestProductsOfStridedOperands(t *testing.T) {
	checkLeaks(t)
	const m, k, n = 5, 6, 4
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Complex64, ndarray.Complex128, ndarray.Int32, ndarray.Float16} {
		as, av := stridedViews(t, dt, 1, m, k)
		bs, bv := stridedViews(t, dt, 2, k, n)
		want := refGemm(av, bv, m, n, k)
		for an, a := range as {
			for bn, b := range bs {
				checkProduct(t, mustOp(t, "dot", "", a, b), want, []int{m, n}, dt, fmt.Sprint("dot ", dt, an, bn))
				checkProduct(t, mustOp(t, "matmul", "", a, b), want, []int{m, n}, dt, fmt.Sprint("matmul ", dt, an, bn))
			}
		}
		// a row vector broadcast down the rows of rhs: stride 0 inside the matrix
		row := laArray(t, dt, 3, 1, n)
		bcast, err := row.BroadcastTo([]int{k, n})
		require.NoError(t, err)
		t.Cleanup(bcast.Release)
		rv := complexValues(t, bcast)
		checkProduct(t, mustOp(t, "dot", "", as["contiguous"], bcast), refGemm(av, rv, m, n, k), []int{m, n}, dt, fmt.Sprint("broadcast rhs ", dt))
		// strided vectors
		vec := index(t, laArray(t, dt, 4, 2*k), S(nil, nil, -2))
		vv := complexValues(t, vec)
		checkProduct(t, mustOp(t, "dot", "", as["step2"], vec), refGemm(av, vv, m, 1, k), []int{m}, dt, fmt.Sprint("strided vector ", dt))
		checkProduct(t, mustOp(t, "dot", "", vec, vec), refGemm(vv, vv, 1, 1, k), []int{1}, dt, fmt.Sprint("inner ", dt))
	}
}

func TestProductsIntoStridedOut(t *testing.T) {
	checkLeaks(t)
	const m, k, n = 4, 3, 5
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Complex64, ndarray.Int64, ndarray.Bfloat16} {
		a, b := laArray(t, dt, 1, m, k), laArray(t, dt, 2, k, n)
		want := refGemm(complexValues(t, a), complexValues(t, b), m, n, k)
		// every other column of a wider array
		wide := empty(t, dt, m, 2*n)
		require.NoError(t, ops.Fill(wide, intScalar(-9)))
		out := index(t, wide, all, S(nil, nil, 2))
		r, err := runOp(t, "dot", []*ndarray.NDArray{a, b}, out, "")
		require.NoError(t, err)
		assert.Same(t, out.Storage(), r.Storage())
		checkProduct(t, out, want, []int{m, n}, dt, fmt.Sprint("step-2 out ", dt))
		odd := index(t, wide, all, S(1, nil, 2))
		assert.Equal(t, make([]float64, m*n), addAll(values(t, odd), 9), "the other columns are untouched")
		// a transposed (column-major) out
		colMajor := empty(t, dt, n, m)
		outT := transposeView(t, colMajor, nil)
		_, err = runOp(t, "matmul", []*ndarray.NDArray{a, b}, outT, "")
		require.NoError(t, err)
		checkProduct(t, outT, want, []int{m, n}, dt, fmt.Sprint("column-major out ", dt))
		// an N-D out of dot that cannot be seen as a matrix
		a3 := laArray(t, dt, 3, 2, 2, k)
		want3 := refDot(complexValues(t, a3), []int{2, 2, k}, complexValues(t, b), []int{k, n}, false, false)
		base := empty(t, dt, n, 2, 2)
		out3 := transposeView(t, base, []int{1, 2, 0})
		_, err = runOp(t, "dot", []*ndarray.NDArray{a3, b}, out3, "")
		require.NoError(t, err)
		checkProduct(t, out3, want3, []int{2, 2, n}, dt, fmt.Sprint("N-D strided out ", dt))
	}
}

func addAll(xs []float64, d float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x + d
	}
	return out
}

func TestProductIntoItsOwnInput(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Int16} {
		a, b := laArray(t, dt, 1, 4, 4), laArray(t, dt, 2, 4, 4)
		want := refGemm(complexValues(t, a), complexValues(t, b), 4, 4, 4)
		_, err := runOp(t, "dot", []*ndarray.NDArray{a, b}, a, "")
		require.NoError(t, err)
		checkProduct(t, a, want, []int{4, 4}, dt, "out=lhs")
		sq := complexValues(t, b)
		_, err = runOp(t, "matmul", []*ndarray.NDArray{b, b}, b, "")
		require.NoError(t, err)
		checkProduct(t, b, refGemm(sq, sq, 4, 4, 4), []int{4, 4}, dt, "out=lhs=rhs")
	}
}

// randomFloats fills a float64 slice with values in [-1, 1).
func randomFloats(r *rand.Rand, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 2*r.Float64() - 1
	}
	return out
}

func TestFloat32Gemm256AgainstFloat64(t *testing.T) {
	checkLeaks(t)
	const n = 256
	r := rand.New(rand.NewPCG(1, 2))
	av, bv := randomFloats(r, n*n), randomFloats(r, n*n)
	a, b := fromValues(t, ndarray.Float32, av, n, n), fromValues(t, ndarray.Float32, bv, n, n)
	a64, b64 := values(t, a), values(t, b) // the float32 inputs, exactly
	for _, tr := range []string{"transpose_a=0;transpose_b=0", "transpose_a=1;transpose_b=1"} {
		got := values(t, mustOp(t, "dot", tr, a, b))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var s, mag float64
				for p := 0; p < n; p++ {
					x, y := a64[i*n+p], b64[p*n+j]
					if tr != "transpose_a=0;transpose_b=0" {
						x, y = a64[p*n+i], b64[j*n+p]
					}
					s += x * y
					mag += math.Abs(x * y)
				}
				require.InDelta(t, s, got[i*n+j], 1e-5*mag, "%s [%d,%d]", tr, i, j)
			}
		}
	}
}

// Products large enough to be split across cores, for every kernel: each checked
// against the naive loop.
func TestLargeAndBatchedProductsUseCoresCorrectly(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int32, ndarray.Complex64, ndarray.Float16, ndarray.Float64, ndarray.Uint8} {
		for _, c := range [][2][]int{{{130, 70}, {70, 150}}, {{64, 8, 9}, {64, 9, 7}}, {{3, 100, 80}, {80, 90}}} {
			l, r := laArray(t, dt, 7, c[0]...), laArray(t, dt, 8, c[1]...)
			got := mustOp(t, "matmul", "", l, r)
			want, shape := refMatmul(complexValues(t, l), c[0], complexValues(t, r), c[1])
			if dt == ndarray.Uint8 || dt == ndarray.Float16 { // the reference wraps or rounds as the dtype does
				want = roundComplex(t, dt, want, shape)
			}
			checkProduct(t, got, want, shape, dt, fmt.Sprint(dt, c))
		}
	}
}

// roundComplex stores vals in dt (uint8 wraps, float16 rounds) and reads them back.
func roundComplex(t *testing.T, dt ndarray.DType, vals []complex128, shape []int) []complex128 {
	if dt == ndarray.Uint8 {
		out := make([]complex128, len(vals))
		for i, v := range vals {
			out[i] = complex(float64(uint8(int64(real(v)))), 0)
		}
		return out
	}
	return complexValues(t, fromComplex(t, dt, vals, shape...))
}

func TestIntegerProductsWrapAround(t *testing.T) {
	checkLeaks(t)
	a := fromValues(t, ndarray.Int8, []float64{100, 100}, 1, 2)
	b := fromValues(t, ndarray.Int8, []float64{2, 1}, 2, 1)
	assert.Equal(t, []int8{44}, rawValues[int8](mustOp(t, "dot", "", a, b)), "100*2 + 100*1 = 300 wraps to 44, as in NumPy")
}

func TestProductErrors(t *testing.T) {
	checkLeaks(t)
	f32 := func(shape ...int) *ndarray.NDArray { return empty(t, ndarray.Float32, shape...) }
	cases := []struct {
		name, op string
		in       []*ndarray.NDArray
		attrs    string
		kind     mxerr.Kind
		fragment string
	}{
		{"dtype", "dot", []*ndarray.NDArray{f32(2, 3), empty(t, ndarray.Float64, 3, 2)}, "", mxerr.Type, "dtype mismatch"},
		{"bool", "dot", []*ndarray.NDArray{empty(t, ndarray.Bool, 2), empty(t, ndarray.Bool, 2)}, "", mxerr.Type, "bool"},
		{"aligned", "dot", []*ndarray.NDArray{f32(2, 3), f32(2, 3)}, "", mxerr.Value, "not aligned"},
		{"aligned ta", "dot", []*ndarray.NDArray{f32(2, 3), f32(3, 3)}, "transpose_a=1", mxerr.Value, "not aligned"},
		{"vectors", "dot", []*ndarray.NDArray{f32(3), f32(4)}, "", mxerr.Value, "not aligned"},
		{"0-d", "dot", []*ndarray.NDArray{f32(), f32(3)}, "", mxerr.Value, "0-d"},
		{"arity", "dot", []*ndarray.NDArray{f32(3)}, "", mxerr.Type, "takes 2"},
		{"bad param", "dot", []*ndarray.NDArray{f32(3), f32(3)}, "transpose_c=1", mxerr.Type, "unexpected parameter"},
		{"batch ndim", "batch_dot", []*ndarray.NDArray{f32(2, 3), f32(3, 2)}, "", mxerr.Value, "at least 3"},
		{"batch ndims differ", "batch_dot", []*ndarray.NDArray{f32(2, 2, 3), f32(1, 2, 3, 2)}, "", mxerr.Value, "at least 3"},
		{"batch dims", "batch_dot", []*ndarray.NDArray{f32(2, 2, 3), f32(3, 3, 2)}, "", mxerr.Value, "batch dimensions"},
		{"batch aligned", "batch_dot", []*ndarray.NDArray{f32(2, 2, 3), f32(2, 2, 3)}, "", mxerr.Value, "not aligned"},
		{"batch dtype", "batch_dot", []*ndarray.NDArray{f32(2, 2, 3), empty(t, ndarray.Int32, 2, 3, 2)}, "", mxerr.Type, "dtype mismatch"},
		{"matmul core", "matmul", []*ndarray.NDArray{f32(2, 3), f32(4, 2)}, "", mxerr.Value, "core dimension"},
		{"matmul vec", "matmul", []*ndarray.NDArray{f32(3), f32(4)}, "", mxerr.Value, "core dimension"},
		{"matmul batch", "matmul", []*ndarray.NDArray{f32(2, 2, 3), f32(3, 3, 2)}, "", mxerr.Value, "broadcast"},
		{"matmul 0-d", "matmul", []*ndarray.NDArray{f32(3), f32()}, "", mxerr.Value, "operand 1"},
		{"matmul dtype", "matmul", []*ndarray.NDArray{empty(t, ndarray.Complex64, 2, 2), empty(t, ndarray.Complex128, 2, 2)}, "", mxerr.Type, "dtype mismatch"},
	}
	for _, c := range cases {
		_, err := runOp(t, c.op, c.in, nil, c.attrs)
		requireKind(t, err, c.kind, c.fragment)
	}
	// out= of the wrong shape or dtype
	_, err := runOp(t, "dot", []*ndarray.NDArray{f32(2, 3), f32(3, 4)}, f32(4, 2), "")
	requireKind(t, err, mxerr.Value, "out has shape")
	_, err = runOp(t, "matmul", []*ndarray.NDArray{f32(2, 3), f32(3, 4)}, empty(t, ndarray.Float64, 2, 4), "")
	requireKind(t, err, mxerr.Type, "out has dtype")
	ro := f32(2, 4).ReadOnly()
	t.Cleanup(ro.Release)
	_, err = runOp(t, "matmul", []*ndarray.NDArray{f32(2, 3), f32(3, 4)}, ro, "")
	requireKind(t, err, mxerr.Value, "read-only")
}

func TestProductErrorsLeaveInputsIntact(t *testing.T) {
	checkLeaks(t)
	a, b := laArray(t, ndarray.Float32, 1, 2, 3), laArray(t, ndarray.Float32, 2, 2, 3)
	before := complexValues(t, a)
	out := laArray(t, ndarray.Float32, 3, 2, 2)
	outBefore := complexValues(t, out)
	_, err := runOp(t, "dot", []*ndarray.NDArray{a, b}, out, "")
	requireKind(t, err, mxerr.Value)
	assert.Equal(t, before, complexValues(t, a))
	assert.Equal(t, outBefore, complexValues(t, out))
}

func TestComplexProductsDoNotConjugate(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Complex64, ndarray.Complex128} {
		x := fromComplex(t, dt, []complex128{1 + 2i, 3 - 1i}, 2)
		got := complexValues(t, mustOp(t, "dot", "", x, x))
		want := (1+2i)*(1+2i) + (3-1i)*(3-1i)
		assert.Equal(t, []complex128{want}, got, "x . x, not conj(x) . x")
	}
}

func TestProductsRegistered(t *testing.T) {
	for _, name := range []string{"dot", "batch_dot", "matmul"} {
		op, err := ops.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, ops.General, op.Category)
		assert.Equal(t, []string{"lhs", "rhs"}, op.Inputs)
		assert.NotContains(t, op.DTypes, ndarray.Bool)
		assert.Len(t, op.DTypes, len(linalgDTypes))
		assert.False(t, op.InPlace)
	}
}

// gonum's BLAS skips the terms of zeros in lhs; the products must still give nan for
// 0 * inf and 0 * nan, as NumPy does.
func TestProductsPropagateInfAndNaN(t *testing.T) {
	checkLeaks(t)
	inf, nan := math.Inf(1), math.NaN()
	a := []float64{0, 1, 2, 1, 0, 0, 0, 0, 0}       // (3, 3)
	b := []float64{inf, 1, 1, nan, 2, 3}            // (3, 2)
	want := []float64{nan, nan, inf, nan, nan, nan} // row 0: 0*inf, 1*nan; row 1: inf, 0*nan; row 2: 0*inf, 0*nan
	for _, dt := range []ndarray.DType{ndarray.Float16, ndarray.Bfloat16, ndarray.Float32, ndarray.Float64} {
		x, y := fromValues(t, dt, a, 3, 3), fromValues(t, dt, b, 3, 2)
		xt := fromValues(t, dt, a, 3, 3)
		require.NoError(t, ops.Copy(xt, transposeView(t, x, nil))) // x's transpose, stored
		for _, got := range []*ndarray.NDArray{
			mustOp(t, "dot", "", x, y),
			mustOp(t, "matmul", "", transposeView(t, xt, nil), y), // BLAS's transpose flag
			mustOp(t, "dot", "transpose_a=1", xt, y),
		} {
			vals := values(t, got)
			for i, w := range want {
				if math.IsNaN(w) {
					assert.True(t, math.IsNaN(vals[i]), "%s [%d] = %v, want nan", dt, i, vals[i])
				} else {
					assert.Equal(t, w, vals[i], "%s [%d]", dt, i)
				}
			}
		}
		// finite operands still take BLAS and give finite results
		assert.Equal(t, []float64{5}, values(t, mustOp(t, "dot", "", fromValues(t, dt, []float64{0, 1}), fromValues(t, dt, []float64{7, 5}))))
	}
	for _, dt := range []ndarray.DType{ndarray.Complex64, ndarray.Complex128} {
		x := fromComplex(t, dt, []complex128{0, 1i}, 1, 2)
		y := fromComplex(t, dt, []complex128{complex(nan, 0), 2}, 2, 1)
		got := complexValues(t, mustOp(t, "dot", "", x, y))
		assert.True(t, math.IsNaN(real(got[0])) || math.IsNaN(imag(got[0])), "%s: %v", dt, got)
	}
}
