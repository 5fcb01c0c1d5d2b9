"""gluon.model_zoo.vision against MXNet 1.9.1's (collected only in .venv-mxnet; see
environments.py).

Every constructor builds in both libraries the same classes with the same Parameters
(names without the prefix, shapes, structural names). The smallest member of each family
(and small configurations of the classes where the named models need big inputs or only
come big: the bottleneck ResNets, DenseNet) runs on both with MXNet's Parameters copied
into mxgo's, BatchNorm statistics randomized so they matter: same outputs and reprs.
MXNet's exported models run in mxgo's SymbolBlock, mxgo's in MXNet's; gluon.utils.download
fetches what MXNet's does from a local server.
"""
import inspect

import mxnet
import numpy as np
import pytest
import test_gluon_zoo
from test_mxnet_gluon import copy_params, run

import mxgo as mx

server, served, sha1 = test_gluon_zoo.server, test_gluon_zoo.served, test_gluon_zoo.sha1  # the local HTTP server

RNG = np.random.default_rng(0)


def vision(lib):
    return lib.gluon.model_zoo.vision


def _get(name, **kwargs):
    return lambda lib: vision(lib).get_model(name, classes=10, **kwargs)


def _resnet(version, block):
    def make(lib):
        v = vision(lib)
        net = v.ResNetV1 if version == 1 else v.ResNetV2
        return net(getattr(v, block), [1, 2], [16, 32, 64], classes=10, thumbnail=True)
    return make


FORWARD = {
    "resnet18_v1": (_get("resnet18_v1"), 32),
    "resnet18_v2": (_get("resnet18_v2"), 32),
    "resnet_v1_bottleneck": (_resnet(1, "BottleneckV1"), 32),
    "resnet_v2_bottleneck": (_resnet(2, "BottleneckV2"), 32),
    "vgg11_bn": (_get("vgg11_bn"), 32),
    "alexnet": (_get("alexnet"), 64),
    "densenet_small": (lambda lib: vision(lib).DenseNet(8, 4, [2, 1, 1, 2], classes=10), 224),
    "squeezenet1_1": (_get("squeezenet1.1"), 224),
    "inceptionv3": (_get("inceptionv3"), 299),
    "mobilenet0.25": (_get("mobilenet0.25"), 32),
    "mobilenetv2_0.25": (_get("mobilenetv2_0.25"), 32),
}

#: every constructor, by its name in vision (get_model's names are checked against these)
CONSTRUCTORS = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1", "resnet18_v2",
                "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2", "vgg11", "vgg13", "vgg16", "vgg19",
                "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "alexnet", "densenet121", "densenet161", "densenet169",
                "densenet201", "squeezenet1_0", "squeezenet1_1", "inception_v3", "mobilenet1_0", "mobilenet0_75",
                "mobilenet0_5", "mobilenet0_25", "mobilenet_v2_1_0", "mobilenet_v2_0_75", "mobilenet_v2_0_5",
                "mobilenet_v2_0_25"]
#: the classes, the get_ functions and the residual blocks with their own arguments
CLASSES = {
    "AlexNet": lambda v: v.AlexNet(classes=5),
    "VGG": lambda v: v.VGG([1, 2], [8, 16], classes=5, batch_norm=True),
    "get_vgg": lambda v: v.get_vgg(13, classes=5),
    "get_resnet": lambda v: v.get_resnet(2, 34, classes=5, thumbnail=True),
    "BasicBlockV1": lambda v: v.BasicBlockV1(8, 2, True, in_channels=4),
    "BasicBlockV2": lambda v: v.BasicBlockV2(8, 2, True, in_channels=4),
    "SqueezeNet": lambda v: v.SqueezeNet("1.0", classes=5),
    "Inception3": lambda v: v.Inception3(classes=5),
    "MobileNet": lambda v: v.MobileNet(0.5, classes=5),
    "MobileNetV2": lambda v: v.MobileNetV2(1.5, classes=5),
    "get_mobilenet": lambda v: v.get_mobilenet(0.75, classes=5),
    "get_mobilenet_v2": lambda v: v.get_mobilenet_v2(0.75, classes=5),
}


def _params(net):
    return ([(k[len(net.prefix):], tuple(p.shape)) for k, p in net.collect_params().items()],
            sorted(net._collect_params_with_prefix()))


def test_constructors_match_mxnets():
    """MXNet's vision namespace: the same public names, each a class or constructor."""
    public = {n for n, v in vars(vision(mxnet)).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert public <= set(dir(vision(mx)))
    for n in public:
        assert callable(getattr(vision(mx), n)) == callable(getattr(vision(mxnet), n)), n


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_parameters_match(name):
    theirs, ours = getattr(vision(mxnet), name)(classes=10), getattr(vision(mx), name)(classes=10)
    assert type(ours).__name__ == type(theirs).__name__
    assert _params(ours) == _params(theirs)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_classes_match(name):
    theirs, ours = CLASSES[name](vision(mxnet)), CLASSES[name](vision(mx))
    assert type(ours).__name__ == type(theirs).__name__
    assert _params(ours) == _params(theirs)


def test_get_model_names():
    """MXNet's names ('mobilenet0.25', 'inceptionv3'), case-insensitive, to the same constructors."""
    message = str(pytest.raises(ValueError, vision(mxnet).get_model, "nonsense").value)
    names = message.split("\n\t")[1:]
    assert len(names) == len(CONSTRUCTORS)
    assert str(pytest.raises(ValueError, vision(mx).get_model, "nonsense").value) == message
    for name in names:
        ours, theirs = vision(mx).get_model(name.upper(), classes=3), vision(mxnet).get_model(name, classes=3)
        assert type(ours).__name__ == type(theirs).__name__
        assert _params(ours) == _params(theirs)


def _randomize_statistics(net):
    """BatchNorm statistics and affine Parameters away from 0 and 1, so that they matter."""
    for name, p in net.collect_params().items():
        if name.endswith("gamma") and p.grad_req == "null":
            continue  # BatchNorm(scale=False) computes with 1 (MXNet also writes 1 there while training)
        if name.endswith(("running_var", "gamma")):
            p.set_data(mxnet.nd.array(RNG.uniform(0.5, 1.5, p.shape)))
        elif name.endswith(("running_mean", "beta")):
            p.set_data(mxnet.nd.array(RNG.normal(0, 0.1, p.shape)))


def _pair(make, size):
    """(MXNet's net, mxgo's with MXNet's Parameters, input, MXNet's output)."""
    x = RNG.standard_normal((1, 3, size, size)).astype(np.float32)
    theirs, ours = make(mxnet), make(mx)
    theirs.initialize()
    ours.initialize()
    theirs(mxnet.nd.array(x))
    ours(mx.nd.array(x))
    _randomize_statistics(theirs)
    copy_params(theirs, ours)
    return theirs, ours, x, theirs(mxnet.nd.array(x)).asnumpy()


def _close(out, expected):
    assert np.abs(expected).max() > 0  # a comparison of zeros would prove nothing
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * float(np.abs(expected).max()))


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches(name):
    make, size = FORWARD[name]
    theirs, ours, x, expected = _pair(make, size)
    assert _params(ours) == _params(theirs)
    assert repr(ours) == repr(theirs)
    out = ours(mx.nd.array(x)).asnumpy()
    assert out.shape == (1, 10)
    _close(out, expected)


@pytest.mark.parametrize("name", ["resnet_v1_bottleneck", "resnet_v2_bottleneck"])
def test_training_step_matches(name):
    """Under record(): batch statistics, every Parameter's gradient and the updated running
    statistics agree. (Small ResNets whose last BatchNorms still see 16x16 maps: where they
    see 1x1 maps of a batch of 2, the batch variance is too ill-conditioned to compare.)"""
    theirs, ours, x, _ = _pair(*FORWARD[name])
    x = np.concatenate([x, RNG.standard_normal(x.shape).astype(np.float32)])
    head = RNG.standard_normal((2, 10)).astype(np.float32)
    expected, got = run(mxnet, theirs, [x], head), run(mx, ours, [x], head)
    _close(got[0], expected[0])
    for ours_values, their_values in zip(got[2:], expected[2:]):
        assert sorted(ours_values) == sorted(their_values)
        scale = max(float(np.abs(v).max()) for v in their_values.values())  # a conv's bias before BatchNorm: ~0
        for k, v in their_values.items():
            np.testing.assert_allclose(ours_values[k], v, rtol=1e-4, atol=1e-4 * scale, err_msg=k)


@pytest.mark.parametrize("name", ["resnet18_v1", "mobilenet0.25", "squeezenet1_1", "densenet_small"])
def test_mxnet_export_runs_in_mxgo(name, tmp_path):
    theirs, _, x, expected = _pair(*FORWARD[name])
    theirs.hybridize()
    theirs(mxnet.nd.array(x))
    theirs.export(str(tmp_path / "model"))
    ours = mx.gluon.SymbolBlock.imports(str(tmp_path / "model-symbol.json"), ["data"],
                                        str(tmp_path / "model-0000.params"))
    _close(ours(mx.nd.array(x)).asnumpy(), expected)


@pytest.mark.parametrize("name", ["mobilenetv2_0.25", "densenet_small"])
def test_mxgo_export_runs_in_mxnet(name, tmp_path):
    _, ours, x, expected = _pair(*FORWARD[name])
    ours.hybridize()
    ours(mx.nd.array(x))
    sym_file, params_file = ours.export(str(tmp_path / "ours"))
    theirs = mxnet.gluon.SymbolBlock.imports(sym_file, ["data"], params_file)
    _close(theirs(mxnet.nd.array(x)).asnumpy(), expected)


def test_parameter_files_interoperate(tmp_path):
    theirs, ours, x, expected = _pair(*FORWARD["resnet18_v2"])
    theirs.save_parameters(str(tmp_path / "theirs.params"))
    fresh = _get("resnet18_v2")(mx)
    fresh.load_parameters(str(tmp_path / "theirs.params"))
    _close(fresh(mx.nd.array(x)).asnumpy(), expected)
    ours.save_parameters(str(tmp_path / "ours.params"))
    back = _get("resnet18_v2")(mxnet)
    back.load_parameters(str(tmp_path / "ours.params"))
    _close(back(mxnet.nd.array(x)).asnumpy(), expected)


def test_download_and_check_sha1_agree_with_mxnets(served, tmp_path):
    url = served.url + "/data/file.bin"
    digest = sha1(served.files["/data/file.bin"])
    for lib in (mxnet, mx):
        path = str(tmp_path / lib.__name__)
        assert lib.gluon.utils.download(url, path=path, sha1_hash=digest) == path
        assert lib.gluon.utils.check_sha1(path, digest) and not lib.gluon.utils.check_sha1(path, sha1(b""))
        with pytest.raises(RuntimeError, match="Failed downloading url"):
            lib.gluon.utils.download(served.url + "/missing", path=path + ".missing", retries=1)
    assert (tmp_path / "mxnet").read_bytes() == (tmp_path / "mxgo").read_bytes()
