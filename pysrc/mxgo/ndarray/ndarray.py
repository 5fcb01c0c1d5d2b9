"""The NDArray class and the functions that create arrays.

NDArray is mx.nd's array class, over the array core (mxgo/_core: the C base that holds
the Go handle, allocation and NumPy copies, the operator registry). Its whole body is
here: the methods that other mx.nd modules provide (operators and method forms from op.py,
advanced indexing, split, topk) are taken from them in the class body, and those modules
know arrays only by the C base. Registering the class with C (``fastpath.set_array_class``,
at the end) makes every array C creates an NDArray.
"""
import math
import numbers
import operator
import pickle

import numpy as np

from .._core.array import (FLOAT32, borrow_numpy, copy_from_numpy, copy_into_numpy, copy_numpy, empty,
                           numpy_values, shape_str)
from ..base import (BFLOAT16, DTYPE_NAMES, ITEMSIZES, NUMPY_BFLOAT16, MXNetError, MXNetIndexError, MXNetTypeError,
                    MXNetValueError, call, core, dtype_code, fastpath, mxnet_error, numpy_dtype)
from .. import autograd as _autograd
from ..context import Context
from . import indexing as _indexing
from . import layout as _layout
from . import op as _ops
from .op import is_scalar, scalar_args

__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "linspace", "eye", "from_numpy", "waitall"]

#: dtype codes this NumPy will not import by DLPack (asnumpy copies through Go instead)
_NUMPY_REFUSES = {BFLOAT16}
#: whether np.from_dlpack asks for versioned capsules, which can say read-only (NumPy 2.1)
_NUMPY_TAKES_READ_ONLY = tuple(int(v) for v in np.__version__.split(".")[:2]) >= (2, 1)
#: DLPack's code for host memory: arrays elsewhere (mx.gpu) are copied through Go
_CPU_TYPE = Context.devstr2type["cpu"]
#: [mx.np.ndarray]: mxgo.numpy (above this package) registers its class here when imported
NP_CLASS: list[type] = []


class NDArray(fastpath.NDArrayBase):
    """An n-dimensional array in memory owned by mxgo's Go core (or borrowed from another
    framework through DLPack or ``from_numpy``).

    The C base holds the Go handle (freed when the object dies) and the metadata read
    once from Go: ``shape``, ``strides`` (in elements), ``writable`` and ``handle``; an
    NDArray's shape, dtype, strides and device never change. The DLPack methods
    (``to_dlpack_for_read``, ``to_dlpack_for_write``, ``__dlpack__``,
    ``__dlpack_device__``) are implemented in C too: each is one call into Go.
    """

    __slots__ = ()
    # NumPy ufuncs and operators refuse NDArrays (so `x + np_array` and `np_array + x` both
    # raise TypeError, as in MXNet) instead of silently converting them; np.asarray(x)
    # still works through __array__.
    __array_ufunc__ = None

    # ---- metadata -------------------------------------------------------------------
    @property
    def dtype(self):
        """NumPy scalar type of the elements (``np.float32``, ...). For bfloat16: ml_dtypes'
        type where installed, else the string "bfloat16"."""
        if self._code == BFLOAT16 and NUMPY_BFLOAT16 is None:
            return "bfloat16"
        return numpy_dtype(self._code).type

    @property
    def size(self):
        """Number of elements."""
        return math.prod(self._shape)

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self._shape)

    @property
    def context(self):
        """The device the array lives on."""
        return Context(Context.devtype2str.get(self._devtype, "cpu"), self._devid)

    ctx = context

    def __len__(self):
        if not self._shape:
            raise MXNetTypeError("len() of a 0-d array")
        return self._shape[0]

    # ---- synchronisation ----------------------------------------------------------------
    # Operations run asynchronously on mxgo's dependency engine; these wait for them and
    # raise the first error of an operation that wrote this array.
    # ---- conversion ---------------------------------------------------------------
    def asnumpy(self):
        """Returns a NumPy copy of the array."""
        if self._devtype == _CPU_TYPE and self._code not in _NUMPY_REFUSES and (self._writable or _NUMPY_TAKES_READ_ONLY):
            self.wait_to_read()  # raises the engine's errors, which the except below must not see
            try:  # NumPy copies from a DLPack view: all in C
                return np.array(np.from_dlpack(self))
            except (BufferError, TypeError, RuntimeError):  # NumPy < 2.1 has no bool; none bfloat16
                _NUMPY_REFUSES.add(self._code)
        out = np.empty(self._shape, dtype=numpy_dtype(self._code))
        copy_into_numpy(out, self)
        return out

    def asscalar(self):
        """Returns the only element as a NumPy scalar; ValueError unless size is 1."""
        if self.size != 1:
            raise MXNetValueError("the array is not a scalar: it has shape %s" % (self._shape,))
        return self.asnumpy().reshape(-1)[0]

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise MXNetValueError("NDArray.__array__ always copies; use np.from_dlpack(x) for a zero-copy view")
        out = self.asnumpy()
        return out if dtype is None else out.astype(dtype, copy=False)

    def __bool__(self):
        if self.size == 0:
            return False  # as in MXNet
        if self.size != 1:
            raise MXNetValueError("the truth value of an array with more than one element is ambiguous")
        return bool(self.asscalar())

    def __float__(self):
        return float(self.asscalar())

    def __int__(self):
        return int(self.asscalar())

    def __repr__(self):
        shape_info = "x".join("%d" % d for d in self._shape)
        shown = self.astype("float32") if self._code == BFLOAT16 and NUMPY_BFLOAT16 is None else self
        body = str(shown.asnumpy())
        return "\n%s\n<%s %s @%s>" % (body, type(self).__name__, shape_info, self.context)  # MXNet's format

    # ---- copies and views ---------------------------------------------------------------
    def copy(self):
        """Returns a deep copy on the same device."""
        return self.copyto(self.context)

    def copyto(self, other):
        """Copies into ``other``: an NDArray of the same shape (returned), or a Context (a new array there)."""
        if isinstance(other, Context):
            out = empty(self._shape, ctx=other, dtype=DTYPE_NAMES[self._code])
            out.__class__ = type(self)  # (a subclass's copy is of its class: mx.np's ndarray)
        elif isinstance(other, NDArray):
            out = other
        else:
            raise MXNetTypeError("copyto expects an NDArray or a Context, got %s" % type(other).__name__)
        call(core.Copy, out._h, self._h, False)
        return out

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce_ex__(self, protocol):
        """Pickles the array's values: an independent, writable array on the same device
        comes back (views pickle as compact copies of what they show). With protocol 5
        the values travel as a PickleBuffer over the array's memory, which pickle hands
        to a ``buffer_callback`` without copying (out of band, as NumPy does); other
        protocols embed a copy as bytes."""
        src = self
        if self._devtype != _CPU_TYPE:  # device memory: its values through a host copy
            values = self.asnumpy()
            data = pickle.PickleBuffer(values) if protocol >= 5 else values.tobytes()
            return _unpickle, (_PICKLE_VERSION, DTYPE_NAMES[self._code], self._shape,
                               (self._devtype, self._devid), data)
        try:
            data = fastpath.ByteView(src)
        except BufferError:  # not C-contiguous: a compact copy of the values
            src = self.copy()
            data = fastpath.ByteView(src)
        src.wait_to_read()  # pending writes land first, and their errors are raised here
        data = pickle.PickleBuffer(data) if protocol >= 5 else bytes(data)
        return _unpickle, (_PICKLE_VERSION, DTYPE_NAMES[self._code], self._shape,
                           (self._devtype, self._devid), data)

    def as_np_ndarray(self):
        """This array as an mx.np ndarray: a second handle on the same memory and autograd
        entry (MXNet's shallow copy)."""
        x = NDArray(call(core.Share, self._h))
        x.__class__ = NP_CLASS[0]
        return x

    def as_nd_ndarray(self):
        """Self: it is an mx.nd array already."""
        return self

    def as_in_context(self, context):
        """Returns self if it is already on ``context``, else a copy there."""
        return self if self.context == context else self.copyto(context)

    def astype(self, dtype, copy=True):
        """Returns the array cast to ``dtype`` (self when the dtype matches and copy is False)."""
        code = dtype_code(dtype)
        if code == self._code and not copy:
            return self
        out = empty(self._shape, ctx=self.context, dtype=DTYPE_NAMES[code])
        call(core.Copy, out._h, self._h, False)
        return out

    # x.reshape(...): NDArrayBase's C method (pkg/pybridge/view.c, whose docstring users
    # see) takes shapes of exact ints in one call to Go; the rest come here.
    def _reshape(self, *shape, **kwargs):
        if "shape" in kwargs:
            shape = kwargs.pop("shape")
        elif len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = shape[0]
        reverse = bool(kwargs.pop("reverse", False))
        if kwargs:
            raise MXNetTypeError("reshape got unexpected arguments %s" % sorted(kwargs))
        return type(self)(call(core.Reshape, self._h, shape_str(shape), reverse))

    def transpose(self, *axes):
        """Returns a view with the axes permuted (reversed when none are given), sharing
        memory: ``x.transpose()``, ``x.transpose(1, 0, 2)`` or ``x.transpose((1, 0, 2))``."""
        if len(axes) == 1 and not isinstance(axes[0], numbers.Integral):
            axes = axes[0]
        return type(self)(call(core.Transpose, self._h, shape_str(axes) if axes else ""))

    @property
    def T(self):
        """The transposed view (axes reversed)."""
        return self.transpose()

    # ---- autograd (mx.autograd) -----------------------------------------------------------
    def attach_grad(self, grad_req="write", stype=None):
        """Makes this array a variable: ``backward`` stores its gradient in ``.grad``, a
        new zero array, by ``grad_req`` ('write', 'add' or 'null')."""
        if stype not in (None, "default"):
            raise MXNetValueError("attach_grad: mxgo has only dense arrays (stype 'default'), got %r" % (stype,))
        grad = empty(self._shape, ctx=self.context, dtype=DTYPE_NAMES[self._code])
        fastpath.fill(grad, True, 0, 0.0, 0.0)
        _autograd.mark_variables(self, grad, grad_req)

    @property
    def grad(self):
        """The gradient buffer of a variable (``attach_grad``), None for other arrays."""
        h = call(core.GradOf, self._h)
        return type(self)(h) if h else None

    @property
    def _fresh_grad(self):
        """Whether a backward stored this variable's gradient since the flag was last
        cleared (Gluon's Trainer clears it at each update, and warns of stale gradients)."""
        return call(core.FreshGrad, self._h)

    @_fresh_grad.setter
    def _fresh_grad(self, value):
        call(core.SetFreshGrad, self._h, bool(value))

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """Computes the gradient of this array with respect to the variables it was
        recorded from (``out_grad``: its own gradient, ones by default)."""
        _autograd.backward(self, None if out_grad is None else [out_grad], retain_graph, train_mode)

    def detach(self):
        """This array's memory as an array that takes part in no recorded graph."""
        return type(self)(call(core.Detach, self._h))

    # x[key]: NDArrayBase's C slot (pkg/pybridge/view.c) indexes basic keys (exact ints,
    # slices of them, None, ...) in one call to Go, with the rules below; the rest come here.
    def _getitem(self, key):
        if _indexing.is_advanced(key):
            return _indexing.getitem(self, key)
        return NDArray(call(core.GetItem, self._h, _indexing.encode_key(key), True))  # MXNet's rules: no 0-d

    def __setitem__(self, key, value):
        # While recording, a recorded value assigned to the whole array is recorded as a
        # copy (broadcast first if need be): the array becomes its result, as MXNet's
        # copyto makes it. Into part of an array MXNet refuses it (_slice_assign and
        # _scatter_set_nd write their own input), and so does mxgo.
        recorded = isinstance(value, NDArray) and _autograd.is_recording() and call(core.InGraph, value._h)
        if _indexing.is_advanced(key):
            if recorded:
                _refuse_inplace(self)
            return _indexing.setitem(self, key, value)
        whole = _selects_all(key, self._shape)
        target = self if whole else self[key]
        if not target._writable:
            raise MXNetValueError("assignment destination is read-only")
        if isinstance(value, NDArray):
            if recorded and not whole:
                _refuse_inplace(self)
            if recorded and value._shape != target._shape:
                value = _broadcast_value(value, target._shape)
            if value._shape == target._shape:
                call(core.Copy, target._h, value._h, False)
                return
            value = value.asnumpy()
        if is_scalar(value):
            if type(value) is complex and not DTYPE_NAMES[target._code].startswith("complex"):
                raise MXNetTypeError("cannot assign a complex value to a %s array" % DTYPE_NAMES[target._code])
            fastpath.fill(target, *scalar_args(value))
            return
        src = np.asarray(value)
        if src.dtype == object or src.dtype.kind in "USVMm":
            raise MXNetTypeError("cannot assign values of dtype %s to an NDArray" % src.dtype)
        extra = src.ndim - len(target._shape)
        if extra > 0 and all(d == 1 for d in src.shape[:extra]):
            src = src.reshape(src.shape[extra:])  # NumPy drops leading length-1 axes of the value
        # order="C" rather than ascontiguousarray, which turns 0-d arrays into 1-d ones
        try:
            src = np.asarray(np.broadcast_to(src, target._shape), order="C")
        except ValueError as err:  # NumPy's message, raised as mxgo's (an MXNetError too)
            raise MXNetValueError(str(err)) from None
        copy_from_numpy(target, src)

    # ---- operators and MXNet's method forms, from the operator registry (op.py) -------------
    # Two NDArrays, or an NDArray and a Python float or int, go straight to C; anything
    # else through _binary.
    __add__, __radd__, __iadd__ = _ops.binary_methods("add", "add")
    __sub__, __rsub__, __isub__ = _ops.binary_methods("subtract", "sub")
    __mul__, __rmul__, __imul__ = _ops.binary_methods("multiply", "mul")
    __truediv__, __rtruediv__, __itruediv__ = _ops.binary_methods("divide", "truediv")
    __div__, __rdiv__, __idiv__ = _ops.binary_methods("divide", "div")
    __matmul__, __rmatmul__, __imatmul__ = _ops.binary_methods("matmul", "matmul")
    __mod__, __rmod__, __imod__ = _ops.binary_methods("modulo", "mod")
    # Comparisons give 1 or 0 in the operands' dtype, as in MXNet: (x > 2) * x works.
    __eq__ = _ops.compare_method("equal", "eq")
    __ne__ = _ops.compare_method("not_equal", "ne")
    __gt__ = _ops.compare_method("greater", "gt")
    __ge__ = _ops.compare_method("greater_equal", "ge")
    __lt__ = _ops.compare_method("lesser", "lt")
    __le__ = _ops.compare_method("lesser_equal", "le")

    def __hash__(self):  # by identity, as MXNet's (== compares elements, so Python would drop it)
        return id(self) // 16
    sum, mean, prod, max, min = (_ops.method(n) for n in ("sum", "mean", "prod", "max", "min"))
    argmax, argmin, dot, clip = (_ops.method(n) for n in ("argmax", "argmin", "dot", "clip"))
    abs, sign, exp, log, sqrt, square = (_ops.method(n) for n in ("abs", "sign", "exp", "log", "sqrt", "square"))
    sin, cos, tanh, sigmoid, relu = (_ops.method(n) for n in ("sin", "cos", "tanh", "sigmoid", "relu"))
    # MXNet's methods of the elementwise math operators (math_unary.go)
    arccos, arcsin, arctan, arccosh, arcsinh, arctanh = (_ops.method(n) for n in (
        "arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh"))
    cosh, sinh, tan, cbrt, rcbrt, rsqrt, reciprocal = (_ops.method(n) for n in (
        "cosh", "sinh", "tan", "cbrt", "rcbrt", "rsqrt", "reciprocal"))
    expm1, log1p, log2, log10, degrees, radians = (_ops.method(n) for n in (
        "expm1", "log1p", "log2", "log10", "degrees", "radians"))
    fix, rint, round, ceil, floor, trunc = (_ops.method(n) for n in ("fix", "rint", "round", "ceil", "floor", "trunc"))
    swapaxes, flip, tile, repeat = (_ops.method(n) for n in ("swapaxes", "flip", "tile", "repeat"))
    broadcast_axes, slice_axis, take, pick = (_ops.method(n) for n in ("broadcast_axes", "slice_axis", "take", "pick"))
    one_hot, diag, zeros_like, ones_like = (_ops.method(n) for n in ("one_hot", "diag", "zeros_like", "ones_like"))
    sort, argsort, topk = _ops.method("sort"), _ops.method("argsort"), _ops.method("topk")
    softmax, log_softmax, softmin = (_ops.method(n) for n in ("softmax", "log_softmax", "softmin"))
    norm, nansum, nanprod, argmax_channel = (_ops.method(n) for n in ("norm", "nansum", "nanprod", "argmax_channel"))
    pad, slice, slice_like, reshape_like = (_ops.method(n) for n in ("pad", "slice", "slice_like", "reshape_like"))
    shape_array, size_array = _ops.method("shape_array"), _ops.method("size_array")
    depth_to_space, space_to_depth = _ops.method("depth_to_space"), _ops.method("space_to_depth")
    split, split_v2 = _layout.split_method, _layout.split_v2_method

    # MXNet's Python-level methods: a copy, or with inplace=True a view (reshape's rules)
    def expand_dims(self, axis, inplace=False):
        """Inserts an axis of length 1 at ``axis`` (-ndim-1 <= axis <= ndim)."""
        if not inplace:
            return _ops.invoke("expand_dims", [self], {"axis": axis})
        n = len(self._shape)
        axis = operator.index(axis)
        if not -n - 1 <= axis <= n:
            raise MXNetIndexError("expand_dims: axis %d is out of range for a %d-d array" % (axis, n))
        shape = list(self._shape)
        shape.insert(axis + n + 1 if axis < 0 else axis, 1)
        return self.reshape(shape)

    def squeeze(self, axis=None, inplace=False):
        """Removes axes of length 1 (all of them when ``axis`` is None); shape (1,) if none is left."""
        if not inplace:
            return _ops.invoke("squeeze", [self], {"axis": axis})
        n = len(self._shape)
        axes = [i for i, d in enumerate(self._shape) if d == 1] if axis is None else (
            [axis] if isinstance(axis, numbers.Integral) else list(axis))
        drop = {operator.index(a) % n if n and -n <= a < n else None for a in axes}
        if None in drop or len(drop) != len(axes) or any(self._shape[a] != 1 for a in drop):
            raise MXNetValueError("squeeze: cannot squeeze axes %r of an array of shape %s" % (axis, self._shape))
        return self.reshape([d for i, d in enumerate(self._shape) if i not in drop] or [1] * bool(n))

    def flatten(self, inplace=False):
        """Collapses every axis but the first: shape (d0, d1*...*dk)."""
        if not inplace:
            return _ops.invoke("flatten", [self])
        return self.reshape((self._shape[0], math.prod(self._shape[1:])) if self._shape else (1, 1))

    def broadcast_to(self, shape):
        """A copy broadcast to ``shape``, which may have more axes (added in front) than the array."""
        shape = tuple(shape)
        cur = self._shape
        if len(shape) < len(cur) or any(c not in (s, 1) for c, s in zip((1,) * (len(shape) - len(cur)) + cur, shape)):
            raise MXNetValueError("operands could not be broadcast together with remapped shapes"
                             "[original->remapped]: %s and requested shape %s" % (cur, shape))
        src = self if len(shape) == len(cur) else self.reshape((1,) * (len(shape) - len(cur)) + cur)
        return _ops.invoke("broadcast_to", [src], {"shape": shape})

    def broadcast_like(self, other):
        """A copy broadcast to ``other``'s shape (see broadcast_to)."""
        return self.broadcast_to(other.shape)

    def _binary(self, name, other, out=None, reverse=False):
        """self <name> other through the operator registry (other <name> self when reverse)."""
        if is_scalar(other):
            scalar_op = _ops.OPS[name].get("scalar_op")
            if scalar_op is None:
                return NotImplemented
            return _ops.invoke(scalar_op, [self], {"scalar": other, "reverse": reverse}, out)
        if isinstance(other, NDArray):  # both mxgo's: straight to C (what invoke would do)
            result = fastpath.invoke(_ops.OPS[name]["id"], (other, self) if reverse else (self, other), out, "")
            return out if result is None else result
        return NotImplemented

    def __pow__(self, other, modulo=None):
        if modulo is not None:
            return NotImplemented
        return self._binary("power", other)

    def __rpow__(self, other):
        return self._binary("power", other, reverse=True)

    def __ipow__(self, other):
        return self._binary("power", other, out=self)

    __neg__ = _ops.unary_method("negative", "neg")
    __abs__ = _ops.unary_method("abs", "abs")


# ---- helpers ---------------------------------------------------------------------------

#: the layout of NDArray.__reduce_ex__'s arguments to _unpickle, for readers of old pickles
_PICKLE_VERSION = 1


def _unpickle(version, dtype, shape, device, data):
    """Rebuilds a pickled NDArray (see NDArray.__reduce_ex__): a new array holding a copy
    of ``data``. Everything read is checked before anything is allocated, so a tampered
    or truncated pickle raises pickle.UnpicklingError instead of making a wrong array."""
    def bad(why):
        return pickle.UnpicklingError("not a valid mxgo NDArray pickle: %s" % why)

    if version != _PICKLE_VERSION or type(version) is not int:
        raise bad("format version %r (this mxgo reads %d)" % (version, _PICKLE_VERSION))
    if type(dtype) is not str or dtype not in DTYPE_NAMES:
        raise bad("unknown dtype %r" % (dtype,))
    if type(shape) is not tuple or not all(type(d) is int and d >= 0 for d in shape):
        raise bad("shape %r is not a tuple of non-negative ints" % (shape,))
    if (type(device) is not tuple or len(device) != 2 or not all(type(v) is int for v in device)
            or device[0] not in Context.devtype2str or not 0 <= device[1] < 1 << 31):
        raise bad("device %r is not a (DLPack device type, id) pair mxgo knows" % (device,))
    code = dtype_code(dtype)
    itemsize = ITEMSIZES[code]
    try:
        raw = memoryview(data).cast("B")
    except (TypeError, ValueError, BufferError) as err:
        raise bad("the data is not a contiguous buffer (%s)" % err) from None
    expected = math.prod(shape) * itemsize
    if raw.nbytes != expected:
        raise bad("%d bytes of data for shape %s of %s (%d bytes)" % (raw.nbytes, shape, dtype, expected))
    if fastpath.in_forked_child():
        return _unpickle_in_forked_child(raw, code, shape)
    ctx = Context(Context.devtype2str[device[0]], device[1])
    out = empty(shape, ctx, dtype)
    # Opaque items of the right size read any dtype (bfloat16 too) from any alignment.
    src = np.frombuffer(raw, dtype=np.dtype((np.void, itemsize))).reshape(shape)
    copy_from_numpy(out, src, code)
    return out


def _unpickle_in_forked_child(raw, code, shape):
    """A forked child cannot make mxgo memory (base._forked_child), and raising here would
    kill a multiprocessing.Pool worker while it reads its task, hanging the pool: the
    child gets an NDArray over a NumPy copy instead, made in C, whose first use that needs
    Go raises the forked-child error where Pool reports it."""
    try:
        out = fastpath.from_numpy(np.frombuffer(raw, numpy_dtype(code)).reshape(shape).copy())
    except TypeError:  # bfloat16 without ml_dtypes: no NumPy array holds it
        out = NotImplemented
    if out is NotImplemented:  # (or NumPy's layout is unknown to C: base.NUMPY_FASTPATH)
        raise MXNetError(fastpath.FORKED_MESSAGE)
    return out


def _selects_all(key, shape):
    """Whether a basic-indexing key selects every element of an array of shape in order
    (x[:], x[...], x[:, 0:n]): an assignment to it is MXNet's copyto, not _slice_assign."""
    if key == slice(None):  # x[:] = v, 0-d arrays included
        return True
    items = key if isinstance(key, tuple) else (key,)
    if sum(1 for k in items if k is Ellipsis) > 1 or len([k for k in items if k is not Ellipsis]) > len(shape):
        return False
    dim = 0
    for k in items:
        if k is Ellipsis:
            dim = len(shape) - sum(1 for j in items[items.index(k) + 1:])
            continue
        if not isinstance(k, slice):
            return False
        try:
            if k.indices(shape[dim]) != (0, shape[dim], 1):
                return False
        except (TypeError, ValueError):  # a step of 0, bounds that are not ints: the indexing raises it
            return False
        dim += 1
    return True


def _refuse_inplace(target):
    """Refuses, as MXNet does, a recorded value written into part of target while recording.
    A target in a graph is left to the write, which refuses it with MXNet's other message."""
    if not call(core.InGraph, target._h):
        raise MXNetError("Inplace operations (+=, -=, x[:]=, etc) are not supported when recording with autograd.")


def _broadcast_value(value, shape):
    """value broadcast to shape by a recorded broadcast_to (NumPy's rule: leading axes of
    length 1 dropped or added), so that its gradient sums back."""
    extra = len(value._shape) - len(shape)
    if extra > 0 and all(d == 1 for d in value._shape[:extra]):
        value = value.reshape(value._shape[extra:])
    elif extra < 0:
        value = value.reshape((1,) * -extra + tuple(value._shape))
    return _ops.invoke("broadcast_to", [value], {"shape": tuple(shape)})


# ---- creation ------------------------------------------------------------------------------
# (empty is the array core's, named here and in mx.nd)

def full(shape, val, ctx=None, dtype=None, out=None):
    """Returns an array filled with ``val``; with ``out`` (an NDArray of that shape, whose
    dtype wins, as in MXNet), fills and returns ``out``."""
    if out is None:
        out = empty(shape, ctx, dtype)
    elif not isinstance(out, NDArray):
        raise MXNetTypeError("out must be an NDArray, got %s" % type(out).__name__)
    else:
        shape_str(shape)  # (checks its type)
        want = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
        if want != out._shape:
            raise MXNetValueError("out has shape %s, not %s" % (out._shape, want))
    fastpath.fill(out, *scalar_args(val))
    return out


def zeros(shape, ctx=None, dtype=None, out=None, name=None):
    """Returns an array of zeros (written into ``out`` when given)."""
    return full(shape, 0, ctx, dtype, out)


def ones(shape, ctx=None, dtype=None, out=None, name=None):
    """Returns an array of ones (written into ``out`` when given)."""
    return full(shape, 1, ctx, dtype, out)


def array(source_array, ctx=None, dtype=None):
    """Creates an array holding a copy of ``source_array`` (an NDArray, a NumPy array or any
    array-like). As in MXNet, the dtype is the source's for NDArrays and float32 otherwise,
    unless ``dtype`` is given. MXNet's own NDArrays (any object with an ``asnumpy()``
    method) count as NDArrays: their values are copied through ``asnumpy()``."""
    if isinstance(source_array, NDArray):
        out = empty(source_array.shape, ctx, DTYPE_NAMES[source_array._code] if dtype is None else dtype)
        call(core.Copy, out._h, source_array._h, False)
        return out
    if not isinstance(source_array, np.ndarray) and callable(getattr(source_array, "asnumpy", None)):
        source_array = source_array.asnumpy()  # MXNet's NDArray has no __array__
        if not isinstance(source_array, np.ndarray):
            raise MXNetTypeError("source_array.asnumpy() must return a numpy.ndarray, got %s"
                            % type(source_array).__name__)
        if dtype is None:
            dtype = source_array.dtype
    code = FLOAT32 if dtype is None else dtype_code(dtype)
    if source_array is None:  # NumPy would make it NaN
        raise MXNetTypeError("source_array must be array-like, not None")
    try:
        src = numpy_values(source_array, code)
    except (TypeError, ValueError) as err:  # ragged lists are a ValueError, as in NumPy
        raise mxnet_error(type(err))("source_array must be array-like: %s" % err) from None
    return copy_numpy(src, code, ctx)


def from_numpy(ndarray, zero_copy=True):
    """Returns an NDArray for a NumPy array, sharing its memory when ``zero_copy``.

    Zero-copy needs a C-contiguous array (ValueError otherwise) and marks the NumPy array
    read-only so that NumPy cannot race mxgo; writes through mxgo stay visible in NumPy.
    A NumPy array that is read-only for its own reasons gives a non-writable NDArray.
    ``zero_copy=False`` copies and leaves the NumPy array as it was."""
    if zero_copy is True:
        out = fastpath.from_numpy(ndarray)  # the steps below, in C, for the common cases
        if out is not NotImplemented:
            return out
    if not isinstance(ndarray, np.ndarray):
        raise MXNetTypeError("from_numpy expects a numpy.ndarray, got %s" % type(ndarray).__name__)
    code = dtype_code(ndarray.dtype)
    if not zero_copy:
        return array(ndarray, dtype=ndarray.dtype)
    if not ndarray.flags.c_contiguous:
        raise MXNetValueError("only C-contiguous arrays can be shared without a copy; "
                         "pass np.ascontiguousarray(a) or zero_copy=False")
    own_writable = ndarray.flags.writeable
    # A NumPy array mxgo locked (or a view of one) stays writable through mxgo, as in MXNet.
    out = borrow_numpy(ndarray, own_writable or fastpath.numpy_locked(ndarray), code)
    if own_writable:
        fastpath.numpy_lock(ndarray)
    return out


def arange(start, stop=None, step=1.0, repeat=1, ctx=None, dtype=None):
    """Returns evenly spaced values in [start, stop), each repeated ``repeat`` times
    (float32 unless ``dtype`` is given)."""
    if stop is None:
        start, stop = 0, start
    if not all(isinstance(v, numbers.Real) for v in (start, stop, step)):
        raise MXNetTypeError("arange: start, stop and step must be real numbers, got %r, %r, %r" % (start, stop, step))
    if step == 0:
        raise MXNetValueError("arange: step must not be zero")
    if not all(math.isfinite(v) for v in (start, stop, step)):
        raise MXNetValueError("arange: start, stop and step must be finite, got %r, %r, %r" % (start, stop, step))
    if not isinstance(repeat, numbers.Integral) or repeat < 1:
        raise MXNetValueError("arange: repeat must be a positive int, got %r" % (repeat,))
    n = max(0, math.ceil((stop - start) / step))
    if repeat == 1:
        out = empty((n,), ctx, dtype)
        call(core.Arange, out._h, float(start), float(step))
        return out
    values = np.repeat(np.arange(n, dtype=np.float64) * step + start, repeat)
    return array(values, ctx, "float32" if dtype is None else dtype)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=np.float32):
    """Returns ``num`` evenly spaced values from ``start`` to ``stop`` (included when
    ``endpoint``); element i is start + i*step computed in float64, then cast to ``dtype``."""
    out = _ops.invoke("_linspace", [], {"start": start, "stop": stop, "num": num, "endpoint": endpoint, "dtype": dtype})
    return out if ctx is None else out.as_in_context(ctx)


def eye(N, M=0, k=0, ctx=None, dtype=None, name=None):
    """Returns an N x M array (M=0: N x N) with ones on diagonal ``k`` and zeros elsewhere."""
    out = _ops.invoke("_eye", [], {"N": N, "M": M, "k": k, "dtype": np.float32 if dtype is None else dtype})
    return out if ctx is None else out.as_in_context(ctx)


def waitall():
    """Waits for all pending operations and raises the first of their errors that no wait
    has raised yet (an error is raised once, as in MXNet 1.x)."""
    call(core.WaitAll)


fastpath.set_array_class(NDArray)  # arrays made in C (imports, buffers) are NDArrays
