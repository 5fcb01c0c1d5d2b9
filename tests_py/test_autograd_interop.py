"""mx.autograd across frameworks, zero copy: autograd.Function steps whose forward and
backward run PyTorch on views of mxgo's memory, and mxgo functions as PyTorch autograd
functions (mxgo.torch_bridge) that torch.autograd.gradcheck accepts."""
import gc

import numpy as np
import pytest
import torch

import mxgo as mx
import mxgo.torch_bridge as mxt

ag = mx.autograd


class TorchSquare(ag.Function):
    """x**2 computed by PyTorch on zero-copy views of mxgo's arrays."""

    def forward(self, x):
        out = mx.nd.zeros(x.shape, dtype=x.dtype)
        torch.from_dlpack(out).copy_(torch.from_dlpack(x) ** 2)
        self.save_for_backward(x)
        return out

    def backward(self, dy):
        x, = self.saved_tensors
        g = mx.nd.zeros(x.shape, dtype=x.dtype)
        torch.from_dlpack(g).copy_(2 * torch.from_dlpack(x) * torch.from_dlpack(dy))
        return g


class Sigmoid(ag.Function):
    """MXNet's own documentation example, in mxgo operators."""

    def forward(self, x):
        y = 1 / (1 + mx.nd.exp(-x))
        self.save_for_backward(y)
        return y

    def backward(self, dy):
        y, = self.saved_tensors
        return dy * y * (1 - y)


def test_function_with_pytorch_inside():
    x = mx.nd.array([1.0, -3.0, 0.5])
    x.attach_grad()
    with ag.record():
        y = TorchSquare()(x) * mx.nd.array([1.0, 2.0, 3.0])
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [2.0, -12.0, 3.0])


def test_function_of_mxgo_operators():
    v = np.array([0.5, -1.0, 2.0])
    x = mx.nd.array(v, dtype="float64")
    x.attach_grad()
    with ag.record():
        y = Sigmoid()(x)
    y.backward(mx.nd.array([1.0, 2.0, 3.0], dtype="float64"))
    s = 1 / (1 + np.exp(-v))
    np.testing.assert_allclose(x.grad.asnumpy(), s * (1 - s) * [1, 2, 3])


def test_function_outside_record_is_plain():
    x = mx.nd.array([2.0])
    np.testing.assert_array_equal(TorchSquare()(x).asnumpy(), [4.0])


def test_function_is_let_go_with_its_graph():
    gc.collect()
    before = len(ag._functions)
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    for _ in range(20):
        with ag.record():
            y = Sigmoid()(x)
        y.backward()
    assert len(ag._functions) == before  # released by each backward


class Raises(ag.Function):
    def forward(self, x):
        return x * 1

    def backward(self, dy):
        raise KeyError("from backward")


class TwoGrads(ag.Function):
    def forward(self, x):
        return x * 1

    def backward(self, dy):
        return dy, dy


class WrongShape(ag.Function):
    def forward(self, x):
        return x * 1

    def backward(self, dy):
        return mx.nd.ones((5,))


@pytest.mark.parametrize("fn, error, match", [
    (Raises, mx.MXNetError, "KeyError: 'from backward'"),
    (TwoGrads, mx.base.MXNetValueError, "returned 2 gradients for 1 inputs"),
    (WrongShape, mx.base.MXNetValueError, "gradient 0 has shape"),
])
def test_bad_backward_raises_once_and_leaves_the_graph(fn, error, match):
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    with ag.record():
        y = fn()(x) * 2
    with pytest.raises(error, match=match):
        y.backward()
    mx.nd.waitall()  # raised by backward itself: nothing is left for a wait to raise
    np.testing.assert_array_equal(x.grad.asnumpy(), [0, 0])


def test_function_instance_is_single_use():
    f = Sigmoid()
    x = mx.nd.array([1.0])
    f(x)
    with pytest.raises(mx.MXNetError, match="only be called once"):
        f(x)


def _layer(x, w):
    return mx.nd.tanh((x.expand_dims(2) * w).sum(axis=1)) * 2


def test_torch_function_gradcheck():
    f = mxt.function(_layer)
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(f, (x, w))


def test_torch_function_matches_torch_and_shares_memory():
    f = mxt.function(_layer)
    x = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    w = torch.randn(4, 2, dtype=torch.float32, requires_grad=True)
    y = f(x, w)
    (y * torch.arange(6.0).reshape(3, 2)).sum().backward()
    rx, rw = x.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    ry = torch.tanh(rx @ rw) * 2
    (ry * torch.arange(6.0).reshape(3, 2)).sum().backward()
    torch.testing.assert_close(y, ry)
    torch.testing.assert_close(x.grad, rx.grad)
    torch.testing.assert_close(w.grad, rw.grad)
    xs, outs = y.grad_fn.mx  # the backward node is the Function's ctx
    assert y.data_ptr() == outs[0]._data, "the result tensor is mxgo's memory"
    assert xs[0]._data == x.data_ptr(), "mxgo computed on PyTorch's memory"


def test_torch_function_input_without_grad():
    f = mxt.function(_layer)
    x = torch.randn(3, 4, dtype=torch.float64)
    w = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    f(x, w).sum().backward()
    assert x.grad is None and w.grad is not None


@pytest.mark.parametrize("la, lb", [((3, 4), (4, 2)), ((2, 3, 4), (4, 5)), ((4,), (2, 4, 3)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((4,), (4,))])
def test_matmul_gradients_match_torch(la, lb):
    # MXNet 1.9.1's mx.nd has no matmul: PyTorch's autograd is the reference (NumPy's broadcasting rules)
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=la), rng.normal(size=lb)
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ty = torch.matmul(ta, tb)
    head = rng.normal(size=tuple(ty.shape))
    ty.backward(torch.tensor(head))
    xa, xb = mx.nd.array(a, dtype="float64"), mx.nd.array(b, dtype="float64")
    xa.attach_grad()
    xb.attach_grad()
    with ag.record():
        y = mx.nd.matmul(xa, xb)
    y.backward(mx.nd.array(head.reshape(y.shape), dtype="float64"))
    np.testing.assert_allclose(xa.grad.asnumpy(), ta.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(xb.grad.asnumpy(), tb.grad.numpy(), rtol=1e-12)
