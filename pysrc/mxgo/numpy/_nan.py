"""mx.np's NaN-ignoring reductions: nanmax, nanmin, nanprod, nancumsum, nancumprod,
nanargmax and nanargmin, as the registry's reductions of x with its NaNs replaced by the
reduction's identity (MXNet 1.9.1 hands them to NumPy; the values and dtypes are NumPy's).

An all-NaN slice gives NaN for nanmax and nanmin (without NumPy's RuntimeWarning) and a
ValueError for nanargmax and nanargmin; integer and bool arrays have no NaN and reduce as
they are.
"""
import numpy as _onp

from ..base import MXNetValueError
from . import _dtypes
from ._array import full, operand
from ._manip import FUNCTIONS as _MANIP
from ._reduce import FUNCTIONS as _REDUCE, _into
from ._ufuncs import unary

__all__ = ["FUNCTIONS"]


def _filled(x, value):
    """x with its NaNs replaced by value, and the NaN mask (None when x cannot hold NaN)."""
    if _dtypes.as_dtype(x.dtype).kind not in "fc":
        return x, None
    mask = unary("isnan", x)
    return _MANIP["where"](mask, full((), value, _dtypes.as_dtype(x.dtype)), x), mask


def _extremum(name, fill):
    def fn(a, axis=None, out=None, keepdims=False):
        a = operand(a, "a")
        x, mask = _filled(a, fill)
        r = _REDUCE[name](x, axis=axis, keepdims=keepdims)
        if mask is not None:  # an all-NaN slice is NaN
            empty = _REDUCE["all"](mask, axis=axis, keepdims=keepdims)
            r = _MANIP["where"](empty, full((), _onp.nan, r.dtype), r)
        return _into(r, out)
    fn.__name__ = fn.__qualname__ = "nan" + name
    fn.__doc__ = "The %simum over ``axis``, ignoring NaNs (NaN for a slice of NaNs only)." % name
    return fn


def _arg(name, fill):
    def fn(a, axis=None, out=None, *, keepdims=False):
        a = operand(a, "a")
        x, mask = _filled(a, fill)
        if mask is not None and bool(_REDUCE["any"](_REDUCE["all"](mask, axis=axis))):
            raise MXNetValueError("All-NaN slice encountered")
        return _into(_REDUCE[name](x, axis=axis, keepdims=keepdims), out)
    fn.__name__ = fn.__qualname__ = "nan" + name
    fn.__doc__ = "The index of the %s over ``axis``, ignoring NaNs (ValueError for a slice of NaNs only)." % name[3:]
    return fn


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    """The product over ``axis`` with NaNs counted as 1."""
    return _REDUCE["prod"](_filled(operand(a, "a"), 1)[0], axis=axis, dtype=dtype, keepdims=keepdims, out=out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """The cumulative sum along ``axis`` (flattened when None) with NaNs counted as 0."""
    return _REDUCE["cumsum"](_filled(operand(a, "a"), 0)[0], axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """The cumulative product along ``axis`` (flattened when None) with NaNs counted as 1."""
    return _REDUCE["cumprod"](_filled(operand(a, "a"), 1)[0], axis, dtype, out)


FUNCTIONS = {"nanmax": _extremum("max", -_onp.inf), "nanmin": _extremum("min", _onp.inf),
             "nanargmax": _arg("argmax", -_onp.inf), "nanargmin": _arg("argmin", _onp.inf), "nanprod": nanprod,
             "nancumsum": nancumsum, "nancumprod": nancumprod}
