#!/usr/bin/env python3
"""TVM-FFI and mxgo: the cost of running a tvm_ffi.Function on mxgo's engine, the speedup
of independent bridged calls, and mxgo's operators called as TVM-FFI global functions on
PyTorch tensors.

1. Bridge overhead: a tiny C++ kernel (load_inline; x += 1 on 16 floats) called directly
   as a tvm_ffi.Function on a torch tensor and on an NDArray, against the bridged call on
   the NDArray: pushed ``--number`` times then waited for once (throughput), and waited
   for after each call (latency).
2. Parallel speedup: ``--calls`` independent calls of a compute-bound kernel (a fixed
   number of multiply-adds, no sleeping or spinning on the clock) run directly one after
   another, against all pushed through the bridge then waited for.
3. ``tvm_ffi.get_global_func("mxgo.nd.add")(a, b, out)`` on torch tensors against
   ``torch.add(a, b, out=out)`` and ``mx.nd.add`` on NDArrays, small and large.

Best of ``--repeat`` runs, alternating between the rows of a table.

    python bench/bench_tvm.py [--number 20000] [--repeat 5] [--calls 8] [--out bench/results/tvm.md]
"""
import argparse
import os
import platform
import sys
import time
import timeit

import numpy as np
import torch
import tvm_ffi
import tvm_ffi.cpp

import mxgo as mx
from machine import cpu_name
from mxgo import tvm_bridge

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(HERE), "build", "tvm_inline", "bench")

SOURCE = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <cstdint>

using tvm::ffi::TensorView;

void inc(TensorView x) {
  float* p = static_cast<float*>(x.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) p[i] += 1;
}

// y[i] = x[i] iterated `rounds` times through v = v * 0.999 + 0.001: fixed CPU work.
void work(TensorView x, TensorView y, int64_t rounds) {
  const float* px = static_cast<const float*>(x.data_ptr());
  float* py = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) {
    float v = px[i];
    for (int64_t r = 0; r < rounds; ++r) v = v * 0.999f + 0.001f;
    py[i] = v;
  }
}
"""


def kernels():
    os.makedirs(BUILD, exist_ok=True)
    return tvm_ffi.cpp.load_inline("mxgo_bench_kernels", cpp_sources=SOURCE, functions=["inc", "work"],
                                   build_directory=BUILD)


def best_us(cases, number, repeat):
    """Best per-call microseconds of each (statement, globals), runs alternating."""
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for i, (stmt, g) in enumerate(cases):
            best[i] = min(best[i], timeit.Timer(stmt, globals=g).timeit(number=number) / number)
    return [b * 1e6 for b in best]


def overhead(mod, number, repeat):
    t = torch.zeros(16)
    x = mx.nd.zeros((16,))
    g = {"f": mod.inc, "b": tvm_bridge.to_mxgo_func(mod.inc), "t": t, "x": x, "mx": mx}
    rows = [
        ("direct, torch tensor", "f(t)", number),
        ("direct, NDArray", "f(x)", number),
        ("bridged, NDArray, pushed (per call; one wait per run)", "b(x)", number),
        ("bridged, NDArray, waited for each call", "b(x); x.wait_to_read()", number // 4),
    ]
    lines = ["## 1. Bridge overhead", "",
             "`inc` (x += 1 on 16 float32) called %d times per run (a quarter of that for the waited row), "
             "best of %d; microseconds per call." % (number, repeat), "",
             "| call | statement | µs |", "|---|---|---:|"]
    best = [float("inf")] * len(rows)
    for _ in range(repeat):
        for i, (_, stmt, n) in enumerate(rows):
            start = time.perf_counter()
            timeit.Timer(stmt, globals=g).timeit(number=n)
            mx.nd.waitall()  # the pushed row's work is part of its cost
            best[i] = min(best[i], (time.perf_counter() - start) / n)
    for (name, stmt, _), b in zip(rows, best):
        lines.append("| %s | `%s` | %.3f |" % (name, stmt, b * 1e6))
    want = float((rows[1][2] + rows[2][2] + rows[3][2]) * repeat)  # every row but the first writes x
    assert x.asnumpy().tolist() == [want] * 16, "the bridged calls lost or repeated work"
    return lines


def parallel(mod, calls, repeat):
    n, rounds = 1 << 14, 2000
    xs = [mx.nd.array(np.random.rand(n), dtype="float32") for _ in range(calls)]
    ys = [mx.nd.zeros((n,)) for _ in range(calls)]
    ts = [torch.from_dlpack(x.copy()) for x in xs]
    outs = [torch.zeros(n) for _ in range(calls)]
    b = tvm_bridge.to_mxgo_func(mod.work, const_loc=[0])

    def direct():
        for t, o in zip(ts, outs):
            mod.work(t, o, rounds)

    def bridged():
        for x, y in zip(xs, ys):
            b(x, y, rounds)
        mx.nd.waitall()

    best = {"direct": float("inf"), "bridged": float("inf")}
    for _ in range(repeat):
        for name, fn in (("direct", direct), ("bridged", bridged)):
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    for y, o in zip(ys, outs):
        np.testing.assert_allclose(y.asnumpy(), o.numpy(), rtol=1e-6)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return ["", "## 2. Parallel speedup", "",
            "%d independent calls of `work` (%d float32 x %d multiply-adds each), best of %d; %d cores available."
            % (calls, n, rounds, repeat, cores), "",
            "| run | ms | speedup |", "|---|---:|---:|",
            "| direct, one after another | %.1f | 1.00 |" % (best["direct"] * 1e3),
            "| bridged, pushed then `mx.nd.waitall()` | %.1f | %.2f |" % (best["bridged"] * 1e3,
                                                                     best["direct"] / best["bridged"])]


def global_add(number, repeat):
    lines = ["", "## 3. `mxgo.nd.add` as a TVM-FFI global function", "",
             "Best of %d runs; microseconds per call; ratio = global function / `torch.add`." % repeat, "",
             "| elements | `add(a, b, c)` (torch tensors) | `torch.add(a, b, out=c)` | `mx.nd.add(x, y, out=z)` "
             "| ratio |", "|---:|---:|---:|---:|---:|"]
    for size, n in ((16, number), (1 << 20, max(number // 200, 20))):
        g = {"add": tvm_ffi.get_global_func("mxgo.nd.add"), "torch": torch, "mx": mx,
             "a": torch.rand(size), "b": torch.rand(size), "c": torch.empty(size),
             "x": mx.nd.ones((size,)), "y": mx.nd.ones((size,)), "z": mx.nd.empty((size,))}
        us = best_us([("add(a, b, c)", g), ("torch.add(a, b, out=c)", g),
                      ("mx.nd.add(x, y, out=z); z.wait_to_read()", g)], n, repeat)
        lines.append("| %d | %.2f | %.2f | %.2f | %.2f |" % (size, us[0], us[1], us[2], us[0] / us[1]))
        g["add"](g["a"], g["b"], g["c"])
        assert torch.equal(g["c"], g["a"] + g["b"])
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best counts")
    parser.add_argument("--calls", type=int, default=8, help="independent calls for the speedup")
    parser.add_argument("--out", default=os.path.join(HERE, "results", "tvm.md"))
    args = parser.parse_args(argv)
    mod = kernels()
    lines = ["# TVM-FFI: the bridge and the global functions", "",
             "Python %s, PyTorch %s, tvm_ffi %s, mxgo %s; %s; %s" % (
                 platform.python_version(), torch.__version__, tvm_ffi.__version__, mx.__version__, cpu_name(),
                 platform.platform()), ""]
    for part in (overhead(mod, args.number, args.repeat), parallel(mod, args.calls, args.repeat),
                 global_add(args.number, args.repeat)):
        print("\n".join(part), flush=True)
        lines += part
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\nwritten to %s" % os.path.relpath(args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
