#!/usr/bin/env python3
"""Per-call cost of zero-copy exchange: mxgo's DLPack and from_numpy against PyTorch's and
NumPy's own equivalents, measured side by side in one process.

Each row times one operation on a small array (the cost is the per-call overhead, not data
movement: nothing is copied) with timeit, best of ``--repeat`` runs of ``--number`` calls,
and reports microseconds per call. Operations that consume their input (capsules, fresh
NumPy arrays for from_numpy) get a pre-made list of inputs, one per call, made outside the
timed loop. Results, including freeing them, count for both sides alike.

    python bench/bench_exchange.py [--number 100000] [--repeat 5] [--out bench/results/exchange.md]
"""
import argparse
import os
import platform
import sys
import timeit

import numpy as np
import torch
import torch.utils.dlpack as tdl
import tvm_ffi

import mxgo as mx
from machine import cpu_name

SHAPE = (4, 4)
HERE = os.path.dirname(os.path.abspath(__file__))
SMALL, LARGE = 1 << 8, 1 << 28  # float32 elements: 1 KiB and 1 GiB, for size independence


def namespace(shape):
    """The objects every statement sees. `x` is mxgo's array, `t` torch's, `a` NumPy's;
    `locked` is a NumPy array that mxgo's from_numpy has already locked."""
    locked = np.ones(shape, np.float32)
    x, t = mx.nd.ones(shape), torch.ones(shape)
    return {"mx": mx, "torch": torch, "tdl": tdl, "np": np, "tvm_ffi": tvm_ffi, "t": t, "a": np.ones(shape, np.float32),
            "x": x, "locked": locked, "_keep": mx.nd.from_numpy(locked), "shape": shape,
            "ta": torch.ones(shape), "tb": torch.ones(shape), "tc": torch.zeros(shape),
            "xa": mx.nd.ones(shape), "xb": mx.nd.ones(shape), "xc": mx.nd.zeros(shape),
            "xro": mx.nd.ReadOnlyDLPack(x), "tro": tdl.ReadOnlyTensorWrapper(t)}


NAMESPACE = namespace(SHAPE)


def _torch_capsule(ns):
    return tdl.to_dlpack(ns["t"])


def _fresh_array(ns):
    return np.ones(ns["shape"], np.float32)


#: (operation, mxgo statement, peer statement, input maker or None). With an input maker
#: the statement consumes `c`, one fresh input per call.
ROWS = [
    ("import a torch capsule", "mx.nd.from_dlpack(c)", "tdl.from_dlpack(c)", _torch_capsule),
    ("import a torch tensor (its C exchange API)", "mx.nd.from_dlpack(t)", "torch.from_dlpack(t)", None),
    ("import a NumPy array (`__dlpack__`)", "mx.nd.from_dlpack(a)", "torch.from_dlpack(a)", None),
    ("export a capsule", "x.to_dlpack_for_read()", "tdl.to_dlpack(t)", None),
    ("export + torch.utils.dlpack import", "tdl.from_dlpack(x.to_dlpack_for_read())",
     "tdl.from_dlpack(tdl.to_dlpack(t))", None),
    ("torch.from_dlpack of a foreign producer", "torch.from_dlpack(x)", "torch.from_dlpack(a)", None),
    ("np.from_dlpack of a producer", "np.from_dlpack(x)", "np.from_dlpack(a)", None),
    ("from_numpy, fresh array", "mx.nd.from_numpy(c)", "torch.from_numpy(c)", _fresh_array),
    ("from_numpy, same array again", "mx.nd.from_numpy(locked)", "torch.from_numpy(a)", None),
]


#: DLPack's C exchange API (issue 15): (operation, mxgo statement, peer statement, target
#: ratio or None). mxgo consumes torch's table; TVM-FFI consumes mxgo's and torch's.
EXCHANGE_API_ROWS = [
    ("import a torch tensor, vs NumPy", "mx.nd.from_dlpack(t)", "np.from_dlpack(t)", 0.3),
    ("import a torch tensor, vs torch", "mx.nd.from_dlpack(t)", "torch.from_dlpack(t)", None),
    ("operator on torch tensors, out=, vs on NDArrays", "mx.nd.add(ta, tb, out=tc)", "mx.nd.add(xa, xb, out=xc)", 1.5),
    ("operator on torch tensors, new result, vs on NDArrays", "mx.nd.add(ta, tb)", "mx.nd.add(xa, xb)", None),
    ("TVM-FFI imports an mxgo array, vs a torch tensor", "tvm_ffi.from_dlpack(x)", "tvm_ffi.from_dlpack(t)", None),
    ("TVM-FFI imports read-only, vs torch's wrapper", "tvm_ffi.from_dlpack(xro)", "tvm_ffi.from_dlpack(tro)", None),
]


def exchange_api(number, repeat):
    """EXCHANGE_API_ROWS, with the issue's targets checked."""
    lines = ["", "## DLPack C exchange API", "",
             "`__dlpack_c_exchange_api__` both ways (best of %d alternating runs of %d calls; ratio = mxgo / peer). "
             "`ta`, `tb`, `tc` are torch tensors and `xa`, `xb`, `xc` NDArrays of the same shape; `xro` is "
             "`mx.nd.ReadOnlyDLPack(x)`, `tro` `torch.utils.dlpack.ReadOnlyTensorWrapper(t)`." % (repeat, number), "",
             "| operation | mxgo | µs | peer | µs | ratio | target |", "|---|---|---:|---|---:|---:|---|"]
    print("\n".join(lines), flush=True)
    for op, mine, theirs, target in EXCHANGE_API_ROWS:
        us_mine, us_theirs = best_us([(mine, NAMESPACE), (theirs, NAMESPACE)], None, number, repeat)
        ratio = us_mine / us_theirs
        verdict = "" if target is None else "<= %.1f: %s" % (target, "met" if ratio <= target else "NOT met")
        lines.append("| %s | `%s` | %.3f | `%s` | %.3f | %.2f | %s |" % (op, mine, us_mine, theirs, us_theirs, ratio, verdict))
        print(lines[-1], flush=True)
    return lines


def verify():
    """Every timed mxgo path is the zero-copy one: results alias their sources."""
    addr = lambda arr: arr._data  # noqa: E731
    t, a, x, locked = (NAMESPACE[k] for k in ("t", "a", "x", "locked"))
    assert addr(mx.nd.from_dlpack(tdl.to_dlpack(t))) == t.data_ptr()
    assert addr(mx.nd.from_dlpack(t)) == t.data_ptr()
    assert addr(mx.nd.from_dlpack(a)) == a.ctypes.data
    assert tdl.from_dlpack(x.to_dlpack_for_read()).data_ptr() == addr(x)
    assert torch.from_dlpack(x).data_ptr() == addr(x)
    assert np.from_dlpack(x).ctypes.data == addr(x)
    calls = mx.base.fastpath.exchange_counts()
    assert tvm_ffi.from_dlpack(x).data_ptr() == addr(x)
    assert mx.base.fastpath.exchange_counts()["managed_tensor_from_py_object_no_sync"] == (
        calls["managed_tensor_from_py_object_no_sync"] + 1)  # TVM-FFI took mxgo's table
    ta, tb, tc = (NAMESPACE[k] for k in ("ta", "tb", "tc"))
    assert mx.nd.add(ta, tb, out=tc) is tc and (tc == 2).all()  # out comes back as given
    fresh = _fresh_array(NAMESPACE)
    shared = mx.nd.from_numpy(fresh)
    assert addr(shared) == fresh.ctypes.data and shared.writable and not fresh.flags.writeable
    again = mx.nd.from_numpy(locked)
    assert addr(again) == locked.ctypes.data and again.writable


def _run_once(stmt, make, number, ns):
    """Seconds per call of one run of ``stmt`` (``make`` gives each call a fresh `c`)."""
    g = dict(ns)
    if make is None:
        return timeit.Timer(stmt, globals=g).timeit(number=number) / number
    g["inputs"] = [make(ns) for _ in range(number)]
    return timeit.Timer("for c in inputs: " + stmt, globals=g).timeit(number=1) / number


def best_us(cases, make, number, repeat):
    """Best per-call time in microseconds of each (statement, namespace) in cases. The
    runs alternate between the cases, so that a slow spell of the machine (another
    process, a GC) hits them alike rather than one of them."""
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for i, (stmt, ns) in enumerate(cases):
            best[i] = min(best[i], _run_once(stmt, make, number, ns))
    return [b * 1e6 for b in best]


def size_independence(number, repeat):
    """The mxgo side of every row at 1 KiB and at 1 GiB: zero-copy exchange costs the same
    whatever the size (fresh 1 GiB inputs per call are left out: making them is the cost)."""
    small, large = namespace((SMALL,)), namespace((LARGE,))
    lines = ["", "## Size independence", "",
             "The mxgo statements above on float32 arrays of 1 KiB and of 1 GiB (best of %d alternating runs of %d calls); "
             "ratio = 1 GiB / 1 KiB." % (repeat, number), "",
             "| mxgo | 1 KiB µs | 1 GiB µs | ratio |", "|---|---:|---:|---:|"]
    print("\n".join(lines), flush=True)
    for _, mine, _, make in ROWS:
        if make is _fresh_array:
            continue
        us = best_us([(mine, small), (mine, large)], make, number, repeat)
        lines.append("| `%s` | %.3f | %.3f | %.2f |" % (mine, us[0], us[1], us[1] / us[0]))
        print(lines[-1], flush=True)
    return lines


def machine_info():
    cpu = cpu_name()
    return "Python %s, NumPy %s, PyTorch %s, mxgo %s; %s; %s" % (
        platform.python_version(), np.__version__, torch.__version__, getattr(mx, "__version__", "?"),
        cpu, platform.platform())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=100_000, help="calls per run")
    parser.add_argument("--repeat", type=int, default=7, help="runs; the best counts")
    parser.add_argument("--out", default=os.path.join(HERE, "results", "exchange.md"))
    args = parser.parse_args(argv)
    verify()
    lines = [
        "# Exchange cost per call",
        "",
        machine_info(),
        "",
        "Array of shape %s float32; best of %d runs of %d calls each, mxgo's and the peer's "
        "alternating; microseconds per call (lower is better); ratio = mxgo / peer." % (SHAPE, args.repeat, args.number),
        "",
        "| operation | mxgo | µs | peer | µs | ratio |",
        "|---|---|---:|---|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    for op, mine, theirs, make in ROWS:
        us_mine, us_theirs = best_us([(mine, NAMESPACE), (theirs, NAMESPACE)], make, args.number, args.repeat)
        row = "| %s | `%s` | %.3f | `%s` | %.3f | %.2f |" % (op, mine, us_mine, theirs, us_theirs,
                                                            us_mine / us_theirs)
        print(row, flush=True)
        lines.append(row)
    legend = ("\n`x` is an mxgo NDArray, `t` a torch tensor, `a` a NumPy array, `c` a fresh input "
              "per call (a capsule from `torch.utils.dlpack.to_dlpack(t)`, or a new NumPy array), "
              "`locked` a NumPy array an earlier `mx.nd.from_numpy` made read-only; "
              "`tdl` is `torch.utils.dlpack`.")
    print(legend)
    lines.append(legend)
    lines += exchange_api(args.number, args.repeat)
    lines += size_independence(args.number // 5, args.repeat)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\nwritten to %s" % os.path.relpath(args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
