"""A DLPack producer written with ctypes, for tests that must see what a consumer does.

:class:`CountingProducer` makes ``dltensor`` / ``dltensor_versioned`` capsules over NumPy
buffers, legacy or versioned, with any field set to anything (hostile values, NULL shape or
strides pointers, any version, any capsule name included), and a deleter that counts its
calls per tensor. The capsules have no destructor (one written in Python could run while
an exception is pending): a capsule that is never consumed keeps its buffer alive for the
rest of the process, so count deleter calls only on capsules that a consumer took.

:func:`inspect_capsule` reads the tensor inside an unconsumed capsule (mxgo's or anyone's)
without consuming it.
"""
import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_uint8,
                    c_uint16, c_uint32, c_uint64, c_void_p, py_object)
import weakref

import numpy as np

__all__ = ["CountingProducer", "inspect_capsule", "capsule_name", "capsule_pointer", "make_capsule",
           "dl_dtype", "NULL", "FLAG_READ_ONLY", "FLAG_IS_COPIED"]

FLAG_READ_ONLY = 1 << 0
FLAG_IS_COPIED = 1 << 1
CPU = (1, 0)

# Capsule names must outlive every capsule: these module constants do.
LEGACY_NAME = b"dltensor"
VERSIONED_NAME = b"dltensor_versioned"
_NAMES = {"dltensor": LEGACY_NAME, "dltensor_versioned": VERSIONED_NAME}


class _Null:
    """The NULL pointer, for ``shape=NULL`` / ``strides=NULL``."""

    def __repr__(self):
        return "NULL"


#: Pass as ``shape`` or ``strides`` to :meth:`CountingProducer.capsule` for a NULL pointer.
NULL = _Null()


class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32), ("dtype", DLDataType),
                ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


# Both deleters take the managed tensor's address; one C signature serves both structs.
DELETER = CFUNCTYPE(None, c_void_p)


class DLManagedTensor(Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", DELETER)]


class DLPackVersion(Structure):
    _fields_ = [("major", c_uint32), ("minor", c_uint32)]


class DLManagedTensorVersioned(Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", c_void_p), ("deleter", DELETER),
                ("flags", c_uint64), ("dl_tensor", DLTensor)]


_api = ctypes.pythonapi
_api.PyCapsule_New.restype = py_object
_api.PyCapsule_New.argtypes = [c_void_p, c_char_p, c_void_p]
_api.PyCapsule_GetName.restype = c_char_p
_api.PyCapsule_GetName.argtypes = [py_object]
_api.PyCapsule_GetPointer.restype = c_void_p
_api.PyCapsule_GetPointer.argtypes = [py_object, c_char_p]

# DLPack dtype codes by NumPy kind.
_KIND_CODE = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


def dl_dtype(dtype):
    """(code, bits, lanes) of a NumPy dtype."""
    dt = np.dtype(dtype)
    return (_KIND_CODE[dt.kind], dt.itemsize * 8, 1)


def make_capsule(address, name):
    """A capsule over ``address`` with ``name`` (bytes or None for NULL) and no destructor.
    ``name`` must stay alive as long as the capsule: pass a module-level constant."""
    return _api.PyCapsule_New(address, name, None)


def capsule_name(capsule):
    """The capsule's name as a str ('dltensor', 'used_dltensor', ...), None if NULL."""
    name = _api.PyCapsule_GetName(capsule)
    return None if name is None else name.decode()


def capsule_pointer(capsule):
    """The address held by an unconsumed DLPack capsule."""
    return _api.PyCapsule_GetPointer(capsule, capsule_name(capsule).encode())


def _read_tensor(t):
    nd = t.ndim
    shape = tuple(t.shape[i] for i in range(nd)) if t.shape else None
    strides = tuple(t.strides[i] for i in range(nd)) if t.strides else None
    return {"data": t.data or 0, "device": (t.device.device_type, t.device.device_id), "ndim": nd,
            "dtype": (t.dtype.code, t.dtype.bits, t.dtype.lanes), "shape": shape,
            "strides": strides, "byte_offset": t.byte_offset}


def inspect_capsule(capsule):
    """The fields of the tensor in an unconsumed capsule, as a dict (plus 'version' and
    'flags' for versioned capsules). The capsule is left as it was."""
    name = capsule_name(capsule)
    if name not in ("dltensor", "dltensor_versioned"):
        raise ValueError("not an unconsumed DLPack capsule: %r" % name)
    address = capsule_pointer(capsule)
    if name == "dltensor":
        mt = DLManagedTensor.from_address(address)
        return dict(_read_tensor(mt.dl_tensor), name=name)
    mt = DLManagedTensorVersioned.from_address(address)
    return dict(_read_tensor(mt.dl_tensor), name=name, flags=mt.flags,
                version=(mt.version.major, mt.version.minor))


class _Record:
    """What one exported tensor keeps alive until its deleter runs."""
    __slots__ = ("struct", "shape", "strides", "buffer", "calls")


# Capsules and imported tensors may outlive the producer object that made them, while their
# C structs and deleter callback must not be freed: producers are kept for the process.
_PRODUCERS = []


class CountingProducer:
    """Exports NumPy buffers as DLPack capsules whose deleter counts its calls.

    Each :meth:`capsule` call returns ``(capsule, tag)``; ``deleter_calls(tag)`` says how
    often that tensor's deleter ran, ``buffer_alive(tag)`` whether the producer still
    holds the buffer (it drops it on the first deleter call)."""

    def __init__(self):
        self._records = {}   # tensor address -> record; kept forever so addresses stay unique
        self._tags = []      # tag -> record
        self._buffers = []   # tag -> weakref of the NumPy buffer
        self.unknown_calls = 0
        _PRODUCERS.append(self)
        self._deleter = DELETER(self._on_delete)  # the C callback must outlive every tensor

    def _on_delete(self, address):
        rec = self._records.get(address)
        if rec is None:  # a deleter call for a tensor this producer never made
            self.unknown_calls += 1  # (an exception here would be swallowed by ctypes)
            return
        rec.calls += 1
        rec.buffer = None  # free the memory, as a real producer would

    def capsule(self, array, *, versioned=False, flags=0, version=(1, 3), dtype=None,
                device=CPU, ndim=None, shape=None, strides="element", data=None, byte_offset=0,
                name=None):
        """Exports ``array`` (a NumPy array, any layout) as a capsule; returns (capsule, tag).

        The defaults describe ``array`` honestly. Overrides make deliberately odd or hostile
        tensors: ``dtype`` a (code, bits, lanes) triple, ``device`` a (type, id) pair,
        ``ndim``/``shape`` replacing the real ones (``shape=NULL`` for a NULL pointer),
        ``strides`` NULL (or None) for NULL strides or a tuple, ``data`` an address
        (``byte_offset`` is added by the consumer), ``version`` the (major, minor) of a
        versioned tensor, ``name`` the capsule's name ("dltensor" or "dltensor_versioned";
        by default the one that matches ``versioned``).

        Shape and strides arrays hold at least ``min(ndim, 64)`` entries (zero-padded), so
        that a consumer reading ``ndim`` of them for an ``ndim`` it accepts (DLPack
        consumers cap it; mxgo at 64) never reads past them, whatever the overrides."""
        array = np.asarray(array)
        rec = _Record()
        rec.calls = 0
        rec.buffer = array
        nd = array.ndim if ndim is None else ndim
        room = max(1, min(nd, 64))
        if shape is NULL:
            rec.shape = None
        else:
            dims = tuple(array.shape) if shape is None else tuple(shape)
            rec.shape = (c_int64 * max(len(dims), room))(*dims)
        if strides == "element":
            strides = tuple(s // array.itemsize for s in array.strides)
        if strides is None or strides is NULL:
            rec.strides = None
        else:
            rec.strides = (c_int64 * max(len(strides), room))(*strides)
        rec.struct = (DLManagedTensorVersioned if versioned else DLManagedTensor)()
        t = rec.struct.dl_tensor
        t.data = array.__array_interface__["data"][0] if data is None else data
        t.device = DLDevice(*device)
        t.ndim = nd
        t.dtype = DLDataType(*(dl_dtype(array.dtype) if dtype is None else dtype))
        t.shape = ctypes.cast(rec.shape, POINTER(c_int64)) if rec.shape is not None else None
        t.strides = ctypes.cast(rec.strides, POINTER(c_int64)) if rec.strides is not None else None
        t.byte_offset = byte_offset
        rec.struct.deleter = self._deleter
        if versioned:
            rec.struct.version = DLPackVersion(*version)
            rec.struct.flags = flags
        address = ctypes.addressof(rec.struct)
        self._records[address] = rec
        self._tags.append(rec)
        self._buffers.append(weakref.ref(array))
        if name is None:
            name = "dltensor_versioned" if versioned else "dltensor"
        return make_capsule(address, _NAMES[name]), len(self._tags) - 1

    def deleter_calls(self, tag):
        """How many times the deleter of tensor ``tag`` ran."""
        return self._tags[tag].calls

    def buffer_alive(self, tag):
        """Whether the exported array still exists: the producer drops it in the deleter, so
        this turns False then unless the caller holds the array too."""
        return self._buffers[tag]() is not None

    @property
    def total_calls(self):
        """Deleter calls over every tensor this producer made."""
        return sum(r.calls for r in self._tags)
