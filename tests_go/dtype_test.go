package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The dtype table as NumPy and DLPack define it, written out independently.
var dtypeTable = []struct {
	dt         ndarray.DType
	name       string
	size       int
	kind       ndarray.Kind
	code, bits uint8
}{
	{ndarray.Bool, "bool", 1, ndarray.KindBool, dlpack.CodeBool, 8},
	{ndarray.Int8, "int8", 1, ndarray.KindInt, dlpack.CodeInt, 8},
	{ndarray.Int16, "int16", 2, ndarray.KindInt, dlpack.CodeInt, 16},
	{ndarray.Int32, "int32", 4, ndarray.KindInt, dlpack.CodeInt, 32},
	{ndarray.Int64, "int64", 8, ndarray.KindInt, dlpack.CodeInt, 64},
	{ndarray.Uint8, "uint8", 1, ndarray.KindUint, dlpack.CodeUInt, 8},
	{ndarray.Uint16, "uint16", 2, ndarray.KindUint, dlpack.CodeUInt, 16},
	{ndarray.Uint32, "uint32", 4, ndarray.KindUint, dlpack.CodeUInt, 32},
	{ndarray.Uint64, "uint64", 8, ndarray.KindUint, dlpack.CodeUInt, 64},
	{ndarray.Float16, "float16", 2, ndarray.KindFloat, dlpack.CodeFloat, 16},
	{ndarray.Float32, "float32", 4, ndarray.KindFloat, dlpack.CodeFloat, 32},
	{ndarray.Float64, "float64", 8, ndarray.KindFloat, dlpack.CodeFloat, 64},
	{ndarray.Complex64, "complex64", 8, ndarray.KindComplex, dlpack.CodeComplex, 64},
	{ndarray.Complex128, "complex128", 16, ndarray.KindComplex, dlpack.CodeComplex, 128},
	{ndarray.Bfloat16, "bfloat16", 2, ndarray.KindBfloat, dlpack.CodeBfloat, 16},
}

func TestDTypeTableIsComplete(t *testing.T) {
	require.Len(t, ndarray.DTypes(), len(dtypeTable))
	for i, dt := range ndarray.DTypes() {
		assert.Equal(t, dtypeTable[i].dt, dt, "DTypes() lists dtypes in code order")
	}
}

func TestDTypeProperties(t *testing.T) {
	for _, c := range dtypeTable {
		t.Run(c.name, func(t *testing.T) {
			assert.True(t, c.dt.Valid())
			assert.Equal(t, c.name, c.dt.String())
			assert.Equal(t, c.size, c.dt.Size())
			assert.Equal(t, c.kind, c.dt.Kind())

			parsed, err := ndarray.ParseDType(c.name)
			require.NoError(t, err)
			assert.Equal(t, c.dt, parsed)

			code, bits := dlpack.TypeOf(c.dt)
			assert.Equal(t, c.code, code)
			assert.Equal(t, c.bits, bits)
			back, err := dlpack.FromType(code, bits, 1)
			require.NoError(t, err)
			assert.Equal(t, c.dt, back)
		})
	}
}

func TestDTypeInvalid(t *testing.T) {
	for _, dt := range []ndarray.DType{-1, ndarray.DType(len(dtypeTable)), 1000} {
		assert.False(t, dt.Valid())
		assert.Equal(t, "invalid", dt.String())
	}
	for _, name := range []string{"", "float", "int", "Float32", "float32 ", "object"} {
		_, err := ndarray.ParseDType(name)
		requireKind(t, err, mxerr.Type, "unsupported dtype")
	}
}

func TestFromTypeLegacyMXNetBool(t *testing.T) {
	dt, err := dlpack.FromType(dlpack.CodeUInt, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, ndarray.Bool, dt)
}

func TestFromTypeRejects(t *testing.T) {
	cases := []struct {
		name       string
		code, bits uint8
		lanes      uint16
		field      string
	}{
		{"lanes 0", dlpack.CodeFloat, 32, 0, "dtype.lanes"},
		{"lanes 2", dlpack.CodeFloat, 32, 2, "dtype.lanes"},
		{"lanes 4 int", dlpack.CodeInt, 8, 4, "dtype.lanes"},
		{"int 1 bit", dlpack.CodeInt, 1, 1, "dtype.bits"},
		{"int 24 bits", dlpack.CodeInt, 24, 1, "dtype.bits"},
		{"uint 128 bits", dlpack.CodeUInt, 128, 1, "dtype.bits"},
		{"float 8 bits", dlpack.CodeFloat, 8, 1, "dtype.bits"},
		{"float 128 bits", dlpack.CodeFloat, 128, 1, "dtype.bits"},
		{"bfloat 32 bits", dlpack.CodeBfloat, 32, 1, "dtype.bits"},
		{"complex 32 bits", dlpack.CodeComplex, 32, 1, "dtype.bits"},
		{"bool 1 bit", dlpack.CodeBool, 1, 1, "dtype.bits"},
		{"bool 16 bits", dlpack.CodeBool, 16, 1, "dtype.bits"},
		{"opaque handle", dlpack.CodeOpaque, 64, 1, "dtype.code"},
		{"float8 e4m3", 7, 8, 1, "dtype.code"},
		{"float4", 17, 4, 1, "dtype.code"},
		{"unknown 200", 200, 32, 1, "dtype.code"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := dlpack.FromType(c.code, c.bits, c.lanes)
			requireKind(t, err, mxerr.Buffer, c.field)
		})
	}
}

func TestErrorKinds(t *testing.T) {
	names := map[mxerr.Kind]string{
		mxerr.MXNet: "MXNetError", mxerr.Value: "ValueError", mxerr.Type: "TypeError",
		mxerr.Index: "IndexError", mxerr.Buffer: "BufferError", mxerr.Memory: "MemoryError",
		mxerr.NotImplemented: "NotImplementedError", mxerr.Kind(99): "MXNetError",
	}
	for k, name := range names {
		assert.Equal(t, name, k.String())
	}
	assert.Equal(t, mxerr.MXNet, mxerr.KindOf(assert.AnError), "plain errors are MXNetErrors")
	wrapped := fmtWrap(mxerr.IndexErr("inner %d", 3))
	assert.Equal(t, mxerr.Index, mxerr.KindOf(wrapped), "KindOf sees through wrapping")
	assert.Contains(t, wrapped.Error(), "inner 3")
}
