from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from ._typing import DType

__all__ = ["MXNetError", "MXNetValueError", "MXNetTypeError", "MXNetIndexError", "MXNetBufferError",
           "MXNetMemoryError", "MXNetNotImplementedError", "mxnet_error", "call", "core", "fastpath", "FACTS",
           "KIND_NAMES", "DTYPE_NAMES", "ITEMSIZES", "dtype_code", "numpy_dtype", "data_dir",
           "data_dir_default"]

_T = TypeVar("_T")

class MXNetError(Exception):
    """Base class of every error mxgo's core raises, as MXNet's ``mx.base.MXNetError``;
    bad input raises a subclass that is also the matching built-in exception."""

class MXNetValueError(MXNetError, ValueError): ...
class MXNetTypeError(MXNetError, TypeError): ...
class MXNetIndexError(MXNetError, IndexError): ...
class MXNetBufferError(MXNetError, BufferError): ...
class MXNetMemoryError(MXNetError, MemoryError): ...
class MXNetNotImplementedError(MXNetError, NotImplementedError): ...

def mxnet_error(builtin: type[BaseException]) -> type[BaseException]: ...

# The Go extension (gopy's wrappers), the C fast path and the engine's callbacks:
# untyped, internal.
core: ModuleType
fastpath: ModuleType
callbacks: ModuleType
RUN_ASYNC: int
RUN_FUNCTION: int

def error_result(exc: BaseException) -> tuple[int, str]: ...
FACTS: dict[str, Any]
KIND_NAMES: tuple[str, ...]
DTYPE_NAMES: tuple[str, ...]
ITEMSIZES: tuple[int, ...]

def call(fn: Callable[..., _T], *args: Any) -> _T: ...
def dtype_code(dtype: DType) -> int: ...
def numpy_dtype(code: int) -> np.dtype[Any]: ...
def data_dir_default() -> str: ...
def data_dir() -> str: ...
