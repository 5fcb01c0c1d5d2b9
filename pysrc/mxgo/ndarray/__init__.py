"""``mx.nd``: MXNet-style NDArrays and their zero-copy exchange with other frameworks.

Modules, each importing only those before it: dlpack (from_dlpack, C only), op (the
operator registry's functions and NDArray's operator methods), ndarray (NDArray and
creation), callback (run_async), random, io (save, load: MXNet's .params files).
"""
from . import random
from .callback import DLPackView, run_async
from .dlpack import from_dlpack, to_dlpack_for_read, to_dlpack_for_write
from .io import load, load_frombuffer, save
from .ndarray import NDArray, arange, array, empty, eye, from_numpy, full, linspace, ones, waitall, zeros
from .op import PUBLIC as _OPS

# mx.nd.add, mx.nd.sum, ...: one function per registered operator (see op.py).
globals().update(_OPS)

__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "linspace", "eye", "waitall", "random",
           "from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write",
           "run_async", "DLPackView", "save", "load", "load_frombuffer"] + sorted(_OPS)
