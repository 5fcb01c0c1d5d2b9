"""``mx.nd``: MXNet-style NDArrays and their zero-copy exchange with other frameworks.

Built on the array core (mxgo/_core: DLPack import, allocation, the operator registry).
The modules: dlpack (mx.nd's DLPack API), op (mx.nd.<operator> functions and NDArray's
operator methods, from the registry), indexing (advanced indexing), layout, loss and
op_multi (MXNet functions over registry operators: several results, lists of arrays,
optional arrays), ndarray (NDArray and creation), callback (run_async), io (save, load:
MXNet's .params files), linalg, random.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    dlpack, op ← indexing, layout, loss, op_multi ← ndarray ← callback, io, linalg, random

No module below ndarray imports it: they know arrays by their C base and make them through
the array core, and NDArray's class body takes the methods they provide.
"""
from . import layout, linalg, loss, op_multi, random
from .callback import DLPackView, run_async
from .dlpack import ReadOnlyDLPack, from_dlpack, to_dlpack_for_read, to_dlpack_for_write
from .io import load, load_frombuffer, save
from .ndarray import NDArray, arange, array, empty, eye, from_numpy, full, linspace, ones, waitall, zeros
from .op import PUBLIC as _OPS

# mx.nd.add, mx.nd.sum, ...: one function per registered operator (see op.py).
globals().update(_OPS)
globals().update(linalg.FLAT)  # linalg_slogdet, linalg_gelqf (two results each)
globals().update(op_multi.FUNCTIONS)  # histogram (NumPy's for an int bins without range, as MXNet)
globals().update(layout.FUNCTIONS)  # split (a list of arrays), concatenate, SequenceMask, ...
globals().update(loss.FUNCTIONS)  # CTCLoss, ctc_loss (optional length arrays)

__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "linspace", "eye", "waitall", "random",
           "linalg", "from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write", "ReadOnlyDLPack",
           "run_async", "DLPackView", "save", "load", "load_frombuffer"] + sorted(_OPS) + sorted(linalg.FLAT)
__all__ += ["histogram"]  # op_multi.FUNCTIONS
__all__ += sorted(layout.FUNCTIONS) + sorted(loss.FUNCTIONS)
