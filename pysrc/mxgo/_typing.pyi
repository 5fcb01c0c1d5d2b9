"""Types that mxgo's stubs share. A stub-only module, as typeshed's _typeshed: import it
under ``if TYPE_CHECKING:`` to annotate code that takes mxgo's arguments."""
from collections.abc import Sequence
from types import EllipsisType
from typing import Any, Protocol, SupportsIndex, TypeAlias

import numpy as np

from .context import Context

class SupportsDLPack(Protocol):
    """An array that speaks DLPack's Python protocol: an mxgo NDArray, a NumPy array, a
    PyTorch tensor... (mxgo asks for more keywords and retries without them, so only a
    call with none is required)."""

    def __dlpack__(self) -> object: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

#: a number an operator converts to the array's dtype
Scalar: TypeAlias = complex | np.number[Any] | np.bool_
#: a dtype: a name ("float32", "bfloat16"), a np.dtype or a type (np.float32, float)
DType: TypeAlias = str | np.dtype[Any] | type[Any]
#: a shape: an int or a sequence of ints
Shape: TypeAlias = SupportsIndex | Sequence[SupportsIndex]
#: axes of a reduction or a transpose; None for all (reversed for a transpose)
Axes: TypeAlias = SupportsIndex | Sequence[SupportsIndex] | None
#: a device: a Context, or DLPack's (device_type, device_id)
Device: TypeAlias = Context | tuple[int, int]
_Key: TypeAlias = SupportsIndex | slice | EllipsisType | None
#: what NDArray's [] takes: integers, slices, None and ..., or a tuple of them
Index: TypeAlias = _Key | tuple[_Key, ...]
