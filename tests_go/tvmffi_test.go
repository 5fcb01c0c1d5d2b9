package mxgotest

import (
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/tvmffi"
)

// The pure-Go half of pkg/tvmffi: decoding TVM-FFI arguments of mxgo's global functions
// and mapping errors both ways. Objects are faked in Go memory with TVM-FFI's layout: a
// 24-byte header, then the cell.

type ffiHeader [24]byte

type fakeSeq struct {
	ffiHeader
	data        *tvmffi.Any
	size, capa  int64
	dataDeleter uintptr
}

type fakeBytes struct {
	ffiHeader
	data *byte
	size uintptr
}

type fakeShape struct {
	ffiHeader
	data *int64
	size uintptr
}

type fakeTensor struct {
	ffiHeader
	dltensor [48]byte // never read by the decoder: it only takes the cell's address
}

// objects keeps the fakes reachable: an Any holds their addresses as integers.
var objects []any

func objAny(typeIndex int32, p unsafe.Pointer) tvmffi.Any {
	return tvmffi.Any{TypeIndex: typeIndex, V: uint64(uintptr(p))}
}

func arrayAny(elems ...tvmffi.Any) tvmffi.Any {
	s := &fakeSeq{size: int64(len(elems)), capa: int64(len(elems))}
	if len(elems) > 0 {
		s.data = &elems[0]
	}
	objects = append(objects, s, elems)
	return objAny(tvmffi.TypeArray, unsafe.Pointer(s))
}

func strAny(s string) tvmffi.Any {
	b := []byte(s)
	o := &fakeBytes{size: uintptr(len(b))}
	if len(b) > 0 {
		o.data = &b[0]
	}
	objects = append(objects, o, b)
	return objAny(tvmffi.TypeStr, unsafe.Pointer(o))
}

func smallStrAny(s string) tvmffi.Any {
	a := tvmffi.Any{TypeIndex: tvmffi.TypeSmallStr, SmallLen: uint32(len(s))}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&a.V)), 8), s)
	return a
}

func rawStrAny(s string) tvmffi.Any {
	b := append([]byte(s), 0)
	objects = append(objects, b)
	return objAny(tvmffi.TypeRawStr, unsafe.Pointer(&b[0]))
}

func shapeAny(dims ...int64) tvmffi.Any {
	o := &fakeShape{size: uintptr(len(dims))}
	if len(dims) > 0 {
		o.data = &dims[0]
	}
	objects = append(objects, o, dims)
	return objAny(tvmffi.TypeShape, unsafe.Pointer(o))
}

func tensorAny() (tvmffi.Any, unsafe.Pointer) {
	o := &fakeTensor{}
	objects = append(objects, o)
	return objAny(tvmffi.TypeTensor, unsafe.Pointer(o)), unsafe.Pointer(&o.dltensor)
}

var noneAny = tvmffi.Any{}

func TestTVMFFIAnyLayout(t *testing.T) {
	assert.Equal(t, uintptr(16), unsafe.Sizeof(tvmffi.Any{}))
	assert.Equal(t, uintptr(4), unsafe.Offsetof(tvmffi.Any{}.SmallLen))
	assert.Equal(t, uintptr(8), unsafe.Offsetof(tvmffi.Any{}.V))
}

func TestTVMFFIStrings(t *testing.T) {
	for _, a := range []tvmffi.Any{smallStrAny("int32"), rawStrAny("int32"), strAny("int32")} {
		s, ok := a.Str()
		assert.True(t, ok)
		assert.Equal(t, "int32", s)
	}
	empty := smallStrAny("")
	s, ok := empty.Str()
	assert.True(t, ok)
	assert.Equal(t, "", s)
	one := tvmffi.IntAny(1)
	_, ok = one.Str()
	assert.False(t, ok)
	runtime.KeepAlive(objects)
}

func TestTVMFFIParamWire(t *testing.T) {
	cases := []struct {
		kind ops.ParamKind
		val  tvmffi.Any
		wire string
		set  bool
	}{
		{ops.ParamInt, tvmffi.IntAny(-3), "-3", true},
		{ops.ParamOptInt, tvmffi.IntAny(4), "4", true},
		{ops.ParamOptInt, noneAny, "None", true},
		{ops.ParamOptFloat, noneAny, "None", true},
		{ops.ParamOptFloat, tvmffi.FloatAny(-0.5), "-0.5", true},
		{ops.ParamInt, noneAny, "", false}, // None keeps the default where None is no value
		{ops.ParamFloat, tvmffi.FloatAny(2.5), "2.5", true},
		{ops.ParamFloat, tvmffi.IntAny(2), "2", true},
		{ops.ParamFloat, tvmffi.FloatAny(math.Inf(-1)), "-Inf", true},
		{ops.ParamBool, tvmffi.BoolAny(true), "true", true},
		{ops.ParamBool, tvmffi.IntAny(0), "false", true},
		{ops.ParamScalar, tvmffi.IntAny(7), "i:7", true},
		{ops.ParamScalar, tvmffi.BoolAny(true), "i:1", true},
		{ops.ParamScalar, tvmffi.FloatAny(0.5), "f:0.5", true},
		{ops.ParamAxes, noneAny, "None", true},
		{ops.ParamAxes, tvmffi.IntAny(1), "1", true},
		{ops.ParamAxes, arrayAny(tvmffi.IntAny(0), tvmffi.IntAny(-1)), "0,-1", true},
		{ops.ParamAxes, arrayAny(), "()", true},
		{ops.ParamShape, shapeAny(2, 3), "2,3", true},
		{ops.ParamShape, shapeAny(), "()", true},
		{ops.ParamOptInts, arrayAny(noneAny, tvmffi.IntAny(2)), "None,2", true},
		{ops.ParamFloats, arrayAny(tvmffi.FloatAny(0.5), tvmffi.IntAny(2)), "0.5,2", true},
		{ops.ParamFloats, tvmffi.FloatAny(0.25), "0.25", true},
		{ops.ParamFloats, arrayAny(), "()", true},
		{ops.ParamDType, smallStrAny("int8"), "int8", true},
		{ops.ParamOptDType, noneAny, "None", true},
		{ops.ParamString, strAny("indices"), "indices", true},
	}
	for _, c := range cases {
		w, set, err := tvmffi.ParamWire(c.kind, &c.val)
		require.NoError(t, err, "%s %s", c.kind, c.val.TypeName())
		assert.Equal(t, c.wire, w, "%s %s", c.kind, c.val.TypeName())
		assert.Equal(t, c.set, set, "%s %s", c.kind, c.val.TypeName())
	}
	bad := []struct {
		kind ops.ParamKind
		val  tvmffi.Any
		err  mxerr.Kind
	}{
		{ops.ParamInt, tvmffi.FloatAny(1.5), mxerr.Type},
		{ops.ParamInt, smallStrAny("1"), mxerr.Type},
		{ops.ParamFloat, strAny("x"), mxerr.Type},
		{ops.ParamBool, tvmffi.IntAny(2), mxerr.Value},
		{ops.ParamBool, tvmffi.IntAny(-1), mxerr.Value},
		{ops.ParamScalar, smallStrAny("1"), mxerr.Type},
		{ops.ParamAxes, arrayAny(tvmffi.IntAny(0), noneAny), mxerr.Type},
		{ops.ParamAxes, tvmffi.FloatAny(0), mxerr.Type},
		{ops.ParamShape, arrayAny(smallStrAny("a")), mxerr.Type},
		{ops.ParamFloats, arrayAny(tvmffi.FloatAny(1), noneAny), mxerr.Type},
		{ops.ParamDType, tvmffi.IntAny(1), mxerr.Type},
		{ops.ParamString, strAny("a;b=c"), mxerr.Value},
		{ops.ParamDType, smallStrAny("x=1"), mxerr.Value},
	}
	for _, c := range bad {
		_, _, err := tvmffi.ParamWire(c.kind, &c.val)
		require.Error(t, err, "%s %s", c.kind, c.val.TypeName())
		assert.Equal(t, c.err, mxerr.KindOf(err), "%s %s: %v", c.kind, c.val.TypeName(), err)
	}
	runtime.KeepAlive(objects)
}

func TestTVMFFIDecode(t *testing.T) {
	sum, err := ops.Lookup("sum")
	require.NoError(t, err)
	x, xt := tensorAny()
	out, outT := tensorAny()

	c, err := tvmffi.Decode(sum, []tvmffi.Any{x})
	require.NoError(t, err)
	assert.Equal(t, []unsafe.Pointer{xt}, c.In)
	assert.Nil(t, c.Out)
	assert.Equal(t, "", c.Attrs)

	c, err = tvmffi.Decode(sum, []tvmffi.Any{x, out, arrayAny(tvmffi.IntAny(1)), tvmffi.BoolAny(true)})
	require.NoError(t, err)
	assert.Equal(t, outT, c.Out)
	assert.Equal(t, "axis=1;keepdims=true", c.Attrs)

	c, err = tvmffi.Decode(sum, []tvmffi.Any{x, noneAny, noneAny, noneAny})
	require.NoError(t, err) // axis None is a value, keepdims None the default
	assert.Equal(t, "axis=None", c.Attrs)

	fc, err := ops.Lookup("FullyConnected")
	require.NoError(t, err)
	w, wt := tensorAny()
	c, err = tvmffi.Decode(fc, []tvmffi.Any{x, w, noneAny, noneAny, tvmffi.IntAny(4), tvmffi.BoolAny(true)})
	require.NoError(t, err)
	assert.Equal(t, []unsafe.Pointer{xt, wt}, c.In) // the omitted bias is left out
	assert.Equal(t, "num_hidden=4;no_bias=true", c.Attrs)

	addN, err := ops.Lookup("add_n")
	require.NoError(t, err)
	c, err = tvmffi.Decode(addN, []tvmffi.Any{arrayAny(x, w, x)})
	require.NoError(t, err)
	assert.Equal(t, []unsafe.Pointer{xt, wt, xt}, c.In)

	dl := tvmffi.Any{TypeIndex: tvmffi.TypeDLTensorPtr, V: uint64(uintptr(xt))} // from C
	c, err = tvmffi.Decode(sum, []tvmffi.Any{dl, dl})
	require.NoError(t, err)
	assert.Equal(t, []unsafe.Pointer{xt}, c.In)
	assert.Equal(t, xt, c.Out)

	bad := []struct {
		op   *ops.Op
		args []tvmffi.Any
		kind mxerr.Kind
		msg  string
	}{
		{sum, nil, mxerr.Type, "takes 1 input"},
		{sum, []tvmffi.Any{tvmffi.IntAny(1)}, mxerr.Type, "input data must be a tensor, got int"},
		{sum, []tvmffi.Any{noneAny}, mxerr.Type, "input data must be a tensor, got None"},
		{sum, []tvmffi.Any{x, tvmffi.IntAny(0)}, mxerr.Type, "out must be a tensor or None"},
		{sum, []tvmffi.Any{x, noneAny, noneAny, noneAny, noneAny, noneAny}, mxerr.Type, "takes 3 parameter"},
		{sum, []tvmffi.Any{x, noneAny, strAny("0")}, mxerr.Type, "parameter axis"},
		{fc, []tvmffi.Any{x, noneAny, noneAny}, mxerr.Type, "input weight must be a tensor"},
		{addN, []tvmffi.Any{x}, mxerr.Type, "one Array"},
		{addN, []tvmffi.Any{arrayAny(x, tvmffi.IntAny(1))}, mxerr.Type, "input 1 is int"},
	}
	for _, c := range bad {
		_, err := tvmffi.Decode(c.op, c.args)
		require.Error(t, err, c.msg)
		assert.Equal(t, c.kind, mxerr.KindOf(err), err.Error())
		assert.Contains(t, err.Error(), c.msg)
	}
	runtime.KeepAlive(objects)
}

func TestTVMFFIErrorMapping(t *testing.T) {
	for kind, want := range map[string]mxerr.Kind{"ValueError": mxerr.Value, "TypeError": mxerr.Type,
		"IndexError": mxerr.Index, "BufferError": mxerr.Buffer, "MemoryError": mxerr.Memory,
		"NotImplementedError": mxerr.NotImplemented} {
		err := tvmffi.MapError(kind, "msg")
		assert.Equal(t, want, mxerr.KindOf(err), kind)
		assert.Equal(t, "msg", err.Error())
		assert.Equal(t, kind, tvmffi.FFIKind(err)) // and back
	}
	for kind, text := range map[string]string{"RuntimeError": "RuntimeError: msg", "AttributeError": "AttributeError: msg",
		"": "RuntimeError: msg"} {
		err := tvmffi.MapError(kind, "msg")
		assert.Equal(t, mxerr.MXNet, mxerr.KindOf(err), kind)
		assert.Equal(t, text, err.Error())
		assert.Equal(t, "RuntimeError", tvmffi.FFIKind(err))
	}
}

func TestTVMFFINotLoaded(t *testing.T) {
	// Go's tests run without Python's tvm_ffi: nothing loaded, clear errors, no crash.
	require.False(t, tvmffi.Loaded(), "nothing in Go's tests loads TVM-FFI")
	_, err := tvmffi.Register("mxgo.nd.")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not loaded")
	a := empty(t, 0, 2)
	err = tvmffi.Push(unsafe.Pointer(&struct{}{}), []tvmffi.Arg{{Array: a}}, nil, nil)
	require.Error(t, err)
	err = tvmffi.Load("/nonexistent/libtvm_ffi.so")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot use TVM-FFI")
	assert.False(t, tvmffi.Loaded())
}
