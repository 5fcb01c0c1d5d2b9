#!/usr/bin/env python3
"""MXNet's sorting, softmax and norm-like reductions in mxgo against NumPy (PyTorch for
softmax, which NumPy lacks).

Each operator runs on float32 data of about n elements (1e7 unless --n says otherwise):
sort, argsort and topk along one long row and along 1000-element rows; softmax along
the last axis of (n/1000, 1000); norm and nansum of the whole array. mxgo writes into a
preallocated ``out=`` and every call is timed together with waiting for its result.
Reported: time per call, bandwidth (bytes read and written / time) and the ratio to the
reference (> 1: slower).

Writes a Markdown table to bench/results/sort.md.

    python bench/bench_sort.py [--n 1e7] [--min-time 0.2]
"""
import sys

import numpy as np
import torch

import mxgo as mx
from bench_shape import run


def cases(n, rng):
    """(name, mxgo call, reference call, bytes moved) for each operator."""
    a = rng.standard_normal(n, dtype=np.float32)
    rows = a.reshape(-1, 1000)
    x, xr = mx.nd.array(a), mx.nd.array(rows)
    nan = a.copy()
    nan[::97] = np.nan
    xn = mx.nd.array(nan)
    t = torch.from_numpy(rows)
    nb = a.nbytes
    k = 10

    def entry(name, fn, ref, shape, moved, dtype="float32"):
        o = mx.nd.empty(shape, dtype=dtype)
        return name, (lambda: fn(o).wait_to_read()), ref, moved

    return [
        entry("sort (one row)", lambda o: mx.nd.sort(x, out=o), lambda: np.sort(a), (n,), 2 * nb),
        entry("sort (rows of 1000)", lambda o: mx.nd.sort(xr, out=o), lambda: np.sort(rows, axis=1), rows.shape, 2 * nb),
        entry("argsort int64 (one row)", lambda o: mx.nd.argsort(x, dtype="int64", out=o),
              lambda: np.argsort(a, kind="stable"), (n,), 3 * nb, "int64"),
        entry("argsort int64 (rows of 1000)", lambda o: mx.nd.argsort(xr, dtype="int64", out=o),
              lambda: np.argsort(rows, axis=1, kind="stable"), rows.shape, 3 * nb, "int64"),
        entry("topk k=10 indices (one row) vs argpartition", lambda o: mx.nd.topk(x, k=k, dtype="int64", out=o),
              lambda: np.argpartition(a, -k)[-k:], (k,), nb, "int64"),
        entry("topk k=10 values (rows of 1000) vs partition", lambda o: mx.nd.topk(xr, k=k, ret_typ="value", out=o),
              lambda: np.partition(rows, -k, axis=1)[:, -k:], (rows.shape[0], k), nb),
        entry("softmax (rows of 1000) vs torch", lambda o: mx.nd.softmax(xr, out=o), lambda: torch.softmax(t, 1),
              rows.shape, 2 * nb),
        entry("log_softmax (rows of 1000) vs torch", lambda o: mx.nd.log_softmax(xr, out=o),
              lambda: torch.log_softmax(t, 1), rows.shape, 2 * nb),
        entry("norm (L2, all)", lambda o: mx.nd.norm(x, out=o), lambda: np.linalg.norm(a), (1,), nb),
        entry("norm (L2, rows of 1000)", lambda o: mx.nd.norm(xr, axis=1, out=o), lambda: np.linalg.norm(rows, axis=1),
              (rows.shape[0],), nb),
        entry("nansum (all)", lambda o: mx.nd.nansum(xn, out=o), lambda: np.nansum(nan), (1,), nb),
        entry("nansum (rows of 1000)", lambda o: mx.nd.nansum(xn.reshape(rows.shape), axis=1, out=o),
              lambda: np.nansum(nan.reshape(rows.shape), axis=1), (rows.shape[0],), nb),
        entry("cumsum (one row)", lambda o: mx.nd.cumsum(x, out=o), lambda: np.cumsum(a), (n,), 2 * nb),
    ]


def main(argv=None):
    run(cases, "Sorting, softmax and norm-like reductions", "sort.md", 1e7, argv)


if __name__ == "__main__":
    sys.exit(main())
