"""``mx.nd.save``, ``mx.nd.load`` and ``mx.nd.load_frombuffer``: MXNet 1.x's NDArray
file format (the ``.params`` files of Gluon and Module), read and written by Go
(pkg/ndfile), byte-compatible with MXNet 1.9.1 in both directions."""
import json
import os

import numpy as np

from ..base import MXNetTypeError, MXNetValueError, call, core
from ..util import is_np_shape
from .ndarray import NDArray

__all__ = ["save", "load", "load_frombuffer"]


def save(fname, data, np_shape=None):
    """Saves an NDArray, a list of NDArrays or a dict of str -> NDArray to ``fname`` in
    MXNet 1.x's NDArray file format (``mx.nd.load`` of MXNet 1.x reads it back).

    Views are saved compact. Arrays are written as MXNet writes them outside NumPy shape
    semantics, unless one of them is 0-d or has a dimension of size 0, or ``np_shape`` (by
    default ``mx.util.is_np_shape()``) is set: then the whole file is written as MXNet writes
    it inside ``mx.util.np_shape(True)`` (and ``npx.save``), and MXNet loads it in that
    scope. MXNet 1.9.1 cannot load int16, uint16, uint32, uint64 or complex arrays: saving
    one raises TypeError (cast it first).

    >>> mx.nd.save("net.params", {"weight": w, "bias": b})
    """
    if isinstance(data, NDArray):
        data = [data]
    if isinstance(data, dict):
        if any(not isinstance(k, str) for k in data) or any(not isinstance(v, NDArray) for v in data.values()):
            raise MXNetTypeError("save only accept dict str->NDArray or list of NDArray")
        names = list(data)
        arrays = list(data.values())
        for k in names:
            k.encode("utf-8")  # UnicodeEncodeError for lone surrogates, as MXNet's c_str
    elif isinstance(data, list):
        if any(not isinstance(v, NDArray) for v in data):
            raise MXNetTypeError("save only accept dict str->NDArray or list of NDArray")
        names, arrays = None, data
    else:
        raise MXNetValueError("data needs to either be a NDArray, dict of str, NDArray pairs or a list of NDArrays.")
    handles = ",".join(str(a._h) for a in arrays)
    # an empty dict is written as an empty list, as MXNet does (no names)
    call(core.SaveFile, _path(fname), handles, json.dumps(names) if names else "",
         is_np_shape() if np_shape is None else bool(np_shape))


def load(fname):
    """Loads a file written by ``save`` (or by MXNet 1.x's ``mx.nd.save``, or a Gluon
    ``.params`` file): a list of NDArrays, or a dict of str -> NDArray when the file has
    names. A truncated or corrupt file raises ValueError; sparse arrays NotImplementedError."""
    return _unpack(call(core.LoadFile, _path(fname)))


def load_frombuffer(buf):
    """Loads the contents of a file written by ``save`` from a bytes-like object (bytes,
    bytearray, memoryview, ...), as ``load`` does from a file."""
    if isinstance(buf, str):
        raise MXNetTypeError("buf required to be bytes or a bytes-like object, not str")
    try:
        # a view, not a copy, that keeps buf alive and unresizable until the call returns
        view = np.frombuffer(buf, dtype=np.uint8)
    except (TypeError, ValueError) as err:
        raise MXNetTypeError("buf required to be bytes or a bytes-like object: %s" % err) from None
    if not view.flags.c_contiguous:
        raise MXNetTypeError("buf must be a contiguous buffer")
    return _unpack(call(core.LoadBuffer, view.ctypes.data if view.size else 0, view.size))


def _path(fname):
    if not isinstance(fname, (str, os.PathLike)):
        raise MXNetTypeError("fname required to be a string or a path, not %s" % type(fname).__name__)
    path = os.fspath(fname)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    return path


def _unpack(out):
    res = json.loads(out)
    arrays = [NDArray(h) for h in res["handles"]]  # owned (freed with the objects) before anything can fail
    if res["names"] is None:
        return arrays
    return {bytes.fromhex(n).decode("utf-8"): a for n, a in zip(res["names"], arrays)}
