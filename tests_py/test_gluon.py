"""Gluon's behaviour without MXNet beside it: Parameters and their errors, deferred
initialization, sharing, grad_req, hooks, files, casting, and training a model on autograd.
(test_mxnet_gluon.py compares the layers, losses and files with MXNet 1.9.1.)"""
import numpy as np
import pytest

import mxgo as mx
from mxgo import autograd, gluon
from mxgo.gluon import nn


def test_parameter_lifecycle_and_errors():
    p = gluon.Parameter("w", shape=(2, 3), init=mx.init.One())
    with pytest.raises(RuntimeError, match="has not been initialized"):
        p.data()
    p.initialize()
    np.testing.assert_array_equal(p.data().asnumpy(), np.ones((2, 3)))
    with pytest.warns(UserWarning, match="already initialized"):
        p.initialize()
    p.set_data(mx.nd.full((2, 3), 5))
    assert p.data().asnumpy().max() == 5
    with pytest.raises(ValueError, match="incompatible"):
        p.set_data(mx.nd.ones((3, 3)))
    assert p.data().asnumpy().max() == 5  # left intact
    with pytest.raises(RuntimeError, match="not initialized on context"):
        p.data(mx.cpu(1))
    with pytest.raises(ValueError, match="grad_req must be one of"):
        p.grad_req = "sometimes"
    p.grad_req = "null"
    with pytest.raises(RuntimeError, match="grad_req='null'"):
        p.grad()
    with pytest.raises(ValueError, match="sparse"):
        gluon.Parameter("s", shape=(2,), stype="row_sparse")
    with pytest.raises(ValueError, match="invalid shape"):
        gluon.Parameter("u", shape=(0, 2)).initialize()


def test_deferred_initialization():
    dense = nn.Dense(4)
    dense.initialize()
    with pytest.raises(gluon.DeferredInitializationError):
        dense.weight.data()
    assert isinstance(gluon.DeferredInitializationError("x"), mx.MXNetError)
    dense(mx.nd.ones((2, 3, 5)))
    assert dense.weight.shape == (4, 15)
    with pytest.raises(mx.MXNetError):  # the input no longer fits the weight
        dense(mx.nd.ones((2, 7))).wait_to_read()

    class Custom(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            self.w = self.params.get("w", shape=(0,), allow_deferred_init=True)

        def hybrid_forward(self, F, x, w):
            return x * w
    block = Custom()
    block.initialize()
    with pytest.raises(mx.MXNetError, match="cannot infer the shapes"):
        block(mx.nd.ones(3))


def test_multiple_contexts_and_reduce():
    p = gluon.Parameter("w", shape=(3,), init=mx.init.Constant(2.0))
    p.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    assert [a.context for a in p.list_data()] == [mx.cpu(0), mx.cpu(1)]
    p.data(mx.cpu(1))[:] = 4
    p.reset_ctx(mx.cpu(0))
    np.testing.assert_array_equal(p.data().asnumpy(), [3, 3, 3])


def test_sharing_and_names():
    a = nn.Dense(3, in_units=2, prefix="a_")
    b = nn.Dense(3, in_units=2, params=a.collect_params(), prefix="b_")
    assert b.weight is a.weight
    net = nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(nn.Dense(2), nn.Dense(2), nn.Conv2D(1, 1))
    assert list(net.collect_params().keys()) == [
        "net_dense0_weight", "net_dense0_bias", "net_dense1_weight", "net_dense1_bias", "net_conv0_weight",
        "net_conv0_bias"]
    assert list(net.collect_params(".*weight").keys()) == ["net_dense0_weight", "net_dense1_weight",
                                                          "net_conv0_weight"]
    assert len(net) == 3 and isinstance(net[1:], nn.HybridSequential) and len(net[1:]) == 2
    with pytest.raises(ValueError, match="must also be HybridBlock"):
        net.add(nn.Lambda(lambda x: x))
    with pytest.raises(ValueError, match="does not match"):
        a.params.get("weight", shape=(4, 2))


def test_grad_req_add_and_zero_grad():
    dense = nn.Dense(2, in_units=3)
    dense.initialize()
    dense.collect_params().setattr("grad_req", "add")
    x = mx.nd.ones((4, 3))
    for _ in range(2):
        with autograd.record():
            y = dense(x)
        y.backward()
    np.testing.assert_allclose(dense.bias.grad().asnumpy(), [8, 8])
    dense.zero_grad()
    assert dense.bias.grad().asnumpy().max() == 0


def test_hooks_and_summary(capsys):
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2))
    seen = []
    handle = net.register_forward_hook(lambda blk, inp, out: seen.append(out.shape))
    net.initialize()
    net(mx.nd.ones((4, 2)))
    handle.detach()
    net(mx.nd.ones((4, 2)))
    assert seen == [(4, 3)]
    net.summary(mx.nd.ones((4, 2)))
    assert "Total params: 9" in capsys.readouterr().out


def test_save_load_errors_leave_parameters_intact(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3))
    net.initialize()
    f = str(tmp_path / "net.params")
    net.save_parameters(f)
    small = nn.HybridSequential()
    small.add(nn.Dense(3, in_units=2))
    small.initialize(mx.init.Zero())
    with pytest.raises(ValueError, match="not present"):
        small.load_parameters(f)
    small.load_parameters(f, ignore_extra=True)
    np.testing.assert_array_equal(small[0].weight.data().asnumpy(), net[0].weight.data().asnumpy())
    big = nn.HybridSequential()
    big.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3), nn.Dense(1, in_units=1))
    with pytest.raises(ValueError, match="missing"):
        big.load_parameters(f)
    wrong = nn.HybridSequential()
    wrong.add(nn.Dense(3, in_units=2, dtype="float64"), nn.Dense(1, in_units=3))
    with pytest.raises(ValueError, match="cast_dtype"):
        wrong.load_parameters(f)
    wrong.load_parameters(f, cast_dtype=True)
    assert wrong[0].weight.data().dtype == np.float64


def test_cast_and_constant():
    net = nn.Dense(2, in_units=2)
    net.initialize()
    net.cast("float64")
    assert net(mx.nd.ones((1, 2), dtype="float64")).dtype == np.float64
    c = gluon.Constant("c", [[1, 2], [3, 4]])
    c.initialize()
    np.testing.assert_array_equal(c.data().asnumpy(), [[1, 2], [3, 4]])
    assert c.grad_req == "null"


def test_training_reduces_the_loss():
    mx.random.seed(0)  # Xavier's draw: the test must not depend on what ran before
    rng = np.random.default_rng(0)
    x = mx.nd.array(rng.standard_normal((64, 4)))
    y = mx.nd.array((rng.standard_normal((64, 4)) @ rng.standard_normal((4, 1)))[:, 0])
    net = nn.HybridSequential()
    net.add(nn.Dense(8, activation="tanh"), nn.Dense(1))
    net.initialize(mx.init.Xavier())
    loss_fn = gluon.loss.L2Loss()
    losses = []
    for _ in range(40):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        for p in net.collect_params().values():
            p.data()[:] = p.data() - 0.5 / 64 * p.grad()  # what Trainer.step(64) does with SGD
        losses.append(loss.mean().asscalar())
    assert losses[-1] < 0.75 * losses[0] and all(np.isfinite(losses))


def test_initializers_by_name_and_errors():
    assert isinstance(mx.init.create("xavier"), mx.init.Xavier)
    assert mx.init.create('["normal", {"sigma": 0.5}]').sigma == 0.5
    with pytest.raises(mx.MXNetError, match="not registered"):
        mx.init.create("nonsense")
    with pytest.raises(ValueError, match="Unknown initialization pattern"):
        mx.init.Uniform()(mx.init.InitDesc("x_unknown"), mx.nd.zeros(2))
    with pytest.raises(ValueError, match="cannot be applied to vector"):
        mx.init.Xavier()(mx.init.InitDesc("x_weight"), mx.nd.zeros(3))
    arr = mx.nd.zeros((2, 2))
    mx.init.Mixed(["bias", ".*"], [mx.init.Zero(), mx.init.One()])("fc_weight", arr)
    assert arr.asnumpy().min() == 1
    mx.init.Load({"arg:fc_weight": mx.nd.full((2, 2), 3)})("fc_weight", arr)
    assert arr.asnumpy().min() == 3
    with pytest.raises(ValueError, match="Shape mismatch"):
        mx.init.Load({"fc_weight": mx.nd.ones(3)})("fc_weight", arr)


def test_export_and_imports_round_trip_and_errors(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Conv2D(2, 3, in_channels=1, activation="relu"), nn.BatchNorm(in_channels=2), nn.Flatten(),
            nn.Dense(3, in_units=8))
    net.initialize()
    x = mx.nd.random.uniform(shape=(2, 1, 4, 4))
    expect = net(x).asnumpy()
    sym_file, params_file = net.export(str(tmp_path / "net"))
    block = gluon.SymbolBlock.imports(sym_file, "data", params_file)
    np.testing.assert_allclose(block(x).asnumpy(), expect, rtol=1e-6)
    assert {n.rsplit("_", 1)[-1]: p.grad_req for n, p in block.collect_params().items()
            if "running" in n} == {"mean": "null", "var": "null"}
    with pytest.raises(mx.MXNetError, match="takes 1 inputs"):
        block(x, x)
    with pytest.raises(mx.MXNetError, match="not a variable of the graph"):
        gluon.SymbolBlock.imports(sym_file, ["image"], params_file)
    mx.nd.save(str(tmp_path / "other.params"), {"other": mx.nd.ones(1)})
    with pytest.raises(ValueError, match="missing"):
        gluon.SymbolBlock.imports(sym_file, "data", str(tmp_path / "other.params"))
    (tmp_path / "bad.json").write_text('{"nodes": [{"op": "null"}]}')
    with pytest.raises(mx.MXNetError, match="not an MXNet symbol file"):
        mx.sym.load(str(tmp_path / "bad.json"))
    s = mx.sym.var("data")
    odd = mx.sym.load_json(s.relu().tojson().replace('"relu"', '"NoSuchOp"'))
    with pytest.raises(mx.MXNetError, match="NoSuchOp is not available"):
        odd.eval(data=x)
    with pytest.raises(mx.MXNetError, match="was not given"):
        s.relu().eval(other=x)
    with pytest.raises(AttributeError):
        mx.sym.no_such_operator  # noqa: B018
    with pytest.raises(ValueError, match="mixed NDArrays and Symbols"):
        net[0].forward(x, mx.sym.var("w"))


def test_symbol_graph_api():
    x = mx.sym.var("x")
    y = mx.sym.FullyConnected(x, mx.sym.var("w"), num_hidden=2, no_bias=True, name="fc")
    z = mx.sym.Group([y.relu(), mx.sym.split(x, num_outputs=2)])
    assert z.list_arguments() == ["x", "w"]
    assert len(z) == 3 and z[0].name.startswith("relu")
    assert y.list_outputs() == ["fc_output"]
    assert "fc_output" in z.get_internals().list_outputs()
    out = z.eval(x=mx.nd.ones((1, 4)), w=mx.nd.ones((2, 4)))
    np.testing.assert_array_equal(out[0].asnumpy(), [[4, 4]])
    assert [o.shape for o in out[1:]] == [(1, 2), (1, 2)]


def test_hybridize_caches_a_graph_with_the_imperative_values():
    calls = []

    class Net(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.conv = nn.Conv2D(3, 3, padding=1)
                self.bn = nn.BatchNorm()
                self.dense = nn.Dense(2)

        def hybrid_forward(self, F, x):
            calls.append(F.__name__)
            return self.dense(F.relu(self.bn(self.conv(x))) * 0.5 + 1)

    x = mx.nd.random.uniform(shape=(2, 1, 4, 4))
    results = []
    for hybrid in (False, True):
        mx.random.seed(3)
        net = Net()
        net.initialize(mx.init.Xavier())
        if hybrid:
            net.hybridize()
        for _ in range(3):
            with autograd.record():
                y = net(x)
            y.backward()
        results.append((y.asnumpy(), net.conv.weight.grad().asnumpy(), net.bn.running_mean.data().asnumpy()))
    assert calls.count("mxgo.symbol") == 1  # traced once, then the cached graph runs
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    net.hybridize(active=False)
    before = len(calls)
    net(x)
    assert calls[before:] == ["mxgo.ndarray"]
