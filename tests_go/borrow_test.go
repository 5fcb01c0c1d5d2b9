package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/dlpack/dlpacktest"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// dlpack.Borrow, as pybridge's operator calls use it on the DLTensor views of DLPack's C
// exchange API: shape and strides are read where they are, the producer's deleter never
// runs, and what Validate refuses is refused.
func TestBorrowLayouts(t *testing.T) {
	checkLeaks(t)
	for _, c := range []struct {
		name           string
		shape, strides []int64
		want           []float64
		wantStrides    []int
	}{
		{"contiguous", []int64{2, 3}, []int64{3, 1}, []float64{0, 1, 2, 3, 4, 5}, []int{3, 1}},
		{"transposed", []int64{3, 2}, []int64{1, 3}, []float64{0, 3, 1, 4, 2, 5}, []int{1, 3}},
		{"null strides", []int64{6}, nil, []float64{0, 1, 2, 3, 4, 5}, []int{1}},
		{"0-d", []int64{}, nil, []float64{0}, []int{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := dlpacktest.NewLegacy(f32Spec(6, c.shape, c.strides))
			defer ft.Free()
			fillSeq(ft)
			bs := ndarray.NewBorrowings()
			a, err := dlpack.Borrow(bs.Next(), ft.DLTensor(), dlpack.FlagReadOnly)
			require.NoError(t, err)
			assert.Equal(t, c.want, values(t, a))
			assert.Equal(t, c.wantStrides, a.Strides())
			assert.False(t, a.Writable())
			bs.Release(false)
			assert.Equal(t, 0, ft.DeleterCalls()) // borrowed: the producer's tensor is left alone
		})
	}
}

func TestBorrowRefuses(t *testing.T) {
	checkLeaks(t)
	bs := ndarray.NewBorrowings()
	defer bs.Release(true)
	_, err := dlpack.Borrow(bs.Next(), nil, 0)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	for name, s := range map[string]dlpacktest.Spec{
		"ndim 65":    {NBytes: 4, NDim: 65, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{1}},
		"null shape": {NBytes: 4, NDim: 2, Code: dlpack.CodeFloat, Bits: 32},
		"negative":   {NBytes: 4, NDim: 1, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{-1}},
		"gpu":        {NBytes: 4, NDim: 1, DevType: 2, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{1}},
	} {
		ft := dlpacktest.NewLegacy(s)
		_, err := dlpack.Borrow(bs.Next(), ft.DLTensor(), 0)
		assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err), name)
		assert.Equal(t, 0, ft.DeleterCalls(), name)
		ft.Free()
	}
	require.Equal(t, 5, bs.Len())
	for i := range bs.Len() {
		assert.Nil(t, bs.Array(i), "a refused borrow makes no array")
	}
}

// BorrowChecked, which adopts what C's quick check made of a tensor, makes the array
// Borrow makes; it declines, leaving the block alone, where the dimensions do not fit.
func TestBorrowChecked(t *testing.T) {
	checkLeaks(t)
	for name, c := range map[string]struct {
		spec  dlpacktest.Spec
		flags uint64
	}{
		"contiguous":       {f32Spec(12, []int64{3, 4}, nil), dlpack.FlagReadOnly},
		"writable":         {f32Spec(12, []int64{3, 4}, []int64{4, 1}), 0},
		"negative strides": {dlpacktest.Spec{NBytes: 48, NDim: 2, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{3, 2}, Strides: []int64{-4, 2}, ByteOffset: 32}, 0},
		"byte offset":      {dlpacktest.Spec{NBytes: 48, NDim: 1, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{5}, ByteOffset: 12}, 0},
		"size-1 dims":      {f32Spec(4, []int64{1, 4, 1, 1}, []int64{99, 1, 7, 0}), dlpack.FlagReadOnly},
		"bool":             {dlpacktest.Spec{NBytes: 6, NDim: 1, Code: dlpack.CodeBool, Bits: 8, Shape: []int64{6}}, 0},
	} {
		ft := dlpacktest.NewVersioned(c.spec)
		fillSeq(ft)
		q, ok := ft.Quick(c.flags)
		require.True(t, ok, name)
		bs := ndarray.NewBorrowings()
		got, ok := dlpack.BorrowChecked(bs.Next(), ft.DLTensor(), q)
		require.True(t, ok, name)
		want, err := dlpack.Borrow(bs.Next(), ft.DLTensor(), c.flags)
		require.NoError(t, err, name)
		assert.Equal(t, want.Shape(), got.Shape(), name)
		assert.Equal(t, want.Strides(), got.Strides(), name)
		assert.Equal(t, want.Offset(), got.Offset(), name)
		assert.Equal(t, want.DType(), got.DType(), name)
		assert.Equal(t, want.Writable(), got.Writable(), name)
		assert.Equal(t, want.Storage().Ptr(), got.Storage().Ptr(), name)
		assert.Equal(t, want.Storage().Bytes(), got.Storage().Bytes(), name)
		assert.Equal(t, values(t, want), values(t, got), name)
		bs.Release(true)
		ft.Free()
	}

	ft := dlpacktest.NewLegacy(f32Spec(32, []int64{2, 2, 2, 2, 2}, nil))
	defer ft.Free()
	q, ok := ft.Quick(0)
	require.True(t, ok)
	bs := ndarray.NewBorrowings()
	blk := bs.Next()
	_, ok = dlpack.BorrowChecked(blk, ft.DLTensor(), q)
	assert.False(t, ok, "five dimensions do not fit in a block")
	a, err := dlpack.Borrow(blk, ft.DLTensor(), 0) // Borrow takes them, with dims of their own
	require.NoError(t, err)
	assert.Equal(t, []int{2, 2, 2, 2, 2}, a.Shape())
	bs.Release(true)
}

// A call's set of blocks is reused once it is released with reuse set and each array in
// it held its storage's only reference; a set with a storage that a view still holds is
// not. Past four arrays a set makes blocks of its own.
func TestBorrowingsAreReused(t *testing.T) {
	checkLeaks(t)
	ft := dlpacktest.NewLegacy(f32Spec(6, []int64{6}, nil))
	defer ft.Free()
	fillSeq(ft)
	borrowAll := func(bs *ndarray.Borrowings, n int) []*ndarray.NDArray {
		arrays := make([]*ndarray.NDArray, n)
		for i := range arrays {
			a, err := dlpack.Borrow(bs.Next(), ft.DLTensor(), dlpack.FlagReadOnly)
			require.NoError(t, err)
			assert.Equal(t, []float64{0, 1, 2, 3, 4, 5}, values(t, a)) // a reused block is a whole new array
			arrays[i] = a
		}
		return arrays
	}
	first := ndarray.NewBorrowings()
	arrays := borrowAll(first, 6)
	require.Equal(t, 6, first.Len())
	for i, a := range arrays { // the last two in blocks of their own
		assert.Same(t, a, first.Array(i))
	}
	first.Release(true)
	reused := false
	for i := 0; i < 100 && !reused; i++ { // sync.Pool may drop an item; it keeps most
		bs := ndarray.NewBorrowings()
		reused = bs == first
		borrowAll(bs, 3)
		bs.Release(true)
	}
	assert.True(t, reused, "a released set came back")

	held := ndarray.NewBorrowings()
	arrays = borrowAll(held, 2)
	v, err := ndarray.View(arrays[1].Storage(), ndarray.Float32, []int{2}, []int{1}, 4, false) // holds the storage
	require.NoError(t, err)
	held.Release(true)
	for i := 0; i < 100; i++ {
		bs := ndarray.NewBorrowings()
		require.NotSame(t, held, bs, "a set whose storage is still viewed was reused")
		borrowAll(bs, 1)
		bs.Release(false)
	}
	assert.Equal(t, []float64{4, 5}, values(t, v))
	v.Release()
}

// Memory lent for one call cannot be exported: an export would outlive the call.
func TestBorrowedArraysAreNotExported(t *testing.T) {
	checkLeaks(t)
	ft := dlpacktest.NewLegacy(f32Spec(2, []int64{2}, nil))
	defer ft.Free()
	bs := ndarray.NewBorrowings()
	a, err := dlpack.Borrow(bs.Next(), ft.DLTensor(), 0)
	require.NoError(t, err)
	assert.True(t, a.Storage().Borrowed())
	_, err = dlpack.ExportVersioned(a, 0)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	_, err = dlpack.ExportLegacy(a)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	bs.Release(false)
}
