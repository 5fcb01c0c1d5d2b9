"""ResNets V1 ("Deep Residual Learning for Image Recognition") and V2 ("Identity Mappings
in Deep Residual Networks"), with MXNet's blocks, names and Parameters."""
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, constructor, load_pretrained

__all__ = ["ResNetV1", "ResNetV2", "BasicBlockV1", "BasicBlockV2", "BottleneckV1", "BottleneckV2", "resnet18_v1",
           "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1", "resnet18_v2", "resnet34_v2", "resnet50_v2",
           "resnet101_v2", "resnet152_v2", "get_resnet"]


def _conv3x3(channels, stride, in_channels):
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False, in_channels=in_channels)


def _sequence(*blocks):
    out = nn.HybridSequential(prefix="")
    out.add(*blocks)
    return out


class _ResidualV1(HybridBlock):
    """relu(body(x) + downsample(x)), downsample a strided 1x1 convolution and BatchNorm
    where the shape changes, else the identity."""

    def __init__(self, body, channels, stride, downsample, in_channels, **kwargs):
        super().__init__(**kwargs)
        self.body = _sequence(*body)
        self.downsample = _sequence(nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False,
                                              in_channels=in_channels), nn.BatchNorm()) if downsample else None

    def hybrid_forward(self, F, x):
        residual = self.downsample(x) if self.downsample else x
        return F.Activation(self.body(x) + residual, act_type="relu")


class BasicBlockV1(_ResidualV1):
    """Two 3x3 convolutions (ResNet-18/34 V1)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        body = [_conv3x3(channels, stride, in_channels), nn.BatchNorm(), nn.Activation("relu"),
                _conv3x3(channels, 1, channels), nn.BatchNorm()]
        super().__init__(body, channels, stride, downsample, in_channels, **kwargs)


class BottleneckV1(_ResidualV1):
    """1x1, 3x3, 1x1 convolutions, the middle one on channels // 4 (ResNet-50/101/152 V1)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        body = [nn.Conv2D(channels // 4, kernel_size=1, strides=stride), nn.BatchNorm(), nn.Activation("relu"),
                _conv3x3(channels // 4, 1, channels // 4), nn.BatchNorm(), nn.Activation("relu"),
                nn.Conv2D(channels, kernel_size=1, strides=1), nn.BatchNorm()]
        super().__init__(body, channels, stride, downsample, in_channels, **kwargs)


class _ResidualV2(HybridBlock):
    """Pre-activation: each convolution after BatchNorm and relu; the shortcut (a strided
    1x1 convolution where the shape changes) starts from the first activation."""

    def __init__(self, convs, channels, stride, downsample, in_channels, **kwargs):
        super().__init__(**kwargs)
        self._depth = len(convs)
        for i, conv in enumerate(convs, 1):
            setattr(self, "bn%d" % i, nn.BatchNorm())
            setattr(self, "conv%d" % i, conv)
        self.downsample = nn.Conv2D(channels, 1, stride, use_bias=False,
                                    in_channels=in_channels) if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        for i in range(1, self._depth + 1):
            x = F.Activation(getattr(self, "bn%d" % i)(x), act_type="relu")
            if i == 1 and self.downsample:
                residual = self.downsample(x)
            x = getattr(self, "conv%d" % i)(x)
        return x + residual


class BasicBlockV2(_ResidualV2):
    """Two 3x3 convolutions (ResNet-18/34 V2)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__([_conv3x3(channels, stride, in_channels), _conv3x3(channels, 1, channels)], channels, stride,
                         downsample, in_channels, **kwargs)


class BottleneckV2(_ResidualV2):
    """1x1, 3x3, 1x1 convolutions, the middle one on channels // 4 (ResNet-50/101/152 V2)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__([nn.Conv2D(channels // 4, kernel_size=1, strides=1, use_bias=False),
                          _conv3x3(channels // 4, stride, channels // 4),
                          nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)], channels, stride,
                         downsample, in_channels, **kwargs)


class _ResNet(HybridBlock):
    """features (a stem, four stages of residual blocks, global pooling) then a Dense
    output; what V1 and V2 share."""

    def __init__(self, block, layers, channels, classes, thumbnail, v2, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise AssertionError("layers must have one entry fewer than channels")
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            if v2:
                self.features.add(nn.BatchNorm(scale=False, center=False))
            if thumbnail:
                self.features.add(_conv3x3(channels[0], 1, 0))
            else:
                self.features.add(nn.Conv2D(channels[0], 7, 2, 3, use_bias=False), nn.BatchNorm(),
                                  nn.Activation("relu"), nn.MaxPool2D(3, 2, 1))
            for i, num_layer in enumerate(layers):
                self.features.add(self._make_layer(block, num_layer, channels[i + 1], 1 if i == 0 else 2, i + 1,
                                                   in_channels=channels[i]))
            if v2:
                self.features.add(nn.BatchNorm(), nn.Activation("relu"))
            self.features.add(nn.GlobalAvgPool2D())
            if v2:
                self.features.add(nn.Flatten())
            self.output = nn.Dense(classes, in_units=channels[-1])

    def _make_layer(self, block, layers, channels, stride, stage_index, in_channels=0):
        layer = nn.HybridSequential(prefix="stage%d_" % stage_index)
        with layer.name_scope():
            layer.add(block(channels, stride, channels != in_channels, in_channels=in_channels, prefix=""))
            for _ in range(layers - 1):
                layer.add(block(channels, 1, False, in_channels=channels, prefix=""))
        return layer

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class ResNetV1(_ResNet):
    """ResNet V1: block (BasicBlockV1 or BottleneckV1) repeated layers[i] times in stage i
    with channels[i + 1] channels; thumbnail: a 3x3 stem for small (32x32) images."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(block, layers, channels, classes, thumbnail, False, **kwargs)


class ResNetV2(_ResNet):
    """ResNet V2 (pre-activation): as ResNetV1 with BasicBlockV2 or BottleneckV2, the input
    normalized first and a BatchNorm and relu before pooling."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(block, layers, channels, classes, thumbnail, True, **kwargs)


resnet_spec = {18: ("basic_block", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
               34: ("basic_block", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
               50: ("bottle_neck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
               101: ("bottle_neck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
               152: ("bottle_neck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}
resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [{"basic_block": BasicBlockV1, "bottle_neck": BottleneckV1},
                         {"basic_block": BasicBlockV2, "bottle_neck": BottleneckV2}]


def get_resnet(version, num_layers, pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """ResNet version (1 or 2) of num_layers (18, 34, 50, 101 or 152) layers; pretrained:
    with MXNet's ImageNet Parameters (from root, else downloaded) on ctx."""
    if num_layers not in resnet_spec:
        raise AssertionError("Invalid number of layers: %d. Options are %s" % (num_layers, str(resnet_spec.keys())))
    if not 1 <= version <= 2:
        raise AssertionError("Invalid resnet version: %d. Options are 1 and 2." % version)
    block_type, layers, channels = resnet_spec[num_layers]
    net = resnet_net_versions[version - 1](resnet_block_versions[version - 1][block_type], layers, channels, **kwargs)
    return load_pretrained(net, "resnet%d_v%d" % (num_layers, version), pretrained, ctx, root)


resnet18_v1 = constructor("resnet18_v1", "ResNet-18 V1 (get_resnet's keyword arguments).", get_resnet, 1, 18)
resnet34_v1 = constructor("resnet34_v1", "ResNet-34 V1 (get_resnet's keyword arguments).", get_resnet, 1, 34)
resnet50_v1 = constructor("resnet50_v1", "ResNet-50 V1 (get_resnet's keyword arguments).", get_resnet, 1, 50)
resnet101_v1 = constructor("resnet101_v1", "ResNet-101 V1 (get_resnet's keyword arguments).", get_resnet, 1, 101)
resnet152_v1 = constructor("resnet152_v1", "ResNet-152 V1 (get_resnet's keyword arguments).", get_resnet, 1, 152)
resnet18_v2 = constructor("resnet18_v2", "ResNet-18 V2 (get_resnet's keyword arguments).", get_resnet, 2, 18)
resnet34_v2 = constructor("resnet34_v2", "ResNet-34 V2 (get_resnet's keyword arguments).", get_resnet, 2, 34)
resnet50_v2 = constructor("resnet50_v2", "ResNet-50 V2 (get_resnet's keyword arguments).", get_resnet, 2, 50)
resnet101_v2 = constructor("resnet101_v2", "ResNet-101 V2 (get_resnet's keyword arguments).", get_resnet, 2, 101)
resnet152_v2 = constructor("resnet152_v2", "ResNet-152 V2 (get_resnet's keyword arguments).", get_resnet, 2, 152)
