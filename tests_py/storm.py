"""Many Python threads exchanging, computing and dropping arrays at once.

Each worker repeats a random mix of steps over its own arrays and checks every value it
gets back, so that a race shows as a wrong number, a crash or a hang. Large arrays make
mxgo's operations asynchronous: the last reference to an input is then often dropped by
the engine's worker (a Go thread that does not hold the GIL), which releases NumPy
buffers, runs PyTorch's and NumPy's deleters and frees mxgo's own storage off the Python
thread. test_threads.py runs :func:`main` in a child interpreter under a timeout.
"""
import ctypes
import random
import threading

import numpy as np
import torch
import torch.utils.dlpack as tdl

import mxgo as mx
from dlpack_producer import capsule_pointer

BIG = 1 << 14  # elements: past the size that mxgo runs inline on the caller


def _np_source(rng, n):
    a = np.arange(n, dtype=np.float32) * np.float32(rng.randint(1, 5))
    return a, a.copy()


def step_from_numpy(rng):
    a, want = _np_source(rng, rng.choice([16, BIG]))
    x = mx.nd.from_numpy(a)
    y = x * 2 + 1  # x (and a's buffer) may now be freed by the engine's thread
    del x, a
    assert np.array_equal(y.asnumpy(), want * 2 + 1)


def step_numpy_dlpack(rng):
    a, want = _np_source(rng, rng.choice([16, BIG]))
    y = mx.nd.from_dlpack(a) + 3  # NumPy's deleter runs where the last reference dies
    del a
    assert np.array_equal(y.asnumpy(), want + 3)


def step_torch_in(rng):
    n = rng.choice([16, BIG])
    t = torch.arange(n, dtype=torch.float32)
    x = mx.nd.from_dlpack(tdl.to_dlpack(t) if rng.random() < 0.5 else t)
    y = mx.nd.exp(x * 0)  # all ones
    del t, x  # PyTorch's deleter runs without the GIL on the engine's thread
    assert float(y.sum().asscalar()) == n


def step_torch_out(rng):
    x = mx.nd.full((rng.choice([16, BIG]),), rng.randint(1, 9), dtype="int32")
    x.wait_to_read()
    t = torch.from_dlpack(x) if rng.random() < 0.5 else tdl.from_dlpack(x.to_dlpack_for_write())
    v = int(t[0])
    t += 1  # a write through PyTorch is seen by mxgo
    assert int(x.asnumpy()[-1]) == v + 1
    del x  # t alone keeps the memory alive now
    assert int(t.sum()) == (v + 1) * t.numel()


def step_numpy_out(rng):
    x = mx.nd.arange(rng.choice([16, BIG]), dtype="float64")
    x.wait_to_read()
    a = np.from_dlpack(x)
    del x
    assert a[-1] == len(a) - 1


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_SET_NAME = ctypes.pythonapi.PyCapsule_SetName
_SET_NAME.argtypes = [ctypes.py_object, ctypes.c_char_p]


def step_deleter_without_gil(rng):
    """Consumes an mxgo capsule by hand and calls its deleter through ctypes, which
    releases the GIL for the call: as a consumer's C++ thread would."""
    x = mx.nd.ones((rng.choice([4, BIG]),))
    capsule = x.to_dlpack_for_read()
    del x
    managed = capsule_pointer(capsule)
    _SET_NAME(capsule, b"used_dltensor")  # the capsule no longer owns it
    # DLManagedTensor: dl_tensor (48 bytes), manager_ctx, deleter
    deleter = _DELETER(ctypes.c_void_p.from_address(managed + 56).value)
    deleter(managed)


STEPS = [step_from_numpy, step_numpy_dlpack, step_torch_in, step_torch_out, step_numpy_out,
         step_deleter_without_gil]


def worker(seed, iterations, errors):
    rng = random.Random(seed)
    try:
        for _ in range(iterations):
            rng.choice(STEPS)(rng)
    except BaseException as e:  # noqa: B036 - reported by main
        errors.append((seed, repr(e)))


def main(threads=8, iterations=300, seed=0):
    from interop_helpers import live_counts
    import gc
    baseline = live_counts()
    errors = []
    pool = [threading.Thread(target=worker, args=(seed + i, iterations, errors)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    mx.nd.waitall()
    gc.collect()
    assert not errors, errors
    assert live_counts() == baseline, (baseline, live_counts())
    print("storm ok: %d threads x %d steps" % (threads, iterations))
