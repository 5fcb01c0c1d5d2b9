"""DenseNets ("Densely Connected Convolutional Networks"), with MXNet's blocks, names and
Parameters."""
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, HybridConcurrent, Identity, constructor, load_pretrained

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201"]


def _bn_relu_conv(channels, **kwargs):
    return [nn.BatchNorm(), nn.Activation("relu"), nn.Conv2D(channels, use_bias=False, **kwargs)]


def _make_dense_block(num_layers, bn_size, growth_rate, dropout, stage_index):
    out = nn.HybridSequential(prefix="stage%d_" % stage_index)
    with out.name_scope():
        for _ in range(num_layers):
            out.add(_make_dense_layer(growth_rate, bn_size, dropout))
    return out


def _make_dense_layer(growth_rate, bn_size, dropout):
    """The input and growth_rate new channels computed from it, concatenated."""
    new_features = nn.HybridSequential(prefix="")
    new_features.add(*_bn_relu_conv(bn_size * growth_rate, kernel_size=1))
    new_features.add(*_bn_relu_conv(growth_rate, kernel_size=3, padding=1))
    if dropout:
        new_features.add(nn.Dropout(dropout))
    out = HybridConcurrent(axis=1, prefix="")
    out.add(Identity(), new_features)
    return out


def _make_transition(num_output_features):
    out = nn.HybridSequential(prefix="")
    out.add(*_bn_relu_conv(num_output_features, kernel_size=1))
    out.add(nn.AvgPool2D(pool_size=2, strides=2))
    return out


class DenseNet(HybridBlock):
    """A stem of num_init_features channels, then dense blocks of block_config[i] layers
    adding growth_rate channels each (bottlenecks of bn_size * growth_rate), halved by a
    transition between blocks; for 224x224 input (the final 7x7 average pooling)."""

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(num_init_features, kernel_size=7, strides=2, padding=3, use_bias=False),
                              nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(pool_size=3, strides=2, padding=1))
            num_features = num_init_features
            for i, num_layers in enumerate(block_config):
                self.features.add(_make_dense_block(num_layers, bn_size, growth_rate, dropout, i + 1))
                num_features += num_layers * growth_rate
                if i != len(block_config) - 1:
                    num_features //= 2
                    self.features.add(_make_transition(num_features))
            self.features.add(nn.BatchNorm(), nn.Activation("relu"), nn.AvgPool2D(pool_size=7), nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


densenet_spec = {121: (64, 32, [6, 12, 24, 16]),
                 161: (96, 48, [6, 12, 36, 24]),
                 169: (64, 32, [6, 12, 32, 32]),
                 201: (64, 32, [6, 12, 48, 32])}


def get_densenet(num_layers, pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """DenseNet of num_layers (121, 161, 169 or 201) layers; pretrained: with MXNet's
    ImageNet Parameters (from root, else downloaded) on ctx."""
    num_init_features, growth_rate, block_config = densenet_spec[num_layers]
    net = DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    return load_pretrained(net, "densenet%d" % num_layers, pretrained, ctx, root)


densenet121 = constructor("densenet121", "DenseNet-121 (get_densenet's keyword arguments).", get_densenet, 121)
densenet161 = constructor("densenet161", "DenseNet-161 (get_densenet's keyword arguments).", get_densenet, 161)
densenet169 = constructor("densenet169", "DenseNet-169 (get_densenet's keyword arguments).", get_densenet, 169)
densenet201 = constructor("densenet201", "DenseNet-201 (get_densenet's keyword arguments).", get_densenet, 201)
