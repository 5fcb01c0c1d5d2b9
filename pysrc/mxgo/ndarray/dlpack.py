"""DLPack exchange and zero-copy NumPy import.

Export lives on NDArray (``to_dlpack_for_read``, ``to_dlpack_for_write``, ``__dlpack__``);
this module adds MXNet's module-level forms. Import:
``from_dlpack`` consumes capsules (``fastpath.import_capsule``) or asks objects for one;
``from_numpy`` views a NumPy array's memory through the buffer protocol.
"""
import weakref

import numpy as np

from ..base import dtype_code, fastpath
from .ndarray import NDArray, array

__all__ = ["from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write"]

_import_capsule = fastpath.import_capsule
_CPU = (1, 0)
#: the DLPack version mxgo speaks, asked of producers
MAX_VERSION = (1, 3)


def _check_array(arr):
    if not isinstance(arr, NDArray):
        raise TypeError("expected an mxgo NDArray, got %s" % type(arr).__name__)


def to_dlpack_for_read(data, max_version=None):
    """Module form of :meth:`NDArray.to_dlpack_for_read`."""
    _check_array(data)
    return data.to_dlpack_for_read(max_version)


def to_dlpack_for_write(data, max_version=None):
    """Module form of :meth:`NDArray.to_dlpack_for_write`."""
    _check_array(data)
    return data.to_dlpack_for_write(max_version)


def from_dlpack(obj, *, device=None, copy=None):
    """Returns an NDArray sharing memory with a DLPack capsule or an object with ``__dlpack__``.

    A capsule is consumed (using it twice raises ValueError). Objects are asked for a
    versioned capsule first and, if they refuse the keyword (TypeError), for a legacy one.
    ``copy=True`` returns a copy; ``device`` must be None or the CPU."""
    if device is not None and _device_tuple(device) != _CPU:
        raise BufferError("mxgo can only import to cpu(0), not %r" % (device,))
    if hasattr(obj, "__dlpack__"):
        dev = tuple(obj.__dlpack_device__())
        if dev[0] != 1:
            raise BufferError("mxgo cannot import memory on DLPack device %r (only CPU)" % (dev,))
        try:
            capsule = obj.__dlpack__(max_version=MAX_VERSION)
        except TypeError:
            capsule = obj.__dlpack__()
    else:
        capsule = obj
    out = NDArray(_import_capsule(capsule))
    return out.copy() if copy else out


def _device_tuple(device):
    if isinstance(device, tuple):
        return device
    ctx = getattr(device, "device_typeid", None)
    if ctx is not None:
        return (ctx, device.device_id)
    return device


# NumPy arrays that from_numpy made read-only, so that a second from_numpy of them (or of
# their views) stays writable through mxgo, as in MXNet. Keyed by id; entries vanish with
# the arrays.
_locked = weakref.WeakValueDictionary()


def _locked_by_mxgo(arr):
    while isinstance(arr, np.ndarray):
        if _locked.get(id(arr)) is arr:
            return True
        arr = arr.base
    return False


def from_numpy(ndarray, zero_copy=True):
    """Returns an NDArray for a NumPy array, sharing its memory when ``zero_copy``.

    Zero-copy needs a C-contiguous array (ValueError otherwise) and marks the NumPy array
    read-only so that NumPy cannot race mxgo; writes through mxgo stay visible in NumPy.
    A NumPy array that is read-only for its own reasons gives a non-writable NDArray.
    ``zero_copy=False`` copies and leaves the NumPy array as it was."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError("from_numpy expects a numpy.ndarray, got %s" % type(ndarray).__name__)
    code = dtype_code(ndarray.dtype)
    if not zero_copy:
        return array(ndarray, dtype=code)
    if not ndarray.flags.c_contiguous:
        raise ValueError("only C-contiguous arrays can be shared without a copy; "
                         "pass np.ascontiguousarray(a) or zero_copy=False")
    own_writable = ndarray.flags.writeable
    out = NDArray(fastpath.from_buffer(ndarray, code, ndarray.dtype.itemsize,
                                       own_writable or _locked_by_mxgo(ndarray)))
    if own_writable:
        ndarray.flags.writeable = False
        _locked[id(ndarray)] = ndarray
    return out
