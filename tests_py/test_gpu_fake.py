"""mxgo's GPU plumbing against a fake CUDA driver, and the paths without a driver.

The fake driver (pkg/device/cuda/fakecuda/fakecuda.c, compiled here with the system's C
compiler) checks mxgo's logic, not CUDA: device memory is host memory behind an address
the CPU cannot touch, contexts are per thread, every call is counted, and failures can be
injected. Nothing here says anything about a real GPU (`make test-gpu` is for that).

The driver is loaded once per process (on the first GPU use), so each test runs a script
in a fresh interpreter with MXGO_LIBCUDA pointing at the fake (or at nothing); the fake's
counters are read there through ctypes on the same library.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import mxgo as mx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE_SRC = os.path.join(ROOT, "pkg", "device", "cuda", "fakecuda", "fakecuda.c")

PRELUDE = """
import ctypes, gc, json, os, pickle
import numpy as np
import pytest
import mxgo as mx
fake = ctypes.CDLL(os.environ["MXGO_LIBCUDA"]) if os.path.exists(os.environ["MXGO_LIBCUDA"]) else None
if fake is not None:
    fake.fakecuda_count.restype = ctypes.c_long
def count(name):
    return fake.fakecuda_count(name.encode())
def stats():
    return json.loads(mx.base.core.GPUStats())
def no_misuse():
    for bad in ("bad_ctx", "bad_ptr", "bad_free", "bad_release"):
        assert count(bad) == 0, (bad, count(bad))
"""


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    lib = str(tmp_path_factory.mktemp("fakecuda") / "libfakecuda.so")
    subprocess.run(["cc", "-O2", "-Wall", "-shared", "-fPIC", "-o", lib, FAKE_SRC], check=True)
    return lib


def run(code, prelude="", **env):
    """Runs PRELUDE, prelude and code (dedented) in a fresh interpreter with env added;
    fails on any error. The script prints a marker at its end, which must be seen."""
    full = dict(os.environ, **env)
    script = PRELUDE + prelude + "\n" + textwrap.dedent(code) + "\nprint('script passed')"
    res = subprocess.run([sys.executable, "-c", script],
                         env=full, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "script passed" in res.stdout, res.stdout + res.stderr
    return res.stdout


# ---------------------------------------------------------------------------- no driver

def test_no_driver_here():
    assert mx.context.num_gpus() == 0
    assert "no CUDA" in mx.context.gpu_status()
    with pytest.raises(mx.MXNetError, match=r"gpu\(0\): the CUDA back end cannot be used: no CUDA"):
        mx.nd.zeros((2,), ctx=mx.gpu(0))


def test_library_not_found():
    run("""
    assert mx.context.num_gpus() == 0
    assert "cannot load /nonexistent/libcuda.so.1" in mx.context.gpu_status()
    with pytest.raises(mx.MXNetError, match=r"gpu\\(1\\).*no CUDA driver: cannot load /nonexistent/libcuda.so.1"):
        mx.nd.empty((2, 3), ctx=mx.gpu(1))
    assert stats()["shim_init_calls"] == 1  # cu's package init, answered by the shim
    """, MXGO_LIBCUDA="/nonexistent/libcuda.so.1")


def test_not_a_driver():
    run("""
    assert mx.context.num_gpus() == 0
    assert "not a CUDA driver" in mx.context.gpu_status()
    """, MXGO_LIBCUDA="libm.so.6")


def test_nothing_cuda_happens_at_import(fake):
    run("""
    x = mx.nd.ones((3,)) + 1  # CPU work loads no driver
    assert count("cuInit") == 0 and stats()["ctx_retain"] == 0
    assert mx.context.num_gpus() == 1
    assert count("cuInit") == 1
    """, MXGO_LIBCUDA=fake)


@pytest.mark.parametrize("env, match", [
    ({"FAKECUDA_INIT": "100"}, "no CUDA device: the driver .* found no CUDA-capable device"),
    ({"FAKECUDA_INIT": "35"}, "too old for this system"),
    ({"FAKECUDA_INIT": "999"}, "failed to initialise: cuInit returned CUDA_ERROR_UNKNOWN"),
    ({"FAKECUDA_DEVICES": "0"}, "no CUDA device: the driver .* reports none"),
    ({"FAKECUDA_VERSION": "10020"}, "too old: version 10.2, mxgo needs 11.0"),
    ({"FAKECUDA_FAIL": "cuDeviceGetCount=3"}, "cuDeviceGetCount failed: CUDA_ERROR_NOT_INITIALIZED"),
    ({"FAKECUDA_FAIL": "cuDevicePrimaryCtxRetain=2"}, "cuDevicePrimaryCtxRetain failed: CUDA_ERROR_OUT_OF_MEMORY"),
], ids=["no_device", "insufficient_driver", "init_fails", "zero_devices", "old_driver", "count_fails", "retain_fails"])
def test_driver_failures_become_errors(fake, env, match):
    run("""
    match = %r
    if "Retain" not in match:
        assert mx.context.num_gpus() == 0
        assert pytest.raises(Exception, lambda: 1 / 0)  # (pytest is usable here)
    with pytest.raises(mx.MXNetError, match=r"gpu\\(0\\): the CUDA back end cannot be used: .*" + match):
        mx.nd.zeros((2,), ctx=mx.gpu(0))
    """ % match, MXGO_LIBCUDA=fake, **env)


# ---------------------------------------------------------------------------- the fake driver

def test_devices_and_ids(fake):
    run("""
    assert mx.context.num_gpus() == 3 and mx.context.gpu_status() == ""
    for i in range(3):
        assert mx.nd.zeros((1,), ctx=mx.gpu(i)).context == mx.gpu(i)
    with pytest.raises(mx.MXNetError, match=r"invalid device id: gpu\\(3\\) does not exist, the CUDA driver reports 3"):
        mx.nd.zeros((1,), ctx=mx.gpu(3))
    assert stats()["ctx_retain"] == 3 and count("cuDevicePrimaryCtxRetain") == 3  # once per device
    no_misuse()
    """, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="3")


def test_allocations_are_freed_exactly_once(fake):
    run("""
    xs = [mx.nd.empty((n, 3), ctx=mx.gpu(0)) for n in range(1, 6)]
    views = [x[1:] for x in xs[1:]]
    assert count("cuMemAlloc_v2") == 5 and count("live_allocs") == 5
    assert count("live_bytes") == sum(4 * 3 * n for n in range(1, 6))
    del xs
    gc.collect()
    assert count("cuMemFree_v2") == 1  # the views hold the others
    del views
    gc.collect()
    mx.nd.waitall()
    assert count("cuMemFree_v2") == 5 and count("live_allocs") == 0 and count("live_bytes") == 0
    s = stats()
    assert s["alloc"] == s["free"] == 5 and s["live_bytes"] == 0
    empty = mx.nd.empty((0, 4), ctx=mx.gpu(0))  # no elements: still one real allocation
    assert empty.shape == (0, 4) and empty.asnumpy().shape == (0, 4)
    no_misuse()
    """, MXGO_LIBCUDA=fake)


DTYPES = ["float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8", "bool"]


def test_round_trips_every_dtype(fake):
    run("""
    rng = np.random.default_rng(0)
    for dt in %r:
        src = (rng.standard_normal((4, 5)) * 50).astype(dt)
        x = mx.nd.array(src, ctx=mx.gpu(0), dtype=dt)
        assert x.context == mx.gpu(0) and x.dtype == np.dtype(dt).type
        np.testing.assert_array_equal(x.asnumpy(), src)
        np.testing.assert_array_equal(x.copyto(mx.cpu()).asnumpy(), src)  # device -> host
        np.testing.assert_array_equal(x.copy().asnumpy(), src)  # device -> device
        np.testing.assert_array_equal(x.as_in_context(mx.gpu(1)).asnumpy(), src)  # across devices
        np.testing.assert_array_equal(mx.nd.array(x, ctx=mx.gpu(1)).asnumpy(), src)
        host = mx.nd.zeros((4, 5), dtype=dt)
        x.copyto(host)
        np.testing.assert_array_equal(host.asnumpy(), src)
        np.testing.assert_array_equal(x[2].asnumpy(), src[2])  # a contiguous view, at an offset
    assert count("cuMemcpyPeer") == 2 * len(%r)
    no_misuse()
    """ % (DTYPES, DTYPES), MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_fills(fake):
    run("""
    z = mx.nd.zeros((3, 4), ctx=mx.gpu(0), dtype="float64")
    z.wait_to_read()
    assert count("cuMemsetD8_v2") == 1
    # the engine marks a device operation done once the device is (the legacy stream's sync)
    assert count("cuStreamSynchronize") == 1 and stats()["sync"] == 1
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((3, 4)))
    o = mx.nd.ones((5,), ctx=mx.gpu(0))  # float32 1.0: one 32-bit pattern
    assert count("cuMemsetD32_v2") == 1
    np.testing.assert_array_equal(o.asnumpy(), np.ones(5, np.float32))
    h = count("cuMemcpyHtoD_v2")
    f = mx.nd.full((2, 3), 2.5, ctx=mx.gpu(0), dtype="float64")  # 8-byte pattern: staged copy
    assert count("cuMemcpyHtoD_v2") == h + 1
    np.testing.assert_array_equal(f.asnumpy(), np.full((2, 3), 2.5))
    b = mx.nd.full((4,), -1, ctx=mx.gpu(0), dtype="int8")
    np.testing.assert_array_equal(b.asnumpy(), np.full(4, -1, np.int8))
    mx.nd.zeros((2, 3), out=f)
    np.testing.assert_array_equal(f.asnumpy(), np.zeros((2, 3)))
    print(repr(f))
    assert "@gpu(0)>" in repr(f)
    no_misuse()
    """, MXGO_LIBCUDA=fake)


def test_operators_without_gpu_kernels_refuse_device_arrays(fake):
    run("""
    x = mx.nd.ones((2, 3), ctx=mx.gpu(0))
    before = stats()
    for call in (lambda: x + 1, lambda: x * x, lambda: mx.nd.sum(x), lambda: mx.nd.exp(x),
                 lambda: mx.nd.dot(x, x.T), lambda: mx.nd.relu(x)):
        with pytest.raises(NotImplementedError, match=r"has no kernel for gpu\\(0\\) yet"):
            call()
    with pytest.raises(NotImplementedError, match=r"operator exp has no kernel for gpu\\(0\\)"):
        mx.nd.exp(x)
    with pytest.raises(NotImplementedError, match="cast"):
        x.astype("float64")
    with pytest.raises(NotImplementedError, match="non-contiguous"):
        x.T.copyto(mx.cpu())
    with pytest.raises(NotImplementedError, match="non-contiguous"):
        x.T.asnumpy()
    with pytest.raises(BufferError, match="not in host memory"):
        memoryview(mx.base.fastpath.ByteView(x))
    with pytest.raises((BufferError, RuntimeError)):  # NumPy: "Unsupported device in DLTensor"
        np.from_dlpack(x)
    assert stats()["dtoh"] == before["dtoh"]  # no silent host round trip
    np.testing.assert_array_equal(x.asnumpy(), np.ones((2, 3), np.float32))  # x is intact
    no_misuse()
    """, MXGO_LIBCUDA=fake)


def test_pickle_and_save_device_arrays(fake, tmp_path):
    run("""
    x = mx.nd.array([[1, 2], [3, 4]], ctx=mx.gpu(1))
    for protocol in (2, 5):
        y = pickle.loads(pickle.dumps(x, protocol=protocol))
        assert y.context == mx.gpu(1)
        np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    path = %r
    mx.nd.save(path, {"x": x, "row": x[1]})
    back = mx.nd.load(path)  # MXNet's format keeps gpu(1) in the record; it loads on the CPU
    np.testing.assert_array_equal(back["x"].asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(back["row"].asnumpy(), [3, 4])
    with pytest.raises(NotImplementedError, match="non-contiguous"):
        mx.nd.save(path, [x.T])
    no_misuse()
    """ % str(tmp_path / "x.params"), MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


@pytest.mark.parametrize("fail, call, error, match", [
    ("cuMemAlloc_v2=2", "mx.nd.empty((4,), ctx=mx.gpu(0))", "MemoryError",
     r"cannot allocate 16 bytes on gpu\(0\): CUDA driver call cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuMemcpyHtoD_v2=700", "mx.nd.array([1, 2], ctx=mx.gpu(0))", "mx.MXNetError",
     "cuMemcpyHtoD failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
    ("cuMemcpyDtoH_v2=999", "mx.nd.zeros((2,), ctx=mx.gpu(0)).asnumpy()", "mx.MXNetError",
     r"cuMemcpyDtoH failed: CUDA_ERROR_UNKNOWN \(999\)"),
    ("cuMemsetD8_v2=1", "mx.nd.zeros((2,), ctx=mx.gpu(0)).wait_to_read()", "mx.MXNetError",
     "cuMemsetD8 failed: CUDA_ERROR_INVALID_VALUE"),
    ("cuCtxSetCurrent=201", "mx.nd.empty((2,), ctx=mx.gpu(0))", "mx.MXNetError",
     "cuCtxSetCurrent failed: CUDA_ERROR_INVALID_CONTEXT"),
    ("cuStreamSynchronize=700", "mx.nd.ones((2,), ctx=mx.gpu(0)).wait_to_read()", "mx.MXNetError",
     r"cuStreamSynchronize \(after cuMemsetD32\) failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
], ids=["alloc", "htod", "dtoh", "memset", "set_context", "sync"])
def test_failed_driver_calls_raise(fake, fail, call, error, match):
    run("""
    with pytest.raises(%s, match=r"%s"):
        %s
        mx.nd.waitall()
    try:
        mx.nd.waitall()  # WaitAll reports the errors since the last WaitAll once more
    except mx.MXNetError:
        pass
    mx.nd.waitall()
    gc.collect()
    assert count("live_allocs") == 0  # whatever was allocated went back
    no_misuse()
    """ % (error, match, call), MXGO_LIBCUDA=fake, FAKECUDA_FAIL=fail)


# ---------------------------------------------------------------------------- DLPack export

CONSUMER = """
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_uint8, c_uint16, c_uint32,
                    c_uint64, c_void_p, py_object, pythonapi, byref, c_size_t, c_int)
class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]
class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]
class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32), ("dtype", DLDataType),
                ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]
class Versioned(Structure):
    pass
Versioned._fields_ = [("major", c_uint32), ("minor", c_uint32), ("manager_ctx", c_void_p),
                      ("deleter", CFUNCTYPE(None, POINTER(Versioned))), ("flags", c_uint64), ("dl_tensor", DLTensor)]
class Legacy(Structure):
    pass
Legacy._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", CFUNCTYPE(None, POINTER(Legacy)))]
pythonapi.PyCapsule_GetPointer.restype = c_void_p
pythonapi.PyCapsule_GetPointer.argtypes = [py_object, c_char_p]
pythonapi.PyCapsule_SetName.argtypes = [py_object, c_char_p]
pythonapi.PyCapsule_IsValid.argtypes = [py_object, c_char_p]
consumed = []
def consume(cap):
    '''A counting DLPack consumer: reads the tensor (its bytes through the fake's peek),
    marks the capsule used and calls the deleter, as a framework's from_dlpack would.'''
    versioned = pythonapi.PyCapsule_IsValid(cap, b"dltensor_versioned")
    name = b"dltensor_versioned" if versioned else b"dltensor"
    mt = (Versioned if versioned else Legacy).from_address(pythonapi.PyCapsule_GetPointer(cap, name))
    t = mt.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    n = int(np.prod(shape)) * t.dtype.bits // 8
    buf = (c_uint8 * max(n, 1))()
    assert fake.fakecuda_peek(c_size_t(t.data + t.byte_offset), buf, c_size_t(n)) == 0, "not device memory"
    got = dict(device=(t.device.device_type, t.device.device_id), shape=shape, bytes=bytes(buf)[:n],
               flags=mt.flags if versioned else None, data=t.data)
    pythonapi.PyCapsule_SetName(cap, b"used_" + name)
    mt.deleter(byref(mt))
    consumed.append(got)
    return got
fake.fakecuda_log.restype = c_char_p
def log():
    return fake.fakecuda_log().decode()
def consumer_stream():
    '''A stream the consumer made itself, in gpu(0)'s primary context on this thread.'''
    ctx, s = c_void_p(), c_void_p()
    assert fake.cuDevicePrimaryCtxRetain(byref(ctx), 0) == 0 and fake.cuCtxSetCurrent(ctx) == 0
    assert fake.cuStreamCreate(byref(s), 0) == 0
    return s.value
"""


def test_dlpack_export_of_device_arrays(fake):
    run("""
    x = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3), ctx=mx.gpu(1))
    assert x.__dlpack_device__() == (2, 1)
    want = np.arange(6, dtype=np.float32).tobytes()
    got = consume(x.__dlpack__(max_version=(1, 0)))
    assert got["device"] == (2, 1) and got["shape"] == (2, 3) and got["bytes"] == want and got["flags"] == 0
    got = consume(x.to_dlpack_for_read())  # MXNet's: legacy, after the engine's writes
    assert got["device"] == (2, 1) and got["bytes"] == want
    row = consume(x[1].__dlpack__(max_version=(1, 0)))  # a view: its own offset
    assert row["bytes"] == want[12:] and row["shape"] == (3,)
    c = consume(x.__dlpack__(max_version=(1, 0), copy=True))  # a copy on the device
    assert c["bytes"] == want and c["data"] != got["data"] and c["flags"] & 2  # IS_COPIED
    assert mx.base.core.LiveExports() == 0
    # the storage outlives the array while a capsule holds it, and is freed once
    frees = count("cuMemFree_v2")
    cap = x.__dlpack__(max_version=(1, 0))
    del x
    gc.collect()
    assert count("cuMemFree_v2") == frees
    assert consume(cap)["bytes"] == want
    del cap
    gc.collect()
    assert count("cuMemFree_v2") == frees + 1 and count("live_allocs") == 0
    y = mx.nd.ones((2,), ctx=mx.gpu(0))
    with pytest.raises((BufferError, RuntimeError)):
        np.from_dlpack(y)  # NumPy takes host memory only
    with pytest.raises(BufferError, match="another device"):
        y.__dlpack__(dl_device=(1, 0))
    assert y.__dlpack__(dl_device=(2, 0)) is not None
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_dlpack_stream_hand_over(fake):
    run("""
    x = mx.nd.full((4,), 3.0, ctx=mx.gpu(0), dtype="float64")  # a staged copy on the legacy stream
    for stream in (None, -1, 1):  # nothing to order: the consumer syncs itself, or shares the legacy stream
        consume(x.__dlpack__(max_version=(1, 0), stream=stream))
    assert log() == "" and stats()["handoff"] == 0
    consume(x.__dlpack__(max_version=(1, 0), stream=2))  # the per-thread default stream
    assert log() == "record legacy e1; wait per_thread e1", log()
    s = consumer_stream()
    got = consume(x.__dlpack__(max_version=(1, 0), stream=s))
    assert got["bytes"] == np.full(4, 3.0).tobytes()
    assert log().endswith("; record legacy e2; wait s1 e2"), log()
    assert stats()["handoff"] == 2 and count("live_events") == 0 and count("wait_unrecorded") == 0
    for bad, error in ((0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="stream"):
            x.__dlpack__(stream=bad)
    with pytest.raises(mx.MXNetError, match="cuStreamWaitEvent failed: CUDA_ERROR_INVALID_HANDLE"):
        x.__dlpack__(stream=5)  # not a stream: the driver says so, the capsule is not leaked
    assert mx.base.core.LiveExports() == 0 and count("live_events") == 0
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake)
