"""``mx.np``: MXNet's NumPy interface, conforming to the Array API standard.

    from mxgo import np
    x = np.arange(12).reshape(3, 4)
    y = np.sqrt(x) + 1            # float32, MXNet's default floating dtype

Its arrays (``mx.np.ndarray``) are mxgo's arrays with NumPy's semantics: the same Go
handle and memory as mx.nd's NDArray (``x.as_nd_ndarray()`` shares it), zero-copy DLPack
exchange, autograd. Functions run the Go operator registry's kernels with NumPy's type
promotion and shapes. ``mx.np.linalg`` holds the linear algebra (the standard's extension
and MXNet's names), ``mx.np.fft`` the standard's fft extension.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    _dtypes ← _array ← _ufuncs ← _reduce ← _manip ← _stack ← _sets ← _index ← _products ← _stats ← _nan ←
    _elemfn ← _fallback ← multiarray, linalg, random, fft
"""
from . import _dtypes
from . import fft as fft  # (mx.np.fft; not in __all__, as NumPy's)
from . import linalg as linalg  # (mx.np.linalg; not in __all__, as NumPy's)
from . import random as random  # (mx.np.random; not in __all__, as NumPy's)
from ._dtypes import (bool_, can_cast, complex64, complex128, finfo, float16, float32, float64, iinfo, int8, int16,
                      int32, int64, isdtype, result_type, uint8, uint16, uint32, uint64)
from ._elemfn import FUNCTIONS as _ELEMFN
from ._fallback import FUNCTIONS as _FALLBACK
from ._manip import FUNCTIONS as _MANIP
from ._nan import FUNCTIONS as _NAN
from ._products import FUNCTIONS as _PRODUCTS
from ._reduce import FUNCTIONS as _REDUCE
from ._sets import FUNCTIONS as _SETS
from ._stats import FUNCTIONS as _STATS
from ._ufuncs import FUNCTIONS as _UFUNCS
# NumPy's manipulation, indexing, set and logic names beyond the standard (MXNet's mxnet.numpy)
from ._index import FUNCTIONS as _INDEX
from ._stack import FUNCTIONS as _STACK
from .multiarray import identity, indices, logspace
from .multiarray import (__array_namespace_info__, arange, array, asarray, astype, empty, empty_like, eye, from_dlpack,
                         full, full_like, linspace, meshgrid, ndarray, ones, ones_like, tril, triu, zeros, zeros_like)

bool = bool_  # noqa: A001  (the standard's name for the bool dtype; MXNet's np.bool)
e, inf, nan, pi, newaxis = _dtypes.E, _dtypes.INF, _dtypes.NAN, _dtypes.PI, None

globals().update(_UFUNCS)
globals().update(_REDUCE)
globals().update(_MANIP)
globals().update(_SETS)
globals().update(_STACK)
globals().update(_INDEX)
NAN = NaN = nan
NINF, NZERO, PINF, PZERO = -inf, -0.0, inf, 0.0
# math, statistics, polynomials, windows, financial (MXNet's names beyond the standard)
_MATH = {**_PRODUCTS, **_STATS, **_NAN, **_ELEMFN, **_FALLBACK}
globals().update(_MATH)

__array_api_version__ = "2024.12"

__all__ = ["ndarray", "array", "asarray", "astype", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
           "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like", "arange",
           "__array_namespace_info__", "bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "float16", "float32", "float64", "complex64", "complex128", "can_cast", "finfo", "iinfo",
           "isdtype", "result_type", "e", "inf", "nan", "pi", "newaxis"]
__all__ += sorted(_UFUNCS) + sorted(_REDUCE) + sorted(_MANIP) + sorted(_SETS)
__all__ += sorted(_STACK) + sorted(_INDEX) + ["identity", "indices", "logspace", "NAN", "NaN", "NINF", "NZERO", "PINF", "PZERO"]
__all__ += sorted(_MATH)
