"""mx.nd.save, mx.nd.load and mx.nd.load_frombuffer: MXNet 1.x's NDArray file format.

Round trips for every dtype the format holds, lists and dicts, 0-d, size-0 and strided
arrays; what is refused (dtypes MXNet 1.9.1 cannot load, wrong argument types); and
damaged files: every truncation of a small file, flipped bytes, huge claimed sizes. Each
damaged file raises a clear exception (never a crash, a hang or a huge allocation) and
leaves mxgo's live counts where they were. Needs NumPy only (the byte-level facts are
those of files real MXNet 1.9.1 wrote: tests_go/testdata/ndfile; test_mxnet_io.py
checks both directions against MXNet itself).
"""
import gc
import os
import struct

import numpy as np
import pytest

import mxgo as mx
from mxgo.base import MXNetError, core

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "tests_go", "testdata", "ndfile")
SAVED = ["float16", "float32", "float64", "uint8", "int8", "int32", "int64", "bool", "bfloat16"]
REFUSED = ["int16", "uint16", "uint32", "uint64", "complex64", "complex128"]


def live():
    gc.collect()
    try:
        mx.nd.waitall()
    except MXNetError:  # an engine error an earlier test left uncollected is not ours to count
        mx.nd.waitall()
    return core.LiveHandles(), core.LiveStorages()


@pytest.fixture
def no_leaks():
    before = live()
    yield
    assert live() == before


def values(dtype, shape=(2, 3)):
    ref = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 2.5
    if dtype == "bool":
        return ref > 0
    return ref.astype("float32") if dtype == "bfloat16" else ref.astype(dtype)


def as_numpy(x):
    return x.astype("float32").asnumpy() if x.dtype in ("bfloat16",) or str(x.dtype) == "bfloat16" else x.asnumpy()


@pytest.mark.parametrize("dtype", SAVED)
def test_round_trip_every_dtype(tmp_path, dtype, no_leaks):
    a = mx.nd.array(values(dtype), dtype=dtype)
    path = str(tmp_path / "a.params")
    mx.nd.save(path, a)
    (b,) = mx.nd.load(path)
    assert b.shape == a.shape and b.dtype == a.dtype
    np.testing.assert_array_equal(as_numpy(b), as_numpy(a))
    assert mx.nd.load_frombuffer(open(path, "rb").read())[0].shape == a.shape


def test_list_and_dict_forms(tmp_path, no_leaks):
    a, b = mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([5, 6, 7], dtype="int64")
    p = str(tmp_path / "x.params")
    mx.nd.save(p, [a, b])
    out = mx.nd.load(p)
    assert isinstance(out, list) and [x.shape for x in out] == [(2, 2), (3,)]
    mx.nd.save(p, {"w": a, "名前": b})
    out = mx.nd.load(p)
    assert isinstance(out, dict) and list(out) == ["w", "名前"]
    np.testing.assert_array_equal(out["名前"].asnumpy(), [5, 6, 7])
    mx.nd.save(p, [])
    assert mx.nd.load(p) == []
    mx.nd.save(p, {})  # no names: MXNet writes (and reads back) an empty dict as an empty list
    assert mx.nd.load(p) == []
    mx.nd.save(tmp_path / "pathlike.params", a)  # os.PathLike too
    assert mx.nd.load(tmp_path / "pathlike.params")[0].shape == (2, 2)


def test_bytes_equal_mxnet_written_file(tmp_path):
    """A dict MXNet 1.9.1 wrote loads, and mxgo writes it again byte for byte."""
    src = os.path.join(TESTDATA, "mxnet191_dict.params")
    data = mx.nd.load(src)
    assert [str(np.dtype(v.dtype)) for v in data.values()] == [
        "float32", "float16", "float64", "int64", "int32", "uint8", "int8", "bool", "float32"]
    mx.nd.save(str(tmp_path / "again.params"), data)
    assert open(tmp_path / "again.params", "rb").read() == open(src, "rb").read()


def test_zero_d_size_zero_and_views(tmp_path, no_leaks):
    p = str(tmp_path / "x.params")
    base = mx.nd.array(np.arange(24, dtype=np.float32).reshape(4, 6))
    view = base[1:, ::2].T  # non-contiguous: saved compact
    arrays = [mx.nd.array(np.float32(3.5)), mx.nd.zeros((0,)), mx.nd.zeros((2, 0), dtype="int32"), view]
    mx.nd.save(p, arrays)
    with open(p, "rb") as f:
        assert struct.unpack_from("<I", f.read(), 24)[0] == 0xF993FACA  # NumPy-shape records (V3)
    out = mx.nd.load(p)
    assert [x.shape for x in out] == [(), (0,), (2, 0), (3, 3)]
    np.testing.assert_array_equal(out[3].asnumpy(), view.asnumpy())
    assert out[0].asnumpy() == 3.5
    mx.nd.save(p, view)
    with open(p, "rb") as f:
        assert struct.unpack_from("<I", f.read(), 24)[0] == 0xF993FAC9  # legacy records (V2)


@pytest.mark.parametrize("dtype", REFUSED)
def test_dtypes_mxnet_cannot_load_are_refused(tmp_path, dtype, no_leaks):
    p = tmp_path / "x.params"
    with pytest.raises(TypeError, match=dtype):
        mx.nd.save(str(p), [mx.nd.zeros((2,), dtype="float32"), mx.nd.zeros((2,), dtype=dtype)])
    assert not p.exists()


def test_argument_errors(tmp_path):
    """Each is the built-in MXNet raises there and an MXNetError (both excepts catch it)."""
    a = mx.nd.zeros((2,))
    for cls, call in [(ValueError, lambda: mx.nd.save(str(tmp_path / "x"), (a,))),
                      (TypeError, lambda: mx.nd.save(str(tmp_path / "x"), {1: a})),
                      (TypeError, lambda: mx.nd.save(str(tmp_path / "x"), [a, np.zeros(2)])),
                      (TypeError, lambda: mx.nd.load(3)),
                      (TypeError, lambda: mx.nd.load_frombuffer("a str"))]:
        with pytest.raises(cls) as info:
            call()
        assert isinstance(info.value, MXNetError)
    with pytest.raises(MXNetError, match="no such file"):
        mx.nd.load(str(tmp_path / "missing.params"))
    with pytest.raises(MXNetError):
        mx.nd.save(str(tmp_path / "no" / "dir.params"), a)


def test_load_frombuffer_takes_any_bytes_like(tmp_path, no_leaks):
    p = str(tmp_path / "x.params")
    mx.nd.save(p, {"a": mx.nd.array([1, 2, 3])})
    data = open(p, "rb").read()
    for buf in (data, bytearray(data), memoryview(data), np.frombuffer(data, np.uint8)):
        np.testing.assert_array_equal(mx.nd.load_frombuffer(buf)["a"].asnumpy(), [1, 2, 3])


def small_file(tmp_path):
    p = str(tmp_path / "small.params")
    mx.nd.save(p, {"w": mx.nd.array([[1, 2], [3, 4]]), "b": mx.nd.array([7], dtype="int64")})
    return open(p, "rb").read()


def test_every_truncation_raises(tmp_path, no_leaks):
    data = small_file(tmp_path)
    for n in range(len(data)):
        with pytest.raises(ValueError, match="invalid NDArray file"):
            mx.nd.load_frombuffer(data[:n])
        open(tmp_path / "t.params", "wb").write(data[:n])
        with pytest.raises(ValueError, match="invalid NDArray file"):
            mx.nd.load(str(tmp_path / "t.params"))
    with pytest.raises(ValueError, match="unexpected bytes"):
        mx.nd.load_frombuffer(data + b"\0")


def test_flipped_bytes_raise_or_load(tmp_path, no_leaks):
    data = small_file(tmp_path)
    for i in range(len(data)):
        for bit in (0x01, 0x80):
            bad = bytearray(data)
            bad[i] ^= bit
            try:
                out = mx.nd.load_frombuffer(bytes(bad))
            except (ValueError, NotImplementedError, UnicodeDecodeError):
                continue
            assert isinstance(out, (list, dict))  # a flip inside the values loads


def test_huge_claims_fail_fast(no_leaks):
    head = struct.pack("<QQ", 0x112, 0)
    cases = [
        head + struct.pack("<Q", 1 << 62),  # arrays
        head + struct.pack("<QIIi", 1, 0xF993FAC9, 0, 2) + struct.pack("<qq", 1 << 40, 1 << 30)
        + struct.pack("<iii", 1, 0, 0),  # elements
        head + struct.pack("<QIIi", 1, 0xF993FAC9, 0, 1 << 30),  # rank
        head + struct.pack("<QQQ", 0, 1, 1 << 60),  # names
        b"\x89PNG\r\n\x1a\n" + bytes(64),
    ]
    for c in cases:
        with pytest.raises(ValueError, match="invalid NDArray file"):
            mx.nd.load_frombuffer(c)
    sparse = head + struct.pack("<QIi", 1, 0xF993FAC9, 1)
    with pytest.raises(NotImplementedError, match="sparse"):
        mx.nd.load_frombuffer(sparse)
