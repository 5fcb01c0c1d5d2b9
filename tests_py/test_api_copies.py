"""copy, copyto, as_in_context, astype and reshape (views of contiguous arrays, copies of
strided ones), checked against NumPy."""
import itertools
import re

import numpy as np
import pytest

import mxgo as mx
from api_helpers import assert_bits, assert_nd, name, np_cast, sample


def arange_nd(shape, dtype="float32"):
    n = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    return mx.nd.array(n, dtype=dtype), n


# -------------------------------------------------------------------------- copy / copyto

@pytest.mark.parametrize("view", [lambda x: x, lambda x: x[1:, ::-2], lambda x: x[2, None, ::3]],
                         ids=["whole", "strided", "row_newaxis"])
def test_copy_is_deep_and_contiguous(view):
    x, n = arange_nd((4, 6), "int64")
    src, ref = view(x), view(n)
    c = src.copy()
    assert_nd(c, ref)
    assert c.context == src.context and c is not src
    assert c.strides == tuple(int(np.prod(c.shape[i + 1:])) for i in range(c.ndim))
    c[...] = -1
    assert_nd(x, n)


def test_copyto_context_makes_a_new_array():
    x, n = arange_nd((2, 3))
    for ctx in (mx.cpu(0), mx.cpu(1)):
        y = x.copyto(ctx)
        assert y is not x and y.context == ctx
        assert_nd(y, n)
        y[0, 0] = 100
        assert_nd(x, n)


@pytest.mark.parametrize("dst_dtype", ["float32", "int32", "float64", "uint8"])
def test_copyto_array_fills_and_returns_it_casting_the_dtype(dst_dtype):
    x = mx.nd.array([[1.5, 2.25], [-0.0, 7.75]])
    dst = mx.nd.zeros((2, 2), dtype=dst_dtype)
    assert x.copyto(dst) is dst
    assert_nd(dst, np_cast(x.asnumpy(), dst_dtype))


def test_copyto_a_strided_view_writes_into_its_parent():
    parent, n = arange_nd((4, 4))
    src = mx.nd.array([[-1, -2], [-3, -4]])
    src.copyto(parent[::2, 1::2])
    n[::2, 1::2] = [[-1, -2], [-3, -4]]
    assert_nd(parent, n)


def test_as_in_context():
    x, n = arange_nd((3,))
    assert x.as_in_context(mx.cpu(0)) is x
    assert x.as_in_context(mx.cpu()) is x
    y = x.as_in_context(mx.cpu(1))
    assert y is not x and y.context == mx.cpu(1)
    assert_nd(y, n)
    assert y.as_in_context(mx.cpu(1)) is y


# --------------------------------------------------------------------------------- astype

CAST_DTYPES = (np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float16,
               np.float32, np.float64, np.complex64)
# In range for every dtype above; fractions (kept by floats) truncate toward zero into ints.
CAST_VALUES = np.array([[0, 1, 2.5], [3.75, 100.25, 7], [0, 127, 64.5]])


@pytest.mark.parametrize("src, dst", list(itertools.product(CAST_DTYPES, CAST_DTYPES)),
                         ids=lambda d: name(d))
def test_astype_matches_numpy(src, dst):
    ref = np_cast(CAST_VALUES, src)
    x = mx.nd.array(ref, dtype=src)
    y = x.astype(dst)
    assert y is not x
    assert_bits(y.asnumpy(), np_cast(ref, dst))
    assert_bits(x[::-1, 1:].astype(dst).asnumpy(), np_cast(ref[::-1, 1:], dst))
    assert_bits(x.asnumpy(), ref)


@pytest.mark.parametrize("dtype", ["float32", np.int8, np.dtype("complex128")], ids=str)
def test_astype_same_dtype_copy_flag(dtype):
    x = mx.nd.array([1, 2, 3], dtype=dtype)
    assert x.astype(dtype, copy=False) is x
    y = x.astype(dtype)
    assert y is not x
    y[0] = 9
    assert_nd(x, np.array([1, 2, 3], dtype))
    assert x.astype("float64", copy=False).dtype is np.float64


@pytest.mark.parametrize("values, dst", [
    ([-1, -128, 255], np.uint8), ([300, -129, 65536 + 7], np.int8), ([2 ** 40 + 3, -1], np.int32),
    ([True, False], np.float16), ([-1.5, 1.5, -0.25], np.int64), ([1e6, -1e6], np.float16),
])
def test_astype_wraps_and_truncates_like_numpy(values, dst):
    src = np.array(values)
    src = src.astype(np.int64 if src.dtype.kind in "iu" else src.dtype)
    assert_bits(mx.nd.array(src, dtype=src.dtype).astype(dst).asnumpy(), np_cast(src, dst))


# -------------------------------------------------------------------------------- reshape

@pytest.mark.parametrize("call, shape", [
    (lambda x: x.reshape((2, 3)), (2, 3)),
    (lambda x: x.reshape(2, 3), (2, 3)),
    (lambda x: x.reshape([3, 2]), (3, 2)),
    (lambda x: x.reshape(shape=(6,)), (6,)),
    (lambda x: x.reshape(-1), (6,)),
    (lambda x: x.reshape(6), (6,)),
    (lambda x: x.reshape((-1, 2)), (3, 2)),
    (lambda x: x.reshape(1, -1, 1, 3), (1, 2, 1, 3)),
    (lambda x: x.reshape(shape=[3, -1]), (3, 2)),
    (lambda x: x.reshape(np.int64(3), np.int32(2)), (3, 2)),
], ids=["tuple", "ints", "list", "kw", "minus1", "int", "infer_first", "unit_axes", "kw_infer", "np_ints"])
def test_reshape_forms_match_numpy(call, shape):
    x, n = arange_nd((6,), "int32")
    assert_nd(call(x), n.reshape(shape))
    assert_nd(call(mx.nd.array(np.arange(6).reshape(2, 3), dtype="int32")), n.reshape(shape))


RESHAPES = [((2, 3, 4),), (24,), (-1,), ((6, -1),), ([4, 6],), (2, -1, 3), ((0, -1),), ((-2,),), ((-3, 4),),
            ((-4, 1, 2, -2),), ((0, 0, 0),), ((1, 2, 3, 4, 1),)]
BAD_RESHAPES = [(5,), ((7, -1),), (-1, -1), ((-4, 5, 5, -2),), (2 ** 70,), (), ((2, "a"),)]


@pytest.mark.parametrize("cls", ["nd", "np"])
def test_reshape_of_ints_takes_c_and_agrees_with_the_python_path(cls, monkeypatch):
    """x.reshape of exact ints (a tuple, a list or ints; mx.nd's reverse=) is NDArrayBase's C
    method, one call to Go (pkg/pybridge/view.c); other arguments reach the class's _reshape.
    Both give the same view or error, with MXNet's codes for mx.nd and NumPy's rules for mx.np."""
    n = np.arange(24.0).reshape(2, 3, 4)
    x = mx.nd.array(n, dtype="float64") if cls == "nd" else mx.np.array(n)
    slow = type(x)._reshape
    kws = [{}, {"reverse": True}, {"reverse": False}] if cls == "nd" else [{}]
    for args, kw in itertools.product(RESHAPES, kws):
        try:
            reference = slow(x, *args, **kw)
        except ValueError as e:  # MXNet's codes, which mx.np refuses
            with pytest.raises(type(e), match=re.escape(str(e))):
                x.reshape(*args, **kw)
            continue
        fast = x.reshape(*args, **kw)
        assert type(fast) is type(x) and fast.shape == reference.shape, (args, kw)
        assert (fast._data, fast.strides) == (reference._data, reference.strides)  # the same view
        assert np.array_equal(fast.asnumpy(), reference.asnumpy())
    for args in BAD_RESHAPES:
        with pytest.raises(Exception) as fast:
            x.reshape(*args)
        with pytest.raises(Exception) as reference:
            slow(x, *args)
        assert type(fast.value) is type(reference.value) and isinstance(fast.value, (TypeError, ValueError)), args
        if cls == "nd":  # one Go function words both (mx.np's Python path has NumPy's words)
            assert str(fast.value) == str(reference.value)

    calls = []
    monkeypatch.setattr(type(x), "_reshape", lambda self, *a, **k: calls.append(a) or slow(self, *a, **k))
    assert x.reshape(6, 4).shape == (6, 4) and x.reshape([-1]).shape == (24,) and x.reshape((4, 6)).shape == (4, 6)
    assert calls == []  # never reaches Python
    assert x.reshape(np.int64(24)).shape == (24,) and len(calls) == 1  # NumPy integers do
    if cls == "nd":
        assert x.reshape(shape=(4, 6)).shape == (4, 6) and len(calls) == 2  # as does shape=
    else:
        assert x.reshape(4, 6, order="C").shape == (4, 6) and mx.np.zeros((0, 3)).reshape(3, 0).shape == (3, 0)
        assert len(calls) == 3  # as do order= and empty arrays


def test_reshape_of_contiguous_arrays_is_a_view():
    x, n = arange_nd((2, 3, 4))
    for shape in [(6, 4), (24,), (4, -1), (2, 3, 4)]:
        v = x.reshape(shape)
        v[...] = v * 2
        n *= 2
        assert_nd(x, n)
        x[0, 0, 0] = -float(len(shape))
        n[0, 0, 0] = -float(len(shape))
        assert_nd(v, n.reshape(shape))
    row = x[1]  # an offset but contiguous view
    row.reshape(-1)[:] = 5
    n[1] = 5
    assert_nd(x, n)


def test_reshape_of_strided_arrays_is_a_copy():
    x, n = arange_nd((4, 6))
    v = x[:, ::2]
    r = v.reshape(3, 4)
    assert_nd(r, n[:, ::2].reshape(3, 4))
    r[...] = -1
    assert_nd(x, n)
    assert_nd(v, n[:, ::2])


@pytest.mark.parametrize("shape, new, want", [((1,), (), ()), ((), (1, 1), (1, 1)), ((0, 3), (0, 3, 1), (0, 3, 1)),
                                              ((0, 3), (-1, 0), (0, 3)), ((2, 0), (-3,), (0,)), ((), (-1,), (1,))],
                         ids=str)
def test_reshape_of_0d_and_0_size(shape, new, want):
    """MXNet's codes on 0-d and 0-size arrays: 0 copies the source's dimension (its 0 too),
    -3 merges two; ``want`` is the shape NumPy is given."""
    x = mx.nd.full(shape, 3.0, dtype="float64")
    assert_nd(x.reshape(new), np.full(shape, 3.0).reshape(want))


def test_reshape_zero_copies_the_source_dimension():
    x = mx.nd.zeros((0, 3))
    with pytest.raises(ValueError, match="cannot reshape"):
        x.reshape(3, 0, 5)  # NumPy's (3, 0, 5); MXNet's 0 copies the 3: (3, 3, 5) holds 45 elements


@pytest.mark.parametrize("dtype", [np.bool_, np.float16, np.complex128, np.uint64], ids=name)
def test_reshape_keeps_values_of_every_dtype(dtype):
    src = sample(dtype, (3, 4))
    x = mx.nd.array(src, dtype=dtype)
    assert_bits(x.reshape(2, 6).asnumpy(), src.reshape(2, 6))
    assert_bits(x[::-1].reshape(12).asnumpy(), src[::-1].reshape(12))
