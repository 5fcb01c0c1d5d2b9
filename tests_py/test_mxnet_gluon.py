"""Gluon against the real MXNet 1.9.1 (collected only in .venv-mxnet; see environments.py).

Every layer and loss is built in both libraries with the same arguments; MXNet's
initialized Parameters are copied into mxgo's; then the names and shapes of the
Parameters, the repr, the forward under record() and every gradient after backward with
the same head gradient must agree. Parameter files go both ways; summary() prints the same
table; initializers agree in what they are deterministic in and in their distributions.
"""
import contextlib
import io
import json

import mxnet
import numpy as np
import pytest

import mxgo as mx

RNG = np.random.default_rng(0)


def copy_params(src, dst):
    """MXNet's initialized values into mxgo's Parameters, by structural name."""
    ours = dst._collect_params_with_prefix()
    theirs = src._collect_params_with_prefix()
    assert sorted(ours) == sorted(theirs)
    for name, p in theirs.items():
        ours[name].set_data(mx.nd.array(p.data().asnumpy(), dtype=p.data().dtype))


def run(lib, block, inputs, head, train=True):
    """(output, [input grads], {param: grad}) of block on inputs under record(train_mode=train)."""
    arrays = [lib.nd.array(a, dtype=a.dtype) for a in inputs]
    for a in arrays:
        if np.dtype(a.dtype).kind == "f":  # indices (int32) get none: MXNet's Embedding refuses it
            a.attach_grad()
    with lib.autograd.record(train_mode=train):
        out = block(*arrays)
    out.backward(lib.nd.array(head, dtype=out.dtype), train_mode=train)  # MXNet: BatchNorm's gradient follows it
    grads = [a.grad.asnumpy() if a.grad is not None else None for a in arrays]
    pgrads = {k: p.grad().asnumpy() for k, p in block._collect_params_with_prefix().items() if p.grad_req != "null"}
    pdata = {k: p.data().asnumpy() for k, p in block._collect_params_with_prefix().items()}
    return out.asnumpy(), grads, pgrads, pdata


def compare(make, inputs, rtol=1e-5, atol=1e-6, train=True, hybridize=False):
    theirs = make(mxnet)
    ours = make(mx)
    theirs.initialize()
    ours.initialize()
    if hybridize:  # MXNet's CachedOp against mxgo's cached graph
        theirs.hybridize()
        ours.hybridize()
    x0 = [mxnet.nd.array(a, dtype=a.dtype) for a in inputs]
    theirs(*x0)  # finishes deferred initialization
    ours(*[mx.nd.array(a, dtype=a.dtype) for a in inputs])
    assert [(k[len(theirs.prefix):], p.shape, np.dtype(p.dtype)) for k, p in theirs.collect_params().items()] == \
        [(k[len(ours.prefix):], p.shape, np.dtype(p.dtype)) for k, p in ours.collect_params().items()]
    assert repr(ours) == repr(theirs)
    copy_params(theirs, ours)
    out_t, g_t, pg_t, pd_t = run(mxnet, theirs, inputs, _head(theirs, inputs, train), train)
    out_o, g_o, pg_o, pd_o = run(mx, ours, inputs, _head(theirs, inputs, train), train)
    np.testing.assert_allclose(out_o, out_t, rtol=rtol, atol=atol)
    for a, b in zip(g_o, g_t):
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    assert sorted(pg_o) == sorted(pg_t)
    for k in pg_t:
        np.testing.assert_allclose(pg_o[k], pg_t[k], rtol=rtol, atol=atol, err_msg=k)
    for k in pd_t:  # running statistics updated by the backward pass
        np.testing.assert_allclose(pd_o[k], pd_t[k], rtol=rtol, atol=atol, err_msg=k)


_HEADS = {}


def _head(block, inputs, train):
    """One head gradient per test, of the output's shape, shared by both runs."""
    key = id(inputs)
    if key not in _HEADS:
        with mxnet.autograd.pause(train_mode=train):
            shape = block(*[mxnet.nd.array(a, dtype=a.dtype) for a in inputs]).shape
        _HEADS[key] = RNG.standard_normal(shape).astype(np.float32)
    return _HEADS[key]


def data(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


LAYERS = {
    "dense": (lambda lib: lib.gluon.nn.Dense(5, activation="relu"), [data(4, 3, 2)]),
    "dense_noflatten": (lambda lib: lib.gluon.nn.Dense(5, flatten=False, use_bias=False, in_units=2), [data(4, 3, 2)]),
    "conv1d": (lambda lib: lib.gluon.nn.Conv1D(4, 3, strides=2, padding=1), [data(2, 3, 9)]),
    "conv2d": (lambda lib: lib.gluon.nn.Conv2D(6, (3, 2), padding=(1, 0), dilation=(1, 2), groups=2,
                                               activation="tanh"), [data(2, 4, 6, 7)]),
    "conv2d_nhwc_none": (lambda lib: lib.gluon.nn.Conv2D(4, 1, use_bias=False), [data(2, 3, 5, 5)]),
    "conv3d": (lambda lib: lib.gluon.nn.Conv3D(2, 2, strides=(1, 2, 1)), [data(1, 2, 4, 5, 4)]),
    "conv1dT": (lambda lib: lib.gluon.nn.Conv1DTranspose(3, 3, strides=2, output_padding=1), [data(2, 4, 5)]),
    "conv2dT": (lambda lib: lib.gluon.nn.Conv2DTranspose(4, 3, strides=2, padding=1, groups=2, in_channels=4), [data(2, 4, 4, 4)]),
    "conv3dT": (lambda lib: lib.gluon.nn.Conv3DTranspose(2, 2), [data(1, 3, 3, 3, 3)]),
    "maxpool1d": (lambda lib: lib.gluon.nn.MaxPool1D(3, 2, 1), [data(2, 3, 9)]),
    "maxpool2d": (lambda lib: lib.gluon.nn.MaxPool2D(ceil_mode=True), [data(2, 3, 5, 7)]),
    "avgpool2d": (lambda lib: lib.gluon.nn.AvgPool2D(3, 1, 1, count_include_pad=False), [data(2, 3, 5, 5)]),
    "avgpool3d": (lambda lib: lib.gluon.nn.AvgPool3D(), [data(1, 2, 4, 4, 4)]),
    "gmaxpool1d": (lambda lib: lib.gluon.nn.GlobalMaxPool1D(), [data(2, 3, 5)]),
    "gavgpool2d": (lambda lib: lib.gluon.nn.GlobalAvgPool2D(), [data(2, 3, 5, 4)]),
    "gavgpool3d": (lambda lib: lib.gluon.nn.GlobalAvgPool3D(), [data(1, 2, 3, 3, 3)]),
    "batchnorm": (lambda lib: lib.gluon.nn.BatchNorm(momentum=0.8, scale=False), [data(4, 3, 2, 2)]),
    "batchnorm_axis": (lambda lib: lib.gluon.nn.BatchNorm(axis=-1, in_channels=2), [data(5, 3, 2)]),
    "batchnormrelu": (lambda lib: lib.gluon.nn.BatchNormReLU(), [data(4, 3, 2, 2)]),
    "instancenorm": (lambda lib: lib.gluon.nn.InstanceNorm(scale=True), [data(2, 3, 4)]),
    "layernorm": (lambda lib: lib.gluon.nn.LayerNorm(), [data(3, 5)]),
    "layernorm_axis": (lambda lib: lib.gluon.nn.LayerNorm(axis=1, center=False), [data(3, 4, 2)]),
    "groupnorm": (lambda lib: lib.gluon.nn.GroupNorm(2), [data(2, 4, 3)]),
    "embedding": (lambda lib: lib.gluon.nn.Embedding(6, 3), [np.array([[0, 5], [2, 2]], dtype=np.int32)]),
    "flatten": (lambda lib: lib.gluon.nn.Flatten(), [data(2, 3, 4)]),
    "dropout0": (lambda lib: lib.gluon.nn.Dropout(0.0), [data(3, 4)]),
    "relu": (lambda lib: lib.gluon.nn.Activation("relu"), [data(3, 4)]),
    "softrelu": (lambda lib: lib.gluon.nn.Activation("softrelu"), [data(3, 4)]),
    "leaky": (lambda lib: lib.gluon.nn.LeakyReLU(0.1), [data(3, 4)]),
    "prelu": (lambda lib: lib.gluon.nn.PReLU(), [data(3, 4)]),
    "elu": (lambda lib: lib.gluon.nn.ELU(0.5), [data(3, 4)]),
    "selu": (lambda lib: lib.gluon.nn.SELU(), [data(3, 4)]),
    "gelu": (lambda lib: lib.gluon.nn.GELU(), [data(3, 4)]),
    "swish": (lambda lib: lib.gluon.nn.Swish(1.5), [data(3, 4)]),
    "reflectionpad": (lambda lib: lib.gluon.nn.ReflectionPad2D(2), [data(1, 2, 4, 4)]),
    "hybridlambda": (lambda lib: lib.gluon.nn.HybridLambda("tanh"), [data(3, 4)]),
    "lambda": (lambda lib: lib.gluon.nn.Lambda(lambda x: x * 2), [data(3, 4)]),
}


def _sequential(lib):
    net = lib.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(lib.gluon.nn.Conv2D(4, 3, activation="relu"), lib.gluon.nn.BatchNorm(), lib.gluon.nn.MaxPool2D(),
                lib.gluon.nn.Flatten(), lib.gluon.nn.Dense(8), lib.gluon.nn.Dropout(0.0), lib.gluon.nn.Dense(3))
    return net


LAYERS["sequential"] = (_sequential, [data(2, 3, 8, 8)])


@pytest.mark.parametrize("hybridize", [False, True])
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_agrees(name, hybridize):
    make, inputs = LAYERS[name]
    compare(make, inputs, rtol=1e-4, atol=1e-5, hybridize=hybridize)


def test_layer_inference_mode_agrees():
    make, inputs = LAYERS["batchnorm"]
    compare(make, inputs, train=False)


def _pred_label(shape, label):
    return [data(*shape), label]


LOSSES = {
    "L2Loss": ({}, [data(4, 3), data(4, 3)]),
    "L1Loss": ({"weight": 0.5}, [data(4, 3), data(4, 3)]),
    "SigmoidBCELoss": ({}, [data(4, 3), (RNG.random((4, 3)) > 0.5).astype(np.float32)]),
    "SigmoidBinaryCrossEntropyLoss": ({"from_sigmoid": True}, [RNG.random((4, 3)).astype(np.float32),
                                                               (RNG.random((4, 3)) > 0.5).astype(np.float32)]),
    "SoftmaxCrossEntropyLoss": ({}, [data(4, 5), np.array([0, 4, 2, 1], dtype=np.float32)]),
    "SoftmaxCELoss": ({"sparse_label": False, "axis": 1}, [data(4, 5), RNG.random((4, 5)).astype(np.float32)]),
    "KLDivLoss": ({"from_logits": False}, [data(4, 5), RNG.random((4, 5)).astype(np.float32)]),
    "HuberLoss": ({"rho": 0.5}, [data(4, 3), data(4, 3)]),
    "HingeLoss": ({}, [data(4, 3), np.sign(data(4, 3))]),
    "SquaredHingeLoss": ({"margin": 2}, [data(4, 3), np.sign(data(4, 3))]),
    "LogisticLoss": ({}, [data(4, 3), np.sign(data(4, 3))]),
    "LogisticLoss_binary": ({"label_format": "binary"}, [data(4, 3), (RNG.random((4, 3)) > 0.5).astype(np.float32)]),
    "TripletLoss": ({}, [data(4, 3), data(4, 3), data(4, 3)]),
    "PoissonNLLLoss": ({}, [data(4, 3), RNG.integers(0, 4, (4, 3)).astype(np.float32)]),
    "CosineEmbeddingLoss": ({"margin": 0.1}, [data(4, 3), data(4, 3), np.array([1, -1, 1, -1], dtype=np.float32)]),
    "SDMLLoss": ({}, [data(4, 3), data(4, 3)]),
    "CTCLoss": ({}, [data(2, 6, 4), np.array([[1, 2, 2], [0, 1, -1]], dtype=np.float32)]),
}


@pytest.mark.parametrize("hybridize", [False, True])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_agrees(name, hybridize):
    kwargs, inputs = LOSSES[name]
    cls = name.split("_")[0]
    if hybridize and cls == "SDMLLoss":
        return  # it reads its inputs' shapes, which symbols lack, in MXNet too
    compare(lambda lib: getattr(lib.gluon.loss, cls)(**kwargs), inputs, rtol=1e-4, atol=1e-5, hybridize=hybridize)


def test_poisson_full_forward_agrees():
    """MXNet's compute_full writes in place, which its own record() refuses: forward only."""
    pred, target = RNG.random((4, 3)).astype(np.float32) + 0.1, RNG.integers(0, 4, (4, 3)).astype(np.float32)
    outs = [lib.gluon.loss.PoissonNLLLoss(from_logits=False, compute_full=True)(lib.nd.array(pred), lib.nd.array(target))
            for lib in (mxnet, mx)]
    np.testing.assert_allclose(outs[1].asnumpy(), outs[0].asnumpy(), rtol=1e-5)


def test_loss_sample_weight_agrees():
    pred, label, sw = data(4, 3), data(4, 3), RNG.random((4, 1)).astype(np.float32)
    compare(lambda lib: lib.gluon.loss.L2Loss(weight=2.0), [pred, label, sw])


def test_parameter_files_both_ways(tmp_path):
    theirs, ours = _sequential(mxnet), _sequential(mx)
    theirs.initialize()
    theirs(mxnet.nd.ones((2, 3, 8, 8)))
    theirs.save_parameters(str(tmp_path / "theirs.params"))
    ours.load_parameters(str(tmp_path / "theirs.params"))
    x = data(2, 3, 8, 8)
    np.testing.assert_allclose(ours(mx.nd.array(x)).asnumpy(), theirs(mxnet.nd.array(x)).asnumpy(), rtol=1e-5,
                               atol=1e-6)
    ours.save_parameters(str(tmp_path / "ours.params"))
    back = _sequential(mxnet)
    back.load_parameters(str(tmp_path / "ours.params"))
    np.testing.assert_allclose(back(mxnet.nd.array(x)).asnumpy(), theirs(mxnet.nd.array(x)).asnumpy())
    # the legacy full-name form (collect_params().save) both ways
    theirs.collect_params().save(str(tmp_path / "full.params"), strip_prefix=theirs.prefix)
    ours.collect_params().load(str(tmp_path / "full.params"), restore_prefix=ours.prefix)
    np.testing.assert_allclose(ours(mx.nd.array(x)).asnumpy(), theirs(mxnet.nd.array(x)).asnumpy(), rtol=1e-5,
                               atol=1e-6)


def _printed(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def test_summary_prints_the_same():
    nets = [_sequential(lib) for lib in (mxnet, mx)]
    x = data(2, 3, 8, 8)
    for net, lib in zip(nets, (mxnet, mx)):
        net.initialize()
        net(lib.nd.array(x))  # MXNet's summary of a deferred block shows Symbols
    assert _printed(lambda: nets[1].summary(mx.nd.array(x))) == _printed(lambda: nets[0].summary(mxnet.nd.array(x)))


def test_names_and_prefixes_agree():
    def make(lib):
        class Net(lib.gluon.HybridBlock):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                with self.name_scope():
                    self.a = lib.gluon.nn.Dense(3, in_units=2)
                    self.b = lib.gluon.nn.Dense(3, in_units=3)
                    self.shared = lib.gluon.nn.Dense(3, in_units=2, params=self.a.params)
                    self.c = lib.gluon.nn.Conv2D(2, 1, in_channels=1)
                    self.w = self.params.get("w", shape=(2,))

            def hybrid_forward(self, F, x, w):
                return self.b(self.a(x))
        return [Net(), Net(prefix="custom_"), lib.gluon.nn.Dense(2, prefix="d_")]
    for ours, theirs in zip(make(mx), make(mxnet)):
        assert [k.split("_", 1)[1] for k in ours.collect_params().keys()] == \
            [k.split("_", 1)[1] for k in theirs.collect_params().keys()]
        assert sorted(ours._collect_params_with_prefix()) == sorted(theirs._collect_params_with_prefix())


@pytest.mark.parametrize("config", ["zero", "one", ["constant", {"value": 0.5}], ["uniform", {"scale": 0.2}],
                                    ["normal", {"sigma": 0.3}], ["xavier", {"factor_type": "in", "magnitude": 2.34}],
                                    ["msraprelu", {}], ["orthogonal", {}], ["bilinear", {}], ["lstmbias", {}]])
def test_initializer_agrees(config):
    spec = config if isinstance(config, str) else json.dumps(config)
    ours, theirs = mx.init.create(spec), mxnet.init.create(spec)
    assert ours.dumps() == theirs.dumps()
    shape = (64, 32, 3, 3) if "bilinear" in spec or "xavier" in spec or "msra" in spec else (64, 48)
    if "lstm" in spec:
        shape = (64,)
    a, b = mx.nd.zeros(shape), mxnet.nd.zeros(shape)
    ours(mx.init.InitDesc("x_weight"), a)
    theirs(mxnet.init.InitDesc("x_weight"), b)
    a, b = a.asnumpy(), b.asnumpy()
    if any(k in spec for k in ("zero", "one", "constant", "bilinear", "lstm")):
        np.testing.assert_array_equal(a, b)
    elif "orthogonal" in spec:
        np.testing.assert_allclose(a.T @ a, b.T @ b, atol=1e-4)
    else:  # random: the same bounds and spread
        assert abs(a.std() - b.std()) < 0.1 * b.std() and abs(a.mean()) < 0.1 * b.std() + 1e-3
        q = [np.quantile(np.abs(v), 0.99) for v in (a, b)]
        assert abs(q[0] - q[1]) < 0.1 * q[1]
    for suffix in ("bias", "gamma", "beta"):
        a, b = mx.nd.ones((3,)) * 7, mxnet.nd.ones((3,)) * 7
        ours(mx.init.InitDesc("x_" + suffix), a)
        theirs(mxnet.init.InitDesc("x_" + suffix), b)
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())



@pytest.mark.parametrize("mode, bidirectional, layers", [("lstm", False, 1), ("lstm", True, 2), ("gru", True, 2),
                                                         ("rnn_tanh", False, 3), ("rnn_relu", True, 1)])
@pytest.mark.parametrize("inner", [["constant", {"value": 0.5}], None, ["xavier", {}]], ids=str)
def test_fused_rnn_initializer_agrees(mode, bidirectional, layers, inner):
    """Each gate's piece of the blob filled by the inner (else the global) initializer, forget
    biases by forget_bias; Xavier's pieces compared by their bounds (its draws differ)."""
    h, n_in, b = 4, 3, 1 + bidirectional
    m = {"lstm": 4, "gru": 3}.get(mode, 1)
    size = (n_in + h + 2) * h * m * b + (layers - 1) * m * h * (h + b * h + 2) * b
    blobs = []
    for lib in (mx, mxnet):
        init = lib.init.create(json.dumps(inner)) if inner else None
        fused = lib.init.FusedRNN(init, h, layers, mode, bidirectional, forget_bias=2.5)
        blob = lib.nd.zeros((size,))
        fused._init_weight(lib.init.InitDesc("rnn_parameters", global_init=lib.init.One()), blob)
        blobs.append((fused.dumps(), blob.asnumpy()))
    (ours_cfg, ours), (theirs_cfg, theirs) = blobs
    assert ours_cfg == theirs_cfg
    if inner and inner[0] == "xavier":
        np.testing.assert_array_equal(ours == 0, theirs == 0)  # the biases, and only they
        assert np.abs(ours).max() <= np.abs(theirs).max() * 1.5 + 1e-6
    else:
        np.testing.assert_array_equal(ours, theirs)
    with pytest.raises(ValueError, match="not a"):
        mx.init.FusedRNN(None, h, layers, mode, bidirectional)._init_weight(
            mx.init.InitDesc("p", global_init=mx.init.One()), mx.nd.zeros((size + 1,)))

# ---- model files: export / SymbolBlock.imports, both ways ----------------------------------

MODELS = {
    "sequential": (_sequential, (2, 3, 8, 8)),
    "mlp": (lambda lib: _mlp(lib), (4, 10)),
}


def _mlp(lib):
    net = lib.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(lib.gluon.nn.Dense(16, activation="relu"), lib.gluon.nn.Dropout(0.3), lib.gluon.nn.LayerNorm(),
                lib.gluon.nn.Dense(4, flatten=False), lib.gluon.nn.HybridLambda(lambda F, x: F.softmax(x * 2 + 1)))
    return net


def _trained_grads(lib, block, x, names):
    arr = lib.nd.array(x)
    with lib.autograd.record():
        out = block(arr)
    out.backward(lib.nd.array(np.linspace(-1, 1, out.size).reshape(out.shape)))
    params = block.collect_params()
    return out.asnumpy(), {n: params[n].grad().asnumpy() for n in names}


@pytest.mark.parametrize("model", sorted(MODELS) + ["resnet18_v1"])
def test_mxnet_model_files_run_in_mxgo(tmp_path, model):
    if model == "resnet18_v1":
        theirs, shape = mxnet.gluon.model_zoo.vision.resnet18_v1(classes=10), (1, 3, 32, 32)
    else:
        make, shape = MODELS[model]
        theirs = make(mxnet)
    theirs.initialize(mxnet.init.Xavier())
    theirs.hybridize()
    x = data(*shape)
    theirs(mxnet.nd.array(x))
    theirs.export(str(tmp_path / "model"))  # MXNet 1.9.1 returns nothing
    sym_file, params_file = str(tmp_path / "model-symbol.json"), str(tmp_path / "model-0000.params")
    ours = mx.gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    again = mxnet.gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    np.testing.assert_allclose(ours(mx.nd.array(x)).asnumpy(), again(mxnet.nd.array(x)).asnumpy(), rtol=1e-4,
                               atol=1e-5)
    trainable = [n for n, p in again.collect_params().items() if p.grad_req != "null"]
    assert trainable == [n for n, p in ours.collect_params().items() if p.grad_req != "null"]
    if "dropout" in open(sym_file).read().lower():
        return  # training-mode outputs differ by the masks
    out_t, g_t = _trained_grads(mxnet, again, x, trainable)
    out_o, g_o = _trained_grads(mx, ours, x, trainable)
    np.testing.assert_allclose(out_o, out_t, rtol=1e-4, atol=1e-5)
    for n in trainable:
        np.testing.assert_allclose(g_o[n], g_t[n], rtol=1e-3, atol=1e-4, err_msg=n)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_mxgo_model_files_run_in_mxnet(tmp_path, model):
    make, shape = MODELS[model]
    ours = make(mx)
    ours.initialize(mx.init.Xavier())
    x = data(*shape)
    with pytest.raises(RuntimeError, match="forward with this block at least once"):
        make(mx).export(str(tmp_path / "early"))
    ours(mx.nd.array(x))
    sym_file, params_file = ours.export(str(tmp_path / "ours"), epoch=3)
    assert params_file.endswith("ours-0003.params")
    theirs = mxnet.gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    np.testing.assert_allclose(theirs(mxnet.nd.array(x)).asnumpy(), ours(mx.nd.array(x)).asnumpy(), rtol=1e-4,
                               atol=1e-5)
    sym_t, sym_o = mxnet.sym.load(sym_file), mx.sym.load(sym_file)
    for what in ("list_arguments", "list_auxiliary_states", "list_outputs", "list_inputs"):
        assert getattr(sym_o, what)() == getattr(sym_t, what)(), what


def test_symbol_arithmetic_records_mxnets_operators():
    def graph(lib):
        s = lib.sym.var("x")
        t = lib.sym.var("y", shape=(2, 4), lr_mult=0.5, dtype="float64", init="ones")
        return lib.sym.Group([s + 1, 2 - s, s * t, s ** 2, 3 / s, -s, s > 0.5, s - t, s / t,
                              lib.sym.split(s, num_outputs=2, axis=1)[1], s.reshape((0, -1)),
                              lib.sym.concat(s, t, dim=0), lib.sym.FullyConnected(s, t, no_bias=True, num_hidden=2)])
    theirs, ours = [json.loads(graph(lib).tojson()) for lib in (mxnet, mx)]

    def ops(doc):
        return [(n["op"], {k: v for k, v in n.get("attrs", {}).items()}) for n in doc["nodes"]]
    assert ops(ours) == ops(theirs)
    assert [h[1] for h in ours["heads"]] == [h[1] for h in theirs["heads"]]
    assert ours["arg_nodes"] == theirs["arg_nodes"] and ours["node_row_ptr"] == theirs["node_row_ptr"]
    x, y = data(2, 4), data(2, 4)
    outs = graph(mx).eval(x=mx.nd.array(x), y=mx.nd.array(y))
    expect = graph(mxnet).eval(x=mxnet.nd.array(x), y=mxnet.nd.array(y))
    assert len(outs) == len(expect)
    for a, b in zip(outs, expect):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def _mxnet_operator_name(name):
    """The operator MXNet's registry resolves name (an alias or not) to."""
    import ctypes
    from mxnet.base import _LIB, c_str, check_call, py_str
    handle, real = ctypes.c_void_p(), ctypes.c_char_p()
    out = [ctypes.c_char_p(), ctypes.c_uint(), ctypes.POINTER(ctypes.c_char_p)(), ctypes.POINTER(ctypes.c_char_p)(),
           ctypes.POINTER(ctypes.c_char_p)(), ctypes.c_char_p()]
    check_call(_LIB.NNGetOpHandle(c_str(name), ctypes.byref(handle)))
    check_call(_LIB.NNGetOpInfo(handle, ctypes.byref(real), *[ctypes.byref(o) for o in out]))
    return py_str(real.value)


def test_alias_table_is_mxnets():
    from mxgo.symbol import _graph
    registered = set(mxnet.operator.get_all_registered_operators())
    ours = {n for n in dir(mx.nd) if callable(getattr(mx.nd, n)) and n in registered}
    aliases = {n: _mxnet_operator_name(n) for n in ours}
    assert _graph.MXNET_NAMES == {n: r for n, r in aliases.items() if r != n}


def _conv_graph(lib):
    v = lib.sym.var
    x = lib.sym.Convolution(v("data"), v("c_weight"), v("c_bias"), kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    x = lib.sym.BatchNorm(x, v("bn_gamma"), v("bn_beta"), v("bn_moving_mean"), v("bn_moving_var"), name="bn")
    x = lib.sym.Activation(x, act_type="relu")
    x = lib.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max")
    return lib.sym.FullyConnected(x, v("fc_weight"), v("fc_bias"), num_hidden=5, name="fc")


def test_infer_shape_agrees():
    theirs, ours = _conv_graph(mxnet), _conv_graph(mx)
    assert ours.infer_shape(data=(2, 3, 6, 6)) == tuple(
        [tuple(s) for s in part] for part in theirs.infer_shape(data=(2, 3, 6, 6)))
    assert ours.infer_shape() == theirs.infer_shape() == (None, None, None)


def test_symbolblock_of_a_graph_initializes_like_mxnets():
    x = data(2, 3, 6, 6)
    blocks = []
    for lib in (mxnet, mx):
        block = lib.gluon.SymbolBlock(_conv_graph(lib), [lib.sym.var("data")])
        block.initialize()
        block(lib.nd.array(x))
        blocks.append(block)
    theirs, ours = blocks
    assert [(k, p.shape) for k, p in ours.collect_params().items()] == \
        [(k, p.shape) for k, p in theirs.collect_params().items()]
    for name, p in theirs.collect_params().items():
        ours.collect_params()[name].set_data(mx.nd.array(p.data().asnumpy()))
    np.testing.assert_allclose(ours(mx.nd.array(x)).asnumpy(), theirs(mxnet.nd.array(x)).asnumpy(), rtol=1e-5,
                               atol=1e-6)


# ---- Trainer: the same training in both libraries gives the same parameters ---------------

TRAINING = {
    "sgd": {"learning_rate": 0.1},
    "sgd_momentum_wd": {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3, "clip_gradient": 0.5},
    "nag": {"learning_rate": 0.05, "momentum": 0.9},
    "adam": {"learning_rate": 0.01},
    "rmsprop": {"learning_rate": 0.01, "centered": True},
    "adagrad": {"learning_rate": 0.1},
    "adadelta": {},
    "ftml": {"learning_rate": 0.01},
    "signum": {"learning_rate": 0.01, "momentum": 0.9},
    "lamb": {"learning_rate": 0.01},
}


def _train(lib, optimizer, kwargs, weights, x, y, steps=4):
    net = _mlp_plain(lib)
    net.initialize()
    net(lib.nd.array(x))
    for name, p in net._collect_params_with_prefix().items():
        p.set_data(lib.nd.array(weights[name]))
    net[0].weight.lr_mult = 0.5  # per-Parameter multipliers reach the optimizer
    net[1].bias.wd_mult = 0.0
    trainer = lib.gluon.Trainer(net.collect_params(), optimizer.split("_")[0], dict(kwargs))
    loss_fn = lib.gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(steps):
        with lib.autograd.record():
            loss = loss_fn(net(lib.nd.array(x)), lib.nd.array(y))
        loss.backward()
        trainer.step(x.shape[0])
    return {name: p.data().asnumpy() for name, p in net._collect_params_with_prefix().items()}


def _mlp_plain(lib):
    net = lib.gluon.nn.HybridSequential()
    net.add(lib.gluon.nn.Dense(8, activation="tanh"), lib.gluon.nn.Dense(3))
    return net


@pytest.mark.parametrize("optimizer", sorted(TRAINING))
def test_trainer_trains_as_mxnet_does(optimizer):
    x, y = data(6, 5), RNG.integers(0, 3, 6).astype(np.float32)
    weights = {"0.weight": data(8, 5), "0.bias": data(8), "1.weight": data(3, 8), "1.bias": data(3)}
    theirs = _train(mxnet, optimizer, TRAINING[optimizer], weights, x, y)
    ours = _train(mx, optimizer, TRAINING[optimizer], weights, x, y)
    for name in theirs:
        np.testing.assert_allclose(ours[name], theirs[name], rtol=1e-4, atol=1e-5, err_msg=name)


def test_trainer_states_and_stale_gradients(tmp_path):
    x = data(4, 5)
    nets = []
    for lib in (mxnet, mx):
        net = _mlp_plain(lib)
        net.initialize()
        trainer = lib.gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.1})
        with lib.autograd.record():
            out = net(lib.nd.array(x))
        out.backward()
        trainer.step(4)
        with pytest.raises(UserWarning, match="has not been updated by backward"):
            trainer.step(4)  # no backward since the last step
        trainer.step(4, ignore_stale_grad=True)
        nets.append((net, trainer))
    nets[1][1].save_states(str(tmp_path / "ours.states"))
    nets[1][1].load_states(str(tmp_path / "ours.states"))
    assert nets[1][1].optimizer.num_update == nets[0][1].optimizer.num_update
    assert nets[1][1].learning_rate == nets[0][1].learning_rate


def test_trainer_on_two_contexts_sums_gradients_as_mxnets_kvstore():
    x, y = data(6, 5), RNG.integers(0, 3, 6).astype(np.float32)
    weights = {"0.weight": data(8, 5), "0.bias": data(8), "1.weight": data(3, 8), "1.bias": data(3)}
    results = []
    for lib in (mxnet, mx):
        ctxs = [lib.cpu(0), lib.cpu(1)]
        net = _mlp_plain(lib)
        net.initialize(ctx=ctxs)
        net(lib.nd.array(x, ctx=ctxs[0]))
        for name, p in net._collect_params_with_prefix().items():
            p.set_data(lib.nd.array(weights[name]))
        trainer = lib.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
        loss_fn = lib.gluon.loss.SoftmaxCrossEntropyLoss()
        for _ in range(3):
            xs = lib.gluon.utils.split_and_load(lib.nd.array(x), ctxs)
            ys = lib.gluon.utils.split_and_load(lib.nd.array(y), ctxs)
            with lib.autograd.record():
                losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
            for loss in losses:
                loss.backward()
            grads = [p.grad(ctxs[1]) for p in net.collect_params().values()]
            norm = lib.gluon.utils.clip_global_norm(grads, 1.0)
            trainer.step(x.shape[0])
        results.append(({n: [d.asnumpy() for d in p.list_data()] for n, p in net._collect_params_with_prefix().items()},
                        norm))
    (theirs, norm_t), (ours, norm_o) = results
    assert norm_o == pytest.approx(norm_t, rel=1e-5)
    for name in theirs:
        for a, b in zip(ours[name], theirs[name]):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, err_msg=name)
