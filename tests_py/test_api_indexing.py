"""__getitem__ and __setitem__ with NumPy's basic-indexing rules: results, views that share
memory in both directions, broadcasting assignment and overlapping copies. As in MXNet, an
element picked by an integer on every axis (x[1, 2]) has shape (1,), not NumPy's 0-d
(api_helpers.mxnet_shaped); it is still a view."""
import numpy as np
import pytest

import mxgo as mx
from api_helpers import assert_bits, assert_nd, mxnet_shaped, np_cast

SHAPE = (3, 4, 5, 6)
E = Ellipsis


def base(dtype="float64"):
    n = np.arange(int(np.prod(SHAPE))).reshape(SHAPE).astype(dtype)
    return mx.nd.array(n, dtype=dtype), n


S = slice
KEYS = [
    # ints, negative ints
    0, 2, -1, -3, np.int64(1), np.uint8(2), (np.int32(-1), np.int16(3)),
    (0, 1), (1, -1, 2), (0, 1, 2, 3), (-1, -4, -5, -6), (2, 3, 4, 5),
    # slices, with steps (negative too) and out-of-range bounds that clamp
    S(None), S(1, None), S(None, 2), S(1, 3), S(None, None, 2), S(None, None, -1),
    S(-1, None, -2), S(2, 0, -1), S(5, 10), S(-10, 2), S(3, 3), S(None, None, -4),
    S(10, None, -1), S(None, -10, -1), S(-2, -1), S(2, 1), S(np.int64(1), np.int64(3)),
    S(None, None, 100), S(None, None, -100), S(0, 0), S(-100, 100, 3),
    # tuples mixing everything
    (S(None), 1), (S(None), S(None), 2), (1, S(None, None, 2), -1), (S(1, None), 0, S(None, 3)),
    (S(None, None, -1), S(1, None, 2), S(None), S(None, None, -3)),
    (1, S(None, None, -2), None, E, S(4, 0, -2)), (0, S(2, 2)), (S(0, 0), 1, S(None), 2),
    (-1, S(-1, None, -1), S(3, None), S(None, None, 5)),
    # None and Ellipsis
    E, (E,), (E, 1), (1, E), (0, E, 0), (E, S(None, None, -1)), (S(1, 2), E, S(1, 2)),
    (0, 1, 2, 3, E), (E, 0, 1, 2, 3), None, (None, 0), (0, None), (S(None), None, S(None)),
    (None, E, None), (E, None), (None, None, 1, None), (0, 0, 0, 0, None), (None, 0, 0, 0, 0),
    # the empty tuple: the whole array
    (),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(key):
    x, n = base()
    got, ref = x[key], n[key]
    assert_nd(got, mxnet_shaped(ref))
    assert got.context == x.context and got.writable


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_views_share_memory_both_ways(key):
    x, n = base()
    view = x[key]
    view[...] = -1  # a write through the view shows in the parent ...
    n[key] = -1
    assert_nd(x, n)
    fresh = np.arange(n.size, dtype=np.float64).reshape(SHAPE) * 10
    x[:] = fresh  # ... and a write to the parent shows in the view
    assert_nd(view, mxnet_shaped(fresh[key]))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float16", "complex128", "bool"])
def test_views_of_every_kind_of_dtype(dtype):
    x, n = base(dtype)
    for key in [(1, S(None, None, -1)), (E, S(1, None, 2)), (None, -1, 2)]:
        assert_bits(x[key].asnumpy(), np.ascontiguousarray(n[key]))


def test_chained_views():
    x, n = base()
    v = x[1:][::-1, ::2][..., 1:4][0]
    ref = n[1:][::-1, ::2][..., 1:4][0]
    assert_nd(v, ref)
    v[:] = 0.5
    n[1:][::-1, ::2][..., 1:4][0] = 0.5
    assert_nd(x, n)
    assert_nd(x[2, 3][1][4], mxnet_shaped(n[2, 3][1][4]))


@pytest.mark.parametrize("key", [0, S(None), (S(None, None, -1),), E, None, ()], ids=repr)
def test_indexing_0_size_and_0d(key):
    z, zn = mx.nd.zeros((0, 3)), np.zeros((0, 3), np.float32)
    if key != 0:
        assert_nd(z[key], zn[key])
    s, sn = mx.nd.array(4.5), np.array(4.5, np.float32)
    if key in (E, None, ()):
        assert_nd(s[key], mxnet_shaped(sn[key]))  # no 0-d results: x[...] of a 0-d array has shape (1,)


BAD_KEYS = [10, -11, (0, 4), (1, 2, 3, 4, 5), (E, E), S(None, None, 0), (0, S(1, 2, 0)), 2 ** 70, S(2 ** 70),
            (None,) * 129]


@pytest.mark.parametrize("cls", ["nd", "np"])
def test_basic_keys_take_c_and_agree_with_the_python_path(cls, monkeypatch):
    """x[key] of a basic key (exact ints, slices of them, None, ...) is indexed by the C slot
    (pkg/pybridge/view.c) in one call to Go; anything else reaches the class's _getitem.
    Both give the same view, error and class, with mx.nd's or NumPy's rules by class."""
    n = np.arange(int(np.prod(SHAPE)), dtype=np.float64).reshape(SHAPE)
    x = mx.nd.array(n, dtype="float64") if cls == "nd" else mx.np.array(n)
    vec = x.reshape((-1,))[:10]
    slow = type(x)._getitem
    for key in KEYS + [1, -10, 9, (5,)]:
        for arr, ref in ((x, n), (vec, n.reshape(-1)[:10])):
            try:
                want = ref[key]
            except IndexError:  # a key for the other array (BAD_KEYS has the errors)
                continue
            want = mxnet_shaped(want) if cls == "nd" else np.asarray(want)
            fast, reference = arr[key], slow(arr, key)
            for got in (fast, reference):
                assert type(got) is type(x)
                assert got.shape == want.shape and np.array_equal(got.asnumpy(), want), key
            assert (fast._data, fast.strides) == (reference._data, reference.strides), key  # the same view
    for key in BAD_KEYS:
        for arr in (x, vec):
            with pytest.raises(Exception) as fast:
                arr[key]
            with pytest.raises(Exception) as reference:
                slow(arr, key)
            assert (type(fast.value), str(fast.value)) == (type(reference.value), str(reference.value)), key
            assert isinstance(fast.value, (IndexError, ValueError))

    calls = []
    monkeypatch.setattr(type(x), "_getitem", lambda self, key: calls.append(key) or slow(self, key))
    assert x[1:3, 0].shape == (2, 5, 6) and x[..., None, 1].shape == (3, 4, 5, 1) and x[2].shape == (4, 5, 6)
    assert calls == []  # basic keys never reach Python
    x[np.int64(1)], x[[0, 1]], x[1, S(np.int32(0), 2)]
    assert len(calls) == 3  # NumPy integers and lists do
    assert [v.shape for v in vec[:3]] == ([(1,)] * 3 if cls == "nd" else [()] * 3)  # iteration: the item slot


# ------------------------------------------------------------------------------ setitem

def nd(values, dtype="float32"):
    return lambda: mx.nd.array(values, dtype=dtype)


ROWS = np.arange(20, dtype=np.float32).reshape(4, 5)
SETITEM = [
    ("all_scalar", S(None), 7),
    ("all_float", S(None), -2.5),
    ("all_list_row_broadcast", S(None), [1, 2, 3, 4, 5]),
    ("all_numpy_column_broadcast", S(None), np.array([[1], [2], [3], [4]])),
    ("all_numpy_same_shape", S(None), np.arange(20.0).reshape(4, 5)[::-1]),
    ("all_nd_same_shape", S(None), nd(ROWS * -1)),
    ("all_nd_row_broadcast", S(None), nd([9, 8, 7, 6, 5])),
    ("all_nd_column_broadcast", S(None), nd([[1], [2], [3], [4]])),
    ("all_nd_0d", S(None), nd(6.5)),
    ("element", (2, 1), 100),
    ("element_negative", (-1, -1), np.float64(3.25)),
    ("element_nd_0d", (1, 2), nd(9, "float32")),
    ("element_bool", (0, 0), True),
    ("row_list", 1, [1, 2, 3, 4, 5]),
    ("row_nd_leading_unit_axis", 0, nd([[5, 4, 3, 2, 1]])),
    ("column_numpy", (S(None), 2), np.arange(4)),
    ("column_list_of_one", (S(None), 3), [42]),
    ("strided_block", (S(None, None, 2), S(1, None, 2)), np.array([[1, 2], [3, 4]])),
    ("reversed_rows_nd", S(None, None, -1), nd(ROWS + 100)),
    ("slice_nd_broadcast_row", S(1, 3), nd([1, 2, 3, 4, 5])),
    ("slice_nd_unit_rows", S(1, 3), nd([[1, 2, 3, 4, 5]])),
    ("slice_nd_unit_columns", S(1, 3), nd([[1], [2]])),
    ("slice_nd_other_dtype_casts", S(1, 3), nd([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], "int32")),
    ("ellipsis_scalar", E, 0.5),
    ("ellipsis_last_column", (E, -1), [7, 7, 7, 7]),
    ("newaxis", (None, 1), [[1, 2, 3, 4, 5]]),
    ("empty_slice_noop", S(0, 0), 5),
    ("empty_slice_empty_list", (S(None), S(3, 3)), []),
    ("tuple_value", 3, (1, 2, 3, 4, 5)),
]


@pytest.mark.parametrize("key, value", [c[1:] for c in SETITEM], ids=[c[0] for c in SETITEM])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "complex64"])
def test_setitem_matches_numpy(key, value, dtype):
    n = ROWS.astype(dtype)
    x = mx.nd.array(n, dtype=dtype)
    value = value() if callable(value) else value
    n[key] = value.asnumpy() if isinstance(value, mx.nd.NDArray) else value
    x[key] = value
    assert_nd(x, n)


@pytest.mark.parametrize("value, expected", [
    (2.9, [2, 2, 2]), (-2.9, [-2, -2, -2]), ([1.5, -1.5, 7.99], [1, -1, 7]), (np.float32(5.5), [5, 5, 5]),
], ids=repr)
def test_setitem_float_into_int_truncates_toward_zero(value, expected):
    x = mx.nd.zeros((3,), dtype="int16")
    x[:] = value
    assert_nd(x, np.array(expected, np.int16))


def test_setitem_on_0d_arrays():
    x = mx.nd.array(1.0, dtype="float64")
    for key, value, expected in [((), 5, 5.0), (E, np.array(6.0), 6.0), (E, mx.nd.array(7.0), 7.0),
                                 ((), mx.nd.array(8, dtype="int32"), 8.0), (S(None), 9, 9.0)]:
        x[key] = value
        assert_nd(x, np.array(expected))


OVERLAPS = [
    ("shift_down", S(1, None), S(None, -1)),
    ("shift_up", S(None, -1), S(1, None)),
    ("reverse_rows", S(None), S(None, None, -1)),
    ("shift_columns", (S(None), S(1, None)), (S(None), S(None, -1))),
    ("shift_diagonal", (S(1, None), S(1, None)), (S(None, -1), S(None, -1))),
    ("reverse_both", S(None), (S(None, None, -1), S(None, None, -1))),
    ("strided_into_strided", (S(None, None, 2), S(None, 3)), (S(None, None, -2), S(1, 4))),
    ("row_into_column_block", (S(None, 4), 0), (0, S(1, 5))),
]


@pytest.mark.parametrize("dst, src", [c[1:] for c in OVERLAPS], ids=[c[0] for c in OVERLAPS])
@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8", "complex128"])
def test_overlapping_assignment_matches_numpy(dst, src, dtype):
    n = np.arange(30).reshape(5, 6).astype(dtype)
    x = mx.nd.array(n, dtype=dtype)
    x[dst] = x[src]
    n[dst] = n[src]
    assert_nd(x, n)


@pytest.mark.parametrize("dtype", ["int8", "uint64", "float16", "bool", "complex64"])
def test_setitem_scalars_cast_like_numpy(dtype):
    for value in (0, 1, 3, 7.0, True):
        x = mx.nd.zeros((2, 2), dtype=dtype)
        x[1, :] = value
        ref = np.zeros((2, 2), dtype)
        ref[1, :] = np_cast(value, dtype)
        assert_nd(x, ref)
