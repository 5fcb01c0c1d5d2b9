"""DLPack import: ``from_dlpack`` of capsules and of objects with ``__dlpack__``.

Capsules are consumed in C (``fastpath.import_capsule``); objects are asked for one, through
their type's C exchange API when it has one (``fastpath.import_object``), else through
``__dlpack__`` with the keywords they accept. Arrays are made in C, as instances of the class
the namespace registered (``fastpath.set_array_class``): nothing here knows that class. Every
namespace's ``from_dlpack`` is this one, and the operator registry (registry.py) imports
foreign operands with it. Export lives on the arrays themselves (``__dlpack__``,
``to_dlpack_for_read``, ... in C).
"""
import datetime
import numbers

import numpy as np

from ..base import FACTS, MXNetBufferError, MXNetTypeError, fastpath
from ..context import Context

__all__ = ["from_dlpack", "MAX_VERSION"]

_import_capsule = fastpath.import_capsule
_import_object = fastpath.import_object
_Capsule = type(datetime.datetime_CAPI)  # PyCapsule, which Python < 3.13 does not name
_CPU = (Context.devstr2type["cpu"], 0)
_PINNED = (Context.devstr2type["cpu_pinned"], 0)
#: the DLPack version mxgo speaks, asked of producers
MAX_VERSION = tuple(FACTS["dlpack_version"])


def from_dlpack(obj, *, device=None, copy=None):
    """Returns an NDArray for a DLPack capsule or an object with ``__dlpack__``.

    A capsule is consumed (using it twice raises ValueError). Objects are asked for a
    versioned capsule (``max_version``, plus ``dl_device`` and ``copy`` when given) and,
    if they refuse the keywords with TypeError, for a legacy one as older producers need.
    ``copy=None`` shares memory; ``copy=True`` returns memory mxgo owns (the producer's
    copy when it made one, else mxgo's); ``copy=False`` never copies. ``device`` (a Context
    or a DLPack pair) puts the array there, by a copy when the tensor is elsewhere
    (``copy=False`` then raises BufferError). Tensors on a GPU (DLPack device 2, and 13,
    managed memory) become ``gpu(id)`` arrays: the producer is given mxgo's stream on that
    device (``__dlpack__(stream=...)``) and orders it after its own work; page-locked host
    memory (3) becomes ``cpu_pinned``.
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
    target = None if device is None else _target(device)
    if not hasattr(obj, "__dlpack__"):
        out = _import_capsule(obj)
        return _moved(out, target, copy, device) if target is not None else (out.copy() if copy else out)
    dev = _checked_device(obj.__dlpack_device__())
    if dev[0] not in _IMPORTABLE:
        raise MXNetBufferError("mxgo cannot import memory on DLPack device %r (CPU, CUDA, CUDA host and CUDA "
                               "managed memory: device types 1, 2, 3 and 13)" % (dev,))
    if target is not None and target != _placed(dev):
        try:  # the producer may put it there itself (sharing memory where it can)
            return _ask(obj, target, copy, dl_device=target, moving=True)
        except (BufferError, ValueError, TypeError):  # it cannot (NumPy <= 2.2: ValueError), or knows no dl_device
            if copy is False:
                raise MXNetBufferError("from_dlpack(device=%r, copy=False): the tensor is on DLPack device %r and its "
                                       "producer cannot share it there" % (device, dev)) from None
    return _moved(_ask(obj, dev, copy, dl_device=dev if target == _placed(dev) else None), target, copy, device)


def _ask(obj, dev, copy, dl_device, moving=False):
    """Imports obj's tensor for use on DLPack device dev: versioned, with mxgo's stream when
    dev is a GPU (the producer orders it after its work), with copy and dl_device when
    given; without the 2023 keywords for a producer that refuses them with TypeError
    (unless moving to another device, which such a producer cannot do: TypeError then)."""
    kwargs = {"max_version": MAX_VERSION}
    if dev[0] in _ON_GPU:
        kwargs["stream"] = fastpath.import_stream(dev[1])
    if copy is not None:
        kwargs["copy"] = copy
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    try:
        capsule = obj.__dlpack__(**kwargs)
        copied = bool(copy)  # the standard obliges a producer given copy=True to copy
    except TypeError:
        if moving:
            raise
        capsule = obj.__dlpack__(**({"stream": kwargs["stream"]} if "stream" in kwargs else {}))
        copied = False
    out = _import_capsule(capsule)
    if dl_device is not None and out.__dlpack_device__() != _placed(dl_device):
        raise MXNetBufferError("the producer returned a tensor on DLPack device %r, not the %r asked for"
                               % (out.__dlpack_device__(), dl_device))
    return out.copy() if copy and not copied else out


def _moved(out, target, copy, device):
    """out on target (None: where it is), by mxgo's copy if needed, which copy=False forbids."""
    if target is None or target == out.__dlpack_device__():
        return out
    if copy is False:
        raise MXNetBufferError("from_dlpack(device=%r, copy=False): the tensor is on DLPack device %r, and moving it "
                               "needs a copy" % (device, out.__dlpack_device__()))
    return out.copyto(Context(Context.devtype2str[target[0]], target[1]))


#: DLPack device types mxgo imports: CPU, CUDA, CUDA host (page-locked) and CUDA managed
_IMPORTABLE = (1, 2, 3, 13)
_ON_GPU = (2, 13)  # imported as gpu(id), on mxgo's stream there


def _placed(dev):
    """The DLPack device mxgo keeps an import from dev on: managed memory becomes gpu(id)."""
    return (2, dev[1]) if dev[0] == 13 else tuple(dev)


def _target(device):
    """from_dlpack's device: a Context or a (device_type, device_id) pair mxgo has."""
    dev = _device_tuple(device)
    if not (isinstance(dev, tuple) and len(dev) == 2 and all(isinstance(v, numbers.Integral) for v in dev)):
        raise MXNetTypeError("device must be a Context or a (device_type, device_id) pair, got %r" % (device,))
    dev = (int(dev[0]), int(dev[1]))
    if dev[0] in _ON_GPU[:1] and dev[1] >= 0 or dev == _PINNED:
        fastpath.import_stream(dev[1])  # BufferError, before anything is consumed, when that GPU cannot be used
    elif dev != _CPU:
        raise MXNetBufferError("mxgo can import to cpu(0), gpu(i) and cpu_pinned(0), not %r" % (device,))
    return dev


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
