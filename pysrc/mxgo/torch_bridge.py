"""PyTorch and mxgo's autograd: a function of mxgo operators as a PyTorch autograd
function, over the same memory.

    import mxgo.torch_bridge as mxt

    def layer(x, w):                    # mxgo operators on NDArrays
        return mx.nd.tanh(mx.nd.dot(x, w))

    f = mxt.function(layer)
    y = f(torch_x, torch_w)             # torch tensors in and out
    y.sum().backward()                  # torch_x.grad and torch_w.grad from mxgo's backward

Forward imports the tensors without copying (DLPack), runs the function under
``mx.autograd.record()`` with the inputs as variables, and hands its results to PyTorch
without copying. Backward imports PyTorch's output gradients without copying, runs mxgo's
recorded backward on the engine (the graph is kept, so PyTorch may differentiate the same
call again, as ``torch.autograd.gradcheck`` does) and gives PyTorch each input's gradient
(a copy of mxgo's gradient buffer, which the next backward overwrites). This module needs
torch, so ``import mxgo`` leaves it out.
"""
import torch

from . import autograd
from .ndarray import NDArray, from_dlpack

__all__ = ["function"]


def function(f):
    """Returns ``f`` (a function of NDArrays, built from mxgo operators, returning an
    NDArray or a tuple of them) as a function of torch tensors that PyTorch's autograd
    differentiates through mxgo's recorded backward."""

    class MxgoFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *tensors):
            xs = [from_dlpack(t.detach()) for t in tensors]
            for x in xs:
                x.attach_grad()
            with autograd.record():
                out = f(*xs)
            single = isinstance(out, NDArray)
            outs = (out,) if single else tuple(out)
            ctx.mx = xs, outs
            res = tuple(torch.from_dlpack(o) for o in outs)
            return res[0] if single else res

        @staticmethod
        def backward(ctx, *grad_outputs):
            xs, outs = ctx.mx
            heads = [from_dlpack(g.detach().contiguous()) for g in grad_outputs]
            autograd.backward(list(outs), heads, retain_graph=True)
            return tuple(torch.from_dlpack(x.grad).clone() if need else None
                         for x, need in zip(xs, ctx.needs_input_grad))

    MxgoFunction.__name__ = MxgoFunction.__qualname__ = "mxgo_" + getattr(f, "__name__", "function")
    return MxgoFunction.apply
