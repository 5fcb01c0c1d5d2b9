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
