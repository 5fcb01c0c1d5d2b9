"""mx.np's set functions (unique_all, unique_counts, unique_inverse, unique_values) and
searchsorted.

The unique functions' result shapes depend on the values, so they wait for their array and
compute on the host (a stable sort and its runs; NaNs distinct, as the standard asks), as
``nonzero`` does; searchsorted waits for both operands and runs NumPy's binary search
(the registry has no search kernel).
"""
from collections import namedtuple

import numpy as _onp

from ..base import MXNetValueError
from . import _dtypes
from ._array import asarray, operand

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


FUNCTIONS = {
    "unique_values": _unique(None, ()),
    "unique_counts": _unique(UniqueCountsResult, UniqueCountsResult._fields[1:]),
    "unique_inverse": _unique(UniqueInverseResult, UniqueInverseResult._fields[1:]),
    "unique_all": _unique(UniqueAllResult, UniqueAllResult._fields[1:]),
    "searchsorted": searchsorted,
}
for _name, _fn in FUNCTIONS.items():
    if _fn.__name__ == "fn":
        _fn.__name__ = _fn.__qualname__ = _name
        _fn.__doc__ = ("NumPy's and the standard's %s of x (NaNs distinct). Waits for x: the result's shape depends "
                       "on its values (a host computation)." % _name)
