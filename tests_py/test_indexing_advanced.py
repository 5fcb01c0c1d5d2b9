"""Advanced indexing (pysrc/mxgo/ndarray/indexing.py) against NumPy's integer-array
indexing, which MXNet 1.9.1 follows (mxnet_diff_index.py checks MXNet itself): every dtype,
strided and transposed arrays, reading (a copy) and assignment (into the array and every
view of it), and the refusals. MXNet's own casts: bools and floats in index lists are
integers; a result with no axes has shape (1,)."""
import numpy as np
import pytest

import mxgo as mx
from api_helpers import assert_nd

SHAPE = (3, 4, 5)
S = slice
E = Ellipsis
KEYS = [
    [2, 0], [[0, 1], [2, 2]], np.array([1, 1, 0]), ([0, 2], [1, 3]), ([0, 2], S(None), [4, 0]),
    (S(None), [3, 0, 1]), (S(1, None), [0, 1], S(None, None, -2)), (1, [0, 2]), ([0, 1], 2),
    (1, S(None), [0, 1]), (E, [4, 0]), (None, [0, 1]), (S(None), None, [1, 2]), ([[0], [2]], [1, 3]),
    ([-1, -3],), (S(None, None, -1), [0, 3], S(None, None, 2)), ([0, 1], [1, 2], [3, 4]), (2, 3, [4]),
    (np.int64(1), np.array([[0, 1]])),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float16", "complex128", "bool"])
def test_getitem_matches_numpy(key, dtype):
    n = (np.arange(60).reshape(SHAPE) % 7).astype(dtype)
    x = mx.nd.array(n, dtype=dtype)
    want = n[key]
    assert_nd(x[key], want.reshape(want.shape or (1,)))


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_of_strided_and_transposed_views(key):
    big = np.arange(300, dtype=np.float64).reshape(6, 10, 5)
    x = mx.nd.array(big, dtype="float64")[::2, 1::2]  # a strided view, shape (3, 5, 5)
    n = big[::2, 1::2]
    assert_nd(x[key], n[key].reshape(n[key].shape or (1,)))
    t = mx.nd.array(np.arange(60.0).reshape(5, 4, 3), dtype="float64").transpose((2, 1, 0))
    nt = np.arange(60.0).reshape(5, 4, 3).transpose(2, 1, 0)
    assert_nd(t[key], nt[key].reshape(nt[key].shape or (1,)))


def test_getitem_is_a_copy():
    x = mx.nd.array(np.arange(12.0).reshape(3, 4), dtype="float64")
    y = x[[0, 2]]
    y[:] = -1
    assert_nd(x, np.arange(12.0).reshape(3, 4))


def test_mxnet_casts_of_index_values():
    n = np.arange(12.0).reshape(4, 3)
    x = mx.nd.array(n, dtype="float64")
    assert_nd(x[np.array([True, False])], n[[1, 0]])  # bools are 0 and 1, not a mask
    assert_nd(x[[1.9, 0.2]], n[[1, 0]])  # floats truncate
    assert_nd(x[mx.nd.array([3, 1])], n[[3, 1]])  # float32 NDArray
    assert_nd(x[mx.nd.array([1, 0]) > 0], n[[1, 0]])  # a comparison's 0/1 is a gather
    assert_nd(x[mx.nd.array([2], dtype="int64"), 1], n[[2], 1])


SETS = [
    ([2, 0], 7.0), ((S(None), [3, 0]), np.arange(3.0).reshape(3, 1, 1)), (([0, 2], [1, 3]), np.arange(10.0).reshape(2, 5)),
    ((1, S(None), [0, 4]), np.arange(8.0).reshape(2, 4)), (([0, 0, 0], [1, 1, 1], [2, 2, 2]), np.array([1.0, 2.0, 3.0])),
    ((E, [1]), -2.5), (([[0], [2]], [1, 3]), np.arange(20.0).reshape(2, 2, 5)), ((S(None, None, -1), [0, 3]), 1.0),
]


@pytest.mark.parametrize("key, value", SETS, ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "complex64", "uint8"])
def test_setitem_matches_numpy(key, value, dtype):
    n = np.arange(60).reshape(SHAPE).astype(dtype)
    x = mx.nd.array(n, dtype=dtype)
    n[key] = np.asarray(value).astype(dtype)
    x[key] = value
    assert_nd(x, n)


def test_setitem_writes_through_views_and_from_ndarrays():
    base = np.zeros((4, 6), np.float32)
    x = mx.nd.array(base)
    v = x[:, ::2]  # a strided view: assignment reaches x
    v[[0, 3], [2, 0]] = mx.nd.array([5.0, 6.0])
    base[:, ::2][[0, 3], [2, 0]] = [5.0, 6.0]
    assert_nd(x, base)
    t = x.T  # a transposed view
    t[[1], 2] = 9
    base.T[[1], 2] = 9
    assert_nd(x, base)


def test_setitem_bfloat16_goes_through_go():
    x = mx.nd.zeros((3, 2), dtype="bfloat16")
    x[[2, 0]] = 1.5
    assert_nd(x.astype("float32"), np.array([[1.5, 1.5], [0, 0], [1.5, 1.5]], np.float32))


def test_setitem_is_ordered_with_pending_work():
    x = mx.nd.zeros((1000, 100))
    y = x + 1  # queued on the engine
    y[[0, 999]] = 5
    z = y * 2
    want = np.full((1000, 100), 2.0, np.float32)
    want[[0, 999]] = 10
    assert_nd(z, want)


@pytest.mark.parametrize("key, exc", [
    ([3], IndexError), ([-4], IndexError), ((S(None), [4]), IndexError), ([], IndexError),
    ([mx.nd.array([0])], TypeError), (mx.nd.array([1, 0], dtype="bool"), ValueError), (([0, 1], [0, 1, 2]), IndexError),
    ([0, 0, 0, 0], None), (([0], [0], [0], [0]), IndexError), (["a"], IndexError), ([[0, 1], [2]], IndexError),
    ([float("nan")], IndexError), ((E, E, [0]), IndexError),
], ids=repr)
def test_bad_keys_raise_and_leave_the_array_intact(key, exc):
    n = np.arange(12.0).reshape(3, 4)
    x = mx.nd.array(n, dtype="float64")
    if exc is None:
        assert_nd(x[key], n[key])
        return
    with pytest.raises(exc):
        x[key]
    with pytest.raises(exc):
        x[key] = 1.0
    assert_nd(x, n)
    assert isinstance(pytest.raises(exc, x.__getitem__, key).value, mx.base.MXNetError)


def test_setitem_bad_values():
    x = mx.nd.array(np.arange(12.0).reshape(3, 4), dtype="float64")
    with pytest.raises(ValueError):
        x[[0, 1]] = np.ones((3, 3))
    with pytest.raises(TypeError):
        x[[0, 1]] = "a"
    assert_nd(x, np.arange(12.0).reshape(3, 4))
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    ro = mx.nd.from_numpy(frozen)
    with pytest.raises(ValueError, match="read-only"):
        ro[[0, 1]] = 5
    assert_nd(ro, np.arange(4.0))


@pytest.mark.parametrize("dtypes, shapes", [
    (("int64", "int64"), ((6,), (6,))),             # _gather_leading, the arrays as they are
    (("int32", "int32", "int32"), ((2, 3),) * 3),   # every axis, a 2-d index shape
    (("int32", "int64"), ((6,), (6,))),             # mixed dtypes: the general path
    (("float32", "float32"), ((6,), (6,))),         # MXNet's float indices: the general path
    (("int64", "int64"), ((6,), (1,))),             # broadcasting: the general path
])
def test_leading_index_arrays_match_numpy(dtypes, shapes):
    """x[a, b, ...] with NDArray indices for the leading axes: NumPy's values and shape on
    each path, negative indices from the end, an index past an axis an IndexError."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 5, 3)).astype(np.float32)
    x = mx.nd.array(a)
    idx = [rng.integers(-d, d, s) for d, s in zip(a.shape, shapes)]
    key = tuple(mx.nd.array(i, dtype=dt) for i, dt in zip(idx, dtypes))
    np.testing.assert_array_equal(x[key].asnumpy(), a[tuple(idx)])
    bad = tuple(mx.nd.array(np.full(s, d), dtype=dt) for d, s, dt in zip(a.shape, shapes, dtypes))
    with pytest.raises(IndexError):
        x[bad].wait_to_read()
    assert np.array_equal(x.asnumpy(), a)


def _general_gather(x, key):
    """x[key] on the general path (the key reduced in Python, _gather_axes in Go)."""
    from mxgo.ndarray import indexing, op
    view, axis, idx, bshape = indexing._reduce(x, key)
    return op.invoke("_gather_axes", [view, idx], {"axis": axis, "index_shape": bshape})


def _random_indices(rng, dims, idtype, ishape):
    """An index array of ishape for each axis of length d in dims, negative ones among them
    unless idtype is unsigned."""
    return [rng.integers(0 if idtype.startswith("u") else -d, d, ishape) for d in dims]


@pytest.mark.parametrize("dtype, idtype, view, k, ishape", [
    ("float32", "int64", (S(None),), 1, (7,)),                          # x[i] of bench_np.py
    ("float64", "int32", (S(None, None, -1), S(None, None, 2)), 1, (2, 3)),  # reversed, strided rows
    ("uint8", "int8", (S(None), S(None, None, -2)), 2, (5,)),           # x[rows, cols], a negative step
    ("float16", "uint8", (S(1, None),), 2, (3, 2)),
    ("complex128", "int64", (S(None), S(None), S(None, None, -1)), 3, (4,)),
    ("bool", "int16", (S(None, None, -1),), 1, (1,)),
    ("float32", "uint64", (S(None),), 2, (4,)),
    ("int32", "uint64", (S(None, None, -1),), 1, (3,)),
])
def test_leading_index_arrays_match_the_general_path(dtype, idtype, view, k, ishape):
    """The one-call path (_gather_leading on the index arrays as they are; gather_nd on
    them stacked for uint64) gives the general path's bits and NumPy's, on views with
    negative steps, with negative indices."""
    rng = np.random.default_rng(11)
    n = (rng.standard_normal((6, 5, 4)) * 50).astype(dtype)
    x = mx.nd.array(n, dtype=dtype)[view]
    a = n[view]
    idx = _random_indices(rng, a.shape[:k], idtype, ishape)
    key = tuple(mx.nd.array(i, dtype=idtype) for i in idx)
    for k_ in (key, key[0]) if k == 1 else (key,):
        got, want = x[k_], _general_gather(x, k_)
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
        np.testing.assert_array_equal(got.asnumpy(), a[tuple(idx)])
        assert mx.np.array(x)[k_].shape == a[tuple(idx)].shape


@pytest.mark.parametrize("cls", ["nd", "np"])
def test_integer_array_keys_take_c(cls, monkeypatch):
    """x[i] and x[i, j] with i (and j) non-empty integer mxgo arrays of at least one axis,
    of one dtype (not uint64) and one shape, are one _gather_leading call from C
    (pkg/pybridge/view.c); other array keys reach the class's _getitem. Both give the same
    values, shape and class."""
    n = np.arange(24.0).reshape(4, 6)
    x = mx.nd.array(n) if cls == "nd" else mx.np.array(n)
    slow = type(x)._getitem
    calls = []
    monkeypatch.setattr(type(x), "_getitem", lambda self, key: calls.append(key) or slow(self, key))
    for idtype in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"]:
        for shape in [(3,), (2, 2)]:
            i = mx.nd.array(np.arange(int(np.prod(shape))).reshape(shape) % 4, dtype=idtype)
            j = mx.nd.array((np.arange(int(np.prod(shape))).reshape(shape) * 5) % 6, dtype=idtype)
            for k, nk in [(i, i.asnumpy()), (mx.np.array(i), i.asnumpy()), ((i,), (i.asnumpy(),)),
                          ((i, j), (i.asnumpy(), j.asnumpy())), ((i, mx.np.array(j)), (i.asnumpy(), j.asnumpy()))]:
                got, want = x[k], slow(x, k)
                assert type(got) is type(want) is type(x) and got.shape == want.shape
                np.testing.assert_array_equal(got.asnumpy(), n[nk])
    assert calls == []
    i2, i3 = mx.nd.array([1, 2], dtype="int64"), mx.nd.array([1, 2, 3], dtype="int64")
    others = [(mx.nd.array([1, 2], dtype="uint64"), [1, 2]), (mx.nd.array([1, 3]), [1, 3]),  # uint64, MXNet's floats
              (mx.nd.array(2, dtype="int64"), 2), ((mx.nd.array([1], dtype="int64"), 2), ([1], 2)),  # 0-d, an int beside
              ((i2, mx.nd.array([0, 5], dtype="int32")), ([1, 2], [0, 5])),  # two dtypes
              ((i2, mx.nd.array([[0], [5]], dtype="int64")), ([1, 2], [[0], [5]])),  # two shapes (broadcast)
              ((i3, i3, i3), None)]  # more arrays than axes
    for k, nk in others:
        if nk is None:
            with pytest.raises(IndexError):
                x[k]
            continue
        np.testing.assert_array_equal(x[k].asnumpy().reshape(-1), n[nk].reshape(-1))
    assert len(calls) == len(others)


def test_index_array_gradient_accumulates():
    x = mx.nd.array(np.arange(6.0).reshape(3, 2))
    x.attach_grad()
    with mx.autograd.record():
        y = (x[mx.nd.array([2, -1, 0], dtype="int64")] * mx.nd.array([[1, 2]])).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[1, 2], [0, 0], [2, 4]])


def test_index_arrays_gradient_accumulates_at_repeated_pairs():
    x = mx.nd.array(np.arange(12.0).reshape(3, 4))
    x.attach_grad()
    rows, cols = mx.nd.array([2, -1, 0, 2], dtype="int64"), mx.nd.array([1, 1, -4, 3], dtype="int64")
    with mx.autograd.record():
        y = (x[rows, cols] * mx.nd.array([1, 2, 3, 4])).sum()
    y.backward()
    want = np.zeros((3, 4))
    np.add.at(want, ([2, 2, 0, 2], [1, 1, 0, 3]), [1, 2, 3, 4])
    np.testing.assert_array_equal(x.grad.asnumpy(), want)


def test_index_array_out_of_range_raises_on_wait():
    x = mx.nd.array(np.arange(5.0))
    for bad in (mx.nd.array([1, 5], dtype="int64"), mx.nd.array([-6], dtype="int32")):
        with pytest.raises(IndexError):
            x[bad].wait_to_read()
    np.testing.assert_array_equal(x.asnumpy(), np.arange(5.0))


@pytest.mark.parametrize("shape", [(5,), (3, 4)])
def test_integer_and_slice_keys_are_views(shape):
    """x[k] and x[a:b:c] (one call to Go): NumPy's values, shape (1,) for an element of a
    vector, memory shared with x, IndexError past either end."""
    n = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    x = mx.nd.array(n)
    for k in (0, 2, -1, -shape[0]):
        r = x[k]
        assert_nd(r, n[k].reshape(n[k].shape or (1,)))
        r[:] = -7
        assert (x.asnumpy()[k] == -7).all()
        x[:] = n
    for key in (S(1, None), S(None, None, -2), S(-2, 0, -1), S(10, 20)):
        assert_nd(x[key], n[key])
    for k in (shape[0], -shape[0] - 1):
        with pytest.raises(IndexError):
            x[k]


@pytest.mark.parametrize("dtype, vdtype, idtype, k, ishape", [
    ("float32", "float32", "int64", 1, (4,)),   # x[rows] = v of bench_index.py
    ("float64", "float32", "int32", 1, (2, 2)),  # a cast value, a 2-d index
    ("int8", "int8", "uint8", 2, (3,)),
    ("complex128", "complex128", "int16", 3, (2,)),
])
def test_setitem_index_arrays_match_the_general_path(dtype, vdtype, idtype, k, ishape):
    """x[rows] = v with NDArrays (the index arrays to Go as they are, negative indices
    counted from the end there) writes what the general path (a NumPy value) writes, on
    a reversed view too; an index past the end raises IndexError and writes nothing."""
    rng = np.random.default_rng(5)
    n = (rng.standard_normal((5, 4, 3)) * 50).astype(dtype)
    for view in ((S(None),), (S(None, None, -1),)):
        idx = _random_indices(rng, n.shape[:k], idtype, ishape)
        key = tuple(mx.nd.array(i, dtype=idtype) for i in idx)
        v = (rng.standard_normal(ishape + n.shape[k:]) * 50).astype(vdtype)
        fast, general = mx.nd.array(n, dtype=dtype), mx.nd.array(n, dtype=dtype)
        fast[view][key if k > 1 else key[0]] = mx.nd.array(v, dtype=vdtype)
        general[view][key] = v
        np.testing.assert_array_equal(fast.asnumpy(), general.asnumpy())
    x = mx.nd.array(n, dtype=dtype)
    bad = tuple(mx.nd.array(np.full(ishape, d), dtype=idtype) for d in n.shape[:k])
    with pytest.raises(IndexError):
        x[bad] = mx.nd.array(v, dtype=vdtype)
        x.wait_to_read()
    np.testing.assert_array_equal(x.asnumpy(), n)
