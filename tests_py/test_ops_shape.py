"""mx.nd.transpose, reshape, concat, stack and cast against NumPy.

These operators move elements without computing, so every result must equal NumPy's
bit for bit (NaN payloads and -0.0 included). Each returns a new array (the view forms are
NDArray.reshape and, later, x.T). MXNet's names and defaults: concat's axis is ``dim`` and
defaults to 1.
"""
import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import ALL_DTYPES, Snapshot, assert_bits, name, np_cast, sample
from interop_helpers import TORCH_DLPACK_DTYPES


def nd(a):
    """An NDArray copy of NumPy array ``a`` with its dtype (mx.nd.array's default, as
    MXNet's, is float32)."""
    a = np.asarray(a)
    return mx.nd.array(a, dtype=a.dtype)


def torch_of(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def sliced(a):
    """An NDArray view with a's values and no contiguous axis: every other element of a
    larger array, last axis reversed."""
    big = np.zeros(tuple(2 * d for d in a.shape), a.dtype)
    key = tuple(slice(None, None, 2) for _ in a.shape)
    big[key] = a[..., ::-1] if a.ndim else a
    v = nd(big)[key]
    return v[..., ::-1] if a.ndim else v


# ---------------------------------------------------------------------------- transpose

TRANSPOSE_CASES = [
    ((2, 3, 4), None), ((2, 3, 4), (1, 0, 2)), ((2, 3, 4), (-1, 0, 1)), ((2, 3, 4), (0, 1, 2)),
    ((5,), None), ((5,), (0,)), ((), None), ((), ()), ((0, 3), None), ((3, 1, 0, 2), (3, 0, 2, 1)),
]


@pytest.mark.parametrize("shape, axes", TRANSPOSE_CASES, ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_transpose(dtype, shape, axes):
    a = sample(dtype, shape)
    x = nd(a)
    got = mx.nd.transpose(x, axes=axes) if axes is not None else mx.nd.transpose(x)
    assert_bits(got, np.transpose(a, axes))
    if got.size:  # a copy: writing to it leaves x alone
        got[...] = a.flat[0]
        assert_bits(x.asnumpy(), a)


@pytest.mark.parametrize("dtype", (np.float16, np.int64, np.complex128, np.bool_), ids=name)
def test_transpose_strided_and_out(dtype):
    a = sample(dtype, (3, 4, 2))
    want = np.transpose(a, (2, 0, 1))
    assert_bits(mx.nd.transpose(sliced(a), axes=(2, 0, 1)), want)
    out = mx.nd.zeros(want.shape, dtype=dtype)
    assert mx.nd.transpose(nd(a), (2, 0, 1), out=out) is out
    assert_bits(out, want)
    if name(dtype) in TORCH_DLPACK_DTYPES:  # PyTorch 1.13 exports no bool through DLPack
        t = torch.zeros(want.shape, dtype=torch_of(a).dtype)
        assert mx.nd.transpose(torch_of(a), axes=(2, 0, 1), out=t) is t  # out as given
        assert_bits(t.numpy(), want)
    big = np.transpose(sample(dtype, (70, 300)))  # large: copied on several cores
    assert_bits(mx.nd.transpose(nd(big)), big.T)


def test_transpose_in_place_square():
    a = np.arange(9.0).reshape(3, 3)
    x = nd(a)
    mx.nd.transpose(x, out=x)
    assert_bits(x, a.T.copy())


@pytest.mark.parametrize("axes, error", [((0,), ValueError), ((0, 1, 2), ValueError), ((0, 2), IndexError),
                                         ((0, -3), IndexError), ((1, 1), ValueError)], ids=str)
def test_transpose_errors(axes, error):
    x = nd(np.arange(6).reshape(2, 3))
    snap = Snapshot(x)
    with pytest.raises(error, match="transpose"):
        mx.nd.transpose(x, axes=axes)
    snap.assert_intact()


# ------------------------------------------------------------------------------ reshape

# (shape, MXNet's shape argument, the shape it means): 0 copies the source dimension, -2
# the remaining ones, -3 merges two, -4 splits one into the next two
RESHAPE_CASES = [((2, 3, 4), (6, 4), (6, 4)), ((2, 3, 4), (-1,), (24,)), ((2, 3, 4), (4, -1, 3), (4, 2, 3)),
                 ((2, 3, 4), (24, 1, 1), (24, 1, 1)), ((1, 1), (), ()), ((), (1, 1), (1, 1)),
                 ((0, 4), (2, 0, -1), (2, 4, 0)), ((0, 4), (0,), (0,)), ((5,), (5,), (5,)),
                 ((2, 3, 4), (0, -1), (2, 12)), ((2, 3, 4), (-3, 0), (6, 4)), ((2, 3, 4), (-4, 1, 2, -2), (1, 2, 3, 4)),
                 ((2, 3, 4), (0, 0, -4, 2, -1), (2, 3, 2, 2))]


@pytest.mark.parametrize("shape, new, means", RESHAPE_CASES, ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_reshape(dtype, shape, new, means):
    a = sample(dtype, shape)
    x = nd(a)
    got = mx.nd.reshape(x, shape=new)
    assert_bits(got, a.reshape(means))
    if got.size:  # a copy, unlike NDArray.reshape
        got[...] = a.flat[-1]
        assert_bits(x.asnumpy(), a)


@pytest.mark.parametrize("dtype", (np.float32, np.uint8, np.complex64), ids=name)
def test_reshape_strided_and_out(dtype):
    a = sample(dtype, (4, 6))
    assert_bits(mx.nd.reshape(sliced(a), (3, 8)), a.reshape(3, 8))
    base = mx.nd.zeros((8, 6), dtype=dtype)
    view = base[::2]
    assert mx.nd.reshape(sliced(a), shape=(4, 6), out=view) is view
    assert_bits(view, a.reshape(4, 6))
    t = torch.zeros((2, 12), dtype=torch_of(a).dtype)
    mx.nd.reshape(torch_of(a).t(), shape=(2, 12), out=t)
    assert_bits(t.numpy(), a.T.reshape(2, 12))


@pytest.mark.parametrize("new, error", [((5, 5), ValueError), ((-1, -1), ValueError), ((-2, 12), ValueError),
                                        ((7, -1), ValueError), ((2.5,), TypeError)], ids=str)
def test_reshape_errors(new, error):
    x = nd(np.arange(24).reshape(2, 12))
    with pytest.raises(error):
        mx.nd.reshape(x, shape=new)
    with pytest.raises(TypeError):
        mx.nd.reshape(x)  # shape is required


# ------------------------------------------------------------------------------- concat

CONCAT_CASES = [
    ([(2, 3), (2, 4)], None),  # MXNet's default dim=1
    ([(2, 3), (1, 3), (4, 3)], 0),
    ([(2, 3, 1), (2, 3, 2)], -1),
    ([(5,)], 0),
    ([(3,), (0,), (2,)], 0),
    ([(2, 0), (2, 3), (2, 0)], 1),
    ([(0, 2), (0, 2)], 0),
    ([(2, 2, 2)] * 5, 1),
]


@pytest.mark.parametrize("shapes, dim", CONCAT_CASES, ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_concat(dtype, shapes, dim):
    arrays = [np.roll(sample(dtype, s), i) for i, s in enumerate(shapes)]
    xs = [nd(a) for a in arrays]
    got = mx.nd.concat(*xs) if dim is None else mx.nd.concat(*xs, dim=dim)
    assert_bits(got, np.concatenate(arrays, axis=1 if dim is None else dim))


def test_concat_strided_foreign_and_out():
    a, b, c = sample(np.float64, (2, 6)), sample(np.float64, (2, 3)), sample(np.float64, (3, 2)).T
    want = np.concatenate([a, b, c], axis=1)
    got = mx.nd.concat(sliced(a), torch_of(b), np.asfortranarray(c))
    assert_bits(got, want)
    base = mx.nd.zeros((2, 24), dtype="float64")
    view = base[:, ::2]
    assert mx.nd.concat(nd(a), nd(b), nd(c), out=view) is view
    assert_bits(view, want)
    t = torch.zeros(4, 3, dtype=torch.float64)
    mx.nd.concat(torch_of(a[:, :3]), torch_of(b), dim=0, out=t)
    assert_bits(t.numpy(), np.concatenate([a[:, :3], b]))
    big = [sample(np.int32, (300, 100)), sample(np.int32, (300, 60))]
    assert_bits(mx.nd.concat(*[nd(x) for x in big]), np.concatenate(big, axis=1))


def test_concat_and_stack_of_more_arrays_than_dimensions():
    # Handle lists once shared the shape parser's 64-item limit.
    parts = [sample(np.float32, (2, 3)) for _ in range(100)]
    assert_bits(mx.nd.concat(*[nd(x) for x in parts], dim=0), np.concatenate(parts, axis=0))
    assert_bits(mx.nd.stack(*[nd(x) for x in parts]), np.stack(parts))


def test_concat_into_one_of_its_inputs():
    whole = nd(np.arange(8, dtype=np.int32).reshape(4, 2))
    first = whole[:2]
    other = nd(np.array([[10, 11], [12, 13]], np.int32))
    mx.nd.concat(other, first, dim=0, out=whole)
    assert_bits(whole, np.array([[10, 11], [12, 13], [0, 1], [2, 3]], np.int32))


@pytest.mark.parametrize("arrays, kwargs, error", [
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((2, 3), dtype="float64")], {}, TypeError),
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((3, 3))], {}, ValueError),
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((2, 3, 1))], {}, ValueError),
    (lambda: [mx.nd.ones((3,)), mx.nd.ones((3,))], {}, IndexError),  # default dim=1
    (lambda: [mx.nd.ones((2, 3))], {"dim": 2}, IndexError),
    (lambda: [mx.nd.ones(()), mx.nd.ones(())], {"dim": 0}, ValueError),
    (lambda: [], {}, TypeError),
    (lambda: [torch.ones(2, 3), torch.ones(2, 3, dtype=torch.int32)], {}, TypeError),
], ids=["dtype", "shape", "ndim", "default dim", "dim", "0-d", "none", "torch dtype"])
def test_concat_errors(arrays, kwargs, error):
    xs = arrays()
    out = mx.nd.full((2, 6), 3.0)
    snap = Snapshot(*[x for x in xs if isinstance(x, mx.nd.NDArray)], out)
    with pytest.raises(error):
        mx.nd.concat(*xs, out=out, **kwargs)
    snap.assert_intact()


# -------------------------------------------------------------------------------- stack

STACK_CASES = [((2, 3), 3, 0), ((2, 3), 2, 1), ((2, 3), 2, 2), ((2, 3), 4, -1), ((2, 3), 2, -3),
               ((), 3, 0), ((), 2, -1), ((0, 2), 2, 1), ((4,), 1, 0)]


@pytest.mark.parametrize("shape, n, axis", STACK_CASES, ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_stack(dtype, shape, n, axis):
    arrays = [np.roll(sample(dtype, shape), i) if shape else sample(dtype, (3,))[i % 3].reshape(())
              for i in range(n)]
    got = mx.nd.stack(*[nd(a) for a in arrays], axis=axis)
    assert_bits(got, np.stack(arrays, axis=axis))


def test_stack_default_axis_strided_foreign_and_out():
    a, b = sample(np.int16, (3, 4)), sample(np.int16, (3, 4))[::-1].copy()
    assert_bits(mx.nd.stack(sliced(a), torch_of(b)), np.stack([a, b]))
    out = mx.nd.zeros((3, 2, 4), dtype="int16")
    assert mx.nd.stack(nd(a), nd(b), axis=1, out=out) is out
    assert_bits(out, np.stack([a, b], axis=1))
    t = torch.zeros(3, 4, 2, dtype=torch.int16)
    mx.nd.stack(torch_of(a), np.asfortranarray(b), axis=2, out=t)
    assert_bits(t.numpy(), np.stack([a, b], axis=2))


@pytest.mark.parametrize("arrays, axis, error", [
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((2, 3), dtype="int8")], 0, TypeError),
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((3, 2))], 0, ValueError),
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))], 3, IndexError),
    (lambda: [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))], -4, IndexError),
    (lambda: [], 0, TypeError),
], ids=["dtype", "shape", "axis", "negative axis", "none"])
def test_stack_errors(arrays, axis, error):
    xs = arrays()
    snap = Snapshot(*xs)
    with pytest.raises(error):
        mx.nd.stack(*xs, axis=axis)
    snap.assert_intact()


# --------------------------------------------------------------------------------- cast

#: values every cast handles without NumPy's undefined cases (out-of-range float to int)
CAST_VALUES = [0, 1, 2, 3, 5, 100, 7.75, 0.5]


@pytest.mark.parametrize("to", ALL_DTYPES, ids=name)
@pytest.mark.parametrize("frm", ALL_DTYPES, ids=name)
def test_cast(frm, to):
    vals = list(CAST_VALUES)
    if np.dtype(frm).kind in "ifc" and np.dtype(to).kind not in "u":
        vals += [-2.5, -100]
    a = np_cast(np.array(vals).reshape(2, -1), frm)
    if np.dtype(frm).kind == "c":
        a = a + np_cast(1j * np.arange(a.size).reshape(a.shape), frm)
    x = nd(a)
    got = mx.nd.cast(x, dtype=to)
    assert_bits(got, np_cast(a, to))
    assert_bits(x.asnumpy(), a)
    assert_bits(mx.nd.cast(x[:, ::-2], dtype=to), np_cast(a[:, ::-2], to))  # strided


def test_cast_dtype_spellings_0d_0size_and_out():
    a = np.array([[1.5, -2.25], [3.0, 4.75]], np.float32)
    x = nd(a)
    for dt in ("int32", np.int32, np.dtype("int32")):
        assert_bits(mx.nd.cast(x, dtype=dt), a.astype(np.int32))
    assert_bits(mx.nd.cast(nd(np.float64(2.75)), dtype="int8"), np.array(2, np.int8))
    assert_bits(mx.nd.cast(mx.nd.zeros((0, 3)), dtype="float16"), np.zeros((0, 3), np.float16))
    out = mx.nd.zeros((2, 2), dtype="float64")
    assert mx.nd.cast(x, "float64", out=out) is out
    assert_bits(out, a.astype(np.float64))
    t = torch.zeros(2, 2, dtype=torch.int64)
    mx.nd.cast(torch_of(a).t(), dtype="int64", out=t)
    assert_bits(t.numpy(), a.T.astype(np.int64))
    assert_bits(mx.nd.cast(nd(np.array([1 + 2j])), dtype="float32"), np.array([1], np.float32))


def test_cast_errors():
    x = mx.nd.ones((2, 2))
    with pytest.raises(TypeError):
        mx.nd.cast(x, dtype="float8")
    with pytest.raises(TypeError):
        mx.nd.cast(x)  # dtype is required
    with pytest.raises(TypeError, match="out has dtype"):
        mx.nd.cast(x, dtype="int64", out=mx.nd.zeros((2, 2), dtype="int32"))
    with pytest.raises(ValueError, match="out has shape"):
        mx.nd.cast(x, dtype="int32", out=mx.nd.zeros((4,), dtype="int32"))


def test_generated_signatures():
    import inspect
    assert str(inspect.signature(mx.nd.transpose)) == "(data, axes=None, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.reshape)) == "(data, shape, reverse=False, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.concat)) == "(*data, dim=1, out=None, name=None)"
    assert str(inspect.signature(mx.nd.stack)) == "(*data, axis=0, out=None, name=None)"
    assert str(inspect.signature(mx.nd.cast)) == "(data, dtype, *, out=None, name=None)"


@pytest.mark.parametrize("args", [(), (None,), (2, 0, 1), (-1, 0, 1), ((1, 2, 0),)], ids=repr)
def test_transpose_method_is_a_view(args):
    """x.transpose(...) and x.T are views sharing memory, as in NumPy."""
    n = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = mx.nd.array(n)
    t = x.transpose(*args)
    np.testing.assert_array_equal(t.asnumpy(), n.transpose(*args))
    t[(1, 1, 1)] = -1  # write through the view; NumPy does the same on its side
    n.transpose(*args)[(1, 1, 1)] = -1
    np.testing.assert_array_equal(x.asnumpy(), n)
    np.testing.assert_array_equal(x.T.asnumpy(), n.T)


def test_transpose_method_errors():
    x = mx.nd.ones((2, 3))
    with pytest.raises(ValueError):
        x.transpose(0, 0)
    with pytest.raises(IndexError):
        x.transpose(0, 5)
    with pytest.raises(ValueError):
        x.transpose(0)


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "argmax", "argmin"])
def test_reduction_methods(name):
    n = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    x = mx.nd.array(n, dtype="float64")
    np.testing.assert_allclose(getattr(x, name)().asnumpy(), getattr(n, name)())
    np.testing.assert_allclose(getattr(x, name)(axis=1).asnumpy(), getattr(n, name)(axis=1))
    if name not in ("argmax", "argmin"):
        np.testing.assert_allclose(getattr(x, name)(axis=0, keepdims=True).asnumpy(), getattr(n, name)(axis=0, keepdims=True))


def test_elementwise_methods():
    n = np.linspace(0.5, 2, 6).reshape(2, 3)
    x = mx.nd.array(n, dtype="float64")
    for op in ("exp", "log", "sqrt", "square", "abs", "sin", "cos", "tanh"):
        np.testing.assert_allclose(getattr(x, op)().asnumpy(), getattr(np, op)(n), rtol=1e-12)
    np.testing.assert_allclose(x.clip(1.0, 1.5).asnumpy(), n.clip(1.0, 1.5))
