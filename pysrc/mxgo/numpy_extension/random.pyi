from typing import Any

from ..context import Context
from ..numpy import ndarray

__all__ = ["seed", "bernoulli", "uniform_n", "normal_n"]

def seed(seed: int, ctx: Any = "all") -> None: ...
def bernoulli(prob: Any = None, logit: Any = None, size: int | tuple[int, ...] | None = None, dtype: Any = None,
              ctx: Context | None = None, out: ndarray | None = None) -> ndarray: ...
def uniform_n(low: Any = 0.0, high: Any = 1.0, batch_shape: int | tuple[int, ...] | None = None, dtype: Any = None,
              ctx: Context | None = None) -> ndarray: ...
def normal_n(loc: Any = 0.0, scale: Any = 1.0, batch_shape: int | tuple[int, ...] | None = None, dtype: Any = None,
             ctx: Context | None = None) -> ndarray: ...
