"""DLPack exchange and zero-copy NumPy import.

Export: ``to_dlpack_for_read``/``to_dlpack_for_write`` (MXNet's API) and ``__dlpack__`` (the
Array API protocol) return capsules made in C (``fastpath.export``). Import:
``from_dlpack`` consumes capsules (``fastpath.import_capsule``) or asks objects for one;
``from_numpy`` views a NumPy array's memory through the buffer protocol.
"""
import weakref

import numpy as np

from ..base import dtype_code, fastpath
from .ndarray import NDArray, array

__all__ = ["from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write"]

_export = fastpath.export
_import_capsule = fastpath.import_capsule
_CPU = (1, 0)
#: the DLPack version mxgo speaks, asked of producers
MAX_VERSION = (1, 3)
FLAG_IS_COPIED = 1 << 1


def _versioned(max_version):
    if max_version is None:
        return False
    try:
        major = int(max_version[0])
    except (TypeError, IndexError, ValueError):
        raise TypeError("max_version must be a (major, minor) tuple of ints, got %r" % (max_version,)) from None
    return major >= 1


def _check_array(arr):
    if not isinstance(arr, NDArray):
        raise TypeError("expected an mxgo NDArray, got %s" % type(arr).__name__)


def to_dlpack_for_read(data, max_version=None):
    """Returns a capsule of ``data`` for a consumer that only reads (waits for pending writes).

    Legacy ("dltensor") by default, as MXNet and ``torch.utils.dlpack.from_dlpack`` expect;
    with ``max_version=(1, x)`` a versioned capsule with the READ_ONLY flag."""
    _check_array(data)
    data.wait_to_read()
    if _versioned(max_version):
        return _export(data._h, True, 1)  # READ_ONLY
    return _export(data._h, False, 0)


def to_dlpack_for_write(data, max_version=None):
    """Returns a capsule of ``data`` for a consumer that writes (waits for pending reads
    and writes). BufferError if ``data`` is read-only."""
    _check_array(data)
    if not data._writable:
        raise BufferError("to_dlpack_for_write: the array is read-only")
    data.wait_to_write()
    return _export(data._h, _versioned(max_version), 0)


def dlpack_export(arr, stream=None, max_version=None, dl_device=None, copy=None):
    """``NDArray.__dlpack__``: the Array API standard's export contract."""
    if stream is not None:
        if not isinstance(stream, int) or isinstance(stream, bool):
            raise TypeError("stream must be None or an int, got %s" % type(stream).__name__)
        if stream != -1:
            raise ValueError("stream=%d is not valid for CPU arrays (use None or -1)" % stream)
    if dl_device is not None and tuple(dl_device) != arr.__dlpack_device__() and tuple(dl_device) != _CPU:
        raise BufferError("cannot export to device %r: the array is on %s" % (dl_device, arr.context))
    if copy is not None and not isinstance(copy, bool):
        raise TypeError("copy must be None, True or False, got %r" % (copy,))
    versioned = _versioned(max_version)
    flags = 0
    if copy:
        arr = arr.copy()
        flags |= FLAG_IS_COPIED
    arr.wait_to_read()
    if not versioned:
        if not arr._writable:
            raise BufferError("a read-only array cannot be exported as a legacy DLPack capsule "
                              "(pass max_version=(1, 0) or newer)")
        return _export(arr._h, False, 0)
    return _export(arr._h, True, flags)


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
