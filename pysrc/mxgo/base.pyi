from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from ._typing import DType

__all__ = ["MXNetError", "call", "core", "fastpath", "FACTS", "KIND_NAMES", "DTYPE_NAMES", "ITEMSIZES",
           "dtype_code", "numpy_dtype"]

_T = TypeVar("_T")

class MXNetError(Exception):
    """Base class of mxgo's own errors (engine and back-end failures); the others are
    Python's ValueError, TypeError, BufferError, IndexError, MemoryError and
    NotImplementedError."""

# The Go extension (gopy's wrappers) and the C fast path: untyped, internal.
core: ModuleType
fastpath: ModuleType
FACTS: dict[str, Any]
KIND_NAMES: tuple[str, ...]
DTYPE_NAMES: tuple[str, ...]
ITEMSIZES: tuple[int, ...]

def call(fn: Callable[..., _T], *args: Any) -> _T: ...
def dtype_code(dtype: DType) -> int: ...
def numpy_dtype(code: int) -> np.dtype[Any]: ...
