"""The models of bench_autograd.py in MXNet 1.x's mx.nd and mx.autograd, for mxgo and for
MXNet 1.9.1 (which runs this module in .venv-mxnet, without PyTorch)."""
import timeit

import numpy as np


def params(rng):
    """The models' weights (NumPy float32), shared by every framework."""
    def w(*shape):
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
    mlp = [w(512, 784), np.zeros(512, np.float32), w(512, 512), np.zeros(512, np.float32), w(10, 512),
           np.zeros(10, np.float32)]
    cnn = [w(8, 1, 3, 3), np.zeros(8, np.float32), w(16, 8, 3, 3), np.zeros(16, np.float32), w(10, 16 * 7 * 7),
           np.zeros(10, np.float32)]
    return {"mlp": (mlp, (256, 784)), "cnn": (cnn, (64, 1, 28, 28))}


def data(shape, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, shape[0])]
    return x, y


def nd_step(mxmod, model, ws, x, y):
    """One step in MXNet 1.x's mx.nd and mx.autograd (mxgo or MXNet: the same code)."""
    nd, ag = mxmod.nd, mxmod.autograd
    with ag.record():
        if model == "mlp":
            h = nd.relu(nd.FullyConnected(x, ws[0], ws[1], num_hidden=512))
            h = nd.relu(nd.FullyConnected(h, ws[2], ws[3], num_hidden=512))
            out = nd.FullyConnected(h, ws[4], ws[5], num_hidden=10)
        else:
            h = nd.Pooling(nd.relu(nd.Convolution(x, ws[0], ws[1], kernel=(3, 3), pad=(1, 1), num_filter=8)),
                           kernel=(2, 2), stride=(2, 2), pool_type="max")
            h = nd.Pooling(nd.relu(nd.Convolution(h, ws[2], ws[3], kernel=(3, 3), pad=(1, 1), num_filter=16)),
                           kernel=(2, 2), stride=(2, 2), pool_type="max")
            out = nd.FullyConnected(h, ws[4], ws[5], num_hidden=10)
        loss = ((out - y) ** 2).mean()
    loss.backward()
    return ws[0].grad


def nd_model(mxmod, model, rng):
    """A step function for mxmod (mxgo or MXNet) and its arrays."""
    ps, shape = params(rng)[model]
    ws = [mxmod.nd.array(p) for p in ps]
    for w in ws:
        w.attach_grad()
    x, y = (mxmod.nd.array(a) for a in data(shape, rng))
    return lambda: nd_step(mxmod, model, ws, x, y).wait_to_read()


def best_of(fn, min_time):
    """The best time of one call of fn over calls totalling at least min_time."""
    fn()  # warm up
    best, spent = float("inf"), 0.0
    while spent < min_time:
        t = timeit.timeit(fn, number=1)
        best, spent = min(best, t), spent + t
    return best
