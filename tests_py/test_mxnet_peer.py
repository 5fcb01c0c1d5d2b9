"""The real MXNet 1.9.1 as a live DLPack peer, in one process with mxgo.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet, `make
test-py-mxnet`: MXNet 1.9.1 and NumPy 1.23 from PyPI, no PyTorch); see environments.py.

Exchange both ways, `mxnet.nd.to_dlpack_for_read/for_write(a)` -> `mx.nd.from_dlpack` and
mxgo's `x.to_dlpack_for_read()/for_write()` -> `mxnet.nd.from_dlpack`, for every dtype
both have: values, dtype, shape, shared memory (a write on one side is seen on the other),
lifetimes (the producer deleted and collected, the consumer intact; mxgo's live counts
back to where they were, so that each deleter ran exactly once), with both libraries'
NDArrays and both libraries' NumPy-interface arrays (mxnet.numpy and mx.np). Then what MXNet itself
does, each asserted as a peer fact: the dtypes and layouts it refuses, and how.

Both sides are asynchronous: a write on one side is waited for (`wait_to_read`) before the
other side reads. MXNet frees an NDArray on its engine, so `mxnet.nd.waitall()` comes
before counting what it let go. Integer division by zero kills MXNet with SIGFPE; nothing
here divides.
"""
import ctypes
import gc

import mxnet
import numpy as np
import pytest

import mxgo as mx
from mxgo.base import core

#: the dtypes both MXNet 1.9.1 and mxgo have (MXNet's bool goes over DLPack as (UInt, 1 bit))
SHARED = ["float16", "float32", "float64", "uint8", "int8", "int32", "int64", "bool"]
#: what MXNet 1.9.1 does with an mxgo export of each dtype it lacks (its DLPack import
#: knows only its own type codes; the message prints code and bits as raw characters,
#: and 128 bits make a byte that is not UTF-8)
REFUSED = {
    "bool": (mxnet.base.MXNetError, "Unknown DLDataType"),  # DLPack's Bool (code 6): MXNet knows (UInt, 1)
    "int16": (mxnet.base.MXNetError, "Unknown DLDataType"),
    "uint16": (mxnet.base.MXNetError, "Unknown DLDataType"),
    "uint32": (mxnet.base.MXNetError, "Unknown DLDataType"),
    "uint64": (mxnet.base.MXNetError, "Unknown DLDataType"),
    "complex64": (mxnet.base.MXNetError, "Unknown DLDataType"),
    "complex128": (UnicodeDecodeError, "utf-8"),
}
COMPACT = "only support compact tensor"
#: the array classes exchanged on both sides: MXNet's NDArray and mxgo's, or both
#: libraries' NumPy-interface arrays (mxnet.numpy.ndarray, mx.np.ndarray)
KINDS = ("nd", "np")


def live():
    """mxgo's (live handles, live storages, live exports)."""
    return core.LiveHandles(), core.LiveStorages(), core.LiveExports()


def settle():
    mxnet.nd.waitall()  # MXNet deletes its arrays' memory on its engine
    gc.collect()
    mx.nd.waitall()


def write_through(writer, reader, ref, dtype, index):
    """A write through writer (MXNet's or mxgo's array) at index is what reader sees."""
    v = other_value(dtype, ref[index])
    writer[index] = v
    writer.wait_to_read()
    ref[index] = v
    np.testing.assert_array_equal(reader.asnumpy(), ref)


def reference(dtype, shape=(3, 4)):
    ref = np.arange(int(np.prod(shape))).reshape(shape) % 5
    return (ref % 2).astype(bool) if dtype == "bool" else ref.astype(dtype)


def other_value(dtype, old):
    return (not old) if dtype == "bool" else np.asarray(old + 3).astype(dtype)[()]


def churn():
    """Allocates and fills memory of the freed blocks' sizes on both sides, so that a
    dangling consumer would read garbage instead of the old values."""
    junk = [mxnet.nd.full((n,), 77, dtype="uint8") for n in (12, 48, 96) for _ in range(16)]
    junk += [mx.nd.full((n,), 77, dtype="uint8") for n in (12, 48, 96) for _ in range(16)]
    junk += [np.full(n, 0x5A, np.uint8) for n in (12, 48, 96, 4096) for _ in range(16)]
    mxnet.nd.waitall()
    mx.nd.waitall()
    del junk


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


def capsule_tensor(capsule):
    """(dtype (code, bits, lanes), shape, strides or None) of a legacy "dltensor" capsule
    (the DLTensor is the first member of DLManagedTensor), without consuming it."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    return (t.dtype.code, t.dtype.bits, t.dtype.lanes), shape, strides


@pytest.fixture(autouse=True)
def _counts_return():
    """Every test leaves mxgo's live handles, storages and exports where it found them:
    each import let go of its producer's memory, and each export's deleter ran, once."""
    settle()
    before = live()
    yield
    settle()
    assert live() == before


# ---- MXNet -> mxgo -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["for_read", "for_write"])
@pytest.mark.parametrize("dtype", SHARED)
def test_mxnet_to_mxgo(dtype, how, kind):
    ref = reference(dtype)
    a = mxnet.nd.array(ref, dtype=dtype)
    if kind == "np":
        a = a.as_np_ndarray()
    before = live()
    capsule = getattr(a, "to_dlpack_" + how)()
    x = getattr(mx, kind).from_dlpack(capsule)
    assert type(x) is (mx.np.ndarray if kind == "np" else mx.nd.NDArray)
    assert np.dtype(x.dtype) == np.dtype(dtype) and x.shape == ref.shape
    np.testing.assert_array_equal(x.asnumpy(), ref)
    # shared memory, both directions
    write_through(x, a, ref, dtype, (0, 0))
    write_through(a, x, ref, dtype, (1, 2))
    # the consumer outlives the producer
    del a, capsule
    settle()
    churn()
    np.testing.assert_array_equal(x.asnumpy(), ref)
    alive = live()
    assert all(n >= b for n, b in zip(alive, before)) and alive != before
    del x
    settle()
    assert live() == before


def test_mxnet_exports_bool_as_uint1():
    a = mxnet.nd.array([True, False, True], dtype=bool)
    capsule = mxnet.nd.to_dlpack_for_read(a)
    assert capsule_tensor(capsule) == ((1, 1, 1), (3,), None)  # (UInt, 1 bit), NULL strides
    x = mx.nd.from_dlpack(capsule)
    assert np.dtype(x.dtype) == np.bool_
    np.testing.assert_array_equal(x.asnumpy(), [True, False, True])


def test_mxnet_size_0_to_mxgo():
    # MXNet 1.x reads 0 in a shape as "unknown" unless NumPy shape semantics are on
    with pytest.raises(mxnet.base.MXNetError, match="inferring shapes failed"):
        mxnet.nd.zeros((2, 0))
    with mxnet.util.np_shape(True):
        for shape in [(2, 0), (0, 3), (0,)]:
            x = mx.nd.from_dlpack(mxnet.nd.to_dlpack_for_read(mxnet.nd.zeros(shape)))
            assert x.shape == shape and x.size == 0


def test_mxnet_capsule_used_twice():
    capsule = mxnet.nd.to_dlpack_for_read(mxnet.nd.ones((2,)))
    x = mx.nd.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed"):
        mx.nd.from_dlpack(capsule)
    np.testing.assert_array_equal(x.asnumpy(), [1, 1])


# ---- mxgo -> MXNet -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["for_read", "for_write"])
@pytest.mark.parametrize("dtype", [d for d in SHARED if d != "bool"])
def test_mxgo_to_mxnet(dtype, how, kind):
    ref = reference(dtype)
    before = live()
    x = getattr(mx, kind).array(ref, dtype=dtype)
    capsule = getattr(x, "to_dlpack_" + how)()
    b = mxnet.nd.from_dlpack(capsule)  # MXNet 1.9.1 imports DLPack into mx.nd only
    if kind == "np":
        b = b.as_np_ndarray()
    assert b.dtype == np.dtype(dtype) and b.shape == ref.shape
    np.testing.assert_array_equal(b.asnumpy(), ref)
    write_through(b, x, ref, dtype, (1, 2))
    write_through(x, b, ref, dtype, (0, 0))
    # the consumer outlives the producer; mxgo's export lives until MXNet lets go
    del x, capsule
    settle()
    churn()
    np.testing.assert_array_equal(b.asnumpy(), ref)
    assert live()[2] == before[2] + 1
    del b
    settle()
    assert live() == before  # the deleter ran, once


def test_mxgo_bfloat16_to_mxnet():
    x = mx.nd.array([1.5, -2, 0.25], dtype="bfloat16")
    b = mxnet.nd.from_dlpack(x.to_dlpack_for_read())
    assert b.dtype.names == ("bfloat16",)  # MXNet's NumPy stand-in: a record of one uint16
    np.testing.assert_array_equal(b.astype("float32").asnumpy(), [1.5, -2, 0.25])


@pytest.mark.parametrize("dtype", sorted(REFUSED))
def test_mxnet_refuses_dtype(dtype):
    exc, match = REFUSED[dtype]
    x = mx.nd.array([1, 0, 1], dtype=dtype)
    capsule = x.to_dlpack_for_read()
    with pytest.raises(exc, match=match):
        mxnet.nd.from_dlpack(capsule)
    # not consumed: the capsule still frees the export (the fixture counts it)
    del capsule


@pytest.mark.parametrize("make", [
    pytest.param(lambda: mx.nd.array(np.arange(6.0).reshape(2, 3)).T, id="transposed"),
    pytest.param(lambda: mx.nd.array(np.arange(12.0).reshape(3, 4))[:, 1:3], id="columns"),
    pytest.param(lambda: mx.nd.array(np.arange(12.0).reshape(3, 4))[::2], id="every_other_row"),
    # contiguous memory, but the size-1 dimension keeps its stride (1, 4): MXNet checks
    # every stride, also those of size-1 dimensions
    pytest.param(lambda: mx.nd.array(np.arange(4.0).reshape(1, 4)).T, id="size_1_stride"),
])
def test_mxnet_refuses_non_compact(make):
    x = make()
    capsule = x.to_dlpack_for_read()
    with pytest.raises(mxnet.base.MXNetError, match=COMPACT) as info:
        mxnet.nd.from_dlpack(capsule)
    assert isinstance(info.value, RuntimeError)  # MXNet's MXNetError is a RuntimeError
    del capsule


def test_mxnet_takes_offset_views():
    """mxgo folds a view's offset into data (byte_offset 0): a compact slice goes over."""
    x = mx.nd.array(np.arange(12.0).reshape(3, 4))
    b = mxnet.nd.from_dlpack(x[1:].to_dlpack_for_write())
    np.testing.assert_array_equal(b.asnumpy(), np.arange(4.0, 12.0).reshape(2, 4))
    b[0, 0] = -1
    b.wait_to_read()
    assert x.asnumpy()[1, 0] == -1


@pytest.mark.parametrize("shape", [(2, 0), (0, 3), (2, 0, 3), (0,)])
def test_mxgo_size_0_to_mxnet(shape):
    """MXNet checks strides[i] == shape[i+1] * strides[i+1] even without elements: mxgo
    exports size-0 arrays with those compact strides ((0, 1) for (2, 0)), where its own
    layout, as NumPy's and PyTorch's, says (1, 1)."""
    x = mx.nd.zeros(shape)
    capsule = x.to_dlpack_for_read()
    compact = tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
    assert capsule_tensor(capsule) == ((2, 32, 1), shape, compact)
    b = mxnet.nd.from_dlpack(capsule)
    assert b.shape == shape and b.size == 0


def test_mxgo_0d_to_mxnet():
    b = mxnet.nd.from_dlpack(mx.nd.array(3.5).to_dlpack_for_read())
    assert b.shape == () and b.asnumpy()[()] == 3.5


def test_mxnet_from_dlpack_takes_capsules_only():
    x = mx.nd.ones((2,))
    with pytest.raises(AssertionError, match="consumed only once"):  # no __dlpack__ protocol
        mxnet.nd.from_dlpack(x)
    capsule = x.to_dlpack_for_read()
    b = mxnet.nd.from_dlpack(capsule)
    with pytest.raises(AssertionError, match="consumed only once"):
        mxnet.nd.from_dlpack(capsule)
    np.testing.assert_array_equal(b.asnumpy(), [1, 1])


def test_round_trip_mxgo_mxnet_mxgo():
    x = mx.nd.array([[1, 2], [3, 4]], dtype="int32")
    y = mx.nd.from_dlpack(mxnet.nd.to_dlpack_for_write(mxnet.nd.from_dlpack(x.to_dlpack_for_write())))
    y[0, 0] = 9
    y.wait_to_read()
    assert x.asnumpy()[0, 0] == 9
    del x
    settle()
    np.testing.assert_array_equal(y.asnumpy(), [[9, 2], [3, 4]])


# ---- mx.nd.array of the other side's arrays: copies, as MXNet's own --------------------

@pytest.mark.parametrize("dtype", SHARED)
def test_mxgo_array_of_mxnet_ndarray(dtype):
    ref = reference(dtype)
    a = mxnet.nd.array(ref, dtype=dtype)
    x = mx.nd.array(a)
    assert np.dtype(x.dtype) == np.dtype(dtype) and x.shape == ref.shape  # the source's dtype
    np.testing.assert_array_equal(x.asnumpy(), ref)
    x[0, 0] = other_value(dtype, ref[0, 0])
    x.wait_to_read()
    np.testing.assert_array_equal(a.asnumpy(), ref)  # a copy
    y = mx.nd.array(a, dtype="float64")
    assert np.dtype(y.dtype) == np.float64
    np.testing.assert_array_equal(y.asnumpy(), ref.astype(np.float64))


def test_mxnet_array_of_ndarrays():
    """What MXNet's mx.nd.array does with its own NDArray (keeps the dtype) and with mxgo's
    (an array-like to it: float32, read through __array__)."""
    a = mxnet.nd.array([1, 2], dtype="int32")
    assert mxnet.nd.array(a).dtype == np.int32
    x = mx.nd.array([1, 2], dtype="int32")
    b = mxnet.nd.array(x)
    assert b.dtype == np.float32
    np.testing.assert_array_equal(b.asnumpy(), [1, 2])
