package mxgotest

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/elemwise"
)

func TestEmpty(t *testing.T) {
	checkLeaks(t)
	for _, dt := range ndarray.DTypes() {
		for _, shape := range [][]int{{}, {0}, {7}, {3, 5}, {2, 0, 4}, {1, 1, 9}} {
			a := empty(t, dt, shape...)
			n, err := ndarray.Size(shape)
			require.NoError(t, err)
			assert.Equal(t, n, a.Size())
			assert.Equal(t, shape, ints(a.Shape()))
			assert.Equal(t, ndarray.ContiguousStrides(shape), ints(a.Strides()))
			assert.Equal(t, len(shape), a.NDim())
			assert.Equal(t, 0, a.Offset())
			assert.Equal(t, dt, a.DType())
			assert.Equal(t, device.Host, a.Device())
			assert.True(t, a.Writable())
			assert.True(t, a.Contiguous())
			assert.NotNil(t, a.Data(), "even empty arrays have a data pointer")
			assert.Zero(t, uintptr(a.Data())%ndarray.HostAlign, "data is %d-byte aligned", ndarray.HostAlign)
			assert.GreaterOrEqual(t, a.Storage().Bytes(), n*dt.Size())
			assert.EqualValues(t, 1, a.Storage().Refs())
			// Every byte is writable and reads back.
			buf := unsafe.Slice((*byte)(a.Data()), n*dt.Size())
			for i := range buf {
				buf[i] = byte(i * 7)
			}
			for i := range buf {
				require.Equal(t, byte(i*7), buf[i])
			}
		}
	}
}

func TestEmptyErrors(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		name  string
		dt    ndarray.DType
		shape []int
		dev   device.Device
		kind  mxerr.Kind
	}{
		{"invalid dtype", ndarray.DType(99), []int{2}, device.Host, mxerr.Type},
		{"gpu", ndarray.Float32, []int{2}, device.Device{Type: device.CUDA}, mxerr.MXNet},
		{"negative dim", ndarray.Float32, []int{2, -1}, device.Host, mxerr.Value},
		{"65 dims", ndarray.Float32, make([]int, 65), device.Host, mxerr.Value},
		{"element overflow", ndarray.Float32, []int{math.MaxInt / 2, 3}, device.Host, mxerr.Value},
		{"byte overflow", ndarray.Float64, []int{math.MaxInt / 4}, device.Host, mxerr.Memory},
	}
	for _, c := range cases {
		a, err := ndarray.Empty(c.dt, c.shape, c.dev)
		requireKind(t, err, c.kind)
		assert.Nil(t, a, c.name)
	}
	_, err := ndarray.Empty(ndarray.Float32, []int{1}, device.Device{Type: device.CUDA, ID: 1})
	assert.Contains(t, err.Error(), "gpu(1)")
}

func TestEmptyCopiesShape(t *testing.T) {
	checkLeaks(t)
	shape := []int{2, 3}
	a := empty(t, ndarray.Int8, shape...)
	shape[0] = 100
	assert.Equal(t, []int{2, 3}, a.Shape())
}

func TestViewsShareStorage(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int32, 4, 6)
	col := index(t, a, all, I(2))                     // a[:, 2]
	rev := index(t, a, S(nil, nil, -1), S(1, nil, 2)) // a[::-1, 1::2]
	require.EqualValues(t, 3, a.Storage().Refs())
	require.NoError(t, ops.Fill(col, intScalar(-1)))
	require.NoError(t, ops.Fill(rev, intScalar(-2)))
	require.NoError(t, ops.WaitToRead(a)) // the fills run on the engine
	got := unsafe.Slice((*int32)(a.Data()), 24)
	for i, v := range got {
		r, c := i/6, i%6
		want := int32(i)
		switch {
		case c%2 == 1:
			want = -2
		case c == 2:
			want = -1
		}
		assert.Equal(t, want, v, "a[%d,%d]", r, c)
	}
	assert.Equal(t, []int32{-1, -1, -1, -1}, rawValues[int32](col))
}

func TestReleaseOrder(t *testing.T) {
	base := ndarray.LiveStorages()
	a, err := ndarray.Empty(ndarray.Float64, []int{10}, device.Host)
	require.NoError(t, err)
	require.NoError(t, ops.Arange(a, 0, 1))
	require.NoError(t, ops.WaitToRead(a)) // the queued kernel holds a reference until done
	assert.Equal(t, base+1, ndarray.LiveStorages())
	v, err := a.Index([]ndarray.KeyItem{S(2, 8, 3)})
	require.NoError(t, err)
	w := v.Share()
	s := a.Storage()
	assert.EqualValues(t, 3, s.Refs())
	a.Release()
	assert.EqualValues(t, 2, s.Refs())
	assert.Equal(t, base+1, ndarray.LiveStorages(), "views keep the storage")
	assert.Equal(t, []float64{2, 5}, rawValues[float64](v), "a view outlives its parent")
	v.Release()
	assert.Equal(t, []float64{2, 5}, rawValues[float64](w))
	w.Release()
	assert.Equal(t, base, ndarray.LiveStorages())
	assert.PanicsWithValue(t, "ndarray: double release", a.Release)
	assert.PanicsWithValue(t, "ndarray: double release", w.Release)
}

func TestForeignStorageReleasedOnce(t *testing.T) {
	checkLeaks(t)
	calls := 0
	mem := empty(t, ndarray.Uint8, 16) // some memory to point at
	s := ndarray.NewForeignStorage(mem.Data(), 16, device.Host, func() { calls++ })
	a, err := ndarray.Adopt(s, ndarray.Uint16, []int{8}, []int{1}, 0, false)
	require.NoError(t, err)
	assert.False(t, a.Writable())
	b, err := ndarray.View(s, ndarray.Uint8, []int{4, 4}, []int{1, 4}, 0, true)
	require.NoError(t, err)
	_, err = ndarray.View(s, ndarray.Uint8, []int{17}, []int{1}, 0, true)
	requireKind(t, err, mxerr.Index)
	assert.EqualValues(t, 2, s.Refs(), "a failed View takes no reference")
	a.Release()
	assert.Equal(t, 0, calls)
	b.Release()
	assert.Equal(t, 1, calls)
	assert.Panics(t, func() { ndarray.ReleaseStorage(s) }, "released more often than retained")
	assert.Equal(t, 1, calls)
}

func TestReadOnly(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float32, 3)
	r := a.ReadOnly()
	t.Cleanup(r.Release)
	assert.False(t, r.Writable())
	assert.True(t, a.Writable())
	requireKind(t, r.CheckWritable(), mxerr.Value, "read-only")
	requireKind(t, ops.Fill(r, floatScalar(1)), mxerr.Value, "read-only")
	requireKind(t, ops.Copy(r, a), mxerr.Value, "read-only")
	requireKind(t, elemwise.BinaryScalar(elemwise.Add, r, a, floatScalar(1), false), mxerr.Value, "read-only")
	v := index(t, r, S(1, nil, nil))
	assert.False(t, v.Writable(), "views of read-only arrays are read-only")
	assert.Equal(t, []float64{0, 1, 2}, values(t, r))
	assert.Contains(t, r.String(), "float32")
	assert.Contains(t, r.String(), "cpu(0)")
}

func TestReshapeContiguousIsView(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int16, 2, 3, 4)
	cases := []struct{ in, want []int }{
		{[]int{24}, []int{24}},
		{[]int{4, -1}, []int{4, 6}},
		{[]int{-1, 2, 3}, []int{4, 2, 3}},
		{[]int{1, 24, 1}, []int{1, 24, 1}},
		{[]int{2, 3, 4}, []int{2, 3, 4}},
	}
	for _, c := range cases {
		r, err := a.Reshape(c.in)
		require.NoError(t, err)
		t.Cleanup(r.Release)
		assert.Equal(t, c.want, r.Shape())
		assert.Same(t, a.Storage(), r.Storage(), "reshape of a contiguous array is a view")
		assert.Equal(t, seq(24), values(t, r))
	}
	// A contiguous view at an offset reshapes in place too.
	row := index(t, a, I(1))
	r, err := row.Reshape([]int{12})
	require.NoError(t, err)
	t.Cleanup(r.Release)
	assert.Same(t, a.Storage(), r.Storage())
	assert.Equal(t, 12, r.Offset())
	// 0-d and empty arrays.
	s := index(t, a, I(0), I(0), I(0))
	r1, err := s.Reshape([]int{1, 1})
	require.NoError(t, err)
	t.Cleanup(r1.Release)
	assert.Equal(t, []int{1, 1}, r1.Shape())
	e := empty(t, ndarray.Int16, 0, 3)
	r2, err := e.Reshape([]int{3, 0, 5})
	require.NoError(t, err)
	t.Cleanup(r2.Release)
	assert.Equal(t, []int{3, 0, 5}, r2.Shape())
}

func TestReshapeNonContiguousCopies(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float64, 3, 4)
	cases := []struct {
		name  string
		key   []ndarray.KeyItem
		shape []int
		want  []float64
	}{
		{"a[:, ::2]", []ndarray.KeyItem{all, S(nil, nil, 2)}, []int{6}, []float64{0, 2, 4, 6, 8, 10}},
		{"a[::-1]", []ndarray.KeyItem{S(nil, nil, -1)}, []int{2, -1}, []float64{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}},
		{"a[:, 1]", []ndarray.KeyItem{all, I(1)}, []int{3, 1}, []float64{1, 5, 9}},
		{"a[1:, ::-3]", []ndarray.KeyItem{S(1, nil, nil), S(nil, nil, -3)}, []int{-1}, []float64{7, 4, 11, 8}},
	}
	for _, c := range cases {
		v := index(t, a, c.key...)
		require.False(t, v.Contiguous(), c.name)
		_, err := v.Reshape(c.shape)
		require.ErrorIs(t, err, ndarray.ErrNotContiguous, c.name)
		r, err := ops.Reshape(v, c.shape)
		require.NoError(t, err, c.name)
		t.Cleanup(r.Release)
		assert.NotSame(t, a.Storage(), r.Storage(), c.name)
		assert.True(t, r.Contiguous())
		assert.Equal(t, c.want, rawValues[float64](r), c.name)
	}
}

func TestReshapeErrors(t *testing.T) {
	checkLeaks(t)
	a := empty(t, ndarray.Float32, 2, 6)
	for _, shape := range [][]int{{5}, {13}, {-1, 5}, {-1, -1}, {3, -2}, {0, -1}, {math.MaxInt, 2}, make([]int, 65)} {
		r, err := a.Reshape(shape)
		requireKind(t, err, mxerr.Value)
		assert.Nil(t, r)
	}
	e := empty(t, ndarray.Float32, 0)
	_, err := e.Reshape([]int{0, -1})
	requireKind(t, err, mxerr.Value, "cannot reshape")
}

// Small storages come from a pool of C slabs (ndarray/small.go): every block must be
// 64-byte aligned, private to its array, and reusable once released.
func TestSmallStoragePool(t *testing.T) {
	checkLeaks(t)
	for round := 0; round < 2; round++ {
		var arrs []*ndarray.NDArray
		seen := map[uintptr]bool{}
		for i := 0; i < 600; i++ { // more than one 64 KiB slab's 256 blocks
			n := 1 + i%64 // up to 256 bytes of float32
			a, err := ndarray.Empty(ndarray.Float32, []int{n}, device.Host)
			require.NoError(t, err)
			p := uintptr(a.Data())
			require.Zero(t, p%ndarray.HostAlign, "alignment")
			require.False(t, seen[p], "two live arrays share a block")
			seen[p] = true
			vals := unsafe.Slice((*float32)(a.Data()), n)
			for j := range vals {
				vals[j] = float32(i)
			}
			arrs = append(arrs, a)
		}
		for i, a := range arrs {
			for _, v := range unsafe.Slice((*float32)(a.Data()), a.Size()) {
				require.Equal(t, float32(i), v, "a block was overwritten by another array")
			}
			a.Release()
		}
	}
}

// Overlaps compares addresses, not storages: two foreign storages over the same memory
// (two imports of one producer's buffer) overlap where their views do, and storages
// side by side in one buffer do not.
func TestOverlapsAcrossStorages(t *testing.T) {
	checkLeaks(t)
	mem := empty(t, ndarray.Float32, 16) // released by its cleanup
	view := func(ptr unsafe.Pointer, nbytes, n, off int) *ndarray.NDArray {
		s := ndarray.NewForeignStorage(ptr, nbytes, device.Host, nil)
		a, err := ndarray.Adopt(s, ndarray.Float32, []int{n}, []int{1}, off, true)
		require.NoError(t, err)
		return a
	}
	p := mem.Data()
	whole, again := view(p, 64, 16, 0), view(p, 64, 4, 12) // the same 64 bytes, imported twice
	low, high := view(p, 32, 8, 0), view(unsafe.Add(p, 32), 32, 8, 0)
	for _, c := range []struct {
		a, b *ndarray.NDArray
		want bool
	}{{whole, again, true}, {again, whole, true}, {low, high, false}, {high, low, false},
		{whole, high, true}, {again, low, false}, {again, high, true}} {
		assert.Equal(t, c.want, ndarray.Overlaps(c.a, c.b))
	}
	for _, a := range []*ndarray.NDArray{whole, again, low, high} {
		a.Release()
	}
}
