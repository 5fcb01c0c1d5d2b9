"""VGG ("Very Deep Convolutional Networks for Large-Scale Image Recognition"), with and
without BatchNorm, with MXNet's blocks, names, Parameters and initializers."""
from ....initializer import Xavier
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, constructor, load_pretrained

__all__ = ["VGG", "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "get_vgg"]


class VGG(HybridBlock):
    """layers[i] 3x3 convolutions of filters[i] channels (each followed by BatchNorm if
    batch_norm, and relu), then 2x2 max pooling, per stage; two Dense(4096) with dropout,
    then the output."""

    def __init__(self, layers, filters, classes=1000, batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(filters):
            raise AssertionError("layers and filters must have the same length")
        with self.name_scope():
            self.features = self._make_features(layers, filters, batch_norm)
            for _ in range(2):
                self.features.add(nn.Dense(4096, activation="relu", weight_initializer="normal",
                                           bias_initializer="zeros"), nn.Dropout(rate=0.5))
            self.output = nn.Dense(classes, weight_initializer="normal", bias_initializer="zeros")

    def _make_features(self, layers, filters, batch_norm):
        featurizer = nn.HybridSequential(prefix="")
        for num, channels in zip(layers, filters):
            for _ in range(num):
                featurizer.add(nn.Conv2D(channels, kernel_size=3, padding=1, bias_initializer="zeros",
                                         weight_initializer=Xavier(rnd_type="gaussian", factor_type="out",
                                                                   magnitude=2)))
                if batch_norm:
                    featurizer.add(nn.BatchNorm())
                featurizer.add(nn.Activation("relu"))
            featurizer.add(nn.MaxPool2D(strides=2))
        return featurizer

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


vgg_spec = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
            13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
            16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
            19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}


def get_vgg(num_layers, pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """VGG of num_layers (11, 13, 16 or 19) layers (batch_norm=True: with BatchNorm);
    pretrained: with MXNet's ImageNet Parameters (from root, else downloaded) on ctx."""
    layers, filters = vgg_spec[num_layers]
    net = VGG(layers, filters, **kwargs)
    return load_pretrained(net, "vgg%d%s" % (num_layers, "_bn" if kwargs.get("batch_norm") else ""), pretrained,
                           ctx, root)


vgg11 = constructor("vgg11", "VGG-11 (get_vgg's keyword arguments).", get_vgg, 11)
vgg13 = constructor("vgg13", "VGG-13 (get_vgg's keyword arguments).", get_vgg, 13)
vgg16 = constructor("vgg16", "VGG-16 (get_vgg's keyword arguments).", get_vgg, 16)
vgg19 = constructor("vgg19", "VGG-19 (get_vgg's keyword arguments).", get_vgg, 19)
vgg11_bn = constructor("vgg11_bn", "VGG-11, BatchNorm (get_vgg's arguments).", get_vgg, 11, batch_norm=True)
vgg13_bn = constructor("vgg13_bn", "VGG-13, BatchNorm (get_vgg's arguments).", get_vgg, 13, batch_norm=True)
vgg16_bn = constructor("vgg16_bn", "VGG-16, BatchNorm (get_vgg's arguments).", get_vgg, 16, batch_norm=True)
vgg19_bn = constructor("vgg19_bn", "VGG-19, BatchNorm (get_vgg's arguments).", get_vgg, 19, batch_norm=True)
