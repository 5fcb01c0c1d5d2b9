"""mx.nd.from_numpy: zero-copy sharing, the read-only lock it puts on the NumPy array,
NumPy arrays that are read-only for their own reasons, copies, and refused inputs."""
import gc
import sys

import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import ALL_DTYPES, Snapshot, assert_bits, assert_nd, name, sample
from interop_helpers import FIRST_USES, HOLDS_MEMORY, live_counts


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_zero_copy_every_dtype(dtype):
    n = sample(dtype, (3, 4))
    before = n.copy()
    x = mx.nd.from_numpy(n)
    assert x.dtype is n.dtype.type and x.shape == n.shape and x.writable
    assert_bits(x.asnumpy(), before)
    assert not n.flags.writeable  # locked against NumPy writes while mxgo shares it
    x[1, ::2] = n[0, 1]
    x.wait_to_read()  # mxgo writes asynchronously: wait before NumPy reads (as in MXNet)
    before[1, ::2] = before[0, 1]
    assert_bits(n, before)  # mxgo's write is visible in NumPy


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (2, 3, 4, 5)], ids=str)
def test_zero_copy_shapes(shape):
    n = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    x = mx.nd.from_numpy(n)
    assert_nd(x, n)
    if n.size:
        x[...] = -1
        x.wait_to_read()
        assert (n == -1).all()


def test_zero_copy_of_a_contiguous_view_writes_into_its_base():
    base = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = mx.nd.from_numpy(base[1])
    x[:] = 0
    x.wait_to_read()
    assert base.tolist() == [[0, 1, 2, 3], [0, 0, 0, 0], [8, 9, 10, 11]]
    x[::-2] += 5  # views of a from_numpy array reach NumPy's memory too
    x.wait_to_read()
    assert base[1].tolist() == [0, 5, 0, 5]


@pytest.mark.parametrize("make", [
    lambda: np.arange(6.0).reshape(2, 3),
    lambda: np.arange(6.0).reshape(2, 3).T,
    lambda: np.arange(12.0)[::2],
    lambda: np.frombuffer(bytes(range(8)), dtype=np.uint8),
], ids=["c_contiguous", "transposed", "strided", "readonly_bytes"])
def test_zero_copy_false_copies_and_leaves_numpy_alone(make):
    n = make()
    flag = n.flags.writeable
    snap = Snapshot(n)
    x = mx.nd.from_numpy(n, zero_copy=False)
    assert_nd(x, n)
    assert n.flags.writeable == flag and x.writable
    x[...] = 42
    snap.assert_intact()


def _frozen(n):
    n.flags.writeable = False
    return n


def _memmap(tmp_path):
    path = tmp_path / "data.bin"
    np.arange(6, dtype=np.float32).tofile(path)
    return np.memmap(path, dtype=np.float32, mode="r", shape=(2, 3))


READ_ONLY_SOURCES = {
    "bytes": lambda tmp: np.frombuffer(b"\x01\x00\x02\x00\x03\x00\x04\x00", dtype=np.int16),
    "flag_set_by_owner": lambda tmp: _frozen(np.arange(6.0).reshape(2, 3)),
    "view_of_frozen": lambda tmp: _frozen(np.arange(8, dtype=np.int64))[2:6],
    "broadcast_to_c_contiguous": lambda tmp: np.broadcast_to(np.arange(3.0), (3,)),
    "memmap_mode_r": _memmap,
}


@pytest.mark.parametrize("source", sorted(READ_ONLY_SOURCES))
def test_read_only_numpy_gives_a_read_only_ndarray(source, tmp_path):
    n = READ_ONLY_SOURCES[source](tmp_path)
    assert not n.flags.writeable
    snap = Snapshot(n)
    x = mx.nd.from_numpy(n)
    assert not x.writable
    assert_nd(x, n)
    assert not x[::-1].writable and not x.reshape(-1).writable
    for write in (lambda: x.__setitem__(0, 9), lambda: x.__setitem__(slice(None), np.ones(n.shape)),
                  lambda: x.__setitem__(Ellipsis, mx.nd.ones(n.shape, dtype=n.dtype)),
                  lambda: x.__iadd__(1), lambda: x[1:].__imul__(2)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    snap.assert_intact()
    assert_nd(x, n)
    y = x.copy()  # copies of it are writable
    assert y.writable
    y[...] = 0
    snap.assert_intact()


def test_array_locked_by_an_earlier_from_numpy_stays_writable_through_mxgo():
    n = np.arange(8.0)
    first = mx.nd.from_numpy(n)
    assert not n.flags.writeable
    second = mx.nd.from_numpy(n)
    assert second.writable
    second[0] = 100
    mx.nd.waitall()
    assert n[0] == 100 and first[0].asscalar() == 100
    view = mx.nd.from_numpy(n[2:5])  # a contiguous view of the locked array, too
    assert view.writable
    view[:] = -1
    mx.nd.waitall()
    assert n.tolist() == [100, 1, -1, -1, -1, 5, 6, 7]
    assert_nd(first, n)


def test_from_numpy_does_not_lock_on_failure():
    n = np.arange(12.0).reshape(3, 4)
    for bad in (n.T, n[:, ::2]):
        with pytest.raises(ValueError, match="C-contiguous"):
            mx.nd.from_numpy(bad)
    assert n.flags.writeable
    n[0, 0] = 5.0  # NumPy can still write


@pytest.mark.parametrize("make", [
    lambda: np.arange(12.0).reshape(3, 4).T,
    lambda: np.arange(12.0)[::2],
    lambda: np.asfortranarray(np.ones((2, 3))),
    lambda: np.arange(24).reshape(2, 3, 4)[:, ::-1],
], ids=["transposed", "strided", "fortran", "reversed"])
def test_non_c_contiguous_raises_value_error(make):
    n = make()
    snap = Snapshot(n)
    with pytest.raises(ValueError, match="C-contiguous"):
        mx.nd.from_numpy(n)
    snap.assert_intact()
    assert_nd(mx.nd.from_numpy(n, zero_copy=False), n)


@pytest.mark.parametrize("make, error, match", [
    (lambda: np.array([1, "a"], dtype=object), TypeError, "object"),
    (lambda: np.array(["ab", "c"]), TypeError, "unsupported dtype"),
    (lambda: np.array([b"ab"]), TypeError, "unsupported dtype"),
    (lambda: np.array(["2024-01-01"], dtype="datetime64[D]"), TypeError, "datetime64"),
    (lambda: np.array([5], dtype="timedelta64[s]"), TypeError, "timedelta64"),
    (lambda: np.zeros(2, dtype=[("a", "f4"), ("b", "i4")]), TypeError, "unsupported dtype"),
    (lambda: np.arange(4, dtype=">f4"), ValueError, "byte order"),
    (lambda: np.arange(4, dtype=">i8"), ValueError, "byte order"),
    (lambda: np.arange(4, dtype=np.dtype("<c8").newbyteorder(">")), ValueError, "byte order"),
    (lambda: [1.0, 2.0], TypeError, "numpy.ndarray"),
    (lambda: 3.0, TypeError, "numpy.ndarray"),
    (lambda: mx.nd.ones((2,)), TypeError, "numpy.ndarray"),
    (lambda: torch.ones(2), TypeError, "numpy.ndarray"),
    (lambda: memoryview(b"abcd"), TypeError, "numpy.ndarray"),
], ids=["object", "str", "bytes", "datetime64", "timedelta64", "structured", "big_endian_f4",
        "big_endian_i8", "big_endian_c8", "list", "float", "ndarray", "torch", "memoryview"])
@pytest.mark.parametrize("zero_copy", [True, False])
def test_unsupported_inputs(make, error, match, zero_copy):
    src = make()
    writable = getattr(getattr(src, "flags", None), "writeable", None)
    with pytest.raises(error, match=match):
        mx.nd.from_numpy(src, zero_copy=zero_copy)
    if isinstance(src, np.ndarray):
        assert src.flags.writeable == writable


# ---- the C path (numpy.c) -----------------------------------------------------------------

def test_the_c_path_is_on():
    # NumPy's array layout matched the probe at import, so from_numpy runs in C. A NumPy
    # whose layout differed would turn it off (correct, but slow): fail loudly instead.
    assert mx.base.NUMPY_FASTPATH


@pytest.mark.parametrize("use", FIRST_USES, ids=str)
def test_c_path_keeps_the_numpy_array_alive_exactly_as_long_as_needed(use):
    n = np.arange(6.0)
    refs, live = sys.getrefcount(n), live_counts()
    x = mx.nd.from_numpy(n)
    assert sys.getrefcount(n) == refs + 1
    assert live_counts() == live  # made in C: no Go handle or storage yet
    del x  # never used by Go: the reference goes at once
    assert sys.getrefcount(n) == refs and live_counts() == live

    x = mx.nd.from_numpy(n)  # n is locked now: writable through mxgo all the same
    assert x.writable
    out = FIRST_USES[use](x)  # makes the Go side, which takes over the reference
    x.wait_to_read()
    assert live_counts()[:2] > live[:2]
    if use == "setitem":
        assert n[0] == 5
    del x
    mx.nd.waitall()
    assert sys.getrefcount(n) == refs + (use in HOLDS_MEMORY)  # through the storage
    del out
    mx.nd.waitall()
    gc.collect()
    assert sys.getrefcount(n) == refs and live_counts() == live
    np.testing.assert_array_equal(n[1:], np.arange(1.0, 6.0))


def test_lock_registry_is_not_fooled_by_a_reused_id():
    # The registry remembers arrays by id and checks a weak reference: a new, read-only
    # NumPy array at a dead locked array's address must not pass for locked.
    for _ in range(100):
        a = np.zeros(7)
        mx.nd.from_numpy(a)
        ident = id(a)
        del a
        b = np.zeros(7)
        b.flags.writeable = False
        if id(b) == ident:
            assert not mx.nd.from_numpy(b).writable
            return
    pytest.fail("CPython never reused the address; the test needs another way to reuse it")


def test_lock_registry_stays_small():
    import mxgo.base
    for _ in range(5000):
        mx.nd.from_numpy(np.zeros(3))
    gc.collect()
    assert mxgo.base.fastpath.numpy_locks() < 200  # dead entries are swept as it grows
