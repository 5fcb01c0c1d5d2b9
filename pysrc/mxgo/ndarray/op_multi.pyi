from typing import Any

from .ndarray import NDArray

__all__ = ["histogram", "FUNCTIONS"]

def histogram(a: NDArray, bins: int | NDArray = 10,
              range: tuple[float, float] | None = None) -> list[NDArray] | tuple[NDArray, NDArray]: ...

FUNCTIONS: dict[str, Any]
