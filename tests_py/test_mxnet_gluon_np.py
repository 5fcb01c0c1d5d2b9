"""Gluon in NumPy mode against MXNet 1.9.1's: after ``npx.set_np()`` Parameters, blocks,
losses and DataLoader give ``mx.np`` arrays; the same network trained in both libraries
(imperative and hybridized) ends with the same parameters; ``F.np``/``F.npx`` work in a
custom block; parameter files go both ways.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import mxnet
import numpy as onp
import pytest

import mxgo as mx

R = onp.random.RandomState(0)
X = R.randn(6, 4).astype("float32")
Y = R.randint(0, 3, 6).astype("float32")


@pytest.fixture(autouse=True)
def numpy_mode():
    mxnet.npx.set_np()
    mx.npx.set_np()
    yield
    mxnet.npx.reset_np()
    mx.npx.reset_np()


def nets():
    built = []
    for lib in (mxnet, mx):
        net = lib.gluon.nn.HybridSequential()
        net.add(lib.gluon.nn.Dense(5, activation="relu"), lib.gluon.nn.Dense(3))
        net.initialize(lib.init.Xavier())
        net(lib.np.array(X))
        built.append(net)
    a, b = built
    for pa, pb in zip(a.collect_params().values(), b.collect_params().values()):
        pb.set_data(mx.np.array(pa.data().asnumpy()))
    return a, b


@pytest.mark.parametrize("hybridize", [False, True])
def test_training_gives_np_arrays_and_mxnets_parameters(hybridize):
    a, b = nets()
    for lib, net in ((mxnet, a), (mx, b)):
        if hybridize:
            net.hybridize()
        trainer = lib.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
        loss_fn = lib.gluon.loss.SoftmaxCrossEntropyLoss()
        for _ in range(3):
            with lib.autograd.record():
                loss = loss_fn(net(lib.np.array(X)), lib.np.array(Y))
            loss.backward()
            trainer.step(len(X))
        first = next(iter(net.collect_params().values()))
        for value in (net(lib.np.array(X)), loss, first.data(), first.grad()):
            assert isinstance(value, lib.np.ndarray)
    for pa, pb in zip(a.collect_params().values(), b.collect_params().values()):
        onp.testing.assert_allclose(pb.data().asnumpy(), pa.data().asnumpy(), rtol=1e-5, atol=1e-6)


def custom_net(lib):
    """A Dense layer inside a block of MXNet 1.9.1's NumPy-mode code: F.np and F.npx in
    hybrid_forward, then another Dense."""
    class Block(lib.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = lib.gluon.nn.Dense(5)

        def hybrid_forward(self, F, x):
            h = F.np.tanh(self.dense(x)) * 2
            return F.npx.relu(h) + F.np.sum(x, axis=1, keepdims=True)

    net = lib.gluon.nn.HybridSequential()
    net.add(Block(), lib.gluon.nn.Dense(3))
    net.initialize(lib.init.Xavier())
    net(lib.np.array(X))
    return net


@pytest.mark.parametrize("hybridize", [False, True])
def test_custom_block_with_F_np_and_npx(hybridize):
    """Hybridized, MXNet traces F.np onto its symbols; mxgo's mx.sym has no NumPy interface,
    so the block runs imperatively (the same values and gradients) and export refuses."""
    a, b = custom_net(mxnet), custom_net(mx)
    for pa, pb in zip(a.collect_params().values(), b.collect_params().values()):
        pb.set_data(mx.np.array(pa.data().asnumpy()))
    results = []
    for lib, net in ((mxnet, a), (mx, b)):
        if hybridize:
            net.hybridize()
        x = lib.np.array(X)
        x.attach_grad()
        with lib.autograd.record():
            out = net(x)
            loss = (out * out).sum()
        loss.backward()
        assert isinstance(out, lib.np.ndarray) and out.shape == (6, 3)
        results.append([out.asnumpy(), x.grad.asnumpy()] + [p.grad().asnumpy() for p in net.collect_params().values()])
    for want, got in zip(*results):
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    if hybridize:
        with pytest.raises(mx.base.MXNetError, match="F.np"):
            b.export("unused")


def test_dataloader_batches_and_parameter_files(tmp_path):
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(X, Y), batch_size=4)
    data, label = next(iter(loader))
    assert isinstance(data, mx.np.ndarray) and data.shape == (4, 4)
    a, b = nets()
    b.save_parameters(str(tmp_path / "b.params"))
    a.load_parameters(str(tmp_path / "b.params"))
    a.save_parameters(str(tmp_path / "a.params"))
    b.load_parameters(str(tmp_path / "a.params"))
    assert isinstance(b(mx.np.array(X)), mx.np.ndarray)
    onp.testing.assert_allclose(b(mx.np.array(X)).asnumpy(), a(mxnet.np.array(X)).asnumpy(), rtol=1e-5, atol=1e-6)
