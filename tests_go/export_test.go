package mxgotest

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/dlpack/dlpacktest"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// exporter is one of the two export forms with its matching reader, deleter and import.
type exporter struct {
	name      string
	export    func(*ndarray.NDArray) (unsafe.Pointer, error)
	read      func(unsafe.Pointer) dlpacktest.Info
	delete    func(unsafe.Pointer)
	importer  func(unsafe.Pointer) (*ndarray.NDArray, error)
	versioned bool
}

var exporters = []exporter{
	{"legacy", dlpack.ExportLegacy, dlpacktest.ReadLegacy, dlpacktest.CallLegacyDeleter, dlpack.ImportLegacy, false},
	{"versioned", func(a *ndarray.NDArray) (unsafe.Pointer, error) { return dlpack.ExportVersioned(a, 0) },
		dlpacktest.ReadVersioned, dlpacktest.CallVersionedDeleter, dlpack.ImportVersioned, true},
}

func int64s(xs []int) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// checkLeaksAndExports is checkLeaks plus the same check for live exports.
func checkLeaksAndExports(t *testing.T) {
	t.Helper()
	checkLeaks(t)
	base := dlpack.LiveExports()
	t.Cleanup(func() { require.Equal(t, base, dlpack.LiveExports(), "exports leaked") })
}

// Views of a (3, 4, 5) int32 arange to export.
var exportViews = []struct {
	name string
	key  []ndarray.KeyItem
}{
	{"contiguous", nil},
	{"offset row", []ndarray.KeyItem{I(1)}},
	{"reversed", []ndarray.KeyItem{S(nil, nil, -1), all, S(nil, nil, -2)}},
	{"column", []ndarray.KeyItem{ellipsis, I(3)}},
	{"scalar", []ndarray.KeyItem{I(2), I(1), I(4)}},
	{"empty", []ndarray.KeyItem{S(2, 2, nil)}},
	{"new axis", []ndarray.KeyItem{newAxis, I(-1), S(1, 3, nil)}},
}

func TestExportFields(t *testing.T) {
	checkLeaksAndExports(t)
	base := arange(t, ndarray.Int32, 3, 4, 5)
	for _, ex := range exporters {
		for _, c := range exportViews {
			v := index(t, base, c.key...)
			refs, live := base.Storage().Refs(), dlpack.LiveExports()
			p, err := ex.export(v)
			require.NoError(t, err)
			assert.Equal(t, refs+1, base.Storage().Refs(), "an export holds a reference")
			assert.Equal(t, live+1, dlpack.LiveExports())

			in := ex.read(p)
			if v.Size() > 0 {
				assert.Equal(t, uintptr(v.Data()), in.Data, "%s %s: data is the first element", ex.name, c.name)
			}
			assert.NotZero(t, in.Data, "data is never NULL")
			assert.Equal(t, int32(1), in.DevType)
			assert.Equal(t, int32(0), in.DevID)
			assert.Equal(t, int32(v.NDim()), in.NDim)
			assert.Equal(t, []uint8{dlpack.CodeInt, 32}, []uint8{in.Code, in.Bits})
			assert.Equal(t, uint16(1), in.Lanes)
			assert.Equal(t, int64s(v.Shape()), in.Shape)
			assert.Equal(t, int64s(v.Strides()), in.Strides, "strides are always present")
			assert.Zero(t, in.ByteOffset, "offsets are folded into data")
			assert.True(t, in.HasDeleter)
			if ex.versioned {
				assert.Equal(t, dlpack.Version, in.Version)
				assert.Zero(t, in.Flags)
			}
			ex.delete(p)
			assert.Equal(t, refs, base.Storage().Refs(), "the deleter drops the reference")
			assert.Equal(t, live, dlpack.LiveExports())
		}
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	checkLeaksAndExports(t)
	for _, ex := range exporters {
		for _, c := range exportViews {
			base := arange(t, ndarray.Float64, 3, 4, 5)
			v := index(t, base, c.key...)
			p, err := ex.export(v)
			require.NoError(t, err)
			b, err := ex.importer(p)
			require.NoError(t, err, "%s %s", ex.name, c.name)
			assert.Equal(t, v.DType(), b.DType())
			assert.Equal(t, ints(v.Shape()), ints(b.Shape()))
			if v.Size() > 0 {
				assert.Equal(t, ints(v.Strides()), ints(b.Strides()))
				assert.Equal(t, v.Data(), b.Data(), "%s %s: zero copy", ex.name, c.name)
			}
			assert.Equal(t, values(t, v), values(t, b))
			assert.True(t, b.Writable())
			// Shared memory: a write through the import is seen by the original.
			require.NoError(t, ops.Fill(b, floatScalar(-1)))
			for _, x := range values(t, v) {
				assert.Equal(t, -1.0, x)
			}
			// Re-importing mxgo's own export gives a view of the same storage (and so the
			// same engine variable); the export itself ended at import.
			s := base.Storage()
			assert.Same(t, s, b.Storage(), "%s %s: own export imports as a view", ex.name, c.name)
			live, refs := dlpack.LiveExports(), s.Refs()
			b.Release()
			assert.Equal(t, live, dlpack.LiveExports())
			assert.Equal(t, refs-1, s.Refs())
		}
	}
}

// A re-import reads the tensor's fields again: one a consumer changed is refused with a
// BufferError, and the export is released all the same.
func TestExportReimportTampered(t *testing.T) {
	checkLeaksAndExports(t)
	base := arange(t, ndarray.Float32, 4, 5)
	cases := []struct {
		name       string
		delta      int
		ndim       int32
		byteOffset uint64
	}{
		{"data off the element grid", 1, 2, 0},
		{"data before the storage", -4, 2, 0},
		{"data past the storage", 4 * 20, 2, 0},
		{"ndim", 0, 3, 0},
		{"negative ndim", 0, -1, 0},
		{"byte_offset", 0, 2, 4},
	}
	for _, ex := range exporters {
		for _, c := range cases {
			refs, live := base.Storage().Refs(), dlpack.LiveExports()
			p, err := ex.export(base)
			require.NoError(t, err)
			dlpacktest.Tamper(p, ex.versioned, c.delta, c.ndim, c.byteOffset)
			b, err := ex.importer(p)
			assert.Nil(t, b)
			requireKind(t, err, mxerr.Buffer)
			assert.Equal(t, refs, base.Storage().Refs(), "%s %s: the export was released", ex.name, c.name)
			assert.Equal(t, live, dlpack.LiveExports())
		}
	}
}

func TestExportOutlivesArray(t *testing.T) {
	checkLeaksAndExports(t)
	for _, ex := range exporters {
		liveStorages := ndarray.LiveStorages()
		a := arange(t, ndarray.Uint8, 6)
		a2 := a.Share() // released below, before the consumer is done
		p, err := ex.export(a2)
		require.NoError(t, err)
		a2.Release()
		b, err := ex.importer(p)
		require.NoError(t, err)
		c, err := b.Index([]ndarray.KeyItem{S(nil, nil, -1)})
		require.NoError(t, err)
		b.Release()
		assert.Equal(t, []float64{5, 4, 3, 2, 1, 0}, values(t, c))
		// Re-exporting an import and importing it again keeps the same memory.
		p2, err := ex.export(c)
		require.NoError(t, err)
		d, err := ex.importer(p2)
		require.NoError(t, err)
		c.Release()
		assert.Equal(t, a.Data(), unsafe.Add(d.Data(), -5))
		assert.Equal(t, liveStorages+1, ndarray.LiveStorages(), "imports of mxgo's own exports are views of a")
		assert.Same(t, a.Storage(), d.Storage())
		d.Release()
		assert.Equal(t, liveStorages+1, ndarray.LiveStorages(), "only a is left")
	}
}

func TestExportReadOnly(t *testing.T) {
	checkLeaksAndExports(t)
	a := arange(t, ndarray.Float32, 4)
	r := a.ReadOnly()
	t.Cleanup(r.Release)

	p, err := dlpack.ExportVersioned(r, 0)
	require.NoError(t, err)
	assert.Equal(t, dlpack.FlagReadOnly, dlpacktest.ReadVersioned(p).Flags)
	b, err := dlpack.ImportVersioned(p)
	require.NoError(t, err)
	t.Cleanup(b.Release)
	assert.False(t, b.Writable())
	assert.Error(t, ops.Fill(b, floatScalar(1)))

	// Other flags pass through; a writable array is not marked read-only.
	p, err = dlpack.ExportVersioned(a, dlpack.FlagIsCopied)
	require.NoError(t, err)
	assert.Equal(t, dlpack.FlagIsCopied, dlpacktest.ReadVersioned(p).Flags)
	dlpacktest.CallVersionedDeleter(p)

	// Legacy tensors cannot say read-only, but an import of mxgo's own export is a view
	// of the exported array and keeps its read-only status.
	p, err = dlpack.ExportLegacy(r)
	require.NoError(t, err)
	c, err := dlpack.ImportLegacy(p)
	require.NoError(t, err)
	t.Cleanup(c.Release)
	assert.False(t, c.Writable())
}

func TestExportEveryDType(t *testing.T) {
	checkLeaksAndExports(t)
	for _, dt := range ndarray.DTypes() {
		a := arange(t, dt, 2, 3)
		p, err := dlpack.ExportVersioned(a, 0)
		require.NoError(t, err)
		in := dlpacktest.ReadVersioned(p)
		code, bits := dlpack.TypeOf(dt)
		assert.Equal(t, []uint8{code, bits}, []uint8{in.Code, in.Bits}, dt.String())
		b, err := dlpack.ImportVersioned(p)
		require.NoError(t, err)
		assert.Equal(t, dt, b.DType())
		assert.Equal(t, decode(a), decode(b), dt.String())
		b.Release()
	}
}
