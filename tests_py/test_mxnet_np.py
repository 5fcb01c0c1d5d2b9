"""mx.np against the real MXNet 1.9.1's mxnet.numpy: every function of the table runs on
the same float32 values in both libraries (after ``npx.set_np()``) and must give the same
shape, dtype and values; the README's departures (integer promotion, arange's dtype) are
checked as departures.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import mxnet
import numpy as onp
import pytest

import mxgo as mx

mxnet.npx.set_np()
R = onp.random.RandomState(3)
A = R.uniform(0.1, 0.9, (3, 4)).astype("float32")
B = R.uniform(-2, 2, (3, 4)).astype("float32")
C = R.uniform(-2, 2, (4,)).astype("float32")

UNARY = ["abs", "absolute", "negative", "square", "sign", "ceil", "floor", "trunc", "fix", "rint", "sqrt", "cbrt",
         "exp", "expm1", "log", "log1p", "log2", "log10", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos",
         "arctan", "sinh", "cosh", "tanh", "arcsinh", "arctanh", "degrees",
         "radians"]  # (MXNet 1.9.1's deg2rad and rad2deg are broken)
BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "power", "remainder", "mod", "maximum", "minimum",
          "hypot", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal"]
# (name, args builder, kwargs): args get each library's array function
CALLS = [
    ("sum", lambda a: [a(B)], {"axis": 1}), ("prod", lambda a: [a(A)], {"axis": 0}), ("mean", lambda a: [a(B)], {}),
    ("max", lambda a: [a(B)], {"axis": 1, "keepdims": True}), ("min", lambda a: [a(B)], {}),
    ("std", lambda a: [a(B)], {"axis": 0}), ("var", lambda a: [a(B)], {"axis": 1}),
    ("argmax", lambda a: [a(B)], {"axis": 1}), ("argmin", lambda a: [a(B)], {}),
    ("cumsum", lambda a: [a(B)], {"axis": 1}), ("transpose", lambda a: [a(B)], {}),
    ("reshape", lambda a: [a(B), (2, 6)], {}), ("expand_dims", lambda a: [a(C)], {"axis": 0}),
    ("squeeze", lambda a: [a(B[:1])], {}), ("broadcast_to", lambda a: [a(C), (3, 4)], {}),
    ("concatenate", lambda a: [[a(A), a(B)]], {"axis": 1}), ("stack", lambda a: [[a(A), a(B)]], {"axis": 2}),
    ("flip", lambda a: [a(B)], {"axis": 1}), ("roll", lambda a: [a(B), 2], {"axis": 1}),
    ("tile", lambda a: [a(C), (2, 1)], {}), ("repeat", lambda a: [a(C), 2], {}),
    ("where", lambda a: [a(B) > 0, a(A), a(B)], {}), ("clip", lambda a: [a(B), -1, 1], {}),
    ("sort", lambda a: [a(B)], {"axis": 1}), ("argsort", lambda a: [a(B)], {"axis": 0}),
    ("matmul", lambda a: [a(A), a(B.T)], {}), ("tensordot", lambda a: [a(A), a(B.T)], {"axes": 1}),
    ("tril", lambda a: [a(B)], {"k": 1}), ("swapaxes", lambda a: [a(B), 0, 1], {}),
    ("moveaxis", lambda a: [a(B), 0, 1], {}), ("take", lambda a: [a(B), a(onp.array([2, 0], "int64"))], {"axis": 1}),
    ("zeros_like", lambda a: [a(B)], {}), ("ones_like", lambda a: [a(B)], {}), ("full_like", lambda a: [a(B), 2.5], {}),
]


def both(name, build, kwargs):
    got = getattr(mx.np, name)(*build(mx.np.array), **kwargs)
    want = getattr(mxnet.np, name)(*build(mxnet.np.array), **kwargs)
    return got, want


def same(got, want):
    w = want.asnumpy()
    assert got.shape == w.shape, (got.shape, w.shape)
    assert got.dtype == w.dtype, (got.dtype, w.dtype)
    onp.testing.assert_allclose(got.asnumpy(), w, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", UNARY)
def test_unary(name):
    src = A if name in ("arcsin", "arccos", "arctanh", "log", "log2", "log10", "sqrt") else B
    same(*both(name, lambda a: [a(src)], {}))


@pytest.mark.parametrize("name", BINARY)
def test_binary(name):
    lhs = A if name in ("power",) else B
    same(*both(name, lambda a: [a(lhs), a(C)], {}))
    same(*both(name, lambda a: [a(lhs), 1.5], {}))


@pytest.mark.parametrize("name,build,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_functions(name, build, kwargs):
    same(*both(name, build, kwargs))


def test_creation_and_methods():
    for name, args in (("zeros", ((2, 3),)), ("ones", ((4,),)), ("full", ((2, 2), 1.5)), ("eye", (3,)),
                       ("linspace", (0, 1, 7))):
        same(getattr(mx.np, name)(*args), getattr(mxnet.np, name)(*args))
    x, y = mx.np.array(B), mxnet.np.array(B)
    same(x.sum(axis=0), y.sum(axis=0))
    same(x.T, y.T)
    same(x[1:, ::2], y[1:, ::2])
    same(x[x > 0], y[y > 0])
    same(x.reshape(-1), y.reshape(-1))
    assert repr(mx.np.array([1.5, 2.0])) == repr(mxnet.np.array([1.5, 2.0]))
    assert isinstance(x, mx.nd.NDArray) == isinstance(y, mxnet.nd.NDArray)


def test_departures_from_mxnet():
    """Where MXNet 1.9.1 departs from NumPy and the standard, mxgo follows them (README)."""
    i = onp.array([1, 2, 3], "int32")
    assert mxnet.np.arange(3).dtype == onp.float32 and mx.np.arange(3).dtype == onp.int64
    assert (mxnet.np.array(i) + 1.5).dtype == onp.int32  # MXNet truncates the float scalar
    assert (mx.np.array(i) + 1.5).dtype == onp.float32 and (mx.np.array(i) + 1.5).tolist() == [2.5, 3.5, 4.5]
