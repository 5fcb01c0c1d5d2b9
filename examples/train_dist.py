"""Data-parallel training with mx.kv's 'dist_sync' store, as in MXNet 1.x: every worker reads
its own shard (SplitSampler by rank), the Trainer sums the gradients over the workers
(torch.distributed's gloo all-reduce, on the gradients' own memory) and every worker takes
the same step.

    python -m mxgo.distributed.launch -n 2 examples/train_dist.py [OUTDIR]

(or torchrun --nproc-per-node 2 examples/train_dist.py). Rank 0 saves the model to OUTDIR.
"""
import os
import sys

import numpy as np

import mxgo as mx
from mxgo import autograd, gluon

kv = mx.kv.create("dist_sync")
rank, workers = kv.rank, kv.num_workers

# The same synthetic regression set in every worker; each reads its own part of it.
rng = np.random.default_rng(0)
x = rng.standard_normal((512, 8)).astype(np.float32)
y = (x @ rng.standard_normal((8, 1)) + 0.1).astype(np.float32)
dataset = gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y))
batch = 32  # per worker: the job's batch is batch * workers
loader = gluon.data.DataLoader(dataset, batch_size=batch, sampler=gluon.data.SplitSampler(len(dataset), workers, rank))

net = gluon.nn.HybridSequential()
net.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dense(1))
mx.random.seed(42)  # the same initial values everywhere (the Trainer also broadcasts rank 0's at its first step)
net.initialize(mx.init.Xavier())
net.hybridize()
trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9}, kvstore=kv)
loss_fn = gluon.loss.L2Loss()

for epoch in range(3):
    total = mx.nd.zeros((1,))
    for data, label in loader:
        with autograd.record():
            loss = loss_fn(net(data), label)
        loss.backward()
        trainer.step(batch)  # the gradients summed over the workers, scaled by 1/batch
        total += loss.sum()
    if rank == 0:
        print("epoch %d: mean loss on rank 0's shard %.4f" % (epoch, total.asscalar() / len(loader) / batch))

# Every worker holds the same parameters: rank 0's, broadcast, equal this worker's.
mine = mx.nd.concat(*[p.data().reshape((-1,)) for p in net.collect_params().values()], dim=0)
rank0 = mx.nd.zeros(mine.shape)
mx.kv.create("dist_sync").broadcast("params", mine, out=rank0)  # a store of its own: the Trainer's has int keys
assert np.array_equal(rank0.asnumpy(), mine.asnumpy())
if rank == 0:
    print("same parameters on all %d workers" % workers)
    if len(sys.argv) > 1:
        net.save_parameters(os.path.join(sys.argv[1], "dist.params"))
