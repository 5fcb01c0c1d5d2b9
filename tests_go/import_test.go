package mxgotest

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/dlpack/dlpacktest"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// producer makes a foreign tensor in one of the two forms and imports it.
type producer struct {
	name     string
	make     func(dlpacktest.Spec) *dlpacktest.Tensor
	importer func(unsafe.Pointer) (*ndarray.NDArray, error)
}

var producers = []producer{
	{"legacy", dlpacktest.NewLegacy, dlpack.ImportLegacy},
	{"versioned", dlpacktest.NewVersioned, dlpack.ImportVersioned},
}

// foreign builds a tensor whose C memory is freed when the test ends.
func foreign(t *testing.T, p producer, s dlpacktest.Spec) *dlpacktest.Tensor {
	ft := p.make(s)
	t.Cleanup(ft.Free)
	return ft
}

// float32 tensor specs over a buffer holding 0, 1, 2, ... (written by the test).
func f32Spec(nelem int, shape, strides []int64) dlpacktest.Spec {
	return dlpacktest.Spec{NBytes: 4 * nelem, NDim: int32(len(shape)), Code: dlpack.CodeFloat, Bits: 32, Shape: shape, Strides: strides}
}

func fillSeq(ft *dlpacktest.Tensor) {
	buf := unsafe.Slice((*float32)(ft.Buffer()), len(ft.Bytes())/4)
	for i := range buf {
		buf[i] = float32(i)
	}
}

func TestImportLayouts(t *testing.T) {
	checkLeaks(t)
	cases := []struct {
		name           string
		spec           dlpacktest.Spec
		shape, strides []int
		dataOffset     int // bytes from the buffer to the first element
		want           []float64
	}{
		{"NULL strides", f32Spec(6, []int64{2, 3}, nil), []int{2, 3}, []int{3, 1}, 0, seq(6)},
		{"explicit strides (Fortran order)", f32Spec(6, []int64{2, 3}, []int64{1, 2}), []int{2, 3}, []int{1, 2}, 0, []float64{0, 2, 4, 1, 3, 5}},
		{"byte_offset", withByteOffset(f32Spec(8, []int64{3}, nil), 8), []int{3}, []int{1}, 8, []float64{2, 3, 4}},
		{"0-d with NULL shape", f32Spec(1, nil, nil), []int{}, []int{}, 0, []float64{0}},
		{"negative strides", withDataOffset(f32Spec(6, []int64{2, 3}, []int64{-3, -1}), 20), []int{2, 3}, []int{-3, -1}, 20, []float64{5, 4, 3, 2, 1, 0}},
		{"mixed strides with byte_offset", withByteOffset(f32Spec(12, []int64{3, 2}, []int64{-4, 2}), 32), []int{3, 2}, []int{-4, 2}, 32, []float64{8, 10, 4, 6, 0, 2}},
		{"size-1 dims with odd strides", f32Spec(4, []int64{1, 4, 1}, []int64{1, 1, 99}), []int{1, 4, 1}, []int{1, 1, 99}, 0, seq(4)},
		{"broadcast (zero stride)", f32Spec(2, []int64{3, 2}, []int64{0, 1}), []int{3, 2}, []int{0, 1}, 0, []float64{0, 1, 0, 1, 0, 1}},
	}
	for _, p := range producers {
		for _, c := range cases {
			t.Run(p.name+"/"+c.name, func(t *testing.T) {
				ft := foreign(t, p, c.spec)
				fillSeq(ft)
				a, err := p.importer(ft.Ptr())
				require.NoError(t, err)
				assert.Equal(t, c.shape, ints(a.Shape()))
				assert.Equal(t, c.strides, ints(a.Strides()))
				assert.Equal(t, unsafe.Add(ft.Buffer(), c.dataOffset), a.Data(), "zero copy")
				assert.Equal(t, c.want, values(t, a))
				assert.Equal(t, ndarray.Float32, a.DType())
				assert.True(t, a.Writable())
				assert.Equal(t, 0, ft.DeleterCalls())
				a.Release()
				assert.Equal(t, 1, ft.DeleterCalls())
			})
		}
	}
}

func withByteOffset(s dlpacktest.Spec, n uint64) dlpacktest.Spec  { s.ByteOffset = n; return s }
func withDataOffset(s dlpacktest.Spec, n uintptr) dlpacktest.Spec { s.DataOffset = n; return s }

func TestImportEmptyWithNullData(t *testing.T) {
	checkLeaksAndExports(t)
	for _, p := range producers {
		ft := foreign(t, p, f32Spec(0, []int64{0, 3}, nil))
		a, err := p.importer(ft.Ptr())
		require.NoError(t, err)
		assert.Equal(t, []int{0, 3}, a.Shape())
		assert.Equal(t, 0, a.Size())
		assert.Empty(t, values(t, a))
		require.NoError(t, ops.Fill(a, floatScalar(1)))
		// Re-exporting it gives consumers a non-NULL pointer.
		e, err := dlpack.ExportLegacy(a)
		require.NoError(t, err)
		assert.NotZero(t, dlpacktest.ReadLegacy(e).Data)
		dlpacktest.CallLegacyDeleter(e)
		require.NoError(t, ops.WaitToWrite(a)) // the queued fill holds a reference
		a.Release()
		assert.Equal(t, 1, ft.DeleterCalls())
	}
}

func TestImportDeleterRunsAfterLastView(t *testing.T) {
	checkLeaks(t)
	for _, p := range producers {
		ft := foreign(t, p, f32Spec(12, []int64{3, 4}, nil))
		fillSeq(ft)
		a, err := p.importer(ft.Ptr())
		require.NoError(t, err)
		v, err := a.Index([]ndarray.KeyItem{S(nil, nil, -1), I(2)})
		require.NoError(t, err)
		w := v.Share()
		a.Release()
		assert.Equal(t, 0, ft.DeleterCalls(), "views keep the producer's tensor")
		assert.Equal(t, []float64{10, 6, 2}, values(t, v))
		v.Release()
		assert.Equal(t, 0, ft.DeleterCalls())
		w.Release()
		assert.Equal(t, 1, ft.DeleterCalls())
	}
}

func TestImportVersionedReadOnly(t *testing.T) {
	checkLeaks(t)
	s := f32Spec(3, []int64{3}, nil)
	s.Flags = dlpack.FlagReadOnly | dlpack.FlagIsCopied
	ft := foreign(t, producers[1], s)
	a, err := dlpack.ImportVersioned(ft.Ptr())
	require.NoError(t, err)
	t.Cleanup(a.Release)
	assert.False(t, a.Writable())
	requireKind(t, ops.Fill(a, floatScalar(1)), mxerr.Value, "read-only")
	// Older minor versions and major 0 are accepted.
	for _, v := range [][2]uint32{{1, 0}, {0, 8}, {1, 99}} {
		s := f32Spec(1, nil, nil)
		s.Version = v
		ft := foreign(t, producers[1], s)
		b, err := dlpack.ImportVersioned(ft.Ptr())
		require.NoError(t, err, "version %v", v)
		b.Release()
		assert.Equal(t, 1, ft.DeleterCalls())
	}
}

func TestImportLegacyMXNetBool(t *testing.T) {
	checkLeaks(t)
	ft := foreign(t, producers[0], dlpacktest.Spec{NBytes: 3, NDim: 1, Code: dlpack.CodeUInt, Bits: 1, Shape: []int64{3}})
	copy(ft.Bytes(), []byte{1, 0, 1})
	a, err := dlpack.ImportLegacy(ft.Ptr())
	require.NoError(t, err)
	t.Cleanup(a.Release)
	assert.Equal(t, ndarray.Bool, a.DType())
	assert.Equal(t, []float64{1, 0, 1}, values(t, a))
}

// Page-locked host memory (kDLCUDAHost) is host memory: imported as cpu_pinned, read and
// written by CPU code, with no driver involved.
func TestImportCUDAHost(t *testing.T) {
	checkLeaks(t)
	for _, p := range producers {
		s := f32Spec(3, []int64{3}, nil)
		s.DevType = 3
		ft := foreign(t, p, s)
		fillSeq(ft)
		a, err := p.importer(ft.Ptr())
		require.NoError(t, err, p.name)
		assert.Equal(t, device.Device{Type: device.CUDAHost, ID: 0}, a.Device())
		assert.True(t, a.Storage().OnHost())
		assert.Equal(t, []float64{0, 1, 2}, values(t, a))
		a.Release()
		assert.Equal(t, 1, ft.DeleterCalls())
	}
}

func TestImportInvalid(t *testing.T) {
	checkLeaks(t)
	ok := f32Spec(8, []int64{2, 4}, nil)
	mod := func(f func(*dlpacktest.Spec)) dlpacktest.Spec {
		s := ok
		s.Shape = append([]int64(nil), ok.Shape...)
		f(&s)
		return s
	}
	cases := []struct {
		name      string
		spec      dlpacktest.Spec
		fragment  string
		versioned bool // only meaningful for versioned tensors
	}{
		{"unknown dtype code", mod(func(s *dlpacktest.Spec) { s.Code = 100 }), "dtype.code", false},
		{"opaque handle", mod(func(s *dlpacktest.Spec) { s.Code = dlpack.CodeOpaque }), "dtype.code", false},
		{"lanes 2", mod(func(s *dlpacktest.Spec) { s.Lanes = 2 }), "dtype.lanes", false},
		{"bits mismatch", mod(func(s *dlpacktest.Spec) { s.Bits = 24 }), "dtype.bits", false},
		{"negative dim", mod(func(s *dlpacktest.Spec) { s.Shape[1] = -4 }), "shape", false},
		{"ndim -1", mod(func(s *dlpacktest.Spec) { s.NDim = -1 }), "ndim", false},
		{"ndim 65", mod(func(s *dlpacktest.Spec) { s.NDim = 65 }), "ndim", false},
		{"NULL shape", mod(func(s *dlpacktest.Spec) { s.Shape = nil }), "shape", false},
		{"element overflow", mod(func(s *dlpacktest.Spec) { s.Shape = []int64{1 << 40, 1 << 40} }), "shape", false},
		{"span overflow", mod(func(s *dlpacktest.Spec) { s.Shape = []int64{2, 1 << 62} }), "shape", false},
		{"stride overflow", mod(func(s *dlpacktest.Spec) { s.Strides = []int64{math.MaxInt64, 1} }), "strides", false},
		{"negative strides below address 0", mod(func(s *dlpacktest.Spec) { s.Strides = []int64{-(1 << 60), 1} }), "strides", false},
		{"NULL data", mod(func(s *dlpacktest.Spec) { s.NBytes = 0 }), "data", false},
		{"byte_offset overflow", mod(func(s *dlpacktest.Spec) { s.ByteOffset = 1 << 63 }), "byte_offset", false},
		{"CUDA device", mod(func(s *dlpacktest.Spec) { s.DevType = 2 }), "device", false},
		{"OpenCL device", mod(func(s *dlpacktest.Spec) { s.DevType = 4 }), "device", false},
		{"CUDA managed device", mod(func(s *dlpacktest.Spec) { s.DevType = 13 }), "device", false},
		{"lanes 0", mod(func(s *dlpacktest.Spec) { raw(s); s.Lanes = 0 }), "dtype.lanes", false},
		{"device_type 0", mod(func(s *dlpacktest.Spec) { raw(s); s.DevType = 0 }), "device", false},
		{"major version 2", mod(func(s *dlpacktest.Spec) { s.Version = [2]uint32{2, 0} }), "version", true},
	}
	for _, p := range producers {
		for _, c := range cases {
			if c.versioned && p.name != "versioned" {
				continue
			}
			t.Run(p.name+"/"+c.name, func(t *testing.T) {
				live := ndarray.LiveStorages()
				ft := foreign(t, p, c.spec)
				a, err := p.importer(ft.Ptr())
				requireKind(t, err, mxerr.Buffer, c.fragment)
				assert.Nil(t, a)
				assert.Equal(t, 1, ft.DeleterCalls(), "a refused tensor is deleted exactly once")
				assert.Equal(t, live, ndarray.LiveStorages())
			})
		}
	}
	_, err := dlpack.ImportLegacy(nil)
	requireKind(t, err, mxerr.Buffer, "NULL")
	_, err = dlpack.ImportVersioned(nil)
	requireKind(t, err, mxerr.Buffer, "NULL")
}

// raw makes a spec literal: zeros set after it are not replaced by defaults.
func raw(s *dlpacktest.Spec) {
	s.Raw, s.DevType, s.Lanes, s.Version = true, 1, 1, dlpack.Version
}

func TestNewArray(t *testing.T) {
	checkLeaks(t)
	mem := arange(t, ndarray.Int16, 6)
	calls := 0
	d := dlpack.Desc{Data: uintptr(mem.Data()), Device: mem.Device(), NDim: 2, Code: dlpack.CodeInt, Bits: 16, Lanes: 1,
		Shape: []int64{3, 2}, Strides: []int64{-2, 1}, ByteOffset: 8}
	a, err := dlpack.NewArray(mem.Data(), d, func() { calls++ })
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 5, 2, 3, 0, 1}, values(t, a))
	assert.Equal(t, mem.Data(), a.Storage().Ptr())
	a.Release()
	assert.Equal(t, 1, calls)
	d.Lanes = 4
	_, err = dlpack.NewArray(mem.Data(), d, func() { calls++ })
	requireKind(t, err, mxerr.Buffer, "lanes")
	assert.Equal(t, 2, calls)
}
