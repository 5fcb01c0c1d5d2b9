"""mx.np's index functions (argwhere, compress, choose, select, lexsort, unravel_index, ix_, the
*_indices_from), comparisons of whole arrays (isclose, allclose, array_equal), partial
sorts, MXNet's aliases and the dtype and memory queries.

Functions whose result's shape depends on values (argwhere, flatnonzero, extract, compress)
wait for them, as ``nonzero`` does; so do the checks NumPy makes on index values (choose's
mode 'raise', unravel_index's bounds) before the device computes the result.
"""
import numpy as _onp

from ..base import MXNetIndexError, MXNetNotImplementedError, MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import asarray, astype, operand
from ._manip import FUNCTIONS as _M, _broadcast_shapes
from ._reduce import FUNCTIONS as _R, normalize_axis
from ._stack import FUNCTIONS as _S
from ._ufuncs import FUNCTIONS as _U, binary

__all__ = ["FUNCTIONS"]


def _ints(values, like):
    return asarray(values, dtype=_dtypes.DEFAULT_INT, device=like.context)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|a - b| <= atol + rtol * |b|`` elementwise (infinities close to equal
    ones only; NaNs close to each other when ``equal_nan``), in a's and b's floating dtype."""
    a, b = operand(a, "a"), operand(b, "b")
    dt = _dtypes.float_of(_dtypes.result_type(a, b))
    a, b = astype(a, dt), astype(b, dt)
    near = binary("less_equal", _U["abs"](binary("subtract", a, b)),
                  binary("add", binary("multiply", _U["abs"](b), rtol), atol))
    finite = binary("logical_and", _U["isfinite"](a), _U["isfinite"](b))
    r = _M["where"](finite, near, binary("equal", a, b))
    if equal_nan:
        r = binary("logical_or", r, binary("logical_and", _U["isnan"](a), _U["isnan"](b)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of a is close to b's (isclose): a Python bool."""
    return bool(_R["all"](isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """Whether a1 and a2 have one shape and equal elements (NaNs equal when ``equal_nan``)."""
    a1, a2 = operand(a1, "a1"), operand(a2, "a2")
    if a1.shape != a2.shape:
        return False
    same = binary("equal", a1, a2)
    if equal_nan and _dtypes.as_dtype(a1.dtype).kind in "fc" and _dtypes.as_dtype(a2.dtype).kind in "fc":
        same = binary("logical_or", same, binary("logical_and", _U["isnan"](a1), _U["isnan"](a2)))
    return bool(_R["all"](same))


def array_equiv(a1, a2):
    """Whether a1 and a2 broadcast to one shape with equal elements."""
    a1, a2 = operand(a1, "a1"), operand(a2, "a2")
    try:
        _broadcast_shapes(a1.shape, a2.shape)
    except MXNetValueError:
        return False
    return bool(_R["all"](binary("equal", a1, a2)))


def alltrue(a, axis=None, out=None, keepdims=False):
    """NumPy's old name for all."""
    return _R["all"](a, axis=axis, keepdims=keepdims, out=out)


def sometrue(a, axis=None, keepdims=False, out=None):
    """NumPy's old name for any (MXNet's argument order)."""
    return _R["any"](a, axis=axis, keepdims=keepdims, out=out)


def product(a, axis=None, dtype=None, out=None, keepdims=False):
    """NumPy's old name for prod."""
    return _R["prod"](a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def round_(x, decimals=0, out=None, **kwargs):
    """NumPy's old name for round."""
    return _U["round"](x, decimals=decimals, out=out)


def argwhere(a):
    """The indices of a's nonzero elements, one row each (int64; waits for a's values)."""
    a = operand(a, "a")
    return _ints(_onp.argwhere(a.asnumpy()), a)


def flatnonzero(a):
    """The indices of the nonzero elements of a flattened (int64; waits for a's values)."""
    return _M["nonzero"](_S["ravel"](a))[0]


def extract(condition, arr):
    """The elements of arr (flattened) where the flattened condition is true."""
    return _M["take"](_S["ravel"](arr), flatnonzero(condition))


def compress(condition, a, axis=None, out=None):
    """The slices of a along ``axis`` (flattened when None) where the 1-d condition is true."""
    a = operand(a, "a")
    cond = operand(condition, "condition")
    if cond.ndim != 1:
        raise MXNetValueError("compress: condition must be a 1-d array")
    if axis is None:
        a, axis = _S["ravel"](a), 0
    axis = normalize_axis(axis, a.ndim)
    idx = flatnonzero(cond)
    if idx.size and int(idx[-1]) >= a.shape[axis]:
        raise MXNetIndexError("compress: condition selects index %d, out of bounds for size %d"
                              % (int(idx[-1]), a.shape[axis]))
    r = _M["take"](a, idx, axis=axis)
    if out is None:
        return r
    out[...] = r
    return out


def choose(a, choices, out=None, mode="raise"):
    """The element of ``choices[a]`` at each position (a and the choices broadcast);
    ``mode``: 'raise' for an index out of range, 'wrap' or 'clip' it."""
    a = operand(a, "a")
    if _dtypes.as_dtype(a.dtype).kind not in "iu":
        raise MXNetTypeError("choose: a must be of an integer dtype, got %s" % a.dtype)
    if mode not in ("raise", "wrap", "clip"):
        raise MXNetValueError("choose: mode must be 'raise', 'wrap' or 'clip', got %r" % (mode,))
    choices = [operand(c, "choices") for c in choices]
    n = len(choices)
    if n == 0:
        raise MXNetValueError("choose: choices must not be empty")
    dt = _dtypes.result_type(*choices)
    arrays = _M["broadcast_arrays"](a, *[astype(c, dt) for c in choices])
    idx = arrays[0]
    if mode == "raise":
        host = idx.asnumpy()
        if host.size and (host.min() < 0 or host.max() >= n):
            raise MXNetValueError("invalid entry in choice array")
    else:
        idx = binary("remainder", idx, n) if mode == "wrap" else _M["clip"](idx, 0, n - 1)
    r = _M["take_along_axis"](_M["stack"](arrays[1:]), _M["expand_dims"](idx, axis=0), axis=0)[0]
    if out is None:
        return r
    out[...] = r
    return out


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds at each position (``default``
    where none does)."""
    if len(condlist) != len(choicelist):
        raise MXNetValueError("select: list of cases must be same length as list of conditions")
    if not condlist:
        raise MXNetValueError("select with an empty condition list is not possible")
    conds = [operand(c, "condlist") for c in condlist]
    if any(_dtypes.as_dtype(c.dtype).kind != "b" for c in conds):
        raise MXNetTypeError("select: condlist entries must be bool arrays")
    r = default
    for c, choice in zip(reversed(conds), reversed(choicelist)):
        r = _M["where"](c, choice, r)
    return r


def lexsort(keys, axis=-1):
    """The indices that sort by the keys along ``axis``, the last key first (stable sorts of
    each key in turn, from the first)."""
    if not hasattr(keys, "__iter__"):
        raise MXNetTypeError("lexsort: keys must be a sequence of arrays")
    keys = [operand(k, "keys") for k in keys]
    if not keys:
        raise MXNetTypeError("lexsort: need a sequence of keys with len > 0")
    keys = _M["broadcast_arrays"](*keys)
    if keys[0].ndim == 0:
        raise MXNetValueError("lexsort: keys must have at least one dimension")
    order = None
    for k in keys:
        k = k if order is None else _M["take_along_axis"](k, order, axis=axis)
        step = _M["argsort"](k, axis=axis)
        order = step if order is None else _M["take_along_axis"](order, step, axis=axis)
    return order


def unravel_index(indices, shape, order="C"):
    """The coordinates in an array of ``shape`` of flat indices (int64 arrays, one per axis)."""
    idx = operand(indices, "indices")
    if _dtypes.as_dtype(idx.dtype).kind not in "iu":
        raise MXNetTypeError("only int indices permitted")
    if order not in ("C", "F"):
        raise MXNetValueError("unravel_index: order must be 'C' or 'F'")
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise MXNetValueError("unravel_index: dimensions must be non-negative, got %s" % (shape,))
    host = idx.asnumpy()
    total = int(_onp.prod(shape))
    if host.size and (host.min() < 0 or host.max() >= total):
        raise MXNetValueError("index %d is out of bounds for array with size %d"
                              % (host.max() if host.max() >= total else host.min(), total))
    idx = astype(idx, _dtypes.DEFAULT_INT)
    coords = []
    for d in (reversed(shape) if order == "C" else shape):
        coords.append(binary("remainder", idx, d))
        idx = binary("floor_divide", idx, d)
    return tuple(reversed(coords) if order == "C" else coords)


def ix_(*args):
    """Open-mesh index arrays: the k-th of n 1-d sequences shaped to lie along axis k (a
    bool one as its nonzero indices)."""
    out = []
    for k, a in enumerate(args):
        a = operand(a, "args")
        if a.ndim != 1:
            raise MXNetValueError("Cross index must be 1 dimensional")
        if _dtypes.as_dtype(a.dtype).kind == "b":
            a = _M["nonzero"](a)[0]
        out.append(_M["reshape"](a, (1,) * k + (a.size,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


def diag_indices_from(arr):
    """The indices of the main diagonal of arr (all of whose axes have one length)."""
    arr = operand(arr, "arr")
    if arr.ndim < 2 or len(set(arr.shape)) != 1:
        raise MXNetValueError("diag_indices_from: input array must be at least 2-d with all dimensions equal")
    r = _ints(_onp.arange(arr.shape[0]), arr)
    return (r,) * arr.ndim


def _tri_indices_from(upper):
    def fn(arr, k=0):
        arr = operand(arr, "arr")
        if arr.ndim != 2:
            raise MXNetValueError("input array must be 2-d")
        rows, cols = (_onp.triu_indices if upper else _onp.tril_indices)(arr.shape[0], k, arr.shape[1])
        return _ints(rows, arr), _ints(cols, arr)
    fn.__name__ = fn.__qualname__ = "%s_indices_from" % ("triu" if upper else "tril")
    fn.__doc__ = "The indices of the %s triangle of the 2-d arr (from diagonal k)." % ("upper" if upper else "lower")
    return fn


tril_indices_from, triu_indices_from = _tri_indices_from(False), _tri_indices_from(True)


def _check_kth(a, kth, axis):
    a = operand(a, "a")
    if axis is None:
        a, axis = _S["ravel"](a), 0
    n = a.shape[normalize_axis(axis, a.ndim)]
    for k in _onp.atleast_1d(kth):
        if not -n <= int(k) < n:
            raise MXNetValueError("kth(=%d) out of bounds (%d)" % (int(k), n))
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """a with the kth elements in sorted place, smaller ones before and larger after (a
    full sort, which is one such arrangement)."""
    if order is not None:
        raise MXNetNotImplementedError("partition: order is not supported")
    a, axis = _check_kth(a, kth, axis)
    return _M["sort"](a, axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The indices that partition a (those of a stable sort, one such arrangement)."""
    if order is not None:
        raise MXNetNotImplementedError("argpartition: order is not supported")
    a, axis = _check_kth(a, kth, axis)
    return _M["argsort"](a, axis=axis)


def msort(a):
    """a sorted along its first axis."""
    return _M["sort"](a, axis=0)


def _host_view(x):
    """A NumPy view of an array's memory (CPU arrays; None for arrays elsewhere)."""
    x = operand(x)
    return _onp.from_dlpack(x) if x.context.device_type == "cpu" else None


def _memory_test(test, name, doc):
    def fn(a, b, max_work=None):
        va, vb = _host_view(a), _host_view(b)
        if va is not None and vb is not None:
            return bool(test(va, vb))
        if operand(a).context != operand(b).context:
            return False
        raise MXNetNotImplementedError("%s: only CPU arrays can be compared" % name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc + " (NumPy's test on the CPU arrays' memory; arrays on two devices share none)."
    return fn


shares_memory = _memory_test(_onp.shares_memory, "shares_memory", "Whether a and b share memory")
may_share_memory = _memory_test(_onp.may_share_memory, "may_share_memory", "Whether a's and b's memory bounds overlap")


def min_scalar_type(a):
    """The smallest NumPy dtype that holds a's value (NumPy's rule)."""
    return _onp.min_scalar_type(a.asnumpy() if hasattr(a, "asnumpy") else a)


def promote_types(type1, type2):
    """The dtype both dtypes promote to (mx.np's promotion)."""
    return _dtypes.result_type(_dtypes.as_dtype(type1), _dtypes.as_dtype(type2))


def set_printoptions(precision=None, threshold=None, **kwarg):
    """Sets how arrays print (MXNet takes precision and threshold only; NumPy prints them)."""
    if kwarg:
        raise MXNetNotImplementedError("set_printoptions supports precision and threshold only")
    _onp.set_printoptions(precision=precision, threshold=threshold)


FUNCTIONS = {f.__name__: f for f in (
    isclose, allclose, array_equal, array_equiv, alltrue, sometrue, product, round_, argwhere, flatnonzero, extract,
    compress, choose, select, lexsort, unravel_index, ix_, diag_indices_from, tril_indices_from, triu_indices_from,
    partition, argpartition, msort, shares_memory, may_share_memory, min_scalar_type, promote_types,
    set_printoptions)}
