"""DLPack 1.3's C exchange API with real peers (main environment only: PyTorch >= 2.10
produces it, TVM-FFI consumes it): PyTorch's tensors imported and used as operands and out=
through torch's table, and TVM-FFI consuming mxgo's table (from_dlpack, arguments of
load_inline functions, tensors they return and allocate)."""
import functools
import gc
import os

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl
import jax
import jax.dlpack
import jax.numpy
import tvm_ffi
import tvm_ffi.cpp

import mxgo as mx
from mxgo.base import fastpath

import tvm_kernels
from exchange_helpers import lib
from interop_helpers import mx_address

BUILD = os.path.join(tvm_kernels.BUILD, "exchange")

KERNELS = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

using tvm::ffi::Tensor;
using tvm::ffi::TensorView;

static void check_f32(TensorView t) {
  if (t.dtype().code != kDLFloat || t.dtype().bits != 32 || !t.IsContiguous())
    TVM_FFI_THROW(TypeError) << "expected a contiguous float32 tensor";
}

// y = x + 1
void add_one(TensorView x, TensorView y) {
  check_f32(x);
  check_f32(y);
  const float* px = static_cast<const float*>(x.data_ptr());
  float* py = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] + 1;
}

// A new tensor x + 1, from the caller's framework's allocator.
Tensor plus_one(TensorView x) {
  check_f32(x);
  Tensor y = Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(), x.device());
  const float* px = static_cast<const float*>(x.data_ptr());
  float* py = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] + 1;
  return y;
}

// x itself.
Tensor same(Tensor x) { return x; }
"""


@functools.lru_cache(maxsize=None)
def kernels():
    os.makedirs(BUILD, exist_ok=True)
    return tvm_ffi.cpp.load_inline("mxgo_exchange_kernels", cpp_sources=KERNELS, functions=["add_one", "plus_one", "same"],
                                   build_directory=BUILD)


pytestmark = pytest.mark.usefixtures("frozen_heap")


def counts():
    return fastpath.exchange_counts()


def grew(before, key):
    return counts()[key] - before[key]


# ---- PyTorch as the producer ------------------------------------------------------------

TORCH_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.int32, torch.int64,
                torch.uint8, torch.bool, torch.complex64]


def torch_values(dtype, shape):
    t = torch.arange(int(np.prod(shape))).reshape(shape) % 7
    return (t % 2 == 1) if dtype == torch.bool else t.to(dtype)


def as_numpy(t):
    return t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=str)
@pytest.mark.parametrize("view", ["contiguous", "transposed", "sliced", "0d"])
def test_torch_tensors_import_through_its_table(no_leaks, dtype, view):
    base = torch_values(dtype, (4, 6))
    t = {"contiguous": base, "transposed": base.t(), "sliced": base[1:, ::2], "0d": base[1, 2]}[view]
    before = counts()
    x = mx.nd.from_dlpack(t)
    assert grew(before, "consumer_imports") == 1
    assert x.shape == tuple(t.shape) and x.strides == tuple(t.stride()) and mx_address(x) == t.data_ptr()
    got = x.astype("float32").asnumpy() if dtype == torch.bfloat16 else x.asnumpy()
    np.testing.assert_array_equal(got, as_numpy(t))
    assert x.writable
    if dtype not in (torch.bool, torch.bfloat16, torch.complex64):
        x[...] = 3  # shared: torch sees mxgo's writes
        x.wait_to_read()
        assert (t == 3).all()
        t.fill_(5)  # and mxgo torch's
        assert (x.asnumpy() == 5).all()
    del t, base
    gc.collect()
    np.testing.assert_array_equal(x.astype("float32").asnumpy().shape, x.shape)  # intact after torch let go


def test_torch_lifetimes(no_leaks):
    t = torch.arange(10.0)
    keep = t.clone()
    x = mx.nd.from_dlpack(t)
    y = x[2:]
    del t, x
    gc.collect()
    np.testing.assert_array_equal(y.asnumpy(), keep[2:].numpy())
    z = y + 1  # Go adopts the C array and its torch tensor
    del y
    gc.collect()
    np.testing.assert_array_equal(z.asnumpy(), keep[2:].numpy() + 1)


def test_torch_read_only_wrapper_gives_read_only_arrays(no_leaks):
    t = torch.arange(6.0)
    before = counts()
    x = mx.nd.from_dlpack(tdl.ReadOnlyTensorWrapper(t))  # torch's const table
    assert grew(before, "consumer_imports") == 1
    assert not x.writable and mx_address(x) == t.data_ptr()
    with pytest.raises(ValueError):
        x[0] = 1
    np.testing.assert_array_equal(x.asnumpy(), t.numpy())


def test_operators_on_torch_tensors(no_leaks):
    ta, tb = torch.arange(12.0).reshape(3, 4), torch.full((3, 4), 2.0)
    tc = torch.zeros(3, 4)
    ptr = tc.data_ptr()
    before = counts()
    r = mx.nd.add(ta, tb, out=tc)
    assert grew(before, "consumer_operands") == 2 and grew(before, "consumer_imports") == 1  # inputs viewed, out owned
    assert r is tc and ptr == tc.data_ptr()  # out comes back as given, as torch.add(out=) does
    torch.testing.assert_close(tc, ta + tb)  # finished before returning
    r = mx.nd.multiply(ta.t(), tb.t())  # strided inputs, a new mxgo result
    torch.testing.assert_close(torch.from_dlpack(r), ta.t() * tb.t())
    r = mx.nd.sum(ta, axis=1)  # with parameters
    torch.testing.assert_close(torch.from_dlpack(r), ta.sum(1))
    mx.nd.square(tc, out=tc)  # in place on torch memory
    torch.testing.assert_close(tc, (ta + tb) ** 2)
    x = mx.nd.ones((3, 4))
    mx.nd.add(x, ta, out=x)  # torch operand, mxgo out
    torch.testing.assert_close(torch.from_dlpack(x), ta + 1)
    r = mx.nd.reshape(ta, shape=(4, 3))  # a result that may view its input
    del ta
    gc.collect()
    np.testing.assert_array_equal(r.asnumpy(), np.arange(12.0).reshape(4, 3))
    ro = tdl.ReadOnlyTensorWrapper(tb)
    with pytest.raises(ValueError, match="read-only"):
        mx.nd.add(x, x, out=ro)
    assert (tb == 2).all()


def test_operator_errors_leave_torch_memory_intact(no_leaks):
    ta, tc = torch.arange(6.0), torch.zeros(5)
    with pytest.raises(ValueError):
        mx.nd.add(ta, ta, out=tc)
    assert (tc == 0).all()
    with pytest.raises(TypeError):
        mx.nd.add(ta, torch.arange(6, dtype=torch.int32), out=torch.zeros(6, dtype=torch.int64))


# ---- TVM-FFI as the consumer ------------------------------------------------------------

def test_peer_tables():
    xc = lib()
    # the README's DLPack table: PyTorch produces a 1.3 table and a const twin; NumPy, JAX
    # and PyTorch's own from_dlpack never consume mxgo's (they call __dlpack__)
    assert xc.xc_header(torch.ones(1)) == (1, 3, True, (True,) * 5)
    assert xc.xc_header(tdl.ReadOnlyTensorWrapper(torch.ones(1)))[:2] == (1, 3)
    assert torch.Tensor.__dlpack_c_exchange_api__ is not tdl.ReadOnlyTensorWrapper.__dlpack_c_exchange_api__
    for arr in (np.ones(1), jax.numpy.ones(1)):
        assert not hasattr(type(arr), "__dlpack_c_exchange_api__")
    x = mx.nd.ones(3)
    before = counts()
    for consume in (torch.from_dlpack, np.from_dlpack, jax.dlpack.from_dlpack):
        consume(x)
    assert counts() == before


def test_tvm_ffi_from_dlpack_takes_mxgo_table(no_leaks):
    x = mx.nd.array(np.arange(6, dtype=np.float32))
    before = counts()
    t = tvm_ffi.from_dlpack(x)
    assert grew(before, "managed_tensor_from_py_object_no_sync") == 1
    assert t.shape == (6,) and t.data_ptr() == mx_address(x)
    x[0] = 9
    x.wait_to_read()
    assert torch.from_dlpack(t)[0] == 9
    before = counts()
    r = tvm_ffi.from_dlpack(mx.nd.ReadOnlyDLPack(x))
    assert grew(before, "managed_tensor_from_py_object_no_sync") == 1 and r.data_ptr() == mx_address(x)
    del t, r


def test_load_inline_functions_take_and_return_ndarrays(no_leaks, monkeypatch):
    k = kernels()
    x = mx.nd.array(np.arange(6, dtype=np.float32))
    y = mx.nd.zeros(6)

    def no_dlpack(self, *args, **kwargs):
        raise AssertionError("TVM-FFI used __dlpack__, not the C exchange API")

    monkeypatch.setattr(mx.nd.NDArray, "__dlpack__", no_dlpack)  # (asnumpy uses it: check afterwards)
    before = counts()
    k.add_one(x, y)
    used = {key: grew(before, key) for key in before}
    r = k.plus_one(x)  # allocated by mxgo's allocator, returned through to_py_object
    s = k.same(x)
    monkeypatch.undo()
    assert used["managed_tensor_from_py_object_no_sync"] == 2
    np.testing.assert_array_equal(y.asnumpy(), np.arange(6) + 1)
    assert grew(before, "managed_tensor_allocator") == 1 and grew(before, "managed_tensor_to_py_object_no_sync") == 2
    assert type(r) is mx.nd.NDArray and r.writable
    np.testing.assert_array_equal(r.asnumpy(), np.arange(6) + 1)
    assert type(s) is mx.nd.NDArray and mx_address(s) == mx_address(x)
    t = torch.arange(6.0)  # torch's arrays stay torch's
    assert type(k.plus_one(t)) is torch.Tensor


def test_load_inline_waits_for_pending_writes(no_leaks):
    k = kernels()
    x = mx.nd.zeros(100000)
    mx.nd.add(x, 41, out=x)  # maybe still running on the engine
    y = mx.nd.zeros(100000)
    k.add_one(x, y)  # its export waits for the write
    assert (y.asnumpy() == 42).all()
