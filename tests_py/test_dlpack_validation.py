"""Validation of imported DLPack tensors, with hand-made capsules (``dlpack_producer``):
every invalid field, legacy and versioned, is refused with a BufferError naming the field,
the capsule is consumed and the producer's deleter runs exactly once; and the exotic but
valid layouts of the standard (NULL strides, byte_offset, NULL shape for 0-d, NULL data
for size 0, negative strides, size-1 dimensions with any stride, MXNet 1.x's bool)
import as zero-copy views."""
import gc

import numpy as np
import pytest

import mxgo as mx

from dlpack_producer import FLAG_IS_COPIED, NULL, CountingProducer, capsule_name
from invalid_tensors import INVALID, INVALID_VERSIONED, make_invalid
from interop_helpers import live_counts, mx_address

FORMS = ("legacy", "versioned")


pytestmark = pytest.mark.usefixtures("frozen_heap")


CASES = [(name, form) for name in sorted(INVALID) for form in FORMS] + \
        [(name, "versioned") for name in sorted(INVALID_VERSIONED)]


@pytest.mark.parametrize("name, form", CASES, ids=["%s-%s" % c for c in CASES])
def test_invalid_field_is_refused(name, form):
    field, overrides = {**INVALID, **INVALID_VERSIONED}[name]
    producer = CountingProducer()
    capsule, tag = make_invalid(producer, overrides, form)
    gc.collect()
    baseline = live_counts()
    with pytest.raises(BufferError) as info:
        mx.nd.from_dlpack(capsule)
    message = str(info.value)
    assert field in message, message
    # consumed (renamed), and the deleter ran once, at once
    assert capsule_name(capsule) == "used_" + ("dltensor_versioned" if form == "versioned" else "dltensor")
    assert producer.deleter_calls(tag) == 1
    with pytest.raises(ValueError, match="consumed"):
        mx.nd.from_dlpack(capsule)
    gc.collect()
    assert producer.deleter_calls(tag) == 1 and producer.unknown_calls == 0
    assert live_counts() == baseline


class _Wrapper:
    """An object handing out one prepared capsule through ``__dlpack__``."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ["code_99", "null_data", "device_cuda", "ndim_65"])
def test_invalid_field_through_an_object(name, form):
    """The same refusal when the capsule comes from an object's ``__dlpack__``."""
    field, overrides = INVALID[name]
    producer = CountingProducer()
    capsule, tag = make_invalid(producer, overrides, form)
    with pytest.raises(BufferError, match=field.replace(".", r"\.")):
        mx.nd.from_dlpack(_Wrapper(capsule))
    assert capsule_name(capsule).startswith("used_") and producer.deleter_calls(tag) == 1


# ---- valid, exotic tensors --------------------------------------------------------------

_I32 = np.arange(24, dtype=np.int32)
_ADDR = _I32.ctypes.data

#: name -> (capsule() overrides over _I32, expected values as a NumPy array, expected
#: element strides or None for "C-contiguous of the expected shape", expected address of
#: the first element or None when there are no elements)
VALID = {
    "null_strides_c_contiguous": (
        {"ndim": 3, "shape": (2, 3, 4), "strides": NULL}, _I32.reshape(2, 3, 4), (12, 4, 1), _ADDR),
    "byte_offset": (
        {"ndim": 2, "shape": (2, 3), "strides": (4, 1), "byte_offset": 5 * 4},
        _I32[5:].reshape(-1)[:12].reshape(3, 4)[:2, :3], (4, 1), _ADDR + 20),
    "byte_offset_and_data": (
        {"data": _ADDR + 8, "ndim": 1, "shape": (4,), "strides": (2,), "byte_offset": 4},
        _I32[3:11:2], (2,), _ADDR + 12),
    "zero_d_null_shape_and_strides": (
        {"data": _ADDR + 7 * 4, "ndim": 0, "shape": NULL, "strides": NULL}, np.array(7, np.int32), (), _ADDR + 28),
    "zero_d_with_shape_pointers": (
        {"data": _ADDR + 4, "ndim": 0, "shape": (), "strides": ()}, np.array(1, np.int32), (), _ADDR + 4),
    "size_0_null_data": (
        {"data": 0, "ndim": 2, "shape": (0, 5), "strides": (5, 1)}, np.zeros((0, 5), np.int32), (5, 1), None),
    "size_0_null_data_null_strides": (
        {"data": 0, "ndim": 2, "shape": (3, 0), "strides": NULL}, np.zeros((3, 0), np.int32), (1, 1), None),
    "size_0_huge_other_dim": (
        {"data": 0, "ndim": 2, "shape": (0, 2 ** 62), "strides": (1, 1)}, None, None, None),
    "negative_strides": (
        {"data": _ADDR + 23 * 4, "ndim": 2, "shape": (4, 3), "strides": (-6, -2)},
        _I32.reshape(4, 6)[::-1, ::-2], (-6, -2), _ADDR + 92),
    "size_1_dims_any_stride": (
        {"data": _ADDR + 4 * 4, "ndim": 4, "shape": (1, 3, 1, 2), "strides": (999, 4, -77, 1)},
        _I32[4:].reshape(-1)[:12].reshape(3, 4)[:, :2].reshape(1, 3, 1, 2), (999, 4, -77, 1), _ADDR + 16),
    "zero_stride_broadcast": (
        {"ndim": 2, "shape": (3, 4), "strides": (0, 1)}, np.broadcast_to(_I32[:4], (3, 4)), (0, 1), _ADDR),
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_exotic_tensors(name, form):
    overrides, expected, strides, address = VALID[name]
    producer = CountingProducer()
    capsule, tag = producer.capsule(_I32, versioned=form == "versioned", **overrides)
    x = mx.nd.from_dlpack(capsule)
    assert x.dtype == np.int32 and x.writable
    if expected is None:  # no elements: only the shape matters
        assert x.shape == overrides["shape"] and x.size == 0
    else:
        assert x.shape == expected.shape and x.strides == strides
        np.testing.assert_array_equal(x.asnumpy(), expected)
    if address is not None:
        assert mx_address(x) == address
    assert producer.deleter_calls(tag) == 0
    del x
    gc.collect()
    assert producer.deleter_calls(tag) == 1


@pytest.mark.parametrize("form", FORMS)
def test_view_writes_reach_producer_memory(form):
    """A negative-stride view with a byte_offset writes where the producer's tensor is."""
    base = np.arange(12, dtype=np.int64)
    capsule, _ = CountingProducer().capsule(base, versioned=form == "versioned", data=base.ctypes.data,
                                            byte_offset=10 * 8, ndim=1, shape=(4,), strides=(-3,))
    x = mx.nd.from_dlpack(capsule)
    assert x.asnumpy().tolist() == [10, 7, 4, 1]
    x[...] = [-1, -2, -3, -4]
    assert base.tolist() == [0, -4, 2, 3, -3, 5, 6, -2, 8, 9, -1, 11]


@pytest.mark.parametrize("form", FORMS)
def test_mxnet_legacy_bool(form):
    """MXNet 1.x exported bool as (UInt, 1 bit, 1 lane), one byte per element."""
    src = np.array([[True, False, True], [False, False, True]])
    capsule, tag = CountingProducer().capsule(src, versioned=form == "versioned", dtype=(1, 1, 1))
    x = mx.nd.from_dlpack(capsule)
    assert x.dtype == np.bool_ and x.shape == (2, 3)
    assert x.asnumpy().tolist() == src.tolist() and mx_address(x) == src.ctypes.data


def test_is_copied_capsule_imports():
    """IS_COPIED tells the consumer that nobody else holds the memory: an ordinary,
    writable import."""
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(5.0), versioned=True, flags=FLAG_IS_COPIED)
    x = mx.nd.from_dlpack(capsule)
    assert x.writable and x.asnumpy().tolist() == [0, 1, 2, 3, 4]
    x[0] = 9
    del x
    mx.nd.waitall()  # the queued write holds the memory until it is done
    gc.collect()
    assert producer.deleter_calls(tag) == 1
