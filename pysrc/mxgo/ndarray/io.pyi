import os
from typing_extensions import Buffer

from .ndarray import NDArray

__all__ = ["save", "load", "load_frombuffer"]

def save(fname: str | os.PathLike[str], data: NDArray | list[NDArray] | dict[str, NDArray],
         np_shape: bool | None = None) -> None: ...
def load(fname: str | os.PathLike[str]) -> list[NDArray] | dict[str, NDArray]: ...
def load_frombuffer(buf: Buffer) -> list[NDArray] | dict[str, NDArray]: ...
