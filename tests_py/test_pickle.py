"""pickle and copy: every dtype and layout, every pickle protocol, out-of-band buffers
that share the array's memory until loaded, and pickles that were cut short, which must
raise (never crash or load a wrong array). Tampered pickles are in bad_inputs.py."""
import copy
import gc
import pickle

import numpy as np
import pytest
import torch

import mxgo as mx
from mxgo.ndarray.ndarray import _unpickle

from bad_inputs import GOOD_PICKLE, forge_pickle
from interop_helpers import LAYOUTS, MX, live_counts, mx_address, reference

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128", "bfloat16")
PROTOCOLS = range(0, pickle.HIGHEST_PROTOCOL + 1)


def check_independent_copy(src, out):
    """out holds src's values in a fresh, writable, compact array that shares nothing."""
    assert type(out) is mx.nd.NDArray
    assert MX.dtype_name(out) == MX.dtype_name(src) and out.shape == src.shape and out.context == src.context
    np.testing.assert_array_equal(MX.values(out), MX.values(src))
    assert out.writable
    step, strides = 1, []
    for d in reversed(out.shape):
        strides.insert(0, step)
        step *= max(d, 1)
    assert all(a == b for a, b, d in zip(out.strides, strides, out.shape) if d > 1)
    if src.size:
        assert mx_address(out) != mx_address(src)
        before = MX.values(src).copy()
        out[...] = 0
        out.wait_to_read()
        np.testing.assert_array_equal(MX.values(src), before)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip_every_dtype(dtype, protocol):
    x = MX.make(dtype, LAYOUTS[3])  # 4-d
    check_independent_copy(x, pickle.loads(pickle.dumps(x, protocol=protocol)))


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("protocol", [2, 5])
def test_roundtrip_every_layout(layout, protocol):
    x = MX.make("float64", layout)
    check_independent_copy(x, pickle.loads(pickle.dumps(x, protocol=protocol)))


def test_views_pickle_only_what_they_show():
    big = mx.nd.arange(100000, dtype="float64")
    small = big[::1000]
    assert len(pickle.dumps(small, protocol=5)) < 2000
    assert len(pickle.dumps(big[10:20], protocol=4)) < 400


@pytest.mark.parametrize("make", [
    lambda: mx.nd.from_numpy(np.arange(6.0)),                      # NumPy memory, locked
    lambda: mx.nd.from_dlpack(np.arange(6.0)),                     # NumPy memory, plain view
    lambda: mx.nd.from_dlpack(torch.arange(6.0)),                  # PyTorch memory
    lambda: mx.nd.from_numpy(np.frombuffer(np.arange(6.0).tobytes(), np.float64)),  # read-only
], ids=["from_numpy", "from_dlpack_numpy", "from_dlpack_torch", "read_only"])
def test_foreign_and_read_only_sources(make):
    x = make()
    check_independent_copy(x, pickle.loads(pickle.dumps(x)))
    check_independent_copy(x, copy.deepcopy(x))


def test_copy_and_deepcopy():
    x = mx.nd.array([[1, 2], [3, 4]], dtype="int32")
    for fn in (copy.copy, copy.deepcopy):
        check_independent_copy(x, fn(x))
    nested = copy.deepcopy({"a": [x, x]})
    assert nested["a"][0] is nested["a"][1]  # the memo keeps shared references shared
    check_independent_copy(x, nested["a"][0])


def test_pending_work_is_pickled_after_it_lands():
    x = mx.nd.ones((500, 500))
    y = mx.nd.dot(x, x)  # pushed, maybe still running
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(y)).asnumpy(), np.full((500, 500), 500, np.float32))


def test_an_engine_error_is_raised_by_pickling():
    x = mx.nd.ones((3,))
    mx.nd.run_async(lambda v: 1 / 0, writes=[x])
    with pytest.raises(mx.MXNetError, match="ZeroDivisionError"):
        pickle.dumps(x)
    try:  # leave no error behind for the next test's waits
        mx.nd.waitall()
    except mx.MXNetError:
        pass


def test_out_of_band_buffers_share_memory_until_loaded():
    x = mx.nd.array(np.arange(1000), dtype="float32")
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert len(data) < 300 and len(buffers) == 1
    raw = buffers[0].raw()
    assert raw.nbytes == 4000 and raw.readonly
    view = np.frombuffer(raw, np.float32)
    assert view.ctypes.data == mx_address(x)  # no copy was made
    x[0] = 42  # a write before loading is what gets loaded
    x.wait_to_read()
    assert view[0] == 42
    y = pickle.loads(data, buffers=buffers)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    x[1] = 43  # after loading, the two are independent
    x.wait_to_read()
    assert y.asnumpy()[1] == 1
    del x, raw, view  # the buffer keeps the memory alive
    gc.collect()
    assert np.frombuffer(buffers[0], np.float32)[0] == 42


def test_out_of_band_buffers_from_other_holders():
    # what multiprocessing.shared_memory, Ray or Dask hand back: any buffer with the bytes
    x = mx.nd.array(np.arange(12).reshape(3, 4), dtype="int16")
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    for holder in (bytes, bytearray, lambda b: memoryview(bytes(b)), lambda b: np.frombuffer(bytes(b), np.uint8)):
        y = pickle.loads(data, buffers=[holder(buffers[0])])
        np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_unaligned_buffers_load(offset):
    x = mx.nd.array(np.arange(10) / 3, dtype="float64")
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    store = bytearray(offset + 80)
    store[offset:] = bytes(buffers[0])
    y = pickle.loads(data, buffers=[memoryview(store)[offset:]])
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


def test_live_counts_after_roundtrips():
    gc.collect()
    mx.nd.waitall()
    before = live_counts()
    for protocol in PROTOCOLS:
        x = mx.nd.ones((3, 3))
        bufs = []
        pickle.loads(pickle.dumps(x, protocol=protocol, buffer_callback=bufs.append if protocol >= 5 else None),
                     buffers=bufs)
        copy.deepcopy(x[::2])
    del x, bufs
    gc.collect()
    mx.nd.waitall()
    assert live_counts() == before


# ---- truncated and tampered pickles ----------------------------------------------------------

@pytest.mark.parametrize("protocol", [2, 5])
def test_truncated_pickles(protocol):
    data = pickle.dumps(mx.nd.ones((8, 8)), protocol=protocol)
    for cut in range(1, len(data), 7):
        with pytest.raises((pickle.UnpicklingError, EOFError, ValueError)):
            pickle.loads(data[:cut])


def test_non_contiguous_out_of_band_buffer():
    # pickle hands loads' buffers to the reconstructor as they are: one may be strided
    with pytest.raises(pickle.UnpicklingError, match="not a contiguous buffer"):
        _unpickle(*GOOD_PICKLE[:4], memoryview(np.zeros(48, np.uint8))[::2])


def test_forged_good_pickle_loads():
    y = pickle.loads(forge_pickle(GOOD_PICKLE))
    assert y.shape == (2, 3) and y.dtype == np.float32 and not y.asnumpy().any()


def test_reference_values_survive_every_protocol():
    ref = reference("complex128", (3, 5))
    x = mx.nd.array(ref, dtype="complex128")
    for protocol in PROTOCOLS:
        np.testing.assert_array_equal(pickle.loads(pickle.dumps(x, protocol=protocol)).asnumpy(), ref)
