package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// transpose, reshape, concat, stack and cast, and the Transpose view, against index
// arithmetic done here.

// cIndex returns the C-order position of idx in shape.
func cIndex(shape, idx []int) int {
	off := 0
	for i, d := range shape {
		off = off*d + idx[i]
	}
	return off
}

// refTranspose permutes C-order values of shape by perm (NumPy's transpose).
func refTranspose(vals []complex128, shape, perm []int) ([]complex128, []int) {
	out := make([]int, len(perm))
	for i, p := range perm {
		out[i] = shape[p]
	}
	var res []complex128
	src := make([]int, len(shape))
	forEach(out, func(idx []int) {
		for i, p := range perm {
			src[p] = idx[i]
		}
		res = append(res, vals[cIndex(shape, src)])
	})
	return res, out
}

func TestTransposeView(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int32, 2, 3, 4)
	v := transposeView(t, a, nil)
	assert.Equal(t, []int{4, 3, 2}, v.Shape())
	assert.Equal(t, []int{1, 4, 12}, v.Strides())
	assert.Same(t, a.Storage(), v.Storage(), "a view, not a copy")
	assert.True(t, v.Writable())
	w := transposeView(t, a, []int{1, -1, 0})
	assert.Equal(t, []int{3, 4, 2}, w.Shape())
	want, _ := refTranspose(complexValues(t, a), []int{2, 3, 4}, []int{1, 2, 0})
	assert.Equal(t, want, complexValues(t, w))
	// writes through the view land in a
	rawSet(w, make([]int32, 24))
	assert.Equal(t, make([]float64, 24), values(t, a))
	// a read-only array gives a read-only view; a 0-d array transposes to itself
	ro := a.ReadOnly()
	t.Cleanup(ro.Release)
	assert.False(t, transposeView(t, ro, nil).Writable())
	s := empty(t, ndarray.Float32)
	assert.Equal(t, []int{}, ints(transposeView(t, s, nil).Shape()))
	assert.Equal(t, []int{}, ints(transposeView(t, s, []int{}).Shape()))
	// a strided view keeps its offset
	sub := index(t, arange(t, ndarray.Float64, 4, 5), S(1, nil, 2), S(nil, nil, -2))
	st := transposeView(t, sub, nil)
	want, _ = refTranspose(complexValues(t, sub), sub.Shape(), []int{1, 0})
	assert.Equal(t, want, complexValues(t, st))

	for _, c := range []struct {
		axes     []int
		kind     mxerr.Kind
		fragment string
	}{
		{[]int{0, 1}, mxerr.Value, "axes don't match"},
		{[]int{0, 1, 2, 3}, mxerr.Value, "axes don't match"},
		{[]int{0, 1, 3}, mxerr.Index, "out of bounds"},
		{[]int{0, 1, -4}, mxerr.Index, "out of bounds"},
		{[]int{0, 1, 1}, mxerr.Value, "repeated axis"},
		{[]int{0, 2, -1}, mxerr.Value, "repeated axis"},
	} {
		_, err := a.Transpose(c.axes)
		requireKind(t, err, c.kind, c.fragment)
	}
}

func TestTransposeOperator(t *testing.T) {
	checkLeaks(t)
	for _, dt := range ndarray.DTypes() {
		for _, c := range []struct {
			shape []int
			axes  string
			perm  []int
		}{
			{[]int{2, 3, 4}, "None", []int{2, 1, 0}},
			{[]int{2, 3, 4}, "1,0,2", []int{1, 0, 2}},
			{[]int{2, 3, 4}, "-1,0,1", []int{2, 0, 1}},
			{[]int{5}, "None", []int{0}},
			{[]int{}, "", []int{}},
			{[]int{0, 3}, "None", []int{1, 0}},
			{[]int{70, 300}, "None", []int{1, 0}}, // large enough to copy on several cores
		} {
			a := laArray(t, dt, 1, c.shape...)
			got := mustOp(t, "transpose", "axes="+c.axes, a)
			want, shape := refTranspose(complexValues(t, a), c.shape, c.perm)
			assert.NotSame(t, a.Storage(), got.Storage(), "the operator copies")
			checkProduct(t, got, want, shape, dt, fmt.Sprint("transpose ", dt, c.shape, c.axes))
		}
	}
	// strided input, strided out
	a := index(t, arange(t, ndarray.Float32, 6, 8), S(nil, nil, 2), S(1, nil, 3)) // (3, 3)
	base := empty(t, ndarray.Float32, 3, 6)
	out := index(t, base, all, S(nil, nil, 2))
	_, err := runOp(t, "transpose", []*ndarray.NDArray{a}, out, "")
	require.NoError(t, err)
	want, _ := refTranspose(complexValues(t, a), []int{3, 3}, []int{1, 0})
	assert.Equal(t, want, complexValues(t, out))
	// in place on a square matrix: the registry copies the input first
	sq := arange(t, ndarray.Int64, 3, 3)
	want, _ = refTranspose(complexValues(t, sq), []int{3, 3}, []int{1, 0})
	_, err = runOp(t, "transpose", []*ndarray.NDArray{sq}, sq, "")
	require.NoError(t, err)
	assert.Equal(t, want, complexValues(t, sq))
	// errors
	_, err = runOp(t, "transpose", []*ndarray.NDArray{sq}, nil, "axes=0")
	requireKind(t, err, mxerr.Value, "transpose", "axes don't match")
	_, err = runOp(t, "transpose", []*ndarray.NDArray{sq}, nil, "axes=0,2")
	requireKind(t, err, mxerr.Index, "out of bounds")
	_, err = runOp(t, "transpose", []*ndarray.NDArray{sq}, nil, "axes=x")
	requireKind(t, err, mxerr.Value)
}

func TestReshapeOperator(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Bool, ndarray.Int8, ndarray.Float16, ndarray.Float64, ndarray.Complex128} {
		a := laArray(t, dt, 2, 2, 3, 4)
		vals := complexValues(t, a)
		for _, c := range []struct {
			shape string
			want  []int
		}{{"6,4", []int{6, 4}}, {"-1", []int{24}}, {"4,-1,3", []int{4, 2, 3}}, {"24,1,1", []int{24, 1, 1}}} {
			got := mustOp(t, "reshape", "shape="+c.shape, a)
			assert.NotSame(t, a.Storage(), got.Storage())
			checkProduct(t, got, vals, c.want, dt, fmt.Sprint("reshape ", dt, c.shape))
		}
		// non-contiguous input (a transposed view) and out
		tr := transposeView(t, a, nil)
		trVals := complexValues(t, tr)
		checkProduct(t, mustOp(t, "reshape", "shape=12,2", tr), trVals, []int{12, 2}, dt, "reshape of a transposed view")
		outBase := empty(t, dt, 8, 6)
		out := index(t, outBase, S(nil, nil, 2))
		_, err := runOp(t, "reshape", []*ndarray.NDArray{tr}, out, "shape=4,6")
		require.NoError(t, err)
		checkProduct(t, out, trVals, []int{4, 6}, dt, "reshape into a strided out")
	}
	// 0-d and 0-size
	s := fromValues(t, ndarray.Float32, []float64{7}, []int{}...)
	checkProduct(t, mustOp(t, "reshape", "shape=1,1", s), []complex128{7}, []int{1, 1}, ndarray.Float32, "0-d to (1,1)")
	one := fromValues(t, ndarray.Float32, []float64{7}, 1, 1)
	checkProduct(t, mustOp(t, "reshape", "shape=", one), []complex128{7}, []int{}, ndarray.Float32, "(1,1) to 0-d")
	z := empty(t, ndarray.Int32, 0, 4)
	checkProduct(t, mustOp(t, "reshape", "shape=2,-1,5", z), nil, []int{2, 0, 5}, ndarray.Int32, "0-size")
	// MXNet's codes: 0 copies, -2 copies the rest, -3 merges two, -4 splits one; reverse from the right
	a3 := arange(t, ndarray.Int32, 2, 3, 4)
	for spec, want := range map[string][]int{
		"shape=0,-1": {2, 12}, "shape=-2": {2, 3, 4}, "shape=-3,4": {6, 4}, "shape=0,-3": {2, 12},
		"shape=-4,1,2,-2": {1, 2, 3, 4}, "shape=-4,-1,1,-2": {2, 1, 3, 4}, "shape=-1,0;reverse=1": {6, 4},
		"shape=0,0,0": {2, 3, 4},
	} {
		assert.Equal(t, want, mustOp(t, "reshape", spec, a3).Shape(), spec)
	}
	for _, c := range []string{"0,0,0,0", "-4,4,-1,-2", "-4,-1,-1", "-3,-3", "-5"} {
		_, err := runOp(t, "reshape", []*ndarray.NDArray{a3}, nil, "shape="+c)
		requireKind(t, err, mxerr.Value, "reshape")
	}
	// errors
	for _, c := range []string{"5,5", "-1,-1", "-2,12", "7,-1"} {
		_, err := runOp(t, "reshape", []*ndarray.NDArray{arange(t, ndarray.Int32, 2, 12)}, nil, "shape="+c)
		requireKind(t, err, mxerr.Value, "reshape")
	}
	_, err := runOp(t, "reshape", []*ndarray.NDArray{z}, nil, "shape=3,5")
	requireKind(t, err, mxerr.Value)
	_, err = runOp(t, "reshape", []*ndarray.NDArray{z}, nil, "")
	requireKind(t, err, mxerr.Type, "missing required parameter")
}

// refConcat joins C-order values of shapes along axis.
func refConcat(vals [][]complex128, shapes [][]int, axis int) ([]complex128, []int) {
	out := append([]int{}, shapes[0]...)
	out[axis] = 0
	for _, s := range shapes {
		out[axis] += s[axis]
	}
	var res []complex128
	src := make([]int, len(out))
	forEach(out, func(idx []int) {
		copy(src, idx)
		for i, s := range shapes {
			if src[axis] < s[axis] {
				res = append(res, vals[i][cIndex(s, src)])
				return
			}
			src[axis] -= s[axis]
		}
	})
	return res, out
}

func TestConcatOperator(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Bool, ndarray.Uint16, ndarray.Float32, ndarray.Bfloat16, ndarray.Complex64} {
		for _, c := range []struct {
			shapes [][]int
			dim    string
			axis   int
		}{
			{[][]int{{2, 3}, {2, 4}}, "", 1}, // MXNet's default dim=1
			{[][]int{{2, 3}, {1, 3}, {4, 3}}, "dim=0", 0},
			{[][]int{{2, 3, 1}, {2, 3, 2}}, "dim=-1", 2},
			{[][]int{{5}}, "dim=0", 0},
			{[][]int{{2, 0}, {2, 3}, {2, 0}}, "", 1},
			{[][]int{{0, 2}, {0, 2}}, "dim=0", 0},
			{[][]int{{300, 100}, {300, 50}}, "", 1},
		} {
			var in []*ndarray.NDArray
			var vals [][]complex128
			for i, s := range c.shapes {
				a := laArray(t, dt, i, s...)
				in = append(in, a)
				vals = append(vals, complexValues(t, a))
			}
			got, err := runOp(t, "concat", in, nil, c.dim)
			require.NoError(t, err)
			want, shape := refConcat(vals, c.shapes, c.axis)
			checkProduct(t, got, want, shape, dt, fmt.Sprint("concat ", dt, c.shapes, c.dim))
		}
	}
	// strided inputs, a strided out, and an input that is out itself
	x := index(t, arange(t, ndarray.Float64, 4, 6), S(nil, nil, 2), S(nil, nil, -1)) // (2, 6)
	y := transposeView(t, arange(t, ndarray.Float64, 3, 2), nil)                     // (2, 3)
	base := empty(t, ndarray.Float64, 2, 18)
	out := index(t, base, all, S(nil, nil, 2)) // (2, 9)
	_, err := runOp(t, "concat", []*ndarray.NDArray{x, y}, out, "")
	require.NoError(t, err)
	want, _ := refConcat([][]complex128{complexValues(t, x), complexValues(t, y)}, [][]int{{2, 6}, {2, 3}}, 1)
	assert.Equal(t, want, complexValues(t, out))
	self := arange(t, ndarray.Int32, 2, 2)
	selfVals := complexValues(t, self)
	double := empty(t, ndarray.Int32, 4, 2)
	first := index(t, double, S(nil, 2, nil))
	rawSet(first, []int32{0, 1, 2, 3})
	_, err = runOp(t, "concat", []*ndarray.NDArray{first, self}, double, "dim=0")
	require.NoError(t, err)
	assert.Equal(t, append(append([]complex128{}, selfVals...), selfVals...), complexValues(t, double))
	// errors
	f32 := func(shape ...int) *ndarray.NDArray { return empty(t, ndarray.Float32, shape...) }
	for _, c := range []struct {
		in       []*ndarray.NDArray
		attrs    string
		kind     mxerr.Kind
		fragment string
	}{
		{[]*ndarray.NDArray{f32(2, 3), empty(t, ndarray.Float64, 2, 3)}, "", mxerr.Type, "dtype mismatch"},
		{[]*ndarray.NDArray{f32(2, 3), f32(3, 3)}, "", mxerr.Value, "must match except along dim 1"},
		{[]*ndarray.NDArray{f32(2, 3), f32(2, 3, 1)}, "", mxerr.Value, "same number of dimensions"},
		{[]*ndarray.NDArray{f32(3), f32(3)}, "", mxerr.Index, "axis 1 is out of bounds"},
		{[]*ndarray.NDArray{f32(2, 3)}, "dim=-3", mxerr.Index, "out of bounds"},
		{[]*ndarray.NDArray{f32(), f32()}, "dim=0", mxerr.Value, "zero-dimensional"},
		{nil, "", mxerr.Type, "at least one"},
	} {
		_, err := runOp(t, "concat", c.in, nil, c.attrs)
		requireKind(t, err, c.kind, c.fragment)
	}
}

func TestStackOperator(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Bool, ndarray.Int64, ndarray.Float16, ndarray.Complex128} {
		for _, c := range []struct {
			shape []int
			n     int
			axis  int
		}{{[]int{2, 3}, 3, 0}, {[]int{2, 3}, 2, 1}, {[]int{2, 3}, 2, 2}, {[]int{2, 3}, 4, -1}, {[]int{2, 3}, 2, -3},
			{[]int{}, 3, 0}, {[]int{0, 2}, 2, 1}, {[]int{4}, 1, 0}} {
			var in []*ndarray.NDArray
			var vals [][]complex128
			for i := 0; i < c.n; i++ {
				a := laArray(t, dt, i, c.shape...)
				in = append(in, a)
				vals = append(vals, complexValues(t, a))
			}
			got, err := runOp(t, "stack", in, nil, fmt.Sprintf("axis=%d", c.axis))
			require.NoError(t, err)
			axis := c.axis
			if axis < 0 {
				axis += len(c.shape) + 1
			}
			shape := append(append(append([]int{}, c.shape[:axis]...), c.n), c.shape[axis:]...)
			var want []complex128
			forEach(shape, func(idx []int) {
				src := append(append([]int{}, idx[:axis]...), idx[axis+1:]...)
				want = append(want, vals[idx[axis]][cIndex(c.shape, src)])
			})
			checkProduct(t, got, want, shape, dt, fmt.Sprint("stack ", dt, c))
		}
	}
	// strided inputs
	x := index(t, arange(t, ndarray.Int32, 4, 4), S(nil, nil, 2), S(nil, nil, 2))
	y := transposeView(t, arange(t, ndarray.Int32, 2, 2), nil)
	got := mustOp(t, "stack", "axis=1", x, y)
	assert.Equal(t, []float64{0, 2, 0, 2, 8, 10, 1, 3}, values(t, got))
	// errors
	f32 := func(shape ...int) *ndarray.NDArray { return empty(t, ndarray.Float32, shape...) }
	for _, c := range []struct {
		in       []*ndarray.NDArray
		attrs    string
		kind     mxerr.Kind
		fragment string
	}{
		{[]*ndarray.NDArray{f32(2, 3), empty(t, ndarray.Int8, 2, 3)}, "", mxerr.Type, "dtype mismatch"},
		{[]*ndarray.NDArray{f32(2, 3), f32(3, 2)}, "", mxerr.Value, "same shape"},
		{[]*ndarray.NDArray{f32(2, 3), f32(2, 3)}, "axis=3", mxerr.Index, "out of bounds"},
		{[]*ndarray.NDArray{f32(2, 3), f32(2, 3)}, "axis=-4", mxerr.Index, "out of bounds"},
		{[]*ndarray.NDArray{f32(2)}, "axis=1.5", mxerr.Value, ""},
	} {
		_, err := runOp(t, "stack", c.in, nil, c.attrs)
		requireKind(t, err, c.kind, c.fragment)
	}
}

func TestCastOperator(t *testing.T) {
	checkLeaks(t)
	src := fromValues(t, ndarray.Float64, []float64{-2.7, -1, 0, 0.5, 1.9, 300}, 2, 3)
	cases := []struct {
		dtype string
		want  []float64
	}{
		{"int32", []float64{-2, -1, 0, 0, 1, 300}},
		{"uint8", []float64{254, 255, 0, 0, 1, 44}},
		{"float16", []float64{-2.69921875, -1, 0, 0.5, 1.900390625, 300}},
		{"bool", []float64{1, 1, 0, 1, 1, 1}},
		{"complex64", []float64{-2.700000047683716, -1, 0, 0.5, 1.899999976158142, 300}},
		{"float64", []float64{-2.7, -1, 0, 0.5, 1.9, 300}},
	}
	for _, c := range cases {
		got := mustOp(t, "cast", "dtype="+c.dtype, src)
		dt, err := ndarray.ParseDType(c.dtype)
		require.NoError(t, err)
		assert.Equal(t, dt, got.DType())
		assert.Equal(t, []int{2, 3}, got.Shape())
		assert.NotSame(t, src.Storage(), got.Storage())
		assert.Equal(t, c.want, decode(got), c.dtype)
	}
	// strided input into a strided out; a 0-d and a 0-size array
	tr := transposeView(t, src, nil)
	base := empty(t, ndarray.Int16, 3, 4)
	out := index(t, base, all, S(nil, nil, 2))
	_, err := runOp(t, "cast", []*ndarray.NDArray{tr}, out, "dtype=int16")
	require.NoError(t, err)
	assert.Equal(t, []float64{-2, 0, -1, 1, 0, 300}, decode(out))
	checkProduct(t, mustOp(t, "cast", "dtype=int8", fromValues(t, ndarray.Float32, []float64{3.5}, []int{}...)), []complex128{3}, []int{}, ndarray.Int8, "0-d")
	checkProduct(t, mustOp(t, "cast", "dtype=float16", empty(t, ndarray.Int64, 0, 3)), nil, []int{0, 3}, ndarray.Float16, "0-size")
	_, err = runOp(t, "cast", []*ndarray.NDArray{src}, nil, "dtype=float8")
	requireKind(t, err, mxerr.Value, "float8")
	_, err = runOp(t, "cast", []*ndarray.NDArray{src}, empty(t, ndarray.Int32, 2, 3), "dtype=int64")
	requireKind(t, err, mxerr.Type, "out has dtype")
}

func TestShapeOperatorsRegistered(t *testing.T) {
	for _, c := range []struct {
		name   string
		inputs []string
		params []string
	}{
		{"transpose", []string{"data"}, []string{"axes"}},
		{"reshape", []string{"data"}, []string{"shape", "reverse"}},
		{"concat", []string{"*data"}, []string{"dim"}},
		{"stack", []string{"*data"}, []string{"axis"}},
		{"cast", []string{"data"}, []string{"dtype"}},
	} {
		op, err := ops.Lookup(c.name)
		require.NoError(t, err)
		assert.Equal(t, c.inputs, op.Inputs, c.name)
		var params []string
		for _, p := range op.Params {
			params = append(params, p.Name)
		}
		assert.Equal(t, c.params, params, c.name)
		assert.Nil(t, op.DTypes, "%s takes every dtype", c.name)
	}
}
