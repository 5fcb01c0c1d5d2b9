#!/usr/bin/env python3
"""Operator throughput: mxgo against NumPy and PyTorch, side by side in one run.

For add, broadcast add (x of shape (n/1000, 1000) + a row of 1000), exp and sum on float32
arrays of n = 1e3 ... 1e7 elements (and 1e8 unless --quick or --max-size says otherwise),
and for dot of n x n float32 matrices (1024 x 1024 and a sweep), each framework computes
into a preallocated output (``out=``), so that the numbers are the kernels' and not the
allocator's. Every mxgo call is timed together with waiting for its result
(``out.wait_to_read()`` in the timed region): mxgo's operations are asynchronous.

Reported per call: time, bandwidth in GB/s (bytes read + written / time; for dot, GFLOP/s
= 2 n^3 / time) and the time ratio to NumPy (> 1: slower than NumPy). The machine's copy
bandwidth (``np.copyto`` of a large array, bytes read + written) is the ceiling for the
memory-bound operations. The cost of dispatching a small operation from Python is
measured on 10-element arrays: mxgo's ``x + y`` and waiting for the result, against
``np.add`` and ``torch.add``.

Writes a Markdown report (bench/results/ops.md) and a plot (bench/results/ops.png).

    python bench/bench_ops.py [--quick] [--max-size 1e8] [--min-time 0.2] [--budget 540]
"""
import argparse
import gc
import math
import os
import platform
import sys
import time
import timeit

import numpy as np
import torch

import mxgo as mx
from mxgo.ndarray.op import OPS
from machine import cpu_name

HERE = os.path.dirname(os.path.abspath(__file__))
F32 = 4  # bytes per element
FRAMEWORKS = ("mxgo", "NumPy", "PyTorch")


# ---- timing ------------------------------------------------------------------------------

SLICES = 5
SETTLE = 0.15  # seconds of sleep before each turn of the tables that call OpenBLAS (best_times)


def best_times(fns, min_time, repeat=3, max_calls=10_000, slices=SLICES, settle=0.0):
    """Best per-call time in seconds of each callable in ``fns`` (name -> callable): after a
    warm-up call, ``repeat`` rounds in which every callable in turn runs enough calls to
    last ``min_time``, timed in ``slices`` parts, the fastest part counting. Interleaving
    the frameworks spreads any background noise over all; the parts keep one framework's
    turn from paying for the previous one's threads, which spin on after their last call
    (OpenBLAS's for about 2^28 cycles, a tenth of a second) and take a core from it. Where a
    turn is shorter than that spinning (a matrix product of 256), parts do not reach past
    it: ``settle`` seconds of sleep before each turn let the spinning threads go idle."""
    numbers = {}
    for name, fn in fns.items():
        fn()  # warm-up (first-touch page faults, thread pools, lazy initialisation)
        t0 = time.perf_counter()
        fn()
        one = max(time.perf_counter() - t0, 1e-9)
        numbers[name] = max(1, min(max_calls, int(min_time / one)))
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            time.sleep(settle)
            parts = min(slices, numbers[name])
            number = numbers[name] // parts
            for _ in range(parts):
                t0 = time.perf_counter()
                for _ in range(number):
                    fn()
                best[name] = min(best[name], (time.perf_counter() - t0) / number)
    return best


def best_time(fn, min_time, repeat=3):
    return best_times({"fn": fn}, min_time, repeat)["fn"]


def machine_info():
    cpu = cpu_name()
    return ("Python %s, NumPy %s, PyTorch %s (%d threads), mxgo %s; %s, %d logical CPUs; %s"
            % (platform.python_version(), np.__version__, torch.__version__, torch.get_num_threads(),
               getattr(mx, "__version__", "?"), cpu, os.cpu_count() or 0, platform.platform()))


TIMING = ("Timing (best_times): the frameworks take turns; each turn's calls are timed in %d parts "
          "and the fastest part counts, so a turn does not pay for the previous framework's threads "
          "still spinning on the other core." % SLICES)
SETTLED = (" Each turn starts after %.2g s of sleep, so that OpenBLAS's threads, which spin for about "
           "a tenth of a second after its last call, are idle." % SETTLE)


def write_report(name, title, rows, settled=False):
    """Writes bench/results/<name>: the title, the machine, how it was timed (settled: with
    SETTLE before each turn), and the table rows."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    os.makedirs(folder, exist_ok=True)
    timing = TIMING + (SETTLED if settled else "")
    with open(os.path.join(folder, name), "w") as f:
        f.write("# %s\n\n%s\n\n%s\n\n%s\n" % (title, machine_info(), timing, "\n".join(rows)))


def load_average():
    try:
        return "%.2f" % os.getloadavg()[0]
    except OSError:
        return "?"


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


# ---- the operations -----------------------------------------------------------------------

def have(name):
    return name in OPS


def make_case(op, n, rng):
    """(bytes moved per call, {framework: callable or None}) for op on n elements."""
    if op == "broadcast add":
        rows = max(1, n // 1000)
        shape, other = (rows, 1000), (1000,)
        n = rows * 1000
    else:
        shape, other = (n,), (n,)
    a = rng.uniform(-1, 1, size=shape).astype(np.float32)
    b = rng.uniform(-1, 1, size=other).astype(np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    xa, xb = mx.nd.array(a), mx.nd.array(b)
    if op in ("add", "broadcast add"):
        o_np, o_t, o_mx = np.empty(shape, np.float32), torch.empty(shape), mx.nd.empty(shape)
        nbytes = (a.size + b.size + a.size) * F32
        fns = {"NumPy": lambda: np.add(a, b, out=o_np),
               "PyTorch": lambda: torch.add(ta, tb, out=o_t),
               "mxgo": (lambda: (mx.nd.add(xa, xb, out=o_mx), o_mx.wait_to_read())) if have("add") else None}
    elif op == "exp":
        o_np, o_t, o_mx = np.empty(shape, np.float32), torch.empty(shape), mx.nd.empty(shape)
        nbytes = 2 * a.size * F32
        fns = {"NumPy": lambda: np.exp(a, out=o_np),
               "PyTorch": lambda: torch.exp(ta, out=o_t),
               "mxgo": (lambda: (mx.nd.exp(xa, out=o_mx), o_mx.wait_to_read())) if have("exp") else None}
    elif op == "sum":
        # mx.nd.sum of everything has shape (1,), as MXNet 1.x's
        o_np, o_t, o_mx = np.empty((), np.float32), torch.empty(()), mx.nd.empty((1,))
        nbytes = (a.size + 1) * F32
        fns = {"NumPy": lambda: np.sum(a, out=o_np),
               "PyTorch": lambda: torch.sum(ta, dim=0, out=o_t),
               "mxgo": (lambda: (mx.nd.sum(xa, out=o_mx), o_mx.wait_to_read())) if have("sum") else None}
    else:
        raise ValueError(op)
    return n, nbytes, fns


def make_dot(n, rng):
    a = rng.uniform(-1, 1, size=(n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, size=(n, n)).astype(np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    xa, xb = mx.nd.array(a), mx.nd.array(b)
    o_np, o_t, o_mx = np.empty((n, n), np.float32), torch.empty((n, n)), mx.nd.empty((n, n))
    fns = {"NumPy": lambda: np.dot(a, b, out=o_np),
           "PyTorch": lambda: torch.mm(ta, tb, out=o_t),
           "mxgo": (lambda: (mx.nd.dot(xa, xb, out=o_mx), o_mx.wait_to_read())) if have("dot") else None}
    return 2.0 * n ** 3, fns


def copy_bandwidth(nbytes=100_000_000, min_time=0.2):
    """The machine's memory copy bandwidth (bytes read + written per second): np.copyto of
    `nbytes`, and mxgo's own copy of the same array for comparison."""
    n = nbytes // F32
    src = np.ones(n, np.float32)
    dst = np.empty_like(src)
    t_np = best_time(lambda: np.copyto(dst, src), min_time)
    xs, xd = mx.nd.array(src), mx.nd.empty((n,))
    t_mx = best_time(lambda: (xs.copyto(xd), xd.wait_to_read()), min_time)
    return 2 * nbytes / t_np / 1e9, 2 * nbytes / t_mx / 1e9


def dispatch_costs(number=20_000, repeat=5):
    """Microseconds per call of a small operation, dispatched from Python."""
    x, y = mx.nd.ones((10,)), mx.nd.ones((10,))
    o = mx.nd.empty((10,))
    a, b = np.ones(10, np.float32), np.ones(10, np.float32)
    t, u = torch.ones(10), torch.ones(10)
    g = {"mx": mx, "np": np, "torch": torch, "x": x, "y": y, "o": o, "a": a, "b": b, "t": t, "u": u}
    rows = [
        ("mxgo", "(x + y).wait_to_read()", "allocate the result, wait for it"),
        ("mxgo", "mx.nd.add(x, y, out=o); o.wait_to_read()", "into an existing array, wait"),
        ("mxgo", "x + y", "dispatch only (the engine runs it later)"),
        ("NumPy", "np.add(a, b)", "allocate the result"),
        ("NumPy", "np.add(a, b, out=a)", "into an existing array"),
        ("PyTorch", "torch.add(t, u)", "allocate the result"),
        ("PyTorch", "torch.add(t, u, out=t)", "into an existing array"),
    ]
    out = []
    for fw, stmt, what in rows:
        timer = timeit.Timer(stmt, globals=g)
        us = min(timer.repeat(repeat=repeat, number=number)) / number * 1e6
        out.append((fw, stmt, what, us))
        mx.nd.waitall()
    return out


# ---- report ---------------------------------------------------------------------------------

def fmt_time(s):
    if s is None:
        return "—"
    if s < 1e-3:
        return "%.1f µs" % (s * 1e6)
    if s < 1:
        return "%.2f ms" % (s * 1e3)
    return "%.2f s" % s


def fmt_num(v, digits=1):
    return "—" if v is None else ("%.*f" % (digits, v))


def fmt_ratio(v):
    return "—" if v is None else "%.2f" % v


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def sizes_label(n):
    e = math.log10(n)
    return "1e%d" % round(e) if abs(e - round(e)) < 1e-9 else "%d" % n


def plot(results, dots, copy_gbs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ops = sorted({r["op"] for r in results}, key=["add", "broadcast add", "exp", "sum"].index)
    fig, grid = plt.subplots(2, 3, figsize=(14, 8.5))
    axes = list(grid.flat)
    for extra in axes[len(ops) + 1:]:
        extra.axis("off")
    colors = {"mxgo": "tab:red", "NumPy": "tab:blue", "PyTorch": "tab:orange"}
    for ax, op in zip(axes, ops):
        for fw in FRAMEWORKS:
            pts = [(r["n"], r["gbs"][fw]) for r in results if r["op"] == op and r["gbs"].get(fw)]
            if pts:
                ax.plot(*zip(*pts), marker="o", label=fw, color=colors[fw])
        ax.axhline(copy_gbs, ls="--", color="gray", label="copy bandwidth")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title("%s (float32)" % op)
        ax.set_xlabel("elements")
        ax.set_ylabel("GB/s (read + written)")
        ax.grid(True, which="both", alpha=0.3)
    ax = axes[len(ops)]
    for fw in FRAMEWORKS:
        pts = [(d["n"], d["gflops"][fw]) for d in dots if d["gflops"].get(fw)]
        if pts:
            ax.plot(*zip(*pts), marker="o", label=fw, color=colors[fw])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title("dot n x n (float32)")
    ax.set_xlabel("n")
    ax.set_ylabel("GFLOP/s")
    ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="sizes up to 1e6, dot up to 1024, shorter timings")
    ap.add_argument("--max-size", type=float, default=None, help="largest n (default 1e8, --quick 1e6)")
    ap.add_argument("--min-time", type=float, default=None, help="seconds per timing run (default 0.2, --quick 0.05)")
    ap.add_argument("--budget", type=float, default=540, help="seconds; larger sizes are skipped once spent")
    ap.add_argument("--repeat", type=int, default=5, help="timing rounds; the best counts (2 for the largest sizes)")
    ap.add_argument("--dot-cap", type=float, default=15, help="skip dot sizes expected to take longer per call (s)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "ops.md"))
    ap.add_argument("--plot", default=None, help="PNG path (default: next to --out, ops.png)")
    args = ap.parse_args(argv)
    max_size = args.max_size or (1e6 if args.quick else 1e8)
    min_time = args.min_time or (0.05 if args.quick else 0.2)
    plot_path = args.plot or os.path.join(os.path.dirname(os.path.abspath(args.out)), "ops.png")
    start = time.perf_counter()
    load_start = load_average()
    rng = np.random.default_rng(0)

    def spent():
        return time.perf_counter() - start

    header = ["# Operator throughput: mxgo, NumPy and PyTorch", "", machine_info(), ""]
    print("\n".join(header), flush=True)
    copy_gbs, mx_copy_gbs = copy_bandwidth(min_time=min_time)
    print("copy bandwidth: NumPy %.1f GB/s, mxgo %.1f GB/s" % (copy_gbs, mx_copy_gbs), flush=True)

    sizes = [n for n in (10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7, 10 ** 8) if n <= max_size]
    results, skipped = [], []
    for n in sizes:
        need = 3 * n * F32 * 2.5  # inputs and outputs of three frameworks at once, with slack
        avail = mem_available()
        if avail is not None and need > avail:
            skipped.append("n = %s: needs about %.1f GB, %.1f GB available" % (sizes_label(n), need / 1e9, avail / 1e9))
            continue
        if n >= 10 ** 8 and spent() > args.budget / 2:
            skipped.append("n = %s: over the time budget" % sizes_label(n))
            continue
        for op in ("add", "broadcast add", "exp", "sum"):
            n_eff, nbytes, fns = make_case(op, n, rng)
            row = {"op": op, "n": n_eff, "t": {}, "gbs": {}}
            times = best_times({fw: fn for fw, fn in fns.items() if fn is not None}, min_time,
                               repeat=args.repeat if n < 10 ** 8 else 2)
            for fw, t in times.items():
                row["t"][fw], row["gbs"][fw] = t, nbytes / t / 1e9
            results.append(row)
            print("%-14s n=%-6s %s" % (op, sizes_label(n), "  ".join(
                "%s %s (%.1f GB/s)" % (fw, fmt_time(row["t"].get(fw)), row["gbs"].get(fw, 0)) if fw in row["t"]
                else "%s not available" % fw for fw in FRAMEWORKS)), flush=True)
            del fns
            gc.collect()

    dot_sizes = [n for n in (32, 100, 316, 1024, 2048, 3162) if not args.quick or n <= 1024]
    dots = []
    for n in dot_sizes:
        if spent() > args.budget:
            skipped.append("dot n = %d: over the time budget" % n)
            continue
        if dots:  # the slowest framework's time grows as n^3
            prev = dots[-1]
            est = max(prev["t"].values()) * (n / prev["n"]) ** 3
            if est > args.dot_cap:
                skipped.append("dot n = %d: about %.0f s per call expected, over --dot-cap" % (n, est))
                continue
        flops, fns = make_dot(n, rng)
        row = {"n": n, "t": {}, "gflops": {}}
        times = best_times({fw: fn for fw, fn in fns.items() if fn is not None}, min_time,
                           repeat=args.repeat if n <= 1024 else 2, settle=SETTLE)
        for fw, t in times.items():
            row["t"][fw], row["gflops"][fw] = t, flops / t / 1e9
        dots.append(row)
        print("dot n=%-5d %s" % (n, "  ".join("%s %s (%.1f GFLOP/s)" % (fw, fmt_time(row["t"][fw]), row["gflops"][fw])
                                             if fw in row["t"] else "%s not available" % fw for fw in FRAMEWORKS)),
              flush=True)
        del fns
        gc.collect()

    dispatch = dispatch_costs(number=5_000 if args.quick else 20_000)
    for fw, stmt, _, us in dispatch:
        print("dispatch %-8s %-45s %.2f µs" % (fw, stmt, us), flush=True)

    # ---- Markdown
    lines = header + [
        "float32; each framework computes into a preallocated output (`out=`); mxgo's time includes "
        "waiting for the result. Best of %d rounds (2 for n = 1e8 and dot n > 1024), the frameworks taking turns, "
        "each of enough calls to last %.2g s. GB/s = bytes read + "
        "written per second; ratio = time / NumPy's time (below 1: faster than NumPy)." % (args.repeat, min_time),
        "", TIMING + " The dot rows' turns start after %.2g s of sleep (OpenBLAS's threads spin for about "
        "a tenth of a second after its last call)." % SETTLE, "",
        "Copy bandwidth (the ceiling for memory-bound operations; `np.copyto` of 100 MB, read + written): "
        "**%.1f GB/s** (mxgo's `copyto` of the same: %.1f GB/s)." % (copy_gbs, mx_copy_gbs),
        "",
        "| op | n | mxgo | NumPy | PyTorch | mxgo GB/s | NumPy GB/s | PyTorch GB/s | mxgo / NumPy | PyTorch / NumPy |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        t_np = r["t"].get("NumPy")
        ratio = lambda fw, r=r, t_np=t_np: r["t"][fw] / t_np if fw in r["t"] and t_np else None  # noqa: E731
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["op"], sizes_label(r["n"]) if r["op"] != "broadcast add" else "%s (%d×1000)" % (sizes_label(r["n"]), r["n"] // 1000),
            fmt_time(r["t"].get("mxgo")) if "mxgo" in r["t"] else "not available",
            fmt_time(r["t"].get("NumPy")), fmt_time(r["t"].get("PyTorch")),
            fmt_num(r["gbs"].get("mxgo")), fmt_num(r["gbs"].get("NumPy")), fmt_num(r["gbs"].get("PyTorch")),
            fmt_ratio(ratio("mxgo")), fmt_ratio(ratio("PyTorch"))))
    lines += ["", "Matrix product of two n × n float32 matrices (`mx.nd.dot`, `np.dot`, `torch.mm`); GFLOP/s = 2n³ / time.", "",
              "| n | mxgo | NumPy | PyTorch | mxgo GFLOP/s | NumPy GFLOP/s | PyTorch GFLOP/s | mxgo / NumPy | PyTorch / NumPy |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for d in dots:
        t_np = d["t"].get("NumPy")
        ratio = lambda fw, d=d, t_np=t_np: d["t"][fw] / t_np if fw in d["t"] and t_np else None  # noqa: E731
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            d["n"], fmt_time(d["t"]["mxgo"]) if "mxgo" in d["t"] else "not available",
            fmt_time(d["t"].get("NumPy")), fmt_time(d["t"].get("PyTorch")),
            fmt_num(d["gflops"].get("mxgo")), fmt_num(d["gflops"].get("NumPy")), fmt_num(d["gflops"].get("PyTorch")),
            fmt_ratio(ratio("mxgo")), fmt_ratio(ratio("PyTorch"))))
    lines += ["", "Dispatching a small operation from Python (10-element float32 arrays; µs per call):", "",
              "| framework | statement | what | µs |", "|---|---|---|---:|"]
    for fw, stmt, what, us in dispatch:
        lines.append("| %s | `%s` | %s | %.2f |" % (fw, stmt, what, us))
    lines += ["", "Summary (time ratio to NumPy; geometric mean over the sizes, and at the largest size):", ""]
    for op in ("add", "broadcast add", "exp", "sum"):
        rows = [r for r in results if r["op"] == op and "NumPy" in r["t"]]
        parts = []
        for fw in ("mxgo", "PyTorch"):
            ratios = [r["t"][fw] / r["t"]["NumPy"] for r in rows if fw in r["t"]]
            if ratios:
                parts.append("%s %.2f× (n = %s: %.2f×)" % (fw, geomean(ratios), sizes_label(rows[-1]["n"]), ratios[-1]))
            else:
                parts.append("%s not available" % fw)
        lines.append("- %s: %s" % (op, "; ".join(parts)))
    parts = []
    for fw in ("mxgo", "PyTorch"):
        ratios = [d["t"][fw] / d["t"]["NumPy"] for d in dots if fw in d["t"] and "NumPy" in d["t"]]
        parts.append("%s %.2f× (n = %d: %.2f×)" % (fw, geomean(ratios), dots[-1]["n"], ratios[-1]) if ratios
                     else "%s not available" % fw)
    lines.append("- dot: %s" % "; ".join(parts))
    by = {stmt: us for _, stmt, _, us in dispatch}
    lines.append("- dispatch with the wait, `(x + y).wait_to_read()`: %.2f µs, %.0f× `np.add(a, b)` and %.0f× "
                 "`torch.add(t, u)`; dispatch alone (`x + y`): %.2f µs."
                 % (by["(x + y).wait_to_read()"], by["(x + y).wait_to_read()"] / by["np.add(a, b)"],
                    by["(x + y).wait_to_read()"] / by["torch.add(t, u)"], by["x + y"]))
    if skipped:
        lines += ["", "Skipped: " + "; ".join(skipped) + "."]
    lines += ["", "Total benchmark time %.0f s; 1-minute load average %s at the start, %s at the end "
              "(other work on the machine makes the numbers noisy). Plot: `%s`."
              % (spent(), load_start, load_average(), os.path.basename(plot_path))]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    plot(results, dots, copy_gbs, plot_path)
    print("\nwritten to %s and %s (%.0f s)" % (os.path.relpath(args.out), os.path.relpath(plot_path), spent()),
          file=sys.stderr)


if __name__ == "__main__":
    main()
