"""mxgo: MXNet-style NDArrays in Go that share memory with NumPy, PyTorch and every
DLPack-speaking framework.

    import mxgo as mx
    a = mx.nd.array([[1, 2], [3, 4]])
    t = torch.utils.dlpack.from_dlpack(a.to_dlpack_for_read())

The package is laid out as MXNet 1.9.1's, so that MXNet's imports resolve: base (mx.base:
the Go extension mxgo._gen that setup.py generates, its C fast path, errors, dtypes),
context (mx.context: devices), _core (the array core that every namespace shares: DLPack
import, allocation and NumPy copies, the operator registry), autograd (mx.autograd:
recording and gradients, which NDArray's attach_grad and backward call), ndarray (mx.nd),
registry (mx.registry: classes by name), initializer (mx.init), lr_scheduler, metric
(mx.metric), symbol (mx.sym: graphs and MXNet's model files), optimizer (mx.optimizer:
optimizers and their Updater), gluon (mx.gluon), test_utils
(mx.test_utils), tvm_bridge (mx.tvm_bridge; it needs tvm_ffi) and torch_bridge (PyTorch
autograd functions of mxgo functions; it needs torch): ``import mxgo`` leaves those two out,
and as_mxnet (``import mxgo.as_mxnet``: from then on ``import mxnet`` imports mxgo).

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    _gen ← base ← context, registry ← _core ← autograd ← ndarray ← numpy, initializer, lr_scheduler, metric, recordio, symbol ←
    optimizer ← gluon ← test_utils, tvm_bridge, torch_bridge, as_mxnet

Packages order their own modules in their docstrings (_core, ndarray). The namespaces to
come take their places over _core, as MXNet's sit over its array core: numpy/ (mx.np) and
numpy_extension/ (mx.npx) beside ndarray, their arrays the same Go arrays; gluon/ (mx.gluon)
above them.
"""
from . import autograd, context, gluon, initializer, lr_scheduler, metric, optimizer, recordio, registry, symbol, test_utils
from . import symbol as sym
from . import initializer as init
from . import ndarray
from . import ndarray as nd
from . import numpy
from . import numpy as np
from .base import MXNetError
from .context import Context, cpu, cpu_pinned, current_context, gpu
from .ndarray import random

__version__ = "0.1.0"

__all__ = ["autograd", "gluon", "init", "initializer", "lr_scheduler", "metric", "optimizer", "recordio", "registry", "sym",
           "symbol", "nd", "ndarray", "np", "numpy", "context", "random", "test_utils", "Context", "cpu", "gpu", "cpu_pinned",
           "current_context", "MXNetError", "__version__"]
