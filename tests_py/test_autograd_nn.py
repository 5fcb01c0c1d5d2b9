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


@pytest.mark.parametrize("act,kw", [("leaky", {}), ("leaky", {"slope": 0.1}), ("elu", {"slope": 0.7}), ("gelu", {}),
                                    ("rrelu", {})])
def test_leaky_relu(act, kw):
    check_grads(lambda x: mx.nd.LeakyReLU(x, act_type=act, **kw), away_from_zero(3, 4))


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
