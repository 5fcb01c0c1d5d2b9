"""mx.np's reductions and statistics: sum, prod, mean, std, var, max, min, all, any,
argmax, argmin, cumsum, cumprod, count_nonzero, over the registry's reductions.

NumPy's (and the standard's) semantics on top of MXNet's operators: a full reduction is a
0-d array (MXNet's gives shape (1,)); ``axis`` is an int, a tuple or None, checked and
normalised here; sums and products of small integers and bools accumulate in int64 (uint64
for unsigned), means in the floating dtype; ``axis=()`` reduces nothing.
"""
import operator

import numpy as _onp

from .._core.registry import OPS
from ..base import MXNetTypeError, MXNetValueError, dtype_code, fastpath
from ..ndarray.ndarray import NP_CLASS as _class  # [mx.np.ndarray]: the class the one-call paths make
from . import _dtypes
from ._array import adopt, astype, full, invoke, operand, reshape
from ._ufuncs import binary

__all__ = ["FUNCTIONS", "normalize_axis", "normalize_axes"]


def normalize_axis(axis, ndim):
    """axis (an int) in [0, ndim); AxisError-like IndexError (an MXNetError) otherwise."""
    try:
        a = operator.index(axis)
    except TypeError:
        raise MXNetTypeError("axis must be an int, got %s" % type(axis).__name__) from None
    if not -ndim <= a < ndim:
        raise MXNetValueError("axis %d is out of bounds for array of dimension %d" % (a, ndim))
    return a % ndim if ndim else 0


def normalize_axes(axis, ndim):
    """axis (None, an int or a tuple of ints) as a sorted tuple of distinct axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    norm = tuple(sorted(normalize_axis(a, ndim) for a in axes))
    if len(set(norm)) != len(norm):
        raise MXNetValueError("repeated axis in %r" % (axis,))
    return norm


def _result_shape(shape, axes, keepdims):
    """The shape of a reduction of shape over axes."""
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce(op, x, axes, keepdims):
    """Registry reduction op of x over axes (normalised), as NumPy shapes it."""
    shape = x.shape
    if not axes:
        return x
    r = invoke(op, [x], {"axis": axes, "keepdims": True})
    return r if keepdims else reshape(r, [d for i, d in enumerate(shape) if i not in axes])


def _sum_dtype(dt, dtype):
    if dtype is not None:
        return _dtypes.as_dtype(dtype)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _dtypes.DEFAULT_INT
    if dt.kind == "u" and dt.itemsize < 8:
        return _onp.dtype("uint64")
    return dt


def _codes(*names):
    return frozenset(dtype_code(n) for n in names)


#: the dtypes whose whole-array sum, mean and extremum keep the dtype (no cast first)
_FLOATS = _codes("float16", "float32", "float64", "complex64", "complex128")
_KEEP = {"sum": _FLOATS | _codes("int64", "uint64"), "mean": _FLOATS,
         "max": _FLOATS | _codes("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")}
_KEEP["prod"], _KEEP["min"] = _KEEP["sum"], _KEEP["max"]


#: the wire form of one small axis, keepdims or not (formatting it was a tenth of a
#: small reduction's call; a tiny one's result is computed in C in about as long)
_AXIS_ATTRS = {(a, k): "axis=%d;keepdims=%d" % (a, k) for a in range(-8, 8) for k in (False, True)}


def _one_call(op):
    """The one-call path of ``op(x, axis, keepdims=...)`` for an mxgo array x reduced whole or
    along one int axis (no dtype or out): the registry's NumPy-shaped form (_np_<op>, whose
    whole reduction is 0-d) in one C call, or None where x's dtype needs a cast first or the
    axis needs checking (as mx.nd's x.sum() costs)."""
    op_id, keep, invoke_c, array = OPS["_np_" + op]["id"], _KEEP[op], fastpath.invoke, fastpath.NDArrayBase

    def one_call(x, axis, keepdims):
        if not isinstance(x, array) or x._code not in keep:
            return None
        if axis is None:
            attrs = "keepdims=1" if keepdims else ""
        elif type(axis) is int and -x.ndim <= axis < x.ndim:
            attrs = _AXIS_ATTRS.get((axis, keepdims)) or "axis=%d;keepdims=%d" % (axis, bool(keepdims))
        else:
            return None
        r = invoke_c(op_id, (x,), None, attrs, _class[0])
        return None if r is NotImplemented else r
    return one_call


def _accumulate(op, identity):
    one_call = _one_call(op)

    def fn(x, /, *, axis=None, dtype=None, keepdims=False, out=None):
        if dtype is None and out is None:
            r = one_call(x, axis, keepdims)
            if r is not None:
                return r
        x = operand(x, "x")
        dt = _sum_dtype(_dtypes.as_dtype(x.dtype), dtype)
        axes = normalize_axes(axis, x.ndim)
        x = astype(x, dt)
        if x.size == 0 or not axes:
            if x.size == 0:
                shape = _result_shape(x.shape, axes, keepdims)
                return _into(full(shape, identity, dt, x.context), out)
            return _into(x.copy(), out)
        return _into(_reduce(op, x, axes, keepdims), out)
    return fn


def _into(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _extremum(op, name):
    one_call = _one_call(op)

    def fn(x, /, *, axis=None, keepdims=False, out=None):
        if out is None:
            r = one_call(x, axis, keepdims)
            if r is not None:
                return r
        x = operand(x, "x")
        axes = normalize_axes(axis, x.ndim)
        if x.size == 0 and (axes or x.ndim == 0):
            raise MXNetValueError("zero-size array to reduction operation %s which has no identity" % name)
        dt = _dtypes.as_dtype(x.dtype)
        if dt.kind == "b":
            return _into(astype(_reduce(op, astype(x, _onp.dtype("uint8")), axes, keepdims), dt), out)
        return _into(_reduce(op, x, axes, keepdims) if axes else x.copy(), out)
    return fn


def mean(x, /, *, axis=None, dtype=None, keepdims=False, out=None):
    """Arithmetic mean over ``axis`` (floating: float32 for integers, as MXNet)."""
    if dtype is None and out is None:
        r = _one_call_mean(x, axis, keepdims)
        if r is not None:
            return r
    x = operand(x, "x")
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.float_of(_dtypes.as_dtype(x.dtype))
    axes = normalize_axes(axis, x.ndim)
    x = astype(x, dt)
    if x.size == 0:
        shape = _result_shape(x.shape, axes, keepdims)
        return _into(full(shape, _onp.nan, dt, x.context), out)
    return _into(_reduce("mean", x, axes, keepdims) if axes else x.copy(), out)


_one_call_mean = _one_call("mean")


def var(x, /, *, axis=None, dtype=None, correction=0.0, keepdims=False, out=None, ddof=None):
    """Variance over ``axis``, dividing by N - correction (NumPy's ``ddof``)."""
    if ddof is not None:
        correction = ddof
    x = operand(x, "x")
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.float_of(_dtypes.as_dtype(x.dtype))
    axes = normalize_axes(axis, x.ndim)
    x = astype(x, dt)
    n = 1
    for a in axes:
        n *= x.shape[a]
    centred = binary("subtract", x, mean(x, axis=axes, keepdims=True))
    squares = binary("multiply", centred, centred)
    total = _accumulate("sum", 0)(squares, axis=axes, keepdims=keepdims)
    return _into(binary("divide", total, float(max(n - correction, 0))), out)


def std(x, /, *, axis=None, dtype=None, correction=0.0, keepdims=False, out=None, ddof=None):
    """Standard deviation over ``axis`` (the square root of var)."""
    v = var(x, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, ddof=ddof)
    return _into(invoke("sqrt", [v]), out)


def _truth(x):
    """x != 0 as bool."""
    x = operand(x, "x")
    if _dtypes.as_dtype(x.dtype).kind == "b":
        return x
    return binary("not_equal", x, 0)


def all(x, /, *, axis=None, keepdims=False, out=None):  # noqa: A001  (NumPy's name)
    """Whether every element over ``axis`` is true (True over nothing)."""
    t = astype(_truth(x), _onp.dtype("uint8"))
    return _into(astype(_logical_reduce("min", t, axis, keepdims, 1), _dtypes.BOOL), out)


def any(x, /, *, axis=None, keepdims=False, out=None):  # noqa: A001
    """Whether some element over ``axis`` is true (False over nothing)."""
    t = astype(_truth(x), _onp.dtype("uint8"))
    return _into(astype(_logical_reduce("max", t, axis, keepdims, 0), _dtypes.BOOL), out)


def _logical_reduce(op, t, axis, keepdims, identity):
    axes = normalize_axes(axis, t.ndim)
    if t.size == 0:
        shape = _result_shape(t.shape, axes, keepdims)
        return full(shape, identity, _onp.dtype("uint8"), t.context)
    return _reduce(op, t, axes, keepdims)


def _arg(op):
    def fn(x, /, *, axis=None, keepdims=False, out=None):
        x = operand(x, "x")
        if x.size == 0:
            raise MXNetValueError("attempt to get %s of an empty sequence" % op)
        if axis is None:
            flat = reshape(x, (x.size,))
            r = astype(invoke(op, [flat], {"axis": 0}), _dtypes.DEFAULT_INT)
            r = reshape(r, (1,) * x.ndim if keepdims else ())
        else:
            a = normalize_axis(axis, x.ndim)
            r = astype(invoke(op, [x], {"axis": a, "keepdims": bool(keepdims)}), _dtypes.DEFAULT_INT)
        return _into(r, out)
    return fn


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along ``axis`` (the flattened array when None), NumPy's accumulator dtypes."""
    a = operand(a, "a")
    dt = _sum_dtype(_dtypes.as_dtype(a.dtype), dtype)
    a = astype(a, dt)
    if axis is None:
        a, axis = reshape(a, (a.size,)), 0
    if a.size == 0:
        return _into(a.copy(), out)
    return _into(invoke("cumsum", [a], {"axis": normalize_axis(axis, a.ndim)}), out)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along ``axis`` (the flattened array when None), NumPy's
    accumulator dtypes: log2(n) registry products (a doubling scan), no loop per element."""
    a = operand(a, "a")
    a = astype(a, _sum_dtype(_dtypes.as_dtype(a.dtype), dtype))
    if axis is None:
        a, axis = reshape(a, (a.size,)), 0
    axis = normalize_axis(axis, a.ndim)
    n, r, shift = a.shape[axis], a.copy(), 1
    pre = (slice(None),) * axis
    while shift < n:  # r[i] = prod(a[i-2*shift+1 .. i]) after each step
        moved = binary("multiply", r[pre + (slice(shift, None),)], r[pre + (slice(0, n - shift),)])
        r = adopt(invoke("concat", [r[pre + (slice(0, shift),)], moved], {"dim": axis}))
        shift *= 2
    return _into(r, out)


def _cumulative(name, scan, identity):
    def fn(x, /, *, axis=None, dtype=None, include_initial=False):
        x = operand(x, "x")
        if axis is None:
            if x.ndim > 1:
                raise MXNetValueError("%s needs axis for arrays of more than one dimension" % name)
            axis = 0
        r = scan(x, axis=axis, dtype=dtype)
        if not include_initial:
            return r
        a = normalize_axis(axis, x.ndim)
        first = full(tuple(1 if i == a else d for i, d in enumerate(r.shape)), identity, r.dtype, r.context)
        return adopt(invoke("concat", [first, r], {"dim": a}))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "The standard's %s along ``axis`` (``include_initial`` puts %d first)." % (name, identity)
    return fn


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """The number of nonzero elements over ``axis`` (int64)."""
    return _accumulate("sum", 0)(_truth(x), axis=axis, keepdims=keepdims)


FUNCTIONS = {
    "sum": _accumulate("sum", 0), "prod": _accumulate("prod", 1), "max": _extremum("max", "maximum"),
    "min": _extremum("min", "minimum"), "mean": mean, "var": var, "std": std, "all": all, "any": any,
    "argmax": _arg("argmax"), "argmin": _arg("argmin"), "cumsum": cumsum, "cumprod": cumprod,
    "cumulative_sum": _cumulative("cumulative_sum", cumsum, 0), "cumulative_prod": _cumulative("cumulative_prod", cumprod, 1),
    "count_nonzero": count_nonzero,
}
FUNCTIONS["amax"], FUNCTIONS["amin"] = FUNCTIONS["max"], FUNCTIONS["min"]
for _name, _fn in FUNCTIONS.items():
    if _fn.__name__ in ("fn",):
        _fn.__name__ = _fn.__qualname__ = _name
        _fn.__doc__ = "%s over ``axis`` (None: every axis), NumPy's semantics." % _name
