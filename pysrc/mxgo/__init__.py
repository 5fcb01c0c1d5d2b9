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
numpy (mx.np: MXNet's NumPy interface, the Array API standard's namespace), numpy_extension
(mx.npx), util (mx.util: the NumPy-mode switches), registry (mx.registry: classes by name),
initializer (mx.init), lr_scheduler, metric (mx.metric), symbol (mx.sym: graphs and MXNet's model files),
image (mx.image: decoding, resizing and augmenting images), optimizer (mx.optimizer:
optimizers and their Updater), kvstore (mx.kv: KVStore, distributed over worker processes
with torch.distributed, imported only then), gluon (mx.gluon), distributed (its launcher,
``python -m mxgo.distributed.launch``; not imported by ``import mxgo``), test_utils
(mx.test_utils), tvm_bridge (mx.tvm_bridge; it needs tvm_ffi) and torch_bridge (PyTorch
autograd functions of mxgo functions; it needs torch): ``import mxgo`` leaves those two out,
and as_mxnet (``import mxgo.as_mxnet``: from then on ``import mxnet`` imports mxgo).

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    _gen ← base ← context, registry, util ← _core ← autograd ← ndarray ← numpy ←
    numpy_extension, initializer, lr_scheduler, metric, recordio, symbol ← image ← optimizer ← kvstore ← gluon ←
    distributed, test_utils, tvm_bridge, torch_bridge, as_mxnet

Packages order their own modules in their docstrings (_core, ndarray, numpy). mx.np's
arrays are the same Go arrays as mx.nd's, of a subclass.
"""
from . import autograd, context, gluon, image, initializer, kvstore, lr_scheduler, metric, optimizer, recordio, registry, symbol
from . import test_utils
from . import kvstore as kv
from . import symbol as sym
from . import initializer as init
from . import ndarray
from . import ndarray as nd
from . import numpy
from . import numpy as np
from . import numpy_extension
from . import numpy_extension as npx
from . import util
from .base import MXNetError
from .context import Context, cpu, cpu_pinned, current_context, gpu
from .ndarray import random

ndarray.np, ndarray.npx = numpy, numpy_extension  # F.np and F.npx in a Gluon block's hybrid_forward, as MXNet's

__version__ = "0.1.0"

__all__ = ["autograd", "gluon", "image", "init", "initializer", "kv", "kvstore", "lr_scheduler", "metric", "optimizer", "recordio",
           "registry", "sym", "symbol", "nd", "ndarray", "np", "numpy", "npx", "numpy_extension", "util", "context", "random",
           "test_utils", "Context", "cpu", "gpu", "cpu_pinned", "current_context", "MXNetError", "__version__"]
