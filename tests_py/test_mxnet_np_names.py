"""The rest of MXNet 1.9.1's NumPy-interface names against the real MXNet: those of
mxnet.numpy, numpy.linalg and numpy_extension that the other test_mxnet_np*.py files do not
call (the docs/np_coverage.md rule: every implemented name runs beside MXNet). The same call
on the same values in both must give the same shapes, dtypes and values.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import mxnet
import numpy as onp
import pytest

import mxgo as mx

from test_mxnet_np import numpy_mode  # noqa: F401  (the autouse fixture: MXNet's NumPy mode for this file)
from test_mxnet_np_manip import same

F = onp.array([[1.5, -2, 3], [0.5, 4, -1]], "float32")
SPD = onp.array([[2, 1], [1, 3]], "float32")
TALL = onp.array([[2, 1], [1, 3], [1, 1]], "float32")
IMAGE = onp.arange(32, dtype="float32").reshape(1, 2, 4, 4)

# (name, call on a library (mxnet or mxgo), as the test ids name it)
CALLS = [
    ("amax", lambda m: m.np.amax(m.np.array(F), axis=1)),
    ("amin", lambda m: m.np.amin(m.np.array(F), axis=0)),
    ("arccosh", lambda m: m.np.arccosh(m.np.array(F) + 3)),
    ("bitwise_not", lambda m: m.np.bitwise_not(m.np.array([1, 2, -7], dtype="int32"))),
    ("broadcast_arrays", lambda m: m.np.broadcast_arrays(m.np.array(F), m.np.array(F[0]))),
    ("count_nonzero", lambda m: m.np.count_nonzero(m.np.array(F) - 0.5, axis=0)),
    ("diff", lambda m: m.np.diff(m.np.array(F), n=1, axis=1)),
    ("positive", lambda m: m.np.positive(m.np.array(F))),
    ("round", lambda m: m.np.round(m.np.array(F) * 1.37, 1)),
    ("searchsorted", lambda m: m.np.searchsorted(m.np.array([1.0, 2, 3]), m.np.array([2.5, 0, 3]))),
    ("take_along_axis", lambda m: m.np.take_along_axis(m.np.array(F), m.np.array([[0], [2]], dtype="int64"), axis=1)),
    ("meshgrid", lambda m: m.np.meshgrid(m.np.array([1.0, 2, 3]), m.np.array([4.0, 5]))),
    ("linalg.lstsq", lambda m: m.np.linalg.lstsq(m.np.array(TALL), m.np.array([1.0, 2, 3]), rcond=None)[0]),
    ("linalg.matrix_power", lambda m: m.np.linalg.matrix_power(m.np.array(SPD), 3)),
    ("linalg.multi_dot", lambda m: m.np.linalg.multi_dot([m.np.array(F), m.np.array(F.T), m.np.array(F)])),
    ("npx.cast", lambda m: m.npx.cast(m.np.array(F), dtype="int32")),
    ("npx.leaky_relu", lambda m: m.npx.leaky_relu(m.np.array(F), slope=0.1)),
    ("npx.deconvolution", lambda m: m.npx.deconvolution(m.np.array(IMAGE), m.np.ones((2, 1, 2, 2)), kernel=(2, 2),
                                                        num_filter=1, no_bias=True)),
    ("npx.roi_pooling", lambda m: m.npx.roi_pooling(m.np.array(IMAGE), m.np.array([[0.0, 0, 0, 3, 3]]),
                                                    pooled_size=(2, 2), spatial_scale=1.0)),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_as_mxnet(name, call):
    same(call(mx), call(mxnet))


def test_qr_reconstructs_as_mxnet():
    """Q and R agree up to the signs of R's rows (LAPACK's choice); Q R is A in both."""
    (q, r), (mq, mr) = mx.np.linalg.qr(mx.np.array(TALL)), mxnet.np.linalg.qr(mxnet.np.array(TALL))
    assert (q.shape, r.shape, q.dtype) == (mq.shape, mr.shape, mq.dtype)
    signs = onp.sign(onp.diag(r.asnumpy())) * onp.sign(onp.diag(mr.asnumpy()))
    onp.testing.assert_allclose(r.asnumpy() * signs[:, None], mr.asnumpy(), rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose((q @ r).asnumpy(), TALL, rtol=1e-5, atol=1e-6)


def test_scalar_results_as_mxnet():
    """cond and matrix_rank: MXNet gives NumPy scalars, mx.np 0-d arrays of the same value."""
    for fn, a in (("cond", SPD), ("matrix_rank", onp.array([[2, 1], [4, 2]], "float32"))):
        got, want = getattr(mx.np.linalg, fn)(mx.np.array(a)), getattr(mxnet.np.linalg, fn)(mxnet.np.array(a))
        assert got.shape == () and onp.dtype(got.dtype).kind == onp.asarray(want).dtype.kind
        onp.testing.assert_allclose(got.item(), want, rtol=1e-6)


def test_creation_constants_and_types_as_mxnet():
    a, b = mx.np.empty_like(mx.np.array(F)), mxnet.np.empty_like(mxnet.np.array(F))
    assert (a.shape, a.dtype) == (b.shape, b.dtype)
    assert mx.np.finfo("float32").eps == mxnet.np.finfo("float32").eps
    assert (mx.np.newaxis, mx.np.pi) == (mxnet.np.newaxis, mxnet.np.pi)
    assert mx.np.multiarray.ndarray is mx.np.ndarray and mxnet.np.multiarray.ndarray is mxnet.np.ndarray
    # MXNet 1.9.1's result_type refuses NumPy dtypes; mxgo's gives NumPy's answer
    with pytest.raises(TypeError):
        mxnet.np.result_type(mxnet.np.array(F), "float64")
    assert mx.np.result_type(mx.np.array(F), "float64") == onp.float64


def test_contexts_as_mxnet():
    for name, args in (("cpu", (0,)), ("cpu_pinned", (0,)), ("gpu", (0,)), ("current_context", ())):
        assert repr(getattr(mx.npx, name)(*args)) == repr(getattr(mxnet.npx, name)(*args))
    assert repr(mx.npx.Context("cpu", 0)) == repr(mxnet.npx.Context("cpu", 0))
    assert mx.npx.num_gpus() == mxnet.npx.num_gpus() == 0
