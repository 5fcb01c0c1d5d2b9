#!/usr/bin/env python3
"""MXNet's elementwise math operators in mxgo against NumPy (PyTorch where NumPy lacks the
function: erf, erfinv, lgamma; no reference for gamma, smooth_l1 and hard_sigmoid's
NumPy spelling is a clip of a product).

Each operator runs on float32 data of n elements (1e7 unless --n says otherwise) into a
preallocated ``out=`` on both sides; every mxgo call is timed together with waiting for
its result. Reported: time per call, and the ratio to the reference (> 1: slower).
mxgo spreads a call over the machine's cores; NumPy runs on one, PyTorch on all.

Writes a Markdown table to bench/results/math.md.

    python bench/bench_math.py [--n 1e7] [--min-time 0.2] [--only floor,tan]
"""
import argparse
import os
import sys

import numpy as np

import mxgo as mx
from bench_ops import best_times, fmt_time, write_report

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import torch
except ImportError:  # the rows that need it are skipped
    torch = None


def _rint_down(a, o):
    lo, hi = np.floor(a), np.ceil(a)
    return np.copyto(o, np.where(a - lo <= hi - a, lo, hi))


def cases(n, rng):
    """(name, mxgo call, reference call, reference name) for each operator."""
    unit = rng.uniform(-0.99, 0.99, n).astype(np.float32)
    wide = (rng.standard_normal(n) * 3).astype(np.float32)
    pos = np.abs(wide) + np.float32(0.5)
    data = {"unit": unit, "wide": wide, "pos": pos, "above1": pos + np.float32(1)}
    nd = {k: mx.nd.array(v) for k, v in data.items()}
    np_out, mx_out = np.empty(n, np.float32), mx.nd.empty((n,))
    t_out = torch.from_numpy(np_out) if torch is not None else None
    out = []

    def add(name, kind, npfn, ref="NumPy", fn=None):
        x, a = nd[kind], data[kind]
        call = fn or getattr(mx.nd, name)
        t = torch.from_numpy(a) if torch is not None else None
        if ref == "PyTorch":
            if torch is None:
                return
            out.append((name, lambda: call(x, out=mx_out).wait_to_read(), lambda: npfn(t, t_out), ref))
        else:
            out.append((name, lambda: call(x, out=mx_out).wait_to_read(), lambda: npfn(a, np_out), ref))

    for name, kind, f in [
        ("arccos", "unit", np.arccos), ("arcsin", "unit", np.arcsin), ("arctan", "wide", np.arctan),
        ("arccosh", "above1", np.arccosh), ("arcsinh", "wide", np.arcsinh), ("arctanh", "unit", np.arctanh),
        ("cosh", "wide", np.cosh), ("sinh", "wide", np.sinh), ("tan", "wide", np.tan), ("cbrt", "wide", np.cbrt),
        ("expm1", "wide", np.expm1), ("log1p", "pos", np.log1p), ("log2", "pos", np.log2), ("log10", "pos", np.log10),
        ("degrees", "wide", np.degrees), ("radians", "wide", np.radians), ("fix", "wide", np.trunc),
        ("trunc", "wide", np.trunc), ("round", "wide", np.round), ("ceil", "wide", np.ceil), ("floor", "wide", np.floor),
        ("reciprocal", "wide", np.reciprocal),
    ]:
        add(name, kind, lambda a, o, f=f: f(a, out=o))
    add("rint", "wide", _rint_down)  # (MXNet's rint rounds halves down: NumPy's rint is another function)
    add("rsqrt", "pos", lambda a, o: np.divide(1, np.sqrt(a, out=o), out=o))
    add("rcbrt", "wide", lambda a, o: np.divide(1, np.cbrt(a, out=o), out=o))
    add("softsign", "wide", lambda a, o: np.divide(a, np.add(np.abs(a, out=o), 1, out=o), out=o))
    add("logical_not", "wide", lambda a, o: np.copyto(o, np.logical_not(a)))
    add("hard_sigmoid", "wide", lambda a, o: np.clip(np.add(np.multiply(a, np.float32(0.2), out=o), np.float32(0.5), out=o),
                                                     0, 1, out=o))
    add("smooth_l1", "wide", lambda a, o: np.copyto(o, np.where(np.abs(a) < 1, 0.5 * a * a, np.abs(a) - 0.5)))
    add("erf", "wide", lambda t, o: torch.special.erf(t, out=o), "PyTorch")
    add("erfinv", "unit", lambda t, o: torch.special.erfinv(t, out=o), "PyTorch")
    add("gammaln", "pos", lambda t, o: torch.lgamma(t, out=o), "PyTorch")
    add("gamma", "pos", lambda t, o: torch.lgamma(t, out=o).exp_(), "PyTorch")
    # binary and variadic: two float32 operands of n elements
    y, b = nd["pos"], data["pos"]
    x, a = nd["wide"], data["wide"]
    for name, npfn in [("logical_and", lambda o: np.copyto(o, np.logical_and(a, b))),
                       ("broadcast_hypot", lambda o: np.hypot(a, b, out=o)),
                       ("elemwise_add", lambda o: np.add(a, b, out=o)),
                       ("add_n (3 arrays)", lambda o: np.add(np.add(a, b, out=o), a, out=o))]:
        call = mx.nd.add_n if name.startswith("add_n") else getattr(mx.nd, name)
        args = (x, y, x) if name.startswith("add_n") else (x, y)
        out.append((name, lambda c=call, s=args: c(*s, out=mx_out).wait_to_read(), lambda f=npfn: f(np_out), "NumPy"))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=float, default=1e7)
    p.add_argument("--min-time", type=float, default=0.2)
    p.add_argument("--only", default="", help="comma-separated operator names")
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)
    only = set(filter(None, args.only.split(",")))
    rows = ["| operator | mxgo | reference | time | mxgo / reference |", "|---|---:|---|---:|---:|"]
    for name, fn, ref, ref_name in cases(int(args.n), rng):
        if only and name.split(" ")[0] not in only:
            continue
        t = best_times({"mxgo": fn, "ref": ref}, args.min_time)
        rows.append("| %s | %s | %s | %s | %.2f |" % (name, fmt_time(t["mxgo"]), ref_name, fmt_time(t["ref"]),
                                                      t["mxgo"] / t["ref"]))
        print(rows[-1], flush=True)
    if not only:
        write_report("math.md", "Elementwise math operators (float32, n = %.0e)" % args.n, rows)


if __name__ == "__main__":
    sys.exit(main())
