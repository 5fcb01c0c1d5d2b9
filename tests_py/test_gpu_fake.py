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
import textwrap

import numpy as np
import pytest

import mxgo as mx
from isolation import PYTHON

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
NUMPY_2_1 = np.lib.NumpyVersion(np.__version__) >= "2.1.0"  # from_dlpack(device=...)
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
    res = subprocess.run([*PYTHON, "-c", script],
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


def test_no_driver_gpu_tensors_and_pinned_memory_are_refused():
    x = mx.nd.array([1.0, 2.0])
    with pytest.raises(mx.MXNetError, match=r"cpu_pinned\(0\).*no CUDA"):
        mx.nd.zeros((2,), ctx=mx.cpu_pinned())
    with pytest.raises(BufferError, match=r"gpu\(0\).*no CUDA"):
        mx.nd.from_dlpack(Claims(x, (2, 0)))
    with pytest.raises(BufferError, match=r"gpu\(0\).*no CUDA"):
        x.__dlpack__(dl_device=(2, 0))
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    run("""
    host = np.zeros(4, np.float32)
    for dev in ((2, 0), (13, 1)):  # a CUDA capsule: refused, its deleter run once
        with pytest.raises(BufferError, match=r"cannot use memory on gpu\\(%d\\).*no CUDA" % dev[1]):
            mx.nd.from_dlpack(foreign(host.ctypes.data, 4, dev))
    assert len(deleted) == 2
    """, STRUCTS, MXGO_LIBCUDA="/nonexistent/libcuda.so.1")


class Claims:
    """A producer that says its tensor is on DLPack device dev (whatever its capsule says)."""

    def __init__(self, arr, dev):
        self.arr, self.dev = arr, dev

    def __dlpack_device__(self):
        return self.dev

    def __dlpack__(self, **kw):
        return self.arr.__dlpack__(max_version=kw.get("max_version"))


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
    assert count("cuMemcpyPeerAsync") == 2 * len(%r)
    no_misuse()
    """ % (DTYPES, DTYPES), MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_fills(fake):
    run("""
    z = mx.nd.zeros((3, 4), ctx=mx.gpu(0), dtype="float64")
    z.wait_to_read()
    assert count("cuMemsetD8Async") == 1
    # the engine marks a device operation done once the device is (a sync of mxgo's stream)
    assert count("cuStreamSynchronize") == 1 and stats()["sync"] == 1
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((3, 4)))
    o = mx.nd.ones((5,), ctx=mx.gpu(0))  # float32 1.0: one 32-bit pattern
    assert count("cuMemsetD32Async") == 1
    np.testing.assert_array_equal(o.asnumpy(), np.ones(5, np.float32))
    h = count("cuMemcpyHtoDAsync_v2")
    f = mx.nd.full((2, 3), 2.5, ctx=mx.gpu(0), dtype="float64")  # 8-byte pattern: staged copy
    assert count("cuMemcpyHtoDAsync_v2") == h + 1
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
    mx.nd.save(path, [x.T])  # a strided view: through a host mirror of its span
    np.testing.assert_array_equal(mx.nd.load(path)[0].asnumpy(), x.asnumpy().T)
    no_misuse()
    """ % str(tmp_path / "x.params"), MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_strided_and_cast_copies(fake):
    """Between the host and a GPU, casts and strided views go through a host mirror of the
    bytes the device view spans (one copy each way, the gaps kept); between GPUs they need
    a kernel: NotImplementedError."""
    run("""
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = mx.nd.array(src, ctx=mx.gpu(0))
    np.testing.assert_array_equal(x.T.asnumpy(), src.T)
    np.testing.assert_array_equal(x[:, 1].asnumpy(), src[:, 1])
    np.testing.assert_array_equal(x.T.copyto(mx.cpu()).asnumpy(), src.T)
    h = mx.nd.zeros((3, 4), dtype="float64")
    x.copyto(h)  # a cast on the way to the host
    np.testing.assert_array_equal(h.asnumpy(), src)
    g = mx.nd.array(np.arange(3.0), ctx=mx.gpu(0), dtype="float16")  # a cast on the way to the GPU
    assert g.dtype == np.float16
    np.testing.assert_array_equal(g.asnumpy(), np.arange(3.0))
    x[:, 1] = 5  # a fill of a strided device view: the other columns are kept
    x[:, 2] = mx.nd.array([7, 8, 9], dtype="int32")  # a host array, cast, into a strided device view
    x[1:, ::2] = np.array([[1, 2], [3, 4]])
    want = src.copy()
    want[:, 1] = 5
    want[:, 2] = [7, 8, 9]
    want[1:, ::2] = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(x.asnumpy(), want)
    with pytest.raises(NotImplementedError, match=r"cast \\(float32 to float64\\) needs a GPU kernel"):
        x.astype("float64")
    with pytest.raises(NotImplementedError, match="non-contiguous array needs a GPU kernel"):
        x.T.copyto(mx.gpu(0))
    assert mx.nd.zeros((0, 3), ctx=mx.gpu(0)).T.asnumpy().shape == (3, 0)
    mx.nd.waitall()
    no_misuse()
    """, MXGO_LIBCUDA=fake)


@pytest.mark.parametrize("fail, call, error, match", [
    ("cuMemAlloc_v2=2", "mx.nd.empty((4,), ctx=mx.gpu(0))", "MemoryError",
     r"cannot allocate 16 bytes on gpu\(0\): CUDA driver call cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuMemcpyHtoDAsync_v2=700", "mx.nd.array([1, 2], ctx=mx.gpu(0))", "mx.MXNetError",
     "cuMemcpyHtoDAsync failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
    ("cuMemcpyDtoHAsync_v2=999", "mx.nd.zeros((2,), ctx=mx.gpu(0)).asnumpy()", "mx.MXNetError",
     r"cuMemcpyDtoHAsync failed: CUDA_ERROR_UNKNOWN \(999\)"),
    ("cuMemsetD8Async=1", "mx.nd.zeros((2,), ctx=mx.gpu(0)).wait_to_read()", "mx.MXNetError",
     "cuMemsetD8Async failed: CUDA_ERROR_INVALID_VALUE"),
    ("cuCtxSetCurrent=201", "mx.nd.empty((2,), ctx=mx.gpu(0))", "mx.MXNetError",
     "cuCtxSetCurrent failed: CUDA_ERROR_INVALID_CONTEXT"),
    ("cuStreamSynchronize=700", "mx.nd.ones((2,), ctx=mx.gpu(0)).wait_to_read()", "mx.MXNetError",
     r"cuStreamSynchronize \(after cuMemsetD32Async\) failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
    ("cuMemcpyDtoDAsync_v2=700", "mx.nd.ones((2,), ctx=mx.gpu(0)).copy().wait_to_read()", "mx.MXNetError",
     "cuMemcpyDtoDAsync failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
    ("cuMemcpyPeerAsync=217", "mx.nd.ones((2,), ctx=mx.gpu(0)).copyto(mx.gpu(1)).wait_to_read()", "mx.MXNetError",
     "cuMemcpyPeerAsync failed: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"),
    ("cuStreamCreate=2", "mx.nd.empty((2,), ctx=mx.gpu(0))", "MemoryError",
     "cuStreamCreate failed: CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuMemHostAlloc=2", "mx.nd.empty((4,), ctx=mx.cpu_pinned())", "MemoryError",
     r"cannot allocate 16 bytes on cpu_pinned\(0\): CUDA driver call cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuEventCreate=2", "mx.nd.ones((2,), ctx=mx.gpu(0)).__dlpack__(stream=2)", "MemoryError",
     "cuEventCreate failed: CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuEventRecord=400", "mx.nd.from_dlpack(mx.nd.ones((2,), ctx=mx.gpu(0)))", "BufferError",
     "cuEventRecord failed: CUDA_ERROR_INVALID_HANDLE"),
], ids=["alloc", "htod", "dtoh", "memset", "set_context", "sync", "dtod", "peer", "stream", "pinned", "event",
        "import_wait"])
def test_failed_driver_calls_raise(fake, fail, call, error, match):
    run("""
    with pytest.raises(%s, match=r"%s"):
        %s
        mx.nd.waitall()
    mx.nd.waitall()  # each error was raised once, where it was met
    gc.collect()
    assert count("live_allocs") == 0  # whatever was allocated went back
    no_misuse()
    """ % (error, match, call), MXGO_LIBCUDA=fake, FAKECUDA_FAIL=fail, FAKECUDA_DEVICES="2")


# ---------------------------------------------------------------------------- DLPack export

STRUCTS = """
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_uint8, c_uint16, c_uint32,
                    c_uint64, c_void_p, py_object, pythonapi, byref, c_size_t, c_int, addressof)
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
pythonapi.PyCapsule_New.restype = py_object
pythonapi.PyCapsule_New.argtypes = [c_void_p, c_char_p, c_void_p]
deleted = []
@CFUNCTYPE(None, POINTER(Versioned))
def on_delete(mt):
    deleted.append(1)
kept = []
def foreign(ptr, n, dev):
    '''A versioned capsule of another framework: n float32 at ptr on DLPack device dev.'''
    shape = (c_int64 * 1)(n)
    mt = Versioned(major=1, minor=0, deleter=on_delete)
    mt.dl_tensor = DLTensor(data=ptr, device=DLDevice(*dev), ndim=1, dtype=DLDataType(2, 32, 1), shape=shape)
    kept.append((mt, shape))
    return pythonapi.PyCapsule_New(addressof(mt), b"dltensor_versioned", None)
"""

CONSUMER = STRUCTS + """
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
    assert y.__dlpack__(dl_device=(2, 0)) is not None
    with pytest.raises(BufferError, match="without a copy"):
        y.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match="no back end to put it there"):
        y.__dlpack__(dl_device=(7, 0))
    host = y.__dlpack__(dl_device=(1, 0), max_version=(1, 0))  # a copy in host memory
    mt = Versioned.from_address(pythonapi.PyCapsule_GetPointer(host, b"dltensor_versioned"))
    assert (mt.dl_tensor.device.device_type, mt.dl_tensor.device.device_id) == (1, 0) and mt.flags & 2  # IS_COPIED
    h = mx.nd.from_dlpack(host)
    assert h.context == mx.cpu()
    np.testing.assert_array_equal(h.asnumpy(), np.ones(2, np.float32))
    if NUMPY_2_1:  # NumPy asks for dl_device=(1, 0): mxgo's copy
        np.testing.assert_array_equal(np.from_dlpack(y, device="cpu"), np.ones(2, np.float32))
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_dlpack_stream_hand_over(fake):
    run("""
    x = mx.nd.full((4,), 3.0, ctx=mx.gpu(0), dtype="float64")  # a staged copy on mxgo's stream, s1
    consume(x.__dlpack__(max_version=(1, 0), stream=-1))  # the consumer synchronises itself
    assert log() == "" and stats()["handoff"] == 0
    for stream in (None, 1):  # the legacy default stream waits on an event recorded on mxgo's
        consume(x.__dlpack__(max_version=(1, 0), stream=stream))
    consume(x.__dlpack__(max_version=(1, 0), stream=2))  # the per-thread default stream
    assert log() == "record s1 e1; wait legacy e1; record s1 e2; wait legacy e2; record s1 e3; wait per_thread e3", log()
    s = consumer_stream()
    got = consume(x.__dlpack__(max_version=(1, 0), stream=s))
    assert got["bytes"] == np.full(4, 3.0).tobytes()
    assert log().endswith("; record s1 e4; wait s2 e4"), log()
    assert stats()["handoff"] == 4 and count("live_events") == 0 and count("wait_unrecorded") == 0
    for bad, error in ((0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="stream"):
            x.__dlpack__(stream=bad)
    with pytest.raises(mx.MXNetError, match="cuStreamWaitEvent failed: CUDA_ERROR_INVALID_HANDLE"):
        x.__dlpack__(stream=5)  # not a stream: the driver says so, the capsule is not leaked
    assert mx.base.core.LiveExports() == 0 and count("live_events") == 0
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake)


# ---------------------------------------------------------------------------- DLPack import

PRODUCER = """
class Producer:
    '''A producer wrapping an mxgo array that records the keywords it is asked with.'''
    def __init__(self, arr):
        self.arr, self.calls = arr, []
    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()
    def __dlpack__(self, **kw):
        self.calls.append(kw)
        return self.arr.__dlpack__(**kw)
def versioned(cap):
    return Versioned.from_address(pythonapi.PyCapsule_GetPointer(cap, b"dltensor_versioned"))
"""


def test_dlpack_import_of_device_tensors(fake):
    run("""
    x = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3), ctx=mx.gpu(1))
    p = Producer(x)
    y = mx.nd.from_dlpack(p)
    mine = mx.base.fastpath.import_stream(1)
    assert mine > 4096 and mine != mx.base.fastpath.import_stream(0)  # mxgo's own stream, per device
    assert p.calls == [{"stream": mine, "max_version": (1, 3)}], p.calls
    assert y.context == mx.gpu(1) and y.shape == (2, 3) and y.dtype == np.float32
    np.testing.assert_array_equal(y.asnumpy(), np.arange(6).reshape(2, 3))
    mx.nd.zeros((2, 3), out=y)  # shared memory: a write through y is x's
    np.testing.assert_array_equal(x.asnumpy(), np.zeros((2, 3)))
    frees = count("cuMemFree_v2")
    del x, p
    gc.collect()
    np.testing.assert_array_equal(y.asnumpy(), np.zeros((2, 3)))  # the import keeps the memory
    assert count("cuMemFree_v2") == frees
    del y
    gc.collect()
    assert count("cuMemFree_v2") == frees + 1 and count("live_allocs") == 0  # once
    """, CONSUMER + PRODUCER, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_dlpack_import_with_keywords_and_bad_device_tensors(fake):
    run("""
    z = mx.nd.ones((3,), ctx=mx.gpu(0))
    p = Producer(z)  # the Python path: the producer is asked to put it on the CPU
    h = mx.nd.from_dlpack(p, device=mx.cpu())
    assert p.calls == [{"max_version": (1, 3), "dl_device": (1, 0)}], p.calls  # no stream: not for a GPU
    assert h.context == mx.cpu()
    np.testing.assert_array_equal(h.asnumpy(), np.ones(3))
    with pytest.raises(BufferError, match="producer cannot share it there"):
        mx.nd.from_dlpack(Producer(z), device=mx.cpu(), copy=False)
    class Plain:  # a producer without dl_device: mxgo imports it where it is, then copies
        def __dlpack_device__(self):
            return z.__dlpack_device__()
        def __dlpack__(self, stream=None, max_version=None, copy=None):
            assert stream == mx.base.fastpath.import_stream(0)
            return z.__dlpack__(stream=stream, max_version=max_version, copy=copy)
    h = mx.nd.from_dlpack(Plain(), device=mx.cpu())
    assert h.context == mx.cpu()
    np.testing.assert_array_equal(h.asnumpy(), np.ones(3))
    with pytest.raises(BufferError, match="copy=False"):
        mx.nd.from_dlpack(Plain(), device=mx.cpu(), copy=False)
    class Refuses(Plain):  # dl_device refused with ValueError, as NumPy <= 2.2 does
        def __dlpack__(self, stream=None, max_version=None, copy=None, dl_device=None):
            if dl_device is not None:
                raise ValueError("unsupported device requested")
            return super().__dlpack__(stream=stream, max_version=max_version, copy=copy)
    np.testing.assert_array_equal(mx.nd.from_dlpack(Refuses(), device=mx.cpu()).asnumpy(), np.ones(3))
    g = mx.nd.from_dlpack(np.arange(3.0), device=mx.gpu(1))  # host memory onto a GPU
    assert g.context == mx.gpu(1)
    np.testing.assert_array_equal(g.asnumpy(), np.arange(3.0))
    p = Producer(z)
    same = mx.nd.from_dlpack(p, device=(2, 0))
    assert same.context == mx.gpu(0) and p.calls[0]["dl_device"] == (2, 0)
    ptr = consume(z.__dlpack__(max_version=(1, 0)))["data"]  # z's memory, as another framework's tensor
    m = mx.nd.from_dlpack(foreign(ptr, 3, (13, 0)))  # managed memory is imported as gpu(id)
    assert m.context == mx.gpu(0)
    np.testing.assert_array_equal(m.asnumpy(), np.ones(3))
    del m
    gc.collect()
    assert len(deleted) == 1
    for dev in ((2, 7), (13, 9)):  # devices mxgo cannot use: BufferError, the deleter run once
        with pytest.raises(BufferError, match=r"gpu\\(%d\\).*invalid device id" % dev[1]):
            mx.nd.from_dlpack(foreign(ptr, 3, dev))
    assert len(deleted) == 3
    cap = z.__dlpack__(max_version=(1, 0))
    versioned(cap).dl_tensor.device.device_id = 1  # mxgo's own tensor, tampered with
    with pytest.raises(BufferError, match="device was changed"):
        mx.nd.from_dlpack(cap)
    class Elsewhere:
        def __dlpack_device__(self):
            return (4, 0)  # OpenCL
        def __dlpack__(self, **kw):
            raise AssertionError("not to be asked")
    with pytest.raises(BufferError, match="DLPack device"):
        mx.nd.from_dlpack(Elsewhere())
    with pytest.raises(BufferError, match="not a device id"):
        mx.base.fastpath.import_stream(-1)
    del cap, same, g, h, z, p
    gc.collect()
    mx.nd.waitall()
    assert mx.base.core.LiveExports() == 0 and count("live_allocs") == 0
    no_misuse()
    """, CONSUMER + PRODUCER, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


def test_dlpack_import_orders_mxgo_after_the_producer(fake):
    """The fake runs a stream's work only when someone waits for it: a producer whose memset
    is still queued on its own stream hands the tensor over by making the stream mxgo
    passed wait on an event. Had mxgo passed no stream (or -1), the producer would not
    order anything, and mxgo would read the memory before the memset ran."""
    run("""
    x = mx.nd.zeros((8,), ctx=mx.gpu(0), dtype="uint8")
    ptr = consume(x.__dlpack__(max_version=(1, 0)))["data"]
    theirs = consumer_stream()  # the producer's stream: its work waits in the fake's queue
    assert fake.cuMemsetD8Async(c_size_t(ptr), c_uint8(7), c_size_t(8), c_void_p(theirs)) == 0
    fake.fakecuda_queued.restype = c_int64
    assert fake.fakecuda_queued() == 1
    class Producer:
        def __dlpack_device__(self):
            return (2, 0)
        def __dlpack__(self, stream=None, max_version=None, **kw):
            if stream != -1:  # the Array API's producer side: order the consumer's stream
                ev = c_void_p()
                assert fake.cuEventCreate(byref(ev), 0) == 0 and fake.cuEventRecord(ev, c_void_p(theirs)) == 0
                assert fake.cuStreamWaitEvent(c_void_p(stream), ev, 0) == 0
                assert fake.cuEventDestroy_v2(ev) == 0
            return x.__dlpack__(max_version=max_version, stream=-1)
    y = mx.nd.from_dlpack(Producer())
    assert fake.fakecuda_queued() == 0
    np.testing.assert_array_equal(y.asnumpy(), np.full(8, 7, np.uint8))
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake)


def test_dlpack_exchange_api_import_of_device_arrays(fake):
    """mxgo's own arrays carry the C exchange API: an import through it does not synchronise,
    so mxgo asks the producer for its work stream (current_work_stream: for mxgo, its own)
    and makes its stream wait on it."""
    run("""
    x = mx.nd.full((4,), 2.0, ctx=mx.gpu(0))
    before = mx.base.fastpath.exchange_counts()
    y = mx.nd.from_dlpack(x)
    after = mx.base.fastpath.exchange_counts()
    assert after["consumer_imports"] == before["consumer_imports"] + 1
    assert after["current_work_stream"] == before["current_work_stream"] + 1
    assert stats()["waitfor"] == 1 and log().endswith("record s1 e1; wait s1 e1"), log()
    assert y.context == mx.gpu(0)
    np.testing.assert_array_equal(y.asnumpy(), np.full(4, 2.0))
    mx.nd.zeros((4,), out=y)
    np.testing.assert_array_equal(x.asnumpy(), np.zeros(4))
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake)


def test_export_to_another_device(fake):
    run("""
    x = mx.nd.array([1.0, 2.0, 3.0])
    got = consume(x.__dlpack__(max_version=(1, 0), dl_device=(2, 0)))  # a copy on the GPU
    assert got["device"] == (2, 0) and got["flags"] & 2
    assert got["bytes"] == np.array([1, 2, 3], np.float32).tobytes()
    with pytest.raises(BufferError, match="without a copy"):
        x.__dlpack__(dl_device=(2, 0), copy=False)
    with pytest.raises(ValueError, match="stream"):
        x.__dlpack__(dl_device=(2, 0), stream=0)  # a CUDA consumer's streams apply
    g = mx.nd.ones((2,), ctx=mx.gpu(0))
    other = consume(g.__dlpack__(max_version=(1, 0), dl_device=(2, 1)))  # gpu(0) -> gpu(1): a peer copy
    assert other["device"] == (2, 1) and other["flags"] & 2
    assert mx.base.core.LiveExports() == 0
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake, FAKECUDA_DEVICES="2")


# ---------------------------------------------------------------------------- cpu_pinned

def test_pinned_memory(fake):
    run("""
    p = mx.nd.arange(6, ctx=mx.cpu_pinned()).reshape((2, 3))
    assert p.context == mx.cpu_pinned(0) and count("cuMemHostAlloc") == 1 and count("live_pinned") == 1
    assert p.__dlpack_device__() == (3, 0)
    q = p * 2 + 1  # every CPU operator takes page-locked memory
    assert q.context == mx.cpu_pinned()
    np.testing.assert_array_equal(q.asnumpy(), np.arange(6).reshape(2, 3) * 2 + 1)
    g = p.copyto(mx.gpu(0))  # DMA: the fake reads page-locked memory when the copy runs
    p[:] = -1  # after the copy is done: its operation waited for mxgo's stream
    np.testing.assert_array_equal(g.asnumpy(), np.arange(6).reshape(2, 3))
    back = mx.nd.empty((2, 3), ctx=mx.cpu_pinned())
    g.copyto(back)
    np.testing.assert_array_equal(back.asnumpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(np.from_dlpack(back), np.arange(6).reshape(2, 3))  # NumPy takes (3, 0)
    # the same memory: NumPy 2.1 asks for dl_device=(1, 0), which cpu_pinned shares
    n = np.from_dlpack(back, device="cpu") if NUMPY_2_1 else np.from_dlpack(back)
    back[0, 0] = 42  # (NumPy 1.24's imports are read-only)
    back.wait_to_read()
    assert n[0, 0] == 42
    import torch  # refuses kDLCUDAHost; MXNet's exports say kDLCPU for cpu_pinned, as MXNet 1.x does
    with pytest.raises((BufferError, RuntimeError), match="device_type: 3"):  # 1.13: RuntimeError
        torch.from_dlpack(back)
    t = torch.utils.dlpack.from_dlpack(back.to_dlpack_for_write())
    t[0, 1] = 7
    assert back.asnumpy()[0, 1] == 7 and n[0, 1] == 7
    with pytest.raises(BufferError, match="without a copy"):
        back.__dlpack__(dl_device=(2, 0), copy=False)
    h = mx.nd.from_dlpack(back, device=mx.cpu())
    assert h.context == mx.cpu() and h.asnumpy()[0, 0] == 42
    r = mx.nd.from_dlpack(back.__dlpack__(max_version=(1, 0)))  # (3, 0) is imported as cpu_pinned
    assert r.context == mx.cpu_pinned()
    del p, q, back, n, h, r, t
    gc.collect()
    mx.nd.waitall()
    gc.collect()
    allocs = count("cuMemHostAlloc")  # p, back, and the results of p's operators (on cpu_pinned, as MXNet)
    assert allocs >= 4 and count("live_pinned") == 0 and count("cuMemFreeHost") == allocs and count("bad_free") == 0
    s = stats()
    assert s["host_alloc"] == s["host_free"] == allocs and s["live_host_bytes"] == 0
    no_misuse()
    """, CONSUMER, MXGO_LIBCUDA=fake)


def test_environment_set_by_python_before_import_is_seen(fake):
    """Variables set through os.environ after the interpreter started (as a notebook or a
    test harness does) reach mxgo: Go's os.Getenv reads a copy of the environment taken
    when the process started, which would miss them."""
    script = textwrap.dedent("""
    import os
    os.environ["MXGO_LIBCUDA"] = %r
    import mxgo as mx
    assert mx.context.num_gpus() == 1, mx.context.gpu_status()
    print("script passed")
    """ % fake)
    env = {k: v for k, v in os.environ.items() if k != "MXGO_LIBCUDA"}
    res = subprocess.run([*PYTHON, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "script passed" in res.stdout, res.stdout + res.stderr
