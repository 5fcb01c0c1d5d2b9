#!/usr/bin/env python3
"""mx.nd's elementwise operators and whole-array reductions against NumPy, to find the
kernels that are far slower than NumPy's.

Each row times one call as users write it (a fresh result; mxgo's together with
wait_to_read) on n elements (1e6 unless --n says otherwise) of float32 (float64 where the
name says so), and NumPy's equivalent on the same data. Comparisons give float in mx.nd
(MXNet's dtype) and bool in NumPy, as each library's users get. Reported: time per call,
the ratio mxgo / NumPy (> 1: slower) and, for the rows above --flag, a mark.

Writes a Markdown table to bench/results/elemwise.md.

    python bench/bench_elemwise.py [--n 1e6] [--min-time 0.05] [--only greater,sqrt]
"""
import argparse
import sys

import numpy as np

import mxgo as mx
from bench_ops import best_times, fmt_time, have, write_report

# (mx.nd name, NumPy function) of the binary operators; the broadcast_ forms share them.
BINARY = [
    ("equal", np.equal), ("not_equal", np.not_equal), ("greater", np.greater),
    ("greater_equal", np.greater_equal), ("lesser", np.less), ("lesser_equal", np.less_equal),
    ("maximum", np.maximum), ("minimum", np.minimum), ("add", np.add), ("subtract", np.subtract),
    ("multiply", np.multiply), ("divide", np.divide), ("power", np.power), ("modulo", np.mod),
    ("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor),
    ("broadcast_hypot", np.hypot),
]
BROADCAST = ["equal", "greater", "maximum", "minimum", "logical_and"]
# Python operator forms with a number: (label, mxgo, NumPy), both as f(array).
SCALAR = [
    ("x == 0.5", lambda x: x == 0.5), ("x != 0.5", lambda x: x != 0.5), ("x > 0.5", lambda x: x > 0.5),
    ("x >= 0.5", lambda x: x >= 0.5), ("x < 0.5", lambda x: x < 0.5), ("x <= 0.5", lambda x: x <= 0.5),
    ("x + 0.5", lambda x: x + 0.5), ("x * 0.5", lambda x: x * 0.5),
]
SCALAR_MX = [("maximum(x, 0.5)", lambda x: mx.nd.maximum(x, 0.5), lambda a: np.maximum(a, np.float32(0.5))),
             ("minimum(x, 0.5)", lambda x: mx.nd.minimum(x, 0.5), lambda a: np.minimum(a, np.float32(0.5)))]
# Unary operators: (mx.nd name, NumPy function, positive data).
UNARY = [
    ("sqrt", np.sqrt, True), ("rsqrt", lambda a: 1 / np.sqrt(a), True), ("cbrt", np.cbrt, False),
    ("exp", np.exp, False), ("expm1", np.expm1, False), ("log", np.log, True), ("log2", np.log2, True),
    ("log10", np.log10, True), ("log1p", np.log1p, True), ("sin", np.sin, False), ("cos", np.cos, False),
    ("tan", np.tan, False), ("tanh", np.tanh, False), ("sinh", np.sinh, False), ("cosh", np.cosh, False),
    ("arcsin", np.arcsin, False), ("arccos", np.arccos, False), ("arctan", np.arctan, False),
    ("arcsinh", np.arcsinh, False), ("arctanh", np.arctanh, False), ("abs", np.abs, False),
    ("sign", np.sign, False), ("negative", np.negative, False), ("square", np.square, False),
    ("reciprocal", np.reciprocal, True), ("floor", np.floor, False), ("ceil", np.ceil, False),
    ("round", np.round, False), ("rint", np.rint, False), ("trunc", np.trunc, False), ("fix", np.fix, False),
    ("relu", lambda a: np.maximum(a, 0), False), ("sigmoid", lambda a: 1 / (1 + np.exp(-a)), False),
    ("logical_not", np.logical_not, False), ("degrees", np.degrees, False), ("radians", np.radians, False),
]
REDUCE = ["sum", "max", "min", "prod", "mean", "argmax"]
FLOAT64 = {"greater", "maximum", "sqrt", "x.sum()", "x.max()", "x.min()", "x > 0.5"}


def mx_call(f, *args):
    """One mxgo call of f on args, waited for."""
    return lambda: f(*args).wait_to_read()


def np_call(f, *args):
    return lambda: f(*args)


def dtype_cases(dt, n, rng):
    """(label, mxgo call, NumPy call) for every row of dtype dt."""
    a, b = rng.uniform(-1, 1, n).astype(dt), rng.uniform(-1, 1, n).astype(dt)
    p = (np.abs(a) + 0.5).astype(dt)
    row = rng.uniform(-1, 1, (1, 1000)).astype(dt)
    x, y, xp, xr = (mx.nd.array(v, dtype=dt) for v in (a, b, p, row))
    x2, a2 = x.reshape((-1, 1000)), a.reshape(-1, 1000)
    tag = "" if dt == np.float32 else " (float64)"
    out = []
    for name, ref in BINARY:
        if have(name):
            lhs, npl = (xp, p) if name == "power" else (x, a)
            out.append((name, mx_call(getattr(mx.nd, name), lhs, y), np_call(ref, npl, b)))
    for name in BROADCAST:
        if have("broadcast_" + name):
            out.append(("broadcast_%s (n/1000, 1000) x (1, 1000)" % name, mx_call(getattr(mx.nd, "broadcast_" + name), x2, xr),
                        np_call(dict(BINARY)[name], a2, row)))
    out += [(label, mx_call(f, x), np_call(f, a)) for label, f in SCALAR]
    out += [(label, mx_call(f, x), np_call(ref, a)) for label, f, ref in SCALAR_MX]
    for name, ref, pos in UNARY:
        if have(name):
            out.append((name, mx_call(getattr(mx.nd, name), xp if pos else x), np_call(ref, p if pos else a)))
    out += [("x.%s()" % name, mx_call(getattr(x, name)), np_call(getattr(a, name))) for name in REDUCE]
    return [(label + tag, f, ref) for label, f, ref in out if dt == np.float32 or label in FLOAT64]


def cases(n, rng):
    return dtype_cases(np.float32, n, rng) + dtype_cases(np.float64, n, rng)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=float, default=1e6)
    p.add_argument("--min-time", type=float, default=0.05)
    p.add_argument("--flag", type=float, default=2.0, help="mark rows slower than this ratio")
    p.add_argument("--only", default="", help="comma-separated labels' first words")
    args = p.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    rows = ["| operator | mxgo | NumPy | mxgo / NumPy | |", "|---|---:|---:|---:|---|"]
    for label, fn, ref in cases(int(args.n), np.random.default_rng(0)):
        if only and label.split(" ")[0] not in only:
            continue
        t = best_times({"mxgo": fn, "ref": ref}, args.min_time)
        ratio = t["mxgo"] / t["ref"]
        rows.append("| %s | %s | %s | %.2f | %s |" % (label, fmt_time(t["mxgo"]), fmt_time(t["ref"]), ratio,
                                                     "slow" if ratio > args.flag else ""))
        print(rows[-1], flush=True)
    if not only:
        write_report("elemwise.md", "mx.nd elementwise operators and reductions against NumPy (n = %.0e)" % args.n,
                     rows)


if __name__ == "__main__":
    sys.exit(main())
