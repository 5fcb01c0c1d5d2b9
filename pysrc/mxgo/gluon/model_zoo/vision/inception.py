"""Inception V3 ("Rethinking the Inception Architecture for Computer Vision"), with
MXNet's blocks, names and Parameters."""
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, HybridConcurrent, load_pretrained

__all__ = ["Inception3", "inception_v3"]


def _make_basic_conv(**kwargs):
    """Convolution (no bias), BatchNorm (epsilon 0.001), relu."""
    out = nn.HybridSequential(prefix="")
    out.add(nn.Conv2D(use_bias=False, **kwargs), nn.BatchNorm(epsilon=0.001), nn.Activation("relu"))
    return out


def _make_branch(use_pool, *conv_settings):
    """An optional pooling ('avg': 3x3 stride 1, 'max': 3x3 stride 2), then a basic
    convolution per setting (channels, kernel_size, strides, padding; None: the default)."""
    out = nn.HybridSequential(prefix="")
    if use_pool == "avg":
        out.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif use_pool == "max":
        out.add(nn.MaxPool2D(pool_size=3, strides=2))
    for setting in conv_settings:
        kwargs = {k: v for k, v in zip(("channels", "kernel_size", "strides", "padding"), setting) if v is not None}
        out.add(_make_basic_conv(**kwargs))
    return out


def _concurrent(prefix, *branches):
    """Branches side by side; each a (use_pool, *conv_settings) tuple made inside the
    block's name scope, or a function making a block there."""
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for branch in branches:
            out.add(branch() if callable(branch) else _make_branch(*branch))
    return out


def _make_A(pool_features, prefix):
    return _concurrent(prefix, (None, (64, 1, None, None)),
                       (None, (48, 1, None, None), (64, 5, None, 2)),
                       (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
                       ("avg", (pool_features, 1, None, None)))


def _make_B(prefix):
    return _concurrent(prefix, (None, (384, 3, 2, None)),
                       (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
                       ("max",))


def _make_C(channels_7x7, prefix):
    c = channels_7x7
    return _concurrent(prefix, (None, (192, 1, None, None)),
                       (None, (c, 1, None, None), (c, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0))),
                       (None, (c, 1, None, None), (c, (7, 1), None, (3, 0)), (c, (1, 7), None, (0, 3)),
                        (c, (7, 1), None, (3, 0)), (192, (1, 7), None, (0, 3))),
                       ("avg", (192, 1, None, None)))


def _make_D(prefix):
    return _concurrent(prefix, (None, (192, 1, None, None), (320, 3, 2, None)),
                       (None, (192, 1, None, None), (192, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0)),
                        (192, 3, 2, None)),
                       ("max",))


def _split_3x3(stem):
    """A branch of E: stem, then 1x3 and 3x1 convolutions of its output side by side."""
    def make():
        out = nn.HybridSequential(prefix="")
        out.add(_make_branch(None, *stem))
        split = HybridConcurrent(axis=1, prefix="")
        split.add(_make_branch(None, (384, (1, 3), None, (0, 1))), _make_branch(None, (384, (3, 1), None, (1, 0))))
        out.add(split)
        return out
    return make


def _make_E(prefix):
    return _concurrent(prefix, (None, (320, 1, None, None)),
                       _split_3x3([(384, 1, None, None)]),
                       _split_3x3([(448, 1, None, None), (384, 3, None, 1)]),
                       ("avg", (192, 1, None, None)))


def make_aux(classes):
    """MXNet's auxiliary classifier head (Inception3 does not use it)."""
    out = nn.HybridSequential(prefix="")
    out.add(nn.AvgPool2D(pool_size=5, strides=3), _make_basic_conv(channels=128, kernel_size=1),
            _make_basic_conv(channels=768, kernel_size=5), nn.Flatten(), nn.Dense(classes))
    return out


class Inception3(HybridBlock):
    """Inception V3, for 299x299 input."""

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(_make_basic_conv(channels=32, kernel_size=3, strides=2),
                              _make_basic_conv(channels=32, kernel_size=3),
                              _make_basic_conv(channels=64, kernel_size=3, padding=1),
                              nn.MaxPool2D(pool_size=3, strides=2),
                              _make_basic_conv(channels=80, kernel_size=1),
                              _make_basic_conv(channels=192, kernel_size=3),
                              nn.MaxPool2D(pool_size=3, strides=2),
                              _make_A(32, "A1_"), _make_A(64, "A2_"), _make_A(64, "A3_"), _make_B("B_"),
                              _make_C(128, "C1_"), _make_C(160, "C2_"), _make_C(160, "C3_"), _make_C(192, "C4_"),
                              _make_D("D_"), _make_E("E1_"), _make_E("E2_"),
                              nn.AvgPool2D(pool_size=8), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """Inception V3; pretrained: with MXNet's ImageNet Parameters (from root, else
    downloaded) on ctx."""
    return load_pretrained(Inception3(**kwargs), "inceptionv3", pretrained, ctx, root)
