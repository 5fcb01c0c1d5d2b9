#!/usr/bin/env python3
"""Data-parallel training throughput of the Gluon benchmark's MLP (784-512-512-10, batch 64
per worker, SGD with momentum) on 1 worker (kvstore='device', no collective) and on 2
workers (kvstore='dist_sync', gloo on 127.0.0.1), started by mxgo.distributed.launch.

Each worker alternates two kinds of step. A split step waits after each of its parts:
forward and backward, the gradients' all-reduce (Trainer.allreduce_grads,
update_on_kvstore=False) and the update. A whole step is what training runs (backward, then
Trainer.step at once): the Trainer all-reduces the last layers' gradients while the engine
still computes the earlier ones', so the whole step is shorter than the split parts' sum by
the communication it hid. The table gives rank 0's medians and the job's samples/s (whole
steps).

    python bench/bench_dist.py [--steps 30] [--out bench/results/dist.md]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker(steps, kvstore):
    import numpy as np

    import mxgo as mx
    from gluon_models import BATCH, data, network
    net = network(mx, "mlp")
    net.initialize(mx.init.Xavier())
    net.hybridize()
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    x, y = (mx.nd.array(a) for a in data("mlp", np.random.default_rng(0)))
    net(x)
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9},
                               kvstore=kvstore, update_on_kvstore=False)
    parts, whole = [], []
    for i in range(steps + 3):
        t0 = time.perf_counter()
        with mx.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        mx.nd.waitall()
        t1 = time.perf_counter()
        trainer.allreduce_grads()
        mx.nd.waitall()
        t2 = time.perf_counter()
        trainer.update(BATCH)
        mx.nd.waitall()
        t3 = time.perf_counter()
        with mx.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(BATCH)
        mx.nd.waitall()
        if i >= 3:  # warm-up steps left out
            parts.append((t1 - t0, t2 - t1, t3 - t2))
            whole.append(time.perf_counter() - t3)
    medians = [statistics.median(p) * 1e3 for p in zip(*parts)]
    return {"ms": medians, "step_ms": statistics.median(whole) * 1e3, "batch": BATCH}


def run(workers, steps):
    cmd = [sys.executable, "-m", "mxgo.distributed.launch", "-n", str(workers), __file__, "--worker", str(steps),
           "dist_sync" if workers > 1 else "device"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True, cwd=HERE).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        result = worker(int(sys.argv[2]), sys.argv[3])
        if os.environ.get("RANK", "0") == "0":
            print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "dist.md"))
    args = parser.parse_args()
    import torch

    import mxgo as mx
    from machine import cpu_name
    rows, base = [], None
    for workers in (1, 2):
        r = run(workers, args.steps)
        fwd_bwd, comm, update = r["ms"]
        rate = workers * r["batch"] / (r["step_ms"] / 1e3)
        base = base or rate
        rows.append("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %.2f |" % (
            workers, fwd_bwd, comm, update, r["step_ms"], fwd_bwd + comm + update - r["step_ms"], rate,
            rate / (workers * base)))
    text = "\n".join([
        "# Data-parallel training: Gluon MLP on 1 and 2 workers", "",
        "Python %s, PyTorch %s (gloo), mxgo %s; %s, %d cores; %s" % (
            platform.python_version(), torch.__version__, mx.__version__, cpu_name(), os.cpu_count(),
            platform.platform()), "",
        "MLP 784-512-512-10, batch 64 per worker, hybridized, SGD with momentum; rank 0's median ms per part of a "
        "step over %d steps: the parts of a split step (each waited for), a whole step (Trainer.step right "
        "after backward: the last layers' all-reduce overlaps the earlier layers' backward), and what the "
        "overlap hid (the parts' sum less the whole step); samples/s of the job in whole steps; efficiency = "
        "samples/s / (workers x 1 worker's). The workers share the machine's cores, so 2 workers on 2 cores "
        "cannot scale as on 2 machines; the all-reduce's time includes waiting for the slower worker. "
        "`python bench/bench_dist.py`." % args.steps, "",
        "| workers | forward+backward ms | all-reduce ms | update ms | whole step ms | hidden ms | samples/s "
        "| efficiency |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|"] + rows + [""])
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
