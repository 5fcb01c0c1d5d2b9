"""The DLPack capsule protocol and ABI as mxgo speaks it: consuming capsules once, refusing
what is not a DLPack tensor, ``__dlpack__``'s keywords, read-only arrays, the fields of
exported tensors, and validation of imported ones (the deleter runs exactly once)."""
import gc

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from dlpack_producer import (FLAG_IS_COPIED, FLAG_READ_ONLY, CountingProducer, capsule_name, capsule_pointer,
                             dl_dtype, inspect_capsule, make_capsule)
from interop_helpers import (FIRST_USES, HOLDS_MEMORY, LAYOUTS, MX, MX_DTYPES, NUMPY_EXPORTS_READ_ONLY,
                             live_counts, mx_address, reference)

VERSIONED = (1, 0)


def _counting(versioned):
    def make():
        capsule, _ = CountingProducer().capsule(np.arange(6.0), versioned=versioned)
        return capsule
    return make


#: name -> function making a fresh, unconsumed capsule of 6 float64 or float32 values
CAPSULES = {
    "mx_for_read": lambda: mx.nd.arange(6).to_dlpack_for_read(),
    "mx_for_write": lambda: mx.nd.arange(6).to_dlpack_for_write(),
    "mx_for_read_versioned": lambda: mx.nd.arange(6).to_dlpack_for_read(max_version=VERSIONED),
    "mx_dunder": lambda: mx.nd.arange(6).__dlpack__(),
    "mx_dunder_versioned": lambda: mx.nd.arange(6).__dlpack__(max_version=VERSIONED),
    "torch": lambda: tdl.to_dlpack(torch.arange(6.0)),
    "numpy": lambda: np.arange(6.0).__dlpack__(),
    "counting_legacy": _counting(False),
    "counting_versioned": _counting(True),
}


@pytest.mark.parametrize("source", sorted(CAPSULES))
def test_capsule_is_consumed_once(source):
    capsule = CAPSULES[source]()
    name = capsule_name(capsule)
    x = mx.nd.from_dlpack(capsule)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6.0))
    assert capsule_name(capsule) == "used_" + name
    with pytest.raises(ValueError, match="consumed"):
        mx.nd.from_dlpack(capsule)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6.0))


@pytest.mark.parametrize("export", ["to_dlpack_for_read", "to_dlpack_for_write"])
def test_capsule_consumed_by_torch_is_refused(export):
    capsule = getattr(mx.nd.arange(6), export)()
    t = tdl.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed"):
        mx.nd.from_dlpack(capsule)
    assert t.sum().item() == 15.0


def test_unconsumed_capsules_free_their_export():
    gc.collect()
    baseline = live_counts()
    x = mx.nd.ones((3, 4))
    capsules = [x.to_dlpack_for_read(), x.to_dlpack_for_write(), x.__dlpack__(max_version=VERSIONED),
                x[1:].to_dlpack_for_read(max_version=VERSIONED)]
    assert live_counts()[2] == baseline[2] + len(capsules)
    del x  # the capsules keep the memory
    assert live_counts()[1] == baseline[1] + 1
    capsules.clear()
    assert live_counts() == baseline


class _Fake:
    """An object claiming DLPack support (device and capsule given)."""

    def __init__(self, capsule, device=(1, 0)):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


class _OldProducer(_Fake):
    """A producer from before the max_version keyword (DLPack < 1.0)."""

    def __dlpack__(self, stream=None):
        return self.capsule


NOT_DLPACK = {"int": 42, "str": "x", "none": None, "list": [1, 2], "bytes": b"\0" * 8, "object": object(),
              "float": 1.0, "dlpack_returns_int": _Fake(42), "dlpack_returns_str": _Fake("dltensor")}


@pytest.mark.parametrize("name", sorted(NOT_DLPACK))
def test_from_dlpack_refuses_non_dlpack_objects(name):
    with pytest.raises(TypeError):
        mx.nd.from_dlpack(NOT_DLPACK[name])


def test_from_dlpack_falls_back_to_legacy_producers():
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(4, dtype=np.int16))
    x = mx.nd.from_dlpack(_OldProducer(capsule))
    assert x.asnumpy().tolist() == [0, 1, 2, 3] and capsule_name(capsule) == "used_dltensor"
    del x
    assert producer.deleter_calls(tag) == 1


@pytest.mark.parametrize("device", [(2, 0), (13, 0), (7, 1)])
def test_from_dlpack_refuses_foreign_devices(device):
    capsule = mx.nd.ones((2,)).to_dlpack_for_read()
    with pytest.raises(BufferError):
        mx.nd.from_dlpack(_Fake(capsule, device))
    assert capsule_name(capsule) == "dltensor"  # not asked for, not consumed


@pytest.mark.parametrize("device", [None, (1, 0), mx.cpu(0)], ids=repr)
def test_from_dlpack_device_keyword(device):
    x = mx.nd.from_dlpack(torch.ones(2), device=device)
    assert x.context == mx.cpu(0)
    with pytest.raises(BufferError):
        mx.nd.from_dlpack(torch.ones(2), device=mx.gpu(0))


@pytest.mark.parametrize("name", [b"foo", None, b"dltensorX", b"used_dltensor", b"used_dltensor_versioned"],
                         ids=repr)
def test_capsule_with_wrong_name(name):
    producer = CountingProducer()
    good, tag = producer.capsule(np.arange(3.0))
    address = capsule_pointer(good)
    with pytest.raises(ValueError, match="consumed" if name and name.startswith(b"used") else "name"):
        mx.nd.from_dlpack(make_capsule(address, name))
    assert producer.deleter_calls(tag) == 0  # mxgo did not take it
    mx.nd.from_dlpack(good)
    gc.collect()
    assert producer.deleter_calls(tag) == 1


# ---- __dlpack__ keywords -------------------------------------------------------------------

@pytest.mark.parametrize("max_version, name", [(None, "dltensor"), ((0, 8), "dltensor"),
                                               ((1, 0), "dltensor_versioned"), ((1, 3), "dltensor_versioned")])
def test_dlpack_max_version(max_version, name):
    capsule = mx.nd.ones((2,)).__dlpack__(max_version=max_version)
    info = inspect_capsule(capsule)
    assert info["name"] == name
    if name == "dltensor_versioned":
        assert info["version"][0] == 1 and info["flags"] == 0


@pytest.mark.parametrize("kwargs, error", [
    ({"stream": None}, None), ({"stream": -1}, None), ({"dl_device": None}, None),
    ({"dl_device": (1, 0)}, None), ({"copy": False}, None), ({"copy": None}, None),
    ({"stream": 1}, ValueError), ({"stream": 0}, ValueError), ({"stream": "a"}, TypeError),
    ({"stream": 1.0}, TypeError), ({"dl_device": (2, 0)}, BufferError), ({"copy": "yes"}, TypeError),
    ({"max_version": "x"}, TypeError),
], ids=repr)
def test_dlpack_keywords(kwargs, error):
    x = mx.nd.arange(4)
    if error is None:
        y = mx.nd.from_dlpack(x.__dlpack__(**kwargs))
        assert mx_address(y) == mx_address(x)
    else:
        with pytest.raises(error):
            x.__dlpack__(**kwargs)
    assert x.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("max_version", [None, VERSIONED])
def test_dlpack_copy_is_independent(max_version):
    x = mx.nd.arange(4)
    capsule = x.__dlpack__(max_version=max_version, copy=True)
    if max_version:
        assert inspect_capsule(capsule)["flags"] & FLAG_IS_COPIED
    y = mx.nd.from_dlpack(capsule)
    assert mx_address(y) != mx_address(x)
    y[0] = 100
    x[1] = -1
    assert x.asnumpy().tolist() == [0, -1, 2, 3] and y.asnumpy().tolist() == [100, 1, 2, 3]


# ---- read-only arrays ----------------------------------------------------------------------

def _readonly_numpy():
    a = np.arange(4.0)
    a.flags.writeable = False
    return a


#: name -> a read-only NDArray over foreign memory
READ_ONLY = {
    "from_numpy_readonly": lambda: mx.nd.from_numpy(_readonly_numpy()),
    "from_numpy_bytes": lambda: mx.nd.from_numpy(np.frombuffer(b"\0\0\x80?\0\0\0@", np.float32)),
    "dlpack_read_only_flag": lambda: mx.nd.from_dlpack(
        CountingProducer().capsule(np.arange(4.0), versioned=True, flags=FLAG_READ_ONLY)[0]),
}
if NUMPY_EXPORTS_READ_ONLY:  # NumPy >= 2.1 exports read-only arrays with READ_ONLY set
    READ_ONLY["numpy_dlpack_readonly"] = lambda: mx.nd.from_dlpack(_readonly_numpy())


@pytest.mark.parametrize("source", sorted(READ_ONLY))
def test_read_only_arrays(source):
    x = READ_ONLY[source]()
    assert not x.writable and not x[1:].writable
    with pytest.raises(BufferError):
        x.to_dlpack_for_write()
    with pytest.raises(BufferError):
        mx.nd.to_dlpack_for_write(x)
    with pytest.raises(BufferError):
        x.__dlpack__()  # a legacy capsule cannot say "read-only"
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 5
    assert inspect_capsule(x.__dlpack__(max_version=VERSIONED))["flags"] & FLAG_READ_ONLY
    assert inspect_capsule(x.to_dlpack_for_read(max_version=VERSIONED))["flags"] & FLAG_READ_ONLY
    t = tdl.from_dlpack(x.to_dlpack_for_read())  # MXNet's for-read export stays legacy
    assert t.data_ptr() == mx_address(x)
    if NUMPY_EXPORTS_READ_ONLY:  # versioned, READ_ONLY honoured
        a = np.from_dlpack(x)
        assert not a.flags.writeable and a.ctypes.data == mx_address(x)
        np.testing.assert_array_equal(a, x.asnumpy())
    else:  # NumPy < 2.1 asks for a legacy capsule, which mxgo refuses for read-only arrays
        with pytest.raises(BufferError):
            np.from_dlpack(x)


def test_numpy_readonly_dlpack_import_by_version():
    if NUMPY_EXPORTS_READ_ONLY:
        assert not mx.nd.from_dlpack(_readonly_numpy()).writable
    else:
        with pytest.raises(BufferError):
            mx.nd.from_dlpack(_readonly_numpy())


# ---- the exported tensor's fields ----------------------------------------------------------

def _expected_dtype(dtype):
    return (4, 16, 1) if dtype == "bfloat16" else dl_dtype(dtype)


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", MX_DTYPES + ("bfloat16",))
def test_exported_fields(dtype, layout):
    """byte_offset 0 with the offset folded into data, strides present when ndim > 0,
    non-NULL data even without elements, the right dtype code, CPU device."""
    x = MX.make(dtype, layout)
    for capsule in (x.to_dlpack_for_read(), x.__dlpack__(max_version=VERSIONED)):
        info = inspect_capsule(capsule)
        assert info["byte_offset"] == 0 and info["data"] == mx_address(x) != 0
        assert info["device"] == (1, 0) and info["dtype"] == _expected_dtype(dtype)
        assert info["ndim"] == x.ndim and info["shape"] == x.shape
        assert info["strides"] == x.strides and (x.ndim == 0 or info["strides"] is not None)


# ---- imports: what mxgo accepts and what it refuses ----------------------------------------

def test_import_honours_byte_offset():
    """Unlike PyTorch, mxgo adds byte_offset to data."""
    producer = CountingProducer()
    base = np.arange(10, dtype=np.int32)
    capsule, _ = producer.capsule(base[3:], data=base.ctypes.data, byte_offset=12)
    x = mx.nd.from_dlpack(capsule)
    assert x.asnumpy().tolist() == list(range(3, 10)) and mx_address(x) == base.ctypes.data + 12


def test_import_null_strides_means_c_contiguous():
    capsule, _ = CountingProducer().capsule(reference("int64", (2, 3, 4)), strides=None)
    x = mx.nd.from_dlpack(capsule)
    assert x.strides == (12, 4, 1)
    np.testing.assert_array_equal(x.asnumpy(), reference("int64", (2, 3, 4)))


def test_import_mxnet_bool():
    """MXNet 1.x exported bool as (UInt, 1 bit)."""
    capsule, _ = CountingProducer().capsule(np.array([True, False, True]), dtype=(1, 1, 1))
    x = mx.nd.from_dlpack(capsule)
    assert x.dtype == np.bool_ and x.asnumpy().tolist() == [True, False, True]


_F64 = np.arange(6.0)
#: name -> keyword overrides describing a tensor that mxgo must refuse with BufferError
HOSTILE = {
    "cuda_device": {"device": (2, 0)},
    "unknown_device": {"device": (99, 0)},
    "odd_bits": {"dtype": (2, 7, 1)},
    "two_lanes": {"dtype": (2, 64, 2)},
    "unknown_code": {"dtype": (42, 32, 1)},
    "negative_ndim": {"ndim": -1},
    "too_many_dims": {"ndim": 1000},
    "negative_shape": {"shape": (-6,)},
    "null_data": {"data": 0},
    "newer_major": {"versioned": True, "version": (2, 0)},
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_import_refuses_invalid_tensors(name):
    producer = CountingProducer()
    capsule, tag = producer.capsule(_F64, **HOSTILE[name])
    baseline = live_counts()
    with pytest.raises(BufferError):
        mx.nd.from_dlpack(capsule)
    assert producer.deleter_calls(tag) == 1  # refused, but consumed: mxgo ran the deleter
    assert capsule_name(capsule).startswith("used_")
    assert live_counts() == baseline


@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
@pytest.mark.parametrize("override", [{"data_offset": 1}, {"byte_offset": 3}], ids=["data", "byte_offset"])
def test_import_takes_misaligned_tensors(override, versioned):
    # valid DLPack, as NumPy and PyTorch agree: shared, and deleted once
    store = np.zeros(8 * 7 + 8, np.uint8)
    want = np.arange(7.0)
    offset = override.get("data_offset", 0) + override.get("byte_offset", 0)
    store[offset:offset + 56] = want.view(np.uint8)
    producer = CountingProducer()
    kwargs = {"dtype": (2, 64, 1), "shape": (7,), "strides": (1,), "versioned": versioned,
              "data": store.ctypes.data + override.get("data_offset", 0), "byte_offset": override.get("byte_offset", 0)}
    capsule, tag = producer.capsule(store, **kwargs)
    x = mx.nd.from_dlpack(capsule)
    assert x._data == store.ctypes.data + offset
    np.testing.assert_array_equal(x.asnumpy(), want)
    np.testing.assert_array_equal((x * 2).asnumpy(), want * 2)
    del x
    gc.collect()
    assert producer.deleter_calls(tag) == 1


# ---- plain tensors are imported in C (capsule.c), and Go adopts them on first use ----------

@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
@pytest.mark.parametrize("use", FIRST_USES, ids=str)
def test_plain_tensor_deleter_runs_once_when_the_last_holder_goes(use, versioned):
    producer = CountingProducer()
    source = np.arange(12.0).reshape(3, 4)
    capsule, tag = producer.capsule(source[:, 1::2], versioned=versioned)  # torch: no negative strides
    live = live_counts()
    x = mx.nd.from_dlpack(capsule)
    assert live_counts() == live  # made in C: no Go handle or storage yet
    assert x.shape == (3, 2) and x.strides == (4, 2) and x.writable
    out = FIRST_USES[use](x)
    x.wait_to_read()
    assert live_counts()[:2] > live[:2]  # the Go side exists now
    del x
    mx.nd.waitall()
    assert producer.deleter_calls(tag) == (0 if use in HOLDS_MEMORY else 1)
    del out
    mx.nd.waitall()
    gc.collect()
    assert producer.deleter_calls(tag) == 1 and live_counts() == live
    expected = np.arange(12.0).reshape(3, 4)[:, 1::2]
    if use == "setitem":
        expected[0] = 5
    np.testing.assert_array_equal(source[:, 1::2], expected)


@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
def test_plain_tensor_never_used_by_go(versioned):
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(5, dtype=np.int8), versioned=versioned,
                                    flags=FLAG_READ_ONLY if versioned else 0, byte_offset=2, shape=(3,))
    x = mx.nd.from_dlpack(capsule)
    assert x.shape == (3,) and x.writable == (not versioned) and x.dtype is np.int8
    assert x.__dlpack_device__() == (1, 0)
    del x
    assert producer.deleter_calls(tag) == 1
