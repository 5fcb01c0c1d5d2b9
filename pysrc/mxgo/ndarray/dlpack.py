"""DLPack import (``from_dlpack``) and MXNet's module forms of the exports.

Export lives on NDArray (``to_dlpack_for_read``, ``to_dlpack_for_write``, ``__dlpack__``,
in C). ``from_dlpack`` consumes capsules (``fastpath.import_capsule``) or asks objects for
one. This module needs only the C fast path, so that op.py can import any DLPack producer
without depending on ndarray.py.
"""
import datetime
import numbers

import numpy as np

from ..base import FACTS, MXNetBufferError, MXNetTypeError, fastpath
from ..context import Context

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write"]

_import_capsule = fastpath.import_capsule
_import_object = fastpath.import_object
_Capsule = type(datetime.datetime_CAPI)  # PyCapsule, which Python < 3.13 does not name
_CPU = (Context.devstr2type["cpu"], 0)
#: the DLPack version mxgo speaks, asked of producers
MAX_VERSION = tuple(FACTS["dlpack_version"])


def _check_array(arr):
    if not isinstance(arr, fastpath.NDArrayBase):
        raise MXNetTypeError("expected an mxgo NDArray, got %s" % type(arr).__name__)


def to_dlpack_for_read(data, max_version=None):
    """Module form of :meth:`NDArray.to_dlpack_for_read`."""
    _check_array(data)
    return data.to_dlpack_for_read(max_version)


def to_dlpack_for_write(data, max_version=None):
    """Module form of :meth:`NDArray.to_dlpack_for_write`."""
    _check_array(data)
    return data.to_dlpack_for_write(max_version)


def from_dlpack(obj, *, device=None, copy=None):
    """Returns an NDArray for a DLPack capsule or an object with ``__dlpack__``.

    A capsule is consumed (using it twice raises ValueError). Objects are asked for a
    versioned capsule (``max_version``, plus ``dl_device`` and ``copy`` when given) and,
    if they refuse the keywords with TypeError, for a legacy one as older producers need.
    ``copy=None`` shares memory; ``copy=True`` returns memory mxgo owns (the producer's
    copy when it made one, else mxgo's); ``copy=False`` never copies. ``device`` must be
    None or the CPU: mxgo has no other back end, so any other device raises BufferError.
    READ_ONLY tensors give non-writable arrays."""
    if copy is None and device is None:  # the steps below, in C
        if type(obj) is _Capsule:
            return _import_capsule(obj)
        if hasattr(obj, "__dlpack__"):
            try:
                out = _import_object(obj)
            except BufferError as err:
                _explain_numpy_strides(obj, err)
                raise
            if out is not NotImplemented:
                return out
    if copy is not None and not isinstance(copy, bool):
        raise MXNetTypeError("copy must be None, True or False, got %r" % (copy,))
    if device is not None and _device_tuple(device) != _CPU:
        raise MXNetBufferError("mxgo can only import to cpu(0), not %r" % (device,))
    copied = False  # True once a producer has honoured copy=True (its tensor has IS_COPIED)
    if hasattr(obj, "__dlpack__"):
        dev = _checked_device(obj.__dlpack_device__())
        if dev[0] != _CPU[0]:
            raise MXNetBufferError("mxgo cannot import memory on DLPack device %r (only CPU, device type 1)" % (dev,))
        kwargs = {"max_version": MAX_VERSION}
        if copy is not None:
            kwargs["copy"] = copy
        if device is not None:
            kwargs["dl_device"] = dev
        try:
            capsule = obj.__dlpack__(**kwargs)
            copied = bool(copy)  # the standard obliges a producer given copy=True to copy
        except TypeError:  # a producer older than the 2023 keywords
            capsule = obj.__dlpack__()
        out = _import_capsule(capsule)
    else:
        out = _import_capsule(obj)
    return out.copy() if copy and not copied else out


def _explain_numpy_strides(obj, err):
    """Raises a BufferError naming the copy to make when err is NumPy's refusal to export
    strides that are not whole items (a field of a packed structured array), which DLPack,
    counting strides in elements, cannot describe; returns otherwise."""
    if isinstance(obj, np.ndarray) and any(s % obj.itemsize for s in obj.strides):
        raise MXNetBufferError("%s: its strides %s (bytes) are not multiples of its item size %d, which DLPack "
                          "cannot describe; copy it with mx.nd.array(a, dtype=a.dtype)"
                          % (err, obj.strides, obj.itemsize)) from None


def _checked_device(dev):
    """The (device_type, device_id) pair a producer's __dlpack_device__ returned."""
    if not (isinstance(dev, tuple) and len(dev) == 2 and all(isinstance(v, numbers.Integral) for v in dev)):
        raise MXNetTypeError("__dlpack_device__ must return a (device_type, device_id) pair of ints, got %r" % (dev,))
    return dev


def _device_tuple(device):
    if isinstance(device, tuple):
        return device
    ctx = getattr(device, "device_typeid", None)
    if ctx is not None:
        return (ctx, device.device_id)
    return device
