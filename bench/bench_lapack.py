#!/usr/bin/env python3
"""MXNet's linalg operators in mxgo (mx.nd.linalg) against NumPy's equivalents.

gemm (linalg.gemm2), potrf (np.linalg.cholesky), inverse (np.linalg.inv), det and
syevd (np.linalg.eigh) on one n x n matrix (256 unless --n says otherwise) and on a batch
of 64 x 64 matrices (--batch, 64 by default), in float32 and float64, into a
preallocated ``out=`` where the operator has one; every mxgo call is timed together with
waiting for its result. Reported: time per call and the ratio to NumPy (> 1: slower).
mxgo's LAPACK is gonum's, in float64 (float32 inputs are widened), over AVX2 kernels for
its BLAS (gemm, syrk, symv, ger) and with its own QL eigensolver for syevd; NumPy's
is OpenBLAS. Then the operators that only move data (extractdiag, extracttrian,
maketrian) on 4e6 float32 elements, against NumPy's indexing.

Writes a Markdown table to bench/results/lapack.md.

    python bench/bench_lapack.py [--n 256] [--batch 64] [--min-time 0.2] [--only REGEX]

--only keeps the rows whose "operator shape dtype" matches REGEX (re.search), e.g.
--only 'syevd|gemm2 64'; the report is written only for a full run.
"""
import argparse
import os
import re
import sys

import numpy as np

import mxgo as mx
from bench_ops import SETTLE, best_times, fmt_time, write_report

HERE = os.path.dirname(os.path.abspath(__file__))


def cases(shape, dtype, rng):
    """(name, mxgo call, NumPy call) for each operator on matrices of shape."""
    x = rng.standard_normal(shape)
    a = (x @ np.swapaxes(x, -1, -2) / shape[-1] + np.eye(shape[-1])).astype(dtype)  # positive definite
    m = mx.nd.array(a, dtype=dtype)
    o = mx.nd.empty(shape, dtype=dtype)
    return [
        ("gemm2", lambda: mx.nd.linalg.gemm2(m, m, out=o).wait_to_read(), lambda: np.matmul(a, a)),
        ("potrf", lambda: mx.nd.linalg.potrf(m, out=o).wait_to_read(), lambda: np.linalg.cholesky(a)),
        ("inverse", lambda: mx.nd.linalg.inverse(m, out=o).wait_to_read(), lambda: np.linalg.inv(a)),
        ("det", lambda: mx.nd.linalg.det(m).wait_to_read(), lambda: np.linalg.det(a)),
        ("syevd", lambda: mx.nd.linalg.syevd(m)[1].wait_to_read(), lambda: np.linalg.eigh(a)),
    ]


def streaming_cases(rng):
    """(name, shape, mxgo call, NumPy call) for the operators that only move data, on 4e6 float32."""
    a = rng.standard_normal((1000, 64, 64), dtype=np.float32)
    m = mx.nd.array(a)
    rows, cols = np.tril_indices(64)
    v = a[:, rows, cols]
    mv = mx.nd.array(v)
    return [
        ("extractdiag", "1000x64x64", lambda: mx.nd.linalg.extractdiag(m).wait_to_read(),
         lambda: np.diagonal(a, 0, 1, 2).copy()),
        ("extracttrian", "1000x64x64", lambda: mx.nd.linalg.extracttrian(m).wait_to_read(), lambda: a[:, rows, cols]),
        ("maketrian", "1000x2080", lambda: mx.nd.linalg.maketrian(mv).wait_to_read(),
         lambda: np.zeros_like(a).__setitem__((slice(None), rows, cols), v)),
    ]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--min-time", type=float, default=0.2)
    p.add_argument("--only", default=None, help="regex on 'operator shape dtype': run only the matching rows")
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)

    def wanted(name, shape, dtype):
        return args.only is None or re.search(args.only, "%s %s %s" % (name, shape, dtype)) is not None

    rows = ["| operator | shape | dtype | mxgo | NumPy | mxgo / NumPy |", "|---|---|---|---:|---:|---:|"]
    for shape in [(args.n, args.n), (args.batch, 64, 64)]:
        for dtype in ("float32", "float64"):
            for name, fn, npfn in cases(shape, dtype, rng):
                if not wanted(name, "x".join(map(str, shape)), dtype):
                    continue
                t = best_times({"mxgo": fn, "NumPy": npfn}, args.min_time, settle=SETTLE)
                rows.append("| %s | %s | %s | %s | %s | %.2f |" % (
                    name, "x".join(map(str, shape)), dtype, fmt_time(t["mxgo"]), fmt_time(t["NumPy"]),
                    t["mxgo"] / t["NumPy"]))
                print(rows[-1], flush=True)
    for name, shape, fn, npfn in streaming_cases(rng):
        if not wanted(name, shape, "float32"):
            continue
        t = best_times({"mxgo": fn, "NumPy": npfn}, args.min_time, settle=SETTLE)
        rows.append("| %s | %s | float32 | %s | %s | %.2f |" % (
            name, shape, fmt_time(t["mxgo"]), fmt_time(t["NumPy"]), t["mxgo"] / t["NumPy"]))
        print(rows[-1], flush=True)
    if args.only is None:
        write_report("lapack.md", "Linear-algebra operators", rows, settled=True)


if __name__ == "__main__":
    sys.exit(main())
