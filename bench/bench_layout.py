#!/usr/bin/env python3
"""MXNet's layout operators (pad, split, slice, gather_nd, scatter_nd, depth_to_space) in
mxgo against their NumPy equivalents.

Each operator runs on float32 data of about n elements (1e6 unless --n says otherwise)
into preallocated ``out=`` arrays (mxgo) and, where NumPy has one, ``out=`` there too;
every mxgo call is timed together with waiting for its result. Reported: time per call,
bandwidth (bytes of the result written plus bytes read, / time) and the ratio to NumPy
(> 1: slower than NumPy).

Writes a Markdown table to bench/results/layout.md.

    python bench/bench_layout.py [--n 1e6] [--min-time 0.2]
"""
import sys

import numpy as np

import mxgo as mx
from bench_shape import run


def cases(n, rng):
    """(name, mxgo call, NumPy call, bytes moved) for each operator."""
    side = int(round(np.sqrt(n / 4)))
    a = rng.standard_normal((2, 2, side, side), dtype=np.float32)  # NCHW, about n elements
    x = mx.nd.array(a)
    nb = a.nbytes
    pw = ((0, 0), (0, 0), (2, 2), (2, 2))
    padded = (2, 2, side + 4, side + 4)
    flat = a.reshape(-1, side)  # (rows, side): gather_nd picks rows
    xf = mx.nd.array(flat)
    rows = rng.integers(0, flat.shape[0], flat.shape[0])
    ridx = mx.nd.array(rows[None, :], dtype="int64")
    pairs = rng.integers(0, side, (2, n // 4))
    pidx = mx.nd.array(pairs, dtype="int64")
    m = a[0, 0]
    xm = mx.nd.array(m)
    vals = rng.standard_normal(n // 4, dtype=np.float32)
    xv = mx.nd.array(vals)
    perm = rng.permutation(flat.shape[0])
    pidx_rows = mx.nd.array(perm[None, :], dtype="int64")

    def entry(name, shape, fn, npfn, moved):
        mo, no = mx.nd.empty(shape), np.empty(shape, np.float32)
        return name, (lambda: fn(mo).wait_to_read()), (lambda: npfn(no)), moved

    def split_entry():
        mos = [mx.nd.empty((2, 2, side, side // 4)) for _ in range(4)]
        nos = [np.empty((2, 2, side, side // 4), np.float32) for _ in range(4)]
        sq = x[:, :, :, :4 * (side // 4)]

        def fn():
            for p in mx.nd.split(sq, num_outputs=4, axis=3, out=mos):
                p.wait_to_read()

        def npfn():
            for o, p in zip(nos, np.split(a[..., :4 * (side // 4)], 4, axis=3)):
                np.copyto(o, p)
        return "split 4 ways (last axis)", fn, npfn, 2 * nb

    out = [
        entry("pad constant", padded, lambda o: mx.nd.pad(x, "constant", sum(pw, ()), 1.0, out=o),
              lambda o: np.copyto(o, np.pad(a, pw, constant_values=1.0)), 2 * nb),
        entry("pad edge", padded, lambda o: mx.nd.pad(x, "edge", sum(pw, ()), out=o),
              lambda o: np.copyto(o, np.pad(a, pw, mode="edge")), 2 * nb),
        entry("pad reflect", padded, lambda o: mx.nd.pad(x, "reflect", sum(pw, ()), out=o),
              lambda o: np.copyto(o, np.pad(a, pw, mode="reflect")), 2 * nb),
        split_entry(),
        entry("slice (every other column, reversed)", (2, 2, side, side // 2),
              lambda o: mx.nd.slice(x, (None, None, None, -1), (None, None, None, None), (None, None, None, -2), out=o),
              lambda o: np.copyto(o, a[..., ::-2][..., :side // 2]), nb),
        entry("gather_nd rows", flat.shape, lambda o: mx.nd.gather_nd(xf, ridx, out=o),
              lambda o: np.take(flat, rows, axis=0, out=o), 2 * nb),
        entry("gather_nd elements (2-D index)", (n // 4,), lambda o: mx.nd.gather_nd(xm, pidx, out=o),
              lambda o: np.copyto(o, m[pairs[0], pairs[1]]), 3 * (n // 4) * 4),
        entry("scatter_nd rows (a permutation)", flat.shape, lambda o: mx.nd.scatter_nd(xf, pidx_rows, flat.shape, out=o),
              lambda o: (o.fill(0), o.__setitem__(perm, flat)), 2 * nb),
        entry("scatter_nd elements", (side, side), lambda o: mx.nd.scatter_nd(xv, pidx, (side, side), out=o),
              lambda o: (o.fill(0), o.__setitem__((pairs[0], pairs[1]), vals)), 3 * (n // 4) * 4),
        entry("depth_to_space 2 (of 4 channels)", (1, 1, 2 * side, 2 * side),
              lambda o: mx.nd.depth_to_space(x.reshape((1, 4, side, side)), 2, out=o),
              lambda o: np.copyto(o, a.reshape(1, 2, 2, 1, side, side).transpose(0, 3, 4, 1, 5, 2)
                                  .reshape(1, 1, 2 * side, 2 * side)), 2 * nb),
    ]
    return out


def main(argv=None):
    run(cases, "Layout operators", "layout.md", 1e6, argv)


if __name__ == "__main__":
    sys.exit(main())
