#!/usr/bin/env python3
"""10,000 training steps of a small MLP (FullyConnected, relu, mean squared error, SGD on the
weights): live arrays, storages and resident memory before and after, which must stay flat.

    python bench/soak_autograd.py
"""
import gc

import numpy as np

import mxgo as mx
from mxgo.base import core


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024


rng = np.random.default_rng(0)
ws = [mx.nd.array(rng.normal(size=s).astype(np.float32) * 0.1) for s in [(64, 32), (64,), (10, 64), (10,)]]
for w in ws:
    w.attach_grad()
x = mx.nd.array(rng.normal(size=(16, 32)).astype(np.float32))
y = mx.nd.array(rng.normal(size=(16, 10)).astype(np.float32))


def step():
    with mx.autograd.record():
        h = mx.nd.relu(mx.nd.FullyConnected(x, ws[0], ws[1], num_hidden=64))
        out = mx.nd.FullyConnected(h, ws[2], ws[3], num_hidden=10)
        loss = ((out - y) ** 2).mean()
    loss.backward()
    for w in ws:
        w -= 0.01 * w.grad


for _ in range(1000):
    step()
mx.nd.waitall()
gc.collect()
base = (core.LiveHandles(), core.LiveStorages(), rss_mb())
for _ in range(10000):
    step()
mx.nd.waitall()
gc.collect()
after = (core.LiveHandles(), core.LiveStorages(), rss_mb())
print("after 1,000 steps: handles %d storages %d RSS %.1f MB" % base)
print("after 11,000 steps: handles %d storages %d RSS %.1f MB" % after)
