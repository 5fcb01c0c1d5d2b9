"""mx.np's statistics: average, percentile, quantile, ptp, bincount and histogram, over the
registry's reductions, sort, take, scatter-add (gather_nd's gradient) and _histogram.

Floating results are float32 for integer inputs (MXNet's default, as mx.np's mean);
quantiles sort along the axis and interpolate between the two nearest order statistics.
"""
import numpy as _onp

from ..base import MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import adopt, asarray, astype, full, invoke, invoke_all, operand, reshape
from ._manip import FUNCTIONS as _MANIP
from ._reduce import FUNCTIONS as _REDUCE, _into, normalize_axes, normalize_axis
from ._ufuncs import binary, unary

__all__ = ["FUNCTIONS"]

_sum, _mean = _REDUCE["sum"], _REDUCE["mean"]


def average(a, axis=None, weights=None, returned=False, out=None):
    """The weighted mean over ``axis`` (``weights``: a's shape, or 1-d along one axis);
    ``returned`` also gives the sum of the weights. Integer a averages in float32 (MXNet
    1.9.1 truncates to a's dtype)."""
    a = operand(a, "a")
    if weights is None:
        avg = _mean(a, axis=axis)
        scale = full(avg.shape, a.size // max(avg.size, 1), avg.dtype, a.context)
    else:
        w = operand(weights, "weights")
        dt = _dtypes.float_of(_dtypes.result_type(a, w))
        a, w = astype(a, dt), astype(w, dt)
        if w.shape != a.shape:
            w = _along(w, a, axis)
        scale = _sum(_MANIP["broadcast_to"](w, a.shape), axis=axis, dtype=dt)
        if bool(_REDUCE["any"](binary("equal", scale, 0))):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = binary("divide", _sum(binary("multiply", a, w), axis=axis, dtype=dt), scale)
    avg = _into(avg, out)
    return (avg, scale) if returned else avg


def _along(w, a, axis):
    """1-d weights w shaped to broadcast along ``axis`` of a."""
    if axis is None or isinstance(axis, (tuple, list)):
        raise MXNetTypeError("average: axis must be an int when weights and a differ in shape")
    if w.ndim != 1:
        raise MXNetTypeError("average: 1D weights expected when shapes of a and weights differ")
    ax = normalize_axis(axis, a.ndim)
    if w.shape[0] != a.shape[ax]:
        raise MXNetValueError("average: length of weights differs from that of a along axis")
    return reshape(w, tuple(w.shape[0] if i == ax else 1 for i in range(a.ndim)))


def ptp(a, axis=None, out=None, keepdims=False):
    """The range (maximum - minimum) over ``axis``."""
    a = operand(a, "a")
    hi = _REDUCE["max"](a, axis=axis, keepdims=keepdims)
    return _into(binary("subtract", hi, _REDUCE["min"](a, axis=axis, keepdims=keepdims)), out)


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) over ``axis``: q's shape first, then the reduced
    shape; ``interpolation`` between order statistics i < j: linear, lower, higher,
    midpoint or nearest (halves to even)."""
    return _quantile(a, q, 1, axis, out, interpolation, keepdims)


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear", keepdims=False):
    """The q-th percentiles (q in [0, 100]) over ``axis``: the quantiles of q / 100."""
    return _quantile(a, q, 100, axis, out, interpolation, keepdims)


def _quantile(a, q, top, axis, out, interpolation, keepdims):
    a = operand(a, "a")
    if interpolation not in _METHODS:
        raise MXNetValueError("interpolation must be one of %s, got %r" % (", ".join(_METHODS), interpolation))
    qs = q.asnumpy() if hasattr(q, "asnumpy") else _onp.asarray(q)
    if qs.dtype.kind not in "biuf":
        raise MXNetTypeError("q must be real numbers")
    if qs.size and not (_onp.all(qs >= 0) and _onp.all(qs <= top)):
        raise MXNetValueError("%s must be in the range [0, %d]" % ("Quantiles" if top == 1 else "Percentiles", top))
    if a.size == 0:
        raise MXNetValueError("quantiles of an empty array")
    dt = _dtypes.float_of(_dtypes.as_dtype(a.dtype))
    if hasattr(q, "dtype") and qs.dtype.kind == "f":  # (an array q of float64 makes the result float64)
        dt = _dtypes.result_type(dt, q.dtype)
    axes = normalize_axes(axis, a.ndim)
    kept = [i for i in range(a.ndim) if i not in axes]
    x = reshape(_MANIP["permute_dims"](a, kept + list(axes)), [a.shape[i] for i in kept] + [-1])
    x = astype(_MANIP["sort"](x, axis=-1), dt)
    r = _order_statistics(x, qs.ravel().astype(_onp.float64) / top, interpolation)
    if dt.kind == "f":  # a NaN in a slice makes its quantiles NaN, as NumPy's (sort puts NaN last)
        r = _MANIP["where"](_REDUCE["any"](unary("isnan", x), axis=-1, keepdims=True), full((), _onp.nan, dt), r)
    shape = [1 if i in axes else d for i, d in enumerate(a.shape)] if keepdims else [a.shape[i] for i in kept]
    return _into(reshape(_MANIP["moveaxis"](r, -1, 0), list(qs.shape) + shape), out)


def _order_statistics(x, qs, method):
    """The quantiles qs (float64, 1-d, host) of x, sorted along its last axis: (..., len(qs))."""
    n = x.shape[-1]
    pos = qs * (n - 1)
    lo, hi = _onp.floor(pos).astype(_onp.int64), _onp.ceil(pos).astype(_onp.int64)
    if method in ("lower", "higher", "nearest"):
        idx = {"lower": lo, "higher": hi, "nearest": _onp.around(pos).astype(_onp.int64)}[method]
        return _MANIP["take"](x, asarray(idx, device=x.context), axis=-1)
    below = _MANIP["take"](x, asarray(lo, device=x.context), axis=-1)
    above = _MANIP["take"](x, asarray(hi, device=x.context), axis=-1)
    if method == "midpoint":
        return binary("multiply", binary("add", below, above), 0.5)
    t = astype(asarray(pos - lo, device=x.context), _dtypes.as_dtype(x.dtype))
    return binary("add", below, binary("multiply", binary("subtract", above, below), t))


def bincount(x, weights=None, minlength=0):
    """The number of occurrences of each value of the non-negative integers x (1-d), in x's
    dtype, or the sums of their ``weights`` in the weights' floating dtype (float64 for
    integer weights), as MXNet's: length max(x) + 1, at least minlength."""
    x = operand(x, "x")
    if x.ndim != 1 or _dtypes.as_dtype(x.dtype).kind not in "iu":
        raise MXNetTypeError("bincount: x must be a 1-d array of integers")
    if minlength < 0:
        raise MXNetValueError("minlength must be non-negative")
    if x.size and int(_REDUCE["min"](x)) < 0:
        raise MXNetValueError("bincount: x must be non-negative")
    length = max(int(_REDUCE["max"](x)) + 1 if x.size else 0, int(minlength))
    if weights is None:
        w = full(x.shape, 1, _dtypes.as_dtype(x.dtype), x.context)
    else:
        w = operand(weights, "weights")
        wdt = _dtypes.as_dtype(w.dtype)
        w = astype(w, wdt if wdt.kind == "f" else _onp.dtype(_onp.float64))
        if w.shape != x.shape:
            raise MXNetValueError("bincount: weights and x must have the same shape")
    if x.size == 0:
        return full((length,), 0, _dtypes.as_dtype(w.dtype), x.context)
    idx = reshape(astype(x, _dtypes.DEFAULT_INT), (1, x.size))
    return invoke("_backward_gather_nd", [w, idx], {"shape": (length,)})


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # noqa: A002  (NumPy's name)
    """(counts, edges) of a's values in ``bins`` equal bins over ``range`` (a's min and max by
    default) or between the given edges (an increasing 1-d array); the last bin is closed.
    ``weights`` sum instead of counting; ``density`` divides by the total and the widths."""
    a = operand(a, "a")
    flat = reshape(a, (a.size,))
    edges = _edges(flat, bins, range)
    if weights is None:
        dt = _dtypes.result_type(flat, edges)
        counts = adopt(invoke_all("_histogram", [astype(flat, dt), astype(edges, dt)])[0])
        counts = astype(counts, _dtypes.DEFAULT_INT)
    else:
        w = operand(weights, "weights")
        if w.shape != a.shape:
            raise MXNetValueError("weights should have the same shape as a")
        counts = _weighted_counts(flat, reshape(w, (w.size,)), edges)
    if density or normed:
        widths = _MANIP["diff"](astype(edges, _onp.dtype(_onp.float64)))
        total = _sum(counts, dtype=_onp.dtype(_onp.float64))
        counts = binary("divide", binary("divide", astype(counts, widths.dtype), widths), total)
    return counts, edges


def _edges(flat, bins, range_):
    if isinstance(bins, str):
        raise MXNetValueError("histogram: string bins (estimators) are not supported; give a number or edges")
    if not isinstance(bins, int):
        edges = operand(bins, "bins")
        if edges.ndim != 1 or edges.size < 2:
            raise MXNetValueError("bins must be a 1-d array of at least two edges")
        if bool(_REDUCE["any"](binary("less", edges[1:], edges[:-1]))):
            raise MXNetValueError("bins must increase monotonically")
        return edges
    if bins < 1:
        raise MXNetValueError("`bins` must be positive, when an integer")
    if range_ is None:
        lo, hi = (float(f(flat)) for f in (_REDUCE["min"], _REDUCE["max"])) if flat.size else (0.0, 1.0)
    else:
        lo, hi = (float(v) for v in range_)
        if lo > hi:
            raise MXNetValueError("max must be larger than min in range parameter.")
    if not (_onp.isfinite(lo) and _onp.isfinite(hi)):
        raise MXNetValueError("autodetected range of [%s, %s] is not finite" % (lo, hi))
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    dt = _dtypes.as_dtype(flat.dtype)
    dt = dt if dt.kind == "f" else _onp.dtype(_onp.float64)
    return asarray(_onp.linspace(lo, hi, bins + 1, dtype=dt), device=flat.context)


def _weighted_counts(flat, w, edges):
    """The sums of w over the bins of flat's values (values outside the edges dropped)."""
    e = edges.asnumpy()
    v = flat.asnumpy()
    idx = _onp.searchsorted(e, v, side="right") - 1
    idx[v == e[-1]] = e.size - 2  # the last bin is closed
    inside = (idx >= 0) & (idx < e.size - 1)
    dt = _onp.result_type(_dtypes.as_dtype(w.dtype), _onp.float64) if w.dtype.kind == "f" else w.dtype
    keep = asarray(_onp.nonzero(inside)[0], device=flat.context)
    ws = astype(_MANIP["take"](w, keep), _onp.dtype(dt))
    bins = asarray(idx[inside].reshape(1, -1), dtype=_dtypes.DEFAULT_INT, device=flat.context)
    if ws.size == 0:
        return full((e.size - 1,), 0, ws.dtype, flat.context)
    return invoke("_backward_gather_nd", [ws, bins], {"shape": (e.size - 1,)})


FUNCTIONS = {"average": average, "ptp": ptp, "quantile": quantile, "percentile": percentile, "bincount": bincount,
             "histogram": histogram}
