#!/usr/bin/env python3
"""mx.np against mx.nd (the same Go arrays under MXNet's NumPy interface) and NumPy.

Each row is one operation written the three ways, on float32 arrays of 10 elements (the
dispatch: what a call costs before the engine runs it; mxgo's results are waited for
after each timed batch, outside the time) and of 1e6 elements (the call and its wait);
the three take turns, best of 5 rounds.
The mx.np / mx.nd column is the issue's target (1.1 at most for dispatch, 1.0 for the
work); NumPy's column is there for scale. Writes bench/results/np.md.

    python bench/bench_np.py [--min-time 0.2]
"""
import argparse
import re
import timeit

import numpy as onp

import mxgo as mx
from bench_ops import write_report

#: (row, statement): x, y, i (int64 indices), a 2-D array m, in each namespace's variables
ROWS = [
    ("x + y", "x + y"),
    ("x + 1.0", "x + 1.0"),
    ("x > y", "x > y"),
    ("add(x, y)", "ns.add(x, y)"),
    ("sqrt(x)", "ns.sqrt(x)"),
    ("x.sum()", "x.sum()"),
    ("m.sum(axis=0)", "m.sum(axis=0)"),
    ("x.max()", "x.max()"),
    ("x[3]", "x[3]"),
    ("x[2:8]", "x[2:8]"),
    ("x[i]", "x[i]"),
    ("x.reshape(-1)", "x.reshape(-1)"),
]


def namespaces(n):
    """{column: (globals, wait)} for arrays of n elements."""
    a = onp.random.default_rng(0).standard_normal(n).astype(onp.float32) + 3
    idx = onp.arange(0, n, 3, dtype=onp.int64)
    m = a.reshape(-1, 10 if n % 10 == 0 else 1)
    out = {"NumPy": ({"ns": onp, "x": a, "y": a.copy(), "i": idx, "m": m}, lambda r: None)}
    for col, ns in (("mx.nd", mx.nd), ("mx.np", mx.np)):
        g = {"ns": ns, "x": ns.array(a), "y": ns.array(a), "i": ns.array(idx, dtype="int64"), "m": ns.array(m)}
        out[col] = (g, lambda r: r.wait_to_read() if hasattr(r, "wait_to_read") else None)
    return out


def timer(stmt, g, wait, waited):
    """A zero-argument call of stmt (and its result's wait when ``waited``)."""
    code = compile(stmt, "<row>", "eval")

    def once():
        r = eval(code, g)  # noqa: S307 (the rows above)
        if waited:
            wait(r)
    return once


def best_per_call(calls, min_time, rounds=5):
    """{column: best seconds per call}: each round times every column in turn (so a load
    that comes and goes weighs on all of them), each with enough calls to last about
    min_time / 5; mxgo's results are waited for between rounds."""
    numbers = {}
    for col, once in calls.items():
        n = 1
        while timeit.timeit(once, number=n) < min_time / 5:
            n *= 2
        numbers[col] = n
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(rounds):
        for col, once in calls.items():
            best[col] = min(best[col], timeit.timeit(once, number=numbers[col]) / numbers[col])
            mx.nd.waitall()
    return best


def table(n, waited, min_time, only=None):
    cols = namespaces(n)
    rows = ["| operation | mx.nd | mx.np | NumPy | mx.np / mx.nd | mx.np / NumPy |", "|---|---:|---:|---:|---:|---:|"]
    for name, stmt in ROWS:
        if only and not re.search(only, name):
            continue
        t = best_per_call({col: timer(stmt, g, wait, waited) for col, (g, wait) in cols.items()}, min_time)
        rows.append("| `%s` | %.2f µs | %.2f µs | %.2f µs | %.2f | %.2f |" % (
            name, t["mx.nd"] * 1e6, t["mx.np"] * 1e6, t["NumPy"] * 1e6, t["mx.np"] / t["mx.nd"], t["mx.np"] / t["NumPy"]))
        print(rows[-1], flush=True)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--min-time", type=float, default=0.2)
    p.add_argument("--rows", help="time only the rows whose operation matches this regular expression "
                   "(the report is then printed, not written)")
    args = p.parse_args()
    rows = ["Dispatch: 10 float32 elements, the call only (results waited for outside the time).", ""]
    rows += table(10, False, args.min_time, args.rows)
    rows += ["", "Work: 1e6 float32 elements, the call and its wait.", ""]
    rows += table(1_000_000, True, args.min_time, args.rows)
    if not args.rows:
        write_report("np.md", "mx.np against mx.nd and NumPy", rows)


if __name__ == "__main__":
    main()
