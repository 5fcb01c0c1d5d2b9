from collections.abc import Callable
from typing import Any, TypeVar

from ....context import Context
from ... import nn
from ...block import HybridBlock
from ...parameter import ParameterDict

_B = TypeVar("_B", bound=HybridBlock)

CPU: Context

class HybridConcurrent(nn.HybridSequential):
    axis: int
    def __init__(self, axis: int = -1, prefix: str | None = None, params: ParameterDict | None = None) -> None: ...

class Identity(HybridBlock): ...

def load_pretrained(net: _B, name: str, pretrained: bool, ctx: Context, root: str) -> _B: ...
def constructor(name: str, doc: str, get: Callable[..., _B], *args: Any, **fixed: Any) -> Callable[..., _B]: ...
