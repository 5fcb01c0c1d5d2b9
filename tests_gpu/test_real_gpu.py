"""mxgo's GPU suite against the real CUDA driver: `make test-gpu`, on a machine with an
NVIDIA GPU, its driver (libcuda.so.1) and PyTorch built with CUDA.

Not part of `make test`: it fails, never skips, where no GPU is usable (the first test says
why). No GPU has been lent to this project, so this suite has not been run yet; the fake
driver (tests_py/test_gpu_fake.py) checks mxgo's logic, not CUDA, and this is where CUDA
itself is checked. What it must show is in docs/gpu.md.
"""
import gc
import json

import numpy as np
import pytest
import torch

import mxgo as mx


def stats():
    return json.loads(mx.base.core.GPUStats())


def test_a_gpu_is_usable():
    assert mx.context.num_gpus() > 0, mx.context.gpu_status()
    assert torch.cuda.is_available(), "PyTorch sees no GPU"
    assert mx.context.num_gpus() == torch.cuda.device_count()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int32", "int64", "uint8", "bool"])
def test_round_trip(dtype):
    src = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    x = mx.nd.array(src, ctx=mx.gpu(0), dtype=dtype)
    assert x.context == mx.gpu(0)
    np.testing.assert_array_equal(x.asnumpy(), src)
    np.testing.assert_array_equal(x.copy().asnumpy(), src)
    np.testing.assert_array_equal(x.copyto(mx.cpu()).asnumpy(), src)
    np.testing.assert_array_equal(x[1].asnumpy(), src[1])


def test_fills():
    np.testing.assert_array_equal(mx.nd.zeros((3, 5), ctx=mx.gpu(0)).asnumpy(), np.zeros((3, 5), np.float32))
    np.testing.assert_array_equal(mx.nd.ones((7,), ctx=mx.gpu(0), dtype="int32").asnumpy(), np.ones(7, np.int32))
    np.testing.assert_array_equal(mx.nd.full((4,), 2.5, ctx=mx.gpu(0), dtype="float64").asnumpy(), np.full(4, 2.5))


def test_between_devices():
    if mx.context.num_gpus() < 2:
        pytest.skip("one GPU: nothing to copy between")
    x = mx.nd.array([1, 2, 3], ctx=mx.gpu(0))
    np.testing.assert_array_equal(x.copyto(mx.gpu(1)).asnumpy(), [1, 2, 3])


def test_memory_is_freed_once():
    gc.collect()
    mx.nd.waitall()
    before = stats()
    xs = [mx.nd.zeros((1000,), ctx=mx.gpu(0)) for _ in range(10)]
    assert stats()["alloc"] == before["alloc"] + 10
    del xs
    gc.collect()
    mx.nd.waitall()
    after = stats()
    assert after["free"] == before["free"] + 10 and after["live_bytes"] == before["live_bytes"]


def test_export_to_torch_on_its_default_stream():
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4), ctx=mx.gpu(0))
    assert x.__dlpack_device__() == (2, 0)
    t = torch.from_dlpack(x)
    assert t.device == torch.device("cuda", 0) and t.shape == (3, 4)
    torch.testing.assert_close(t.cpu(), torch.arange(12, dtype=torch.float32).reshape(3, 4))


def test_export_to_torch_on_a_side_stream():
    x = mx.nd.full((1 << 20,), 3.0, ctx=mx.gpu(0), dtype="float64")
    s = torch.cuda.Stream()
    before = stats()["handoff"]
    with torch.cuda.stream(s):
        t = torch.from_dlpack(x)  # PyTorch passes its current stream: mxgo's work is ordered before it
        total = t.sum()
    s.synchronize()
    assert total.item() == 3.0 * (1 << 20)
    assert stats()["handoff"] == before + 1


def test_export_then_write_in_torch():
    x = mx.nd.zeros((4,), ctx=mx.gpu(0))
    t = torch.from_dlpack(x)
    t += 1
    torch.cuda.synchronize()
    np.testing.assert_array_equal(x.asnumpy(), np.ones(4, np.float32))


def test_import_from_torch():
    t = torch.arange(5, device="cuda", dtype=torch.float32)
    x = mx.nd.from_dlpack(t)  # through PyTorch's C exchange API: mxgo's stream waits on PyTorch's
    assert x.context == mx.gpu(0)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(5, dtype=np.float32))
    mx.nd.zeros((5,), out=x)  # the same memory
    torch.cuda.synchronize()
    assert t.sum().item() == 0
    y = mx.nd.from_dlpack(t, device=mx.gpu(0), copy=True)  # the Python path, with a stream
    assert y.context == mx.gpu(0)


def test_import_waits_for_work_queued_on_a_torch_side_stream():
    s = torch.cuda.Stream()
    n = 1 << 26
    with torch.cuda.stream(s):
        t = torch.empty(n, device="cuda")
        for _ in range(20):  # long enough to still be running when mxgo reads it
            t.fill_(1.0).mul_(2.0)
        x = mx.nd.from_dlpack(t)
    assert float(x[: 1 << 10].asnumpy().sum()) == 2.0 * (1 << 10)
    assert stats()["waitfor"] > 0


def test_strided_and_cast_copies():
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = mx.nd.array(src, ctx=mx.gpu(0))
    np.testing.assert_array_equal(x.T.asnumpy(), src.T)
    x[:, 1] = 5
    np.testing.assert_array_equal(x.asnumpy()[:, 1], [5, 5, 5])
    h = mx.nd.zeros((3, 4), dtype="float64")
    x.copyto(h)
    assert h.asnumpy()[0, 1] == 5


def test_pinned_memory():
    p = mx.nd.arange(8, ctx=mx.cpu_pinned())
    assert p.__dlpack_device__() == (3, 0)
    g = p.copyto(mx.gpu(0))
    np.testing.assert_array_equal(g.asnumpy(), np.arange(8))
    t = torch.utils.dlpack.from_dlpack(p.to_dlpack_for_read())  # kDLCPU, as MXNet exports it
    assert t.is_pinned()
    assert stats()["host_alloc"] > 0


def test_export_across_devices():
    x = mx.nd.ones((3,), ctx=mx.gpu(0))
    h = np.from_dlpack(x, device="cpu")  # a copy on the host, made by mxgo
    np.testing.assert_array_equal(h, np.ones(3, np.float32))
