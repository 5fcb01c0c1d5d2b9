"""The worker program of test_kvstore.py: ``python kv_workers.py MODE OUTDIR``, one process
per rank, started by mxgo.distributed.launch (or by the test, with RANK etc. set).

all: push/pull/pushpull/broadcast/init of every dtype gloo sums, with the addresses the
engine reduced checked; then a Dense net trained on this rank's shard (SplitSampler,
DataLoader) with Trainer(kvstore='dist_sync'), both update_on_kvstore settings, the last
step also from a checkpoint rank 0 saved; the results saved to OUTDIR/MODE-RANK.npz for the
test to compare. die: rank 1 exits once the store is made; rank 0 reports the MXNetError
it gets in the next collective.
"""
import os
import sys

import numpy as np
import torch
import torch.distributed
import torch.utils.dlpack

import mxgo as mx
from mxgo import autograd, gluon

# gloo sums bfloat16 from PyTorch 2 on (1.13, the legacy environment's, refuses it)
DTYPES = ["float32", "float64", "float16", "int8", "uint8", "int32", "int64"] + (
    ["bfloat16"] if int(torch.__version__.split(".")[0]) >= 2 else [])
STEPS, BATCH = 3, 2


def data(world):
    """The job's dataset (the same in every worker and in the single-process run): STEPS
    batches of BATCH for each of the world's workers."""
    n = world * STEPS * BATCH
    x = np.linspace(-1, 1, n * 4, dtype=np.float32).reshape(n, 4)
    return x, np.stack([x.sum(1), x[:, 0] * x[:, 1]], 1).astype(np.float32)


def net_and_trainer(kvstore, update_on_kvstore=None, seed=0):
    mx.random.seed(seed)
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(5, in_units=4, activation="tanh"), gluon.nn.Dense(2, in_units=5))
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9},
                            kvstore=kvstore, update_on_kvstore=update_on_kvstore)
    return net, trainer


def train(net, trainer, batches):
    loss_fn = gluon.loss.L2Loss()
    for x, y in batches:
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(BATCH)
    return [p.data().asnumpy() for p in net.collect_params().values()]


def shard_batches(rank, world):
    x, y = data(world)
    sampler = gluon.data.SplitSampler(len(x), world, rank, shuffle=False)
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y)), batch_size=BATCH,
                                   sampler=sampler)
    return list(loader)


def check_store(kv, out):
    rank = kv.rank
    reduced = []
    real = torch.distributed.all_reduce
    torch.distributed.all_reduce = lambda t, *a, **k: (reduced.append(t.data_ptr()), real(t, *a, **k))[1]
    for i, dtype in enumerate(DTYPES):
        kv.init(i, mx.nd.full((3,), rank + 5, dtype=dtype))       # rank 0's value everywhere
        got = mx.nd.zeros((3,), dtype=dtype)
        kv.pull(i, out=got)
        out["init_" + dtype] = got.asnumpy().astype(np.float64)
        grads = [mx.nd.full((3,), rank + 1, dtype=dtype), mx.nd.full((3,), 2 * rank + 1, dtype=dtype)]
        kv.pushpull(i, grads)                                      # in place, in grads[0]'s memory
        address = torch.utils.dlpack.from_dlpack(grads[0].to_dlpack_for_read()).data_ptr()
        assert reduced[-1] == address, "the engine did not reduce the array itself"
        out["pushpull_" + dtype] = np.stack([g.asnumpy().astype(np.float64) for g in grads])
        kv.push(i, mx.nd.full((3,), 1, dtype=dtype))
        kv.pull(i, out=got)
        out["push_" + dtype] = got.asnumpy().astype(np.float64)
    torch.distributed.all_reduce = real
    target = mx.nd.zeros((2,))
    kv.broadcast(100, mx.nd.full((2,), rank + 7), out=target)
    out["broadcast"] = target.asnumpy()
    kv.barrier()
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.5))
    kv.init(101, mx.nd.ones((2,)))
    kv.pushpull(101, mx.nd.full((2,), rank + 1), out=target)       # every worker runs the same update
    out["updated"] = target.asnumpy()


def resume(net, trainer, uok, batches, ckpt, kv):
    """Rank 0 saves the model and the Trainer's states; every rank loads them into a new
    net (made with another seed) and Trainer, and both train on: the same parameters."""
    if kv.rank == 0:
        net.save_parameters(ckpt + ".params")
        trainer.save_states(ckpt + ".states")
    kv.barrier()
    resumed, resumed_trainer = net_and_trainer("dist_sync", uok, seed=kv.rank + 10)
    resumed.load_parameters(ckpt + ".params")
    resumed_trainer.load_states(ckpt + ".states")
    return {"%s_resumed_%d" % (uok, i): v for i, v in enumerate(train(resumed, resumed_trainer, batches))}


def main():
    mode, outdir = sys.argv[1], sys.argv[2]
    kv = mx.kv.create("dist_sync")
    out = {"rank": np.array(kv.rank), "num_workers": np.array(kv.num_workers)}
    if mode == "all":
        check_store(kv, out)
        batches = shard_batches(kv.rank, kv.num_workers)
        for uok in (None, False):
            net, trainer = net_and_trainer("dist_sync", uok)
            train(net, trainer, batches[:-1])
            out.update(resume(net, trainer, uok, batches[-1:], os.path.join(outdir, "ckpt%s" % uok), kv))
            params = train(net, trainer, batches[-1:])
            out.update({"%s_%d" % (uok, i): v for i, v in enumerate(params)})
            out["%s_on_kvstore" % uok] = np.array(trainer._update_on_kvstore)
    elif mode == "die":
        if kv.rank == 1:
            os._exit(3)
        try:
            kv.init(0, mx.nd.ones((1000,)))
        except mx.MXNetError as e:
            print("MXNetError:", e, flush=True)
        try:
            kv.barrier()
        except mx.MXNetError as e:
            print("then MXNetError:", e, flush=True)  # the failure is remembered
            sys.exit(7)
    np.savez(os.path.join(outdir, "%s-%d.npz" % (mode, kv.rank)), **out)


if __name__ == "__main__":
    main()
