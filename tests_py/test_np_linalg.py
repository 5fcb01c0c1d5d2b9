"""mx.np.linalg against NumPy 2: values over stacks of matrices in float32 and float64,
reconstructions where the factors are not unique (svd, qr, eigh), dtypes (float32 stays,
ints compute in float32), LinAlgError for singular or indefinite matrices, ValueError for
shapes, and the gradients of the operators that have one."""
import numpy as onp
import pytest

import mxgo as mx
from mxgo import np

L = np.linalg
R = onp.random.default_rng(7)
SHAPES = [(4, 4), (2, 3, 3)]


def mat(shape, dtype="float64"):
    return R.standard_normal(shape).astype(dtype)


def spd(shape, dtype="float64"):
    a = mat(shape, dtype)
    return (a @ onp.swapaxes(a, -1, -2) + shape[-1] * onp.eye(shape[-1])).astype(dtype)


def close(got, want, dtype=None, tol=None):
    assert isinstance(got, np.ndarray)
    want = onp.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if dtype is not None:
        assert got.dtype == onp.dtype(dtype)
    tol = tol or (2e-3 if got.dtype == onp.float32 else 1e-9)
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


# (name, input builder, kwargs): NumPy's function of the same name is the reference
CASES = [("inv", mat, {}), ("det", mat, {}), ("cholesky", spd, {}), ("cholesky", spd, {"upper": True}),
         ("eigvalsh", spd, {}), ("svdvals", mat, {}), ("pinv", mat, {}), ("matrix_rank", mat, {}),
         ("matrix_norm", mat, {"ord": "fro"}), ("matrix_norm", mat, {"ord": "nuc"}), ("matrix_norm", mat, {"ord": 1}),
         ("matrix_norm", mat, {"ord": -2}), ("matrix_norm", mat, {"ord": onp.inf, "keepdims": True}),
         ("vector_norm", mat, {}), ("vector_norm", mat, {"ord": 1, "axis": -1}),
         ("vector_norm", mat, {"ord": 0, "axis": (0, 1)}), ("vector_norm", mat, {"ord": -onp.inf, "axis": 0}),
         ("vector_norm", mat, {"ord": 3.5, "axis": -2, "keepdims": True}), ("norm", mat, {}),
         ("norm", mat, {"ord": 2, "axis": (-2, -1)}), ("diagonal", mat, {"offset": 1}), ("trace", mat, {"offset": -1}),
         ("matrix_transpose", mat, {}), ("cond", mat, {})]


def _vector_norm(a, ord=2, axis=None, keepdims=False):
    """NumPy 2's linalg.vector_norm for NumPy 1: the norm of the vectors along axis (all axes: flattened)."""
    axes = tuple(range(a.ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(x % a.ndim for x in axes)
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = onp.transpose(a, rest + list(axes)).reshape([a.shape[i] for i in rest] + [-1])
    out = onp.linalg.norm(moved, ord=ord, axis=-1)
    return out.reshape([1 if i in axes else d for i, d in enumerate(a.shape)]) if keepdims else out


#: the Array API standard's linalg names NumPy 1 lacks (the legacy environment), by their definitions
_NUMPY1 = {
    "svdvals": lambda a: onp.linalg.svd(a, compute_uv=False),
    "matrix_norm": lambda a, ord="fro", keepdims=False: onp.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims),
    "vector_norm": _vector_norm,
    "trace": lambda a, offset=0: onp.trace(a, offset=offset, axis1=-2, axis2=-1),
    "diagonal": lambda a, offset=0: onp.diagonal(a, offset=offset, axis1=-2, axis2=-1),
    "matrix_transpose": lambda a: onp.swapaxes(a, -1, -2),
}


def _cholesky(a, upper=False):
    low = onp.linalg.cholesky(a)
    return onp.conj(onp.swapaxes(low, -1, -2)) if upper else low


def reference(name):
    """NumPy's linalg function name (its definition where NumPy 1 lacks it or its keywords)."""
    if name == "cholesky":
        return _cholesky
    return getattr(onp.linalg, name, None) or _NUMPY1[name]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,build,kwargs", CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_against_numpy(name, build, kwargs, shape, dtype):
    a = build(shape, dtype)
    want = reference(name)(a, **kwargs)
    dt = "int64" if name == "matrix_rank" else dtype
    close(getattr(L, name)(np.array(a), **kwargs), onp.asarray(want).astype(dt), dt)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_decompositions_reconstruct(dtype):
    for shape in [(3, 5), (5, 3), (2, 4, 4)]:
        a = mat(shape, dtype)
        for full in (True, False):
            u, s, vh = L.svd(np.array(a), full_matrices=full)
            k = min(shape[-2:])
            want_u = onp.linalg.svd(a, full_matrices=full)
            assert (u.shape, s.shape, vh.shape) == tuple(w.shape for w in want_u)
            close(s, want_u[1], dtype)
            rec = (u.asnumpy()[..., :k] * s.asnumpy()[..., None, :]) @ vh.asnumpy()[..., :k, :]
            onp.testing.assert_allclose(rec, a, atol=1e-4 if dtype == "float32" else 1e-10)
            for q in (u.asnumpy(), onp.swapaxes(vh.asnumpy(), -1, -2)):  # orthonormal columns
                onp.testing.assert_allclose(onp.swapaxes(q, -1, -2) @ q, onp.eye(q.shape[-1]) + 0 * q[..., :1, :1],
                                            atol=1e-5)
        for mode in ("reduced", "complete"):
            q, r = L.qr(np.array(a), mode=mode)
            want_q, want_r = onp.linalg.qr(a, mode=mode)
            assert (q.shape, r.shape, q.dtype) == (want_q.shape, want_r.shape, onp.dtype(dtype))
            onp.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), a, atol=1e-4 if dtype == "float32" else 1e-10)
            onp.testing.assert_allclose(onp.triu(r.asnumpy()), r.asnumpy())
            close(r[..., :1, :], want_r[..., :1, :])  # LAPACK's signs, as NumPy's
    s = spd((2, 3, 3), dtype)
    w, v = L.eigh(np.array(s))
    close(w, onp.linalg.eigvalsh(s), dtype)
    onp.testing.assert_allclose((v.asnumpy() * w.asnumpy()[..., None, :]) @ onp.swapaxes(v.asnumpy(), -1, -2), s,
                                atol=1e-4 if dtype == "float32" else 1e-10)


def test_slogdet_solve_and_products():
    a, b = mat((2, 3, 3)), mat((2, 3, 2))
    sign, logdet = L.slogdet(np.array(a))
    want = onp.linalg.slogdet(a)
    close(sign, want[0])
    close(logdet, want[1])
    close(L.solve(np.array(a), np.array(b)), onp.linalg.solve(a, b))
    close(L.solve(np.array(a), np.array(b[0])), onp.linalg.solve(a, onp.broadcast_to(b[0], b.shape)))  # x2's stack broadcasts
    close(L.solve(np.array(a[0]), np.array(b[0, :, 0])), onp.linalg.solve(a[0], b[0, :, 0]))  # 1-d: a vector
    close(L.matrix_power(np.array(a), 3), onp.linalg.matrix_power(a, 3))
    close(L.matrix_power(np.array(a), -2), onp.linalg.matrix_power(a, -2), tol=1e-7)
    close(L.matrix_power(np.array(a), 0), onp.linalg.matrix_power(a, 0))
    ints = onp.array([[1, 2], [3, 4]])
    close(L.matrix_power(np.array(ints), 3), onp.linalg.matrix_power(ints, 3), "int64")  # integers stay integers
    close(L.cross(np.array(a), np.array(b[0, :, 0])), onp.cross(a, b[0, :, 0]))  # broadcast
    close(L.outer(np.array(a[0, 0]), np.array(b[0, 0])), onp.outer(a[0, 0], b[0, 0]))
    close(L.multi_dot([np.array(a[0]), np.array(a[1]), np.array(b[0])]), onp.linalg.multi_dot([a[0], a[1], b[0]]))
    close(L.tensorinv(np.array(a[0].reshape(3, 3, 1)), ind=1), onp.linalg.tensorinv(a[0].reshape(3, 3, 1), ind=1))
    t = mat((2, 3, 2, 2, 6))
    close(L.tensorsolve(np.array(t), np.array(b)), onp.linalg.tensorsolve(t, b))
    m, v = mat((5, 3)), mat((5,))
    x, resid, rank, s = L.lstsq(np.array(m), np.array(v))
    wx, wr, wrank, ws = onp.linalg.lstsq(m, v)
    assert rank == wrank
    close(x, wx)
    close(resid, wr)
    close(s, ws)


def test_dtypes():
    assert L.inv(np.array([[1, 2], [3, 4]])).dtype == onp.float32  # ints compute in float32
    assert L.det(np.array(mat((3, 3), "float32"))).dtype == onp.float32
    assert L.svd(np.array(mat((3, 3)))).S.dtype == onp.float64
    assert L.det(np.array(mat((3, 3)))).shape == ()
    with pytest.raises(TypeError):
        L.inv(np.array(mat((2, 2)), dtype="float16"))


def test_bad_input():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    for fn in (L.inv, lambda x: L.solve(x, np.ones(2)), L.cholesky):
        with pytest.raises(L.LinAlgError) as err:
            fn(singular)
        assert isinstance(err.value, mx.base.MXNetError) and isinstance(err.value, ValueError)
    with pytest.raises(ValueError):
        L.inv(np.ones((2, 3)))
    with pytest.raises(ValueError):
        L.det(np.ones(3))
    with pytest.raises(ValueError):
        L.solve(np.ones((3, 3)), np.ones((2, 1)))
    with pytest.raises(ValueError):
        L.qr(np.ones((3, 3)), mode="full")
    with pytest.raises(ValueError):
        L.cross(np.ones(2), np.ones(2))
    with pytest.raises(ValueError):
        L.matrix_norm(np.ones((2, 2)), ord=3)
    assert L.det(singular).item() == 0  # nothing corrupted: the array is still usable


def test_gradients():
    a, b = mat((3, 3)), mat((3, 2))
    x, y = np.array(a), np.array(b)
    x.attach_grad()
    y.attach_grad()
    with mx.autograd.record():
        out = L.solve(x, y).sum() + L.det(x)
    out.backward()
    ainv_t = onp.linalg.inv(a).T
    db = ainv_t @ onp.ones((3, 2))
    close(y.grad, db)
    close(x.grad, -db @ onp.linalg.solve(a, b).T + onp.linalg.det(a) * ainv_t)
    x.attach_grad()
    with mx.autograd.record():
        out = L.inv(x).sum()
    out.backward()
    close(x.grad, -(ainv_t @ onp.ones((3, 3)) @ ainv_t))


def test_complex_runs_numpys_on_the_host():
    a = (mat((2, 3, 3)) + 1j * mat((2, 3, 3))).astype("complex64")
    got = L.inv(np.array(a))
    close(got, onp.linalg.inv(a), "complex64")
    w = L.eigh(np.array(a @ onp.conj(onp.swapaxes(a, -1, -2))))
    assert isinstance(w, L.EighResult) and w.eigenvalues.dtype == onp.float32
    if hasattr(onp.linalg, "matrix_norm"):
        close(L.matrix_norm(np.array(a)), onp.linalg.matrix_norm(a), "float32")
    else:  # NumPy 1 (the legacy environment) has no matrix_norm to run on the host
        with pytest.raises(TypeError):
            L.matrix_norm(np.array(a))
    with pytest.raises(L.LinAlgError):
        L.inv(np.zeros((2, 2), dtype="complex64"))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_real_eigenvalues(dtype):
    p = onp.random.default_rng(11).standard_normal((2, 3, 3)) + 3 * onp.eye(3)
    a = (p @ (onp.diag([1.0, 2.0, 4.0]) @ onp.linalg.inv(p))).astype(dtype)  # not symmetric; eigenvalues 1, 2, 4
    w, v = L.eig(np.array(a))
    assert isinstance(w, np.ndarray) and w.dtype == onp.dtype(dtype) and v.shape == a.shape
    close(np.sort(w, axis=-1), onp.sort(onp.linalg.eigvals(a).real, axis=-1))
    onp.testing.assert_allclose(a @ v.asnumpy(), v.asnumpy() * w.asnumpy()[..., None, :], atol=1e-4)
    close(np.sort(L.eigvals(np.array(a)), axis=-1), onp.sort(onp.linalg.eigvals(a).real, axis=-1))
    with pytest.raises(L.LinAlgError):  # complex eigenvalues: MXNet's refusal (NumPy returns complex)
        L.eig(np.array([[0.0, 1.0], [-1.0, 0.0]], dtype=dtype))


def _svd_loss(lib, a, w, full=False):
    """A loss of lib's SVD of a that the singular vectors' signs do not change: of S, of
    |U|^2 and |Vh|^2 elementwise and of U diag(d) U^T (weights w; the first k vectors)."""
    u, s, vh = lib.linalg.svd(a, full_matrices=full)
    k = s.shape[-1]
    u, vh = u[..., :k], vh[..., :k, :]
    uu = (u * w["d"][..., None, :]) @ lib.swapaxes(u, -1, -2)
    return (s * w["s"]).sum() + (u * u * w["u"]).sum() + (vh * vh * w["v"]).sum() + (uu * w["uu"]).sum()


def _central(f, a, h=1e-6):
    """The gradient of f at a by central differences."""
    g = onp.zeros_like(a)
    for i in onp.ndindex(a.shape):
        d = onp.zeros_like(a)
        d[i] = h
        g[i] = (f(a + d) - f(a - d)) / (2 * h)
    return g


def _grad(f, a, dtype="float64"):
    x = np.array(a, dtype=dtype)
    x.attach_grad()
    with mx.autograd.record():
        out = f(x)
    out.backward()
    return x.grad


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (2, 3, 3)])
def test_svd_gradient(shape):
    a = mat(shape)
    k, batch = min(shape[-2:]), shape[:-2]
    w = {"s": mat(batch + (k,)), "u": mat(shape[:-1] + (k,)), "v": mat(batch + (k, shape[-1])),
         "d": mat(batch + (k,)), "uu": mat(shape[:-1] + (shape[-2],))}
    want = _central(lambda v: float(_svd_loss(onp, v, w)), a)
    close(_grad(lambda x: _svd_loss(np, x, {n: np.array(v) for n, v in w.items()}), a), want, tol=1e-6)
    # full matrices (NumPy's default): the same through their first k vectors
    close(_grad(lambda x: _svd_loss(np, x, {n: np.array(v) for n, v in w.items()}, True), a), want, tol=1e-6)
    f32 = _grad(lambda x: _svd_loss(np, x, {n: np.array(v, dtype="float32") for n, v in w.items()}), a, "float32")
    close(f32, want, tol=1e-3)


# functions of the SVD: NumPy's twin (lib is onp or np), differentiated by central differences
W6 = onp.arange(1.0, 7.0).reshape(3, 2)
SVD_BASED = {"svdvals": lambda lib, x: (lib.linalg.svd(x, compute_uv=False) * lib.array([1.0, 2.0])).sum(),
             "norm 2": lambda lib, x: lib.linalg.norm(x, 2), "norm nuc": lambda lib, x: lib.linalg.norm(x, "nuc"),
             "norm -2": lambda lib, x: lib.linalg.norm(x, -2), "cond": lambda lib, x: lib.linalg.cond(x),
             "pinv": lambda lib, x: (lib.linalg.pinv(x) * lib.array(W6)).sum()}


@pytest.mark.parametrize("name", SVD_BASED)
def test_svd_based_gradients(name):
    a, f = mat((3, 3)) if name == "cond" else mat((2, 3)), SVD_BASED[name]
    close(_grad(lambda x: f(np, x), a), _central(lambda v: float(f(onp, v)), a), tol=1e-6)


def test_matrix_rank_has_zero_gradient():
    assert not _grad(lambda x: L.matrix_rank(x) * 1.0, mat((3, 3))).asnumpy().any()
