"""Matrix products (mx.nd.dot, batch_dot, matmul and ``x @ y``) against NumPy.

mxgo follows MXNet where it differs from NumPy:
  * both operands have the same dtype (TypeError otherwise); the result has that dtype;
  * dot contracts the last axis of lhs with the FIRST axis of rhs for N-D arrays (NumPy's
    dot uses the second-to-last), so the reference is ``np.tensordot``; transpose_a and
    transpose_b contract the other end instead;
  * 0-d operands are refused (ValueError), as matmul refuses them in NumPy;
  * the dot of two vectors has shape (1,) (MXNet has no 0-d results; api_helpers.mxnet_shaped).
Integer products wrap around exactly as NumPy's. Floating-point results are compared with
a float64 reference within a bound proportional to the dtype's epsilon, the length of the
contraction and ``|a| @ |b|`` (float16 accumulates in float32 and is rounded once).
"""
import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import Snapshot, mxnet_shaped, name, np_cast


def nd(a):
    """An NDArray copy of NumPy array ``a`` with its dtype (mx.nd.array's default, as
    MXNet's, is float32)."""
    a = np.asarray(a)
    return mx.nd.array(a, dtype=a.dtype)

DTYPES = (np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint32,
          np.complex64, np.complex128)
#: dtypes PyTorch has in both test environments (1.13 lacks uint32)
TORCH_DTYPES = (np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8,
                np.complex64, np.complex128)
EPS = {np.dtype(np.float16): 2 ** -11, np.dtype(np.float32): 2 ** -24, np.dtype(np.float64): 2 ** -53,
       np.dtype(np.complex64): 2 ** -24, np.dtype(np.complex128): 2 ** -53}


def values(dtype, shape, seed):
    """Values of ``dtype``: small integers for integer dtypes (so that most products stay
    in range), normal samples for the others."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.kind == "u":
        return rng.integers(0, 5, size=shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(-3, 4, size=shape).astype(dt)
    v = rng.standard_normal(size=shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(size=shape)
    return np_cast(v, dt)


def wide(dt):
    return np.complex128 if np.dtype(dt).kind == "c" else np.float64


def check(got, fn, a, b, k, dtype):
    """``got`` is an NDArray equal to ``fn(a, b)`` (NumPy arrays of ``dtype``): exactly for
    integers, within the rounding bound otherwise."""
    dt = np.dtype(dtype)
    assert isinstance(got, mx.nd.NDArray), type(got)
    assert got.dtype is dt.type, (got.dtype, dt)
    g = got.asnumpy()
    if dt.kind in "iu":
        want = fn(a, b)
        assert g.shape == want.shape, (g.shape, want.shape)
        assert want.dtype == dt
        np.testing.assert_array_equal(g, want)
        return
    a64, b64 = a.astype(wide(dt)), b.astype(wide(dt))
    want, bound = fn(a64, b64), fn(np.abs(a64), np.abs(b64))
    assert g.shape == want.shape, (g.shape, want.shape)
    eps = EPS[dt]
    if dt == np.float16:  # float32 accumulation, then one rounding to float16
        tol = 4 * eps + 2 * (k + 2) * 2 ** -24
    else:
        tol = (4 if dt.kind == "c" else 2) * (k + 2) * eps
    err = np.abs(g.astype(wide(dt)) - want)
    assert np.all(err <= tol * bound + 1e-30), "max error %g, bound %g" % (err.max(initial=0), tol)


def np_dot(ta=False, tb=False):
    """MXNet's dot as NumPy computes it."""
    return lambda a, b: mxnet_shaped(np.tensordot(a, b, axes=([0 if ta else -1], [-1 if tb else 0])))


def mx_shaped_dot(a, b):
    """NumPy's dot, shaped as MXNet's (the dot of two vectors has shape (1,))."""
    return mxnet_shaped(np.dot(a, b))


def np_batch_dot(ta=False, tb=False):
    return lambda a, b: np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b)


DOT_CASES = [
    ((5,), (5,), False, False),            # inner product: shape (1,), as in MXNet
    ((3, 4), (4, 5), False, False),
    ((3, 4), (4,), False, False),
    ((4,), (4, 5), False, False),
    ((4, 3), (4, 5), True, False),
    ((3, 4), (5, 4), False, True),
    ((4, 3), (5, 4), True, True),
    ((2, 3, 4), (4, 2, 3), False, False),  # N-D: MXNet's rule
    ((4, 2, 3), (4, 3), True, False),
    ((2, 3), (4, 2, 3), False, True),
    ((1, 1), (1, 1), False, False),
    ((0, 3), (3, 4), False, False),        # 0-size
    ((2, 0), (0, 3), False, False),        # empty contraction: zeros
    ((3, 4), (4, 0), False, False),
    ((0,), (0,), False, False),
]


@pytest.mark.parametrize("lshape, rshape, ta, tb", DOT_CASES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=name)
def test_dot(dtype, lshape, rshape, ta, tb):
    a, b = values(dtype, lshape, 1), values(dtype, rshape, 2)
    x, y = mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype)
    k = lshape[0] if ta else lshape[-1]
    if ta or tb:
        got = mx.nd.dot(x, y, transpose_a=ta, transpose_b=tb)
    else:
        got = mx.nd.dot(x, y)
        if len(lshape) <= 2 and len(rshape) <= 2:  # where MXNet's dot is NumPy's
            check(got, mx_shaped_dot, a, b, k, dtype)
    check(got, np_dot(ta, tb), a, b, k, dtype)
    np.testing.assert_array_equal(x.asnumpy(), a)  # the inputs are unchanged
    np.testing.assert_array_equal(y.asnumpy(), b)


BATCH_CASES = [
    ((3, 2, 4), (3, 4, 5), False, False),
    ((3, 4, 2), (3, 4, 5), True, False),
    ((3, 2, 4), (3, 5, 4), False, True),
    ((3, 4, 2), (3, 5, 4), True, True),
    ((2, 2, 1, 3), (2, 2, 3, 2), False, False),
    ((0, 2, 3), (0, 3, 4), False, False),
    ((2, 0, 3), (2, 3, 4), False, False),
    ((2, 3, 0), (2, 0, 4), False, False),
]


@pytest.mark.parametrize("lshape, rshape, ta, tb", BATCH_CASES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=name)
def test_batch_dot(dtype, lshape, rshape, ta, tb):
    a, b = values(dtype, lshape, 3), values(dtype, rshape, 4)
    got = mx.nd.batch_dot(mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype), transpose_a=ta, transpose_b=tb)
    check(got, np_batch_dot(ta, tb), a, b, lshape[-2] if ta else lshape[-1], dtype)


MATMUL_CASES = [
    ((3, 4), (4, 5)),
    ((4,), (4,)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((2, 3, 4), (4, 5)),        # rhs broadcast over the batch
    ((3, 4), (2, 4, 5)),        # lhs broadcast
    ((2, 1, 3, 4), (5, 4, 2)),  # batch axes broadcast both ways
    ((4,), (2, 3, 4, 5)),
    ((2, 3, 4), (4,)),
    ((1, 1), (1, 1)),
    ((0, 3), (3, 4)),
    ((2, 0, 3), (3, 4)),
    ((3, 0), (0, 2)),
    ((0,), (0,)),
    ((0, 1, 2), (1, 2, 2)),     # a 0-length batch
    ((1, 1, 2), (0, 2, 2)),
]


@pytest.mark.parametrize("lshape, rshape", MATMUL_CASES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=name)
def test_matmul_and_the_at_operator(dtype, lshape, rshape):
    a, b = values(dtype, lshape, 5), values(dtype, rshape, 6)
    x, y = mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype)
    check(mx.nd.matmul(x, y), np.matmul, a, b, lshape[-1], dtype)
    check(x @ y, np.matmul, a, b, lshape[-1], dtype)


def test_in_place_matmul():
    a, b = values(np.float64, (4, 4), 1), values(np.float64, (4, 4), 2)
    x, y = nd(a), nd(b)
    before = x
    x @= y
    assert x is before
    check(x, np.matmul, a, b, 4, np.float64)
    y @= y  # out is both operands
    check(y, np.matmul, b, b, 4, np.float64)


def test_at_operator_refuses_scalars():
    x = mx.nd.ones((2, 2))
    with pytest.raises(TypeError):
        x @ 2
    with pytest.raises(TypeError):
        2 @ x


# ---------------------------------------------------------------------- strided operands

def strided(kind, a):
    """An input holding NumPy array ``a``'s values with a layout of the given kind."""
    if kind == "contiguous":
        return nd(a)
    if kind == "sliced":  # every other element of a larger NDArray
        big = np.zeros(tuple(2 * d for d in a.shape), a.dtype)
        key = tuple(slice(None, None, 2) for _ in a.shape)
        big[key] = a
        return nd(big)[key]
    if kind == "reversed":  # negative strides
        key = tuple(slice(None, None, -1) for _ in a.shape)
        return nd(np.ascontiguousarray(a[key]))[key]
    if kind == "transposed_torch":  # a PyTorch tensor stored transposed, through DLPack
        t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(a, -1, -2)))
        return t.transpose(-1, -2)
    if kind == "fortran_numpy":  # a NumPy array in Fortran order, through DLPack
        return np.asfortranarray(a)
    raise AssertionError(kind)


LAYOUTS = ["contiguous", "sliced", "reversed", "transposed_torch", "fortran_numpy"]


@pytest.mark.parametrize("rlayout", LAYOUTS)
@pytest.mark.parametrize("llayout", LAYOUTS)
@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.complex64, np.int32, np.float16), ids=name)
def test_strided_operands(dtype, llayout, rlayout):
    a, b = values(dtype, (5, 6), 7), values(dtype, (6, 4), 8)
    x, y = strided(llayout, a), strided(rlayout, b)
    check(mx.nd.dot(x, y), np.dot, a, b, 6, dtype)
    check(mx.nd.matmul(x, y), np.matmul, a, b, 6, dtype)
    check(mx.nd.dot(x, strided(rlayout, np.ascontiguousarray(b.T)), transpose_b=True), np.dot, a, b, 6, dtype)
    a3, b3 = values(dtype, (3, 5, 6), 9), values(dtype, (3, 6, 4), 10)
    x3, y3 = strided(llayout, a3), strided(rlayout, b3)
    check(mx.nd.batch_dot(x3, y3), np.matmul, a3, b3, 6, dtype)
    check(mx.nd.matmul(x3, y), np.matmul, a3, b, 6, dtype)  # with broadcasting
    # vectors with strides
    v = values(dtype, (6,), 11)
    check(mx.nd.dot(x, strided(rlayout if rlayout in ("sliced", "reversed") else "contiguous", v)), np.dot, a, v, 6, dtype)


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int64, np.complex128), ids=name)
def test_strided_vectors(dtype):
    v = values(dtype, (12,), 1)
    x = nd(v)[::3]
    y = nd(v)[::-3]
    check(mx.nd.dot(x, y), mx_shaped_dot, v[::3], v[::-3], 4, dtype)
    check(mx.nd.matmul(x, y), np.matmul, v[::3], v[::-3], 4, dtype)


# --------------------------------------------------------------------------------- out=

@pytest.mark.parametrize("op", ["dot", "matmul", "batch_dot"])
@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.complex64, np.int32, np.float16), ids=name)
def test_out_ndarray(op, dtype):
    shapes = ((2, 3, 4), (2, 4, 5)) if op == "batch_dot" else ((3, 4), (4, 5))
    a, b = values(dtype, shapes[0], 1), values(dtype, shapes[1], 2)
    fn = getattr(mx.nd, op)
    want_shape = np.matmul(a, b).shape
    out = mx.nd.full(want_shape, 7, dtype=dtype)
    r = fn(nd(a), nd(b), out=out)
    assert r is out
    check(out, np.matmul, a, b, 4, dtype)
    # a strided out: every other column of a wider array, the others untouched
    base = mx.nd.full(want_shape[:-1] + (2 * want_shape[-1],), 7, dtype=dtype)
    view = base[..., ::2]
    r = fn(nd(a), nd(b), out=view)
    assert r is view
    check(view, np.matmul, a, b, 4, dtype)
    np.testing.assert_array_equal(base.asnumpy()[..., 1::2], np.full(want_shape, 7, dtype))


@pytest.mark.parametrize("op", ["dot", "matmul", "batch_dot"])
@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=name)
def test_out_torch_tensor_zero_copy(op, dtype):
    shapes = ((2, 3, 4), (2, 4, 5)) if op == "batch_dot" else ((3, 4), (4, 5))
    a, b = values(dtype, shapes[0], 3), values(dtype, shapes[1], 4)
    shape = np.matmul(a, b).shape
    t = torch.zeros(shape, dtype=torch.from_numpy(np.zeros(1, dtype)).dtype)
    ptr = t.data_ptr()
    r = getattr(mx.nd, op)(nd(a), nd(b), out=t)
    assert r is t  # out comes back as given
    assert t.data_ptr() == ptr
    # the function waited: torch sees the result at once
    check(nd(t.numpy()), np.matmul, a, b, 4, dtype)
    # a transposed (column-major) torch out, with torch inputs
    tt = torch.zeros(shape[:-2] + (shape[-1], shape[-2]), dtype=t.dtype).transpose(-1, -2)
    getattr(mx.nd, op)(torch.from_numpy(a), torch.from_numpy(b), out=tt)
    check(nd(tt.contiguous().numpy()), np.matmul, a, b, 4, dtype)


def test_out_is_an_input():
    a, b = values(np.float32, (4, 4), 1), values(np.float32, (4, 4), 2)
    x, y = nd(a), nd(b)
    mx.nd.dot(x, y, out=x)
    check(x, np.dot, a, b, 4, np.float32)
    t = torch.from_numpy(b.copy())
    mx.nd.matmul(t, t, out=t)
    check(nd(t.numpy()), np.matmul, b, b, 4, np.float32)


# ---------------------------------------------------------------------------- big ones

def test_float32_gemm_256_against_float64():
    a, b = values(np.float32, (256, 256), 1), values(np.float32, (256, 256), 2)
    got = mx.nd.dot(nd(a), nd(b)).asnumpy()
    want = a.astype(np.float64) @ b.astype(np.float64)
    bound = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    assert np.all(np.abs(got - want) <= 1e-5 * bound)
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("lshape, rshape", [((300, 200), (200, 250)), ((64, 9, 8), (64, 8, 7)), ((3, 120, 90), (90, 100))], ids=str)
@pytest.mark.parametrize("dtype", (np.float64, np.int32, np.complex64, np.float16), ids=name)
def test_products_spread_over_cores(dtype, lshape, rshape):
    a, b = values(dtype, lshape, 5), values(dtype, rshape, 6)
    check(mx.nd.matmul(nd(a), nd(b)), np.matmul, a, b, lshape[-1], dtype)


def test_integer_products_wrap_like_numpy():
    a = np.array([[100, 100], [-128, 127]], np.int8)
    b = np.array([[2, 1], [1, 3]], np.int8)
    got = mx.nd.dot(nd(a), nd(b))
    np.testing.assert_array_equal(got.asnumpy(), np.dot(a, b))
    u = np.array([[200, 100]], np.uint8)
    got = mx.nd.matmul(nd(u), nd(u.T.copy()))
    np.testing.assert_array_equal(got.asnumpy(), u @ u.T)


def test_complex_products_do_not_conjugate():
    v = np.array([1 + 2j, 3 - 1j], np.complex128)
    got = mx.nd.dot(nd(v), nd(v))
    assert got.shape == (1,)
    assert got.asscalar() == np.dot(v, v) != np.vdot(v, v)


# ------------------------------------------------------------------------------ errors

def f32(*shape):
    return nd(values(np.float32, shape, 0))


BAD_CALLS = [
    ("dot dtype", lambda: mx.nd.dot(f32(2, 3), mx.nd.ones((3, 2), dtype="float64")), TypeError, "dtype"),
    ("dot bool", lambda: mx.nd.dot(mx.nd.ones((2,), dtype="bool"), mx.nd.ones((2,), dtype="bool")), TypeError, "bool"),
    ("dot shape", lambda: mx.nd.dot(f32(2, 3), f32(2, 3)), ValueError, "not aligned"),
    ("dot vectors", lambda: mx.nd.dot(f32(3), f32(4)), ValueError, "not aligned"),
    ("dot transpose", lambda: mx.nd.dot(f32(2, 3), f32(3, 2), transpose_a=True), ValueError, "not aligned"),
    ("dot 0-d", lambda: mx.nd.dot(f32(), f32(3)), ValueError, "0-d"),
    ("batch_dot 2-d", lambda: mx.nd.batch_dot(f32(2, 3), f32(3, 2)), ValueError, "at least 3"),
    ("batch_dot batch", lambda: mx.nd.batch_dot(f32(2, 2, 3), f32(3, 3, 2)), ValueError, "batch"),
    ("batch_dot shape", lambda: mx.nd.batch_dot(f32(2, 2, 3), f32(2, 2, 3)), ValueError, "not aligned"),
    ("batch_dot dtype", lambda: mx.nd.batch_dot(f32(2, 2, 3), mx.nd.ones((2, 3, 2), dtype="int32")), TypeError, "dtype"),
    ("matmul shape", lambda: mx.nd.matmul(f32(2, 3), f32(4, 2)), ValueError, "core dimension"),
    ("matmul batch", lambda: mx.nd.matmul(f32(2, 2, 3), f32(3, 3, 2)), ValueError, "broadcast"),
    ("matmul 0-d", lambda: mx.nd.matmul(f32(3), f32()), ValueError, "dimensions"),
    ("matmul dtype", lambda: mx.nd.matmul(mx.nd.ones((2, 2), dtype="int32"), f32(2, 2)), TypeError, "dtype"),
    ("at dtype", lambda: mx.nd.ones((2, 2), dtype="complex64") @ mx.nd.ones((2, 2), dtype="complex128"), TypeError, "dtype"),
    ("at shape", lambda: f32(2, 3) @ f32(2, 3), ValueError, "core dimension"),
    ("torch dtype", lambda: mx.nd.matmul(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64)), TypeError, "dtype"),
    ("bad kwarg", lambda: mx.nd.dot(f32(2), f32(2), transpose_c=True), TypeError, "transpose_c"),
]


@pytest.mark.parametrize("what, call, error, fragment", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_errors(what, call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


@pytest.mark.parametrize("op", ["dot", "matmul", "batch_dot"])
def test_errors_leave_inputs_and_out_intact(op):
    shapes = ((2, 2, 3), (2, 2, 3)) if op == "batch_dot" else ((2, 3), (2, 3))
    x, y = f32(*shapes[0]), f32(*shapes[1])
    out = mx.nd.full((2, 2), 5.0)
    t = torch.full((2, 2), 5.0)
    snap = Snapshot(x, y, out)
    with pytest.raises(ValueError):
        getattr(mx.nd, op)(x, y, out=out)
    with pytest.raises(ValueError):
        getattr(mx.nd, op)(x, y, out=t)
    snap.assert_intact()
    assert torch.equal(t, torch.full((2, 2), 5.0))
    with pytest.raises(TypeError):
        getattr(mx.nd, op)(x, y.astype("float64"), out=out)
    snap.assert_intact()


def test_bad_out():
    x, y = f32(2, 3), f32(3, 4)
    with pytest.raises(ValueError, match="out has shape"):
        mx.nd.dot(x, y, out=mx.nd.empty((4, 2)))
    with pytest.raises(TypeError, match="out has dtype"):
        mx.nd.matmul(x, y, out=mx.nd.empty((2, 4), dtype="float64"))
    with pytest.raises(TypeError, match="out has dtype"):
        mx.nd.matmul(x, y, out=torch.empty(2, 4, dtype=torch.float64))


def test_generated_signatures_and_docs():
    import inspect
    assert str(inspect.signature(mx.nd.dot)) == "(lhs, rhs, transpose_a=False, transpose_b=False, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.batch_dot)) == "(lhs, rhs, transpose_a=False, transpose_b=False, *, out=None, name=None)"
    assert str(inspect.signature(mx.nd.matmul)) == "(lhs, rhs, *, out=None, name=None)"
    assert "first axis of rhs" in mx.nd.dot.__doc__
    assert "broadcast" in mx.nd.matmul.__doc__
    assert "bool" not in mx.nd.dot.__doc__.split("Supported dtypes:")[1]


@pytest.mark.parametrize("op", ["dot", "matmul"])
@pytest.mark.parametrize("dtype", (np.float16, np.float32, np.float64), ids=name)
def test_inf_and_nan_propagate_like_numpy(dtype, op):
    """0 * inf and 0 * nan are nan, though BLAS implementations that skip zeros of lhs
    (gonum's, the reference BLAS) would drop those terms."""
    a = np.array([[0, 1, 2], [1, 0, 0], [0, 0, 0]], dtype)
    b = np.array([[np.inf, 1], [1, np.nan], [2, 3]], dtype)
    with np.errstate(invalid="ignore"):
        want = (a.astype(np.float64) @ b.astype(np.float64)).astype(dtype)
    for x, y in [(nd(a), nd(b)), (np.asfortranarray(a), torch.from_numpy(b))]:
        np.testing.assert_array_equal(getattr(mx.nd, op)(x, y).asnumpy(), want)
    c = np.array([[0, 1j]], np.complex128)
    d = np.array([[np.nan], [2]], np.complex128)
    got = getattr(mx.nd, op)(nd(c), nd(d)).asnumpy()
    assert np.isnan(got).all()
