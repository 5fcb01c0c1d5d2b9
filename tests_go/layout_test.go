package mxgotest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

func TestSize(t *testing.T) {
	ok := []struct {
		shape []int
		want  int
	}{
		{nil, 1},
		{[]int{}, 1},
		{[]int{0}, 0},
		{[]int{7}, 7},
		{[]int{2, 3, 4}, 24},
		{[]int{5, 0, 3}, 0},
		{[]int{1 << 31, 1 << 31}, 1 << 62},
		{[]int{math.MaxInt}, math.MaxInt},
		{[]int{0, math.MaxInt, math.MaxInt}, 0}, // a zero first keeps the product at 0
	}
	for _, c := range ok {
		n, err := ndarray.Size(c.shape)
		require.NoError(t, err, "%v", c.shape)
		assert.Equal(t, c.want, n, "%v", c.shape)
	}
	bad := []struct {
		shape    []int
		fragment string
	}{
		{[]int{-1}, "negative dimension"},
		{[]int{3, -2}, "negative dimension"},
		{[]int{0, -1}, "negative dimension"},
		{[]int{math.MinInt}, "negative dimension"},
		{[]int{1 << 32, 1 << 31}, "too many elements"},
		{[]int{math.MaxInt, 2}, "too many elements"},
		{[]int{3037000500, 3037000500}, "too many elements"}, // just above sqrt(MaxInt)^2
		{[]int{1 << 62, 2}, "too many elements"},
	}
	for _, c := range bad {
		_, err := ndarray.Size(c.shape)
		requireKind(t, err, mxerr.Value, c.fragment)
	}
}

func TestContiguousStrides(t *testing.T) {
	cases := []struct{ shape, want []int }{
		{[]int{}, []int{}},
		{[]int{5}, []int{1}},
		{[]int{2, 3, 4}, []int{12, 4, 1}},
		{[]int{4, 1, 3}, []int{3, 3, 1}},
		{[]int{1, 1}, []int{1, 1}},
	}
	for _, c := range cases {
		got := ndarray.ContiguousStrides(c.shape)
		assert.Equal(t, c.want, got, "%v", c.shape)
		assert.True(t, ndarray.IsContiguous(c.shape, got))
	}
	// With zero-length dimensions the strides must still describe a contiguous array.
	for _, shape := range [][]int{{0}, {3, 0}, {0, 3}, {2, 0, 4}} {
		assert.True(t, ndarray.IsContiguous(shape, ndarray.ContiguousStrides(shape)), "%v", shape)
	}
}

func TestIsContiguous(t *testing.T) {
	cases := []struct {
		name           string
		shape, strides []int
		wantContiguous bool
	}{
		{"0-d", []int{}, []int{}, true},
		{"row", []int{4}, []int{1}, true},
		{"step 2", []int{4}, []int{2}, false},
		{"reversed", []int{4}, []int{-1}, false},
		{"broadcast", []int{4}, []int{0}, false},
		{"matrix", []int{2, 3}, []int{3, 1}, true},
		{"transposed", []int{3, 2}, []int{1, 3}, false},
		{"column slice", []int{2, 2}, []int{3, 1}, false},
		{"size-1 dim odd stride (PyTorch)", []int{1, 77}, []int{1, 1}, true},
		{"size-1 dims any strides", []int{1, 3, 1, 2}, []int{-5, 2, 99, 1}, true},
		{"single element weird strides", []int{1, 1}, []int{0, 42}, true},
		{"size-1 does not hide a gap", []int{2, 1, 3}, []int{4, 7, 1}, false},
		{"empty", []int{0}, []int{7}, true},
		{"empty inner", []int{3, 0}, []int{5, 9}, true},
		{"empty outer, strided inner", []int{0, 3}, []int{6, 2}, true},
		{"empty middle", []int{4, 0, 3}, []int{-1, 7, -2}, true},
	}
	for _, c := range cases {
		assert.Equal(t, c.wantContiguous, ndarray.IsContiguous(c.shape, c.strides), c.name)
	}
}

func TestExtent(t *testing.T) {
	cases := []struct {
		name           string
		shape, strides []int
		lo, hi         int
	}{
		{"0-d", []int{}, []int{}, 0, 0},
		{"contiguous", []int{2, 3}, []int{3, 1}, 0, 5},
		{"negative", []int{4}, []int{-1}, -3, 0},
		{"mixed", []int{3, 4}, []int{-4, 1}, -8, 3},
		{"both negative", []int{2, 5}, []int{-10, -2}, -18, 0},
		{"size-1 stride ignored", []int{1, 3}, []int{-1000, 2}, 0, 4},
		{"broadcast", []int{5, 2}, []int{0, 1}, 0, 1},
		{"empty", []int{3, 0}, []int{-7, 100}, 0, 0},
		{"huge but fine", []int{2}, []int{math.MaxInt}, 0, math.MaxInt},
		{"huge negative", []int{2}, []int{math.MinInt}, math.MinInt, 0},
	}
	for _, c := range cases {
		lo, hi, err := ndarray.Extent(c.shape, c.strides)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.lo, lo, c.name)
		assert.Equal(t, c.hi, hi, c.name)
	}
	overflow := []struct{ shape, strides []int }{
		{[]int{3}, []int{math.MaxInt}},
		{[]int{3}, []int{math.MinInt}},
		{[]int{2, 2}, []int{math.MaxInt, 1}},
		{[]int{2, 2}, []int{math.MinInt, -1}},
		{[]int{math.MaxInt}, []int{2}},
	}
	for _, c := range overflow {
		_, _, err := ndarray.Extent(c.shape, c.strides)
		requireKind(t, err, mxerr.Value, "overflow")
	}
}

func TestCheckLayout(t *testing.T) {
	checkLeaks(t)
	s, err := ndarray.NewHostStorage(10 * 4) // ten float32
	require.NoError(t, err)
	defer ndarray.ReleaseStorage(s)
	ok := []struct {
		shape, strides []int
		offset         int
	}{
		{[]int{10}, []int{1}, 0},
		{[]int{5}, []int{2}, 1},
		{[]int{10}, []int{-1}, 9},
		{[]int{2, 5}, []int{-5, 1}, 5},
		{[]int{0}, []int{1}, 1000}, // nothing reachable
		{[]int{}, []int{}, 9},
	}
	for _, c := range ok {
		assert.NoError(t, ndarray.CheckLayout(s, ndarray.Float32, c.shape, c.strides, c.offset), "%+v", c)
	}
	bad := []struct {
		shape, strides []int
		offset         int
		kind           mxerr.Kind
	}{
		{[]int{11}, []int{1}, 0, mxerr.Index},
		{[]int{10}, []int{1}, 1, mxerr.Index},
		{[]int{10}, []int{-1}, 8, mxerr.Index},
		{[]int{}, []int{}, -1, mxerr.Index},
		{[]int{}, []int{}, 10, mxerr.Index},
		{[]int{2}, []int{math.MaxInt}, 0, mxerr.Index},
		{[]int{2}, []int{1, 1}, 0, mxerr.Value},
		{[]int{3}, []int{math.MaxInt}, 0, mxerr.Value},
		{[]int{-1}, []int{1}, 0, mxerr.Value},
	}
	for _, c := range bad {
		err := ndarray.CheckLayout(s, ndarray.Float32, c.shape, c.strides, c.offset)
		requireKind(t, err, c.kind)
	}
	// The same storage holds only five float64.
	requireKind(t, ndarray.CheckLayout(s, ndarray.Float64, []int{6}, []int{1}, 0), mxerr.Index)
	requireKind(t, ndarray.CheckLayout(s, ndarray.DType(-3), []int{1}, []int{1}, 0), mxerr.Type)
}
