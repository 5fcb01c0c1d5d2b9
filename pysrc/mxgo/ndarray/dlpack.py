"""DLPack import (``from_dlpack``) and MXNet's module forms of the exports.

Export lives on NDArray (``to_dlpack_for_read``, ``to_dlpack_for_write``, ``__dlpack__``,
in C, and DLPack 1.3's C exchange API on its type); ``ReadOnlyDLPack`` exports read-only.
``from_dlpack`` consumes capsules (``fastpath.import_capsule``) or asks objects for one,
through their type's C exchange API when it has one. This module needs only the C fast
path, so that op.py can import any DLPack producer without depending on ndarray.py.
"""
import datetime
import numbers

import numpy as np

from ..base import FACTS, MXNetBufferError, MXNetTypeError, MXNetValueError, fastpath
from ..context import Context

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write", "ReadOnlyDLPack"]

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


class ReadOnlyDLPack(fastpath.ReadOnlyDLPackBase):
    """A read-only, zero-copy DLPack view of an NDArray, for exchange only (PyTorch's
    ``torch.utils.dlpack.ReadOnlyTensorWrapper``): ``ReadOnlyDLPack(x)`` declares that
    consumers must not write ``x``'s memory. Consumers get versioned tensors flagged
    READ_ONLY, after ``x``'s pending writes (not its pending reads, as
    ``to_dlpack_for_read``), through ``__dlpack__`` and through the read-only C exchange
    API that its type carries (``__dlpack_c_exchange_api__``, which TVM-FFI uses).
    ``copy=True`` exports a writable copy. The wrapped array is ``.array``."""

    __slots__ = ()

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The array's read-only capsule; a legacy one (no max_version) cannot say read-only,
        so BufferError unless ``copy=True``."""
        if copy is not None and not isinstance(copy, bool):
            raise MXNetTypeError("copy must be None, True or False, got %r" % (copy,))
        if copy:
            return self.array.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device, copy=True)
        if stream is not None:
            if not isinstance(stream, int) or isinstance(stream, bool):
                raise MXNetTypeError("stream must be None or an int, got %s" % type(stream).__name__)
            if stream != -1:
                raise MXNetValueError("stream=%r is not valid for CPU arrays (use None or -1)" % (stream,))
        if dl_device is not None:
            if not (isinstance(dl_device, tuple) and len(dl_device) == 2):
                raise MXNetTypeError("dl_device must be a (device_type, device_id) tuple, got %r" % (dl_device,))
            if dl_device != _CPU and dl_device != self.array.__dlpack_device__():
                raise MXNetBufferError("cannot export to DLPack device %r: the array is on %r"
                                       % (dl_device, self.array.__dlpack_device__()))
        if max_version is None or (isinstance(max_version, tuple) and max_version and max_version[0] == 0):
            raise MXNetBufferError("a read-only export needs a versioned DLPack capsule (max_version=(1, 0) or newer)")
        return self.array.to_dlpack_for_read(max_version=max_version)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __repr__(self):
        return "ReadOnlyDLPack(%r)" % (self.array,)


def from_dlpack(obj, *, device=None, copy=None):
    """Returns an NDArray for a DLPack capsule or an object with ``__dlpack__``.

    A capsule is consumed (using it twice raises ValueError). Objects are asked for a
    versioned capsule (``max_version``, plus ``dl_device`` and ``copy`` when given) and,
    if they refuse the keywords with TypeError, for a legacy one as older producers need.
    ``copy=None`` shares memory; ``copy=True`` returns memory mxgo owns (the producer's
    copy when it made one, else mxgo's); ``copy=False`` never copies. ``device`` must be
    None or the CPU: mxgo has no other back end, so any other device raises BufferError.
    READ_ONLY tensors give non-writable arrays.

    An object whose type has DLPack 1.3's C exchange API (``__dlpack_c_exchange_api__``,
    PyTorch's tensors) is imported through it, in C (the table is looked up once per type);
    a table of another major version (none of major 1 on its ``prev_api`` chain) leaves
    ``__dlpack__`` to serve. A malformed attribute raises instead of being skipped:
    TypeError when it is not a PyCapsule, ValueError for another capsule name or a table
    without ``managed_tensor_from_py_object_no_sync``."""
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
