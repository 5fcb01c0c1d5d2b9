package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// assertLayout compares a view's layout with one derived by hand from NumPy's rules.
// Strides of dimensions of length 0 or 1 are free (NumPy and mxgo may differ there).
func assertLayout(t *testing.T, v *ndarray.NDArray, shape, strides []int, offset int) {
	t.Helper()
	require.Equal(t, shape, v.Shape())
	require.Len(t, v.Strides(), len(strides))
	for i, d := range shape {
		if d > 1 {
			assert.Equal(t, strides[i], v.Strides()[i], "stride of axis %d", i)
		}
	}
	if v.Size() > 0 {
		assert.Equal(t, offset, v.Offset())
	}
}

// Hand-derived from NumPy on a float32 array of shape (3, 4, 5), strides (20, 5, 1).
var indexLayoutCases = []struct {
	name    string
	key     []ndarray.KeyItem
	shape   []int
	strides []int
	offset  int
}{
	{"a[1]", []ndarray.KeyItem{I(1)}, []int{4, 5}, []int{5, 1}, 20},
	{"a[-1]", []ndarray.KeyItem{I(-1)}, []int{4, 5}, []int{5, 1}, 40},
	{"a[2,3,4]", []ndarray.KeyItem{I(2), I(3), I(4)}, []int{}, []int{}, 59},
	{"a[-3,-4,-5]", []ndarray.KeyItem{I(-3), I(-4), I(-5)}, []int{}, []int{}, 0},
	{"a[-1,::2]", []ndarray.KeyItem{I(-1), S(nil, nil, 2)}, []int{2, 5}, []int{10, 1}, 40},
	{"a[:,::-1]", []ndarray.KeyItem{all, S(nil, nil, -1)}, []int{3, 4, 5}, []int{20, -5, 1}, 15},
	{"a[::-1,::-1,::-1]", []ndarray.KeyItem{S(nil, nil, -1), S(nil, nil, -1), S(nil, nil, -1)}, []int{3, 4, 5}, []int{-20, -5, -1}, 59},
	{"a[...,1]", []ndarray.KeyItem{ellipsis, I(1)}, []int{3, 4}, []int{20, 5}, 1},
	{"a[...,::-1,:]", []ndarray.KeyItem{ellipsis, S(nil, nil, -1), all}, []int{3, 4, 5}, []int{20, -5, 1}, 15},
	{"a[1,...]", []ndarray.KeyItem{I(1), ellipsis}, []int{4, 5}, []int{5, 1}, 20},
	{"a[0,1,2,...]", []ndarray.KeyItem{I(0), I(1), I(2), ellipsis}, []int{}, []int{}, 7},
	{"a[None,0,...,None]", []ndarray.KeyItem{newAxis, I(0), ellipsis, newAxis}, []int{1, 4, 5, 1}, []int{0, 5, 1, 0}, 0},
	{"a[:,None,1]", []ndarray.KeyItem{all, newAxis, I(1)}, []int{3, 1, 5}, []int{20, 0, 1}, 5},
	{"a[1:,3:0:-2,-2]", []ndarray.KeyItem{S(1, nil, nil), S(3, 0, -2), I(-2)}, []int{2, 2}, []int{20, -10}, 38},
	{"a[-100:100]", []ndarray.KeyItem{S(-100, 100, nil)}, []int{3, 4, 5}, []int{20, 5, 1}, 0},
	{"a[1:2]", []ndarray.KeyItem{S(1, 2, nil)}, []int{1, 4, 5}, []int{20, 5, 1}, 20},
	{"a[::10]", []ndarray.KeyItem{S(nil, nil, 10)}, []int{1, 4, 5}, []int{200, 5, 1}, 0},
	{"a[5:]", []ndarray.KeyItem{S(5, nil, nil)}, []int{0, 4, 5}, []int{20, 5, 1}, 0},
	{"a[2:1]", []ndarray.KeyItem{S(2, 1, nil)}, []int{0, 4, 5}, []int{20, 5, 1}, 0},
	{"a[:,:,-1:-6:-2]", []ndarray.KeyItem{all, all, S(-1, -6, -2)}, []int{3, 4, 3}, []int{20, 5, -2}, 4},
	{"a[:,1::-1]", []ndarray.KeyItem{all, S(1, nil, -1)}, []int{3, 2, 5}, []int{20, -5, 1}, 5},
	{"a[...]", []ndarray.KeyItem{ellipsis}, []int{3, 4, 5}, []int{20, 5, 1}, 0},
	{"a[()]", nil, []int{3, 4, 5}, []int{20, 5, 1}, 0},
}

func TestIndexLayouts(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float32, 3, 4, 5)
	for _, c := range indexLayoutCases {
		t.Run(c.name, func(t *testing.T) {
			v := index(t, a, c.key...)
			assertLayout(t, v, c.shape, c.strides, c.offset)
			assert.Same(t, a.Storage(), v.Storage())
			// The reference agrees, and so do the values read through the view.
			refShape, flat, ok := refIndex(a.Shape(), c.key)
			require.True(t, ok)
			assert.Equal(t, c.shape, refShape)
			assert.Equal(t, toFloats(flat), values(t, v))
			require.NoError(t, ndarray.CheckLayout(v.Storage(), v.DType(), v.Shape(), v.Strides(), v.Offset()))
		})
	}
}

func toFloats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func TestIndexErrors(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Int32, 3, 4, 5)
	many := make([]ndarray.KeyItem, 62)
	for i := range many {
		many[i] = newAxis
	}
	cases := []struct {
		name     string
		key      []ndarray.KeyItem
		kind     mxerr.Kind
		fragment string
	}{
		{"a[3]", []ndarray.KeyItem{I(3)}, mxerr.Index, "out of bounds"},
		{"a[-4]", []ndarray.KeyItem{I(-4)}, mxerr.Index, "out of bounds"},
		{"a[0,4]", []ndarray.KeyItem{I(0), I(4)}, mxerr.Index, "axis 1"},
		{"a[:,:,5]", []ndarray.KeyItem{all, all, I(5)}, mxerr.Index, "axis 2 with size 5"},
		{"a[MinInt]", []ndarray.KeyItem{I(math.MinInt)}, mxerr.Index, "out of bounds"},
		{"a[MaxInt]", []ndarray.KeyItem{I(math.MaxInt)}, mxerr.Index, "out of bounds"},
		{"a[0,0,0,0]", []ndarray.KeyItem{I(0), I(0), I(0), I(0)}, mxerr.Index, "too many indices"},
		{"a[:,:,:,None,:]", []ndarray.KeyItem{all, all, all, newAxis, all}, mxerr.Index, "too many indices"},
		{"a[...,...]", []ndarray.KeyItem{ellipsis, ellipsis}, mxerr.Index, "single ellipsis"},
		{"a[::0]", []ndarray.KeyItem{S(nil, nil, 0)}, mxerr.Value, "step cannot be zero"},
		{"62 new axes", many, mxerr.Index, "more than 64"},
		{"bad kind", []ndarray.KeyItem{{Kind: 9}}, mxerr.Type, "invalid index"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := a.Storage().Refs()
			v, err := a.Index(c.key)
			requireKind(t, err, c.kind, c.fragment)
			assert.Nil(t, v)
			assert.Equal(t, before, a.Storage().Refs(), "a failed index holds no reference")
		})
	}
	// 61 new axes plus 3 dimensions is exactly the limit.
	v := index(t, a, many[:61]...)
	assert.Equal(t, ndarray.MaxDims, v.NDim())
	// Indexing a 0-d array.
	s := index(t, a, I(0), I(0), I(0))
	_, err := s.Index([]ndarray.KeyItem{I(0)})
	requireKind(t, err, mxerr.Index, "too many indices")
	s1 := index(t, s, newAxis)
	assert.Equal(t, []int{1}, s1.Shape())
}

// A table of shapes and keys checked against the reference only (no hand-derived
// layouts): views of views, empty axes and extreme bounds.
func TestIndexMatchesReference(t *testing.T) {
	checkLeaks(t)
	keys := [][]ndarray.KeyItem{
		{S(1, -1, nil), S(nil, nil, -2)},
		{S(math.MinInt, math.MaxInt, 3)},
		{S(math.MaxInt, math.MinInt, -1)},
		{S(nil, nil, math.MaxInt)},
		{S(nil, nil, math.MinInt)},
		{S(nil, nil, -math.MaxInt)},
		{ellipsis, S(-2, nil, nil), newAxis},
		{newAxis, newAxis, I(-1)},
		{S(0, 0, nil), I(0)},
		{S(2, 2, -1), ellipsis},
	}
	for _, shape := range [][]int{{6}, {4, 3}, {2, 0, 3}, {5, 1, 2}} {
		a := arange(t, ndarray.Int64, shape...)
		for _, key := range keys {
			refShape, flat, ok := refIndex(shape, key)
			v, err := a.Index(key)
			require.Equal(t, ok, err == nil, "shape %v key %+v: %v", shape, key, err)
			if !ok {
				continue
			}
			t.Cleanup(v.Release)
			require.Equal(t, refShape, v.Shape(), "shape %v key %+v", shape, key)
			require.Equal(t, flat, viewOffsets(v), "shape %v key %+v", shape, key)
			// A view of the view, reversing its first axis, also agrees.
			if v.NDim() > 0 {
				vv, err := v.Index([]ndarray.KeyItem{S(nil, nil, -1)})
				require.NoError(t, err)
				t.Cleanup(vv.Release)
				assert.Equal(t, reverseBlocks(flat, v.Shape()), viewOffsets(vv))
			}
		}
	}
}

// reverseBlocks reverses the order of the first-axis blocks of a C-order listing.
func reverseBlocks(flat []int, shape []int) []int {
	if len(flat) == 0 {
		return nil
	}
	block := len(flat) / shape[0]
	out := make([]int, 0, len(flat))
	for i := shape[0] - 1; i >= 0; i-- {
		out = append(out, flat[i*block:(i+1)*block]...)
	}
	return out
}

func TestSliceIndicesTable(t *testing.T) {
	// Python: slice(start, stop, step).indices(n) and len(range(...)), by hand.
	cases := []struct {
		key                 ndarray.KeyItem
		n                   int
		start, step, length int
	}{
		{S(nil, nil, nil), 5, 0, 1, 5},
		{S(nil, nil, -1), 5, 4, -1, 5},
		{S(1, 4, 2), 5, 1, 2, 2},
		{S(-2, nil, nil), 5, 3, 1, 2},
		{S(-10, 10, nil), 5, 0, 1, 5},
		{S(10, -10, -1), 5, 4, -1, 5},
		{S(3, 3, nil), 5, 3, 1, 0},
		{S(nil, nil, 3), 0, 0, 3, 0},
		{S(nil, nil, -3), 0, -1, -3, 0},
		{S(nil, nil, 7), 5, 0, 7, 1},
		{S(nil, nil, math.MaxInt), 10, 0, math.MaxInt, 1},
		{S(nil, nil, -math.MaxInt), 10, 9, -math.MaxInt, 1},
		{S(nil, nil, math.MinInt), 10, 9, -math.MaxInt, 1},
		{S(1, nil, math.MaxInt-1), 10, 1, math.MaxInt - 1, 1},
	}
	for _, c := range cases {
		start, step, length, err := ndarray.SliceIndices(c.key, c.n)
		require.NoError(t, err)
		assert.Equal(t, []int{c.start, c.step, c.length}, []int{start, step, length}, "%+v n=%d", c.key, c.n)
	}
	_, _, _, err := ndarray.SliceIndices(S(nil, nil, 0), 3)
	requireKind(t, err, mxerr.Value, "zero")
}
