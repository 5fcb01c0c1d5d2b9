from typing import Any

from ....context import Context
from ... import nn
from ...block import HybridBlock

__all__ = ["Inception3", "inception_v3"]

def make_aux(classes: int) -> nn.HybridSequential: ...

class Inception3(HybridBlock):
    def __init__(self, classes: int = 1000, **kwargs: Any) -> None: ...

def inception_v3(pretrained: bool = False, ctx: Context = ..., root: str = ..., **kwargs: Any) -> Inception3: ...
