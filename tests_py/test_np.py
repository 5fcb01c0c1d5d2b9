"""mx.np: NumPy's semantics over mxgo's arrays (dtypes and promotion, 0-d arrays, bool
comparisons, indexing, views), the same memory as mx.nd, exchange with NumPy and PyTorch,
pickling and autograd; NumPy 2 is the reference for values."""
import gc
import pickle

import numpy as onp
import pytest
import torch

import mxgo as mx
from mxgo import np
from mxgo.numpy import _ufuncs

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def check(got, want, dtype=None):
    assert isinstance(got, np.ndarray)
    want = onp.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == (onp.dtype(dtype) if dtype else want.dtype)
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_creation_dtypes_are_mxnets_defaults():
    assert np.array([1.5, 2]).dtype == onp.float32  # MXNet's float32 (NumPy: float64)
    assert np.array([1, 2]).dtype == onp.int64
    assert np.array([True]).dtype == onp.bool_
    assert np.array([1j]).dtype == onp.complex64
    assert np.array(onp.arange(3, dtype=onp.int16)).dtype == onp.int16
    assert np.zeros((2, 3)).dtype == onp.float32 and np.ones(2, dtype="int8").dtype == onp.int8
    assert np.full((2,), 7).dtype == onp.int64 and np.full((2,), 0.5).dtype == onp.float32
    assert np.arange(5).dtype == onp.int64 and np.arange(0.0, 1.0, 0.25).dtype == onp.float32
    check(np.arange(2, 11, 3), onp.arange(2, 11, 3))
    check(np.linspace(0, 1, 5), onp.linspace(0, 1, 5, dtype=onp.float32))
    check(np.eye(3, 4, k=1, dtype="int32"), onp.eye(3, 4, k=1, dtype=onp.int32))
    check(np.zeros_like(np.ones((2, 2), dtype="uint8")), onp.zeros((2, 2), onp.uint8))
    info = np.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == onp.float32
    assert set(info.dtypes()) == set(DTYPES) - {"float16"}  # (the standard's dtypes; mx.np holds float16 too)


@pytest.mark.parametrize("a,b", [("int8", "uint8"), ("int16", "int64"), ("uint32", "int32"), ("float16", "float32"),
                                 ("int32", "float32"), ("bool", "int8"), ("float32", "complex64"),
                                 ("float64", "complex64")])
def test_promotion_between_arrays_is_numpys(a, b):
    x, y = onp.arange(1, 4).astype(a), onp.arange(2, 5).astype(b)
    check(np.array(x) + np.array(y), x + y)
    check(np.multiply(np.array(x), np.array(y)), x * y)


def test_python_scalars_take_the_arrays_dtype():
    x = np.array([1, 2, 3], dtype="int8")
    assert (x + 1).dtype == onp.int8 and (2 * x).dtype == onp.int8
    assert (x + 1.5).dtype == onp.float32  # float scalar beside ints: the default float
    assert (np.array([1.0], dtype="float16") * 3.0).dtype == onp.float16
    assert (x / 2).dtype == onp.float32
    assert (np.array([True]) + 1).dtype == onp.int64
    with pytest.raises(OverflowError):
        x + 1000


def test_comparisons_give_bool_and_0d_reductions():
    x = np.array([[1.0, 5.0], [3.0, onp.nan]])
    check(x > 2, onp.array([[False, True], [True, False]]))
    check(x == x, onp.array([[True, True], [True, False]]))
    s = np.array([[1, 2], [3, 4]]).sum()
    assert s.shape == () and s.dtype == onp.int64 and int(s) == 10
    check(np.sum(np.array([1, 2], dtype="int8")), onp.int64(3))
    check(np.mean(np.array([[1, 2], [3, 4]]), axis=0), onp.array([2.0, 3.0], onp.float32))
    check(np.std(np.array([1.0, 2.0, 4.0]), correction=1), onp.std(onp.array([1.0, 2.0, 4.0], onp.float32), ddof=1))
    check(np.max(np.array([[1, 7], [3, 2]]), axis=1, keepdims=True), onp.array([[7], [3]]))
    check(np.argmax(np.array([[1, 7], [9, 2]])), onp.int64(2))
    check(np.all(np.array([[True, False]]), axis=1), onp.array([False]))
    check(np.any(np.zeros((0,))), onp.False_)
    assert float(np.array(2.5)) == 2.5 and bool(np.array([1])) and [1, 2][np.array(1)] == 2


def test_indexing_views_masks_and_integer_arrays():
    base = onp.arange(24).reshape(2, 3, 4)
    x = np.array(base)
    check(x[1, 2], base[1, 2])
    check(x[:, 1:, ::2], base[:, 1:, ::2])
    check(x[..., None, 1], base[..., None, 1])
    check(x[x > 20], base[base > 20])
    check(x[onp.array([1, 0])], base[onp.array([1, 0])])
    check(x[:, [0, 2], [1, 3]], base[:, [0, 2], [1, 3]])
    view = x[0, 1:]
    view[...] = -1  # basic slices are views, as NumPy's
    assert (x.asnumpy()[0, 1:] == -1).all()
    x[x < 0] = 7
    assert (x.asnumpy()[0, 1:] == 7).all()
    with pytest.raises(IndexError):
        x[5]
    with pytest.raises(IndexError):
        x[np.array([True, False, True])]  # a mask of the wrong shape


def test_functions_agree_with_numpy():
    a = onp.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], onp.float32)
    x = np.array(a)
    for name in ("abs", "exp", "log1p", "sin", "tanh", "floor", "sign", "square"):
        check(getattr(np, name)(np.abs(x) if name == "log1p" else x), getattr(onp, name)(onp.abs(a) if name == "log1p" else a))
    check(np.sqrt(np.array([1, 4, 9])), onp.array([1, 2, 3], onp.float32))  # ints: float32
    check(np.concat([x, x], axis=1), onp.concatenate([a, a], axis=1))
    check(np.stack([x, x]), onp.stack([a, a]))
    check(np.transpose(x), a.T)
    check(np.matmul(x, x.T), a @ a.T)
    check(x @ x.T, a @ a.T)
    check(np.where(x > 0, x, 0.0), onp.where(a > 0, a, onp.float32(0)))
    check(np.flip(x, axis=1), onp.flip(a, axis=1))
    check(np.roll(x, 1, axis=1), onp.roll(a, 1, axis=1))
    check(np.sort(x, axis=1), onp.sort(a, axis=1))
    check(np.argsort(x, axis=1), onp.argsort(a, axis=1, kind="stable"))
    check(np.tril(x), onp.tril(a))
    check(np.triu(x, k=1), onp.triu(a, k=1))
    check(np.rad2deg(x), onp.rad2deg(a))
    check(np.clip(x, -1, 1), onp.clip(a, -1, 1))
    check(np.tensordot(x, x.T, axes=1), onp.tensordot(a, a.T, axes=1))
    check(np.expand_dims(x, axis=(0, 2)), onp.expand_dims(a, (0, 2)))
    assert [tuple(g.shape) for g in np.meshgrid(np.arange(3), np.arange(2))] == [(2, 3), (2, 3)]


def test_same_memory_as_nd_and_other_frameworks():
    x = np.arange(6, dtype="float32").reshape(2, 3)
    nd = x.as_nd_ndarray()
    assert isinstance(nd, mx.nd.NDArray) and not isinstance(nd, np.ndarray)
    nd[0, 0] = 42
    assert x[0, 0].item() == 42
    assert nd.as_nd_ndarray() is nd and x.as_np_ndarray() is x
    back = nd.as_np_ndarray()  # a second mx.np handle on the same memory
    assert type(back) is np.ndarray and back is not x
    back[0, 1] = 7
    assert x[0, 1].item() == 7 and nd[0, 1].asscalar() == 7
    assert isinstance(x, mx.nd.NDArray)  # as MXNet's mx.np.ndarray
    t = torch.from_dlpack(x)
    t[1, 2] = -5
    assert x[1, 2].item() == -5
    n = onp.from_dlpack(x)
    assert n.shape == (2, 3) and n.strides == (12, 4) and n[1, 2] == -5
    src = torch.arange(4.0)
    y = np.from_dlpack(src)
    assert isinstance(y, np.ndarray) and y.dtype == onp.float32
    y[0] = 9
    assert src[0].item() == 9
    del src, t
    gc.collect()
    assert y.tolist() == [9.0, 1.0, 2.0, 3.0]


def test_pickle_and_autograd_keep_the_class():
    x = np.array([[1.0, 2.0]])
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, np.ndarray) and y.tolist() == [[1.0, 2.0]]
    x.attach_grad()
    with mx.autograd.record():
        z = (x * x).sum()
    z.backward()
    assert isinstance(x.grad, np.ndarray)
    check(x.grad, onp.array([[2.0, 4.0]], onp.float32))
    # an mx.nd variable recorded through its mx.np view: one autograd entry for both
    v = mx.nd.array([1.0, 3.0])
    v.attach_grad()
    with mx.autograd.record():
        w = (v.as_np_ndarray() ** 2).sum()
    w.backward()
    assert type(v.grad) is mx.nd.NDArray and v.grad.asnumpy().tolist() == [2.0, 6.0]


def test_bad_inputs_raise_numpys_exception_types():
    x = np.array([1, 2, 3])
    with pytest.raises(TypeError):
        np.subtract(np.array([True]), np.array([False]))  # NumPy refuses bool subtraction
    with pytest.raises(TypeError):
        np.sin("text")
    with pytest.raises(ValueError):
        x.reshape(2, 2)
    with pytest.raises(ValueError):
        np.sum(x, axis=3)
    with pytest.raises(ValueError):
        np.concat([x, np.ones((2, 2))])
    with pytest.raises(TypeError):
        np.array([1, 2]) + "a"
    assert x.tolist() == [1, 2, 3]


def test_bitwise_logical_and_integer_operators_follow_numpy():
    a = onp.array([[5, -3, 12], [0, 7, -8]], onp.int32)
    b = onp.array([3, 2, 1], onp.int32)
    x, y = np.array(a), np.array(b)
    check(x & y, a & b)
    check(x | 1, a | 1)
    check(x ^ y, a ^ b)
    check(~x, ~a)
    check(x << y, a << b)
    check(x >> 1, a >> 1)
    check(x // y, a // b)
    check(x % y, a % b)
    check(-7 // y, -7 // b)
    m = np.array([True, False, True])
    check(m & np.array([True, True, False]), onp.array([True, False, False]))
    check(~m, onp.array([False, True, False]))
    check(np.logical_xor(m, True), onp.array([False, True, False]))
    f = onp.array([1.5, -0.0, onp.inf, onp.nan], onp.float32)
    check(np.isnan(np.array(f)), onp.isnan(f))
    check(np.isfinite(np.array(f)), onp.isfinite(f))
    check(np.signbit(np.array(f)), onp.signbit(f))
    check(np.arctan2(np.array(f), 2.0), onp.arctan2(f, onp.float32(2)))
    check(np.copysign(np.array(f), -1.0), onp.copysign(f, onp.float32(-1)))
    c = onp.array([1 + 2j, -3j], onp.complex64)
    check(np.real(np.array(c)), c.real)
    check(np.conj(np.array(c)), c.conj())
    with pytest.raises(TypeError):
        np.array([1.5]) & 1  # bitwise operators take integers and bools only


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "pow", "remainder", "floor_divide", "maximum",
                                  "equal", "less", "logical_and", "bitwise_xor", "arctan2", "copysign", "nextafter"])
def test_one_call_path_gives_the_promoting_paths_bits(name):
    """The operators' and functions' one-call paths (same dtypes; a small int or a float
    beside the array), in place too, against binary(), which promotes and casts: the same
    dtype and bits."""
    for dtype in DTYPES:
        a = onp.arange(-3, 5).astype(dtype) if dtype != "bool" else onp.array([True, False] * 4)
        x = np.array(a)
        for other in (np.array(a[::-1].copy()), 3, 2.5):
            try:
                want = _ufuncs.binary(name, x, other)
            except (TypeError, ValueError, OverflowError):
                continue
            for got in (_ufuncs.binary_method(name)(x, other), _ufuncs.FUNCTIONS[name](x, other)):
                assert isinstance(got, np.ndarray) and got.dtype == want.dtype, (name, dtype, other)
                assert got.asnumpy().tobytes() == want.asnumpy().tobytes(), (name, dtype, other)
            if want.dtype == x.dtype:
                y = x.copy()
                assert _ufuncs.inplace_method(name)(y, other) is y
                assert y.asnumpy().tobytes() == want.asnumpy().tobytes(), (name, dtype, other)


def test_c_invoke_makes_the_class_and_checks_the_dtypes_it_is_given():
    """fastpath.invoke's cls and same arguments (mx.np's one-call paths): the result is of
    cls; unless every operand is an mxgo array of one dtype in the mask, NotImplemented."""
    from mxgo._core.registry import OPS
    from mxgo.base import fastpath
    add, f32, i32 = OPS["add"]["id"], np.ones(3), np.ones(3, dtype="int32")
    both = (1 << f32._code) | (1 << i32._code)
    r = fastpath.invoke(add, (f32, f32), None, "", np.ndarray, 1 << f32._code)
    assert type(r) is np.ndarray and r.tolist() == [2.0, 2.0, 2.0]
    assert type(fastpath.invoke(add, (f32.as_nd_ndarray(), f32), None, "", np.ndarray)) is np.ndarray
    for operands, mask in (((f32, i32), both), ((i32, i32), 1 << f32._code), ((f32, 1.0), both),
                           ((f32, onp.ones(3, "float32")), both), ((f32, f32), 0)):
        assert fastpath.invoke(add, operands, None, "", np.ndarray, mask) is NotImplemented
    with pytest.raises(TypeError):
        fastpath.invoke(add, (f32, f32), None, "", np.ndarray, "mask")


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean"])
def test_whole_reduction_one_call_path_gives_the_axes_paths_bits(name):
    """x.<name>() and x.<name>(axis=int) (the registry's NumPy-shaped form in one call where
    no cast is needed) against the same reduction with the axes as a tuple, which takes the
    general path: the same shape, dtype and bits, for every dtype and a 0-d, 1-d and 3-d array."""
    for dtype in DTYPES:
        for shape in ((), (7,), (2, 3, 4)):
            a = (onp.arange(onp.prod(shape, dtype=int)) % 5 - 1).reshape(shape)
            x = np.array(a.astype(dtype) if dtype != "bool" else a > 0)
            want = getattr(np, name)(x, axis=tuple(range(x.ndim)))
            for got in (getattr(x, name)(), getattr(np, name)(x)):
                assert got.shape == () and got.dtype == want.dtype, (name, dtype, shape)
                assert got.asnumpy().tobytes() == want.asnumpy().tobytes(), (name, dtype, shape)
            for axis in range(-x.ndim, x.ndim):  # one int axis: the one-call path too
                for keepdims in (False, True):
                    want = getattr(np, name)(x, axis=(axis,), keepdims=keepdims)
                    got = getattr(x, name)(axis=axis, keepdims=keepdims)
                    assert got.shape == want.shape and got.dtype == want.dtype, (name, dtype, shape, axis)
                    assert got.asnumpy().tobytes() == want.asnumpy().tobytes(), (name, dtype, shape, axis)


@pytest.mark.parametrize("name", ["abs", "negative", "sqrt", "exp", "floor", "isnan", "signbit", "logical_not",
                                  "bitwise_not", "real", "conj", "square"])
def test_unary_one_call_path_gives_the_promoting_paths_bits(name):
    """The unary functions' one-call path (no cast needed) against the path with out=, which
    always takes the checked route: the same dtype and bits for every dtype."""
    for dtype in DTYPES:
        a = onp.arange(-3, 5).astype(dtype) if dtype != "bool" else onp.array([True, False] * 4)
        x = np.array(a)
        try:
            want = getattr(np, name)(x)
            ref = _ufuncs.unary(name, x, out=np.empty(want.shape, want.dtype))
        except (TypeError, ValueError):
            continue
        assert want.dtype == ref.dtype and want.asnumpy().tobytes() == ref.asnumpy().tobytes(), (name, dtype)
