"""Round trips between mxgo, NumPy and PyTorch, repeated until a leak would show.

Each path makes one exchange per iteration and drops everything it made. :func:`soak`
runs a path ``n`` times after a warm-up and reports resident memory and mxgo's live
handles, storages and exports before and after; test_churn.py runs every path in
``make test``, and ``make soak`` runs this file for a million round trips per path and
writes bench/results/soak.md.
"""
import argparse
import ctypes
import gc
import os
import resource
import time

import numpy as np
import torch
import torch.utils.dlpack as tdl

import mxgo as mx
from dlpack_producer import CountingProducer
from interop_helpers import live_counts

_PAGE = resource.getpagesize()


def rss():
    """Resident memory of this process, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


_libc = ctypes.CDLL(None)
_libc.mallinfo2.restype = _MallInfo2


def malloc_in_use():
    """Bytes malloc has handed out and not had back (glibc's mallinfo2): mxgo's C blocks,
    capsules and storages live here, unlike Python's small objects and Go's heap, so a C
    leak shows without RSS's noise."""
    m = _libc.mallinfo2()
    return m.uordblks + m.hblkhd


def _paths():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = mx.nd.array(np.arange(12).reshape(3, 4), dtype="float32")
    b = np.arange(12.0)
    y, z = mx.nd.zeros((3, 4)), mx.nd.zeros((3, 4))
    return {
        # into mxgo
        "numpy -> mx (from_numpy)": lambda: mx.nd.from_numpy(a),
        "numpy -> mx (object)": lambda: mx.nd.from_dlpack(a),
        "numpy -> mx (capsule)": lambda: mx.nd.from_dlpack(a.__dlpack__()),
        "torch -> mx (object)": lambda: mx.nd.from_dlpack(t),
        "torch -> mx (capsule)": lambda: mx.nd.from_dlpack(tdl.to_dlpack(t)),
        "torch view -> mx": lambda: mx.nd.from_dlpack(t[:, 1::2]),
        # out of mxgo
        "mx -> numpy (object)": lambda: np.from_dlpack(x),
        "mx -> torch (object)": lambda: torch.from_dlpack(x),
        "mx -> torch (read capsule)": lambda: tdl.from_dlpack(x.to_dlpack_for_read()),
        "mx -> torch (write capsule)": lambda: tdl.from_dlpack(x.to_dlpack_for_write()),
        "mx view -> torch": lambda: torch.from_dlpack(x[1:, ::2]),
        "mx capsule, never consumed": lambda: x.to_dlpack_for_read(),
        # both ways, and mxgo's own capsules back into mxgo
        "numpy -> mx -> torch": lambda: torch.from_dlpack(mx.nd.from_numpy(b)),
        "torch -> mx -> numpy": lambda: np.from_dlpack(mx.nd.from_dlpack(t)),
        "mx -> mx (own capsule)": lambda: mx.nd.from_dlpack(x.to_dlpack_for_read()),
        # calls that return nothing (gopy once leaked a C string on each)
        "wait_to_read, wait_to_write, waitall": lambda: (x.wait_to_read(), x.wait_to_write(), mx.nd.waitall()),
        "fill and copy": lambda: (y.__setitem__(slice(None), 2.0), y.copyto(z)),
    }


PATHS = sorted(_paths())


class Report:
    __slots__ = ("path", "n", "seconds", "rss_before", "rss_after", "malloc_before", "malloc_after",
                 "live_before", "live_after")


def soak(path, n, warmup=20_000):
    """Runs ``path`` n times after ``warmup`` runs; returns a Report."""
    fn = _paths()[path]
    for _ in range(warmup):
        fn()
    mx.nd.waitall()
    gc.collect()
    r = Report()
    r.path, r.n = path, n
    r.rss_before, r.malloc_before, r.live_before = rss(), malloc_in_use(), live_counts()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    r.seconds = time.perf_counter() - start
    mx.nd.waitall()
    gc.collect()
    r.rss_after, r.malloc_after, r.live_after = rss(), malloc_in_use(), live_counts()
    return r


def counting_producer(n):
    """Imports n capsules of a counting producer and drops them: (deleter calls per tensor
    as a set, calls for tensors it never made)."""
    producer = CountingProducer()
    buf = np.arange(8.0)
    tags = []
    for _ in range(n):
        capsule, tag = producer.capsule(buf)
        mx.nd.from_dlpack(capsule)
        tags.append(tag)
    gc.collect()
    return {producer.deleter_calls(t) for t in tags}, producer.unknown_calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="round trips per path")
    ap.add_argument("--out", help="write a Markdown table here")
    args = ap.parse_args()
    gc.freeze()
    start_rss = rss()
    rows, worst, total = [], 0, 0
    for path in PATHS:
        r = soak(path, args.n)
        grow = r.rss_after - r.rss_before
        worst, total = max(worst, grow), total + r.n
        rows.append("| %s | %s | %.2f | %+.1f | %+.1f | %s | %s |" % (
            path, format(r.n, ","), r.seconds / r.n * 1e6, grow / 2 ** 10, (r.malloc_after - r.malloc_before) / 2 ** 10,
            "%d/%d/%d" % r.live_before, "%d/%d/%d" % r.live_after))
        print(rows[-1], flush=True)
        assert r.live_after == r.live_before, path
    end_rss = rss()
    calls, unknown = counting_producer(min(args.n, 100_000))
    lines = [
        "# Churn: %s round trips per path" % format(args.n, ","), "",
        "mxgo %s, NumPy %s, PyTorch %s; `make soak` (tests_py/churn.py). Resident memory is read after a "
        "20,000-round-trip warm-up and after the run, each after `gc.collect()`; malloc = bytes in use by "
        "glibc's malloc (mallinfo2), where mxgo's C blocks live; live = mxgo's handles/storages/exports." % (
            mx.__version__, np.__version__, torch.__version__), "",
        "| path | round trips | µs each | RSS growth (KiB) | malloc growth (KiB) | live before | live after |",
        "|---|---:|---:|---:|---:|---|---|", *rows, "",
        "%s round trips in all. Largest RSS growth of a path: %.1f KiB; process RSS %.1f MiB after "
        "import, %.1f MiB after every path." % (format(total, ","), worst / 2 ** 10, start_rss / 2 ** 20,
                                                 end_rss / 2 ** 20),
        "Counting producer: %s capsules imported and dropped, deleter calls per tensor %s, calls for unknown "
        "tensors %d." % (format(min(args.n, 100_000), ","), sorted(calls), unknown), ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    assert calls == {1} and unknown == 0


if __name__ == "__main__":
    main()
