from typing import Any, SupportsIndex

from .._typing import Axes, DType, SupportsDLPack
from .ndarray import NDArray

__all__ = ["topk", "moments", "histogram", "topk_method", "FUNCTIONS"]

def topk(data: SupportsDLPack, axis: SupportsIndex | None = -1, k: SupportsIndex = 1, ret_typ: str = "indices",
         is_ascend: bool = False, dtype: DType = "float32",
         *, out: SupportsDLPack | list[SupportsDLPack] | None = None) -> NDArray | list[NDArray]: ...
def topk_method(self: NDArray, axis: SupportsIndex | None = -1, k: SupportsIndex = 1, ret_typ: str = "indices",
                is_ascend: bool = False, dtype: DType = "float32",
                *, out: SupportsDLPack | list[SupportsDLPack] | None = None) -> NDArray | list[NDArray]: ...
def moments(data: SupportsDLPack, axes: Axes = None, keepdims: bool = False,
            out: list[NDArray] | None = None) -> list[NDArray]: ...

def histogram(a: NDArray, bins: int | NDArray = 10,
              range: tuple[float, float] | None = None) -> list[NDArray] | tuple[NDArray, NDArray]: ...

FUNCTIONS: dict[str, Any]
