"""``mx.nd.histogram``, whose MXNet form assembles its result in Python: with an int
``bins`` and no range, NumPy's histogram of the data (as MXNet's own Python does);
otherwise the registry's ``_histogram``, one operator of two results ([counts, edges]).
(topk, moments, slogdet, gelqf and syevd are registry operators of several results too,
called through the registry's invoke_all.)

Arrays are known here by their C base and made by the array core (mxgo/_core/array.py).
"""
import numbers

import numpy as np

from .._core.array import FLOAT32, copy_numpy, numpy_values
from ..base import MXNetValueError, fastpath
from .op import invoke_all

__all__ = ["histogram", "FUNCTIONS"]

_Array = fastpath.NDArrayBase  # every mxgo array is one


def histogram(a, bins=10, range=None):  # noqa: A002 - MXNet's parameter name
    """Histogram of a's elements (flattened), as MXNet's mx.nd.histogram.

    bins is an int (that many equal bins over range, (lo, hi)) or an NDArray of edges (a's
    dtype); every bin holds its left edge, the last its right edge too, and elements
    outside are not counted. Returns [counts (int64), edges]; with an int and no range,
    as in MXNet, NumPy's histogram of a, as a tuple of float32 arrays.
    """
    if isinstance(bins, _Array):
        return invoke_all("_histogram", [a, bins])
    if not isinstance(bins, numbers.Integral) or isinstance(bins, bool):
        raise MXNetValueError("bins argument should be either an integer or an NDArray")
    if range is None:
        counts, edges = np.histogram(a.asnumpy(), bins=bins)
        return _array(counts, FLOAT32), _array(edges, FLOAT32)
    lo, hi = (float(v) for v in range)
    return invoke_all("_histogram", [a], {"bin_cnt": bins, "range_lo": lo, "range_hi": hi})


def _array(values, code):
    """mx.nd.array(values, dtype=code) of a NumPy array (the array core's two steps)."""
    return copy_numpy(numpy_values(values, code), code)


#: what mx.nd takes from here
FUNCTIONS = {"histogram": histogram}
