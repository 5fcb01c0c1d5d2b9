"""Gradients of the layers and products (dot, batch_dot, matmul, FullyConnected, the
activations, softmax, Convolution, Pooling, the normalizations, ...) against central finite
differences of mxgo's own forward, in float64; and the training-mode behaviour of Dropout
and BatchNorm. tests_py/mxnet_diff_grad_nn.py compares the same gradients with MXNet's."""
import numpy as np
import pytest

import mxgo as mx
from autograd_helpers import check_grads

R = np.random.default_rng(0)


def rand(*shape, lo=-1.5, hi=1.5):
    return R.uniform(lo, hi, size=shape)


@pytest.mark.parametrize("ls,rs,ta,tb", [
    ((2, 3), (3, 4), False, False), ((3, 2), (4, 3), True, True), ((3,), (3,), False, False),
    ((2, 2, 3), (3, 2, 2), False, False), ((3, 2, 2), (2, 3), True, True), ((2, 3), (3,), False, False)])
def test_dot(ls, rs, ta, tb):
    check_grads(lambda a, b: mx.nd.dot(a, b, transpose_a=ta, transpose_b=tb), rand(*ls), rand(*rs))


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_batch_dot(ta, tb):
    ls = (2, 4, 3) if ta else (2, 3, 4)
    rs = (2, 5, 4) if tb else (2, 4, 5)
    check_grads(lambda a, b: mx.nd.batch_dot(a, b, transpose_a=ta, transpose_b=tb), rand(*ls), rand(*rs))


@pytest.mark.parametrize("ls,rs", [((2, 3), (3, 4)), ((3,), (3,)), ((3,), (3, 2)), ((2, 3), (3,)),
                                   ((2, 1, 2, 3), (3, 3, 2)), ((2, 3), (2, 3, 2))])
def test_matmul(ls, rs):
    check_grads(lambda a, b: a @ b, rand(*ls), rand(*rs))


@pytest.mark.parametrize("flatten,no_bias,shape", [(True, False, (3, 2, 3)), (True, True, (3, 6)), (False, False, (2, 3, 6))])
def test_fully_connected(flatten, no_bias, shape):
    k = 6
    if no_bias:
        check_grads(lambda x, w: mx.nd.FullyConnected(x, w, num_hidden=4, no_bias=True, flatten=flatten),
                    rand(*shape), rand(4, k))
    else:
        check_grads(lambda x, w, b: mx.nd.FullyConnected(x, w, b, num_hidden=4, flatten=flatten),
                    rand(*shape), rand(4, k), rand(4))


def away_from_zero(*shape):
    """Values whose distance to 0 exceeds the finite-difference step (kinks at 0)."""
    v = rand(*shape)
    return np.where(np.abs(v) < 0.1, v + np.sign(v + 1e-9) * 0.2, v)


@pytest.mark.parametrize("act", ["relu", "sigmoid", "tanh", "softrelu", "softsign"])
def test_activation(act):
    check_grads(lambda x: mx.nd.Activation(x, act_type=act), away_from_zero(3, 4))


@pytest.mark.parametrize("act,kw", [("elu", {"slope": 0.7}), ("gelu", {})])
def test_leaky_relu(act, kw):
    check_grads(lambda x: mx.nd.LeakyReLU(x, act_type=act, **kw), away_from_zero(3, 4))


@pytest.mark.parametrize("act,kw,slope", [("leaky", {}, 0.25), ("leaky", {"slope": 0.1}, 0.1),
                                          ("rrelu", {}, (0.125 + 0.334) / 2)])  # MXNet's default bounds
def test_leaky_relu_slopes(act, kw, slope):
    # MXNet multiplies the negative side in float32 even for float64 data (mxgo does too),
    # which finite differences in float64 cannot resolve: the gradient is checked exactly
    x = away_from_zero(3, 4)
    a = mx.nd.array(x, dtype="float64")
    a.attach_grad()
    head = np.random.default_rng(2).uniform(0.5, 1.5, x.shape)
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(a, act_type=act, **kw)
        y = y[0] if isinstance(y, list) else y  # rrelu: [out, mask]
    y.backward(mx.nd.array(head, dtype="float64"))
    np.testing.assert_allclose(a.grad.asnumpy(), head * np.where(x > 0, 1, np.float32(slope)), rtol=1e-7)


def test_selu_is_mxnets():
    # MXNet 1.9.1's selu gradient below 0 is lambda*y + lambda*alpha (not the derivative);
    # mxgo follows it (the differential cases check it against MXNet)
    x = np.array([[-1.0, 0.5]])
    lam, alpha = 1.0507009873554805, 1.6732632423543772
    a = mx.nd.array(x, dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(a, act_type="selu")
    y.backward()
    yv = y.asnumpy()
    np.testing.assert_allclose(a.grad.asnumpy(), [[lam * yv[0, 0] + lam * alpha, lam]], rtol=1e-6)


@pytest.mark.parametrize("gshape", [(3,), (1,)])
def test_prelu(gshape):
    check_grads(lambda x, g: mx.nd.LeakyReLU(x, g, act_type="prelu"), away_from_zero(2, 3, 4), rand(*gshape, lo=0.1, hi=0.5))


@pytest.mark.parametrize("fn", ["softmax", "log_softmax", "softmin"])
@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"axis": 1, "temperature": 2.5}])
def test_softmax(fn, kw):
    check_grads(lambda x: getattr(mx.nd, fn)(x, **kw), rand(2, 3, 4))


def test_softmax_length():
    length = mx.nd.array([[2, 4, 1], [3, 1, 4]], dtype="int32")
    check_grads(lambda x: mx.nd.softmax(x, length, use_length=True), rand(2, 3, 4))


def test_dropout_modes_and_mask():
    x = mx.nd.ones((200, 100))
    np.testing.assert_array_equal(mx.nd.Dropout(x, p=0.4).asnumpy(), 1)  # inference outside record
    x.attach_grad()
    with mx.autograd.record(train_mode=False):
        y = mx.nd.Dropout(x, p=0.4)
    np.testing.assert_array_equal(y.asnumpy(), 1)
    head = mx.nd.array(R.uniform(0.5, 1.5, size=(200, 100)), dtype="float32")
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.4)
    y.backward(head)
    v = y.asnumpy()
    assert set(np.unique(v)) == {0, np.float32(1 / np.float32(0.6))}
    assert abs((v == 0).mean() - 0.4) < 0.02
    np.testing.assert_allclose(x.grad.asnumpy(), v * head.asnumpy(), rtol=1e-6)  # the same mask
    with mx.autograd.train_mode():
        assert (mx.nd.Dropout(x, p=0.4).asnumpy() == 0).any()
    assert (mx.nd.Dropout(x, p=0.4, mode="always").asnumpy() == 0).any()


def test_dropout_axes_share_the_mask():
    x = mx.nd.ones((50, 8))
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.5, axes=(1,))
    v = y.asnumpy()
    assert ((v == v[:, :1]).all())


def test_dropout_grad_is_linear():
    x = rand(4, 5)
    a = mx.nd.array(x, dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Dropout(a, p=0.3)
    y.backward()
    mask = y.asnumpy() / x
    np.testing.assert_allclose(a.grad.asnumpy(), mask, rtol=1e-12)


def _bn(fix_gamma, axis=1, train=True):
    def f(x, g, b):
        mm, mv = mx.nd.zeros(g.shape, dtype=g.dtype), mx.nd.ones(g.shape, dtype=g.dtype) * 1.5
        return mx.nd.BatchNorm(x, g, b, mm, mv, fix_gamma=fix_gamma, axis=axis, use_global_stats=not train)
    return f


@pytest.mark.parametrize("fix_gamma,axis,train", [(False, 1, True), (True, 1, True), (False, -1, True), (False, 1, False)])
def test_batch_norm_training_grads(fix_gamma, axis, train):
    # the gradient of the batch-statistics forward (finite differences run the forward in
    # training mode too: check_grads records with train_mode=True)
    ch = 3 if axis == 1 else 2
    f = _bn(fix_gamma, axis, train)

    def under_training(*a):
        with mx.autograd.train_mode():
            return f(*a)
    check_grads(under_training, rand(4, 3, 2), rand(ch, lo=0.5, hi=1.5), rand(ch), rtol=1e-4, atol=1e-6)


def test_batch_norm_running_stats():
    x = rand(6, 3, 2)
    mm, mv = mx.nd.zeros(3, dtype="float64"), mx.nd.ones(3, dtype="float64")
    a = mx.nd.array(x, dtype="float64")
    g, b = mx.nd.ones(3, dtype="float64"), mx.nd.zeros(3, dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.BatchNorm(a, g, b, mm, mv, momentum=0.75)
    np.testing.assert_array_equal(mm.asnumpy(), 0)  # updated by backward, as MXNet's
    y.backward()
    np.testing.assert_allclose(mm.asnumpy(), 0.25 * x.mean(axis=(0, 2)), rtol=1e-12)
    np.testing.assert_allclose(mv.asnumpy(), 0.75 + 0.25 * x.var(axis=(0, 2)), rtol=1e-12)


@pytest.mark.parametrize("axis", [-1, 1, 0])
def test_layer_norm(axis):
    n = (2, 3, 4)[axis]
    check_grads(lambda x, g, b: mx.nd.LayerNorm(x, g, b, axis=axis), rand(2, 3, 4), rand(n, lo=0.5, hi=1.5), rand(n), rtol=1e-4)


@pytest.mark.parametrize("ds,ws,kw", [
    ((2, 3, 7), (4, 3, 3), dict(kernel=(3,), num_filter=4, stride=(2,), pad=(1,))),
    ((2, 2, 7, 6), (4, 2, 3, 2), dict(kernel=(3, 2), num_filter=4, stride=(2, 2), pad=(1, 0), dilate=(1, 2))),
    ((1, 4, 5, 5), (6, 2, 3, 3), dict(kernel=(3, 3), num_filter=6, num_group=2, pad=(1, 1))),
    ((2, 3, 4, 4), (5, 3, 1, 1), dict(kernel=(1, 1), num_filter=5)),
    ((1, 2, 4, 3, 4), (3, 2, 2, 2, 2), dict(kernel=(2, 2, 2), num_filter=3, stride=(2, 1, 2), pad=(1, 0, 1)))])
def test_convolution(ds, ws, kw):
    check_grads(lambda x, w, b: mx.nd.Convolution(x, w, b, **kw), rand(*ds), rand(*ws), rand(ws[0]))




def test_embedding_weight_grad():
    idx = mx.nd.array([[0, 2, 2], [4, 1, 3]])
    check_grads(lambda w: mx.nd.Embedding(idx, w, input_dim=5, output_dim=3), rand(5, 3))
