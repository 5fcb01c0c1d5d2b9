"""``mx.npx``: MXNet's NumPy extensions, the neural-network and MXNet-specific operators
on ``mx.np.ndarray`` (MXNet 1.9.1's ``mxnet.numpy_extension``).

Each operator is mx.nd's (the same registry kernel, autograd included) with its result
given as an mx.np array; ``reshape`` takes npx's own codes (-2 to -6, not mx.nd's 0 to
-4), and ``nonzero`` gives one (N, ndim) int64 array. ``set_np`` and the other switches are
mx.util's. MXNet's ``image`` and ``multibox_*`` (detection) are left out (docs/np_coverage.md).

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    _ops ← random
"""
from ..context import Context, cpu, cpu_pinned, current_context, gpu, num_gpus
from ..ndarray import waitall
from ..util import is_np_array, is_np_shape, reset_np, set_np
from . import random
from ._ops import FUNCTIONS as _FUNCTIONS, arange_like, constraint_check, load, nonzero, reshape, save

globals().update(_FUNCTIONS)

__all__ = ["Context", "cpu", "cpu_pinned", "current_context", "gpu", "num_gpus", "waitall", "is_np_array",
           "is_np_shape", "reset_np", "set_np", "random", "load", "save", "nonzero", "reshape", "arange_like",
           "constraint_check"] + sorted(_FUNCTIONS)
