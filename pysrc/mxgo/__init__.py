"""mxgo: MXNet-style NDArrays in Go that share memory with NumPy, PyTorch and every
DLPack-speaking framework.

    import mxgo as mx
    a = mx.nd.array([[1, 2], [3, 4]])
    t = torch.utils.dlpack.from_dlpack(a.to_dlpack_for_read())
"""
from . import context, test_utils
from . import ndarray
from . import ndarray as nd
from .base import MXNetError
from .context import Context, cpu, cpu_pinned, current_context, gpu
from .ndarray import random

__version__ = "0.1.0"

__all__ = ["nd", "ndarray", "context", "random", "test_utils", "Context", "cpu", "gpu", "cpu_pinned",
           "current_context", "MXNetError", "__version__"]
