"""``mx.nd``: MXNet-style NDArrays and their zero-copy exchange with other frameworks."""
from . import random
from .dlpack import from_dlpack, from_numpy, to_dlpack_for_read, to_dlpack_for_write
from .ndarray import NDArray, arange, array, empty, full, ones, waitall, zeros
from .op import _public_ops

# mx.nd.add, mx.nd.sum, ...: one function per registered operator (see op.py).
_OPS = _public_ops()
globals().update(_OPS)

__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "waitall", "random",
           "from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write"] + sorted(_OPS)
