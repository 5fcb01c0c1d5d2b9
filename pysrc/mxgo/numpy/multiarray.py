"""``mx.np.ndarray`` and the functions that create arrays.

``ndarray`` is a subclass of mx.nd's NDArray over the same C object and Go handle, with
NumPy's semantics: true 0-d arrays, bool comparisons, NumPy's promotion and indexing
(boolean masks, integer arrays, views for basic slices), ``dtype`` a numpy.dtype, and the
Array API standard's methods (``__array_namespace__``, ``device``, ``to_device``, ``mT``).
``as_nd_ndarray()`` and ``as_np_ndarray()`` give the other namespace's object over the
same memory, without a copy.
"""
import math
import numbers
import operator
import sys

import numpy as _onp

from .._core.dlpack import from_dlpack as _from_dlpack
from ..base import (BFLOAT16, NUMPY_BFLOAT16, MXNetIndexError, MXNetNotImplementedError, MXNetTypeError,
                    MXNetValueError, call, core, dtype_code, fastpath, numpy_dtype)
from ..context import cpu
from ..ndarray import NDArray, indexing as _nd_indexing
from . import _dtypes
from ._array import SCALARS, adopt, asarray, astype as _astype, empty, full, invoke, operand, register
from ._manip import FUNCTIONS as _MANIP
from ._products import dot as _dot
from ._reduce import FUNCTIONS as _REDUCE
from ._ufuncs import FUNCTIONS as _UFUNCS, binary, binary_method, inplace_method, round as _round

__all__ = ["ndarray", "array", "asarray", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
           "full_like", "arange", "linspace", "eye", "from_dlpack", "astype", "tril", "triu", "meshgrid",
           "__array_namespace_info__", "identity", "indices", "logspace"]

_INFO = _dtypes.Info(cpu())


def _unary_method(name, method_name=None):
    fn = _UFUNCS[name]

    def method(self):
        return fn(self)
    method.__name__ = method.__qualname__ = method_name or name
    method.__doc__ = "Elementwise %s (mx.np.%s)." % (name, name)
    return method


class ndarray(NDArray):
    """An mx.np array: NumPy's semantics over an mxgo array (see the module docstring)."""

    __slots__ = ()

    # ---- metadata -------------------------------------------------------------------
    @property
    def dtype(self):
        """The element type, a numpy.dtype (as MXNet's mx.np); for bfloat16 without ml_dtypes,
        the string "bfloat16" (as mx.nd gives)."""
        return "bfloat16" if self._code == BFLOAT16 and NUMPY_BFLOAT16 is None else numpy_dtype(self._code)

    @property
    def device(self):
        """The device (a Context)."""
        return self.context

    def to_device(self, device, /, *, stream=None):
        """This array on ``device`` (self when already there)."""
        if stream is not None:
            raise MXNetValueError("to_device: mxgo orders work on its own engine; stream must be None")
        return asarray(self, device=device)

    def __array_namespace__(self, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise MXNetValueError("unsupported Array API version %r" % (api_version,))
        return sys.modules[__package__]

    @property
    def T(self):
        """The array with its axes reversed (a view)."""
        return _MANIP["transpose"](self)

    @property
    def mT(self):
        """The array with its last two axes swapped (a view)."""
        return _MANIP["matrix_transpose"](self)

    def __len__(self):
        if not self.shape:
            raise MXNetTypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise MXNetTypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # ---- conversion -----------------------------------------------------------------
    def __repr__(self):
        text = repr(self.asnumpy())
        if self.dtype == _dtypes.DEFAULT_FLOAT:  # MXNet leaves its default dtype out
            text = text.replace(", dtype=float32", "")
        return text if self.context.device_type == "cpu" else text[:-1] + ", ctx=%s)" % self.context

    def __str__(self):
        return str(self.asnumpy())

    def item(self, *args):
        """The element as a Python scalar (one element, or the one at the given index)."""
        values = self.asnumpy()
        if not args and values.size != 1:
            raise MXNetValueError("can only convert an array of size 1 to a Python scalar")
        return values.item(*args)

    def tolist(self):
        """The values as nested Python lists (a Python scalar for a 0-d array)."""
        return self.asnumpy().tolist()

    def __bool__(self):
        if self.size != 1:
            raise MXNetValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")
        return bool(self.item())

    def __complex__(self):
        return complex(self.item())

    def __index__(self):
        if self.shape or self.dtype.kind not in "iub":
            raise MXNetTypeError("only 0-d integer arrays can be converted to an index")
        return operator.index(self.item())

    def as_nd_ndarray(self):
        """This array as an mx.nd NDArray over the same memory."""
        return NDArray(call(core.Share, self._h))

    def as_np_ndarray(self):
        return self

    def __reduce_ex__(self, protocol):
        fn, args = NDArray.__reduce_ex__(self, protocol)
        return _unpickle, (fn, args)

    # ---- copies and dtype -----------------------------------------------------------
    def copy(self, order="C"):
        """A copy of the array (C order)."""
        out = empty(self.shape, self.dtype, self.context)
        call(core.Copy, out._h, self._h, False)
        return out

    def astype(self, dtype, copy=True, order="K", casting="unsafe", subok=True, device=None):
        """The array as ``dtype``: self when that is its dtype and copy is False."""
        return astype(self, dtype, copy=copy, device=device)

    def as_in_context(self, context):
        return self if self.context == context else asarray(self, device=context)

    as_in_ctx = as_in_context

    # ---- shape ----------------------------------------------------------------------
    # x.reshape(...): NDArrayBase's C method (pkg/pybridge/view.c) takes shapes of positive
    # ints and -1 of non-empty arrays in one call to Go; the rest come here.
    def _reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = shape[0]
        return _MANIP["reshape"](self, shape, order=order)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], numbers.Integral):
            axes = axes[0]
        return _MANIP["transpose"](self, axes or None)

    def flatten(self, order="C"):
        """A 1-d copy."""
        return _MANIP["reshape"](self, (self.size,), copy=True)

    def ravel(self, order="C"):
        """A 1-d view where possible."""
        return _MANIP["reshape"](self, (self.size,))

    def squeeze(self, axis=None):
        return _MANIP["squeeze"](self, axis)

    def expand_dims(self, axis):
        return _MANIP["expand_dims"](self, axis)

    def broadcast_to(self, shape):
        return _MANIP["broadcast_to"](self, shape)

    def swapaxes(self, axis1, axis2):
        return _MANIP["swapaxes"](self, axis1, axis2)

    def repeat(self, repeats, axis=None):
        return _MANIP["repeat"](self, repeats, axis=axis)

    def tile(self, reps):
        return _MANIP["tile"](self, reps)

    def flip(self, axis=None):
        return _MANIP["flip"](self, axis=axis)

    def take(self, indices, axis=None, mode="raise"):
        return _MANIP["take"](self, indices, axis=axis)

    def clip(self, min=None, max=None, out=None):  # noqa: A002
        return _MANIP["clip"](self, min, max, out=out)

    def sort(self, axis=-1, kind=None, order=None):
        """Sorts the array in place along ``axis``."""
        call(core.Copy, self._h, _MANIP["sort"](self, axis=axis)._h, False)

    def argsort(self, axis=-1, kind=None, order=None):
        return _MANIP["argsort"](self, axis=axis)

    def nonzero(self):
        return _MANIP["nonzero"](self)

    def dot(self, b, out=None):
        return _dot(self, b, out)

    def round(self, decimals=0, out=None):
        return _round(self, decimals, out)

    # reductions, as NumPy's methods (axis positional)
    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return _REDUCE["sum"](self, axis=axis, dtype=dtype, keepdims=keepdims, out=out)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return _REDUCE["prod"](self, axis=axis, dtype=dtype, keepdims=keepdims, out=out)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return _REDUCE["mean"](self, axis=axis, dtype=dtype, keepdims=keepdims, out=out)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _REDUCE["std"](self, axis=axis, dtype=dtype, correction=ddof, keepdims=keepdims, out=out)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _REDUCE["var"](self, axis=axis, dtype=dtype, correction=ddof, keepdims=keepdims, out=out)

    def max(self, axis=None, out=None, keepdims=False):
        return _REDUCE["max"](self, axis=axis, keepdims=keepdims, out=out)

    def min(self, axis=None, out=None, keepdims=False):
        return _REDUCE["min"](self, axis=axis, keepdims=keepdims, out=out)

    def all(self, axis=None, out=None, keepdims=False):
        return _REDUCE["all"](self, axis=axis, keepdims=keepdims, out=out)

    def any(self, axis=None, out=None, keepdims=False):
        return _REDUCE["any"](self, axis=axis, keepdims=keepdims, out=out)

    def argmax(self, axis=None, out=None, keepdims=False):
        return _REDUCE["argmax"](self, axis=axis, keepdims=keepdims, out=out)

    def argmin(self, axis=None, out=None, keepdims=False):
        return _REDUCE["argmin"](self, axis=axis, keepdims=keepdims, out=out)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _REDUCE["cumsum"](self, axis=axis, dtype=dtype, out=out)

    # elementwise methods MXNet's mx.np.ndarray has
    abs, sqrt, exp, log, sin, cos, tanh, square = (_unary_method(n) for n in (
        "abs", "sqrt", "exp", "log", "sin", "cos", "tanh", "square"))

    # ---- indexing -------------------------------------------------------------------
    # x[key]: NDArrayBase's C slot (pkg/pybridge/view.c) indexes basic keys in one call to
    # Go with NumPy's rules (this class is registered for them below); the rest come here.
    def _getitem(self, key):
        if _is_bool_array(key) and key.ndim == 0:  # x[True]: x in a new axis of 1; x[False]: of 0
            return self.reshape((1,) + self.shape)[:int(bool(key))].copy()
        key = _bool_keys(self, key)
        if _nd_indexing.is_advanced(key):
            return adopt(_nd_indexing.gather(self, key))
        return type(self)(call(core.GetItem, self._h, _nd_indexing.encode_key(key), False))

    def __setitem__(self, key, value):
        if isinstance(value, SCALARS + (list, tuple)) or isinstance(value, _onp.ndarray):
            value = asarray(value) if not isinstance(value, SCALARS) else value
        mask = _mask_of(key, self.ndim)
        if mask is not None:  # x[mask] = v: where(mask, v, x), written back
            m = _MANIP["broadcast_to"](_MANIP["reshape"](mask, mask.shape + (1,) * (self.ndim - mask.ndim)), self.shape)
            picked = _MANIP["where"](m, value if isinstance(value, SCALARS) else _astype(operand(value), self.dtype), self)
            call(core.Copy, self._h, _astype(picked, self.dtype)._h, False)
            return
        NDArray.__setitem__(self, key, value)

    # ---- operators ------------------------------------------------------------------
    __add__, __radd__, __iadd__ = binary_method("add"), binary_method("add", True), inplace_method("add")
    __sub__, __rsub__, __isub__ = binary_method("subtract"), binary_method("subtract", True), inplace_method("subtract")
    __mul__, __rmul__, __imul__ = binary_method("multiply"), binary_method("multiply", True), inplace_method("multiply")
    __truediv__, __rtruediv__ = binary_method("divide"), binary_method("divide", True)
    __itruediv__ = inplace_method("divide")
    __mod__, __rmod__, __imod__ = binary_method("remainder"), binary_method("remainder", True), inplace_method("remainder")
    __pow__, __rpow__, __ipow__ = binary_method("pow"), binary_method("pow", True), inplace_method("pow")
    __eq__, __ne__ = binary_method("equal"), binary_method("not_equal")
    __lt__, __le__ = binary_method("less"), binary_method("less_equal")
    __gt__, __ge__ = binary_method("greater"), binary_method("greater_equal")
    __floordiv__, __rfloordiv__ = binary_method("floor_divide"), binary_method("floor_divide", True)
    __ifloordiv__ = inplace_method("floor_divide")
    __and__, __rand__, __iand__ = binary_method("bitwise_and"), binary_method("bitwise_and", True), inplace_method("bitwise_and")
    __or__, __ror__, __ior__ = binary_method("bitwise_or"), binary_method("bitwise_or", True), inplace_method("bitwise_or")
    __xor__, __rxor__, __ixor__ = binary_method("bitwise_xor"), binary_method("bitwise_xor", True), inplace_method("bitwise_xor")
    __lshift__, __rlshift__ = binary_method("bitwise_left_shift"), binary_method("bitwise_left_shift", True)
    __ilshift__ = inplace_method("bitwise_left_shift")
    __rshift__, __rrshift__ = binary_method("bitwise_right_shift"), binary_method("bitwise_right_shift", True)
    __irshift__ = inplace_method("bitwise_right_shift")
    __hash__ = NDArray.__hash__

    __invert__ = _unary_method("bitwise_not", "__invert__")

    def __matmul__(self, other):
        return _MANIP["matmul"](self, other)

    def __rmatmul__(self, other):
        return _MANIP["matmul"](other, self)

    __neg__ = _unary_method("negative", "__neg__")

    __pos__ = _unary_method("positive", "__pos__")

    __abs__ = _unary_method("abs", "__abs__")


fastpath.set_np_class(ndarray)  # x[key] with NumPy's rules: x[3] of a vector is 0-d

def _unpickle(fn, args):
    """An mx.np array from NDArray's pickle (fn(*args) makes the NDArray)."""
    return adopt(fn(*args))


_BOOL_CODE = dtype_code("bool")


def _is_bool_array(k):
    if isinstance(k, fastpath.NDArrayBase):
        return k._code == _BOOL_CODE  # not k.dtype, which builds a NumPy dtype
    return isinstance(k, _onp.ndarray) and k.dtype == _onp.bool_


def _mask_of(key, ndim):
    """The boolean array of a key that is one mask (x[mask]), else None."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if _is_bool_array(k):
        return operand(k) if not isinstance(k, fastpath.NDArrayBase) else k
    return None


def _bool_keys(x, key):
    """key with each boolean array replaced by the integer arrays of its true positions
    (NumPy's rule: a k-d mask indexes k axes)."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(_is_bool_array(k) for k in items):
        return key
    out, dim = [], 0
    for k in items:
        if _is_bool_array(k):
            mask = operand(k)
            if mask.shape != x.shape[dim:dim + mask.ndim]:
                raise MXNetIndexError("boolean index of shape %s does not match the indexed axes %s"
                                      % (mask.shape, x.shape[dim:dim + mask.ndim]))
            out.extend(_onp.nonzero(mask.asnumpy()) if mask.ndim else [_onp.nonzero(mask.asnumpy().reshape(1))[0]])
            dim += mask.ndim
        else:
            out.append(k)
            dim += k is not None
    return tuple(out)


# ---- creation ------------------------------------------------------------------------------

def array(object, dtype=None, ctx=None, copy=True, device=None):  # noqa: A002  (NumPy's name)
    """A new array holding a copy of ``object`` (float32 for Python floats, as MXNet)."""
    return asarray(object, dtype=dtype, device=device or ctx, copy=True if copy else None)


def zeros(shape, dtype=None, order="C", ctx=None, device=None):
    """An array of zeros (float32 unless ``dtype`` is given)."""
    return full(shape, 0, dtype or _dtypes.DEFAULT_FLOAT, device or ctx)


def ones(shape, dtype=None, order="C", ctx=None, device=None):
    """An array of ones (float32 unless ``dtype`` is given)."""
    return full(shape, 1, dtype or _dtypes.DEFAULT_FLOAT, device or ctx)


def _like(fn):
    def like(x, /, *args, dtype=None, device=None, ctx=None, **kwargs):
        x = operand(x, "x")
        return fn(x.shape, *args, dtype=dtype or x.dtype, device=device or ctx or x.context, **kwargs)
    like.__name__ = fn.__name__ + "_like"
    like.__doc__ = "An array like x (its shape, dtype and device unless given): see %s." % fn.__name__
    return like


empty_like = _like(lambda shape, dtype=None, device=None: empty(shape, dtype, device))
empty_like.__name__ = "empty_like"
zeros_like = _like(lambda shape, dtype=None, device=None: full(shape, 0, dtype, device))
zeros_like.__name__ = "zeros_like"
ones_like = _like(lambda shape, dtype=None, device=None: full(shape, 1, dtype, device))
ones_like.__name__ = "ones_like"


def full_like(x, /, fill_value, *, dtype=None, device=None, ctx=None):
    """An array like x (its shape, dtype and device unless given) of ``fill_value``."""
    x = operand(x, "x")
    return full(x.shape, fill_value, dtype or x.dtype, device or ctx or x.context)


def astype(x, dtype, /, *, copy=True, device=None):
    """x as ``dtype`` (a copy unless copy is False and nothing changes)."""
    x = operand(x, "x")
    dt = _dtypes.as_dtype(dtype)
    if not copy and dt == x.dtype and (device is None or device == x.context):
        return x if type(x) is ndarray else asarray(x)
    out = empty(x.shape, dt, device or x.context)
    call(core.Copy, out._h, x._h, False)
    return out


def arange(start, /, stop=None, step=1, *, dtype=None, ctx=None, device=None):
    """Evenly spaced values in [start, stop): int64 for ints, float32 for floats unless ``dtype``."""
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if not isinstance(v, (numbers.Real,)) or isinstance(v, bool):
            raise MXNetTypeError("arange: start, stop and step must be real numbers, got %r" % (v,))
    if step == 0:
        raise MXNetValueError("arange: step must not be zero")
    if dtype is None:
        dtype = _dtypes.DEFAULT_INT if all(isinstance(v, numbers.Integral) for v in (start, stop, step)) else (
            _dtypes.DEFAULT_FLOAT)
    n = max(0, math.ceil((stop - start) / step))
    out = empty((n,), dtype, device or ctx)
    if n:
        call(core.Arange, out._h, float(start), float(step))
    return out


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, ctx=None):
    """``num`` evenly spaced values from start to stop (included when ``endpoint``)."""
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT
    if dt.kind == "c" or isinstance(start, complex) or isinstance(stop, complex):
        raise MXNetTypeError("linspace: complex values are not supported yet")
    out = invoke("_linspace", [], {"start": start, "stop": stop, "num": num, "endpoint": endpoint, "dtype": dt.name})
    if endpoint and num > 1:
        out[num - 1] = stop  # exactly, as NumPy's (start + i * step rounds)
    dev = device or ctx
    return out if dev is None else out.as_in_context(dev)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """``num`` values spaced evenly on a log scale, base ** start to base ** stop: NumPy's
    power(base, linspace(start, stop)) computed in float64, then cast to ``dtype`` (float32
    unless given); scalar start and stop, axis 0, as MXNet."""
    if axis != 0:
        raise MXNetNotImplementedError("logspace: the function only supports axis 0 (as MXNet)")
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT
    exponents = linspace(start, stop, num, dtype="float64", endpoint=endpoint, ctx=ctx)
    return _astype(binary("pow", float(base), exponents), dt)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, ctx=None):
    """A 2-d array with ones on diagonal ``k`` and zeros elsewhere."""
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT
    cols = n_rows if n_cols is None else n_cols
    if n_rows == 0 or cols == 0:
        return full((n_rows, cols), 0, dt, device or ctx)
    out = invoke("_eye", [], {"N": n_rows, "M": cols, "k": k, "dtype": dt.name if dt.kind != "b" else "uint8"})
    out = _astype(out, dt)
    dev = device or ctx
    return out if dev is None else out.as_in_context(dev)


def identity(n, dtype=None, ctx=None):
    """The n x n identity matrix (float32 unless ``dtype``)."""
    return eye(operator.index(n), dtype=dtype, ctx=ctx)


def indices(dimensions, dtype=_dtypes.int32, ctx=None):
    """A grid's indices: ``result[i]`` holds each position's index along axis i (int32,
    MXNet's default; NumPy's is int64)."""
    dims = tuple(operator.index(d) for d in dimensions)
    dt = _dtypes.as_dtype(dtype)
    grids = [_MANIP["broadcast_to"](arange(d, dtype=dt, ctx=ctx).reshape([-1 if j == i else 1 for j in range(len(dims))]),
                                    dims) for i, d in enumerate(dims)]
    return _MANIP["stack"](grids) if grids else empty((0,), dt, ctx)


def _tri(x, k, upper):
    x = operand(x, "x")
    if x.ndim < 2:
        raise MXNetValueError("tril/triu need at least 2 dimensions")
    rows, cols = x.shape[-2:]
    i = arange(rows, device=x.context).reshape(rows, 1)
    j = arange(cols, device=x.context).reshape(1, cols)
    keep = binary("greater_equal", binary("subtract", j, i), k) if upper else binary("less_equal", binary("subtract", j, i), k)
    return _MANIP["where"](keep, x, full((), 0, x.dtype, x.context))


def tril(x, /, *, k=0):
    """x with the elements above diagonal ``k`` zeroed."""
    return _tri(x, k, False)


def triu(x, /, *, k=0):
    """x with the elements below diagonal ``k`` zeroed."""
    return _tri(x, k, True)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate arrays from 1-d arrays ('xy': Cartesian, 'ij': matrix indexing)."""
    if indexing not in ("xy", "ij"):
        raise MXNetValueError("meshgrid: indexing must be 'xy' or 'ij'")
    arrays = [operand(a) for a in arrays]
    if any(a.ndim != 1 for a in arrays):
        raise MXNetValueError("meshgrid takes 1-d arrays")
    shape = [a.size for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and len(arrays) > 1 and i < 2:
            axis = 1 - i
        view = _MANIP["reshape"](a, [a.size if d == axis else 1 for d in range(len(shape))])
        out.append(_MANIP["broadcast_to"](view, tuple(shape)))
    dt = _dtypes.result_type(*arrays)
    return [_astype(o, dt) for o in out]


def from_dlpack(x, /, *, device=None, copy=None):
    """An mx.np array over another framework's memory (DLPack), as mx.nd.from_dlpack."""
    return adopt(_from_dlpack(x, device=device, copy=copy))


def __array_namespace_info__():
    """The Array API standard's inspection object: devices, dtypes, capabilities."""
    return _INFO


register(ndarray)
