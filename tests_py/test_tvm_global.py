"""mxgo's operators as TVM-FFI global functions ("mxgo.nd.<name>"), called through tvm_ffi
on PyTorch and NumPy memory with no mxgo Python in the path, and from a C program."""
import os
import subprocess
import sys
import sysconfig
import threading

import numpy as np
import pytest
import torch
import tvm_ffi

import mxgo as mx
from mxgo import tvm_bridge
from mxgo.ndarray.op import OPS

from interop_helpers import live_counts
from tvm_kernels import BUILD

HERE = os.path.dirname(os.path.abspath(__file__))


def g(name):
    return tvm_ffi.get_global_func("mxgo.nd." + name)


def test_every_operator_is_registered():
    names = set(tvm_ffi.registry.list_global_func_names())
    assert all("mxgo.nd." + name in names for name in OPS)
    assert tvm_bridge.register_global_functions() == len(OPS)  # again: replaces them
    assert tvm_bridge.register_global_functions("mxgo.test.") == len(OPS)
    assert tvm_ffi.get_global_func("mxgo.test.add") is not None


def test_add_into_torch_memory():
    a, b = torch.arange(6, dtype=torch.float32).reshape(2, 3), torch.full((2, 3), 0.5)
    c = torch.empty(2, 3)
    ptr = c.data_ptr()
    assert g("add")(a, b, c) is None
    assert c.data_ptr() == ptr
    np.testing.assert_array_equal(c.numpy(), a.numpy() + 0.5)


def test_add_into_numpy_memory_with_broadcasting():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = np.arange(4, dtype=np.float64)
    out = np.zeros((3, 4))
    g("add")(a, b, out)
    np.testing.assert_array_equal(out, a + b)


def test_in_place_on_an_input():
    a = torch.ones(5)
    g("add")(a, a, a)
    assert a.tolist() == [2.0] * 5


def test_strided_views():
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    a = base[:, ::2]  # non-contiguous
    out = torch.zeros(3, 4).t()
    g("multiply")(a, a, out)
    np.testing.assert_array_equal(out.numpy(), (a * a).numpy())


def test_result_is_a_new_tensor():
    gc_baseline = live_counts()
    a = torch.arange(6, dtype=torch.int64)
    r = g("add")(a, a)  # out omitted
    r2 = g("add")(a, a, None)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.int64 and r.shape == (6,)
    assert r.tolist() == r2.tolist() == [0, 2, 4, 6, 8, 10]
    assert live_counts()[2] == gc_baseline[2] + 2  # each result holds one mxgo export
    del r, r2
    assert live_counts() == gc_baseline  # its deleter ran, exactly once


def test_result_from_numpy_inputs():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = g("sum")(x)
    got = np.from_dlpack(r)
    assert got.dtype == np.float32 and float(got.reshape(-1)[0]) == 15.0


@pytest.mark.parametrize("args, expect", [
    (((1,),), lambda x: x.sum(axis=1)),
    ((1,), lambda x: x.sum(axis=1)),
    ((None,), lambda x: np.array([x.sum()])),
    (((0, 1), True), lambda x: x.sum(axis=(0, 1), keepdims=True)),
    ((tvm_ffi.Shape((0,)), False), lambda x: x.sum(axis=0)),
])
def test_parameters_positionally(args, expect):
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    r = np.from_dlpack(g("sum")(x, None, *args))
    np.testing.assert_array_equal(r.reshape(expect(x).shape), expect(x))


def test_float_str_and_dtype_parameters():
    x = torch.tensor([-2.0, 0.5, 3.0])
    assert g("clip")(x, None, -1, 1.0).tolist() == [-1.0, 0.5, 1.0]
    r = g("Cast")(x, None, "int32")
    assert r.dtype == torch.int32 and r.tolist() == [-2, 0, 3]
    idx = g("topk")(torch.tensor([3.0, 1.0, 2.0]), None, 0, 2, "indices", False, "int64")
    assert idx.dtype == torch.int64 and idx.tolist() == [0, 2]


def test_optional_inputs_and_defaults():
    data, weight = torch.ones(2, 3), torch.ones(4, 3)
    bias = torch.arange(4, dtype=torch.float32)
    with_bias = g("FullyConnected")(data, weight, bias, None, 4)
    assert with_bias.tolist() == [[3.0, 4.0, 5.0, 6.0]] * 2
    no_bias = g("FullyConnected")(data, weight, None, None, 4, True)
    assert no_bias.tolist() == [[3.0] * 4] * 2


def test_variadic_operators_take_a_list():
    arrays = [torch.full((3,), float(i)) for i in range(4)]
    assert g("add_n")(arrays).tolist() == [6.0] * 3
    out = np.zeros((2, 3), np.float32)
    g("concat")([np.ones((1, 3), np.float32), np.zeros((1, 3), np.float32)], out, 0)
    assert out.tolist() == [[1.0] * 3, [0.0] * 3]


def test_mxgo_arrays_as_arguments():
    a = mx.nd.ones((3,)) * 2  # pending: tvm_ffi's import waits for it
    r = g("add")(a, a)
    assert np.from_dlpack(r).tolist() == [4.0] * 3


def test_concurrent_callers():
    errors = []

    def work(i):
        try:
            a = torch.full((1000,), float(i))
            out = torch.empty(1000)
            for _ in range(200):
                g("add")(a, a, out)
                assert out[0].item() == 2 * i
        except BaseException as e:  # noqa: B902 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("call, exc, match", [
    (lambda: g("add")(torch.ones(3), torch.ones(4)), ValueError, "broadcast"),
    (lambda: g("add")(torch.ones(3), torch.ones(3, dtype=torch.float64)), TypeError, "dtype"),
    (lambda: g("add")(torch.ones(3), torch.ones(3), torch.empty(4)), ValueError, "out has shape"),
    (lambda: g("add")(torch.ones(3)), TypeError, "takes 2 input"),
    (lambda: g("add")(*[torch.ones(3, dtype=torch.float8_e4m3fn)] * 2), BufferError, "unsupported DLPack type"),
    (lambda: g("add")(torch.ones(3), 1.0), TypeError, "input rhs must be a tensor"),
    (lambda: g("add")(torch.ones(3), torch.ones(3), 5), TypeError, "out must be a tensor or None"),
    (lambda: g("add")(torch.ones(3), torch.ones(3), None, 1), TypeError, "takes 0 parameter"),
    (lambda: g("sum")(torch.ones(3), None, "x"), TypeError, "parameter axis"),
    (lambda: g("sum")(torch.ones(3), None, 5), IndexError, "axis 5 is out of bounds"),
    (lambda: g("sum")(torch.ones(3), None, None, 2), ValueError, "bool parameter"),
    (lambda: g("clip")(torch.ones(3)), TypeError, "missing required parameter"),
    (lambda: g("clip")(torch.ones(3), None, "a", 1.0), TypeError, "float parameter cannot be str"),
    (lambda: g("Cast")(torch.ones(3), None, "float33"), ValueError, "float33"),
    (lambda: g("Cast")(torch.ones(3), None, "float32;x=1"), ValueError, "invalid value"),
    (lambda: g("topk")(torch.ones(3), None, -1, 1, "both"), TypeError, "returns 2 arrays"),  # one tensor per call
    (lambda: g("topk")(torch.ones(3), None, -1, 1, "all"), ValueError, "not one of"),
    (lambda: g("add_n")(torch.ones(3)), TypeError, "one Array"),
    (lambda: g("add_n")([torch.ones(3), 1]), TypeError, "not a tensor"),
    (lambda: g("FullyConnected")(torch.ones(2, 3), torch.ones(4, 3), None, None, 4), ValueError, "expects 3 inputs"),
    (lambda: g("add")(torch.ones(3), torch.ones(3), torch.ones(3, dtype=torch.float64)), TypeError, "out has dtype"),
])
def test_errors_raise_the_matching_python_exception(call, exc, match):
    baseline = live_counts()
    with pytest.raises(exc, match=match):
        call()
    mx.nd.waitall()  # nothing was left for mxgo to raise later
    assert live_counts() == baseline


def _ran_during(call):
    """Whether another Python thread ran while ``call()`` ran on this one. With a switch
    interval far beyond the test, only a voluntary release of the GIL lets the waiting
    thread in: it then sees ``inside`` set; otherwise it runs only at join(), after."""
    ev, inside, seen = threading.Event(), [False], []
    th = threading.Thread(target=lambda: (ev.wait(), seen.append(inside[0])))
    th.start()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1000)
    try:
        ev.set()
        inside[0] = True
        call()
        inside[0] = False
    finally:
        sys.setswitchinterval(old)
    th.join()
    return seen[0]


def test_operators_run_without_the_gil():
    # tvm_ffi releases the GIL around calls unless a Function's release_gil is False (or
    # TVM_FFI_RELEASE_GIL_BY_DEFAULT=0); then mxgo's global functions let go of it
    # themselves while the operator computes. A compiled function is the control. The add
    # runs 20 times: one takes a few milliseconds on both cores, and the waiting thread,
    # woken when the GIL is let go, may not get a core that soon (between the calls this
    # thread holds the GIL, so it can only run during one).
    from tvm_kernels import module
    n = 1 << 22
    a, b, c = torch.ones(n), torch.ones(n), torch.empty(n)
    add = g("add")
    add.release_gil = False
    assert _ran_during(lambda: [add(a, b, c) for _ in range(20)])
    assert c[-1].item() == 2.0
    spin, flag = module().spin, torch.zeros(1, dtype=torch.int64)
    spin.release_gil = False
    assert not _ran_during(lambda: spin(flag, 50.0))
    spin.release_gil = True
    assert _ran_during(lambda: spin(flag, 50.0))


def test_a_kernel_error_is_raised_to_the_caller_only():
    # potrf fails in its kernel, on the engine: the caller gets it; mxgo's own waitall,
    # which raises every engine error once, does not raise it again later.
    out = torch.zeros(3, 3, dtype=torch.float64)
    with pytest.raises(ValueError, match="not symmetric positive definite"):
        g("linalg_potrf")(-torch.eye(3, dtype=torch.float64), out)
    mx.nd.waitall()


def test_a_c_program_calls_the_global_functions_from_a_pthread():
    # Embeds CPython only to import mxgo.tvm_bridge; then a pthread without the GIL calls
    # TVMFFIFunctionGetGlobal and TVMFFIFunctionCall on DLTensor* over malloc'd memory.
    exe = os.path.join(BUILD, "c_program", "global_prog")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    libdir = sysconfig.get_config_var("LIBDIR")
    subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-I" + sysconfig.get_config_var("INCLUDEPY"),
                    os.path.join(HERE, "tvm_global_prog.c"), "-o", exe, "-L" + libdir, "-Wl,-rpath," + libdir,
                    "-lpython" + sysconfig.get_config_var("LDVERSION"), "-ldl", "-lpthread"], check=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # this interpreter's packages
    proc = subprocess.run([exe], capture_output=True, timeout=120, env=env, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip() == "ok"


def test_a_forked_child_is_refused_not_hung():
    # Go's runtime does not survive fork (pkg/proc): the global functions and the bridge
    # raise there instead of entering it.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        report = []
        for call in (lambda: g("add")(torch.ones(2), torch.ones(2)),
                     lambda: tvm_bridge.to_mxgo_func(g("add"), [0, 1])(torch.ones(2), torch.ones(2), torch.ones(2))):
            try:
                call()
                report.append("no error")
            except BaseException as e:  # noqa: B036 - reported to the parent
                report.append("%s: %s" % (type(e).__name__, e))
        os.write(w, "\n".join(report).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        report = f.read().splitlines()
    os.waitpid(pid, 0)
    assert report[0].startswith("RuntimeError: mxgo cannot run in a forked child"), report
    assert report[1].startswith("MXNetError: mxgo cannot run in a forked child"), report
