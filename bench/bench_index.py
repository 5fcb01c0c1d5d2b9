#!/usr/bin/env python3
"""Advanced indexing and random sampling in mxgo against NumPy.

Indexing: gathers and assignments with integer arrays on float32 data of about n elements
(4e6 unless --n says otherwise); mxgo's calls wait for their result. Sampling: n draws
from each distribution into a preallocated ``out=`` (mxgo) and with NumPy's Generator
(which allocates). Reported as bench_shape.py does; writes bench/results/index.md.

    python bench/bench_index.py [--n 4e6] [--min-time 0.2]
"""
import sys

import numpy as np

import mxgo as mx
from bench_shape import run


def cases(n, rng):
    """(name, mxgo call, NumPy call, bytes moved) for each operation."""
    side = int(round(np.sqrt(n)))
    a = rng.standard_normal((side, side), dtype=np.float32)
    x = mx.nd.array(a)
    rows = rng.integers(0, side, side)
    cols = rng.integers(0, side, side)
    xr, xc = mx.nd.array(rows, dtype="int64"), mx.nd.array(cols, dtype="int64")
    nb = a.nbytes
    v = np.ones((side, side), np.float32)
    xv = mx.nd.array(v)
    out = mx.nd.empty((n,))
    gen = np.random.default_rng(1)

    def sample(fn):
        return lambda: fn(out).wait_to_read()

    return [
        ("x[rows] (NDArray of row indices)", lambda: x[xr].wait_to_read(), lambda: a[rows], 2 * nb),
        ("x[:, cols] (a list of columns)", lambda: x[:, cols.tolist()].wait_to_read(), lambda: a[:, cols], 2 * nb),
        ("x[rows, cols] (one element each)", lambda: x[xr, xc].wait_to_read(), lambda: a[rows, cols], 3 * side * 8),
        ("x[rows] = v", lambda: (x.__setitem__(xr, xv), x.wait_to_read()), lambda: a.__setitem__(rows, v), 2 * nb),
        ("random.uniform", sample(lambda o: mx.nd.random.uniform(out=o)), lambda: gen.random(n, np.float32), 4 * n),
        ("random.normal", sample(lambda o: mx.nd.random.normal(out=o)),
         lambda: gen.standard_normal(n, np.float32), 4 * n),
        ("random.exponential", sample(lambda o: mx.nd.random.exponential(out=o)),
         lambda: gen.standard_exponential(n, np.float32), 4 * n),
        ("random.gamma alpha=2.5", sample(lambda o: mx.nd.random.gamma(2.5, out=o)), lambda: gen.gamma(2.5, size=n), 4 * n),
        ("random.poisson lam=4", sample(lambda o: mx.nd.random.poisson(4.0, out=o)), lambda: gen.poisson(4.0, n), 4 * n),
        ("random.poisson lam=100", sample(lambda o: mx.nd.random.poisson(100.0, out=o)),
         lambda: gen.poisson(100.0, n), 4 * n),
        ("random.randint", lambda: mx.nd.random.randint(0, 1000, shape=(n,)).wait_to_read(),
         lambda: gen.integers(0, 1000, n, np.int32), 4 * n),
    ]


def main(argv=None):
    run(cases, "Advanced indexing and random sampling", "index.md", 4e6, argv)


if __name__ == "__main__":
    sys.exit(main())
