from typing import Any

import numpy as np
import numpy.typing as npt

from .ndarray import NDArray

__all__ = ["assert_almost_equal", "default_rtols", "default_atols"]

def default_rtols() -> dict[np.dtype[Any], float]: ...
def default_atols() -> dict[np.dtype[Any], float]: ...
def assert_almost_equal(a: NDArray | npt.ArrayLike, b: NDArray | npt.ArrayLike, rtol: float | None = None,
                        atol: float | None = None, names: tuple[str, str] = ("a", "b"), equal_nan: bool = False) -> None: ...
