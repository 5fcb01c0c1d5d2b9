"""A small regression net trained with Gluon, written against MXNet 1.9.1's API."""
import mxnet as mx
import mxnet.ndarray.random
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn
from mxnet.gluon.loss import L2Loss


def make_net():
    net = nn.HybridSequential()
    net.add(nn.Dense(8, activation="relu"), nn.Dense(1))
    net.initialize(mx.init.Xavier())
    return net


def train(steps, seed=0):
    """Fits y = 2x + 1 for ``steps`` steps; returns the loss of each step."""
    mx.random.seed(seed)
    x = mxnet.ndarray.random.uniform(-1, 1, shape=(32, 1))
    y = 2 * x + 1
    net, loss_fn = make_net(), L2Loss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    losses = []
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        losses.append(float(nd.mean(loss).asscalar()))
    return losses
