#!/usr/bin/env python3
"""Training steps and recording overhead: mxgo's autograd against PyTorch (CPU, as many
threads as mxgo's GOMAXPROCS) in this process, and MXNet 1.9.1 (imperative mx.nd with
mx.autograd, its pip wheel's oneDNN kernels) in .venv-mxnet, run as a subprocess.

Models, float32, one step = forward, loss, backward (no optimizer update):
- MLP 784-512-512-10 (FullyConnected, relu), batch 256;
- CNN: two 3x3 convolutions (8 and 16 filters, pad 1) each with relu and 2x2 max pooling,
  then FullyConnected to 10, batch 64 of 1x28x28;
the loss is the mean squared error against one-hot targets (the same in every framework).
Each side's best step over alternating rounds is reported (the machine is shared), with
mxgo / fastest peer (> 1: slower).

Recording overhead: a small elementwise operator (4x4 ``mx.nd.negative``) inside
``mx.autograd.record()`` on a variable, against the same outside recording; the difference
is what recording costs per operator. (Not ``x * 2``: outside recording that runs in C
without Go, pybridge/tiny.c, so the difference would also count the registry's call.)

Writes a Markdown table to bench/results/autograd.md.

    python bench/bench_autograd.py [--min-time 0.5] [--no-mxnet]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

import mxgo as mx
from autograd_models import data, nd_model, params
from bench_nn import threads
from bench_ops import best_times, fmt_time, write_report

HERE = os.path.dirname(os.path.abspath(__file__))
MXNET_PY = os.path.join(HERE, "..", ".venv-mxnet", "bin", "python")


def torch_model(model, rng):
    ps, shape = params(rng)[model]
    ws = [torch.from_numpy(p).requires_grad_() for p in ps]
    x, y = (torch.from_numpy(a) for a in data(shape, rng))

    def step():
        if model == "mlp":
            h = F.relu(F.linear(x, ws[0], ws[1]))
            h = F.relu(F.linear(h, ws[2], ws[3]))
            out = F.linear(h, ws[4], ws[5])
        else:
            h = F.max_pool2d(F.relu(F.conv2d(x, ws[0], ws[1], padding=1)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, ws[2], ws[3], padding=1)), 2)
            out = F.linear(h.flatten(1), ws[4], ws[5])
        loss = ((out - y) ** 2).mean()
        for w in ws:
            w.grad = None
        loss.backward()
    return step


def mxnet_times(min_time):
    """{model: best step seconds} from MXNet 1.9.1 in .venv-mxnet (None if it is absent)."""
    if not os.path.exists(MXNET_PY):
        return None
    code = ("import sys, json; sys.path.insert(0, %r); import numpy as np, mxnet, autograd_models as b\n"
            "print(json.dumps({m: b.best_of(b.nd_model(mxnet, m, np.random.default_rng(0)), %r) for m in ('mlp', 'cnn')}))"
            % (HERE, min_time))
    env = dict(os.environ, MXNET_ENGINE_TYPE="ThreadedEnginePerDevice")
    out = subprocess.run([MXNET_PY, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def recording_overhead(number=20000):
    """(µs per small operator outside recording, inside it)."""
    x = mx.nd.ones((4, 4))
    x.attach_grad()

    neg = mx.nd.negative

    def plain():
        for _ in range(number):
            neg(x)

    def recorded():
        with mx.autograd.record():
            for _ in range(number):
                neg(x)
    t = best_times({"plain": plain, "recorded": recorded}, 1.0)
    return t["plain"] / number * 1e6, t["recorded"] / number * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-time", type=float, default=0.5)
    ap.add_argument("--no-mxnet", action="store_true", help="leave out MXNet 1.9.1")
    args = ap.parse_args(argv)
    n = threads()
    torch.set_num_threads(n)
    mxnet = None if args.no_mxnet else mxnet_times(args.min_time)
    rows = ["| training step (forward + backward) | mxgo | PyTorch | MXNet 1.9.1 | mxgo / fastest peer |",
            "|---|---:|---:|---:|---:|"]
    for model, name in (("mlp", "MLP 784-512-512-10, batch 256"), ("cnn", "CNN 2x(conv3x3+relu+pool), batch 64")):
        rng = np.random.default_rng(0)
        t = best_times({"mxgo": nd_model(mx, model, rng), "PyTorch": torch_model(model, rng)}, args.min_time)
        peers = [t["PyTorch"]] + ([mxnet[model]] if mxnet else [])
        rows.append("| %s | %s | %s | %s | %.2f |" % (name, fmt_time(t["mxgo"]), fmt_time(t["PyTorch"]),
                                                    fmt_time(mxnet[model]) if mxnet else "n/a", t["mxgo"] / min(peers)))
        print(rows[-1], flush=True)
    plain, recorded = recording_overhead()
    rows += ["", "| small operator (4x4 `mx.nd.negative(x)`) | outside record | inside record | recording costs |",
             "|---|---:|---:|---:|",
             "| per call | %.2f µs | %.2f µs | %.2f µs |" % (plain, recorded, recorded - plain)]
    print(rows[-1], flush=True)
    write_report("autograd.md", "Training steps and recording (float32; PyTorch %s with %d threads, mxgo GOMAXPROCS %d)"
                 % (torch.__version__, n, n), rows)


if __name__ == "__main__":
    sys.exit(main())
