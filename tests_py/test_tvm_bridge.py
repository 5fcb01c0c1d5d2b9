"""mxgo.tvm_bridge.to_mxgo_func: tvm_ffi Functions (C++ kernels compiled with load_inline,
tvm_kernels.py) run on mxgo's engine through TVM-FFI's C ABI: values, ordering against
mxgo's operators, parallelism, errors, lifetimes, the GIL, and interpreter exit.

No assertion here is about time: waiting kernels record what they saw (tvm_kernels.py),
and give up after a bound so a broken engine fails a test instead of hanging it."""
import ctypes
import gc
import threading

import numpy as np
import pytest
import torch
import tvm_ffi

import mxgo as mx
from mxgo import tvm_bridge
from mxgo.base import MXNetError, MXNetIndexError, MXNetTypeError, MXNetValueError

from interop_helpers import live_counts
from isolation import run_script
import tvm_kernels
from tvm_kernels import TIMEOUT_S, module


@pytest.fixture(scope="module")
def k():
    m = module()
    return {name: getattr(m, name) for name in tvm_kernels.FUNCTIONS}


def bridged(k, name, const_loc=()):
    return tvm_bridge.to_mxgo_func(k[name], const_loc=const_loc)


def refcount(func):
    """The strong reference count of a tvm_ffi.Function's object (TVMFFIObject's first field)."""
    return ctypes.c_uint64.from_address(func.__chandle__()).value & 0xFFFFFFFF


def test_writes_ndarrays(k):
    x = mx.nd.array(np.arange(12).reshape(3, 4), dtype="float32")
    y = mx.nd.zeros((3, 4))
    assert bridged(k, "axpb", [0])(x, y, 2.0, 1.0) is None
    got = y.asnumpy()
    assert got.dtype == np.float32 and got.shape == (3, 4)
    np.testing.assert_array_equal(got, np.arange(12).reshape(3, 4) * 2 + 1)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(12).reshape(3, 4))


def test_writes_torch_and_numpy_memory(k):
    axpb = bridged(k, "axpb", [0])
    src = torch.arange(8, dtype=torch.float32)
    t = torch.zeros(8)
    n = np.zeros(8, np.float32)
    t_ptr, n_ptr = t.data_ptr(), n.ctypes.data
    axpb(src, t, 3.0, 0.0)  # both DLPack producers, imported zero-copy
    axpb(src, n, -1.0, 0.5)
    mx.nd.waitall()
    np.testing.assert_array_equal(t.numpy(), np.arange(8) * 3)
    np.testing.assert_array_equal(n, -np.arange(8) + 0.5)
    assert t.data_ptr() == t_ptr and n.ctypes.data == n_ptr


def test_scalars_and_arrays_are_passed_as_their_ffi_types(k):
    out = mx.nd.zeros((6,), dtype="int64")
    bridged(k, "kinds")(out, 7, 2.5, True)
    assert out.asnumpy().tolist() == [1, 7, 3, 2500, 2, 1]  # Int, Float (x1000), Bool
    bridged(k, "kinds")(out, False, -3, 0.001)
    assert out.asnumpy().tolist() == [2, 0, 1, -3, 3, 1]


def test_tensor_parameters_and_python_functions(k):
    # Arrays arrive as Tensor objects: ffi::Tensor parameters take them, and a function
    # made from a Python callable may export them (it runs with the GIL, taken by tvm_ffi).
    x = mx.nd.zeros((3,))
    bridged(k, "inc_tensor")(x)
    seen = []

    def py(t, scale):
        a = np.from_dlpack(t)
        seen.append(a.shape)
        a *= scale

    f = tvm_bridge.to_mxgo_func(tvm_ffi.convert(py))
    f(x, 5)
    bridged(k, "inc_tensor")(x)
    assert x.asnumpy().tolist() == [6.0] * 3 and seen == [(3,)]


def test_ordered_with_mxgo_operators(k):
    axpb, inc = bridged(k, "axpb", [0]), bridged(k, "inc")
    x = mx.nd.array(np.arange(1000), dtype="float32")
    ref = np.arange(1000, dtype=np.float32)
    y = mx.nd.zeros((1000,))
    y_ref = np.zeros(1000, np.float32)
    for i in range(20):  # nothing waits in between: the engine orders it all
        y = x * 2 + y  # mxgo reads x and y
        inc(y)  # bridged write of y
        axpb(y, x, 0.5, float(i))  # bridged read of y, write of x
        x += 1  # mxgo write of x
        y_ref = ref * 2 + y_ref + 1
        ref = (y_ref * 0.5 + i + 1).astype(np.float32)
    np.testing.assert_allclose(x.asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), y_ref, rtol=1e-6)


def test_dependent_calls_run_in_order(k):
    inc = bridged(k, "inc")
    t = torch.zeros(4)
    y = mx.nd.from_dlpack(t)  # import once: one engine variable for every call
    for _ in range(200):
        inc(y)
    y.wait_to_read()
    assert t.tolist() == [200.0] * 4


def test_independent_calls_run_in_parallel(k):
    # Two calls that only read the counter may run together: each waits for the other to
    # arrive, so run one after another both would give up.
    meet = bridged(k, "meet", [0])
    counter = mx.nd.zeros((1,), dtype="int64")
    outs = [mx.nd.zeros((3,), dtype="int64") for _ in range(2)]
    for o in outs:
        meet(counter, o, 2, float(TIMEOUT_S))
    (a_ok, a_start, a_end), (b_ok, b_start, b_end) = (o.asnumpy().tolist() for o in outs)
    assert a_ok == 1 and b_ok == 1
    assert a_start < b_end and b_start < a_end  # the calls' own timestamps overlap
    assert counter.asnumpy().tolist() == [2]


def test_the_gil_is_not_held_while_the_kernel_runs(k):
    flag = torch.zeros(1, dtype=torch.int64)
    out = torch.zeros(3, dtype=torch.int64)
    bridged(k, "wait_flag", [0])(flag, out, float(TIMEOUT_S))
    progress = []

    def python_work():  # pure Python: runs only while nobody holds the GIL
        progress.append(sum(range(10000)))
        flag[0] = 1

    th = threading.Thread(target=python_work)
    th.start()
    th.join()
    mx.nd.waitall()
    assert progress and out[0].item() == 1  # the kernel saw the flag set while it ran


@pytest.mark.parametrize("kind, cls, match", [
    (0, MXNetValueError, "^bad value from the kernel"),
    (1, MXNetTypeError, "^bad type from the kernel"),
    (2, MXNetIndexError, "^bad index from the kernel"),
    (3, MXNetError, "^RuntimeError: the kernel failed"),
])
def test_errors_become_engine_errors_of_written_arrays(k, kind, cls, match):
    y = mx.nd.ones((3,))
    bridged(k, "fail")(y, kind)  # returns at once
    z = y + 1  # depends on the failed call: not run, carries its error
    with pytest.raises(cls, match=match) as info:
        z.wait_to_read()
    assert type(info.value) is cls
    y.wait_to_read()  # raised once, wherever it reached (as in MXNet 1.x)
    mx.nd.waitall()


def test_size_mismatch_is_the_kernels_value_error(k):
    y = mx.nd.zeros((4,))
    bridged(k, "axpb", [0])(mx.nd.ones((5,)), y, 1.0, 0.0)
    with pytest.raises(MXNetValueError, match="size mismatch: 5 vs 4"):
        y.asnumpy()
    mx.nd.waitall()  # raised once, as in MXNet 1.x


def test_arrays_dropped_while_pending_stay_alive(k):
    gc.collect()
    mx.nd.waitall()
    baseline = live_counts()
    flag = torch.zeros(1, dtype=torch.int64)
    hold, axpb, inc = bridged(k, "hold", [0]), bridged(k, "axpb", [0]), bridged(k, "inc")
    src = mx.nd.ones((1000,))
    dst_t = torch.zeros(1000)
    dst = mx.nd.from_dlpack(dst_t)
    hold(flag, src, float(TIMEOUT_S))  # src's later work waits until the flag is set
    axpb(src, dst, 4.0, 0.0)
    inc(dst)
    holds = live_counts()[1]
    del src, dst
    gc.collect()
    assert live_counts()[1] == holds  # the pending operations hold their storages
    flag[0] = 1
    mx.nd.waitall()
    gc.collect()
    assert dst_t.tolist() == [5.0] * 1000
    assert live_counts() == baseline


def test_function_handle_is_held_while_calls_are_pending(k):
    func = k["wait_flag"]
    before = refcount(func)
    flag = torch.zeros(1, dtype=torch.int64)
    f = tvm_bridge.to_mxgo_func(func, const_loc=[0])
    outs = [mx.nd.zeros((3,), dtype="int64") for _ in range(3)]
    for o in outs:
        f(flag, o, float(TIMEOUT_S))
    assert refcount(func) == before + 3
    flag[0] = 1
    mx.nd.waitall()
    assert refcount(func) == before
    # A call skipped because its dependency failed releases the handle too.
    fail = k["fail"]
    before_fail = refcount(fail)
    y = mx.nd.ones((3,))
    tvm_bridge.to_mxgo_func(fail)(y, 0)
    bridged(k, "inc")(y)
    tvm_bridge.to_mxgo_func(fail)(y, 0)
    with pytest.raises(MXNetValueError):
        mx.nd.waitall()
    assert refcount(fail) == before_fail


def test_naive_engine_runs_calls_synchronously():
    status, out, err = run_script("""
from tvm_kernels import module
import mxgo as mx, mxgo.tvm_bridge as tb
y = mx.nd.zeros((3,))
tb.to_mxgo_func(module().axpb, const_loc=[0])(mx.nd.ones((3,)), y, 2.0, 1.0)
print(y.asnumpy().tolist())
""", env={"MXGO_ENGINE": "naive"})
    assert status == 0, err
    assert out.strip() == "[3.0, 3.0, 3.0]"


EXIT_PRELUDE = """
import torch, mxgo as mx, mxgo.tvm_bridge as tb
from tvm_kernels import module
m = module()
"""

EXIT_SCENARIOS = {
    "long independent calls": "outs = [mx.nd.zeros((3,), dtype='int64') for _ in range(4)]\n"
                              "for o in outs: tb.to_mxgo_func(m.spin)(o, 300.0)",
    "a dependent chain on dropped arrays": "y = mx.nd.zeros((3,), dtype='int64'); f = tb.to_mxgo_func(m.spin)\n"
                                           "for _ in range(3): f(y, 100.0)\ndel y, f",
    "a pending error nobody waits for": "tb.to_mxgo_func(m.fail)(mx.nd.ones((2,)), 0)",
    "a pending call of a function made from Python": "import time, tvm_ffi\n"
                                                      "f = tb.to_mxgo_func(tvm_ffi.convert(lambda t: time.sleep(0.3)))\n"
                                                      "f(mx.nd.ones((2,))); f(mx.nd.ones((2,)))",
    "a call waiting on a flag nobody sets": "tb.to_mxgo_func(m.wait_flag, [0])(torch.zeros(1, dtype=torch.int64), "
                                            "torch.zeros(3, dtype=torch.int64), 1.0)",
}


@pytest.mark.parametrize("name", sorted(EXIT_SCENARIOS))
def test_interpreter_exit_with_pending_calls(name):
    status, out, err = run_script(EXIT_PRELUDE + EXIT_SCENARIOS[name], timeout=120)
    assert status is not None, "the interpreter hung at exit\n" + err[-4000:]
    assert status == 0, "exit status %s\n%s" % (status, err[-4000:])
    for bad in ("Fatal Python error", "Segmentation fault", "panic:", "Traceback"):
        assert bad not in err, err[-4000:]


def test_global_function_is_accepted_as_a_function():
    # Any tvm_ffi.Function, mxgo's own global functions included, bridges.
    f = tvm_bridge.to_mxgo_func(tvm_ffi.get_global_func("mxgo.nd.add"), const_loc=[0, 1])
    a, b, c = mx.nd.ones((3,)), mx.nd.full((3,), 2.0), mx.nd.zeros((3,))
    f(a, b, c)
    assert c.asnumpy().tolist() == [3.0, 3.0, 3.0]


@pytest.mark.parametrize("call, exc, match", [
    (lambda k: tvm_bridge.to_mxgo_func(print), MXNetTypeError, "tvm_ffi.Function"),
    (lambda k: tvm_bridge.to_mxgo_func(k["inc"], const_loc=0), MXNetTypeError, "const_loc"),
    (lambda k: tvm_bridge.to_mxgo_func(k["inc"], const_loc="0"), MXNetTypeError, "const_loc"),
    (lambda k: tvm_bridge.to_mxgo_func(k["inc"], const_loc=[1.0]), MXNetTypeError, "const_loc"),
    (lambda k: tvm_bridge.to_mxgo_func(k["inc"], const_loc=[True]), MXNetTypeError, "const_loc"),
    (lambda k: tvm_bridge.to_mxgo_func(k["inc"], const_loc=[-1]), MXNetValueError, "const_loc"),
    (lambda k: bridged(k, "axpb", [2])(mx.nd.ones(2), mx.nd.ones(2)), MXNetValueError, "out of range"),
    (lambda k: bridged(k, "axpb", [2])(mx.nd.ones(2), mx.nd.ones(2), 1.0), MXNetTypeError, "const_loc"),
    (lambda k: bridged(k, "inc")("x"), MXNetTypeError, "argument 0"),
    (lambda k: bridged(k, "inc")(None), MXNetTypeError, "argument 0"),
    (lambda k: bridged(k, "inc")([1.0, 2.0]), MXNetTypeError, "argument 0"),
    (lambda k: bridged(k, "kinds")(mx.nd.zeros(6, dtype="int64"), 2 ** 70, 1, 1), MXNetValueError, "int64"),
])
def test_bad_calls_raise_at_call_time(k, call, exc, match):
    with pytest.raises(exc, match=match):
        call(k)


def test_read_only_arrays_cannot_be_written(k):
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        bridged(k, "inc")(ro)
    bridged(k, "axpb", [0])(ro, mx.nd.zeros(4), 1.0, 0.0)  # read is fine
    mx.nd.waitall()
