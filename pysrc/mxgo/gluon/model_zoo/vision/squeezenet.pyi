from typing import Any

from ....context import Context
from ...block import HybridBlock

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]

class SqueezeNet(HybridBlock):
    def __init__(self, version: str, classes: int = 1000, **kwargs: Any) -> None: ...

def get_squeezenet(version: str, pretrained: bool = False, ctx: Context = ..., root: str = ...,
                   **kwargs: Any) -> SqueezeNet: ...
def squeezenet1_0(**kwargs: Any) -> SqueezeNet: ...
def squeezenet1_1(**kwargs: Any) -> SqueezeNet: ...
