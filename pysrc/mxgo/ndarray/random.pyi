from .._typing import DType, Shape
from ..context import Context
from .ndarray import NDArray

__all__ = ["uniform", "normal", "seed"]

def uniform(low: float = 0, high: float = 1, shape: Shape | None = None, dtype: DType | None = None,
            ctx: Context | None = None, out: NDArray | None = None) -> NDArray: ...
def normal(loc: float = 0, scale: float = 1, shape: Shape | None = None, dtype: DType | None = None,
           ctx: Context | None = None, out: NDArray | None = None) -> NDArray: ...
def seed(seed_state: int) -> None: ...
