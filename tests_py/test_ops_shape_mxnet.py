"""MXNet 1.x's shape, creation and gather operators against NumPy equivalents:
expand_dims, squeeze, flatten/Flatten, swapaxes/SwapAxis, flip/reverse, tile, repeat,
broadcast_to, broadcast_like, broadcast_axis/broadcast_axes, zeros_like, ones_like,
linspace, eye, diag, slice_axis, one_hot, take, pick, and their NDArray methods.

The semantics are MXNet 1.9.1's (checked against it in mxnet_diff_shape.py); where MXNet
departs from NumPy the expected values here follow MXNet: squeeze and pick never give 0-d
results (shape (1,)), flip takes only non-negative axes and reverses an axis named twice
twice, broadcast_to's 0 keeps a length, slice_axis refuses empty slices, float indices
truncate toward zero, take and pick clip by default. Every operator returns a copy and
accepts every dtype, strided inputs, out= and (beyond MXNet 1.x, which has neither) 0-d
and size-0 arrays.
"""
import numpy as np
import pytest

import mxgo as mx
from api_helpers import ALL_DTYPES, assert_bits, name, np_cast, sample
from test_ops_shape import nd, sliced

LAYOUTS = ("contiguous", "strided")
#: (input shape, call, exception): each section adds its bad calls, test_errors runs them all
ERRORS = []


def bad_calls(shape, group, calls):
    return [pytest.param(shape, call, error, id="%s-%d" % (group, i)) for i, (call, error) in enumerate(calls)]


def make(a, layout):
    return nd(a) if layout == "contiguous" or a.ndim == 0 else sliced(a)


def check(got, want, x=None, before=None):
    """got equals want bit for bit, and (when x is given) is a copy: x keeps ``before``."""
    assert_bits(got, np.asarray(want, order="C"))  # (ascontiguousarray makes 0-d arrays 1-d)
    if x is not None and got.size:
        got[...] = 0
        assert_bits(x.asnumpy(), before)


def run_out(fn, want, dtype, strided=False):
    """fn(out=...) writes ``want`` into a given out (a strided view when ``strided``) and returns it."""
    want = np.asarray(want)
    if strided:
        big = mx.nd.zeros(tuple(2 * d for d in want.shape), dtype=dtype)
        out = big[tuple(slice(None, None, 2) for _ in want.shape)]
    else:
        out = mx.nd.zeros(want.shape, dtype=dtype)
    r = fn(out=out)
    assert r is out
    assert_bits(out, want)


# ---------------------------------------------------------------- expand_dims, squeeze, flatten

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_expand_squeeze_flatten(dtype, layout):
    a = sample(dtype, (2, 1, 3))
    x = make(a, layout)
    for axis in (0, 1, 3, -1, -4):
        check(mx.nd.expand_dims(x, axis=axis), np.expand_dims(a, axis), x, a)
        check(x.expand_dims(axis), np.expand_dims(a, axis))
    check(mx.nd.squeeze(x), a.reshape(2, 3), x, a)
    check(mx.nd.squeeze(x, axis=1), a.reshape(2, 3))
    check(mx.nd.squeeze(x, axis=(-2,)), a.reshape(2, 3))
    check(mx.nd.squeeze(x, axis=()), a)
    check(x.squeeze(), a.reshape(2, 3))
    check(mx.nd.flatten(x), a.reshape(2, 3), x, a)
    check(mx.nd.Flatten(x), a.reshape(2, 3))
    check(x.flatten(), a.reshape(2, 3))


@pytest.mark.parametrize("shape, want", [((1, 1), (1,)), ((1,), (1,)), ((), ()), ((0, 1), (0,)), ((2, 0, 1), (2, 0))])
def test_squeeze_keeps_one_axis(shape, want):
    """MXNet's squeeze never gives a 0-d array from an n-d one."""
    assert mx.nd.squeeze(mx.nd.zeros(shape)).shape == want


@pytest.mark.parametrize("shape, want", [((5,), (5, 1)), ((), (1, 1)), ((0, 3), (0, 3)), ((2, 0, 3), (2, 0)),
                                         ((2, 3, 4, 5), (2, 60))])
def test_flatten_shapes(shape, want):
    a = sample(np.int32, shape)
    check(mx.nd.flatten(nd(a)), a.reshape(want))
    check(nd(a).flatten(inplace=True), a.reshape(want))


def test_inplace_forms_are_views():
    x = nd(np.arange(6.0).reshape(2, 3))
    v = x.expand_dims(-1, inplace=True)
    assert v.shape == (2, 3, 1)
    v[0] = 7
    assert (x.asnumpy()[0] == 7).all()
    s = x.expand_dims(0).squeeze(axis=0, inplace=True)
    assert s.shape == (2, 3)
    with pytest.raises(IndexError):
        x.expand_dims(3, inplace=True)
    with pytest.raises(ValueError):
        x.squeeze(axis=0, inplace=True)
    with pytest.raises(ValueError):
        mx.nd.zeros((1, 3, 1)).squeeze(axis=(0, -3), inplace=True)


def test_expand_squeeze_flatten_out_and_0d():
    a = sample(np.float64, (2, 3))
    run_out(lambda out: mx.nd.expand_dims(nd(a), axis=1, out=out), a[:, None], np.float64, strided=True)
    run_out(lambda out: mx.nd.flatten(sliced(a[:, None]), out=out), a, np.float64, strided=True)
    check(mx.nd.expand_dims(nd(np.float32(3)), axis=0), np.array([3], np.float32))
    check(mx.nd.expand_dims(nd(np.float32(3)), axis=-1), np.array([3], np.float32))


ERRORS += bad_calls((2, 1), "expand_squeeze", [
    (lambda x: mx.nd.expand_dims(x, axis=3), IndexError), (lambda x: mx.nd.expand_dims(x, axis=-4), IndexError),
    (lambda x: mx.nd.expand_dims(x), TypeError), (lambda x: mx.nd.expand_dims(x, axis=0.5), TypeError),
    (lambda x: mx.nd.squeeze(x, axis=0), ValueError), (lambda x: mx.nd.squeeze(x, axis=2), IndexError),
    (lambda x: mx.nd.squeeze(x, axis=(1, 1)), ValueError), (lambda x: mx.nd.squeeze(x, axis=(1, -2)), ValueError),
])


# ---------------------------------------------------------------- swapaxes, flip

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_swapaxes_and_flip(dtype, layout):
    a = sample(dtype, (2, 3, 4))
    x = make(a, layout)
    for d1, d2 in ((0, 2), (2, 0), (1, 1), (-1, 0), (0, -2)):
        check(mx.nd.swapaxes(x, d1, d2), np.swapaxes(a, d1, d2), x, a)
    check(mx.nd.SwapAxis(x, dim1=1, dim2=2), np.swapaxes(a, 1, 2))
    check(mx.nd.swapaxes(x), a)
    check(x.swapaxes(0, 1), np.swapaxes(a, 0, 1))
    for axes in ((0,), (2,), (0, 2), (0, 1, 2), ()):
        check(mx.nd.flip(x, axis=axes), np.flip(a, axes), x, a)
        check(mx.nd.reverse(x, axis=axes), np.flip(a, axes))
    check(mx.nd.flip(x, axis=1), np.flip(a, 1))
    check(mx.nd.flip(x, axis=(1, 1)), a)  # named twice: reversed twice, as in MXNet
    check(mx.nd.flip(x, axis=(1, 2, 1)), np.flip(a, 2))
    check(x.flip(axis=0), np.flip(a, 0))


def test_swapaxes_flip_out_0d_size0():
    a = sample(np.int16, (3, 4))
    run_out(lambda out: mx.nd.swapaxes(nd(a), 0, 1, out=out), a.T, np.int16, strided=True)
    run_out(lambda out: mx.nd.flip(sliced(a), axis=(0, 1), out=out), a[::-1, ::-1], np.int16, strided=True)
    x = nd(a)
    mx.nd.flip(x, axis=1, out=x)  # in place: the input is copied first
    assert_bits(x, a[:, ::-1].copy())
    check(mx.nd.flip(nd(np.float32(2)), axis=()), np.float32(2) * np.ones((), np.float32))
    check(mx.nd.flip(mx.nd.zeros((0, 3)), axis=(0, 1)), np.zeros((0, 3), np.float32))
    check(mx.nd.swapaxes(mx.nd.zeros((0, 3)), 0, 1), np.zeros((3, 0), np.float32))


ERRORS += bad_calls((2, 3), "swapaxes_flip", [
    (lambda x: mx.nd.swapaxes(x, 0, 2), IndexError), (lambda x: mx.nd.swapaxes(x, -3, 0), IndexError),
    (lambda x: mx.nd.flip(x, axis=-1), IndexError), (lambda x: mx.nd.flip(x, axis=2), IndexError),
    (lambda x: mx.nd.flip(x), TypeError), (lambda x: mx.nd.flip(x, axis=None), TypeError),
    (lambda x: mx.nd.swapaxes(x, "a", 0), TypeError),
])


# ---------------------------------------------------------------- tile, repeat

TILE_CASES = [((2, 3), (2,)), ((2, 3), (2, 1, 2)), ((2, 3), (3, 2)), ((2, 3), ()), ((2, 3), 2), ((1, 3, 1), (2, 1, 4)),
              ((4,), (1, 1)), ((), (3,)), ((), ()), ((2, 0), (2, 2)), ((2, 3), (0, 2)), ((2, 1, 3), (1, 1, 1))]


@pytest.mark.parametrize("shape, reps", TILE_CASES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_tile(shape, reps, layout):
    a = sample(np.float32, shape)
    x = make(a, layout)
    check(mx.nd.tile(x, reps=reps), np.tile(a, reps), x, a)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_tile_repeat_dtypes(dtype):
    a = sample(dtype, (3, 2))
    x = sliced(a)
    check(mx.nd.tile(x, reps=(2, 3)), np.tile(a, (2, 3)))
    check(x.tile((1, 2)), np.tile(a, (1, 2)))
    for axis in (None, 0, 1, -1):
        check(mx.nd.repeat(x, repeats=3, axis=axis), np.repeat(a, 3, axis=axis), x, a)
    check(x.repeat(2), np.repeat(a, 2))


REPEAT_CASES = [((2, 3), 2, None), ((2, 3), 2, 0), ((2, 3), 3, -1), ((2, 3), 0, None), ((2, 3), 0, 1), ((2, 3), 1, 0),
                ((), 3, None), ((), 2, 0), ((0, 2), 2, 1), ((4,), 5, 0), ((2, 1, 3), 4, 1),
                ((2, 3), 16, None), ((2, 3), 17, -1), ((3, 2, 5), 2, 2)]


@pytest.mark.parametrize("shape, repeats, axis", REPEAT_CASES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_repeat(shape, repeats, axis, layout):
    a = sample(np.int64, shape)
    x = make(a, layout)
    if shape == () and axis is not None:
        with pytest.raises(IndexError):
            mx.nd.repeat(x, repeats=repeats, axis=axis)
        return
    check(mx.nd.repeat(x, repeats=repeats, axis=axis), np.repeat(a, repeats, axis=axis), x, a)


def test_tile_repeat_out():
    a = sample(np.complex64, (2, 3))
    run_out(lambda out: mx.nd.tile(nd(a), reps=(2, 2), out=out), np.tile(a, (2, 2)), np.complex64)
    run_out(lambda out: mx.nd.tile(sliced(a), reps=(2, 2), out=out), np.tile(a, (2, 2)), np.complex64, strided=True)
    run_out(lambda out: mx.nd.repeat(sliced(a), 2, axis=1, out=out), np.repeat(a, 2, 1), np.complex64, strided=True)
    big = np.arange(300 * 400, dtype=np.float32).reshape(300, 400)  # large: copied on several cores
    check(mx.nd.tile(nd(big), reps=(3, 2)), np.tile(big, (3, 2)))
    check(mx.nd.repeat(nd(big).T, 3, axis=0), np.repeat(big.T, 3, axis=0))
    for dtype in (np.uint8, np.float16, np.float32, np.int64, np.complex128):  # each element size
        big = np.arange(1000 * 600).astype(dtype).reshape(1000, 600)  # 6e5 rows of repeats: on several cores
        check(mx.nd.repeat(nd(big), 4), np.repeat(big, 4))
        check(mx.nd.repeat(sliced(big), 3, axis=1), np.repeat(big, 3, axis=1))


ERRORS += bad_calls((2, 3), "tile_repeat", [
    (lambda x: mx.nd.tile(x, reps=(-1, 2)), ValueError), (lambda x: mx.nd.tile(x), TypeError),
    (lambda x: mx.nd.tile(x, reps=(1 << 40, 1 << 40)), ValueError), (lambda x: mx.nd.tile(x, reps=(1,) * 65), ValueError),
    (lambda x: mx.nd.repeat(x, repeats=-1), ValueError), (lambda x: mx.nd.repeat(x, repeats=2, axis=2), IndexError),
    (lambda x: mx.nd.repeat(x, repeats=2, axis=-3), IndexError), (lambda x: mx.nd.repeat(x), TypeError),
    (lambda x: mx.nd.repeat(x, repeats=1 << 62, axis=0), ValueError), (lambda x: mx.nd.repeat(x, 2, axis=1.5), TypeError),
])


# ---------------------------------------------------------------- broadcast_to, broadcast_like, broadcast_axis

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_broadcasts(dtype, layout):
    a = sample(dtype, (1, 3, 1))
    x = make(a, layout)
    check(mx.nd.broadcast_to(x, shape=(2, 3, 4)), np.broadcast_to(a, (2, 3, 4)), x, a)
    check(mx.nd.broadcast_to(x, shape=(2, 0, 0)), np.broadcast_to(a, (2, 3, 1)))  # 0 keeps the length
    check(x.broadcast_to((5, 2, 3, 4)), np.broadcast_to(a, (5, 2, 3, 4)))
    check(mx.nd.broadcast_like(x, mx.nd.zeros((2, 3, 4), dtype="int8")), np.broadcast_to(a, (2, 3, 4)), x, a)
    check(x.broadcast_like(mx.nd.zeros((2, 2, 3, 1))), np.broadcast_to(a, (2, 2, 3, 1)))
    check(mx.nd.broadcast_like(x, mx.nd.zeros((7, 5)), lhs_axes=(0, -1), rhs_axes=(1, 0)), np.broadcast_to(a, (5, 3, 7)))
    check(mx.nd.broadcast_axis(x, axis=(0, 2), size=(2, 4)), np.broadcast_to(a, (2, 3, 4)), x, a)
    check(mx.nd.broadcast_axes(x, axis=2, size=0), np.zeros((1, 3, 0), dtype))
    check(x.broadcast_axes(axis=0, size=3), np.broadcast_to(a, (3, 3, 1)))
    check(mx.nd.broadcast_axis(x), a)


def test_broadcast_out_0d():
    a = sample(np.uint16, (3, 1))
    run_out(lambda out: mx.nd.broadcast_to(sliced(a), shape=(3, 4), out=out), np.broadcast_to(a, (3, 4)), np.uint16, True)
    run_out(lambda out: mx.nd.broadcast_axis(nd(a), axis=1, size=2, out=out), np.broadcast_to(a, (3, 2)), np.uint16, True)
    check(mx.nd.broadcast_to(nd(np.float32(2)), shape=()), np.array(2, np.float32))
    check(nd(np.float32(2)).broadcast_to((2, 2)), np.full((2, 2), 2, np.float32))


ERRORS += bad_calls((2, 1), "broadcast", [
    (lambda x: mx.nd.broadcast_to(x, shape=(4, 2, 1)), ValueError), (lambda x: mx.nd.broadcast_to(x, shape=(1,)), ValueError),
    (lambda x: mx.nd.broadcast_to(x, shape=(3, 1)), ValueError), (lambda x: mx.nd.broadcast_to(x, shape=(-1, 1)), ValueError),
    (lambda x: x.broadcast_to((1,)), ValueError), (lambda x: x.broadcast_to((0, 1)), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((4, 2, 3))), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((3, 3))), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((5,)), lhs_axes=(0,), rhs_axes=(0,)), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((5,)), lhs_axes=(1,), rhs_axes=(0, 0)), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((5,)), lhs_axes=(), rhs_axes=()), ValueError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((5,)), lhs_axes=(2,), rhs_axes=(0,)), IndexError),
    (lambda x: mx.nd.broadcast_like(x, mx.nd.zeros((5,)), lhs_axes=(1,), rhs_axes=(1,)), IndexError),
    (lambda x: mx.nd.broadcast_axis(x, axis=-1, size=3), IndexError),
    (lambda x: mx.nd.broadcast_axis(x, axis=2, size=3), IndexError),
    (lambda x: mx.nd.broadcast_axis(x, axis=0, size=3), ValueError),
    (lambda x: mx.nd.broadcast_axis(x, axis=1, size=-2), ValueError),
    (lambda x: mx.nd.broadcast_axis(x, axis=(1, 1), size=(3, 4)), ValueError),
    (lambda x: mx.nd.broadcast_axis(x, axis=(1,), size=(3, 4)), ValueError),
])


# ---------------------------------------------------------------- zeros_like, ones_like, linspace, eye

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_zeros_ones_like(dtype):
    a = sample(dtype, (2, 3))
    for x in (nd(a), sliced(a)):
        check(mx.nd.zeros_like(x), np.zeros_like(a), x, a)
        check(mx.nd.ones_like(x), np.ones_like(a), x, a)
        check(x.zeros_like(), np.zeros_like(a))
        check(x.ones_like(), np.ones_like(a))
    x = nd(a)
    assert mx.nd.ones_like(x, out=x) is x
    assert_bits(x, np.ones_like(a))
    check(mx.nd.ones_like(mx.nd.zeros((), dtype=dtype)), np.ones((), dtype))
    check(mx.nd.zeros_like(mx.nd.zeros((0, 2), dtype=dtype)), np.zeros((0, 2), dtype))


LINSPACE_DTYPES = [d for d in ALL_DTYPES if d is not np.bool_]


@pytest.mark.parametrize("dtype", LINSPACE_DTYPES, ids=name)
@pytest.mark.parametrize("start, stop, num, endpoint", [(0, 1, 5, True), (0, 1, 5, False), (0.3, 1.7, 49, True),
                                                        (-1, 1, 4, True), (0, 10, 4, True), (2, -3, 7, False),
                                                        (0, 1, 1, True), (0, 1, 1, False), (0, 1, 0, True)], ids=str)
def test_linspace(dtype, start, stop, num, endpoint):
    step = (stop - start) / (num - 1 if endpoint else num) if (num - 1 if endpoint else num) > 0 else 0.0
    want = np_cast(start + np.arange(num, dtype=np.float64) * step, dtype)  # MXNet's: no forced endpoint
    check(mx.nd.linspace(start, stop, num, endpoint=endpoint, dtype=dtype), want)


def test_linspace_defaults_and_errors():
    check(mx.nd.linspace(2, 3, 5), np.linspace(2, 3, 5, dtype=np.float32))
    check(mx.nd.linspace(2, 3, 5, ctx=mx.cpu()), np.linspace(2, 3, 5, dtype=np.float32))
    with pytest.raises(ValueError):
        mx.nd.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        mx.nd.linspace(0, 1, 3, dtype="bool")
    with pytest.raises(TypeError):
        mx.nd.linspace(0, 1, 3.5)
    with pytest.raises(TypeError):
        mx.nd.linspace(0, 1, 3, ctx="cpu")


@pytest.mark.parametrize("dtype", LINSPACE_DTYPES, ids=name)
@pytest.mark.parametrize("n, m, k", [(3, 0, 0), (2, 3, 1), (2, 3, -1), (2, 3, 5), (2, 3, -5), (0, 0, 0), (2, -1, 0),
                                     (4, 2, -1), (1, 1, 0), (3, 5, 4)], ids=str)
def test_eye(dtype, n, m, k):
    check(mx.nd.eye(n, m, k, dtype=dtype), np.eye(n, m if m > 0 else n, k, dtype=dtype))


def test_eye_defaults_and_errors():
    check(mx.nd.eye(2), np.eye(2, dtype=np.float32))
    check(mx.nd.eye(2, ctx=mx.cpu(), k=1), np.eye(2, k=1, dtype=np.float32))
    with pytest.raises(ValueError):
        mx.nd.eye(-1)
    with pytest.raises(TypeError):
        mx.nd.eye(2, dtype="bool")
    with pytest.raises(TypeError):
        mx.nd.eye(2.5)


# ---------------------------------------------------------------- diag, slice_axis

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_diag(dtype, layout):
    a = sample(dtype, (3, 4))
    x = make(a, layout)
    for k in (0, 1, -1, 3, 4, -2, -3):
        check(mx.nd.diag(x, k=k), np.diag(a, k), x, a)
    check(x.diag(2), np.diag(a, 2))
    v = sample(dtype, (3,))
    for k in (0, 2, -1):
        check(mx.nd.diag(make(v, layout), k=k), np.diag(v, k))
    c = sample(dtype, (2, 3, 4))
    for k, a1, a2 in ((0, 0, 1), (1, 1, 2), (0, -1, 0), (-2, 2, 0), (4, 1, 2), (-3, 1, 2)):
        check(mx.nd.diag(make(c, layout), k=k, axis1=a1, axis2=a2), np.diagonal(c, k, a1, a2))


def test_diag_out_and_size0():
    a = sample(np.float64, (4, 4))
    run_out(lambda out: mx.nd.diag(sliced(a), k=1, out=out), np.diag(a, 1), np.float64, strided=True)
    v = sample(np.int8, (3,))
    run_out(lambda out: mx.nd.diag(nd(v), out=out), np.diag(v), np.int8, strided=True)
    check(mx.nd.diag(mx.nd.zeros((0,))), np.zeros((0, 0), np.float32))
    check(mx.nd.diag(mx.nd.zeros((0,)), k=2), np.zeros((2, 2), np.float32))
    check(mx.nd.diag(mx.nd.zeros((2, 0, 3)), axis1=0, axis2=2), np.zeros((0, 2), np.float32))


ERRORS += bad_calls((3, 4), "diag", [
    (lambda x: mx.nd.diag(x, k=5), ValueError), (lambda x: mx.nd.diag(x, k=-4), ValueError),
    (lambda x: mx.nd.diag(x, axis1=1, axis2=1), ValueError), (lambda x: mx.nd.diag(x, axis1=2), IndexError),
    (lambda x: mx.nd.diag(mx.nd.zeros(())), ValueError), (lambda x: mx.nd.diag(x, k=1.5), TypeError),
])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_slice_axis(dtype, layout):
    a = sample(dtype, (3, 4, 2))
    x = make(a, layout)
    for axis, b, e, key in ((1, 1, 3, np.s_[:, 1:3]), (1, -2, None, np.s_[:, -2:]), (0, 0, -1, np.s_[:-1]),
                            (-1, 1, 2, np.s_[..., 1:2]), (2, 0, None, np.s_[:])):
        check(mx.nd.slice_axis(x, axis=axis, begin=b, end=e), a[key], x, a)
    check(x.slice_axis(axis=0, begin=2, end=3), a[2:3])
    check(x.slice_axis(1, 0, 1), a[:, :1])
    run_out(lambda out: mx.nd.slice_axis(x, 1, 1, None, out=out), a[:, 1:], dtype, strided=True)


@pytest.mark.parametrize("kwargs, error", [
    (dict(axis=1, begin=2, end=1), ValueError), (dict(axis=1, begin=1, end=1), ValueError),
    (dict(axis=1, begin=0, end=5), ValueError), (dict(axis=1, begin=-5, end=2), ValueError),
    (dict(axis=1, begin=4, end=None), ValueError), (dict(axis=3, begin=0, end=1), IndexError),
    (dict(axis=1, begin=0), TypeError), (dict(axis=1, end=2), TypeError), (dict(axis=1, begin=None, end=2), TypeError),
    (dict(axis=1, begin=0, end=1.5), TypeError),
], ids=str)
def test_slice_axis_errors(kwargs, error):
    with pytest.raises(error):
        mx.nd.slice_axis(mx.nd.zeros((3, 4, 2)), **kwargs)


# ---------------------------------------------------------------- one_hot, take, pick

def trunc_indices(idx, n, mode):
    """MXNet's index resolution: truncate toward zero, then clip or wrap into [0, n)."""
    i = np.trunc(np.asarray(idx, np.float64)).astype(np.int64)
    return np.clip(i, 0, n - 1) if mode == "clip" else np.mod(i, n)


INDEX_DTYPES = (np.float32, np.float16, np.float64, np.int32, np.int64, np.uint8, np.int8, np.bool_)


@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES, ids=name)
@pytest.mark.parametrize("dtype", LINSPACE_DTYPES, ids=name)
def test_one_hot(dtype, idx_dtype):
    idx = np_cast([[1, 0], [2, 5], [-1, 1.7]] if np.dtype(idx_dtype).kind == "f" else [[1, 0], [1, 1], [0, 1]], idx_dtype)
    want = np.zeros(idx.shape + (3,), np.float64) - 1
    t = np.trunc(idx.astype(np.float64)).astype(np.int64)
    for pos in np.ndindex(idx.shape):
        if 0 <= t[pos] < 3:
            want[pos + (t[pos],)] = 4
    got = mx.nd.one_hot(sliced(idx), 3, on_value=4, off_value=-1, dtype=dtype)
    check(got, np_cast(want, dtype))
    check(nd(idx).one_hot(3, on_value=4, off_value=-1, dtype=dtype), np_cast(want, dtype))


def test_one_hot_defaults_casts_out_0d():
    check(mx.nd.one_hot(mx.nd.array([1, 0, 2, 5, -1, np.nan]), 3), np.eye(3, dtype=np.float32)[[1, 0, 2, 0, 0, 0]]
          * np.array([1, 1, 1, 0, 0, 0], np.float32)[:, None])
    check(mx.nd.one_hot(mx.nd.array([1]), 2, on_value=300, dtype="uint8"), np.array([[0, 44]], np.uint8))
    check(mx.nd.one_hot(mx.nd.array([1]), 2, on_value=-1.7, dtype="int32"), np.array([[0, -1]], np.int32))
    check(mx.nd.one_hot(mx.nd.array([1, 0]), 0), np.zeros((2, 0), np.float32))
    check(mx.nd.one_hot(mx.nd.array(2), 3), np.array([0, 0, 1], np.float32))
    check(mx.nd.one_hot(mx.nd.zeros((0, 2)), 3), np.zeros((0, 2, 3), np.float32))
    run_out(lambda out: mx.nd.one_hot(mx.nd.array([2, 0]), 3, out=out), np.eye(3, dtype=np.float32)[[2, 0]], np.float32, True)
    with pytest.raises(ValueError):
        mx.nd.one_hot(mx.nd.array([1]), -1)
    with pytest.raises(TypeError):
        mx.nd.one_hot(mx.nd.array([1]), 3, dtype="bool")
    with pytest.raises(TypeError):
        mx.nd.one_hot(mx.nd.array([1], dtype="complex64"), 3)
    with pytest.raises(TypeError):
        mx.nd.one_hot(mx.nd.array([1]))


@pytest.mark.parametrize("mode", ("clip", "wrap"))
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_take(dtype, layout, mode):
    a = sample(dtype, (3, 4, 2))
    x = make(a, layout)
    idx = np.array([[2, 0, -1], [7, 1.9, -4.5]], np.float32)
    for axis in (0, 1, 2, -1):
        want = np.take(a, trunc_indices(idx, a.shape[axis], mode), axis=axis)
        check(mx.nd.take(x, sliced(idx), axis=axis, mode=mode), want, x, a)
    check(x.take(nd(np.array([1, 0], np.int64))), a[[1, 0]])


def test_take_index_forms_out_and_raise():
    a = sample(np.int32, (4, 3))
    x = nd(a)
    for idx_dtype in INDEX_DTYPES:
        idx = np_cast([1, 0, 1], idx_dtype)
        check(mx.nd.take(x, nd(idx), axis=1), np.take(a, idx.astype(np.int64), axis=1))
    check(mx.nd.take(x, mx.nd.array([np.nan, 1e20, -1e20])), a[[0, 0, 0]])  # as MXNet: INT64_MIN, clipped
    check(mx.nd.take(x, mx.nd.array([np.nan, 3e9]), mode="wrap"), a[[0, 0]])  # INT64_MIN % 4 == 0; 3e9 % 4 == 0
    check(mx.nd.take(x, mx.nd.array(2)), a[2])  # a 0-d index removes the axis (MXNet 1.x has no 0-d arrays)
    check(mx.nd.take(x, mx.nd.zeros((0,))), a[:0])
    check(mx.nd.take(mx.nd.zeros((0, 3)), mx.nd.zeros((2,)), axis=1), np.zeros((0, 2), np.float32))
    run_out(lambda out: mx.nd.take(x, mx.nd.array([[3, 1]]), axis=0, out=out), a[[[3, 1]]], np.int32, strided=True)
    mx.nd.take(x, mx.nd.array([3, 0]), mode="raise").wait_to_read()
    r = mx.nd.take(x, mx.nd.array([4]), mode="raise")
    with pytest.raises(IndexError, match="out of bounds"):
        r.wait_to_read()
    with pytest.raises(IndexError):
        mx.nd.take(mx.nd.zeros((0, 3)), mx.nd.array([0])).wait_to_read()


@pytest.mark.parametrize("dtype", (np.uint8, np.float16, np.float32, np.int64, np.complex128), ids=name)
def test_take_pick_large(dtype):
    # past 2^19 elements the gathers run in chunks on the cores: of the positions before
    # the axis, or of the indices when there is one such position
    rng = np.random.default_rng(1)
    a = rng.integers(0, 100, (700, 800)).astype(dtype)
    x = sliced(a)
    rows, cols = rng.integers(0, 700, 900), rng.integers(0, 800, 1000)
    check(mx.nd.take(x, nd(rows)), a[rows])
    check(mx.nd.take(x, nd(cols), axis=1), a[:, cols])
    flat = rng.integers(0, a.size, 600_000)
    check(mx.nd.take(nd(a.reshape(-1)), nd(flat)), a.reshape(-1)[flat])
    picks = rng.integers(0, 700, (800,))
    check(mx.nd.pick(x, nd(picks), axis=0), a[picks, np.arange(800)])
    big = rng.integers(0, 100, (600_000, 2)).astype(dtype)
    which = rng.integers(0, 2, 600_000)
    check(mx.nd.pick(nd(big), nd(which), axis=1), big[np.arange(600_000), which])


ERRORS += bad_calls((2, 3), "take_pick", [
    (lambda x: mx.nd.take(x, mx.nd.array([0]), axis=2), IndexError),
    (lambda x: mx.nd.take(x, mx.nd.array([0]), axis=-3), IndexError),
    (lambda x: mx.nd.take(x, mx.nd.array([0]), mode="foo"), ValueError),
    (lambda x: mx.nd.take(x, mx.nd.array([0]), mode=1), TypeError),
    (lambda x: mx.nd.take(x, mx.nd.array([0], dtype="complex64")), TypeError),
    (lambda x: mx.nd.take(mx.nd.zeros(()), mx.nd.array([0])), IndexError),
    (lambda x: mx.nd.take(x), TypeError),
    (lambda x: mx.nd.pick(x, mx.nd.array([0, 1]), axis=2), IndexError),
    (lambda x: mx.nd.pick(x, mx.nd.array([0, 1, 2])), ValueError),
    (lambda x: mx.nd.pick(x, mx.nd.array([[0, 1]])), ValueError),
    (lambda x: mx.nd.pick(x, mx.nd.array([0, 1]), mode="raise"), ValueError),
    (lambda x: mx.nd.pick(x, mx.nd.array([0, 1]), axis=None), TypeError),
    (lambda x: mx.nd.pick(x, mx.nd.array([0, 1], dtype="complex128")), TypeError),
])


@pytest.mark.parametrize("mode", ("clip", "wrap"))
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_pick(dtype, layout, mode):
    a = sample(dtype, (3, 4, 2))
    x = make(a, layout)
    rng = np.random.default_rng(0)
    for axis in (0, 1, 2, -1):
        ax = axis % 3
        shape = tuple(d for i, d in enumerate(a.shape) if i != ax)
        idx = rng.integers(-6, 7, shape).astype(np.float32) + np.float32(0.5)
        t = np.expand_dims(trunc_indices(idx, a.shape[ax], mode), ax)
        want = np.take_along_axis(a, t, axis=ax)
        check(mx.nd.pick(x, sliced(idx), axis=axis, mode=mode, keepdims=True), want, x, a)
        check(mx.nd.pick(x, nd(np.expand_dims(idx, ax)), axis=axis, mode=mode), np.squeeze(want, ax))
    idx = np.array([[0, 3], [1, 2], [3, 3]], np.int64)
    check(x.pick(nd(idx), axis=1), np.take_along_axis(a, idx[:, None, :], 1)[:, 0])


def test_pick_shapes_and_out():
    a = sample(np.float32, (2, 3))
    x = nd(a)
    check(mx.nd.pick(x, mx.nd.array([0, 2])), a[[0, 1], [0, 2]])
    check(mx.nd.pick(mx.nd.array([0, 1, 2]), mx.nd.array([1])), np.array([1], np.float32))  # (1,), as in MXNet
    check(mx.nd.pick(mx.nd.array([0, 1, 2]), mx.nd.array([1]), keepdims=True), np.array([1], np.float32))
    check(mx.nd.pick(mx.nd.array([0, 1, 2]), mx.nd.array(2)), np.array([2], np.float32))
    check(mx.nd.pick(x, mx.nd.array([np.nan, 1e20]), mode="wrap"), a[[0, 1], [1, 1]])  # INT32_MIN % 3 == 1
    check(mx.nd.pick(mx.nd.zeros((0, 3)), mx.nd.zeros((0,))), np.zeros((0,), np.float32))
    run_out(lambda out: mx.nd.pick(x, mx.nd.array([2, 1]), out=out), a[[0, 1], [2, 1]], np.float32, strided=True)
    with pytest.raises(IndexError):
        mx.nd.pick(mx.nd.zeros((2, 0)), mx.nd.zeros((2,))).wait_to_read()


@pytest.mark.parametrize("shape, call, error", ERRORS)
def test_errors(shape, call, error):
    with pytest.raises(error):
        call(mx.nd.zeros(shape))


def test_generated_signatures():
    import inspect
    assert str(inspect.signature(mx.nd.take)) == "(a, indices, axis=0, mode='clip', *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.pick)) == "(data, index, axis=-1, keepdims=False, mode='clip', *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.slice_axis)) == "(data, axis, begin, end, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.repeat)) == "(data, repeats, axis=None, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.one_hot)) == \
        "(indices, depth, on_value=1.0, off_value=0.0, dtype='float32', *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.broadcast_like)) == "(lhs, rhs, lhs_axes=None, rhs_axes=None, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.diag)) == "(data, k=0, axis1=0, axis2=1, *, out=None, name=None)"
    for alias, op in (("Flatten", "flatten"), ("SwapAxis", "swapaxes"), ("reverse", "flip"),
                      ("broadcast_axes", "broadcast_axis")):
        assert inspect.signature(getattr(mx.nd, alias)) == inspect.signature(getattr(mx.nd, op))
