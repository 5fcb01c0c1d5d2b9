#!/usr/bin/env python3
"""Trains a small CNN with Gluon on generated data, as an MXNet 1.x user writes it:
DataLoader with worker processes, a hybridized network, Trainer, a metric, a checkpoint
saved and resumed, and the model exported to MXNet's model files and loaded back.

    python examples/train_gluon.py [workdir]

The data: 28x28 images of 10 classes, each class a fixed random pattern plus noise.
"""
import os
import sys
import tempfile

import numpy as np

import mxgo as mx
from mxgo import autograd, gluon
from mxgo.gluon import nn


def dataset(n, rng, templates):
    labels = rng.integers(0, 10, n)
    images = templates[labels] + 0.8 * rng.standard_normal((n, 1, 28, 28))
    return gluon.data.ArrayDataset(mx.nd.array(images.astype(np.float32)), mx.nd.array(labels.astype(np.float32)))


def network():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(8, 3, padding=1, activation="relu"), nn.MaxPool2D(), nn.BatchNorm(),
                nn.Conv2D(16, 3, padding=1, activation="relu"), nn.MaxPool2D(), nn.Flatten(),
                nn.Dense(32, activation="relu"), nn.Dropout(0.2), nn.Dense(10))
    return net


def evaluate(net, loader):
    metric = mx.metric.Accuracy()
    for data, label in loader:
        metric.update(label, net(data))
    return metric.get()[1]


def train(net, trainer, loader, epochs):
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(epochs):
        for data, label in loader:
            with autograd.record():
                loss = loss_fn(net(data), label)
            loss.backward()
            trainer.step(data.shape[0])


def main(workdir):
    rng = np.random.default_rng(0)
    templates = rng.standard_normal((10, 1, 28, 28))
    train_data = gluon.data.DataLoader(dataset(2000, rng, templates), batch_size=64, shuffle=True, num_workers=2)
    test_data = gluon.data.DataLoader(dataset(500, rng, templates), batch_size=100)

    net = network()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.002})
    train(net, trainer, train_data, epochs=1)
    print("after 1 epoch: test accuracy %.3f" % evaluate(net, test_data))
    net.save_parameters(os.path.join(workdir, "cnn.params"))
    trainer.save_states(os.path.join(workdir, "cnn.states"))

    resumed = network()
    resumed.load_parameters(os.path.join(workdir, "cnn.params"))
    resumed.hybridize()
    trainer = gluon.Trainer(resumed.collect_params(), "adam", {"learning_rate": 0.002})
    trainer.load_states(os.path.join(workdir, "cnn.states"))
    train(resumed, trainer, train_data, epochs=1)
    accuracy = evaluate(resumed, test_data)
    print("resumed from the checkpoint, after 2 epochs: test accuracy %.3f" % accuracy)

    sym_file, params_file = resumed.export(os.path.join(workdir, "cnn"))
    imported = gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    print("exported to %s and imported: test accuracy %.3f" % (os.path.basename(sym_file),
                                                                evaluate(imported, test_data)))
    return 0 if accuracy > 0.9 else 1


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(main(sys.argv[1]))
    with tempfile.TemporaryDirectory() as d:
        sys.exit(main(d))
