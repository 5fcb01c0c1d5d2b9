"""What mx.np's functions make their arrays with: the registered array class, operands,
operator calls and the creation of arrays from values.

An mx.np array is the same C object and Go handle as an mx.nd NDArray, of another class
(``mx.np.ndarray``, a subclass of NDArray, registered here by multiarray.py). A new
operator result is adopted into that class in place (C made it an NDArray): no copy,
no new handle.
"""
import numbers

import numpy as _onp

from .._core.array import copy_numpy, empty as _core_empty, numpy_values
from .._core.dlpack import from_dlpack as _from_dlpack
from .._core.registry import invoke as _invoke, invoke_all as _invoke_all
from ..base import DTYPE_NAMES, MXNetTypeError, MXNetValueError, call, core, dtype_code, fastpath, mxnet_error
from ..context import Context
from ..ndarray.ndarray import NP_CLASS as _class  # [mx.np.ndarray], once multiarray.py registers it
from . import _dtypes

__all__ = ["register", "adopt", "invoke", "invoke_all", "is_array", "operand", "empty", "full", "asarray", "astype",
           "reshape", "SCALARS"]

_Array = fastpath.NDArrayBase
#: the Python scalars an operator takes beside an array
SCALARS = (bool, int, float, complex)


def register(cls):
    """Makes cls the class of mx.np's arrays."""
    _class[:] = [cls]


def adopt(x):
    """x (an array an operation just made, which nobody else holds) as an mx.np array."""
    if type(x) is not _class[0]:
        x.__class__ = _class[0]
    return x


def is_array(x):
    """Whether x is an mxgo array (of either namespace)."""
    return isinstance(x, _Array)


def invoke(name, arrays, params=None, out=None):
    """Runs registry operator ``name``; a new result is an mx.np array, out is returned as given."""
    r = _invoke(name, arrays, params, out)
    return r if out is not None else adopt(r)


def invoke_all(name, arrays, params=None):
    """Runs an operator of several results: a list of mx.np arrays."""
    return [adopt(r) for r in _invoke_all(name, arrays, params)]


def reshape(x, shape):
    """A view of x (or a copy when x is not contiguous) of shape ``shape`` (no codes; an
    empty array of an empty shape is a new one: core.Reshape reads a 0 as MXNet's code)."""
    if x.size == 0:
        return empty(shape, x.dtype, x.context)
    return adopt(type(x)(call(core.Reshape, x._h, ",".join(str(int(d)) for d in shape), False)))


def astype(x, dtype):
    """x as dtype (a numpy.dtype): x itself when it already is."""
    if x._code == dtype_code(dtype):
        return x
    out = adopt(_core_empty(x.shape, x.context, dtype.name))
    call(core.Copy, out._h, x._h, False)
    return out


def empty(shape, dtype=None, device=None):
    """An uninitialised array (float32 unless dtype is given)."""
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT
    return adopt(_core_empty(shape, _device(device), dt.name))


def full(shape, fill_value, dtype=None, device=None):
    """An array of ``fill_value``: dtype from the value when not given (bool, int64,
    float32 or complex64)."""
    if isinstance(fill_value, _Array):
        fill_value = fill_value.item()
    if dtype is None:
        dtype = _dtypes.scalar_dtype(_dtypes.BOOL, fill_value)
    out = empty(shape, dtype, device)
    fastpath.fill(out, *_scalar_args(fill_value, out.dtype))
    return out


def _scalar_args(v, dt):
    if dt.kind == "b":
        v = bool(v)
    elif dt.kind in "iu" and isinstance(v, float):
        v = int(v)  # (a float fill of an integer array truncates, as NumPy's)
    elif dt.kind in "iu":
        info = _onp.iinfo(dt)
        if not info.min <= v <= info.max:
            raise OverflowError("Python int %d out of bounds for %s" % (v, dt))
    return _from_scalar(v)


def _from_scalar(v):
    if isinstance(v, (bool, _onp.bool_)):
        return True, int(v), float(v), 0.0
    if isinstance(v, numbers.Integral):
        return True, int(v), float(v), 0.0
    if isinstance(v, numbers.Real):
        return False, 0, float(v), 0.0
    return False, 0, float(v.real), float(v.imag)


def _device(device):
    if device is None or isinstance(device, Context):
        return device
    raise MXNetTypeError("device must be a Context such as mx.cpu(), got %r" % (device,))


def asarray(obj, dtype=None, device=None, copy=None):
    """An mx.np array of obj: an mxgo array (shared unless copy or another dtype or device
    asks for a copy), a DLPack producer (shared, as from_dlpack), a NumPy array, a Python
    scalar or nested sequence (copied). Python floats become float32, ints int64, bools
    bool and complex numbers complex64 unless ``dtype`` says otherwise."""
    dt = _dtypes.as_dtype(dtype)
    if isinstance(obj, _Array):
        return _from_array(obj, dt, device, copy)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, _onp.ndarray):
        return _from_array(adopt(_from_dlpack(obj)), dt, device, copy)
    if copy is False:
        raise MXNetValueError("asarray(copy=False): a %s cannot be shared without a copy" % type(obj).__name__)
    if dt is None:
        dt = _infer_dtype(obj)
    try:
        src = numpy_values(obj, dtype_code(dt))
    except (TypeError, ValueError, OverflowError) as err:
        raise mxnet_error(type(err))("cannot make an array of %s: %s" % (type(obj).__name__, err)) from None
    return adopt(copy_numpy(src, dtype_code(dt), _device(device)))


def _from_array(x, dt, device, copy):
    moves = device is not None and device != x.context
    if copy is False and (moves or (dt is not None and dt != x.dtype)):
        raise MXNetValueError("asarray(copy=False) cannot change the dtype or device without a copy")
    if copy or moves or (dt is not None and _dtypes.as_dtype(x.dtype) != dt):
        out = empty(x.shape, dt or _dtypes.as_dtype(x.dtype), device or x.context)
        call(core.Copy, out._h, x._h, False)
        return out
    if type(x) is _class[0]:
        return x
    return adopt(type(x)(call(core.Share, x._h)))


def _infer_dtype(obj):
    """The dtype mx.np gives values that do not say theirs: NumPy's for NumPy arrays and
    scalars, MXNet's defaults for Python's (float32 for floats)."""
    if isinstance(obj, (_onp.ndarray, _onp.generic)):
        return _dtypes.as_dtype(obj.dtype)
    if isinstance(obj, SCALARS):
        return _dtypes.scalar_dtype(_dtypes.BOOL, obj)
    kinds = set()
    _kinds(obj, kinds, 0)
    for kind, dt in (("c", _dtypes.DEFAULT_COMPLEX), ("f", _dtypes.DEFAULT_FLOAT), ("i", _dtypes.DEFAULT_INT)):
        if kind in kinds:
            return dt
    return _dtypes.BOOL if kinds else _dtypes.DEFAULT_FLOAT  # [] is float32, as in NumPy (float64 there)


def _kinds(obj, kinds, depth):
    if depth > 64:
        raise MXNetValueError("nested sequence too deep for an array")
    if isinstance(obj, (bool, _onp.bool_)):
        kinds.add("b")
    elif isinstance(obj, (int, _onp.integer)):
        kinds.add("i")
    elif isinstance(obj, (float, _onp.floating)):
        kinds.add("f")
    elif isinstance(obj, (complex, _onp.complexfloating)):
        kinds.add("c")
    elif isinstance(obj, _Array):
        kinds.add(_onp.dtype(DTYPE_NAMES[obj._code]).kind)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _kinds(v, kinds, depth + 1)
    else:
        raise MXNetTypeError("cannot make an array of %s" % type(obj).__name__)


def operand(x, name="operand"):
    """An operand of an mx.np function as an mxgo array: arrays as they are, anything else
    through asarray."""
    if isinstance(x, _Array):
        return x
    if x is None:
        raise MXNetTypeError("%s must be an array, not None" % name)
    return asarray(x)
