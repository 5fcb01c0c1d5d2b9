"""Gradient checks shared by the autograd tests: mxgo's gradients against central finite
differences of the same mxgo forward, in float64 (where both are accurate to ~1e-8)."""
import numpy as np

import mxgo as mx


def autograd_grads(f, inputs, head, **record):
    """(y, [gradient of each input]) of sum(f(*inputs) * head), by mxgo's backward.
    inputs are NumPy arrays (each becomes an attached float64 NDArray)."""
    xs = [mx.nd.array(v, dtype=v.dtype) for v in inputs]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record(**record):
        y = f(*xs)
    y.backward(mx.nd.array(head, dtype=y.dtype))
    return y.asnumpy(), [x.grad.asnumpy() for x in xs]


def numeric_grads(f, inputs, head, eps=1e-6):
    """The gradient of sum(f(*inputs) * head) with respect to each input, by central
    differences of mxgo's forward."""
    def value(vals):
        return float((f(*[mx.nd.array(v, dtype=v.dtype) for v in vals]).asnumpy() * head).sum())
    out = []
    for i, x in enumerate(inputs):
        g = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            vals = [v.copy() for v in inputs]
            vals[i][idx] = x[idx] + eps
            up = value(vals)
            vals[i][idx] = x[idx] - eps
            g[idx] = (up - value(vals)) / (2 * eps)
        out.append(g)
    return out


def head_for(shape, seed=0):
    """A head gradient that is not all ones, so that a gradient summing the wrong
    elements shows."""
    return np.random.default_rng(seed).uniform(0.5, 1.5, size=shape)


def check_grads(f, *inputs, rtol=1e-5, atol=1e-7, seed=0):
    """Asserts that mxgo's gradients of f at inputs (float64 NumPy arrays) match finite
    differences, for a random head gradient."""
    inputs = [np.asarray(v, dtype=np.float64) for v in inputs]
    y = f(*[mx.nd.array(v, dtype=v.dtype) for v in inputs])
    head = head_for(y.shape, seed)
    _, got = autograd_grads(f, inputs, head)
    want = numeric_grads(f, inputs, head)
    for i, (w, g) in enumerate(zip(want, got)):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg="gradient of input %d" % i)
