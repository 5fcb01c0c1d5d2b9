"""The DLPack contract of issue 3, producer and consumer side, one rule per test.

Producer: ``NDArray.__dlpack__(*, stream, max_version, dl_device, copy)``,
``to_dlpack_for_read/for_write(max_version)`` (methods and module functions): capsule kind
and version, READ_ONLY and IS_COPIED flags, copies, devices and streams.
Consumer: ``mx.nd.from_dlpack(x, *, device, copy)``: copies, devices, the fallback for
producers without keywords, READ_ONLY end to end (mxgo, NumPy, PyTorch, hand-made capsules).
Peer-specific rules are branched on the peer's version (``interop_helpers``)."""
import enum
import gc

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from dlpack_producer import FLAG_IS_COPIED, FLAG_READ_ONLY, CountingProducer, capsule_name, inspect_capsule
from interop_helpers import (MX, NUMPY, NUMPY_EXPORTS_READ_ONLY, NUMPY_IMPORTS_WRITABLE, TORCH,
                             TORCH_EXPORTS_READ_ONLY, TORCH_SPEAKS_VERSIONED, mx_address)

#: the DLPack version mxgo implements, written into every versioned capsule it makes
MXGO_DLPACK_VERSION = (1, 3)
LEGACY, VERSIONED = "dltensor", "dltensor_versioned"


def _read_only_numpy(n=4):
    a = np.arange(float(n))
    a.flags.writeable = False
    return a


#: name -> function returning a fresh writable NDArray (several origins and layouts)
WRITABLE = {
    "created": lambda: mx.nd.arange(6),
    "strided_view": lambda: mx.nd.arange(24).reshape((4, 6))[1:, ::-2],
    "from_numpy": lambda: mx.nd.from_numpy(np.arange(6.0)),
    "from_torch": lambda: mx.nd.from_dlpack(torch.arange(6.0)),
    "from_capsule": lambda: mx.nd.from_dlpack(CountingProducer().capsule(np.arange(6.0))[0]),
}

#: name -> function returning a fresh read-only NDArray
READ_ONLY = {
    "from_numpy_read_only": lambda: mx.nd.from_numpy(_read_only_numpy()),
    "view_of_read_only": lambda: mx.nd.from_numpy(_read_only_numpy(12)).reshape((3, 4))[::2, 1:],
    "read_only_capsule": lambda: mx.nd.from_dlpack(
        CountingProducer().capsule(np.arange(6.0), versioned=True, flags=FLAG_READ_ONLY)[0]),
    "mxgo_for_read_capsule": lambda: mx.nd.from_dlpack(mx.nd.arange(6).to_dlpack_for_read(max_version=(1, 0))),
}
ALL = {**WRITABLE, **READ_ONLY}


pytestmark = pytest.mark.usefixtures("frozen_heap")


# ---- producer: capsule kind, version, flags ----------------------------------------------

@pytest.mark.parametrize("max_version, name", [
    (None, LEGACY), ((0, 8), LEGACY), ((0, 99), LEGACY),
    ((1, 0), VERSIONED), ((1, 3), VERSIONED), ((1, 99), VERSIONED), ((2, 0), VERSIONED), ((7, 1), VERSIONED),
    ((2**70, 0), VERSIONED), ((-2**70, 0), LEGACY),
], ids=repr)
@pytest.mark.parametrize("source", sorted(WRITABLE))
def test_max_version_picks_the_capsule(source, max_version, name):
    """Major < 1 (or None): legacy. Major >= 1: versioned, stamped with the version mxgo
    implements (never more than it speaks, never the consumer's number)."""
    x = WRITABLE[source]()
    info = inspect_capsule(x.__dlpack__(max_version=max_version))
    assert info["name"] == name
    assert info["data"] == mx_address(x) and info["shape"] == x.shape and info["strides"] == x.strides
    if name == VERSIONED:
        assert info["version"] == MXGO_DLPACK_VERSION and info["flags"] == 0


@pytest.mark.parametrize("source", sorted(ALL))
def test_read_only_flag_exactly_when_not_writable(source):
    x = ALL[source]()
    flags = inspect_capsule(x.__dlpack__(max_version=(1, 0)))["flags"]
    assert flags == (0 if x.writable else FLAG_READ_ONLY)
    assert x.writable == (source in WRITABLE)


@pytest.mark.parametrize("max_version", [None, (0, 8)], ids=repr)
@pytest.mark.parametrize("source", sorted(READ_ONLY))
def test_legacy_export_of_read_only_array_is_refused(source, max_version):
    """A legacy capsule cannot say "read-only", so mxgo refuses to make one."""
    x = READ_ONLY[source]()
    with pytest.raises(BufferError, match="read-only"):
        x.__dlpack__(max_version=max_version)
    with pytest.raises(BufferError, match="read-only"):
        x.__dlpack__(max_version=max_version, copy=False)


@pytest.mark.parametrize("max_version", [None, (1, 0)], ids=repr)
@pytest.mark.parametrize("source", sorted(ALL))
def test_copy_true_exports_independent_memory(source, max_version):
    """copy=True: a fresh C-contiguous copy that mxgo no longer touches; IS_COPIED on
    versioned capsules; writable even when the source is read-only (the consumer owns it),
    so a legacy capsule is allowed then."""
    x = ALL[source]()
    before = x.asnumpy()
    capsule = x.__dlpack__(max_version=max_version, copy=True)
    info = inspect_capsule(capsule)
    assert info["data"] != mx_address(x)
    if max_version is not None:
        assert info["flags"] == FLAG_IS_COPIED  # and no READ_ONLY
    y = mx.nd.from_dlpack(capsule)
    assert y.writable and y.strides == mx.nd.empty(x.shape).strides
    np.testing.assert_array_equal(y.asnumpy(), before)
    y[...] = -5
    np.testing.assert_array_equal(x.asnumpy(), before)
    if x.writable:
        x[...] = 7
        assert (y.asnumpy() == -5).all()


@pytest.mark.parametrize("copy", [None, False])
@pytest.mark.parametrize("max_version", [None, (1, 0)], ids=repr)
@pytest.mark.parametrize("source", sorted(WRITABLE))
def test_copy_false_or_none_shares(source, max_version, copy):
    x = WRITABLE[source]()
    capsule = x.__dlpack__(max_version=max_version, copy=copy)
    if max_version is not None:
        assert inspect_capsule(capsule)["flags"] == 0
    y = mx.nd.from_dlpack(capsule)
    assert mx_address(y) == mx_address(x)
    y[...] = 3
    assert (x.asnumpy() == 3).all()


class _DLDeviceType(enum.IntEnum):
    """What PyTorch and JAX consumers pass as a device type."""
    kDLCPU = 1
    kDLCUDA = 2


@pytest.mark.parametrize("dl_device, error", [
    (None, None), ((1, 0), None), ((_DLDeviceType.kDLCPU, 0), None),
    ((2, 0), BufferError), ((1, 1), BufferError), ((3, 0), BufferError), ((13, 0), BufferError),
    ((99, 7), BufferError), ((_DLDeviceType.kDLCUDA, 0), BufferError), ("cpu", TypeError), ((1,), TypeError),
], ids=repr)
def test_dl_device(dl_device, error):
    """The array's own device or (1, 0) (the same here). A GPU (2, i) and page-locked memory
    (3, 0) take a copy, which needs a CUDA driver: without one (tests_py runs without, see
    conftest) BufferError, as for devices mxgo has no back end for; a non-pair is a
    TypeError. The copies are tested against the fake driver (test_gpu_fake.py)."""
    x = mx.nd.arange(4)
    assert x.__dlpack_device__() == (1, 0)
    for max_version in (None, (1, 0)):
        if error is None:
            y = mx.nd.from_dlpack(x.__dlpack__(dl_device=dl_device, max_version=max_version))
            assert mx_address(y) == mx_address(x)
        else:
            with pytest.raises(error):
                x.__dlpack__(dl_device=dl_device, max_version=max_version)


@pytest.mark.parametrize("stream, error", [
    (None, None), (-1, None),
    (0, ValueError), (1, ValueError), (2, ValueError), (-2, ValueError), (12345, ValueError),
    (2**70, ValueError), (-2**70, ValueError),
    ("0", TypeError), (1.0, TypeError), (-1.0, TypeError), (True, TypeError), (object(), TypeError),
], ids=repr)
def test_stream(stream, error):
    """CPU arrays have no stream: None or -1 ("no synchronisation"); any other int is a
    ValueError, anything else a TypeError."""
    x = mx.nd.arange(4)
    for max_version in (None, (1, 0)):
        if error is None:
            assert capsule_name(x.__dlpack__(stream=stream, max_version=max_version)) in (LEGACY, VERSIONED)
        else:
            with pytest.raises(error):
                x.__dlpack__(stream=stream, max_version=max_version)


@pytest.mark.parametrize("kwargs", [{"copy": 1}, {"copy": "yes"}, {"max_version": 1}, {"max_version": "1.0"},
                                    {"max_version": (1.0, 0)}, {"max_version": (True, 0)}, {"unknown": 1}], ids=repr)
def test_bad_argument_types(kwargs):
    with pytest.raises(TypeError):
        mx.nd.arange(4).__dlpack__(**kwargs)


def test_positional_arguments_are_refused():
    with pytest.raises(TypeError):
        mx.nd.arange(4).__dlpack__(None)


# ---- producer: to_dlpack_for_read / to_dlpack_for_write -----------------------------------

FOR_READ = {
    "method": lambda x, **kw: x.to_dlpack_for_read(**kw),
    "module": lambda x, **kw: mx.nd.to_dlpack_for_read(x, **kw),
}
FOR_WRITE = {
    "method": lambda x, **kw: x.to_dlpack_for_write(**kw),
    "module": lambda x, **kw: mx.nd.to_dlpack_for_write(x, **kw),
}


@pytest.mark.parametrize("form", sorted(FOR_READ))
@pytest.mark.parametrize("source", sorted(ALL))
def test_for_read(source, form):
    """Legacy by default (MXNet, torch.utils.dlpack); versioned on request, always with
    READ_ONLY, even for a writable array."""
    x = ALL[source]()
    export = FOR_READ[form]
    for kwargs, name in (({}, LEGACY), ({"max_version": None}, LEGACY), ({"max_version": (0, 8)}, LEGACY),
                         ({"max_version": (1, 0)}, VERSIONED), ({"max_version": (1, 3)}, VERSIONED),
                         ({"max_version": (2, 0)}, VERSIONED)):
        info = inspect_capsule(export(x, **kwargs))
        assert info["name"] == name and info["data"] == mx_address(x)
        if name == VERSIONED:
            assert info["version"] == MXGO_DLPACK_VERSION and info["flags"] == FLAG_READ_ONLY
    y = mx.nd.from_dlpack(export(x, max_version=(1, 0)))
    assert not y.writable and mx_address(y) == mx_address(x)
    with pytest.raises(ValueError, match="read-only"):
        y[...] = 1


@pytest.mark.parametrize("form", sorted(FOR_WRITE))
@pytest.mark.parametrize("source", sorted(WRITABLE))
def test_for_write_writable(source, form):
    x = WRITABLE[source]()
    export = FOR_WRITE[form]
    for kwargs, name in (({}, LEGACY), ({"max_version": (0, 8)}, LEGACY), ({"max_version": (1, 0)}, VERSIONED),
                         ({"max_version": (2, 0)}, VERSIONED)):
        info = inspect_capsule(export(x, **kwargs))
        assert info["name"] == name and info["data"] == mx_address(x)
        if name == VERSIONED:
            assert info["version"] == MXGO_DLPACK_VERSION and info["flags"] == 0
    y = mx.nd.from_dlpack(export(x, max_version=(1, 0)))
    assert y.writable
    y[...] = 8
    assert (x.asnumpy() == 8).all()


@pytest.mark.parametrize("max_version", [None, (0, 8), (1, 0), (1, 3), (2, 0)], ids=repr)
@pytest.mark.parametrize("form", sorted(FOR_WRITE))
@pytest.mark.parametrize("source", sorted(READ_ONLY))
def test_for_write_read_only_is_refused(source, form, max_version):
    x = READ_ONLY[source]()
    with pytest.raises(BufferError, match="read-only"):
        FOR_WRITE[form](x, max_version=max_version)


@pytest.mark.parametrize("form", ["read", "write"])
def test_module_forms_refuse_non_arrays(form):
    fn = mx.nd.to_dlpack_for_read if form == "read" else mx.nd.to_dlpack_for_write
    with pytest.raises(TypeError):
        fn(np.arange(3.0))


# ---- consumer: copy and device ----------------------------------------------------------

#: name -> (adapter, make source, export to what from_dlpack takes). Each source holds
#: float32 [0, 1, ..., 5].
SOURCES = {
    "mxgo_object": (MX, lambda: mx.nd.arange(6), lambda x: x),
    "mxgo_capsule": (MX, lambda: mx.nd.arange(6), lambda x: x.to_dlpack_for_write()),
    "mxgo_versioned_capsule": (MX, lambda: mx.nd.arange(6), lambda x: x.__dlpack__(max_version=(1, 0))),
    "numpy_object": (NUMPY, lambda: np.arange(6, dtype=np.float32), lambda a: a),
    "torch_object": (TORCH, lambda: torch.arange(6, dtype=torch.float32), lambda t: t),
    "torch_capsule": (TORCH, lambda: torch.arange(6, dtype=torch.float32), tdl.to_dlpack),
}


@pytest.mark.parametrize("copy", [True, False, None])
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_from_dlpack_copy(source, copy):
    """copy=True: memory mxgo owns (writes on either side stay there); False and None:
    the producer's memory."""
    adapter, make, export = SOURCES[source]
    src = make()
    x = mx.nd.from_dlpack(export(src), copy=copy)
    assert x.writable and x.asnumpy().tolist() == list(range(6))
    x[0] = 100
    x.wait_to_read()  # mxgo writes asynchronously: wait before the producer touches the memory
    adapter.write(src, (5,), -1)
    if copy:
        assert mx_address(x) != adapter.address(src)
        assert adapter.values(src).tolist() == [0, 1, 2, 3, 4, -1]
        assert x.asnumpy().tolist() == [100, 1, 2, 3, 4, 5]
    else:
        assert mx_address(x) == adapter.address(src)
        assert adapter.values(src).tolist() == x.asnumpy().tolist() == [100, 1, 2, 3, 4, -1]


@pytest.mark.parametrize("device", [None, (1, 0), mx.cpu(), mx.cpu(0)], ids=repr)
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_from_dlpack_cpu_device(source, device):
    adapter, make, export = SOURCES[source]
    src = make()
    x = mx.nd.from_dlpack(export(src), device=device)
    assert x.context == mx.cpu(0) and mx_address(x) == adapter.address(src)


@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("device", [(2, 0), (1, 1), (10, 0), mx.gpu(0), mx.gpu(1), mx.cpu(1)], ids=repr)
def test_from_dlpack_other_devices_are_refused(device, copy):
    """Without a CUDA driver (tests_py runs without one, see conftest) no device but cpu(0)
    can be the target, with or without a copy, and nothing is consumed; cpu(1) is no DLPack
    device. Imports onto a GPU are tested against the fake driver (test_gpu_fake.py)."""
    capsule = mx.nd.arange(3).to_dlpack_for_write()
    with pytest.raises(BufferError):
        mx.nd.from_dlpack(capsule, device=device, copy=copy)
    assert capsule_name(capsule) == LEGACY
    with pytest.raises(BufferError):
        mx.nd.from_dlpack(torch.arange(3.0), device=device, copy=copy)


@pytest.mark.parametrize("copy", [1, 0, "yes", 1.0])
def test_from_dlpack_copy_type(copy):
    with pytest.raises(TypeError):
        mx.nd.from_dlpack(mx.nd.arange(3), copy=copy)


# ---- consumer: producers without the 2023 keywords ----------------------------------------

class KeywordlessProducer:
    """Wraps a NumPy array; its ``__dlpack__`` takes no keywords (a DLPack < 1.0
    producer), so ``__dlpack__(max_version=...)`` raises TypeError."""

    def __init__(self, array):
        self.array = array
        self.calls = []

    def __dlpack__(self):
        self.calls.append("__dlpack__")
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("copy", [None, False, True])
def test_fallback_for_keywordless_producer(copy):
    a = np.arange(5, dtype=np.int32)
    producer = KeywordlessProducer(a)
    x = mx.nd.from_dlpack(producer, copy=copy)
    assert producer.calls == ["__dlpack__"]  # the keyword call failed before reaching it
    assert x.asnumpy().tolist() == [0, 1, 2, 3, 4] and x.writable
    # a producer that ignored copy=True (it could not be told) is copied by mxgo
    assert (mx_address(x) == a.ctypes.data) == (not copy)
    x[0] = 9
    x.wait_to_read()  # mxgo writes asynchronously: wait before NumPy reads
    assert a[0] == (0 if copy else 9)


def test_fallback_keeps_the_type_error_of_the_retry():
    """If the producer also fails without keywords, its error propagates."""
    class Broken(KeywordlessProducer):
        def __dlpack__(self):
            raise TypeError("broken producer")

    with pytest.raises(TypeError, match="broken producer"):
        mx.nd.from_dlpack(Broken(np.arange(3.0)))


# ---- consumer: read-only end to end -------------------------------------------------------

def _check_read_only_import(x, address):
    assert not x.writable and mx_address(x) == address
    for view in (x, x[1:], x.reshape((-1,))):
        assert not view.writable
        with pytest.raises(ValueError, match="read-only"):
            view[...] = 1
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        x += 1
    for max_version in (None, (1, 0)):
        with pytest.raises(BufferError, match="read-only"):
            x.to_dlpack_for_write(max_version=max_version)
        with pytest.raises(BufferError, match="read-only"):
            mx.nd.to_dlpack_for_write(x, max_version=max_version)
    with pytest.raises(BufferError, match="read-only"):
        x.__dlpack__()
    assert inspect_capsule(x.__dlpack__(max_version=(1, 0)))["flags"] == FLAG_READ_ONLY
    copy = x.copy()
    assert copy.writable


@pytest.mark.parametrize("form", ["capsule", "object"])
def test_read_only_capsule(form):
    producer = CountingProducer()
    src = np.arange(6.0)
    capsule, tag = producer.capsule(src, versioned=True, flags=FLAG_READ_ONLY)
    x = mx.nd.from_dlpack(capsule if form == "capsule" else _Holder(capsule))
    _check_read_only_import(x, src.ctypes.data)
    assert src.tolist() == list(range(6))  # nothing was written
    del x
    mx.nd.waitall()  # queued work (the copy above) holds the memory until it is done
    gc.collect()
    assert producer.deleter_calls(tag) == 1


def test_read_only_capsule_with_copy_gives_a_writable_copy():
    src = np.arange(6.0)
    capsule, _ = CountingProducer().capsule(src, versioned=True, flags=FLAG_READ_ONLY | FLAG_IS_COPIED)
    x = mx.nd.from_dlpack(capsule, copy=True)
    assert x.writable and mx_address(x) != src.ctypes.data
    x[0] = 5
    x.wait_to_read()  # so that an aliasing bug would show in `src`
    assert src[0] == 0


class _Holder:
    """An object handing out one prepared capsule (it accepts every keyword)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def test_read_only_numpy_source():
    a = _read_only_numpy(6)
    if NUMPY_EXPORTS_READ_ONLY:  # NumPy >= 2.1: a versioned capsule with READ_ONLY
        _check_read_only_import(mx.nd.from_dlpack(a), a.ctypes.data)
        copy = mx.nd.from_dlpack(a, copy=True)  # NumPy copies (IS_COPIED), writable
        assert copy.writable and mx_address(copy) != a.ctypes.data
    else:  # NumPy < 2.1 cannot say read-only, so it refuses to export the array
        with pytest.raises(BufferError):
            mx.nd.from_dlpack(a)
    # from_numpy reads the buffer protocol's read-only flag on every NumPy
    _check_read_only_import(mx.nd.from_numpy(a), a.ctypes.data)


def test_read_only_torch_source():
    t = torch.arange(6.0)
    if TORCH_EXPORTS_READ_ONLY:  # Tensor.__dlpack__(read_only=True) sets READ_ONLY
        capsule = t.__dlpack__(max_version=(1, 0), read_only=True)
        assert inspect_capsule(capsule)["flags"] & FLAG_READ_ONLY
        _check_read_only_import(mx.nd.from_dlpack(capsule), t.data_ptr())
    else:  # no read-only exports: every torch import is writable
        assert mx.nd.from_dlpack(t).writable


@pytest.mark.parametrize("source", sorted(READ_ONLY))
def test_numpy_import_of_read_only_mxgo_array(source):
    x = READ_ONLY[source]()
    if NUMPY_EXPORTS_READ_ONLY:  # NumPy >= 2.1 asks for a versioned capsule, honours READ_ONLY
        a = np.from_dlpack(x)
        assert not a.flags.writeable and a.ctypes.data == mx_address(x)
        np.testing.assert_array_equal(a, x.asnumpy())
        with pytest.raises(ValueError):
            a[...] = 0
    else:  # NumPy < 2.1 asks for a legacy capsule, which cannot say read-only
        with pytest.raises(BufferError, match="read-only"):
            np.from_dlpack(x)


@pytest.mark.parametrize("source", sorted(WRITABLE))
def test_numpy_import_of_writable_mxgo_array(source):
    x = WRITABLE[source]()
    a = np.from_dlpack(x)
    assert a.flags.writeable == NUMPY_IMPORTS_WRITABLE and a.ctypes.data == mx_address(x)


def test_torch_import_of_for_read_capsule_ignores_read_only():
    """PyTorch has no read-only tensors: a READ_ONLY capsule from mxgo imports as an
    ordinary tensor (2.x), or is not understood at all (1.13 takes legacy capsules only).
    This is why to_dlpack_for_read stays legacy by default."""
    x = mx.nd.arange(4)
    if TORCH_SPEAKS_VERSIONED:
        t = tdl.from_dlpack(x.to_dlpack_for_read(max_version=(1, 0)))
        assert t.data_ptr() == mx_address(x)
    t = tdl.from_dlpack(x.to_dlpack_for_read())
    assert t.data_ptr() == mx_address(x)
