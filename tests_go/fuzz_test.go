package mxgotest

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// decodeInt64s reads little-endian int64s, 8 bytes each (a short tail is dropped).
func decodeInt64s(b []byte) []int64 {
	out := make([]int64, 0, len(b)/8)
	for ; len(b) >= 8; b = b[8:] {
		out = append(out, int64(binary.LittleEndian.Uint64(b)))
	}
	return out
}

func encodeInt64s(xs ...int64) []byte {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	return b
}

// checkValidated asserts the promises of a successful Validate: the layout's elements
// all lie in [Base, Base+NBytes), the first one is at Data+ByteOffset, and ndarray
// agrees that the layout fits a storage of NBytes.
func checkValidated(t *testing.T, d dlpack.Desc, l dlpack.Layout) {
	dt, err := dlpack.FromType(d.Code, d.Bits, d.Lanes)
	require.NoError(t, err)
	require.Equal(t, dt, l.DType)
	require.Len(t, l.Shape, int(d.NDim))
	require.Len(t, l.Strides, int(d.NDim))
	require.Equal(t, d.Flags&dlpack.FlagReadOnly != 0, l.ReadOnly)
	require.GreaterOrEqual(t, l.Offset, 0)
	require.GreaterOrEqual(t, l.NBytes, 0)
	require.GreaterOrEqual(t, uint64(l.Base)+uint64(l.NBytes), uint64(l.Base), "Base+NBytes overflows")
	n, err := ndarray.Size(l.Shape)
	require.NoError(t, err)
	if n == 0 {
		require.Zero(t, l.NBytes)
		return
	}
	size := dt.Size()
	require.Zero(t, l.NBytes%size)
	lo, hi, err := ndarray.Extent(l.Shape, l.Strides)
	require.NoError(t, err)
	require.GreaterOrEqual(t, l.Offset+lo, 0, "lowest element before Base")
	require.LessOrEqual(t, l.Offset+hi, l.NBytes/size-1, "highest element past NBytes")
	require.Equal(t, uint64(d.Data)+d.ByteOffset, uint64(l.Base)+uint64(l.Offset*size), "first element address")
	s := ndarray.NewForeignStorage(nil, l.NBytes, device.Host, nil) // never dereferenced
	defer ndarray.ReleaseStorage(s)
	require.NoError(t, ndarray.CheckLayout(s, dt, l.Shape, l.Strides, l.Offset))
}

func FuzzValidate(f *testing.F) {
	// data, devType, ndim, code, bits, lanes, shape, strides, stridesNull, byteOffset, flags
	f.Add(uint64(0x10000), int32(1), int32(2), uint8(2), uint8(32), uint16(1), encodeInt64s(2, 3), []byte(nil), true, uint64(0), uint64(0))
	f.Add(uint64(0x10040), int32(1), int32(2), uint8(2), uint8(64), uint16(1), encodeInt64s(3, 4), encodeInt64s(-4, 1), false, uint64(8), uint64(1))
	f.Add(uint64(0x10000), int32(1), int32(0), uint8(0), uint8(8), uint16(1), []byte(nil), []byte(nil), true, uint64(0), uint64(0))
	f.Add(uint64(0), int32(1), int32(1), uint8(5), uint8(128), uint16(1), encodeInt64s(0), encodeInt64s(1), false, uint64(0), uint64(2))
	f.Add(uint64(0x10000), int32(1), int32(2), uint8(2), uint8(32), uint16(1), encodeInt64s(2, 2), encodeInt64s(math.MaxInt64, math.MinInt64), false, uint64(0), uint64(0))
	f.Add(uint64(math.MaxUint64-7), int32(1), int32(1), uint8(1), uint8(8), uint16(1), encodeInt64s(2), encodeInt64s(-1), false, uint64(0), uint64(0))
	f.Add(uint64(8), int32(1), int32(3), uint8(4), uint8(16), uint16(1), encodeInt64s(1, 5, 1), encodeInt64s(9, -1, 0), false, uint64(1<<62), uint64(0))
	f.Fuzz(func(t *testing.T, data uint64, devType, ndim int32, code, bits uint8, lanes uint16,
		shapeBytes, strideBytes []byte, stridesNull bool, byteOffset, flags uint64) {
		d := dlpack.Desc{
			Data: uintptr(data), Device: device.Device{Type: device.Type(devType)}, NDim: ndim,
			Code: code, Bits: bits, Lanes: lanes, ByteOffset: byteOffset, Flags: flags,
		}
		if len(shapeBytes) > 0 {
			d.Shape = decodeInt64s(shapeBytes)
		}
		if !stridesNull {
			d.Strides = decodeInt64s(strideBytes)
		}
		l, err := dlpack.Validate(d)
		q, quick := dlpack.QuickCheck(d)
		if err != nil {
			require.Equal(t, mxerr.Buffer, mxerr.KindOf(err), "%v", err)
			require.False(t, quick, "C's quick check accepted what Validate refuses: %v", err)
			return
		}
		checkValidated(t, d, l)
		if quick { // C made the array; Go adopts it later from what C saw
			require.Equal(t, l.DType, q.DType)
			require.Equal(t, !l.ReadOnly, q.Writable)
			require.Equal(t, uint64(l.Base)+uint64(l.Offset*l.DType.Size()), uint64(q.First), "first element")
			require.Equal(t, int64s(l.Strides), q.Strides)
			require.Equal(t, int64(l.Offset), -q.Lo, "elements before the first") // what BorrowChecked adopts
			require.Equal(t, int64(l.NBytes), q.Span*int64(l.DType.Size()), "bytes spanned")
		}
	})
}

// The case FuzzValidate found: a span of exactly 2^64 elements wrapped to 0.
func TestValidateSpanWrap(t *testing.T) {
	d := dlpack.Desc{Data: 0x10000, Device: device.Host, NDim: 2, Code: dlpack.CodeFloat, Bits: 32, Lanes: 1,
		Shape: []int64{2, 2}, Strides: []int64{math.MaxInt64, math.MinInt64}}
	_, err := dlpack.Validate(d)
	requireKind(t, err, mxerr.Buffer, "shape")
}

// The tensors most producers make take C's quick path (mxgo_dl_quick_check), which
// FuzzValidate holds to Validate's judgement; the rest go to Go.
func TestQuickCheck(t *testing.T) {
	f32 := func(shape, strides []int64) dlpack.Desc {
		return dlpack.Desc{Data: 0x10000, Device: device.Host, NDim: int32(len(shape)), Code: dlpack.CodeFloat,
			Bits: 32, Lanes: 1, Shape: shape, Strides: strides}
	}
	with := func(d dlpack.Desc, f func(*dlpack.Desc)) dlpack.Desc { f(&d); return d }
	accepted := map[string]dlpack.Desc{
		"contiguous":       f32([]int64{3, 4}, []int64{4, 1}),
		"NULL strides":     f32([]int64{3, 4}, nil),
		"negative strides": f32([]int64{3, 4}, []int64{-4, 1}),
		"size-1 dims":      f32([]int64{1, 3, 1}, []int64{7, 1, 9}),
		"device id":        with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Device.ID = 3 }),
		"byte offset":      with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.ByteOffset = 64 }),
		"read-only":        with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Flags = dlpack.FlagReadOnly }),
		"MXNet bool":       with(f32([]int64{5}, nil), func(d *dlpack.Desc) { d.Code, d.Bits = dlpack.CodeUInt, 1 }),
		"complex128":       with(f32([]int64{5}, nil), func(d *dlpack.Desc) { d.Code, d.Bits = dlpack.CodeComplex, 128 }),
		"misaligned":       with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.ByteOffset = 2 }),
	}
	declined := map[string]dlpack.Desc{
		"0-d":                f32(nil, nil),
		"empty":              f32([]int64{3, 0}, nil),
		"huge stride":        f32([]int64{2, 2}, []int64{1 << 40, 1}),
		"2^31 elements":      f32([]int64{1 << 16, 1 << 15}, nil),
		"NULL data":          with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Data = 0 }),
		"GPU":                with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Device.Type = 2 }),
		"vector lanes":       with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Lanes = 4 }),
		"unknown dtype":      with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Code = dlpack.CodeOpaque }),
		"reaching below 0":   with(f32([]int64{3}, []int64{-1}), func(d *dlpack.Desc) { d.Data = 4 }),
		"NULL shape":         with(f32([]int64{2}, nil), func(d *dlpack.Desc) { d.Shape = nil }),
		"negative dimension": f32([]int64{-2}, nil),
	}
	for name, d := range accepted {
		q, ok := dlpack.QuickCheck(d)
		require.True(t, ok, name)
		l, err := dlpack.Validate(d)
		require.NoError(t, err, name)
		assert.Equal(t, l.DType, q.DType, name)
		assert.Equal(t, !l.ReadOnly, q.Writable, name)
		assert.Equal(t, int64s(l.Strides), q.Strides, name)
		assert.Equal(t, uint64(d.Data)+d.ByteOffset, uint64(q.First), name)
		assert.Equal(t, int64(l.Offset), -q.Lo, name)
		assert.Equal(t, int64(l.NBytes), q.Span*int64(l.DType.Size()), name)
	}
	for name, d := range declined {
		_, ok := dlpack.QuickCheck(d)
		assert.False(t, ok, name)
	}
}

// keyFromBytes decodes up to eight index items, four bytes each:
// b0 = kind (bits 0-1), HasStart/HasStop/HasStep (bits 2-4), huge values (bit 5);
// b1, b2, b3 = start, stop, step as int8.
func keyFromBytes(b []byte) []ndarray.KeyItem {
	var key []ndarray.KeyItem
	for ; len(b) >= 4 && len(key) < 8; b = b[4:] {
		scale := 1
		if b[0]&32 != 0 {
			scale = math.MaxInt / 127
		}
		k := ndarray.KeyItem{
			Kind:  ndarray.KeyKind(b[0] & 3),
			Start: int(int8(b[1])) * scale, Stop: int(int8(b[2])) * scale, Step: int(int8(b[3])) * scale,
			HasStart: b[0]&4 != 0, HasStop: b[0]&8 != 0, HasStep: b[0]&16 != 0,
		}
		key = append(key, k)
	}
	return key
}

func FuzzIndex(f *testing.F) {
	f.Add([]byte{3, 4, 5}, []byte{0, 1, 0, 0})                        // a[1]
	f.Add([]byte{3, 4, 5}, []byte{0, 0xff, 0, 0, 1 | 16, 0, 0, 0xfe}) // a[-1, ::-2]
	f.Add([]byte{2, 0, 3}, []byte{3, 0, 0, 0, 2, 0, 0, 0})            // a[..., None]
	f.Add([]byte{5}, []byte{1 | 4 | 8 | 16 | 32, 0x80, 0x7f, 0x81})   // huge bounds and step
	f.Add([]byte{4, 4}, []byte{3, 0, 0, 0, 3, 0, 0, 0})               // two ellipses
	f.Fuzz(func(t *testing.T, shapeBytes, keyBytes []byte) {
		if len(shapeBytes) > 4 {
			shapeBytes = shapeBytes[:4]
		}
		shape := make([]int, len(shapeBytes))
		for i, b := range shapeBytes {
			shape[i] = int(b % 6)
		}
		key := keyFromBytes(keyBytes)
		live := ndarray.LiveStorages()
		a, err := ndarray.Empty(ndarray.Float32, shape, device.Host)
		require.NoError(t, err)
		defer func() {
			a.Release()
			require.Equal(t, live, ndarray.LiveStorages())
		}()
		refShape, flat, ok := refIndex(shape, key)
		v, err := a.Index(key)
		if err != nil {
			require.False(t, ok, "mxgo refused %v%+v: %v", shape, key, err)
			k := mxerr.KindOf(err)
			require.True(t, k == mxerr.Index || k == mxerr.Value, "%v", err)
			return
		}
		defer v.Release()
		require.True(t, ok, "mxgo accepted %v%+v", shape, key)
		require.NoError(t, ndarray.CheckLayout(v.Storage(), v.DType(), v.Shape(), v.Strides(), v.Offset()))
		require.Equal(t, refShape, v.Shape())
		require.Equal(t, flat, viewOffsets(v))
	})
}

func FuzzSliceIndices(f *testing.F) {
	f.Add(int64(1), int64(4), int64(2), true, true, true, uint64(10))
	f.Add(int64(0), int64(0), int64(-1), false, false, true, uint64(5))
	f.Add(int64(-3), int64(-100), int64(-2), true, true, true, uint64(7))
	f.Add(int64(0), int64(0), int64(math.MaxInt64), false, false, true, uint64(10))
	f.Add(int64(0), int64(0), int64(math.MinInt64), false, false, true, uint64(10))
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), int64(3), true, true, true, uint64(math.MaxInt64))
	f.Add(int64(5), int64(5), int64(0), true, true, true, uint64(3))
	f.Fuzz(func(t *testing.T, start, stop, step int64, hasStart, hasStop, hasStep bool, n uint64) {
		k := ndarray.KeyItem{Kind: ndarray.KeySlice, Start: int(start), Stop: int(stop), Step: int(step),
			HasStart: hasStart, HasStop: hasStop, HasStep: hasStep}
		length := int(n >> 1) // any n in [0, MaxInt]
		s, st, l, err := ndarray.SliceIndices(k, length)
		rs, rst, rl, ok := refSliceIndices(k, length)
		if !ok {
			requireKind(t, err, mxerr.Value, "zero")
			return
		}
		require.NoError(t, err)
		assert.Equal(t, []int{rs, rst, rl}, []int{s, st, l}, "slice(%v).indices(%d)", k, length)
		if l > 0 { // the first and last positions are on the axis
			require.True(t, s >= 0 && s < length)
			last := s + (l-1)*st // no overflow: it lies between start and stop
			require.True(t, last >= 0 && last < length)
		}
	})
}
