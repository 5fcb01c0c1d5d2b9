"""mx.nd's DLPack API: ``from_dlpack`` (the array core's, _core/dlpack.py), MXNet's module
forms of the exports (``to_dlpack_for_read``, ``to_dlpack_for_write``) and
``ReadOnlyDLPack``, a read-only exporter.

Export lives on NDArray (``to_dlpack_for_read``, ``to_dlpack_for_write``, ``__dlpack__``,
in C, and DLPack 1.3's C exchange API on its type); ``ReadOnlyDLPack`` exports read-only.
This module needs only the C fast path: arrays are known by their C base.
"""
from .._core.dlpack import MAX_VERSION as MAX_VERSION  # the DLPack version asked of producers
from .._core.dlpack import from_dlpack
from ..base import MXNetBufferError, MXNetTypeError, MXNetValueError, fastpath
from ..context import Context

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write", "ReadOnlyDLPack"]

_CPU = (Context.devstr2type["cpu"], 0)


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
