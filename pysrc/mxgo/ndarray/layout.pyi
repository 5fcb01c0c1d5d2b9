from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex

from .._typing import Axes, SupportsDLPack
from .ndarray import NDArray

__all__ = ["split", "SliceChannel", "split_v2", "concatenate", "moveaxis", "onehot_encode",
           "SequenceMask", "SequenceLast", "SequenceReverse", "FUNCTIONS", "split_method", "split_v2_method"]

def split(data: SupportsDLPack, num_outputs: SupportsIndex, axis: SupportsIndex = 1, squeeze_axis: bool = False,
          out: SupportsDLPack | Sequence[SupportsDLPack] | None = None, name: str | None = None) -> NDArray | list[NDArray]: ...
def SliceChannel(data: SupportsDLPack, num_outputs: SupportsIndex, axis: SupportsIndex = 1,  # noqa: N802
                 squeeze_axis: bool = False,
                 out: SupportsDLPack | Sequence[SupportsDLPack] | None = None,
                 name: str | None = None) -> NDArray | list[NDArray]: ...
def split_v2(ary: NDArray, indices_or_sections: SupportsIndex | tuple[SupportsIndex, ...], axis: SupportsIndex = 0,
             squeeze_axis: bool = False) -> NDArray | list[NDArray]: ...
def concatenate(arrays: list[NDArray], axis: SupportsIndex = 0, always_copy: bool = True) -> NDArray: ...
def moveaxis(tensor: NDArray, source: Axes, destination: Axes) -> NDArray: ...
def onehot_encode(indices: SupportsDLPack, out: NDArray) -> NDArray: ...
def SequenceMask(data: SupportsDLPack, sequence_length: SupportsDLPack | None = None,  # noqa: N802
                 use_sequence_length: bool = False, value: float = 0.0, axis: SupportsIndex = 0,
                 out: SupportsDLPack | None = None, name: str | None = None) -> NDArray: ...
def SequenceLast(data: SupportsDLPack, sequence_length: SupportsDLPack | None = None,  # noqa: N802
                 use_sequence_length: bool = False, axis: SupportsIndex = 0, out: SupportsDLPack | None = None,
                 name: str | None = None) -> NDArray: ...
def SequenceReverse(data: SupportsDLPack, sequence_length: SupportsDLPack | None = None,  # noqa: N802
                    use_sequence_length: bool = False, axis: SupportsIndex = 0,
                    out: SupportsDLPack | None = None, name: str | None = None) -> NDArray: ...

FUNCTIONS: dict[str, Callable[..., Any]]
split_method: Callable[..., NDArray | list[NDArray]]
split_v2_method: Callable[..., NDArray | list[NDArray]]
