"""mx.np's shape and layout functions, selection, sorting and products: NumPy's
semantics over the registry's layout, sorting and linear algebra operators.

Views stay views where NumPy's are (reshape of a contiguous array, transpose, expand_dims,
squeeze, broadcast_to); the rest are copies made by one operator each where the registry
has it. Several-array functions promote their operands to one dtype first.
"""
import math
import operator

import numpy as _onp

from ..base import MXNetTypeError, MXNetValueError, call, core
from . import _dtypes
from ._array import adopt, asarray, astype, full, invoke, operand, reshape as _view
from ._reduce import FUNCTIONS as _REDUCE, normalize_axes, normalize_axis
from ._ufuncs import binary, unary

__all__ = ["FUNCTIONS", "reshape", "transpose", "broadcast_to", "squeeze", "expand_dims", "matmul"]


def reshape(x, /, shape, *, copy=None, order="C"):
    """x in a new shape (one dimension may be -1): a view when x is contiguous."""
    x = operand(x, "x")
    if order != "C":
        raise MXNetValueError("reshape: only order='C' is supported")
    shape = (shape,) if isinstance(shape, int) else tuple(operator.index(d) for d in shape)
    if sum(d == -1 for d in shape) > 1 or any(d < -1 for d in shape):
        raise MXNetValueError("reshape: invalid shape %s" % (shape,))
    known = math.prod(d for d in shape if d != -1)
    if -1 in shape:
        if known == 0 or x.size % known:
            raise MXNetValueError("cannot reshape array of size %d into shape %s" % (x.size, shape))
        shape = tuple(x.size // known if d == -1 else d for d in shape)
    if math.prod(shape) != x.size:
        raise MXNetValueError("cannot reshape array of size %d into shape %s" % (x.size, shape))
    out = _view(x, shape)
    return out.copy() if copy else out


def transpose(a, axes=None):
    """A view with the axes permuted (reversed when None)."""
    a = operand(a, "a")
    if axes is None:
        axes = tuple(range(a.ndim))[::-1]
    axes = tuple(normalize_axis(i, a.ndim) for i in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise MXNetValueError("axes don't match array: %r" % (axes,))
    return adopt(type(a)(call(core.Transpose, a._h, ",".join(map(str, axes)))))


def permute_dims(x, /, axes):
    """The standard's transpose: axes are required."""
    return transpose(x, axes)


def matrix_transpose(x, /):
    """A view with the last two axes swapped."""
    x = operand(x, "x")
    if x.ndim < 2:
        raise MXNetValueError("matrix_transpose needs at least 2 dimensions, got %d" % x.ndim)
    axes = list(range(x.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return transpose(x, axes)


def swapaxes(a, axis1, axis2):
    """A view with two axes exchanged."""
    a = operand(a, "a")
    axes = list(range(a.ndim))
    i, j = normalize_axis(axis1, a.ndim), normalize_axis(axis2, a.ndim)
    axes[i], axes[j] = axes[j], axes[i]
    return transpose(a, axes)


def moveaxis(x, source, destination, /):
    """A view with axes moved from ``source`` to ``destination`` (ints or tuples)."""
    x = operand(x, "x")
    src = [normalize_axis(a, x.ndim) for a in ((source,) if isinstance(source, int) else source)]
    dst = [normalize_axis(a, x.ndim) for a in ((destination,) if isinstance(destination, int) else destination)]
    if len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise MXNetValueError("moveaxis: source and destination must be distinct axes of equal number")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def expand_dims(x, /, axis=0):
    """A view with axes of length 1 inserted at ``axis`` (an int or tuple, in the result's numbering)."""
    x = operand(x, "x")
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    n = x.ndim + len(axes)
    where = normalize_axes(axes, n)
    shape = iter(x.shape)
    return _view(x, [1 if i in where else next(shape) for i in range(n)])


def squeeze(x, /, axis=None):
    """A view without the axes of length 1 (``axis``: those only; ValueError for a longer one)."""
    x = operand(x, "x")
    axes = tuple(i for i, d in enumerate(x.shape) if d == 1) if axis is None else normalize_axes(axis, x.ndim)
    if any(x.shape[a] != 1 for a in axes):
        raise MXNetValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _view(x, [d for i, d in enumerate(x.shape) if i not in axes])


def _broadcast_shapes(*shapes):
    n = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*[(1,) * (n - len(s)) + tuple(s) for s in shapes]):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            raise MXNetValueError("shapes %s cannot be broadcast together" % (shapes,))
        out.append(big.pop() if big else 1)
    return tuple(out)


def broadcast_to(array, /, shape):
    """``array`` broadcast to ``shape`` (NumPy's rule)."""
    x = operand(array, "array")
    shape = (shape,) if isinstance(shape, int) else tuple(operator.index(d) for d in shape)
    if len(shape) < x.ndim or _broadcast_shapes(x.shape, shape) != shape:
        raise MXNetValueError("cannot broadcast an array of shape %s to shape %s" % (x.shape, shape))
    if x.shape == shape:
        return x
    src = _view(x, (1,) * (len(shape) - x.ndim) + x.shape)
    if 0 in shape:
        return full(shape, 0, x.dtype, x.context)
    return invoke("broadcast_to", [src], {"shape": shape})


def broadcast_arrays(*arrays):
    """The arrays broadcast to one shape."""
    arrays = [operand(a) for a in arrays]
    shape = _broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def _common(arrays, name):
    arrays = [operand(a, name) for a in arrays]
    if not arrays:
        raise MXNetValueError("%s needs at least one array" % name)
    dt = _dtypes.result_type(*arrays)
    return [astype(a, dt) for a in arrays], dt


def concat(arrays, /, *, axis=0):
    """The arrays joined along ``axis`` (None: flattened first)."""
    arrays, _ = _common(arrays, "concat")
    if axis is None:
        arrays, axis = [_view(a, (a.size,)) for a in arrays], 0
    if any(a.ndim != arrays[0].ndim for a in arrays) or arrays[0].ndim == 0:
        raise MXNetValueError("concat: all arrays must have the same number of dimensions (at least one)")
    axis = normalize_axis(axis, arrays[0].ndim)
    return invoke("concat", arrays, {"dim": axis})


def concatenate(seq, axis=0, out=None):
    """NumPy's name for concat."""
    r = concat(seq, axis=axis)
    if out is None:
        return r
    out[...] = r
    return out


def stack(arrays, /, *, axis=0):
    """The arrays (of one shape) joined along a new axis."""
    arrays, _ = _common(arrays, "stack")
    if any(a.shape != arrays[0].shape for a in arrays):
        raise MXNetValueError("stack: all input arrays must have the same shape")
    axis = normalize_axis(axis, arrays[0].ndim + 1)
    return invoke("stack", arrays, {"axis": axis})


def unstack(x, /, *, axis=0):
    """The arrays along ``axis``, as views."""
    x = operand(x, "x")
    axis = normalize_axis(axis, x.ndim)
    key = (slice(None),) * axis
    return tuple(x[key + (i,)] for i in range(x.shape[axis]))


def flip(x, /, *, axis=None):
    """x with the order of elements reversed along ``axis`` (every axis when None)."""
    x = operand(x, "x")
    axes = normalize_axes(axis, x.ndim)
    if not axes or x.size == 0:
        return x.copy()
    return invoke("flip", [x], {"axis": axes})


def roll(x, /, shift, *, axis=None):
    """x with elements shifted along ``axis`` (flattened when None), wrapping around."""
    x = operand(x, "x")
    if axis is None:
        return reshape(roll(reshape(x, (x.size,)), shift, axis=0), x.shape)
    shifts = (shift,) * (1 if isinstance(axis, int) else len(axis)) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) != len(axes):
        raise MXNetValueError("roll: shift and axis must have the same length")
    out = x
    for s, a in zip(shifts, axes):
        a = normalize_axis(a, x.ndim)
        n = x.shape[a]
        if n == 0 or s % n == 0:
            continue
        k = s % n
        pre = (slice(None),) * a
        out = concat([out[pre + (slice(n - k, None),)], out[pre + (slice(0, n - k),)]], axis=a)
    return out if out is not x else x.copy()


def tile(x, /, repetitions):
    """x repeated ``repetitions`` times along each axis."""
    x = operand(x, "x")
    reps = (repetitions,) if isinstance(repetitions, int) else tuple(repetitions)
    n = max(len(reps), x.ndim)
    src = _view(x, (1,) * (n - x.ndim) + x.shape)
    reps = (1,) * (n - len(reps)) + tuple(reps)
    if 0 in reps or src.size == 0:
        return full(tuple(d * r for d, r in zip(src.shape, reps)), 0, x.dtype, x.context)
    return invoke("tile", [src], {"reps": reps})


def repeat(x, repeats, /, *, axis=None):
    """Each element repeated ``repeats`` times along ``axis`` (flattened when None)."""
    x = operand(x, "x")
    if not isinstance(repeats, int):
        return _repeat_counts(x, operand(repeats, "repeats"), axis)
    if repeats < 0:
        raise MXNetValueError("repeat: negative repeats")
    if axis is None:
        x, axis = _view(x, (x.size,)), 0
    axis = normalize_axis(axis, x.ndim)
    if repeats == 0 or x.size == 0:
        return full(tuple(d * repeats if i == axis else d for i, d in enumerate(x.shape)), 0, x.dtype, x.context)
    return invoke("repeat", [x], {"repeats": repeats, "axis": axis})


def _repeat_counts(x, counts, axis):
    """repeat with one count per element along axis: a take of each index repeated (the
    result's length is the counts' sum, so this waits for them)."""
    if axis is None:
        x, axis = _view(x, (x.size,)), 0
    axis = normalize_axis(axis, x.ndim)
    c = counts.asnumpy()
    if c.dtype.kind not in "iu" or c.ndim > 1 or (c < 0).any():
        raise MXNetValueError("repeat: repeats must be non-negative integers, one or one per element")
    idx = _onp.repeat(_onp.arange(x.shape[axis]), _onp.broadcast_to(c, (x.shape[axis],)))
    return take(x, asarray(idx, dtype=_dtypes.DEFAULT_INT, device=x.context), axis=axis)


def where(condition, x1, x2, /):
    """Elements of x1 where condition is true, of x2 elsewhere (all three broadcast)."""
    cond = operand(condition, "condition")
    s1, s2 = isinstance(x1, (bool, int, float, complex)), isinstance(x2, (bool, int, float, complex))
    if s1 and s2:
        dt = _dtypes.result_type(_dtypes.scalar_dtype(_dtypes.BOOL, x1), x2)
    else:
        dt = _dtypes.result_type(*[x for x in (x1, x2)])
    a = full((), x1, dt, cond.context) if s1 else astype(operand(x1, "x1"), dt)
    b = full((), x2, dt, cond.context) if s2 else astype(operand(x2, "x2"), dt)
    cond, a, b = broadcast_arrays(cond, a, b)
    return invoke("where", [cond, a, b])


def clip(x, /, min=None, max=None, *, out=None):  # noqa: A002  (the standard's names)
    """x with values below ``min`` raised to it and above ``max`` lowered to it."""
    x = operand(x, "x")
    r = x
    if min is not None:
        r = binary("maximum", r, min)
    if max is not None:
        r = binary("minimum", r, max)
    r = astype(r, _dtypes.as_dtype(x.dtype)) if r is not x else x.copy()
    if out is None:
        return r
    out[...] = r
    return out


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """x sorted along ``axis`` (stably)."""
    x = operand(x, "x")
    if x.ndim == 0:
        return x.copy()
    axis = normalize_axis(axis, x.ndim)
    dt = _dtypes.as_dtype(x.dtype)
    src = astype(x, _onp.dtype("uint8")) if dt.kind == "b" else x
    return astype(invoke("sort", [src], {"axis": axis, "is_ascend": not descending}), dt)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """The indices that sort x along ``axis`` (stably; ties keep their order)."""
    x = operand(x, "x")
    if x.ndim == 0:
        return full((), 0, _dtypes.DEFAULT_INT, x.context)
    axis = normalize_axis(axis, x.ndim)
    src = astype(x, _onp.dtype("uint8")) if _dtypes.as_dtype(x.dtype).kind == "b" else x
    return invoke("argsort", [src], {"axis": axis, "is_ascend": not descending, "dtype": "int64"})


def take(x, indices, /, *, axis=None):
    """Elements of x at ``indices`` along ``axis`` (flattened when None)."""
    x = operand(x, "x")
    idx = operand(indices, "indices")
    if axis is None:
        x, axis = _view(x, (x.size,)), 0
    axis = normalize_axis(axis, x.ndim)
    return invoke("take", [x, _from_end(idx, x.shape[axis])], {"axis": axis, "mode": "raise"})


def _from_end(idx, n):
    """Indices with the negative ones counted from the end (n: the axis' length), as NumPy's."""
    return where(binary("less", idx, 0), binary("add", idx, n), idx)


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of x at ``indices`` along ``axis`` (x and indices of one ndim, the other
    axes broadcast; negative indices count from the end): one advanced-indexing gather."""
    x, idx = operand(x, "x"), operand(indices, "indices")
    if x.ndim != idx.ndim or x.ndim == 0:
        raise MXNetValueError("take_along_axis: x and indices need the same number of dimensions (at least one)")
    axis = normalize_axis(axis, x.ndim)
    idx = _from_end(idx, x.shape[axis])
    key = tuple(idx if i == axis else asarray(_onp.arange(d).reshape([-1 if j == i else 1 for j in range(x.ndim)]))
                for i, d in enumerate(x.shape))
    shape = _broadcast_shapes(*[k.shape for k in key])
    if 0 in shape:
        return full(shape, 0, x.dtype, x.context)
    return x[key]


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """The n-th differences along ``axis`` (x[i+1] - x[i], or != for bool), after joining
    ``prepend`` and ``append`` (arrays, or scalars broadcast to one slice) to x."""
    x = operand(x, "x")
    if x.ndim == 0:
        raise MXNetValueError("diff needs at least one dimension")
    if n < 0:
        raise MXNetValueError("diff: order n must be non-negative, got %d" % n)
    axis = normalize_axis(axis, x.ndim)
    edge = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    parts = [x if p is x else _edge(p, edge) for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = concat(parts, axis=axis)
    op = "not_equal" if _dtypes.as_dtype(x.dtype).kind == "b" else "subtract"
    pre = (slice(None),) * axis
    for _ in range(n):
        m = x.shape[axis]
        x = binary(op, x[pre + (slice(1, None),)], x[pre + (slice(0, max(m - 1, 0)),)])
    return x


def _edge(p, shape):
    p = operand(p)
    return broadcast_to(p, shape) if p.ndim == 0 else p


def matmul(x1, x2, /):
    """The matrix product (NumPy's matmul: stacks broadcast, 1-d operands promoted)."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    if x1.ndim == 0 or x2.ndim == 0:
        raise MXNetValueError("matmul: operands must have at least one dimension")
    dt = _dtypes.result_type(x1, x2)
    if dt.kind == "b":
        raise MXNetTypeError("matmul is not defined for bool arrays")
    return invoke("matmul", [astype(x1, dt), astype(x2, dt)])


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along ``axis`` (broadcast)."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    n = max(x1.ndim, x2.ndim)
    if x1.ndim == 0 or x2.ndim == 0:
        raise MXNetValueError("vecdot: operands must have at least one dimension")
    a = normalize_axis(axis, n) - n
    if x1.shape[a] != x2.shape[a]:
        raise MXNetValueError("vecdot: the arrays differ along axis %d (%d, %d)" % (axis, x1.shape[a], x2.shape[a]))
    if _dtypes.as_dtype(x1.dtype).kind == "c":  # the standard's vecdot conjugates x1
        x1 = unary("conj", x1)
    product = binary("multiply", x1, x2)
    return _REDUCE["sum"](product, axis=a, dtype=product.dtype)


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the given axes (an int: the last ``axes`` of x1 with x2's first)."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    if isinstance(axes, int):
        if axes < 0 or axes > min(x1.ndim, x2.ndim):
            raise MXNetValueError("tensordot: axes must be between 0 and both arrays' dimensions")
        a1, a2 = list(range(x1.ndim - axes, x1.ndim)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
        a1, a2 = [normalize_axis(a, x1.ndim) for a in a1], [normalize_axis(a, x2.ndim) for a in a2]
    if len(a1) != len(a2) or any(x1.shape[i] != x2.shape[j] for i, j in zip(a1, a2)):
        raise MXNetValueError("tensordot: shape mismatch for sum")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [j for j in range(x2.ndim) if j not in a2]
    k = math.prod(x1.shape[i] for i in a1)
    m = reshape(transpose(x1, free1 + a1), (math.prod(x1.shape[i] for i in free1), k))
    n = reshape(transpose(x2, a2 + free2), (k, math.prod(x2.shape[j] for j in free2)))
    return reshape(matmul(m, n), [x1.shape[i] for i in free1] + [x2.shape[j] for j in free2])


def nonzero(x, /):
    """The indices of the nonzero elements, one int64 array per axis (waits for x: the
    result's shape depends on its values)."""
    x = operand(x, "x")
    if x.ndim == 0:
        raise MXNetValueError("nonzero is not defined for 0-d arrays")
    return tuple(asarray(i, dtype=_dtypes.DEFAULT_INT, device=x.context) for i in _onp.nonzero(x.asnumpy()))


FUNCTIONS = {
    "reshape": reshape, "transpose": transpose, "permute_dims": permute_dims, "matrix_transpose": matrix_transpose,
    "swapaxes": swapaxes, "moveaxis": moveaxis, "expand_dims": expand_dims, "squeeze": squeeze,
    "broadcast_to": broadcast_to, "broadcast_arrays": broadcast_arrays, "concat": concat, "concatenate": concatenate,
    "stack": stack, "unstack": unstack, "flip": flip, "roll": roll, "tile": tile, "repeat": repeat, "where": where,
    "clip": clip, "sort": sort, "argsort": argsort, "take": take, "matmul": matmul, "vecdot": vecdot,
    "tensordot": tensordot, "nonzero": nonzero, "take_along_axis": take_along_axis, "diff": diff,
}
