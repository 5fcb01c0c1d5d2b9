"""Tables and checks shared by the interoperability, lifetime and capsule tests.

- What each peer can exchange through DLPack, decided by the peer's version (never by
  skipping: a parametrization simply leaves out what the running peer cannot do).
- The layouts exchanged: 0-d, 0-size, 1-D, 4-D and strided views.
- One adapter per framework (:data:`MX`, :data:`TORCH`, :data:`NUMPY`; :data:`MXNP` for
  mx.np's arrays, the same core under MXNet's NumPy interface's class) that makes a source
  array of a dtype and layout, and reads values, dtype, shape, element strides and the
  address of the first element, and writes one element in place.
- :func:`check_exchange`: the contract of a zero-copy exchange.
"""
import dataclasses
import math
import re

import numpy as np
import pytest
import torch

import mxgo as mx
from mxgo.base import core

from dlpack_producer import CountingProducer

__all__ = ["TORCH_VERSION", "NUMPY_VERSION", "MX_DTYPES", "TORCH_DLPACK_DTYPES", "NUMPY_DLPACK_DTYPES",
           "NUMPY_IMPORTS_WRITABLE", "NUMPY_SPEAKS_VERSIONED", "NUMPY_EXPORTS_READ_ONLY", "NUMPY_HAS_BFLOAT16",
           "TORCH_SPEAKS_VERSIONED", "TORCH_EXPORTS_READ_ONLY", "TORCH_BYTE_OFFSET", "Layout", "LAYOUTS",
           "layout_named", "MX", "MXNP", "TORCH", "NUMPY", "mx_sides", "check_exchange", "marker", "reference", "live_counts",
           "mx_address", "version_tuple"]


def version_tuple(text):
    """(major, minor) of a version string such as '2.15.0+cu132' or '1.13.0a0'."""
    major, minor = re.match(r"(\d+)\.(\d+)", text).groups()
    return int(major), int(minor)


TORCH_VERSION = version_tuple(torch.__version__)
NUMPY_VERSION = version_tuple(np.__version__)

#: mxgo's dtypes that NumPy also has (the issue's list).
MX_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128")


def torch_dlpack_dtypes(version):
    """The dtypes PyTorch ``version`` exchanges through DLPack (in both directions)."""
    names = ["int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64",
             "complex64", "complex128",
             # not in NumPy, but both mxgo and every PyTorch exchange it (DLPack code 4)
             "bfloat16"]
    # kDLBool arrived with DLPack 0.8 in PyTorch 2.2 (pytorch#108486); before that torch
    # raises "Bool type is not supported by dlpack" (seen on 1.13).
    if version >= (2, 2):
        names.append("bool")
    # torch.uint16/32/64 exist since 2.3 (pytorch#116594) and convert to kDLUInt; 1.13 has
    # no such dtypes.
    if version >= (2, 3):
        names += ["uint16", "uint32", "uint64"]
    return tuple(names)


def numpy_dlpack_dtypes(version):
    """The dtypes NumPy ``version`` exchanges through DLPack (both directions)."""
    # NumPy 1.25 added bool to its DLPack support; 1.24 refuses it both ways.
    return MX_DTYPES if version >= (1, 25) else tuple(d for d in MX_DTYPES if d != "bool")


TORCH_DLPACK_DTYPES = torch_dlpack_dtypes(TORCH_VERSION)
NUMPY_DLPACK_DTYPES = numpy_dlpack_dtypes(NUMPY_VERSION)
#: NumPy < 2.1 speaks only legacy DLPack and marks every array it imports read-only.
NUMPY_IMPORTS_WRITABLE = NUMPY_VERSION >= (2, 1)
#: NumPy >= 2.1 speaks versioned capsules (``__dlpack__(max_version=...)``, and asks
#: producers for them); older NumPy refuses the keyword (TypeError).
NUMPY_SPEAKS_VERSIONED = NUMPY_VERSION >= (2, 1)
#: NumPy >= 2.1 exports read-only arrays with the READ_ONLY flag; older NumPy refuses
#: (BufferError) since legacy capsules cannot say "read-only".
NUMPY_EXPORTS_READ_ONLY = NUMPY_VERSION >= (2, 1)
#: Whether NumPy has a bfloat16 (ml_dtypes'): the main environment installs ml_dtypes
#: (requirements/dev.txt; tools/check_env.py main requires it), the legacy one has none
#: (Debian bookworm ships no ml_dtypes; tools/check_env.py legacy requires its absence).
NUMPY_HAS_BFLOAT16 = NUMPY_VERSION >= (2, 0)
#: PyTorch speaks versioned capsules (``__dlpack__(max_version=...)``, and
#: ``torch.utils.dlpack.from_dlpack`` takes "dltensor_versioned") since 2.9 (pytorch#145000);
#: 1.13 knows legacy capsules only. It never honours READ_ONLY on import.
TORCH_SPEAKS_VERSIONED = TORCH_VERSION >= (2, 9)
#: ``Tensor.__dlpack__(max_version=(1, x), read_only=True)`` sets READ_ONLY: seen on 2.14
#: and 2.15; the first release with the keyword was not determined, so older ones are not
#: relied on.
TORCH_EXPORTS_READ_ONLY = TORCH_VERSION >= (2, 14)
#: What PyTorch does with ``byte_offset`` on import: "ignored" up to 2.9 (pytorch#168177,
#: seen on 1.13; mxgo exports byte_offset 0 for that reason), "honoured" on 2.14 and 2.15
#: (seen); releases in between were not checked.
TORCH_BYTE_OFFSET = "honoured" if TORCH_VERSION >= (2, 14) else "ignored" if TORCH_VERSION < (2, 10) else "unchecked"


# ---- layouts ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Layout:
    """A view of a C-contiguous ``base``: an index ``key`` or an axes permutation ``perm``
    (or the base itself)."""
    name: str
    base: tuple
    key: object = None
    perm: tuple = None

    def __str__(self):
        return self.name

    def apply(self, arr, permute):
        """``arr[key]``, ``permute(arr, perm)`` or ``arr``."""
        if self.perm is not None:
            return permute(arr, self.perm)
        return arr if self.key is None else arr[self.key]

    def of_numpy(self, arr):
        return self.apply(arr, np.transpose)

    @property
    def shape(self):
        return self.of_numpy(np.empty(self.base, np.int8)).shape

    @property
    def negative_strides(self):
        """PyTorch has no negative strides: such layouts are NumPy's and mxgo's only."""
        return any(s < 0 for s in self.of_numpy(np.empty(self.base, np.int8)).strides)

    @property
    def c_contiguous(self):
        return self.of_numpy(np.empty(self.base, np.int8)).flags.c_contiguous


LAYOUTS = (
    Layout("0d", ()),
    Layout("0size", (0, 3)),
    Layout("1d", (7,)),
    Layout("4d", (2, 3, 4, 5)),
    Layout("transposed", (3, 4), perm=(1, 0)),
    Layout("permuted4d", (2, 3, 4, 5), perm=(2, 0, 3, 1)),
    Layout("stepped", (10,), key=slice(None, None, 2)),
    Layout("stepped2d", (6, 8), key=(slice(None, None, 2), slice(1, None, 3))),
    Layout("offset", (4, 5), key=(slice(1, None), slice(2, None))),
    Layout("size1dims", (3, 4), key=(slice(1, 2), None, slice(None))),
    Layout("reversed", (6, 4), key=(slice(None, None, -1), slice(None, None, 2))),
)


def layout_named(name):
    """The layout of LAYOUTS called ``name``."""
    return next(layout for layout in LAYOUTS if layout.name == name)


def reference(dtype, shape):
    """Distinct, exactly representable values of ``dtype`` (float32 stands for bfloat16)."""
    k = np.arange(math.prod(shape)).reshape(shape)
    v = k % 50 + 1
    if dtype == "bool":
        v = k % 3 == 1
    elif dtype.startswith("complex"):
        v = v + 1j * (k % 7 + 1)
    # np.array: ufuncs turn 0-d arrays into scalars
    return np.array(v, dtype=np.float32 if dtype == "bfloat16" else dtype)


def marker(dtype, old):
    """A value of ``dtype`` different from ``old`` (and from every reference value)."""
    if dtype == "bool":
        return not bool(old)
    v = 99 if old != 99 else 77
    return complex(v, 2) if dtype.startswith("complex") else v


# ---- adapters --------------------------------------------------------------------------

def mx_address(x):
    """Address of the first element of an mxgo array."""
    return x._data


def live_counts():
    """mxgo's (live handles, live storages, live exports)."""
    return core.LiveHandles(), core.LiveStorages(), core.LiveExports()


#: Arrays that from_numpy and from_dlpack make in C get their Go side on first use: each
#: of these uses makes it (and keeps what it returns). Arithmetic on tiny arrays runs in
#: C (tiny.c) and makes none: the operator here is one only Go computes.
FIRST_USES = {
    "handle": lambda x: x.handle,
    "operator": lambda x: mx.nd.exp(x),  # not one tiny.c computes: it makes the Go side
    "to_dlpack_for_read": lambda x: x.to_dlpack_for_read(),
    "__dlpack__": lambda x: x.__dlpack__(max_version=(1, 0)),
    "np.from_dlpack": np.from_dlpack,
    "torch.from_dlpack": torch.from_dlpack,
    "asnumpy": lambda x: x.asnumpy(),
    "setitem": lambda x: x.__setitem__(0, 5),
}
#: the FIRST_USES whose result holds the array's memory
HOLDS_MEMORY = {"to_dlpack_for_read", "__dlpack__", "np.from_dlpack", "torch.from_dlpack"}


_builder = CountingProducer()  # gives mxgo arrays layouts its own indexing cannot make


class _MX:
    name = "mxgo"
    cls = mx.nd.NDArray
    from_dlpack = staticmethod(mx.nd.from_dlpack)

    def make(self, dtype, layout):
        if layout.perm is None:
            x = mx.nd.empty(layout.base, dtype=dtype)
            x[...] = reference(dtype, layout.base)
            return layout.apply(x, None)
        # mxgo has no transpose: import the permuted layout through DLPack
        ref = reference(dtype, layout.base)
        code = None
        if dtype == "bfloat16":  # the upper half of a float32 is its bfloat16
            ref, code = (ref.view(np.uint32) >> 16).astype(np.uint16), (4, 16, 1)
        capsule, _ = _builder.capsule(ref.transpose(layout.perm), dtype=code)
        return mx.nd.from_dlpack(capsule)

    def values(self, x):
        return x.astype("float32").asnumpy() if x.dtype == "bfloat16" else x.asnumpy()

    def dtype_name(self, x):
        return "bfloat16" if x.dtype == "bfloat16" else np.dtype(x.dtype).name

    def shape(self, x):
        return x.shape

    def strides(self, x):
        return x.strides

    def address(self, x):
        return mx_address(x)

    def write(self, x, index, value):
        x[index if index else ...] = value
        # mxgo writes run on its asynchronous engine: as in MXNet, wait before another
        # framework reads the memory.
        x.wait_to_read()


class _Torch:
    name = "torch"

    def make(self, dtype, layout):
        ref = reference(dtype, layout.base)
        t = torch.from_numpy(ref.copy())
        if dtype == "bfloat16":
            t = t.to(torch.bfloat16)
        return layout.apply(t, torch.Tensor.permute)

    def values(self, t):
        return (t.float() if t.dtype == torch.bfloat16 else t).numpy()

    def dtype_name(self, t):
        return str(t.dtype).replace("torch.", "")

    def shape(self, t):
        return tuple(t.shape)

    def strides(self, t):
        return t.stride()

    def address(self, t):
        return t.data_ptr()

    def write(self, t, index, value):
        t[index] = value  # an in-place index_put_


class _NumPy:
    name = "numpy"

    def make(self, dtype, layout):
        return layout.of_numpy(reference(dtype, layout.base))

    def values(self, a):
        return np.array(a)

    def dtype_name(self, a):
        return a.dtype.name

    def shape(self, a):
        return a.shape

    def strides(self, a):
        return tuple(s // a.itemsize for s in a.strides)

    def address(self, a):
        return a.__array_interface__["data"][0]

    def write(self, a, index, value):
        a[index] = value


class _MXNP(_MX):
    name = "mxgo.np"
    cls = mx.np.ndarray
    from_dlpack = staticmethod(mx.np.from_dlpack)

    def make(self, dtype, layout):
        return super().make(dtype, layout).as_np_ndarray()


MX, MXNP, TORCH, NUMPY = _MX(), _MXNP(), _Torch(), _NumPy()

#: the layouts mx.np's arrays are exchanged in (see :func:`mx_sides`)
_NP_LAYOUTS = {"0d", "0size", "permuted4d", "stepped2d", "offset", "reversed"}


def mx_sides(layouts):
    """(mxgo side, layout) parameters: mx.nd's arrays in every layout of ``layouts``, mx.np's
    in those of them named in _NP_LAYOUTS. The layouts are the core's, the same for both
    classes; what the class changes (its entry points, how it reports dtype and values)
    shows in any layout, so mx.np runs every dtype over a few that cover each kind."""
    return [pytest.param(side, layout, id="%s-%s" % (side.name, layout))
            for side in (MX, MXNP) for layout in layouts if side is MX or layout.name in _NP_LAYOUTS]


def same_layout(shape, a, b):
    """Whether element strides ``a`` and ``b`` lay out ``shape`` alike: equal on every axis
    longer than 1. An axis of length 1 is never stepped along, so its stride is arbitrary
    (PyTorch 1.13 exports 1 there), and an array with no elements addresses no memory."""
    if 0 in shape:
        return True
    return len(a) == len(b) == len(shape) and all(x == y for d, x, y in zip(shape, a, b) if d > 1)


def check_exchange(producer, src, consumer, dst, dtype, writers=("producer", "consumer")):
    """Asserts that ``dst`` (made by ``consumer``) is a zero-copy view of ``src`` (made by
    ``producer``): same dtype, shape, values, element strides and first-element address,
    and writes by each of ``writers`` are seen on both sides (each write touches one
    element; every other element must stay as it was)."""
    expected = producer.values(src).copy()
    shape = expected.shape
    assert consumer.dtype_name(dst) == producer.dtype_name(src) == dtype
    assert consumer.shape(dst) == producer.shape(src) == shape
    assert same_layout(shape, producer.strides(src), consumer.strides(dst)), \
        (shape, producer.strides(src), consumer.strides(dst))
    np.testing.assert_array_equal(consumer.values(dst), expected)
    if expected.size == 0:
        return
    assert consumer.address(dst) == producer.address(src)
    last, first = tuple(d - 1 for d in shape), (0,) * len(shape)
    for who, index in zip(writers, (last, first)):
        side, obj = (producer, src) if who == "producer" else (consumer, dst)
        value = marker(dtype, expected[index])
        side.write(obj, index, value)
        expected[index] = value
        for reader, view in ((producer, src), (consumer, dst)):
            np.testing.assert_array_equal(reader.values(view), expected,
                                          err_msg="%s after a %s write" % (reader.name, side.name))
