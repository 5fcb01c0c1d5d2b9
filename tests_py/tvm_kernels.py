"""C++ kernels for the TVM-FFI tests, compiled once with ``tvm_ffi.cpp.load_inline`` into
the checkout's ignored build/tvm_inline/<interpreter>/ (load_inline rebuilds only when the
source changes; one folder per interpreter, since tools/wheels.sh tests two at once).
Kernels that wait for something (another call, a flag Python sets) give up after
TIMEOUT_S and say so in what they write, so a wrong engine fails a test instead of
hanging it."""
import functools
import os
import sys

import tvm_ffi.cpp

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(HERE), "build", "tvm_inline", sys.implementation.cache_tag)
TIMEOUT_S = 20

SOURCE = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <chrono>
#include <cstdint>

using tvm::ffi::TensorView;

static int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void check_f32(TensorView t, const char* what) {
  if (t.dtype().code != kDLFloat || t.dtype().bits != 32) TVM_FFI_THROW(TypeError) << what << " must be float32";
  if (!t.IsContiguous()) TVM_FFI_THROW(ValueError) << what << " must be contiguous";
}

// y = x * a + b (float32, same size); ValueError on a size mismatch.
void axpb(TensorView x, TensorView y, double a, double b) {
  check_f32(x, "x");
  check_f32(y, "y");
  if (x.numel() != y.numel()) TVM_FFI_THROW(ValueError) << "size mismatch: " << x.numel() << " vs " << y.numel();
  const float* px = static_cast<const float*>(x.data_ptr());
  float* py = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) py[i] = static_cast<float>(px[i] * a + b);
}

// x += 1 in place (float32).
void inc(TensorView x) {
  check_f32(x, "x");
  float* p = static_cast<float*>(x.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) p[i] += 1;
}

// x += 1 through an owning ffi::Tensor parameter (not a TensorView).
void inc_tensor(tvm::ffi::Tensor x) {
  float* p = static_cast<float*>(x.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) p[i] += 1;
}

// Raises an error of the given kind (out, never written, makes the error an array's).
void fail(TensorView out, int64_t kind) {
  switch (kind) {
    case 0: TVM_FFI_THROW(ValueError) << "bad value from the kernel";
    case 1: TVM_FFI_THROW(TypeError) << "bad type from the kernel";
    case 2: TVM_FFI_THROW(IndexError) << "bad index from the kernel";
    default: TVM_FFI_THROW(RuntimeError) << "the kernel failed";
  }
}

// Waits until flag[0] (int64, read) is nonzero, then writes out = {1 if it was seen before
// the timeout else 0, start ns, end ns}: whoever sets the flag ran while this waited.
void wait_flag(TensorView flag, TensorView out, double timeout_s) {
  const int64_t* f = static_cast<const int64_t*>(flag.data_ptr());
  int64_t* o = static_cast<int64_t*>(out.data_ptr());
  int64_t start = now_ns(), limit = start + static_cast<int64_t>(timeout_s * 1e9);
  int64_t seen = 0;
  while (now_ns() < limit) {
    if (__atomic_load_n(f, __ATOMIC_ACQUIRE) != 0) { seen = 1; break; }
  }
  o[0] = seen;
  o[1] = start;
  o[2] = now_ns();
}

// Waits until flag[0] (int64, read) is nonzero; x, declared written and untouched, orders
// later work on x after it. RuntimeError after the timeout.
void hold(TensorView flag, TensorView x, double timeout_s) {
  const int64_t* f = static_cast<const int64_t*>(flag.data_ptr());
  int64_t limit = now_ns() + static_cast<int64_t>(timeout_s * 1e9);
  while (__atomic_load_n(f, __ATOMIC_ACQUIRE) == 0) {
    if (now_ns() > limit) TVM_FFI_THROW(RuntimeError) << "hold: the flag was not set in time";
  }
}

// Rendezvous of `parties` calls sharing counter (int64, declared read, so the engine may
// run them together): each adds 1 and waits for all; out = {1 if all arrived in time
// else 0, start ns, end ns}. Calls the engine ran one after another time out.
void meet(TensorView counter, TensorView out, int64_t parties, double timeout_s) {
  int64_t* c = static_cast<int64_t*>(counter.data_ptr());
  int64_t* o = static_cast<int64_t*>(out.data_ptr());
  int64_t start = now_ns(), limit = start + static_cast<int64_t>(timeout_s * 1e9);
  __atomic_add_fetch(c, 1, __ATOMIC_ACQ_REL);
  int64_t all = 0;
  while (now_ns() < limit) {
    if (__atomic_load_n(c, __ATOMIC_ACQUIRE) >= parties) { all = 1; break; }
  }
  o[0] = all;
  o[1] = start;
  o[2] = now_ns();
}

// Spins for about `ms` milliseconds, then writes out[0] = 1 (any dtype of 8 bytes).
void spin(TensorView out, double ms) {
  int64_t limit = now_ns() + static_cast<int64_t>(ms * 1e6);
  while (now_ns() < limit) {}
  static_cast<int64_t*>(out.data_ptr())[0] = 1;
}

// Returns its arguments' types as a string ("i", "f", "b", "t" per argument) and
// writes them as codes into out (int64, first argument): checks what the bridge passes.
void kinds(TensorView out, tvm::ffi::AnyView a, tvm::ffi::AnyView b, tvm::ffi::AnyView c) {
  int64_t* o = static_cast<int64_t*>(out.data_ptr());
  tvm::ffi::AnyView args[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    int32_t t = args[i].type_index();
    o[2 * i] = t;
    if (t == tvm::ffi::TypeIndex::kTVMFFIInt || t == tvm::ffi::TypeIndex::kTVMFFIBool) {
      o[2 * i + 1] = args[i].cast<int64_t>();
    } else if (t == tvm::ffi::TypeIndex::kTVMFFIFloat) {
      o[2 * i + 1] = static_cast<int64_t>(args[i].cast<double>() * 1000);
    } else {
      o[2 * i + 1] = -1;
    }
  }
}
"""

FUNCTIONS = ["axpb", "inc", "inc_tensor", "fail", "wait_flag", "hold", "meet", "spin", "kinds"]


@functools.lru_cache(maxsize=None)
def module():
    """The compiled kernels (a tvm_ffi Module with a Function per name in FUNCTIONS)."""
    path = os.path.join(BUILD, "kernels")
    os.makedirs(path, exist_ok=True)
    return tvm_ffi.cpp.load_inline("mxgo_test_kernels", cpp_sources=SOURCE, functions=FUNCTIONS,
                                   build_directory=path)
