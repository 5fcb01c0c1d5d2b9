"""mx.np's set functions (unique_all, unique_counts, unique_inverse, unique_values; NumPy's
unique, in1d, isin, intersect1d, setdiff1d, setxor1d, union1d) and searchsorted.

The unique functions' result shapes depend on the values, so they wait for their array and
compute on the host (a stable sort and its runs; NaNs distinct, as the standard asks), as
``nonzero`` does; searchsorted waits for both operands and runs NumPy's binary search
(the registry has no search kernel). NumPy's set functions do the same with NumPy's own
(NaNs equal in unique, as NumPy's), on operands promoted to one dtype first.
"""
from collections import namedtuple

import numpy as _onp

from ..base import MXNetValueError
from . import _dtypes
from ._array import asarray, operand
from ._reduce import normalize_axis

__all__ = ["FUNCTIONS", "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _host(values, dtype, like):
    """A host result as an mx.np array of dtype on like's device."""
    return asarray(values, dtype=dtype, device=like.context)


def _unique_host(a):
    """values, first indices, inverse indices and counts of the flat NumPy array a, NaNs
    distinct (NaN != NaN ends each run): a stable sort and its runs, as any NumPy has them."""
    order = _onp.argsort(a, kind="stable")
    s = a[order]
    new = _onp.ones(len(s), bool)
    new[1:] = s[1:] != s[:-1]
    starts = _onp.flatnonzero(new)
    inverse = _onp.empty(len(s), _onp.int64)
    inverse[order] = _onp.cumsum(new) - 1
    return s[starts], order[starts], inverse, _onp.diff(_onp.append(starts, len(s)))


def _unique(result_type, fields):
    def fn(x, /):
        x = operand(x, "x")
        values, indices, inverse, counts = _unique_host(x.asnumpy().reshape(-1))
        if result_type is None:
            return _host(values, x.dtype, x)
        parts = {"indices": indices, "inverse_indices": inverse.reshape(x.shape), "counts": counts}
        return result_type(_host(values, x.dtype, x), *(_host(parts[f], _dtypes.DEFAULT_INT, x) for f in fields))
    return fn


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """The indices at which x2's values would be inserted into the sorted 1-d x1 (int64;
    ``sorter``: the indices that sort x1). Waits for both arrays (a host search)."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    if x1.ndim != 1:
        raise MXNetValueError("searchsorted: x1 must be 1-d, got %d dimensions" % x1.ndim)
    if side not in ("left", "right"):
        raise MXNetValueError("searchsorted: side must be 'left' or 'right', got %r" % (side,))
    dt = _dtypes.result_type(x1, x2)
    s = None if sorter is None else operand(sorter, "sorter").asnumpy()
    r = _onp.searchsorted(x1.asnumpy().astype(dt), x2.asnumpy().astype(dt), side=side, sorter=s)
    return _host(r, _dtypes.DEFAULT_INT, x2)


def _host_pair(ar1, ar2):
    """ar1 and ar2 as NumPy arrays of their common dtype, and ar1 as an array."""
    a, b = operand(ar1, "ar1"), operand(ar2, "ar2")
    dt = _dtypes.result_type(a, b)
    return a.asnumpy().astype(dt), b.asnumpy().astype(dt), a


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements of ar (flattened, or the unique slices along ``axis``),
    with the first indices, the inverse (1-d) and the counts asked for (int64)."""
    a = operand(ar, "ar")
    if axis is not None:
        axis = normalize_axis(axis, a.ndim)
    r = _onp.unique(a.asnumpy(), return_index, return_inverse, return_counts, axis)
    if not isinstance(r, tuple):
        return _host(r, a.dtype, a)
    extras = [x.reshape(-1) for x in r[1:]]  # (NumPy 2.0 shapes the inverse like ar; MXNet's is 1-d)
    return (_host(r[0], a.dtype, a),) + tuple(_host(x, _dtypes.DEFAULT_INT, a) for x in extras)


def isin(element, test_elements, assume_unique=False, invert=False):
    """Whether each element of ``element`` is in test_elements (bool, element's shape)."""
    a, b, like = _host_pair(element, test_elements)
    return _host(_onp.isin(a, b, assume_unique=assume_unique, invert=invert), _dtypes.BOOL, like)


def in1d(ar1, ar2, assume_unique=False, invert=False):
    """isin of ar1 flattened."""
    return isin(operand(ar1, "ar1").reshape(-1), ar2, assume_unique, invert)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays (and their first indices in each, int64)."""
    a, b, like = _host_pair(ar1, ar2)
    r = _onp.intersect1d(a, b, assume_unique, return_indices)
    if not return_indices:
        return _host(r, a.dtype, like)
    return (_host(r[0], a.dtype, like),) + tuple(_host(i, _dtypes.DEFAULT_INT, like) for i in r[1:])


def _set_op(name):
    def fn(ar1, ar2, assume_unique=False):
        a, b, like = _host_pair(ar1, ar2)
        args = (a, b, assume_unique) if name != "union1d" else (a, b)
        return _host(getattr(_onp, name)(*args), a.dtype, like)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "NumPy's %s: sorted unique values, computed on host." % name
    return fn


def union1d(ar1, ar2):
    """The sorted unique values in either array."""
    return _set_op("union1d")(ar1, ar2)


FUNCTIONS = {
    "unique_values": _unique(None, ()),
    "unique_counts": _unique(UniqueCountsResult, UniqueCountsResult._fields[1:]),
    "unique_inverse": _unique(UniqueInverseResult, UniqueInverseResult._fields[1:]),
    "unique_all": _unique(UniqueAllResult, UniqueAllResult._fields[1:]),
    "searchsorted": searchsorted,
    "unique": unique, "isin": isin, "in1d": in1d, "intersect1d": intersect1d, "union1d": union1d,
    "setdiff1d": _set_op("setdiff1d"), "setxor1d": _set_op("setxor1d"),
}
for _name, _fn in FUNCTIONS.items():
    if _fn.__name__ == "fn":
        _fn.__name__ = _fn.__qualname__ = _name
        _fn.__doc__ = ("NumPy's and the standard's %s of x (NaNs distinct). Waits for x: the result's shape depends "
                       "on its values (a host computation)." % _name)
