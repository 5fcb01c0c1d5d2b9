"""MXNet 1.x's advanced indexing: ``x[key]`` and ``x[key] = value`` where key holds integer
lists, NumPy arrays or NDArrays, alone or mixed with integers, slices, None and ``...``.

MXNet 1.9.1 follows NumPy's integer-array indexing here (the index arrays broadcast
together; their result axes replace the indexed axes where those are adjacent, and go first
otherwise; an integer beside an array counts as an index array), with its own rules on
what an index is: bools and floats in lists and NumPy arrays are cast to integers (so
``x[np.array([True, False])]`` takes rows 1 and 0), an NDArray index is a gather even when it
holds 0/1 from a comparison, a bool NDArray and an empty index are refused. Reading gives a
copy, as in MXNet.

The key is reduced to a basic-indexing view of x whose indexed axes are consecutive, and
an int64 (k, n) array of checked, non-negative indices; the Go operators _gather_axes and
_scatter_axes (pkg/ops/layout/index_axes.go) do the rest on the engine, for every dtype.
A read whose key is integer NDArrays of one dtype and shape for the leading axes
(``x[i]``, ``x[rows, cols]``) skips that reduction: gather_nd reads the arrays stacked.
"""
import math
import numbers
import operator

import numpy as np

from ..base import DTYPE_NAMES, MXNetIndexError, MXNetTypeError, MXNetValueError, call, core, dtype_code, fastpath
from . import op as _ops

_INT64 = dtype_code("int64")
_UINT64 = dtype_code("uint64")
_ARRAY_KINDS = (list, tuple, np.ndarray, fastpath.NDArrayBase)


def is_advanced(key):
    """Whether key (an indexing key) holds an index array."""
    if isinstance(key, tuple):
        return any(isinstance(k, _ARRAY_KINDS) for k in key)
    return isinstance(key, _ARRAY_KINDS)


def getitem(x, key):
    out = gather(x, key)
    return out if out.shape else out.reshape((1,))  # MXNet has no 0-d arrays


def gather(x, key):
    """x[key] as NumPy shapes it (0-d for a single element; mx.np's indexing)."""
    arrays = _leading_arrays(x, key)
    if arrays:  # x[i], x[rows, cols]: the index arrays read in Go as they are
        if arrays[0]._code != _UINT64:
            return _ops.invoke("_gather_leading", [x, *arrays], {})
        # uint64 (beyond int64's range, which _gather_leading reads): gather_nd's rows
        i = arrays[0]
        stacked = _view(i, (1,) + i.shape) if len(arrays) == 1 else _ops.invoke("stack", list(arrays), {"axis": 0})
        return _ops.invoke("gather_nd", [x, stacked], {})
    view, axis, idx, bshape = _reduce(x, key)
    return _ops.invoke("_gather_axes", [view, idx], {"axis": axis, "index_shape": bshape})


def _view(a, shape):
    """a's contiguous elements as shape (every dimension literal: 0 is an empty axis, not
    MXNet's "copy this dimension" code, which NDArray.reshape would read)."""
    return type(a)(call(core.Reshape, a._h, ",".join(map(str, shape)), False))


_INT_CODES = frozenset(dtype_code(n) for n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"))


def _leading_arrays(x, key):
    """key as a tuple of k >= 1 integer NDArrays of one dtype and one non-empty shape for
    x's first k axes, which gather_nd reads as they are (negative indices count from the
    end, out-of-range ones raise MXNetIndexError there), with no reduction in Python; None
    for any other key."""
    if not isinstance(key, tuple):
        key = (key,)
    if not 0 < len(key) <= len(x.shape):
        return None
    first = key[0]
    if not isinstance(first, fastpath.NDArrayBase) or first._code not in _INT_CODES:
        return None
    shape = first.shape
    if shape and all(shape) and all(
            isinstance(k, fastpath.NDArrayBase) and k._code == first._code and k.shape == shape for k in key[1:]):
        return key
    return None


def setitem(x, key, value):
    if not x._writable:
        raise MXNetValueError("assignment destination is read-only")
    arrays = _leading_arrays(x, key)
    if arrays and arrays[0]._code != _UINT64 and isinstance(value, fastpath.NDArrayBase):
        ishape, k = arrays[0].shape, len(arrays)
        if value.shape == ishape + x.shape[k:]:  # x[rows] = v: the index arrays go to Go as they are
            n = math.prod(ishape)
            idx = _ops.invoke("stack", list(arrays), {"axis": 0}) if k > 1 else arrays[0]
            idx = _view(idx, (k, n))
            val = value if value._code == x._code else value.astype(DTYPE_NAMES[x._code])
            val = _view(val, (n,) + x.shape[k:])
            _ops.invoke("_scatter_axes", [x, idx, val], {"axis": 0}, out=x)
            return
    view, axis, idx, bshape = _reduce(x, key)
    k = idx.shape[0]
    selection = view.shape[:axis] + bshape + view.shape[axis + k:]
    shaped = view.shape[:axis] + (idx.shape[1],) + view.shape[axis + k:]
    if isinstance(value, fastpath.NDArrayBase) and value.shape == selection:  # stays in mxgo, on the engine
        val = value if value._code == x._code else value.astype(DTYPE_NAMES[x._code])
        _ops.invoke("_scatter_axes", [view, idx, val.reshape(shaped)], {"axis": axis}, out=view)
        return
    src = value.asnumpy() if isinstance(value, fastpath.NDArrayBase) else np.asarray(value)
    if src.dtype == object or src.dtype.kind in "USVMm":
        raise MXNetTypeError("cannot assign values of dtype %s to an NDArray" % src.dtype)
    try:
        src = np.broadcast_to(src, selection)
    except ValueError as err:
        raise MXNetValueError(str(err)) from None
    src = np.ascontiguousarray(src.reshape(shaped))
    val = fastpath.from_buffer(src, dtype_code(src.dtype), src.dtype.itemsize, False)
    if val._code != x._code:
        val = val.astype(DTYPE_NAMES[x._code])
    _ops.invoke("_scatter_axes", [view, idx, val], {"axis": axis}, out=view)


def _reduce(x, key):
    """(view of x, first indexed axis of the view, int64 NDArray (k, n) of indices, the
    broadcast shape of the index arrays)."""
    items = _expand(key if isinstance(key, tuple) else (key,), len(x.shape))
    basic, axes, arrays = [], [], []
    dim = 0  # the axis of x an item indexes
    for k in items:
        if k is None:
            basic.append(None)
            continue
        if isinstance(k, slice):
            basic.append(k)
        else:  # an index array, or an integer beside one
            a = _index_array(k)
            n = x.shape[dim]
            if a.size and (a.min() < -n or a.max() >= n):
                bad = a[(a < -n) | (a >= n)].flat[0]
                raise MXNetIndexError("index %d is out of bounds for axis %d with size %d" % (bad, dim, n))
            axes.append(len(basic))
            arrays.append(np.where(a < 0, a + n, a))
            basic.append(slice(None))
        dim += 1
    view = x[tuple(basic)] if any(b != slice(None) for b in basic) else x
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError as err:
        raise MXNetIndexError("shape mismatch: indexing arrays could not be broadcast together: %s" % err) from None
    bshape = arrays[0].shape
    if axes != list(range(axes[0], axes[0] + len(axes))):  # not adjacent: NumPy puts the result axes first
        view = view.transpose(axes + [i for i in range(len(view.shape)) if i not in axes])
        axes = list(range(len(axes)))
    idx = np.ascontiguousarray(np.stack([a.reshape(-1) for a in arrays]), dtype=np.int64)
    return view, axes[0], fastpath.from_buffer(idx, _INT64, 8, False), bshape


def _expand(items, ndim):
    """items with ``...`` replaced by full slices, and full slices added to reach ndim."""
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    if used > ndim:
        raise MXNetIndexError("too many indices for an array of %d dimensions" % ndim)
    if sum(1 for k in items if k is Ellipsis) > 1:
        raise MXNetIndexError("an index can only have a single ellipsis ('...')")
    out = []
    for k in items:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - used))
            used = ndim
        else:
            out.append(k)
    return out + [slice(None)] * (ndim - used)


def _index_array(k):
    """k as an int64 NumPy array, with MXNet's casts and refusals."""
    if isinstance(k, fastpath.NDArrayBase):
        if DTYPE_NAMES[k._code] == "bool":
            raise MXNetValueError("Cannot perform boolean indexing in legacy mode (MXNet 1.x's mx.nd); "
                                  "index with integers, or use a comparison's 0/1 result as a gather")
        a = k.asnumpy()
    elif isinstance(k, (bool, np.bool_)):
        raise MXNetIndexError("boolean indices are not supported (only integers, slices, None and ...)")
    elif isinstance(k, numbers.Integral):
        return np.asarray(int(k), dtype=np.int64)
    else:
        if isinstance(k, (list, tuple)) and any(isinstance(e, fastpath.NDArrayBase) for e in k):
            raise MXNetTypeError("an index list cannot hold NDArrays: index with one NDArray or a list of integers")
        try:
            a = np.asarray(k)
        except ValueError as err:  # ragged lists
            raise MXNetIndexError("not a valid index: %s" % err) from None
    if a.dtype.kind not in "biuf":
        raise MXNetIndexError("only integers, slices (`:`), ellipsis (`...`), None and integer arrays are valid "
                              "indices, got an array of %s" % a.dtype)
    if a.size == 0:
        raise MXNetIndexError("an empty index array is not supported (MXNet 1.x refuses it)")
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        raise MXNetIndexError("index arrays cannot hold NaN or infinity")
    return a.astype(np.int64)


def encode_key(key):
    """A basic-indexing key (integers, slices, None, ...) in Go's wire form (core.GetItem)."""
    if type(key) is not tuple:
        return _encode_item(key)
    return ";".join(map(_encode_item, key))


def _encode_item(k):
    if type(k) is slice:
        return "s%s:%s:%s" % (_bound(k.start), _bound(k.stop), _bound(k.step))
    if k is None:
        return "n"
    if k is Ellipsis:
        return "e"
    return "i%d" % _index(k)


def _bound(b):
    return "" if b is None else "%d" % (b if type(b) is int else _index(b))


def _index(k):
    if isinstance(k, (bool, np.bool_)):
        raise MXNetIndexError("boolean indices are not supported (only integers, slices, None and ...)")
    try:
        return operator.index(k)
    except TypeError:
        raise MXNetIndexError("only integers, slices (`:`), ellipsis (`...`) and None are valid indices, "
                         "got %s" % type(k).__name__) from None
