"""mx.nd.linalg beyond what the differential suite (mxnet_diff_linalg.py) can check
against MXNet 1.9.1: out= (NDArrays, NumPy arrays, lists for the two-result functions),
strided, transposed and reversed inputs, NumPy and PyTorch inputs through DLPack,
size-0 arrays (MXNet 1.x has none), and results against NumPy's own linalg."""
import numpy as np
import pytest
import torch

import mxgo as mx

nd = mx.nd
RNG = np.random.default_rng(7)


def spd(*batch, n=4, dtype=np.float64):
    """Symmetric positive-definite matrices of shape batch + (n, n)."""
    x = RNG.standard_normal(batch + (n, n))
    return (x @ np.swapaxes(x, -1, -2) + n * np.eye(n)).astype(dtype)


def tol(dtype):
    return dict(rtol=1e-4, atol=1e-5) if np.dtype(dtype) == np.float32 else dict(rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_against_numpy(dtype):
    a = spd(2, 3, dtype=dtype)
    x = nd.array(a, dtype=dtype)
    np.testing.assert_allclose(nd.linalg.potrf(x).asnumpy(), np.linalg.cholesky(a), **tol(dtype))
    np.testing.assert_allclose(nd.linalg.inverse(x).asnumpy(), np.linalg.inv(a), **tol(dtype))
    np.testing.assert_allclose(nd.linalg.potri(nd.linalg.potrf(x)).asnumpy(), np.linalg.inv(a), **tol(dtype))
    np.testing.assert_allclose(nd.linalg.det(x).asnumpy(), np.linalg.det(a), **tol(dtype))
    sign, logdet = nd.linalg.slogdet(x)
    np.testing.assert_allclose(sign.asnumpy(), np.linalg.slogdet(a)[0])
    np.testing.assert_allclose(logdet.asnumpy(), np.linalg.slogdet(a)[1], **tol(dtype))
    np.testing.assert_allclose(nd.linalg.sumlogdiag(x).asnumpy(), np.log(np.diagonal(a, 0, -2, -1)).sum(-1), **tol(dtype))
    u, w = nd.linalg.syevd(x)
    np.testing.assert_allclose(w.asnumpy(), np.linalg.eigvalsh(a), **tol(dtype))
    u = u.asnumpy()
    np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ (w.asnumpy()[..., None] * u), a, **tol(dtype))
    g = RNG.standard_normal((2, 3, 5)).astype(dtype)
    q, low = nd.linalg.gelqf(nd.array(g, dtype=dtype))
    np.testing.assert_allclose(low.asnumpy() @ q.asnumpy(), g, **tol(dtype))
    np.testing.assert_allclose(np.abs(low.asnumpy()), np.abs(np.swapaxes(np.linalg.qr(np.swapaxes(g, -1, -2))[1], -1, -2)),
                               **tol(dtype))
    np.testing.assert_allclose(nd.linalg.syrk(nd.array(g, dtype=dtype), alpha=2).asnumpy(),
                               2 * g @ np.swapaxes(g, -1, -2), **tol(dtype))
    b = RNG.standard_normal((2, 3, 4, 2)).astype(dtype)
    low = np.tril(a)
    np.testing.assert_allclose(nd.linalg.trmm(x, nd.array(b, dtype=dtype)).asnumpy(), low @ b, **tol(dtype))
    np.testing.assert_allclose(nd.linalg.trsm(x, nd.array(b, dtype=dtype)).asnumpy(), np.linalg.solve(low, b), **tol(dtype))


@pytest.mark.parametrize("n", [65, 130, 257])
def test_large_factorizations_against_numpy(n):
    """Orders where the LU, Cholesky, triangular inverse and solves recurse on the
    product kernel (lapack_recursive.go, lapack_trsm.go), in both dtypes, with both
    triangles, a batch, and a singular matrix."""
    for dtype in (np.float64, np.float32):
        a = spd(2, n=n, dtype=dtype)
        g = RNG.standard_normal((2, n, n)).astype(dtype)
        x, y = nd.array(a, dtype=dtype), nd.array(g, dtype=dtype)
        t = dict(rtol=1e-3, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-9, atol=1e-11)
        np.testing.assert_allclose(nd.linalg.potrf(x).asnumpy(), np.linalg.cholesky(a), **t)
        up = np.swapaxes(np.linalg.cholesky(a), -1, -2)
        np.testing.assert_allclose(nd.linalg.potrf(x, lower=False).asnumpy(), up, **t)
        np.testing.assert_allclose(nd.linalg.potri(nd.linalg.potrf(x)).asnumpy(), np.linalg.inv(a), **t)
        np.testing.assert_allclose(nd.linalg.inverse(y).asnumpy(), np.linalg.inv(g), **t)
        sign, logdet = nd.linalg.slogdet(y)
        np.testing.assert_array_equal(sign.asnumpy(), np.linalg.slogdet(g)[0])
        np.testing.assert_allclose(logdet.asnumpy(), np.linalg.slogdet(g)[1], **t)
        h = g / np.sqrt(n)  # singular values near 1: a determinant in float64's range, not float32's
        if dtype == np.float64:
            np.testing.assert_allclose(nd.linalg.det(nd.array(h, dtype=dtype)).asnumpy() / np.linalg.det(h), 1, **t)
        b = RNG.standard_normal((2, n, 3)).astype(dtype)
        for lower in (True, False):
            tri = np.tril(a) if lower else np.triu(a)
            np.testing.assert_allclose(nd.linalg.trsm(x, nd.array(b, dtype=dtype), lower=lower).asnumpy(),
                                       np.linalg.solve(tri, b), **t)
            bt = np.swapaxes(b, -1, -2)
            np.testing.assert_allclose(nd.linalg.trsm(x, nd.array(bt, dtype=dtype), rightside=True, lower=lower).asnumpy(),
                                       np.swapaxes(np.linalg.solve(np.swapaxes(tri, -1, -2), b), -1, -2), **t)
        s = g.copy()
        s[1, :, 5] = 0  # singular: a zero column
        assert nd.linalg.det(nd.array(s, dtype=dtype)).asnumpy()[1] == 0
        with pytest.raises(ValueError, match="singular"):
            nd.linalg.inverse(nd.array(s, dtype=dtype)).asnumpy()


@pytest.mark.parametrize("fn", ["potrf", "potri", "inverse", "det", "sumlogdiag", "extractdiag", "extracttrian",
                                "syrk", "slogdet", "syevd", "gelqf"])
def test_strided_inputs_match_contiguous(fn):
    a = spd(n=4)
    want = getattr(nd.linalg, fn)(nd.array(a, dtype="float64"))
    want = [w.asnumpy() for w in (want if isinstance(want, list) else [want])]
    x = nd.array(a.T.copy(), dtype="float64").T  # the same matrix (symmetric), transposed layout
    wide = nd.array(np.repeat(a, 2, axis=1), dtype="float64")[:, ::2]  # every other column
    rev = nd.array(a[::-1].copy(), dtype="float64")[::-1]  # negative row stride
    for name, v in [("transposed", x), ("step2", wide), ("reversed", rev)]:
        got = getattr(nd.linalg, fn)(v)
        got = [g.asnumpy() for g in (got if isinstance(got, list) else [got])]
        for w, g in zip(want, got):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=name)


def test_gemm_strided_operands_and_axis():
    a = RNG.standard_normal((3, 2, 4))
    b = RNG.standard_normal((4, 2, 5))
    c = RNG.standard_normal((3, 2, 5))
    for xa in (nd.array(a, dtype="float64"), nd.array(a.transpose(2, 1, 0).copy(), dtype="float64").transpose((2, 1, 0))):
        r = nd.linalg.gemm(xa, nd.array(b, dtype="float64"), nd.array(c, dtype="float64"), axis=0, alpha=2., beta=.5)
        want = 2 * np.einsum("ikj,jkl->ikl", a, b) + .5 * c
        np.testing.assert_allclose(r.asnumpy(), want, rtol=1e-12)


def test_out_single_result():
    a = spd(n=3)
    x = nd.array(a, dtype="float64")
    o = nd.zeros((3, 3), dtype="float64")
    r = nd.linalg.potrf(x, out=o)
    assert r is o
    np.testing.assert_allclose(o.asnumpy(), np.linalg.cholesky(a))
    t = nd.zeros((3, 3), dtype="float64").T  # a transposed out
    nd.linalg.inverse(x, out=t)
    np.testing.assert_allclose(t.asnumpy(), np.linalg.inv(a))
    n = np.zeros((3, 3))
    nd.linalg_gemm2(x, x, out=n)  # a NumPy out, through DLPack
    np.testing.assert_allclose(n, a @ a)
    c = nd.array(np.ones((3, 3)), dtype="float64")
    nd.linalg.gemm(x, x, c, beta=2., out=c)  # C is also out: D = A A + 2 C in place
    np.testing.assert_allclose(c.asnumpy(), a @ a + 2)
    with pytest.raises(ValueError, match="shape"):
        nd.linalg.det(x, out=nd.zeros((2,), dtype="float64"))
    with pytest.raises(TypeError):
        nd.linalg.det(x, out=nd.zeros((1,), dtype="float32"))


def test_out_two_results():
    a = spd(2, n=3)
    x = nd.array(a, dtype="float64")
    o = [nd.zeros((2, 3, 3), dtype="float64"), nd.zeros((2, 3), dtype="float64")]
    r = nd.linalg.syevd(x, out=o)
    assert r[0] is o[0] and r[1] is o[1]
    np.testing.assert_allclose(o[1].asnumpy(), np.linalg.eigvalsh(a))
    with pytest.raises(ValueError, match="shape"):
        nd.linalg.slogdet(x, out=[nd.zeros((3,), dtype="float64"), nd.zeros((2,), dtype="float64")])
    with pytest.raises(TypeError):
        nd.linalg.gelqf(x, out=nd.zeros((2, 3, 3), dtype="float64"))


def test_two_results_are_contiguous_views():
    q, low = nd.linalg.gelqf(nd.array(RNG.standard_normal((2, 3, 4))))
    assert q.shape == (2, 3, 4) and low.shape == (2, 3, 3)
    assert q.strides == (12, 4, 1) and low.strides == (9, 3, 1)  # in elements: C-contiguous views
    assert np.allclose(np.triu(low.asnumpy(), 1), 0)


@pytest.mark.parametrize("make", [lambda a: a, lambda a: torch.from_numpy(a)], ids=["numpy", "torch"])
def test_dlpack_inputs(make):
    a = spd(n=3)
    np.testing.assert_allclose(nd.linalg.potrf(make(a)).asnumpy(), np.linalg.cholesky(a))
    np.testing.assert_allclose(nd.linalg.det(make(a)).asnumpy(), [np.linalg.det(a)])
    sign, logdet = nd.linalg.slogdet(make(a))
    np.testing.assert_allclose(logdet.asnumpy(), [np.linalg.slogdet(a)[1]])
    np.testing.assert_allclose(nd.linalg.gemm2(make(a), make(a), transpose_b=True).asnumpy(), a @ a.T)


def test_size_zero():
    assert nd.linalg.det(nd.zeros((0, 2, 2))).shape == (0,)
    assert nd.linalg.inverse(nd.zeros((3, 0, 0))).shape == (3, 0, 0)
    np.testing.assert_array_equal(nd.linalg.det(nd.zeros((3, 0, 0))).asnumpy(), [1, 1, 1])
    u, w = nd.linalg.syevd(nd.zeros((0, 3, 3)))
    assert u.shape == (0, 3, 3) and w.shape == (0, 3)
    assert nd.linalg.gemm2(nd.zeros((2, 0)), nd.zeros((0, 3))).asnumpy().tolist() == [[0] * 3] * 2
    assert nd.linalg.makediag(nd.zeros((2, 0))).shape == (2, 0, 0)


def test_errors():
    with pytest.raises(mx.base.MXNetError, match="positive definite"):
        nd.linalg.potrf(nd.array([[1., 2.], [2., 1.]])).asnumpy()
    mx.nd.waitall()  # raised once, by asnumpy (as in MXNet 1.x)
    with pytest.raises(ValueError, match="singular"):
        nd.linalg.inverse(nd.array([[1., 2.], [2., 4.]])).asnumpy()
    with pytest.raises(TypeError, match="dtype"):
        nd.linalg.det(nd.ones((2, 2), dtype="bfloat16"))
    with pytest.raises(TypeError):
        nd.linalg.slogdet([[1., 0.], [0., 1.]])
    with pytest.raises(ValueError):
        nd.linalg.gelqf(nd.ones((3, 2)))
    mx.nd.waitall()  # nothing left pending


def test_namespace():
    assert not hasattr(nd, "linalg_syevd")  # as in MXNet 1.9.1
    assert nd.linalg_slogdet is nd.linalg.slogdet and nd.linalg_gemm is nd.linalg.gemm
    mxnet_names = ["det", "extractdiag", "extracttrian", "gelqf", "gemm", "gemm2", "inverse", "makediag", "maketrian",
                   "potrf", "potri", "slogdet", "sumlogdiag", "syevd", "syrk", "trmm", "trsm"]  # dir(mxnet.nd.linalg)
    assert sorted(nd.linalg.__all__) == mxnet_names
    assert all(callable(getattr(nd.linalg, n)) for n in mxnet_names)
    assert all(hasattr(nd, "linalg_" + n) for n in mxnet_names if n != "syevd")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_make_and_extract_strided(dtype):
    v = RNG.standard_normal((3, 12)).astype(dtype)
    x = nd.array(v, dtype=dtype)[:, ::-2]  # negative stride: v[:, ::-2], 6 elements
    o = nd.zeros((3, 7, 7), dtype=dtype).transpose((0, 2, 1))  # a transposed out
    nd.linalg.makediag(x, offset=-1, out=o)
    want = np.zeros((3, 7, 7), dtype)
    for b in range(3):
        want[b] += np.diag(v[b, ::-2], -1)
    np.testing.assert_array_equal(o.asnumpy(), want)
    t = nd.linalg.maketrian(x, offset=1, lower=False)
    rows, cols = np.triu_indices(4, 1)
    np.testing.assert_array_equal(t.asnumpy()[:, rows, cols][:, np.argsort(cols * 10 + rows, kind="stable")],
                                  v[:, ::-2])
    np.testing.assert_array_equal(nd.linalg.extracttrian(t, offset=1).asnumpy(), v[:, ::-2])
    np.testing.assert_array_equal(nd.linalg.extractdiag(o, offset=-1).asnumpy(), v[:, ::-2])
