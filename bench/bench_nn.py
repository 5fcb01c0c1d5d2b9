#!/usr/bin/env python3
"""MXNet's neural-network forward operators in mxgo against PyTorch's CPU kernels.

ResNet-50-sized layers, float32: FullyConnected 2048 -> 1000 on a batch of 64,
Convolution 3x3 256 -> 256 and 1x1 1024 -> 256 on 14x14 maps of a batch of 8, then
Pooling, BatchNorm, LayerNorm, Activation and Embedding on the same scale. PyTorch runs
with torch.set_num_threads set to mxgo's GOMAXPROCS (the machine's cores unless the
environment says otherwise). Every mxgo call writes into a preallocated out= and is timed
with waiting for its result; each side's best over alternating rounds is reported (the
machine is shared, so the best is the least disturbed), with the ratio mxgo / PyTorch
(> 1: slower than PyTorch).

Writes a Markdown table to bench/results/nn.md (not with --rows).

    python bench/bench_nn.py [--min-time 0.3] [--rows Pooling,LayerNorm]
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

import mxgo as mx
from bench_ops import best_times, fmt_time, write_report

HERE = os.path.dirname(os.path.abspath(__file__))


def threads():
    """The cores mxgo's kernels use: GOMAXPROCS, else the CPUs this process may run on."""
    env = os.environ.get("GOMAXPROCS")
    return int(env) if env else len(os.sched_getaffinity(0))


def cases(rng):
    """(name, mxgo call, PyTorch call, multiply-adds) for each operator."""
    def arr(*shape):
        a = rng.standard_normal(shape, dtype=np.float32)
        return mx.nd.array(a), torch.from_numpy(a)

    def entry(name, fn, tfn, shape, macs=0):
        out = mx.nd.empty(shape)
        return name, (lambda: fn(out).wait_to_read()), tfn, macs

    x, tx = arr(64, 2048)
    w, tw = arr(1000, 2048)
    b, tb = arr(1000)
    c, tc = arr(8, 256, 14, 14)
    wc, twc = arr(256, 256, 3, 3)
    bc, tbc = arr(256)
    p, tp = arr(8, 1024, 14, 14)
    wp, twp = arr(256, 1024, 1, 1)
    m, tm = arr(8, 64, 112, 112)
    g, tg = arr(64)
    var = mx.nd.array(np.abs(g.asnumpy()) + 0.5)
    tvar = torch.from_numpy(var.asnumpy())
    ln, tln = arr(64, 128, 768)
    lg, tlg = arr(768)
    idx = rng.integers(0, 30000, (64, 128))
    ids, tids = mx.nd.array(idx.astype(np.float32)), torch.from_numpy(idx)
    emb, temb = arr(30000, 256)
    return [
        entry("FullyConnected 2048->1000, batch 64",
              lambda o: mx.nd.FullyConnected(x, w, b, num_hidden=1000, out=o),
              lambda: F.linear(tx, tw, tb), (64, 1000), 64 * 2048 * 1000),
        entry("Convolution 3x3 256->256, 14x14, batch 8",
              lambda o: mx.nd.Convolution(c, wc, bc, kernel=(3, 3), pad=(1, 1), num_filter=256, out=o),
              lambda: F.conv2d(tc, twc, tbc, padding=1), (8, 256, 14, 14), 8 * 256 * 256 * 9 * 196),
        entry("Convolution 1x1 1024->256, 14x14, batch 8",
              lambda o: mx.nd.Convolution(p, wp, kernel=(1, 1), num_filter=256, no_bias=True, out=o),
              lambda: F.conv2d(tp, twp), (8, 256, 14, 14), 8 * 1024 * 256 * 196),
        entry("Pooling max 3x3 stride 2, 64x112x112, batch 8",
              lambda o: mx.nd.Pooling(m, kernel=(3, 3), stride=(2, 2), pad=(1, 1), out=o),
              lambda: F.max_pool2d(tm, 3, 2, 1), (8, 64, 56, 56)),
        entry("Pooling global avg, 1024x14x14, batch 8",
              lambda o: mx.nd.Pooling(p, global_pool=True, pool_type="avg", out=o),
              lambda: F.adaptive_avg_pool2d(tp, 1), (8, 1024, 1, 1)),
        entry("BatchNorm (inference), 64x112x112, batch 8",
              lambda o: mx.nd.BatchNorm(m, g, g, g, var, fix_gamma=False, out=o),
              lambda: F.batch_norm(tm, tg, tvar, tg, tg, False, 0.1, 1e-3), (8, 64, 112, 112)),
        entry("Activation relu, 64x112x112, batch 8",
              lambda o: mx.nd.Activation(m, act_type="relu", out=o), lambda: F.relu(tm), (8, 64, 112, 112)),
        entry("LayerNorm 768, 64x128 rows",
              lambda o: mx.nd.LayerNorm(ln, lg, lg, out=o), lambda: F.layer_norm(tln, (768,), tlg, tlg),
              (64, 128, 768)),
        entry("Embedding 30000x256, 64x128 ids",
              lambda o: mx.nd.Embedding(ids, emb, input_dim=30000, output_dim=256, out=o),
              lambda: F.embedding(tids, temb), (64, 128, 256)),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-time", type=float, default=0.3)
    ap.add_argument("--rows", default="", help="run only the rows whose name contains one of these comma-separated words")
    args = ap.parse_args(argv)
    n = threads()
    torch.set_num_threads(n)
    rng = np.random.default_rng(0)
    rows = ["| operator | mxgo | PyTorch | mxgo GFLOP/s | mxgo / PyTorch |", "|---|---:|---:|---:|---:|"]
    words = [w for w in args.rows.split(",") if w]
    for name, fn, tfn, macs in cases(rng):
        if words and not any(w in name for w in words):
            continue
        with torch.inference_mode():
            t = best_times({"mxgo": fn, "PyTorch": tfn}, args.min_time)
        rate = "%.1f" % (2 * macs / t["mxgo"] / 1e9) if macs else ""
        rows.append("| %s | %s | %s | %s | %.2f |" % (
            name, fmt_time(t["mxgo"]), fmt_time(t["PyTorch"]), rate, t["mxgo"] / t["PyTorch"]))
        print(rows[-1], flush=True)
    if words:
        return 0  # a partial run writes no report
    rows += ["", "mxgo GFLOP/s: twice the direct sums' multiply-adds, a second. mxgo computes 3x3 convolutions of 32 "
             "channels and more by Winograd's F(2x2, 3x3), 2.25 times fewer multiplications, so that row's rate may "
             "pass the machine's FMA peak (about 230 GFLOP/s on two cores of the AMD VM)."]
    write_report("nn.md", "Neural-network forward operators (float32; PyTorch %s with %d threads, mxgo GOMAXPROCS %d)"
                 % (torch.__version__, n, n), rows)


if __name__ == "__main__":
    sys.exit(main())
