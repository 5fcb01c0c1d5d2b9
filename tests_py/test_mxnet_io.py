"""The real MXNet 1.9.1 and mxgo read each other's NDArray files (mx.nd.save / mx.nd.load).

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet, `make
test-py-mxnet`; see environments.py). Both directions for every dtype both have, list and dict
forms, values, dtypes, shapes and names; the same data saved by both gives the same bytes;
0-d and size-0 arrays (which MXNet makes and loads only inside mx.util.np_shape); what
MXNet itself refuses, asserted as peer facts.
"""
import struct

import mxnet
import numpy as np
import pytest

import mxgo as mx
from test_io import live as mxgo_live

SHARED = ["float16", "float32", "float64", "uint8", "int8", "int32", "int64", "bool"]
#: the type flags mxgo reads but refuses to write: MXNet 1.9.1 cannot load them
UNLOADABLE_FLAGS = {8: "int16", 9: "uint16", 10: "uint32", 11: "uint64"}
#: a record's type flag in a one-array file of shape (n,): header 24, magic, stype, ndim, dim, ctx
FLAG_AT = 24 + 4 + 4 + 4 + 8 + 8


def reference(dtype, shape=(3, 4)):
    ref = np.arange(int(np.prod(shape))).reshape(shape) - 5
    return (ref % 2).astype(bool) if dtype == "bool" else ref.astype(dtype)


def live():
    mxnet.nd.waitall()  # MXNet frees its arrays on its engine
    return mxgo_live()


def mxnet_array(dtype, shape=(3, 4)):
    return mxnet.nd.array(reference(dtype, shape), dtype=dtype)


@pytest.mark.parametrize("dtype", SHARED)
def test_mxnet_writes_mxgo_reads(tmp_path, dtype):
    before = live()
    p = str(tmp_path / "m.params")
    mxnet.nd.save(p, {"weight": mxnet_array(dtype), "bias": mxnet_array(dtype, (5,))})
    out = mx.nd.load(p)
    assert list(out) == ["weight", "bias"]
    for name, shape in (("weight", (3, 4)), ("bias", (5,))):
        assert out[name].dtype == np.dtype(dtype).type and out[name].shape == shape
        np.testing.assert_array_equal(out[name].asnumpy(), reference(dtype, shape))
    mxnet.nd.save(p, [mxnet_array(dtype), mxnet_array(dtype, (1, 2, 1))])
    lst = mx.nd.load_frombuffer(open(p, "rb").read())
    assert isinstance(lst, list) and [x.shape for x in lst] == [(3, 4), (1, 2, 1)]
    del out, lst
    assert live() == before


@pytest.mark.parametrize("dtype", SHARED)
def test_mxgo_writes_mxnet_reads(tmp_path, dtype):
    p = str(tmp_path / "g.params")
    base = mx.nd.array(reference(dtype, (4, 6)), dtype=dtype)
    view = base[::2, 1:].T  # non-contiguous: saved compact
    mx.nd.save(p, {"view": view, "full": base})
    out = mxnet.nd.load(p)
    assert sorted(out) == ["full", "view"]
    assert out["view"].dtype == np.dtype(dtype).type and out["view"].shape == (5, 2)
    np.testing.assert_array_equal(out["view"].asnumpy(), view.asnumpy())
    np.testing.assert_array_equal(out["full"].asnumpy(), reference(dtype, (4, 6)))
    mx.nd.save(p, [base])
    (back,) = mxnet.nd.load(p)
    np.testing.assert_array_equal(back.asnumpy(), reference(dtype, (4, 6)))


@pytest.mark.parametrize("dtype", SHARED)
def test_same_data_same_bytes(tmp_path, dtype):
    a, b = str(tmp_path / "a.params"), str(tmp_path / "b.params")
    mxnet.nd.save(a, {"x": mxnet_array(dtype), "y": mxnet_array(dtype, (2,))})
    mx.nd.save(b, {"x": mx.nd.array(reference(dtype), dtype=dtype),
                   "y": mx.nd.array(reference(dtype, (2,)), dtype=dtype)})
    assert open(a, "rb").read() == open(b, "rb").read()
    mxnet.nd.save(a, [mxnet_array(dtype)])
    mx.nd.save(b, mx.nd.array(reference(dtype), dtype=dtype))
    assert open(a, "rb").read() == open(b, "rb").read()


def test_zero_d_and_size_zero_need_np_shape(tmp_path):
    """MXNet makes 0-d and size-0 arrays only with NumPy shape semantics on, and writes
    them as V3 records, which it loads only in that scope. mxgo writes such a file as V3
    throughout and reads MXNet's."""
    p = str(tmp_path / "g.params")
    mx.nd.save(p, [mx.nd.array(np.float32(2.5)), mx.nd.zeros((0,)), mx.nd.zeros((2, 0), dtype="int32"),
                   mx.nd.ones((2,))])
    with pytest.raises(mxnet.base.MXNetError, match="np shape"):
        mxnet.nd.load(p)
    with mxnet.util.np_shape(True):
        out = mxnet.nd.load(p)
        assert [x.shape for x in out] == [(), (0,), (2, 0), (2,)]
        assert out[0].asnumpy() == 2.5 and out[2].dtype == np.int32
        m = str(tmp_path / "m.params")
        mxnet.nd.save(m, [mxnet.nd.array(np.float32(2.5)), mxnet.nd.zeros((0,)),
                          mxnet.nd.zeros((2, 0), dtype="int32"), mxnet.nd.ones((2,))])
    assert open(m, "rb").read() == open(p, "rb").read()
    assert [x.shape for x in mx.nd.load(m)] == [(), (0,), (2, 0), (2,)]


def test_bfloat16_both_ways(tmp_path):
    """MXNet 1.9.1 loads type flag 12 as its bfloat16 (a structured uint16 dtype)."""
    p = str(tmp_path / "g.params")
    x = mx.nd.array([1.0, -2.5, 3.0], dtype="bfloat16")
    mx.nd.save(p, [x])
    with open(p, "rb") as f:
        assert struct.unpack_from("<i", f.read(), FLAG_AT)[0] == 12
    (y,) = mxnet.nd.load(p)
    assert y.dtype.names == ("bfloat16",)
    bits = y.asnumpy().view(np.uint16)
    np.testing.assert_array_equal(bits, np.array([1.0, -2.5, 3.0], np.float32).view(np.uint32) >> 16)
    mxnet.nd.save(p, [y])
    (z,) = mx.nd.load(p)
    np.testing.assert_array_equal(z.astype("float32").asnumpy(), [1.0, -2.5, 3.0])


@pytest.mark.parametrize("flag", sorted(UNLOADABLE_FLAGS))
def test_fact_mxnet_cannot_load_int16_uint_types(tmp_path, flag):
    """Why mx.nd.save refuses int16, uint16, uint32 and uint64: MXNet 1.9.1's mshadow has
    their type flags, but loading one fails. mxgo reads them."""
    p = str(tmp_path / "m.params")
    mxnet.nd.save(p, [mxnet.nd.array([1, 2], dtype="int32")])
    data = bytearray(open(p, "rb").read())
    struct.pack_into("<i", data, FLAG_AT, flag)
    data = bytes(data[:FLAG_AT + 4]) + bytes(2 * np.dtype(UNLOADABLE_FLAGS[flag]).itemsize) + struct.pack("<Q", 0)
    with pytest.raises(mxnet.base.MXNetError, match="Unknown type enum %d" % flag):
        mxnet.nd.load_frombuffer(data)
    (x,) = mx.nd.load_frombuffer(data)
    assert x.dtype == np.dtype(UNLOADABLE_FLAGS[flag]).type and x.shape == (2,)
    with pytest.raises(TypeError, match=UNLOADABLE_FLAGS[flag]):
        mx.nd.save(p, x)


def test_fact_legacy_zero_d_save_is_unloadable(tmp_path):
    """Outside np_shape MXNet 1.9.1 still makes a 0-d array from a NumPy scalar and saves it
    as a V2 record of rank 0 followed by its data, but rank 0 means "uninitialised" there:
    MXNet cannot load the file back. mxgo refuses it with a ValueError that says why."""
    p = str(tmp_path / "m.params")
    mxnet.nd.save(p, [mxnet.nd.array(np.float32(3)), mxnet.nd.array([5.0])])
    with pytest.raises(mxnet.base.MXNetError):
        mxnet.nd.load(p)
    with pytest.raises(ValueError, match="no shape"):
        mx.nd.load(p)


def test_both_refuse_every_truncation(tmp_path):
    p = str(tmp_path / "m.params")
    mxnet.nd.save(p, {"w": mxnet_array("float32", (2, 2)), "b": mxnet_array("int64", (1,))})
    data = open(p, "rb").read()
    before = live()
    for n in range(len(data)):
        with pytest.raises(mxnet.base.MXNetError):
            mxnet.nd.load_frombuffer(data[:n])
        with pytest.raises(ValueError, match="invalid NDArray file"):
            mx.nd.load_frombuffer(data[:n])
    assert live() == before


def test_mxnet_load_and_save_argument_errors(tmp_path):
    """mx.nd.save's argument checks are MXNet's: a tuple is a ValueError, a non-str key or
    a non-NDArray value a TypeError, in both."""
    p = str(tmp_path / "x.params")
    for lib in (mxnet, mx):
        a = lib.nd.zeros((2,))
        with pytest.raises(ValueError):
            lib.nd.save(p, (a,))
        with pytest.raises(TypeError):
            lib.nd.save(p, {1: a})
        with pytest.raises(TypeError):
            lib.nd.load(3)
