from typing import Any

from ....context import Context
from ...block import HybridBlock

__all__ = ["AlexNet", "alexnet"]

class AlexNet(HybridBlock):
    def __init__(self, classes: int = 1000, **kwargs: Any) -> None: ...

def alexnet(pretrained: bool = False, ctx: Context = ..., root: str = ..., **kwargs: Any) -> AlexNet: ...
