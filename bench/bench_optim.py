#!/usr/bin/env python3
"""One optimizer step, mxgo against torch.optim (foreach=True, 2 threads) in one run.

For n = 1e6 and 1e7 float32 parameters (one tensor), times an Adam step and an SGD step
with momentum: mxgo's fused update operators (mx.nd.adam_update, mx.nd.sgd_mom_update,
writing the weight and the states in place, waited for), the same through mx.optimizer's
Updater (the Python a Trainer adds), and torch.optim.Adam / SGD on one parameter.
Reported: time per step, bandwidth (bytes of weight, gradient and states read and
written / time) and the ratio to PyTorch (> 1: slower).

Writes a Markdown table to bench/results/optim.md.

    python bench/bench_optim.py [--min-time 0.2]
"""
import argparse
import sys

import numpy as np
import torch

import mxgo as mx
from bench_ops import best_times, fmt_time, write_report


def steps(n, rng):
    """(name, mxgo fused call, mxgo Updater call, torch step, bytes moved) per optimizer."""
    w0, g0 = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32) * 1e-3
    cases = []
    for name, mx_opt, torch_opt, states, fused in [
            ("Adam", mx.optimizer.Adam(learning_rate=1e-4), lambda p: torch.optim.Adam([p], lr=1e-4, foreach=True), 2,
             lambda w, g, s: mx.nd.adam_update(w, g, s[0], s[1], out=w, lr=1e-4)),
            ("SGD momentum 0.9", mx.optimizer.SGD(learning_rate=1e-4, momentum=0.9),
             lambda p: torch.optim.SGD([p], lr=1e-4, momentum=0.9, foreach=True), 1,
             lambda w, g, s: mx.nd.sgd_mom_update(w, g, s[0], out=w, lr=1e-4, momentum=0.9))]:
        w, g = mx.nd.array(w0), mx.nd.array(g0)
        s = [mx.nd.zeros((n,)) for _ in range(states)]
        w2 = mx.nd.array(w0)
        updater = mx.optimizer.get_updater(mx_opt)
        p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
        p.grad = torch.from_numpy(g0.copy())
        opt = torch_opt(p)
        cases.append((name, lambda w=w, g=g, s=s, f=fused: f(w, g, s).wait_to_read(),
                      lambda u=updater, w=w2, g=g: (u(0, g, w), w.wait_to_read()), opt.step, (3 + 2 * states) * 4 * n))
    return cases


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-time", type=float, default=0.2)
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    rng = np.random.default_rng(0)
    rows = ["| step | n | mxgo fused | mxgo Updater | PyTorch | mxgo GB/s | PyTorch GB/s | fused / PyTorch | "
            "Updater / PyTorch |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in (10 ** 6, 10 ** 7):
        for name, fused, updater, torch_step, moved in steps(n, rng):
            t = best_times({"fused": fused, "updater": updater, "torch": torch_step}, args.min_time)
            rows.append("| %s | %.0e | %s | %s | %s | %.1f | %.1f | %.2f | %.2f |" % (
                name, n, fmt_time(t["fused"]), fmt_time(t["updater"]), fmt_time(t["torch"]), moved / t["fused"] / 1e9,
                moved / t["torch"] / 1e9, t["fused"] / t["torch"], t["updater"] / t["torch"]))
            print(rows[-1], flush=True)
    write_report("optim.md", "One optimizer step on one float32 tensor: mxgo against torch.optim (foreach=True, "
                 "%d threads)" % torch.get_num_threads(), rows)


if __name__ == "__main__":
    sys.exit(main())
