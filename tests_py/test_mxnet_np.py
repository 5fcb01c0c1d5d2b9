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

R = onp.random.RandomState(3)


@pytest.fixture(autouse=True, scope="module")
def numpy_mode():
    """MXNet's mxnet.numpy needs npx.set_np(); the other files of the process need it off."""
    mxnet.npx.set_np()
    yield
    mxnet.npx.reset_np()
    mx.npx.reset_np()
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


def same(got, want, rtol=2e-6):
    w = want.asnumpy()
    assert got.shape == w.shape, (got.shape, w.shape)
    assert got.dtype == w.dtype, (got.dtype, w.dtype)
    onp.testing.assert_allclose(got.asnumpy(), w, rtol=rtol, atol=1e-6)


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


X4 = R.uniform(-1, 1, (2, 3, 4, 4)).astype("float32")
W = R.uniform(-1, 1, (5, 3, 3, 3)).astype("float32")
IDX = onp.array([1, 0, 2], "float32")
# (npx name, args builder, kwargs)
NPX = [
    ("relu", lambda a: [a(B)], {}), ("sigmoid", lambda a: [a(B)], {}), ("softmax", lambda a: [a(B)], {"axis": 0}),
    ("log_softmax", lambda a: [a(B)], {}), ("one_hot", lambda a: [a(IDX), 4], {}),
    ("pick", lambda a: [a(B[:, :3].T), a(IDX)], {"axis": 1}), ("topk", lambda a: [a(B)], {"k": 2}),
    ("batch_dot", lambda a: [a(X4[:, 0]), a(X4[:, 1])], {}), ("batch_flatten", lambda a: [a(X4)], {}),
    ("fully_connected", lambda a: [a(B), a(B[:2]), a(C[:2])], {"num_hidden": 2}),
    ("convolution", lambda a: [a(X4), a(W)], {"kernel": (3, 3), "num_filter": 5, "no_bias": True, "pad": (1, 1)}),
    ("pooling", lambda a: [a(X4)], {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"}),
    ("layer_norm", lambda a: [a(B), a(C), a(C)], {}), ("embedding", lambda a: [a(IDX), a(B)], {"input_dim": 3, "output_dim": 4}),
    ("sequence_mask", lambda a: [a(X4[0]), a(onp.array([1, 2, 3, 4], "float32"))], {"use_sequence_length": True}),
    ("gather_nd", lambda a: [a(B), a(onp.array([[0, 2], [1, 3]], "int64"))], {}), ("erf", lambda a: [a(B)], {}),
    ("erfinv", lambda a: [a(A)], {}), ("gammaln", lambda a: [a(A)], {}), ("gamma", lambda a: [a(A)], {}),
    ("shape_array", lambda a: [a(X4)], {}), ("slice", lambda a: [a(B)], {"begin": (0, 1), "end": (2, 3)}),
    ("smooth_l1", lambda a: [a(B)], {"scalar": 1.0}), ("reshape_like", lambda a: [a(B), a(B.reshape(6, 2))], {}),
    ("nonzero", lambda a: [a(B) > 0], {}), ("reshape", lambda a: [a(X4), (-2, -5, -2)], {}),
    ("reshape", lambda a: [a(X4), (-6, 1, -1, -4)], {}), ("reshape", lambda a: [a(X4), (-4, -1, 2, -6)], {"reverse": True}),
]


@pytest.mark.parametrize("name,build,kwargs", NPX, ids=["%s-%d" % (c[0], i) for i, c in enumerate(NPX)])
def test_npx(name, build, kwargs):
    got = getattr(mx.npx, name)(*build(mx.np.array), **kwargs)
    want = getattr(mxnet.npx, name)(*build(mxnet.np.array), **kwargs)
    assert isinstance(got, mx.np.ndarray)
    same(got, want, rtol=1e-5 if name == "log_softmax" else 2e-6)


def test_npx_files_and_switches(tmp_path):
    arrays = {"w": B, "b": C}
    mxnet.npx.save(str(tmp_path / "a.params"), {k: mxnet.np.array(v) for k, v in arrays.items()})
    loaded = mx.npx.load(str(tmp_path / "a.params"))
    assert all(isinstance(v, mx.np.ndarray) for v in loaded.values())
    assert {k: v.tolist() for k, v in loaded.items()} == {k: v.tolist() for k, v in arrays.items()}
    mx.npx.save(str(tmp_path / "b.params"), loaded)
    back = mxnet.npx.load(str(tmp_path / "b.params"))
    assert {k: v.asnumpy().tolist() for k, v in back.items()} == {k: v.tolist() for k, v in arrays.items()}
    mx.npx.set_np()
    try:
        assert mx.npx.is_np_array() and mx.npx.is_np_shape()
    finally:
        mx.npx.reset_np()
    assert not mx.npx.is_np_array()


# every name of mxnet.numpy.random: (name, arguments built by a module's array function, keyword arguments)
M = 20_000
RANDOM = [
    ("randint", lambda a: [2, 9], {"size": M}), ("uniform", lambda a: [a([0.0, 2.0]), 3.0], {"size": (M, 2)}),
    ("normal", lambda a: [1.0, a([1.0, 3.0])], {"size": (M, 2)}), ("choice", lambda a: [7], {"size": M}),
    ("choice", lambda a: [a([1.0, 2.0, 5.0])], {"size": M, "p": lambda a: a([0.2, 0.3, 0.5])}),
    ("rand", lambda a: [M, 2], {}), ("randn", lambda a: [M, 2], {}),
    ("multinomial", lambda a: [12, [0.1, 0.3, 0.6]], {"size": M}),
    ("multivariate_normal", lambda a: [a([1.0, -1.0]), a([[2.0, 0.5], [0.5, 1.0]])], {"size": M}),
    ("logistic", lambda a: [1.0, 2.0], {"size": M}), ("gumbel", lambda a: [1.0, 2.0], {"size": M}),
    ("gamma", lambda a: [a([1.0, 4.0]), 2.0], {"size": (M, 2)}), ("beta", lambda a: [2.0, 3.0], {"size": M}),
    ("chisquare", lambda a: [a([2.0, 5.0])], {"size": (M, 2)}), ("exponential", lambda a: [3.0], {"size": M}),
    ("lognormal", lambda a: [0.5, 0.4], {"size": M}), ("weibull", lambda a: [a([1.5, 3.0])], {"size": (M, 2)}),
    ("pareto", lambda a: [9.0], {"size": M}), ("power", lambda a: [2.5], {"size": M}),
    ("rayleigh", lambda a: [2.0], {"size": M}),
]


def test_random_table_covers_mxnet():
    assert {c[0] for c in RANDOM} | {"shuffle"} == set(mxnet.numpy.random.__all__)


# MXNet 1.9.1's departures from the distributions (mxgo draws the distributions):
# chisquare has mean df/4 (gamma(df/2) of scale 1/2, not 2); multivariate_normal has
# covariance L^T L, not cov = L L^T. There NumPy's draws are the reference, and MXNet must differ.
_RNG = onp.random.default_rng(0)
MXNET_DEPARTS = {
    "chisquare": lambda: _RNG.chisquare([2.0, 5.0], (M, 2)),
    "multivariate_normal": lambda: _RNG.multivariate_normal([1.0, -1.0], [[2.0, 0.5], [0.5, 1.0]], M),
}


def close_moments(g, w):
    """Whether draws g and w (along the first axis) agree in mean (6 standard errors) and variance (10%)."""
    gm, wm, gv, wv = g.mean(axis=0), w.mean(axis=0), g.var(axis=0), w.var(axis=0)
    return bool((abs(gm - wm) <= 6 * onp.sqrt((gv + wv) / g.shape[0]) + 1e-12).all()
                and (abs(gv - wv) <= 0.1 * wv + 1e-12).all())


@pytest.mark.parametrize("name,build,kwargs", RANDOM, ids=["%s-%d" % (c[0], i) for i, c in enumerate(RANDOM)])
def test_random_against_mxnet(name, build, kwargs):
    def draw(module):
        kw = {k: v(module.array) if callable(v) else v for k, v in kwargs.items()}
        return getattr(module.random, name)(*build(module.array), **kw)
    got, want = draw(mx.np), draw(mxnet.np)
    assert isinstance(got, mx.np.ndarray)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    g, w = got.asnumpy().astype("f8"), want.asnumpy().astype("f8")
    if name in MXNET_DEPARTS:
        ref = MXNET_DEPARTS[name]()
        assert close_moments(g, ref) and not close_moments(w, ref)
    else:
        assert close_moments(g, w), (g.mean(axis=0), w.mean(axis=0), g.var(axis=0), w.var(axis=0))


def test_random_shuffle_as_mxnet():
    x, y = mx.np.arange(12).reshape(6, 2), mxnet.np.arange(12).reshape(6, 2)
    assert mx.np.random.shuffle(x) is None and mxnet.np.random.shuffle(y) is None
    assert sorted(x.asnumpy().tolist()) == sorted(y.asnumpy().tolist())
SQ = R.uniform(-1, 1, (2, 3, 3)).astype("float32") + 3 * onp.eye(3, dtype="float32")
SPD = SQ @ SQ.transpose(0, 2, 1)
RHS = R.uniform(-1, 1, (2, 3, 2)).astype("float32")
TENSOR = (R.uniform(-1, 1, (3, 3)) + 3 * onp.eye(3)).astype("float32").reshape(1, 3, 3, 1)
# mxnet.numpy.linalg's names whose results are unique (the factorizations are checked below)
LINALG = [
    ("norm", lambda a: [a(B)], {}), ("norm", lambda a: [a(B)], {"ord": 1, "axis": 1}),
    ("norm", lambda a: [a(SQ)], {"ord": "fro", "axis": (1, 2), "keepdims": True}),
    ("norm", lambda a: [a(B)], {"ord": onp.inf}), ("cholesky", lambda a: [a(SPD)], {}), ("inv", lambda a: [a(SQ)], {}),
    ("det", lambda a: [a(SQ)], {}), ("det", lambda a: [a(SQ[0])], {}), ("solve", lambda a: [a(SQ), a(RHS)], {}),
    ("tensorinv", lambda a: [a(SQ[0].reshape(3, 3, 1))], {"ind": 1}), ("pinv", lambda a: [a(B)], {}),
    ("tensorsolve", lambda a: [a(TENSOR), a(RHS[0, :, :1].T)], {}),
    ("eigvalsh", lambda a: [a(SPD)], {}),
]


@pytest.mark.parametrize("name,build,kwargs", LINALG, ids=["%s-%d" % (c[0], i) for i, c in enumerate(LINALG)])
def test_linalg(name, build, kwargs):
    got = getattr(mx.np.linalg, name)(*build(mx.np.array), **kwargs)
    want = getattr(mxnet.np.linalg, name)(*build(mxnet.np.array), **kwargs)
    same(got, want, rtol=1e-4)


def test_linalg_factorizations():
    x, y = mx.np.array(SPD), mxnet.np.array(SPD)
    for got, want in zip(mx.np.linalg.slogdet(x), mxnet.np.linalg.slogdet(y)):
        same(got, want, rtol=1e-5)
    (w, v), (mw, mv) = mx.np.linalg.eigh(x), mxnet.np.linalg.eigh(y)
    same(w, mw, rtol=1e-4)
    same(abs(v), abs(mv), rtol=1e-3)  # (each vector's sign is free)
    u, s, vh = mx.np.linalg.svd(mx.np.array(B))  # MXNet's (ut, l, v) for M <= N: our reduced U, S, Vh
    mu, ms, mvh = mxnet.np.linalg.svd(mxnet.np.array(B))
    same(s, ms, rtol=1e-4)
    onp.testing.assert_allclose((u.asnumpy()[:, :3] * s.asnumpy()) @ vh.asnumpy()[:3], B, atol=1e-5)
    assert (u.shape[-1], vh.shape[-2]) >= (mu.shape[-1], mvh.shape[-2])  # NumPy's full matrices by default
    a = SPD + onp.triu(onp.ones((3, 3), "float32"), 1)
    for got, want in ((mx.np.linalg.eigvals(mx.np.array(a)), mxnet.np.linalg.eigvals(mxnet.np.array(a))),
                      (mx.np.linalg.eig(mx.np.array(a))[0], mxnet.np.linalg.eig(mxnet.np.array(a))[0])):
        same(mx.np.sort(got, axis=-1), mxnet.np.sort(want, axis=-1), rtol=1e-4)
    with pytest.raises(mxnet.base.MXNetError):
        mxnet.np.linalg.inv(mxnet.np.zeros((2, 2))).asnumpy()
    with pytest.raises(mx.base.MXNetError):  # ours at the call (NumPy's LinAlgError)
        mx.np.linalg.inv(mx.np.zeros((2, 2)))


def _svd_loss(lib, x, w):
    """A loss of the SVD that the singular vectors' signs do not change (MXNet picks its own):
    of S, of |U|^2 and |Vh|^2 elementwise and of U diag(d) U^T; MXNet's (ut, l, v) for M <= N
    are our reduced U, S, Vh."""
    u, s, vh = lib.np.linalg.svd(x) if lib is mxnet else lib.np.linalg.svd(x, full_matrices=False)
    uu = lib.np.matmul(u * w["d"], lib.np.swapaxes(u, -1, -2))
    return (s * w["s"]).sum() + (u * u * w["u"]).sum() + (vh * vh * w["v"]).sum() + (uu * w["uu"]).sum()


def _grad_of(lib, f, a, dtype):
    x = lib.np.array(a, dtype=dtype)
    x.attach_grad()
    with lib.autograd.record():
        out = f(lib, x)
    out.backward()
    return x.grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (2, 3, 4)])
def test_linalg_svd_gradient(shape, dtype):
    a = R.uniform(-2, 2, shape)
    batch, m = shape[:-2], shape[-2]
    w = {"s": R.uniform(-1, 1, batch + (m,)), "u": R.uniform(-1, 1, batch + (m, m)), "d": R.uniform(-1, 1, batch + (1, m)),
         "v": R.uniform(-1, 1, shape), "uu": R.uniform(-1, 1, batch + (m, m))}

    def loss(lib, x):
        return _svd_loss(lib, x, {k: lib.np.array(v, dtype=dtype) for k, v in w.items()})
    same(_grad_of(mx, loss, a, dtype), _grad_of(mxnet, loss, a, dtype), rtol=1e-3 if dtype == "float32" else 1e-9)


@pytest.mark.parametrize("ord_", [2, "nuc"])
def test_linalg_norm_gradient(ord_):
    def loss(lib, x):
        return lib.np.linalg.norm(x, ord_)
    same(_grad_of(mx, loss, B, "float32"), _grad_of(mxnet, loss, B, "float32"), rtol=1e-4)


def test_linalg_pinv_gradient_departs():
    """MXNet 1.9.1's pinv passes a zero gradient; ours is pinv's own (through the SVD)."""
    def loss(lib, x):
        return lib.np.linalg.pinv(x).sum()
    assert not _grad_of(mxnet, loss, B, "float32").asnumpy().any()
    assert _grad_of(mx, loss, B, "float32").asnumpy().any()
