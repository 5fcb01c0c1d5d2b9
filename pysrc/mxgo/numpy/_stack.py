"""mx.np's joining, splitting, padding and rearranging functions (NumPy's hstack, split,
pad, insert, delete, rot90, diag, ...), composed of _manip's operators.

Where NumPy's rule for which elements go where is intricate (pad's modes, insert and delete
with any ``obj``), the rule runs on host over an index array (NumPy's own function applied
to ``arange(n)``, which only depends on shapes and ``obj``), and the data moves by one
``take`` along the axis: a gather the registry differentiates.
"""
import math
import operator

import numpy as _onp

from ..base import MXNetNotImplementedError, MXNetTypeError, MXNetValueError, mxnet_error
from . import _dtypes
from ._array import asarray, astype, full, invoke, operand
from ._manip import FUNCTIONS as _M
from ._reduce import FUNCTIONS as _R, normalize_axis
from ._ufuncs import FUNCTIONS as _U

__all__ = ["FUNCTIONS"]

_reshape, _concat, _take, _flip, _transpose = _M["reshape"], _M["concat"], _M["take"], _M["flip"], _M["transpose"]


def _ints(values, name):
    """values (an int or a sequence of them) as a tuple of ints; TypeError (MXNet's) otherwise."""
    try:
        return tuple(operator.index(v) for v in (values if hasattr(values, "__iter__") else (values,)))
    except TypeError:
        raise MXNetTypeError("%s must be an int or a sequence of ints, got %r" % (name, values)) from None


def _int_index(values, like):
    return asarray(values, dtype=_dtypes.DEFAULT_INT, device=like.context)


def _gather(x, index_rule, axis):
    """x with its elements along ``axis`` picked by ``index_rule(arange(n))``, a NumPy
    index function; its IndexError or ValueError is raised as MXNet's."""
    try:
        idx = index_rule(_onp.arange(x.shape[axis]))
    except (IndexError, ValueError, TypeError) as err:
        raise mxnet_error(type(err))(str(err)) from None
    return _take(x, _int_index(idx, x), axis=axis)


def _atleast(n):
    def fn(*arys):
        out = []
        for a in arys:
            a = operand(a, "arys")
            if a.ndim < n:  # NumPy's placement: 1-d (k,) -> (1, k) -> (1, k, 1); 2-d (j, k) -> (j, k, 1)
                a = _reshape(a, ((1,) * n, (1,) + a.shape + (1,) * (n - 2), a.shape + (1,))[a.ndim])
            out.append(a)
        return out[0] if len(out) == 1 else out
    fn.__name__ = fn.__qualname__ = "atleast_%dd" % n
    fn.__doc__ = "The arrays viewed with at least %d dimensions (one array, or a list)." % n
    return fn


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


def _seq(arrays, name):
    if isinstance(arrays, (str, bytes)) or not hasattr(arrays, "__iter__"):
        raise MXNetTypeError("%s takes a sequence of arrays" % name)
    return [operand(a, name) for a in arrays]


def vstack(arrays, out=None):
    """The arrays (1-d ones as rows) joined along the first axis."""
    r = _concat([atleast_2d(a) for a in _seq(arrays, "vstack")], axis=0)
    if out is None:
        return r
    out[...] = r
    return out


def hstack(arrays):
    """The arrays joined along the second axis (the first for 1-d arrays)."""
    arrays = [atleast_1d(a) for a in _seq(arrays, "hstack")]
    return _concat(arrays, axis=0 if arrays and arrays[0].ndim == 1 else 1)


def dstack(arrays):
    """The arrays (made at least 3-d) joined along the third axis."""
    return _concat([atleast_3d(a) for a in _seq(arrays, "dstack")], axis=2)


def column_stack(tup):
    """1-d arrays as columns (and 2-d ones as they are) joined along the second axis."""
    return _concat([_reshape(a, (a.size, 1)) if a.ndim < 2 else a for a in _seq(tup, "column_stack")], axis=1)


def append(arr, values, axis=None):
    """arr with values joined at the end along ``axis`` (both flattened when None)."""
    arr, values = operand(arr, "arr"), operand(values, "values")
    if axis is None:
        return _concat([ravel(arr), ravel(values)], axis=0)
    return _concat([arr, values], axis=axis)


def ravel(x, order="C"):
    """x as a 1-d array (a view when x is contiguous)."""
    if order != "C":
        raise MXNetNotImplementedError("ravel: only order='C' is supported")
    x = operand(x, "x")
    return _reshape(x, (x.size,))


def array_split(ary, indices_or_sections, axis=0):
    """ary split along ``axis`` into sections (the first ``n % sections`` one longer) or at
    the given indices: a list of views."""
    ary = operand(ary, "ary")
    axis = normalize_axis(axis, ary.ndim)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, _onp.integer)):
        k = _ints(indices_or_sections, "indices_or_sections")[0]
        if k <= 0:
            raise MXNetValueError("number sections must be larger than 0")
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        bounds = [0] + list(_onp.cumsum(sizes))
    else:
        bounds = [0, *_ints(indices_or_sections, "indices_or_sections"), n]
    pre = (slice(None),) * axis
    return [ary[pre + (slice(int(b), int(e)),)] for b, e in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """array_split, where a number of sections must divide the axis."""
    ary = operand(ary, "ary")
    if isinstance(indices_or_sections, (int, _onp.integer)) and indices_or_sections > 0 and \
            ary.shape[normalize_axis(axis, ary.ndim)] % indices_or_sections:
        raise MXNetValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def _split_along(axis, min_ndim, name):
    def fn(ary, indices_or_sections):
        ary = operand(ary, "ary")
        if ary.ndim < min_ndim:
            raise MXNetValueError("%s only works on arrays of %d or more dimensions" % (name, min_ndim))
        return split(ary, indices_or_sections, axis if ary.ndim > 1 else 0)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "split along axis %d (hsplit: axis 0 of a 1-d array)." % axis
    return fn


hsplit, vsplit, dsplit = _split_along(1, 1, "hsplit"), _split_along(0, 2, "vsplit"), _split_along(2, 3, "dsplit")


def _at_least(m, ndim, name):
    m = operand(m, "m")
    if m.ndim < ndim:
        raise MXNetValueError("%s: input must be at least %d-d" % (name, ndim))
    return m


def fliplr(m):
    """m reversed along its second axis."""
    return _flip(_at_least(m, 2, "fliplr"), axis=1)


def flipud(m):
    """m reversed along its first axis."""
    return _flip(_at_least(m, 1, "flipud"), axis=0)


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees ``k`` times in the plane of ``axes`` (from the first toward
    the second)."""
    m = _at_least(m, 2, "rot90")
    if len(axes) != 2:
        raise MXNetValueError("rot90: len(axes) must be 2")
    a0, a1 = normalize_axis(axes[0], m.ndim), normalize_axis(axes[1], m.ndim)
    if a0 == a1:
        raise MXNetValueError("rot90: axes must be different")
    k = _ints(k, "k")[0] % 4
    if k == 0:
        return m.copy()
    if k == 2:
        return _flip(m, axis=(a0, a1))
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = a1, a0
    return _transpose(_flip(m, axis=a1), perm) if k == 1 else _flip(_transpose(m, perm), axis=a1)


def rollaxis(a, axis, start=0):
    """a with ``axis`` moved to lie before position ``start``."""
    a = operand(a, "a")
    axis = normalize_axis(axis, a.ndim)
    if not -a.ndim <= start <= a.ndim:
        raise MXNetValueError("rollaxis: start %d out of range for %d dimensions" % (start, a.ndim))
    start = start + a.ndim if start < 0 else start
    order = [i for i in range(a.ndim) if i != axis]
    order.insert(start - 1 if axis < start else start, axis)
    return _transpose(a, order)


def resize(a, new_shape):
    """An array of ``new_shape`` filled with a's elements in order, repeated as needed
    (zeros when a is empty)."""
    a = operand(a, "a")
    shape = _ints(new_shape, "new_shape")
    if any(d < 0 for d in shape):
        raise MXNetValueError("all elements of `new_shape` must be non-negative")
    total = math.prod(shape)
    if a.size == 0 or total == 0:
        return full(shape, 0, a.dtype, a.context)
    return _reshape(_take(ravel(a), _int_index(_onp.arange(total) % a.size, a)), shape)


def diag(array, k=0):
    """The k-th diagonal of a 2-d array, or a 2-d array with a 1-d one on its k-th diagonal."""
    v = operand(array, "array")
    if v.ndim not in (1, 2):
        raise MXNetValueError("diag: input must be 1- or 2-d")
    (k,) = _ints(k, "k")
    if v.ndim == 2 and not -v.shape[0] < k < v.shape[1]:
        return full((0,), 0, v.dtype, v.context)  # (a diagonal outside the matrix: empty, as NumPy's)
    return invoke("diag", [v], {"k": k})


def diagflat(array, k=0):
    """A 2-d array with the flattened input on its k-th diagonal."""
    return diag(ravel(array), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset`` diagonal of the planes of axes axis1 and axis2, as the last axis."""
    a = _at_least(a, 2, "diagonal")
    i, j = normalize_axis(axis1, a.ndim), normalize_axis(axis2, a.ndim)
    if i == j:
        raise MXNetValueError("diagonal: axis1 and axis2 cannot be the same")
    n = max(0, min(a.shape[i] - max(0, -offset), a.shape[j] - max(0, offset)))
    if n == 0:  # (the registry's diag refuses an empty diagonal)
        rest = tuple(d for k, d in enumerate(a.shape) if k not in (i, j))
        return full(rest + (0,), 0, a.dtype, a.context)
    return invoke("diag", [a], {"k": int(offset), "axis1": i, "axis2": j})


def _pad_widths(pad_width, ndim):
    try:
        w = _onp.broadcast_to(_onp.asarray(pad_width, dtype=_onp.int64), (ndim, 2))
    except ValueError:
        raise MXNetValueError("pad: pad_width %r does not fit %d dimensions" % (pad_width, ndim)) from None
    if (w < 0).any():
        raise MXNetValueError("pad: negative pad widths")
    return [tuple(int(v) for v in p) for p in w]


_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")
_STAT_MODES = {"maximum": "max", "minimum": "min", "mean": "mean"}


def pad(x, pad_width=None, mode="constant", **kwargs):
    """x padded by ``pad_width`` (an int, a (before, after) pair, or one per axis) in one of
    NumPy's modes: constant (``constant_values``, a scalar), edge, reflect, symmetric,
    wrap, maximum, minimum or mean (of the whole axis)."""
    x = operand(x, "x")
    if pad_width is None:
        raise MXNetTypeError("pad: pad_width is required")
    if mode not in ("constant",) + _INDEX_MODES + tuple(_STAT_MODES):
        raise MXNetValueError("pad: mode %r is not supported" % (mode,))  # (as MXNet's)
    allowed = {"constant": ("constant_values",), "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}
    extra = set(kwargs) - set(allowed.get(mode, ()))
    if extra or kwargs.get("reflect_type", "even") not in ("even", None):
        raise MXNetValueError("pad: unsupported keyword arguments %s for mode %r" % (sorted(kwargs), mode))
    src = x
    for axis, (before, after) in enumerate(_pad_widths(pad_width, x.ndim)):
        if before == after == 0:
            continue
        if mode == "constant" or mode in _STAT_MODES:
            x = _concat(_pad_blocks(x, axis, before, after, mode, kwargs.get("constant_values", 0)), axis=axis)
        else:
            if x.shape[axis] == 0:
                raise MXNetValueError("pad: can't extend an empty axis %d in mode %r" % (axis, mode))
            x = _gather(x, lambda r, b=before, a=after: _onp.pad(r, (b, a), mode=mode), axis)
    return x.copy() if x is src else x


def _pad_blocks(x, axis, before, after, mode, value):
    def block(n, fill):
        shape = tuple(n if i == axis else d for i, d in enumerate(x.shape))
        return _M["broadcast_to"](fill, shape) if _is_array(fill) else full(shape, fill, x.dtype, x.context)
    if mode == "constant":
        if not isinstance(value, (bool, int, float)) and not (_is_array(value) and value.ndim == 0):
            raise MXNetTypeError("pad: constant_values must be a scalar, got %r" % (value,))  # (as MXNet's)
        fill = value
    else:
        if x.shape[axis] == 0:
            raise MXNetValueError("pad: can't compute the %s of an empty axis" % mode)
        fill = _R[_STAT_MODES[mode]](x, axis=axis, keepdims=True)
        if mode == "mean" and _dtypes.as_dtype(x.dtype).kind in "iu":  # NumPy rounds an integer mean
            fill = _U["round"](fill)
        fill = astype(fill, _dtypes.as_dtype(x.dtype))
    return [block(before, fill), x, block(after, fill)]


def _is_array(v):
    return hasattr(v, "_h")


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at ``obj`` (an int, a slice, ints or a bool mask) along
    ``axis`` (flattened when None)."""
    arr = operand(arr, "arr")
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = normalize_axis(axis, arr.ndim)
    obj = _host_obj(obj)
    return _gather(arr, lambda r: _onp.delete(r, obj), axis)


def insert(arr, obj, values, axis=None):
    """arr with ``values`` inserted before the indices ``obj`` (an int, a slice or ints)
    along ``axis`` (flattened when None): the values, cast to arr's dtype, joined at the end
    and moved into place by one gather."""
    arr = operand(arr, "arr")
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = normalize_axis(axis, arr.ndim)
    values = astype(operand(values, "values"), _dtypes.as_dtype(arr.dtype))
    obj, n = _host_obj(obj), arr.shape[axis]
    if isinstance(obj, slice):
        obj = _onp.arange(n)[obj]
    scalar = _onp.ndim(obj) == 0
    if scalar:  # every value goes in at one index: values' first axis becomes ``axis``
        values = _reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
        values = _M["moveaxis"](values, 0, axis) if values.ndim == arr.ndim else values
        m = values.shape[axis] if values.ndim == arr.ndim else 1
    else:
        m = _onp.size(obj)
    block_shape = tuple(m if i == axis else d for i, d in enumerate(arr.shape))
    block = _M["broadcast_to"](values, block_shape)
    pos = _onp.arange(n, n + m)
    return _gather(_concat([arr, block], axis=axis), lambda r: _onp.insert(r[:n], obj, pos), axis)


def _host_obj(obj):
    """insert's and delete's obj with NumPy's meaning: arrays of either library as NumPy's."""
    if hasattr(obj, "asnumpy"):
        return obj.asnumpy()
    return obj


def trim_zeros(filt, trim="fb"):
    """The 1-d filt without its leading ('f') and/or trailing ('b') zeros (a view; waits for
    filt's values)."""
    filt = operand(filt, "filt")
    if filt.ndim != 1:
        raise MXNetValueError("trim_zeros: filt must be 1-d")
    nz = _onp.flatnonzero(filt.asnumpy())
    if nz.size == 0:
        return filt[0:0]
    if not isinstance(trim, str):
        raise MXNetTypeError("trim_zeros: trim must be a string of 'f' and 'b', got %r" % (trim,))
    trim = trim.lower()
    return filt[int(nz[0]) if "f" in trim else 0:int(nz[-1]) + 1 if "b" in trim else filt.shape[0]]


def copy(a, out=None):
    """A copy of a."""
    r = operand(a, "a").copy()
    if out is None:
        return r
    out[...] = r
    return out


def ndim(a):
    """The number of dimensions of an array (or of what asarray makes of a)."""
    return operand(a, "a").ndim


def shape(a):
    """The shape of an array (or of what asarray makes of a)."""
    return operand(a, "a").shape


def size(a, axis=None):
    """The number of elements of an array, or its length along ``axis``."""
    a = operand(a, "a")
    return a.size if axis is None else a.shape[normalize_axis(axis, a.ndim)]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to every 1-d slice of arr along ``axis``; its results (of one shape)
    replace that axis. A Python loop over the slices, as NumPy's."""
    arr = operand(arr, "arr")
    axis = normalize_axis(axis, arr.ndim)
    moved = _M["moveaxis"](arr, axis, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise MXNetValueError("apply_along_axis: cannot apply to an empty array's slices")
    results = [operand(func1d(moved[i], *args, **kwargs)) for i in _onp.ndindex(*outer)]
    out = _reshape(_M["stack"](results), outer + results[0].shape)
    inner = results[0].ndim
    return _M["moveaxis"](out, tuple(range(len(outer), len(outer) + inner)),
                          tuple(range(axis, axis + inner))) if inner else out


def apply_over_axes(func, a, axes):
    """func(a, axis) applied over each of ``axes`` in turn, keeping the number of dimensions."""
    a = operand(a, "a")
    for axis in (axes,) if isinstance(axes, int) else axes:
        axis = normalize_axis(axis, a.ndim)
        r = operand(func(a, axis))
        if r.ndim == a.ndim - 1:
            r = _M["expand_dims"](r, axis=axis)
        elif r.ndim != a.ndim:
            raise MXNetValueError("apply_over_axes: function is not returning an array of the correct shape")
        a = r
    return a


FUNCTIONS = {f.__name__: f for f in (
    atleast_1d, atleast_2d, atleast_3d, vstack, hstack, dstack, column_stack, append, ravel, array_split, split,
    hsplit, vsplit, dsplit, fliplr, flipud, rot90, rollaxis, resize, diag, diagflat, diagonal, pad, delete, insert,
    trim_zeros, copy, ndim, shape, size, apply_along_axis, apply_over_axes)}
FUNCTIONS["row_stack"] = vstack
