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


def test_custom_block_with_F_np_and_npx():
    class Block(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.sum(F.npx.relu(x), axis=1)

    out = Block()(mx.np.array(X))
    assert isinstance(out, mx.np.ndarray) and out.shape == (6,)
    onp.testing.assert_allclose(out.asnumpy(), onp.maximum(X, 0).sum(axis=1), rtol=1e-6)


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
