#!/usr/bin/env python3
"""MXNet's shape, creation and gather operators in mxgo against their NumPy equivalents.

Each operator runs on float32 data of about n elements (4e6 unless --n says otherwise)
into a preallocated ``out=`` (mxgo) and, where NumPy has one, ``out=`` there too (else
NumPy allocates, as ``np.tile`` and ``np.repeat`` must); every mxgo call is timed together
with waiting for its result. Reported: time per call, bandwidth (bytes of the result
written plus bytes read, / time) and the ratio to NumPy (> 1: slower than NumPy).

Writes a Markdown table to bench/results/shape.md.

    python bench/bench_shape.py [--n 4e6] [--min-time 0.2]
"""
import argparse
import os
import re
import sys

import numpy as np

import mxgo as mx
from bench_ops import best_times, fmt_time, write_report

HERE = os.path.dirname(os.path.abspath(__file__))


def cases(n, rng):
    """(name, mxgo call with out, NumPy call, bytes moved) for each operator."""
    side = int(round(np.sqrt(n)))
    a = rng.standard_normal((side, side), dtype=np.float32)
    x = mx.nd.array(a)
    col = rng.standard_normal((side, 1), dtype=np.float32)
    xc = mx.nd.array(col)
    idx = rng.integers(0, side, side).astype(np.float32)
    xi = mx.nd.array(idx)
    labels = rng.integers(0, 1000, n // 1000).astype(np.float32)
    xl = mx.nd.array(labels)
    nb = a.nbytes

    def out_like(shape):
        return mx.nd.empty(shape), np.empty(shape, np.float32)

    def entry(name, fn, npfn, shape, moved):
        mo, no = out_like(shape)
        return name, (lambda: fn(mo).wait_to_read()), (lambda: npfn(no)), moved

    half = side // 2
    return [
        entry("expand_dims", lambda o: mx.nd.expand_dims(x, axis=1, out=o),
              lambda o: np.copyto(o, np.expand_dims(a, 1)), (side, 1, side), 2 * nb),
        entry("flatten (of a transposed view)", lambda o: mx.nd.flatten(x.T, out=o),
              lambda o: np.copyto(o, a.T.reshape(side, -1)), (side, side), 2 * nb),
        entry("swapaxes", lambda o: mx.nd.swapaxes(x, 0, 1, out=o), lambda o: np.copyto(o, a.swapaxes(0, 1)),
              (side, side), 2 * nb),
        entry("flip axis=1", lambda o: mx.nd.flip(x, axis=1, out=o), lambda o: np.copyto(o, a[:, ::-1]),
              (side, side), 2 * nb),
        entry("tile (2, 2) of a quarter", lambda o: mx.nd.tile(x[:half, :half], reps=(2, 2), out=o),
              lambda o: np.tile(a[:half, :half], (2, 2)), (2 * half, 2 * half), nb + nb // 4),
        entry("repeat 4 along axis 1 of a quarter", lambda o: mx.nd.repeat(x[:, :side // 4], 4, axis=1, out=o),
              lambda o: np.repeat(a[:, :side // 4], 4, axis=1), (side, 4 * (side // 4)), nb + nb // 4),
        entry("repeat 4, flat, of a quarter", lambda o: mx.nd.repeat(x[:side // 4], 4, out=o),
              lambda o: np.repeat(a[:side // 4], 4), (4 * (side // 4) * side,), nb + nb // 4),
        entry("broadcast_to (column)", lambda o: mx.nd.broadcast_to(xc, shape=(side, side), out=o),
              lambda o: np.copyto(o, np.broadcast_to(col, (side, side))), (side, side), nb),
        entry("broadcast_axis (column)", lambda o: mx.nd.broadcast_axis(xc, axis=1, size=side, out=o),
              lambda o: np.copyto(o, np.broadcast_to(col, (side, side))), (side, side), nb),
        entry("zeros_like", lambda o: mx.nd.zeros_like(x, out=o), lambda o: np.copyto(o, 0), (side, side), nb),
        entry("linspace", lambda o: mx.nd.linspace(0, 1, side * side).copyto(o),
              lambda o: np.copyto(o, np.linspace(0, 1, side * side, dtype=np.float32)), (side * side,), nb),
        entry("eye", lambda o: mx.nd.eye(side).copyto(o), lambda o: np.copyto(o, np.eye(side, dtype=np.float32)),
              (side, side), nb),
        entry("diag (matrix from a vector)", lambda o: mx.nd.diag(x[0], out=o),
              lambda o: np.copyto(o, np.diag(a[0])), (side, side), nb),
        entry("slice_axis (half the columns)", lambda o: mx.nd.slice_axis(x, 1, 0, half, out=o),
              lambda o: np.copyto(o, a[:, :half]), (side, half), nb),
        entry("take rows", lambda o: mx.nd.take(x, xi, out=o),
              lambda o: np.take(a, idx.astype(np.int64), axis=0, out=o, mode="clip"), (side, side), 2 * nb),
        entry("take columns", lambda o: mx.nd.take(x, xi, axis=1, out=o),
              lambda o: np.take(a, idx.astype(np.int64), axis=1, out=o, mode="clip"), (side, side), 2 * nb),
        entry("pick (one per row)", lambda o: mx.nd.pick(x, xi, axis=1, out=o),
              lambda o: np.copyto(o, np.take_along_axis(a, idx.astype(np.int64)[:, None], 1)[:, 0]), (side,),
              3 * side * 4),
        entry("one_hot depth 1000", lambda o: mx.nd.one_hot(xl, 1000, out=o),
              lambda o: (np.copyto(o, 0), o.__setitem__((np.arange(len(labels)), labels.astype(np.int64)), 1)),
              (len(labels), 1000), len(labels) * 1000 * 4),
    ]


def run(cases_of, title, result_name, default_n, argv=None):
    """Times every case of cases_of(n, rng) (name, mxgo call, NumPy call, bytes moved),
    prints the table and writes it, under title, to bench/results/<result_name>.
    bench_layout.py runs its cases through it too."""
    p = argparse.ArgumentParser(description=title)
    p.add_argument("--n", type=float, default=default_n)
    p.add_argument("--min-time", type=float, default=0.2)
    p.add_argument("--rows", help="time only the rows whose name matches this regular expression "
                   "(the report is then printed, not written)")
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)
    rows = ["| operator | mxgo | NumPy | mxgo GB/s | NumPy GB/s | mxgo / NumPy |", "|---|---:|---:|---:|---:|---:|"]
    for name, fn, npfn, moved in cases_of(int(args.n), rng):
        if args.rows and not re.search(args.rows, name):
            continue
        t = best_times({"mxgo": fn, "NumPy": npfn}, args.min_time)
        rows.append("| %s | %s | %s | %.1f | %.1f | %.2f |" % (
            name, fmt_time(t["mxgo"]), fmt_time(t["NumPy"]), moved / t["mxgo"] / 1e9, moved / t["NumPy"] / 1e9,
            t["mxgo"] / t["NumPy"]))
        print(rows[-1], flush=True)
    if not args.rows:
        write_report(result_name, "%s (float32, n = %.0e)" % (title, args.n), rows)


def main(argv=None):
    run(cases, "Shape, creation and gather operators", "shape.md", 4e6, argv)


if __name__ == "__main__":
    sys.exit(main())
