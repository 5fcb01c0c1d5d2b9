package mxgotest

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ndfile"
)

// MXNet's NDArray file format (pkg/ndfile): files written by the real MXNet 1.9.1
// (testdata/ndfile, made with mxnet.nd.save) read back and write out byte for byte.

func rawBytes(a *ndarray.NDArray) []byte {
	n := a.Size() * a.DType().Size()
	if n == 0 {
		return nil
	}
	return append([]byte(nil), unsafe.Slice((*byte)(a.Data()), n)...)
}

func releaseAll(arrs []*ndarray.NDArray) {
	for _, a := range arrs {
		a.Release()
	}
}

func encodeFile(t *testing.T, arrs []*ndarray.NDArray, names []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, ndfile.Write(&buf, arrs, names, false))
	return buf.Bytes()
}

func TestLoadMXNetFilesRoundTripByteForByte(t *testing.T) {
	checkLeaks(t)
	for _, name := range []string{"mxnet191_dict.params", "mxnet191_list.params", "mxnet191_npshape.params", "mxnet191_empty.params"} {
		data, err := os.ReadFile(filepath.Join("testdata", "ndfile", name))
		require.NoError(t, err)
		arrs, names, err := ndfile.ReadBytes(data)
		require.NoError(t, err, name)
		require.Equal(t, data, encodeFile(t, arrs, names), name)
		releaseAll(arrs)
	}
}

func TestLoadMXNetDictValues(t *testing.T) {
	checkLeaks(t)
	arrs, names, err := ndfile.Load(filepath.Join("testdata", "ndfile", "mxnet191_dict.params"))
	require.NoError(t, err)
	defer releaseAll(arrs)
	require.Equal(t, []string{"w", "b", "d", "i", "k", "u", "s", "t", "名前"}, names)
	want := []struct {
		dt    ndarray.DType
		shape []int
	}{{ndarray.Float32, []int{2, 3}}, {ndarray.Float16, []int{3}}, {ndarray.Float64, []int{2, 3}},
		{ndarray.Int64, []int{2, 2}}, {ndarray.Int32, []int{2}}, {ndarray.Uint8, []int{3}},
		{ndarray.Int8, []int{2}}, {ndarray.Bool, []int{3}}, {ndarray.Float32, []int{1, 1, 1}}}
	for i, w := range want {
		require.Equal(t, w.dt, arrs[i].DType(), names[i])
		require.Equal(t, w.shape, arrs[i].Shape(), names[i])
	}
	require.Equal(t, []float32{-0.5, -0.25, 0, 0.25, 0.5, 0.75}, unsafe.Slice((*float32)(arrs[0].Data()), 6))
	require.Equal(t, []int64{-(1 << 62), 3, 4, 1 << 62}, unsafe.Slice((*int64)(arrs[3].Data()), 4))
	require.Equal(t, []byte{1, 0, 1}, rawBytes(arrs[7]))
}

func TestLoadNumPyShapes(t *testing.T) {
	checkLeaks(t)
	arrs, names, err := ndfile.Load(filepath.Join("testdata", "ndfile", "mxnet191_npshape.params"))
	require.NoError(t, err)
	defer releaseAll(arrs)
	require.Nil(t, names)
	require.Len(t, arrs, 4)
	require.Equal(t, []int{}, arrs[0].Shape())
	require.Equal(t, []float32{3.5}, unsafe.Slice((*float32)(arrs[0].Data()), 1))
	require.Equal(t, []int{0}, arrs[1].Shape())
	require.Equal(t, []int{2, 0}, arrs[2].Shape())
	require.Equal(t, ndarray.Int32, arrs[2].DType())
}

func TestSaveFileWritesV2OrV3(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Float32, 2, 3)
	b := fromValues(t, ndarray.Int64, []float64{7})
	data := encodeFile(t, []*ndarray.NDArray{a, b}, nil)
	require.Equal(t, ndfile.ListMagic, binary.LittleEndian.Uint64(data))
	require.Equal(t, ndfile.MagicV2, binary.LittleEndian.Uint32(data[24:]))
	z := empty(t, ndarray.Float32)
	data = encodeFile(t, []*ndarray.NDArray{a, z}, []string{"a", "z"})
	require.Equal(t, ndfile.MagicV3, binary.LittleEndian.Uint32(data[24:]), "a 0-d array makes every record V3")
	var buf bytes.Buffer
	require.NoError(t, ndfile.Write(&buf, []*ndarray.NDArray{a, b}, nil, true))
	require.Equal(t, ndfile.MagicV3, binary.LittleEndian.Uint32(buf.Bytes()[24:]), "npShape asks for V3 (npx.save)")

	path := filepath.Join(t.TempDir(), "x.params")
	require.NoError(t, ndfile.Save(path, []*ndarray.NDArray{a, z}, []string{"a", "z"}, false))
	arrs, names, err := ndfile.Load(path)
	require.NoError(t, err)
	defer releaseAll(arrs)
	require.Equal(t, []string{"a", "z"}, names)
	require.Equal(t, rawBytes(a), rawBytes(arrs[0]))
}

func TestSaveNonContiguousViewCompact(t *testing.T) {
	checkLeaks(t)
	a := arange(t, ndarray.Int32, 3, 4)
	v, err := a.Transpose(nil)
	require.NoError(t, err)
	defer v.Release()
	arrs, _, err := ndfile.ReadBytes(encodeFile(t, []*ndarray.NDArray{v}, nil))
	require.NoError(t, err)
	defer releaseAll(arrs)
	require.Equal(t, []int{4, 3}, arrs[0].Shape())
	require.Equal(t, []int32{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, unsafe.Slice((*int32)(arrs[0].Data()), 12))
}

func TestSaveRefusesDTypesMXNetCannotLoad(t *testing.T) {
	checkLeaks(t)
	for _, dt := range []ndarray.DType{ndarray.Int16, ndarray.Uint16, ndarray.Uint32, ndarray.Uint64, ndarray.Complex64, ndarray.Complex128} {
		a := empty(t, dt, 2)
		path := filepath.Join(t.TempDir(), "x.params")
		err := ndfile.Save(path, []*ndarray.NDArray{a}, nil, false)
		require.Error(t, err, dt.String())
		require.Equal(t, mxerr.Type, mxerr.KindOf(err))
		require.Contains(t, err.Error(), dt.String())
		_, statErr := os.Stat(path)
		require.True(t, os.IsNotExist(statErr), "nothing is written when the check fails")
	}
	a := empty(t, ndarray.Float32, 2)
	require.Error(t, ndfile.Write(&bytes.Buffer{}, []*ndarray.NDArray{a}, []string{"a", "b"}, false))
}

func TestLoadMissingFileIsMXNetError(t *testing.T) {
	_, _, err := ndfile.Load(filepath.Join(t.TempDir(), "missing.params"))
	require.Error(t, err)
	require.Equal(t, mxerr.MXNet, mxerr.KindOf(err))
	_, _, err = ndfile.Load(t.TempDir())
	require.Error(t, err)
}

// Every prefix of a valid file and every flipped byte gives an error of a documented kind
// (or, for a flip inside the data, a file that loads), and leaks nothing.
func TestLoadTruncatedAndCorruptFiles(t *testing.T) {
	checkLeaks(t)
	data, err := os.ReadFile(filepath.Join("testdata", "ndfile", "mxnet191_dict.params"))
	require.NoError(t, err)
	for n := 0; n < len(data); n++ {
		_, _, err := ndfile.ReadBytes(data[:n])
		require.Error(t, err, "prefix of %d bytes", n)
		require.Equal(t, mxerr.Value, mxerr.KindOf(err), "prefix of %d bytes: %v", n, err)
	}
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			c := append([]byte(nil), data...)
			c[i] ^= x
			arrs, _, err := ndfile.ReadBytes(c)
			if err != nil {
				k := mxerr.KindOf(err)
				require.True(t, k == mxerr.Value || k == mxerr.NotImplemented, "byte %d: %v", i, err)
			}
			releaseAll(arrs)
		}
	}
	_, _, err = ndfile.ReadBytes(append(append([]byte(nil), data...), 0))
	require.ErrorContains(t, err, "unexpected bytes")
}

func TestLoadHugeClaimsFailBeforeAllocating(t *testing.T) {
	checkLeaks(t)
	le := binary.LittleEndian
	head := func(n uint64) []byte {
		b := le.AppendUint64(nil, ndfile.ListMagic)
		b = le.AppendUint64(b, 0)
		return le.AppendUint64(b, n)
	}
	record := func(magic uint32, dims ...int64) []byte {
		b := le.AppendUint32(head(1), magic)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint32(b, uint32(len(dims)))
		for _, d := range dims {
			b = le.AppendUint64(b, uint64(d))
		}
		b = le.AppendUint32(b, 1)
		b = le.AppendUint32(b, 0)
		return le.AppendUint32(b, 0)
	}
	cases := map[string][]byte{
		"count":          head(1 << 62),
		"elements":       record(ndfile.MagicV2, 1<<40, 1<<20),
		"overflow":       record(ndfile.MagicV2, 1<<62, 1<<62),
		"negative":       record(ndfile.MagicV2, -5),
		"unknown":        record(ndfile.MagicV3, -1),
		"none":           record(ndfile.MagicV2),
		"rank":           le.AppendUint32(le.AppendUint32(le.AppendUint32(head(1), ndfile.MagicV2), 0), 1<<30),
		"bad magic":      le.AppendUint32(head(1), 0xdeadbeef),
		"names":          le.AppendUint64(le.AppendUint64(head(0), 1), 1<<60),
		"name count":     le.AppendUint64(head(0), 1<<60),
		"not the format": []byte("PK\x03\x04 this is a zip file, not params"),
	}
	for name, c := range cases {
		_, _, err := ndfile.ReadBytes(c)
		require.Error(t, err, name)
		require.Equal(t, mxerr.Value, mxerr.KindOf(err), "%s: %v", name, err)
	}
	sparse := le.AppendUint32(le.AppendUint32(head(1), ndfile.MagicV2), 1)
	_, _, err := ndfile.ReadBytes(sparse)
	require.Equal(t, mxerr.NotImplemented, mxerr.KindOf(err))
}

func TestLoadOlderRecords(t *testing.T) {
	checkLeaks(t)
	le := binary.LittleEndian
	b := le.AppendUint64(nil, ndfile.ListMagic)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, 2)
	// V1: int64 shape, no storage type
	b = le.AppendUint32(b, ndfile.MagicV1)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint64(b, 2)
	b = append(b, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0) // cpu(0), int32
	b = le.AppendUint32(le.AppendUint32(b, 7), 8)
	// no magic: uint32 ndim and dims
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, 1)
	b = append(b, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0) // gpu(0), uint8
	b = append(b, 9)
	b = le.AppendUint64(b, 0)
	arrs, names, err := ndfile.ReadBytes(b)
	require.NoError(t, err)
	defer releaseAll(arrs)
	require.Nil(t, names)
	require.Equal(t, []int32{7, 8}, unsafe.Slice((*int32)(arrs[0].Data()), 2))
	require.Equal(t, []byte{9}, rawBytes(arrs[1]))
	require.Equal(t, "cpu", arrs[1].Device().Type.String(), "a gpu record loads on the CPU, as MXNet without CUDA does")
}

// FuzzNDFileRead: whatever the bytes, reading returns arrays or an error of a documented
// kind, never a panic, a hang or a leak; what it reads writes back to bytes that read
// back the same.
func FuzzNDFileRead(f *testing.F) {
	for _, name := range []string{"mxnet191_dict.params", "mxnet191_list.params", "mxnet191_npshape.params", "mxnet191_empty.params"} {
		data, err := os.ReadFile(filepath.Join("testdata", "ndfile", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		base := ndarray.LiveStorages()
		arrs, names, err := ndfile.ReadBytes(data)
		if err != nil {
			k := mxerr.KindOf(err)
			require.True(t, k == mxerr.Value || k == mxerr.NotImplemented, "%v", err)
			require.Nil(t, arrs)
			require.Equal(t, base, ndarray.LiveStorages())
			return
		}
		var buf bytes.Buffer
		werr := ndfile.Write(&buf, arrs, names, false)
		if werr == nil {
			again, names2, err := ndfile.ReadBytes(buf.Bytes())
			require.NoError(t, err)
			require.Equal(t, names, names2)
			require.Len(t, again, len(arrs))
			for i := range arrs {
				require.Equal(t, arrs[i].Shape(), again[i].Shape())
				require.Equal(t, rawBytes(arrs[i]), rawBytes(again[i]))
			}
			releaseAll(again)
		} else {
			require.Equal(t, mxerr.Type, mxerr.KindOf(werr), "only dtypes MXNet cannot load are refused: %v", werr)
		}
		releaseAll(arrs)
		require.Equal(t, base, ndarray.LiveStorages())
	})
}
