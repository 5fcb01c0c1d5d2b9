from typing_extensions import CapsuleType

from .._typing import Device, SupportsDLPack
from .ndarray import NDArray

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write"]

MAX_VERSION: tuple[int, int]

def to_dlpack_for_read(data: NDArray, max_version: tuple[int, int] | None = None) -> CapsuleType: ...
def to_dlpack_for_write(data: NDArray, max_version: tuple[int, int] | None = None) -> CapsuleType: ...
def from_dlpack(obj: SupportsDLPack | CapsuleType, *, device: Device | None = None, copy: bool | None = None) -> NDArray: ...
