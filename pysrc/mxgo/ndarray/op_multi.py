"""The ``mx.nd`` functions whose MXNet forms return a list of arrays, built from the
registry's one-output operators (op.py): ``topk(..., ret_typ='both')`` ([values,
indices]: the registry's topk once for each), ``moments`` ([mean, variance]) and
``histogram`` ([counts, edges]).

Arrays are known here by their C base and made by the array core (mxgo/_core/array.py):
ndarray.py, which takes ``topk_method`` from here for NDArray, is above this module.
"""
import numbers

import numpy as np

from .._core.array import FLOAT32, copy_numpy, numpy_values
from ..base import MXNetTypeError, MXNetValueError, dtype_code, fastpath
from .op import OPS, PUBLIC, _compile, invoke, method

__all__ = ["topk", "moments", "histogram", "topk_method", "FUNCTIONS"]

_topk = PUBLIC["topk"]
_Array = fastpath.NDArrayBase  # every mxgo array is one


def _outs(out, name):
    """out for an operator of two results: None, or a list or tuple of two arrays."""
    if out is None:
        return None, None
    if not isinstance(out, (list, tuple)) or len(out) != 2:
        raise MXNetTypeError("%s returns two arrays: out must be a list of two, got %s" % (name, type(out).__name__))
    return out


def _topk_call(arrays, values, out):
    """topk's body (op._compile binds its arguments as the registry's topk does)."""
    if values.get("ret_typ") != "both":
        return invoke("topk", arrays, values, out)
    params = {k: v for k, v in values.items() if k != "ret_typ"}
    outs = _outs(out, "topk(ret_typ='both')")
    return [invoke("topk", arrays, dict(params, ret_typ=r), o) for r, o in zip(("value", "indices"), outs)]


topk = _compile("topk", OPS["topk"]["inputs"], False, [p["name"] for p in OPS["topk"]["params"]], _topk_call)
topk.__signature__ = _topk.__signature__
topk.__doc__ = _topk.__doc__
topk.__module__ = _topk.__module__
topk.__name__ = topk.__qualname__ = "topk"

#: NDArray.topk (x.topk(k=2, ret_typ='both') too)
topk_method = method("topk", topk)


def moments(data, axes=None, keepdims=False, out=None):
    """Mean and variance of data over axes, as a list [mean, var] (MXNet's moments).

    axes must name at least one axis (MXNet refuses None and ()). Both results keep the
    input's dtype; for integers, as in MXNet, the mean truncates toward zero and the
    variance is the truncated mean of the (wrapping) squared deviations from it.
    """
    if axes is None or (not isinstance(axes, numbers.Integral) and len(tuple(axes)) == 0):
        raise MXNetValueError("moments: empty axes is not supported; pass every axis for global moments")
    outs = _outs(out, "moments")
    mean = invoke("mean", [data], {"axis": axes, "keepdims": True})
    var = invoke("mean", [invoke("square", [invoke("subtract", [data, mean])])], {"axis": axes, "keepdims": keepdims},
                 outs[1])
    if not keepdims:
        mean = mean.reshape(var.shape)
    if outs[0] is not None:
        mean = mean.copyto(outs[0])
    return [mean, var]


def histogram(a, bins=10, range=None):  # noqa: A002 - MXNet's parameter name
    """Histogram of a's elements (flattened), as MXNet's mx.nd.histogram.

    bins is an int (that many equal bins over range, (lo, hi)) or an NDArray of edges (a's
    dtype); every bin holds its left edge, the last its right edge too, and elements
    outside are not counted. Returns [counts (int64), edges]; with an int and no range,
    as in MXNet, NumPy's histogram of a, as a tuple of float32 arrays.
    """
    if isinstance(bins, _Array):
        return [invoke("_histogram", [a, bins]), bins.copy()]
    if not isinstance(bins, numbers.Integral) or isinstance(bins, bool):
        raise MXNetValueError("bins argument should be either an integer or an NDArray")
    if range is None:
        counts, edges = np.histogram(a.asnumpy(), bins=bins)
        return _array(counts, FLOAT32), _array(edges, FLOAT32)
    lo, hi = (float(v) for v in range)
    counts = invoke("_histogram", [a], {"bin_cnt": bins, "range_lo": lo, "range_hi": hi})
    if lo == hi:  # NumPy's and MXNet's widening of an empty range
        lo, hi = lo - 0.5, hi + 0.5
    edges = lo + np.arange(bins + 1) * ((hi - lo) / bins) if bins else np.array([lo])
    return [counts, _array(edges, dtype_code(a.dtype))]


def _array(values, code):
    """mx.nd.array(values, dtype=code) of a NumPy array (the array core's two steps)."""
    return copy_numpy(numpy_values(values, code), code)


#: what mx.nd takes from here (topk replaces the registry's)
FUNCTIONS = {"topk": topk, "moments": moments, "histogram": histogram}
