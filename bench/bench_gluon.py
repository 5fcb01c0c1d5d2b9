#!/usr/bin/env python3
"""Gluon training throughput: mxgo (imperative and hybridized) against PyTorch (CPU, as
many threads as mxgo's GOMAXPROCS) in this process and MXNet 1.9.1's pip wheel (oneDNN,
imperative and hybridized) in .venv-mxnet, run as a subprocess.

Models (float32, batch 64; one step = forward, softmax cross-entropy, backward, SGD with
momentum 0.9): an MLP 784-512-512-10; LeNet (conv5x5 6 + pool, conv5x5 16 + pool, dense
120, 84, 10) on 1x28x28; ResNet-18 v1 (the model zoo's, 10 classes) on 3x32x32. PyTorch
runs the same architectures with torch.nn. Each side's best step over alternating rounds
is reported as samples per second, with mxgo's best / the fastest peer's (< 1: slower).

Writes a Markdown table to bench/results/gluon.md.

    python bench/bench_gluon.py [--min-time 1.0] [--no-mxnet] [--models mlp,lenet,resnet18]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch
from torch import nn

import mxgo as mx
from bench_nn import threads
from bench_ops import best_times, write_report
from gluon_models import BATCH, data, training_step

HERE = os.path.dirname(os.path.abspath(__file__))
MXNET_PY = os.path.join(HERE, "..", ".venv-mxnet", "bin", "python")
NAMES = {"mlp": "MLP 784-512-512-10", "lenet": "LeNet 1x28x28", "resnet18": "ResNet-18 v1 3x32x32"}


class _Basic(nn.Module):
    """ResNet v1's basic block (two 3x3 convolutions with batch norm, a projected shortcut
    when the shape changes), as the Gluon model zoo's."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                  nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.down = None if stride == 1 and cin == cout else nn.Sequential(
            nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        return torch.relu(self.body(x) + (x if self.down is None else self.down(x)))


def torch_network(model):
    if model == "mlp":
        return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    if model == "lenet":
        return nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                             nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84),
                             nn.ReLU(), nn.Linear(84, 10))
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [_Basic(cin, cout, stride), _Basic(cout, cout, 1)]
        cin = cout
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))


def torch_step(model, rng):
    net = torch_network(model)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x, y = data(model, rng)
    x, y = torch.from_numpy(x), torch.from_numpy(y).long()
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss_fn(net(x), y).backward()
        opt.step()
    return step


def mxnet_times(models, min_time):
    """{model: {"imperative": s, "hybridized": s}} from MXNet 1.9.1 (None if it is absent)."""
    if not os.path.exists(MXNET_PY):
        return None
    code = ("import sys, json; sys.path.insert(0, %r); import numpy as np, mxnet, gluon_models as g\n"
            "print(json.dumps({m: {k: g.best_of(g.training_step(mxnet, m, h, np.random.default_rng(0)), %r)"
            " for k, h in (('imperative', False), ('hybridized', True))} for m in %r}))" % (HERE, min_time, models))
    env = dict(os.environ, MXNET_ENGINE_TYPE="ThreadedEnginePerDevice")
    out = subprocess.run([MXNET_PY, "-W", "ignore", "-c", code], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def rate(seconds):
    return "%.0f" % (BATCH / seconds) if seconds else "n/a"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--no-mxnet", action="store_true", help="leave out MXNet 1.9.1")
    ap.add_argument("--models", default="mlp,lenet,resnet18")
    args = ap.parse_args(argv)
    models = args.models.split(",")
    n = threads()
    torch.set_num_threads(n)
    theirs = None if args.no_mxnet else mxnet_times(models, args.min_time)
    rows = ["| samples/s (batch %d) | mxgo | mxgo hybridized | PyTorch | MXNet 1.9.1 | MXNet hybridized "
            "| mxgo best / fastest peer |" % BATCH, "|---|---:|---:|---:|---:|---:|---:|"]
    for model in models:
        rng = np.random.default_rng(0)
        t = best_times({"mxgo": training_step(mx, model, False, rng), "hybrid": training_step(mx, model, True, rng),
                        "PyTorch": torch_step(model, rng)}, args.min_time)
        peers = [t["PyTorch"]] + (list(theirs[model].values()) if theirs else [])
        mx_t = theirs[model] if theirs else {}
        rows.append("| %s | %s | %s | %s | %s | %s | %.2f |" % (
            NAMES[model], rate(t["mxgo"]), rate(t["hybrid"]), rate(t["PyTorch"]), rate(mx_t.get("imperative")),
            rate(mx_t.get("hybridized")), min(peers) / min(t["mxgo"], t["hybrid"])))
        print(rows[-1], flush=True)
    write_report("gluon.md", "Gluon training throughput (float32; PyTorch %s with %d threads, mxgo GOMAXPROCS %d)"
                 % (torch.__version__, n, n), rows)


if __name__ == "__main__":
    sys.exit(main())
