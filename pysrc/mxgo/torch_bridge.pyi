from collections.abc import Callable
from typing import Any

from .ndarray.ndarray import NDArray

__all__ = ["function"]

def function(f: Callable[..., NDArray | tuple[NDArray, ...]]) -> Callable[..., Any]: ...
