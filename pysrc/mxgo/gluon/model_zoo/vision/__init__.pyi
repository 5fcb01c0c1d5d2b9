# ruff: noqa: F403, F405
from typing import Any

from ...block import HybridBlock
from .alexnet import *
from .densenet import *
from .inception import *
from .mobilenet import *
from .resnet import *
from .squeezenet import *
from .vgg import *

_models: dict[str, Any]

def get_model(name: str, **kwargs: Any) -> HybridBlock: ...

__all__ = ["get_model", "AlexNet", "alexnet", "DenseNet", "densenet121", "densenet161", "densenet169", "densenet201",
           "Inception3", "inception_v3", "MobileNet", "MobileNetV2", "get_mobilenet", "get_mobilenet_v2",
           "mobilenet1_0", "mobilenet0_75", "mobilenet0_5", "mobilenet0_25", "mobilenet_v2_1_0", "mobilenet_v2_0_75",
           "mobilenet_v2_0_5", "mobilenet_v2_0_25", "ResNetV1", "ResNetV2", "BasicBlockV1", "BasicBlockV2",
           "BottleneckV1", "BottleneckV2", "get_resnet", "resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1",
           "resnet152_v1", "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2",
           "SqueezeNet", "squeezenet1_0", "squeezenet1_1", "VGG", "get_vgg", "vgg11", "vgg13", "vgg16", "vgg19",
           "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn"]
