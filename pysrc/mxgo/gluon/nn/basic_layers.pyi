from collections.abc import Callable, Sequence
from typing import Any, overload

from ...initializer import Initializer
from ..block import Block, HybridBlock
from ..parameter import ParameterDict

_Init = Initializer | str | None

class _Stack:
    def add(self, *blocks: Block) -> None: ...
    def __getitem__(self, key: int | slice) -> Any: ...
    def __len__(self) -> int: ...

class Sequential(_Stack, Block):
    @overload
    def __getitem__(self, key: int) -> Block: ...
    @overload
    def __getitem__(self, key: slice) -> Sequential: ...
    def forward(self, x: Any) -> Any: ...  # type: ignore[override]

class HybridSequential(_Stack, HybridBlock):
    @overload
    def __getitem__(self, key: int) -> HybridBlock: ...
    @overload
    def __getitem__(self, key: slice) -> HybridSequential: ...

class Dense(HybridBlock):
    def __init__(self, units: int, activation: str | None = None, use_bias: bool = True, flatten: bool = True,
                 dtype: Any = "float32", weight_initializer: _Init = None, bias_initializer: _Init = "zeros",
                 in_units: int = 0, **kwargs: Any) -> None: ...

class Dropout(HybridBlock):
    def __init__(self, rate: float, axes: Sequence[int] = (), **kwargs: Any) -> None: ...

class _BatchNorm(HybridBlock):
    fuse_relu: bool
    def __init__(self, axis: int = 1, momentum: float = 0.9, epsilon: float = 1e-5, center: bool = True,
                 scale: bool = True, use_global_stats: bool = False, fuse_relu: bool = False,
                 beta_initializer: _Init = "zeros", gamma_initializer: _Init = "ones",
                 running_mean_initializer: _Init = "zeros", running_variance_initializer: _Init = "ones",
                 in_channels: int = 0, **kwargs: Any) -> None: ...

class BatchNorm(_BatchNorm):
    def __init__(self, axis: int = 1, momentum: float = 0.9, epsilon: float = 1e-5, center: bool = True,
                 scale: bool = True, use_global_stats: bool = False, beta_initializer: _Init = "zeros",
                 gamma_initializer: _Init = "ones", running_mean_initializer: _Init = "zeros",
                 running_variance_initializer: _Init = "ones", in_channels: int = 0, **kwargs: Any) -> None: ...

class BatchNormReLU(_BatchNorm):
    def __init__(self, axis: int = 1, momentum: float = 0.9, epsilon: float = 1e-5, center: bool = True,
                 scale: bool = True, use_global_stats: bool = False, beta_initializer: _Init = "zeros",
                 gamma_initializer: _Init = "ones", running_mean_initializer: _Init = "zeros",
                 running_variance_initializer: _Init = "ones", in_channels: int = 0, **kwargs: Any) -> None: ...

class Embedding(HybridBlock):
    def __init__(self, input_dim: int, output_dim: int, dtype: Any = "float32", weight_initializer: _Init = None,
                 sparse_grad: bool = False, **kwargs: Any) -> None: ...

class Flatten(HybridBlock): ...

class InstanceNorm(HybridBlock):
    def __init__(self, axis: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = False,
                 beta_initializer: _Init = "zeros", gamma_initializer: _Init = "ones", in_channels: int = 0,
                 **kwargs: Any) -> None: ...

class LayerNorm(HybridBlock):
    def __init__(self, axis: int = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                 beta_initializer: _Init = "zeros", gamma_initializer: _Init = "ones", in_channels: int = 0,
                 prefix: str | None = None, params: ParameterDict | None = None) -> None: ...

class GroupNorm(HybridBlock):
    def __init__(self, num_groups: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = True,
                 beta_initializer: _Init = "zeros", gamma_initializer: _Init = "ones", prefix: str | None = None,
                 params: ParameterDict | None = None) -> None: ...

class Lambda(Block):
    def __init__(self, function: str | Callable[..., Any], prefix: str | None = None) -> None: ...

class HybridLambda(HybridBlock):
    def __init__(self, function: str | Callable[..., Any], prefix: str | None = None) -> None: ...
