"""``mx.nd``: MXNet-style NDArrays and their zero-copy exchange with other frameworks."""
from . import random
from .callback import DLPackView, run_async
from .dlpack import from_dlpack, from_numpy, to_dlpack_for_read, to_dlpack_for_write
from .ndarray import NDArray, arange, array, empty, full, ones, waitall, zeros
from .op import _public_ops

# mx.nd.add, mx.nd.sum, ...: one function per registered operator (see op.py).
_OPS = _public_ops()
globals().update(_OPS)

# MXNet's method forms of operators (x.sum(axis=0), x.exp(), ...), generated with them.
_METHODS = ("sum", "mean", "prod", "max", "min", "argmax", "argmin", "abs", "sign", "exp", "log", "sqrt",
            "square", "sin", "cos", "tanh", "sigmoid", "relu", "clip", "dot")


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


for _name in _METHODS:
    setattr(NDArray, _name, _method(_OPS[_name]))

__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "waitall", "random",
           "from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write",
           "run_async", "DLPackView"] + sorted(_OPS)
