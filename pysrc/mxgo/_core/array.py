"""Making arrays and moving values between NumPy and mxgo: what every namespace's array
class and creation functions are built from.

An array is a Go handle in a C object (``fastpath.NDArrayBase``: the handle, freed when the
object dies, and the shape, strides, dtype code and device read once from Go). C makes new
arrays (``fastpath.empty``, ``from_buffer``, operator results) as instances of the class the
namespace registered with ``fastpath.set_array_class`` (mx.nd's NDArray, registered by
ndarray/ndarray.py); nothing here knows that class.
"""
import numbers
import operator

import numpy as np

from ..base import BFLOAT16, DTYPE_NAMES, MXNetTypeError, call, core, dtype_code, fastpath, numpy_dtype
from ..context import Context, current_context

__all__ = ["FLOAT32", "shape_str", "empty", "borrow_numpy", "copy_into_numpy", "copy_from_numpy", "numpy_values",
           "copy_numpy"]

#: the dtype code of float32, MXNet's default dtype
FLOAT32 = dtype_code("float32")


def shape_str(shape):
    """A shape in Go's wire form, "2,3" (Go checks the values)."""
    if type(shape) is not tuple and isinstance(shape, numbers.Integral):  # (the ABC check is slow)
        shape = (shape,)
    try:
        return ",".join(map(str, map(operator.index, shape)))
    except TypeError:
        raise MXNetTypeError("shape must be an int or a sequence of ints, got %r" % (shape,)) from None


def empty(shape, ctx=None, dtype=None):
    """Returns an uninitialised array (float32 unless ``dtype`` is given)."""
    ctx = current_context() if ctx is None else ctx
    if not isinstance(ctx, Context):
        raise MXNetTypeError("ctx must be a Context such as mx.cpu(), got %r" % (ctx,))
    code = FLOAT32 if dtype is None else dtype_code(dtype)
    return fastpath.empty(code, shape_str(shape), ctx.device_typeid, ctx.device_id)


def borrow_numpy(arr, writable, code=None):
    """An array of dtype ``code`` (by default arr's) viewing a NumPy array's memory
    through the buffer protocol."""
    if code is None:
        code = dtype_code(arr.dtype)
    if code == BFLOAT16:  # ml_dtypes' bfloat16 has no buffer format; its bits do
        arr = arr.view(np.uint16)
    return fastpath.from_buffer(arr, code, arr.dtype.itemsize, writable)


def copy_into_numpy(out, src):
    """Copies array src into the NumPy array out (same shape), converting the dtype."""
    tmp = borrow_numpy(out, True)
    call(core.Copy, tmp._h, src._h, True)  # NumPy reads `out` as soon as we return


def copy_from_numpy(dst, src, code=None):
    """Copies the NumPy array src (read as dtype ``code``, by default its own) into array
    dst (same shape), converting the dtype."""
    tmp = borrow_numpy(src, False, code)
    call(core.Copy, dst._h, tmp._h, True)  # the caller may change `src` as soon as we return


def numpy_values(values, code):
    """``values`` (any array-like) as a C-ordered NumPy array of dtype ``code``; float32
    stands in for bfloat16, which NumPy lacks (copy_numpy's copy rounds it). NumPy's
    TypeError or ValueError (ragged lists) propagate."""
    src = np.asarray(values, dtype=numpy_dtype(code) if code != BFLOAT16 else np.float32)
    return np.asarray(src, order="C")  # not ascontiguousarray, which makes 0-d arrays 1-d


def copy_numpy(src, code, ctx=None):
    """A new array of dtype ``code`` on ``ctx`` (None: the current context) holding a copy
    of the C-contiguous NumPy array src (numpy_values' result)."""
    out = empty(src.shape, ctx, DTYPE_NAMES[code])
    copy_from_numpy(out, src)
    return out
