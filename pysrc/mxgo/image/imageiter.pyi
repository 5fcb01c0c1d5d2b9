from collections.abc import Sequence
from typing import Any

from ..ndarray import NDArray
from ..recordio import MXRecordIO
from .augment import Augmenter

__all__ = ["ImageIter"]

class DataBatch:
    data: list[NDArray]
    label: list[NDArray] | None
    pad: int | None
    index: Any
    def __init__(self, data: list[NDArray], label: list[NDArray] | None = None, pad: int | None = None,
                 index: Any = None) -> None: ...

class ImageIter:
    imgrec: MXRecordIO | None
    imgidx: list[Any] | None
    imglist: dict[Any, tuple[NDArray, str]] | None
    path_root: str | None
    provide_data: list[tuple[str, tuple[int, ...]]]
    provide_label: list[tuple[str, tuple[int, ...]]]
    batch_size: int
    data_shape: tuple[int, ...]
    label_width: int
    shuffle: bool
    last_batch_handle: str
    seq: list[Any] | None
    auglist: list[Augmenter]
    num_image: int | None
    cur: int
    def __init__(self, batch_size: int, data_shape: Sequence[int], label_width: int = 1, path_imgrec: str | None = None,
                 path_imglist: str | None = None, path_root: str | None = None, path_imgidx: str | None = None,
                 shuffle: bool = False, part_index: int = 0, num_parts: int = 1, aug_list: list[Augmenter] | None = None,
                 imglist: list[Any] | None = None, data_name: str = "data", label_name: str = "softmax_label",
                 dtype: str = "float32", last_batch_handle: str = "pad", **kwargs: Any) -> None: ...
    @staticmethod
    def _label(img: Sequence[Any], dtype: str) -> NDArray: ...
    def reset(self) -> None: ...
    def hard_reset(self) -> None: ...
    def __iter__(self) -> ImageIter: ...
    def __next__(self) -> DataBatch: ...
    def next_sample(self) -> tuple[Any, bytes]: ...
    def imdecode(self, s: bytes) -> NDArray: ...
    def read_image(self, fname: str) -> bytes: ...
    def augmentation_transform(self, data: NDArray) -> NDArray: ...
    def postprocess_data(self, datum: NDArray) -> NDArray: ...
    def _batchify(self, data: NDArray, label: NDArray, i: int = 0) -> int: ...
    def next(self) -> DataBatch: ...
