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
			ft := dlpacktest.NewLegacy(f32Spec(6, c.shape, c.strides)) // dl_tensor first: a DLTensor*
			defer ft.Free()
			fillSeq(ft)
			a, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
			require.NoError(t, err)
			assert.Equal(t, c.want, values(t, a))
			assert.Equal(t, c.wantStrides, a.Strides())
			assert.False(t, a.Writable())
			a.Release()
			assert.Equal(t, 0, ft.DeleterCalls()) // borrowed: the producer's tensor is left alone
		})
	}
}

func TestBorrowRefuses(t *testing.T) {
	checkLeaks(t)
	_, err := dlpack.Borrow(nil, 0)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	for name, s := range map[string]dlpacktest.Spec{
		"ndim 65":    {NBytes: 4, NDim: 65, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{1}},
		"null shape": {NBytes: 4, NDim: 2, Code: dlpack.CodeFloat, Bits: 32},
		"negative":   {NBytes: 4, NDim: 1, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{-1}},
		"gpu":        {NBytes: 4, NDim: 1, DevType: 2, Code: dlpack.CodeFloat, Bits: 32, Shape: []int64{1}},
	} {
		ft := dlpacktest.NewLegacy(s)
		_, err := dlpack.Borrow(ft.Ptr(), 0)
		assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err), name)
		assert.Equal(t, 0, ft.DeleterCalls(), name)
		ft.Free()
	}
}

// A borrowed array's block is reused once it is released with reuse set and nothing else
// holds its storage; a block whose storage a view still holds is not.
func TestBorrowBlocksAreReused(t *testing.T) {
	checkLeaks(t)
	ft := dlpacktest.NewLegacy(f32Spec(6, []int64{6}, nil))
	defer ft.Free()
	fillSeq(ft)
	a, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
	require.NoError(t, err)
	ndarray.ReleaseBorrowed(a, true)
	reused := false
	for i := 0; i < 100 && !reused; i++ { // sync.Pool may drop an item; it keeps most
		b, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
		require.NoError(t, err)
		reused = b == a
		assert.Equal(t, []float64{0, 1, 2, 3, 4, 5}, values(t, b)) // a reused block is a whole new array
		ndarray.ReleaseBorrowed(b, true)
	}
	assert.True(t, reused, "a released block came back")

	c, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
	require.NoError(t, err)
	v, err := ndarray.View(c.Storage(), ndarray.Float32, []int{2}, []int{1}, 4, false) // holds the storage
	require.NoError(t, err)
	ndarray.ReleaseBorrowed(c, true)
	for i := 0; i < 100; i++ {
		d, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
		require.NoError(t, err)
		require.NotSame(t, c, d, "a block whose storage is still viewed was reused")
		ndarray.ReleaseBorrowed(d, false)
	}
	assert.Equal(t, []float64{4, 5}, values(t, v))
	v.Release()
}

// Memory lent for one call cannot be exported: an export would outlive the call.
func TestBorrowedArraysAreNotExported(t *testing.T) {
	checkLeaks(t)
	ft := dlpacktest.NewLegacy(f32Spec(2, []int64{2}, nil))
	defer ft.Free()
	a, err := dlpack.Borrow(ft.Ptr(), 0)
	require.NoError(t, err)
	assert.True(t, a.Storage().Borrowed())
	_, err = dlpack.ExportVersioned(a, 0)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	_, err = dlpack.ExportLegacy(a)
	assert.Equal(t, mxerr.Buffer, mxerr.KindOf(err))
	ndarray.ReleaseBorrowed(a, false)
}
