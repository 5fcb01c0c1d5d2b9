"""mx.np's dtypes and type promotion.

The dtypes are NumPy's scalar types (``mx.np.float32 is numpy.float32``, as in MXNet), and
an array's ``dtype`` is a ``numpy.dtype``. Promotion between arrays is NumPy's (the Array
API standard's table where it has one); a Python scalar takes the array's dtype when it is
of the same kind (the standard's rule), and otherwise the default of its kind. The defaults
are MXNet's: float32 for floating point (``mx.np.array([1.5])``, ``int_array / 2``), complex64
for complex, int64 for integers and indices, as ``__array_namespace_info__`` reports.
"""
import builtins

import numpy as _onp

from ..base import DTYPE_NAMES, MXNetTypeError, MXNetValueError, dtype_code, numpy_dtype

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "complex64", "complex128", "DEFAULT_FLOAT", "DEFAULT_INT", "DEFAULT_COMPLEX", "BOOL", "as_dtype",
           "result_type", "scalar_dtype", "float_of", "can_cast", "FInfo", "finfo", "iinfo", "isdtype", "Info", "KIND", "DTYPES",
           "E", "INF", "NAN", "PI"]

bool_ = _onp.bool_
int8, int16, int32, int64 = _onp.int8, _onp.int16, _onp.int32, _onp.int64
uint8, uint16, uint32, uint64 = _onp.uint8, _onp.uint16, _onp.uint32, _onp.uint64
float16, float32, float64 = _onp.float16, _onp.float32, _onp.float64
complex64, complex128 = _onp.complex64, _onp.complex128

BOOL = _onp.dtype(bool_)
DEFAULT_FLOAT = _onp.dtype(float32)
DEFAULT_INT = _onp.dtype(int64)
DEFAULT_COMPLEX = _onp.dtype(complex64)

#: the dtypes mx.np holds, by name (bfloat16 is mx.nd's alone: NumPy has no such dtype)
DTYPES = {name: _onp.dtype(name) for name in DTYPE_NAMES if name != "bfloat16"}
#: NumPy's kind letter by the standard's kind names
KIND = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "real floating": "f", "complex floating": "c"}


def as_dtype(dtype):
    """The numpy.dtype of a dtype given as a name, scalar type or dtype (None stays None);
    TypeError for what mx.np cannot hold."""
    if dtype is None:
        return None
    if isinstance(dtype, _onp.dtype) and dtype in DTYPES.values():
        return dtype
    if dtype is builtins.bool:
        return BOOL
    if dtype is builtins.float:
        return DEFAULT_FLOAT  # MXNet's default (NumPy's would be float64)
    dt = numpy_dtype(dtype_code(dtype))
    if dt.name not in DTYPES:
        raise MXNetTypeError("mx.np has no dtype %s (mx.nd has)" % dt)
    return dt


def _dtype_of(x):
    """The dtype of an array, or a dtype given any way as_dtype takes."""
    if isinstance(x, (type, str, _onp.dtype)):
        return as_dtype(x)
    return as_dtype(x.dtype)


def _promote(a, b):
    if a == b:
        return a
    if {a.kind, b.kind} == {"i", "u"} and max(a.itemsize, b.itemsize) == 8:
        signed, unsigned = (a, b) if a.kind == "i" else (b, a)
        if unsigned.itemsize == 8:  # int64 and uint64: NumPy gives float64, the standard leaves it out
            raise MXNetTypeError("no integer dtype holds both %s and %s; cast one first" % (a, b))
        return signed
    return _onp.result_type(a, b)


def scalar_dtype(dt, value):
    """The dtype of ``array (dtype dt) op value`` for a Python scalar: dt when value is of
    dt's kind or a lower one, else the default dtype of value's kind."""
    if isinstance(value, builtins.bool):
        return dt
    if isinstance(value, int):
        return dt if dt.kind != "b" else DEFAULT_INT
    if isinstance(value, float):
        return dt if dt.kind in "fc" else DEFAULT_FLOAT
    if isinstance(value, complex):
        if dt.kind == "c":
            return dt
        return _onp.dtype(complex128) if dt == _onp.dtype(float64) else DEFAULT_COMPLEX
    raise MXNetTypeError("unsupported operand type %s" % type(value).__name__)


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays, dtypes and Python scalars."""
    dts = [_dtype_of(x) for x in arrays_and_dtypes if not isinstance(x, (builtins.bool, int, float, complex))]
    if not dts:
        raise MXNetValueError("at least one array or dtype is required")
    out = dts[0]
    for dt in dts[1:]:
        out = _promote(out, dt)
    for x in arrays_and_dtypes:
        if isinstance(x, (builtins.bool, int, float, complex)):
            out = scalar_dtype(out, x)
    return out


def float_of(dt):
    """The floating dtype a function of real results computes in for inputs of dtype dt."""
    return dt if dt.kind in "fc" else DEFAULT_FLOAT


def can_cast(from_, to, casting="safe"):
    """Whether a cast from ``from_`` (a dtype or array) to ``to`` keeps every value."""
    return bool(_onp.can_cast(_dtype_of(from_), as_dtype(to), casting=casting))


class FInfo:
    """What finfo returns: the standard's fields as Python floats and ints (NumPy's are
    NumPy scalars), ``dtype`` the real dtype (float32 for complex64), and NumPy's others."""

    def __init__(self, dt):
        self._info = _onp.finfo(dt)
        self.bits, self.dtype = int(self._info.bits), self._info.dtype
        self.eps, self.max, self.min, self.smallest_normal = (float(getattr(self._info, k)) for k in (
            "eps", "max", "min", "smallest_normal"))

    def __getattr__(self, name):
        return getattr(self._info, name)

    def __repr__(self):
        return repr(self._info)


def finfo(type):  # noqa: A002  (the standard's parameter name)
    """Machine limits of a floating dtype (or an array's): bits, eps, max, min, smallest_normal, dtype."""
    dt = _dtype_of(type)
    if dt.kind not in "fc":
        raise MXNetValueError("finfo needs a floating dtype, got %s" % dt)
    return FInfo(dt)


def iinfo(type):  # noqa: A002
    """Machine limits of an integer dtype (or an array's): bits, max, min, dtype."""
    dt = _dtype_of(type)
    if dt.kind not in "iu":
        raise MXNetValueError("iinfo needs an integer dtype, got %s" % dt)
    return _onp.iinfo(dt)


def isdtype(dtype, kind):
    """Whether dtype is of kind: a dtype, one of the standard's kind names ('bool',
    'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric'), or a tuple of those."""
    dt = as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        letters = {"integral": "iu", "numeric": "iufc"}.get(kind) or KIND.get(kind)
        if letters is None:
            raise MXNetValueError("unknown dtype kind %r" % kind)
        return dt.kind in letters
    return dt == as_dtype(kind)


class Info:
    """What ``mx.np.__array_namespace_info__()`` returns: the namespace's capabilities,
    devices and dtypes (the Array API standard's inspection API)."""

    def __init__(self, cpu):
        self._cpu = cpu

    def capabilities(self):
        """Boolean indexing and data-dependent shapes (nonzero, unique) are supported."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return self._cpu

    def devices(self):
        return [self._cpu]

    def default_dtypes(self, *, device=None):
        return {"real floating": DEFAULT_FLOAT, "complex floating": DEFAULT_COMPLEX, "integral": DEFAULT_INT,
                "indexing": DEFAULT_INT}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes of ``kind`` (see isdtype; None: all), by name (float16, which
        mx.np also holds, is not one of them)."""
        return {name: dt for name, dt in DTYPES.items() if name != "float16" and (kind is None or isdtype(dt, kind))}

#: the standard's constants
E, INF, NAN, PI = _onp.e, _onp.inf, _onp.nan, _onp.pi
