from collections.abc import Sequence
from typing import Any

from ....context import Context
from ...block import HybridBlock

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201"]

class DenseNet(HybridBlock):
    def __init__(self, num_init_features: int, growth_rate: int, block_config: Sequence[int], bn_size: int = 4,
                 dropout: float = 0, classes: int = 1000, **kwargs: Any) -> None: ...

densenet_spec: dict[int, tuple[int, int, list[int]]]

def get_densenet(num_layers: int, pretrained: bool = False, ctx: Context = ..., root: str = ...,
                 **kwargs: Any) -> DenseNet: ...
def densenet121(**kwargs: Any) -> DenseNet: ...
def densenet161(**kwargs: Any) -> DenseNet: ...
def densenet169(**kwargs: Any) -> DenseNet: ...
def densenet201(**kwargs: Any) -> DenseNet: ...
