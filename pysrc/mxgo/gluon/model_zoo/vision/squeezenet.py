"""SqueezeNet 1.0 ("SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and
<0.5MB model size") and 1.1, with MXNet's blocks, names and Parameters."""
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, HybridConcurrent, load_pretrained

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


def _make_fire(squeeze_channels, expand1x1_channels, expand3x3_channels):
    """A fire module: a 1x1 squeeze, then 1x1 and 3x3 expansions side by side."""
    out = nn.HybridSequential(prefix="")
    out.add(_make_fire_conv(squeeze_channels, 1))
    paths = HybridConcurrent(axis=1, prefix="")
    paths.add(_make_fire_conv(expand1x1_channels, 1), _make_fire_conv(expand3x3_channels, 3, 1))
    out.add(paths)
    return out


def _make_fire_conv(channels, kernel_size, padding=0):
    out = nn.HybridSequential(prefix="")
    out.add(nn.Conv2D(channels, kernel_size, padding=padding), nn.Activation("relu"))
    return out


def _pool():
    return nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)


class SqueezeNet(HybridBlock):
    """SqueezeNet of version '1.0' or '1.1' (fewer computations, same accuracy); for
    224x224 input."""

    def __init__(self, version, classes=1000, **kwargs):
        super().__init__(**kwargs)
        if version not in ["1.0", "1.1"]:
            raise AssertionError("Unsupported SqueezeNet version {version}:1.0 or 1.1 expected".format(
                version=version))
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            if version == "1.0":
                self.features.add(nn.Conv2D(96, kernel_size=7, strides=2), nn.Activation("relu"), _pool(),
                                  _make_fire(16, 64, 64), _make_fire(16, 64, 64), _make_fire(32, 128, 128), _pool(),
                                  _make_fire(32, 128, 128), _make_fire(48, 192, 192), _make_fire(48, 192, 192),
                                  _make_fire(64, 256, 256), _pool(), _make_fire(64, 256, 256))
            else:
                self.features.add(nn.Conv2D(64, kernel_size=3, strides=2), nn.Activation("relu"), _pool(),
                                  _make_fire(16, 64, 64), _make_fire(16, 64, 64), _pool(),
                                  _make_fire(32, 128, 128), _make_fire(32, 128, 128), _pool(),
                                  _make_fire(48, 192, 192), _make_fire(48, 192, 192), _make_fire(64, 256, 256),
                                  _make_fire(64, 256, 256))
            self.features.add(nn.Dropout(0.5))
            self.output = nn.HybridSequential(prefix="")
            self.output.add(nn.Conv2D(classes, kernel_size=1), nn.Activation("relu"), nn.AvgPool2D(13), nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """SqueezeNet of version '1.0' or '1.1'; pretrained: with MXNet's ImageNet Parameters
    (from root, else downloaded) on ctx."""
    return load_pretrained(SqueezeNet(version, **kwargs), "squeezenet%s" % version, pretrained, ctx, root)


def squeezenet1_0(**kwargs):
    """SqueezeNet 1.0 (get_squeezenet's keyword arguments)."""
    return get_squeezenet("1.0", **kwargs)


def squeezenet1_1(**kwargs):
    """SqueezeNet 1.1 (get_squeezenet's keyword arguments)."""
    return get_squeezenet("1.1", **kwargs)
