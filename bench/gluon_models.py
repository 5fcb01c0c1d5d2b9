"""The models of bench_gluon.py, written once for mxgo and MXNet 1.9.1 (``lib`` is either
module): a Gluon network, its loss and Trainer, and one training step on fixed data."""
import timeit

import numpy as np

BATCH = 64
SHAPES = {"mlp": (784,), "lenet": (1, 28, 28), "resnet18": (3, 32, 32)}


def network(lib, model):
    nn = lib.gluon.nn
    if model == "resnet18":
        return lib.gluon.model_zoo.vision.resnet18_v1(classes=10)
    net = nn.HybridSequential()
    with net.name_scope():
        if model == "mlp":
            net.add(nn.Dense(512, activation="relu"), nn.Dense(512, activation="relu"), nn.Dense(10))
        else:
            net.add(nn.Conv2D(6, 5, padding=2, activation="relu"), nn.MaxPool2D(), nn.Conv2D(16, 5, activation="relu"),
                    nn.MaxPool2D(), nn.Flatten(), nn.Dense(120, activation="relu"), nn.Dense(84, activation="relu"),
                    nn.Dense(10))
    return net


def data(model, rng):
    x = rng.standard_normal((BATCH,) + SHAPES[model]).astype(np.float32)
    y = rng.integers(0, 10, BATCH).astype(np.float32)
    return x, y


def training_step(lib, model, hybridize, rng):
    """A function running one training step (forward, loss, backward, SGD with momentum)."""
    net = network(lib, model)
    net.initialize(lib.init.Xavier())
    if hybridize:
        net.hybridize()
    loss_fn = lib.gluon.loss.SoftmaxCrossEntropyLoss()
    x, y = (lib.nd.array(a) for a in data(model, rng))
    net(x)  # deferred initialization
    trainer = lib.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})

    def step():
        with lib.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(BATCH)
        loss.wait_to_read()
        lib.nd.waitall()
    return step


def best_of(fn, min_time):
    """The best time of one call of fn over calls totalling at least min_time."""
    fn()
    best, spent = float("inf"), 0.0
    while spent < min_time:
        t = timeit.timeit(fn, number=1)
        best, spent = min(best, t), spent + t
    return best
