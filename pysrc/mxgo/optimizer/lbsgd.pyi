from typing import Any

from ..ndarray.ndarray import NDArray
from .optimizer import Optimizer

__all__ = ["LBSGD"]

class LBSGD(Optimizer):
    momentum: float
    warmup_strategy: str
    warmup_epochs: int
    batch_scale: int
    updates_per_epoch: int
    init_updates: int
    num_epochs: int
    lbmult: float
    cumgrads: dict[Any, dict[str, Any]]
    adaptive: bool
    admult: float
    def __init__(self, momentum: float = 0.0, multi_precision: bool = False, warmup_strategy: str = "linear",
                 warmup_epochs: int = 5, batch_scale: int = 1, updates_per_epoch: int = 32, begin_epoch: int = 0,
                 num_epochs: int = 60, **kwargs: Any) -> None: ...
    def _momentum(self, weight: NDArray) -> NDArray | None: ...
    def _get_lbmult(self, nup: int) -> float: ...
    def _l2norm(self, v: NDArray) -> float: ...
    def _get_lars(self, weight: NDArray, g: NDArray, wd: float) -> float: ...
    def _cumulate_gradient(self, grad: NDArray, index: Any) -> dict[str, Any]: ...
