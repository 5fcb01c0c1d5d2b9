from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ndarray import NDArray
from .augment import Augmenter, _Dumped
from .imageiter import ImageIter

__all__ = ["DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug",
           "DetRandomPadAug", "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]

_Label = np.ndarray[Any, Any]

class DetAugmenter(_Dumped):
    def __call__(self, src: NDArray, label: _Label) -> tuple[NDArray, _Label]: ...

class DetBorrowAug(DetAugmenter):
    augmenter: Augmenter
    def __init__(self, augmenter: Augmenter) -> None: ...

class DetRandomSelectAug(DetAugmenter):
    aug_list: list[DetAugmenter]
    skip_prob: float
    def __init__(self, aug_list: DetAugmenter | Sequence[DetAugmenter], skip_prob: float = 0) -> None: ...

class DetHorizontalFlipAug(DetAugmenter):
    p: float
    def __init__(self, p: float) -> None: ...

def _pair(v: Any, name: str, owner: str) -> Any: ...
def _areas(boxes: _Label) -> _Label: ...

class _Proposer(DetAugmenter):
    aspect_ratio_range: Any
    area_range: Any
    max_attempts: int
    enabled: bool
    def __init__(self, min_area_max: float, **kwargs: Any) -> None: ...
    def _proposal(self, label: _Label, height: int, width: int) -> tuple[Any, ...]: ...
    def _try(self, label: _Label, height: int, width: int, ratio: float, min_area: float,
             max_area: float) -> tuple[Any, ...]: ...

class DetRandomCropAug(_Proposer):
    min_object_covered: float
    min_eject_coverage: float
    def __init__(self, min_object_covered: float = 0.1, aspect_ratio_range: Any = (0.75, 1.33),
                 area_range: Any = (0.05, 1.0), min_eject_coverage: float = 0.3, max_attempts: int = 50) -> None: ...
    def _covers(self, label: _Label, box: tuple[float, float, float, float], pixels: int) -> bool: ...
    def _cropped_labels(self, label: _Label, x: float, y: float, w: float, h: float) -> _Label | None: ...

class DetRandomPadAug(_Proposer):
    pad_val: Any
    def __init__(self, aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (1.0, 3.0), max_attempts: int = 50,
                 pad_val: Any = (128, 128, 128)) -> None: ...
    def _scalar_fill(self, shape: tuple[int, ...]) -> Any: ...

def CreateMultiRandCropAugmenter(min_object_covered: Any = 0.1, aspect_ratio_range: Any = (0.75, 1.33),
                                 area_range: Any = (0.05, 1.0), min_eject_coverage: Any = 0.3,
                                 max_attempts: Any = 50, skip_prob: float = 0) -> DetRandomSelectAug: ...
def CreateDetAugmenter(data_shape: Sequence[int], resize: int = 0, rand_crop: float = 0, rand_pad: float = 0,
                       rand_gray: float = 0, rand_mirror: bool = False, mean: Any = None, std: Any = None,
                       brightness: float = 0, contrast: float = 0, saturation: float = 0, pca_noise: float = 0,
                       hue: float = 0, inter_method: int = 2, min_object_covered: Any = 0.1,
                       aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (0.05, 3.0),
                       min_eject_coverage: Any = 0.3, max_attempts: Any = 50,
                       pad_val: Any = (127, 127, 127)) -> list[DetAugmenter]: ...

class ImageDetIter(ImageIter):
    auglist: list[DetAugmenter]  # type: ignore[assignment]
    label_shape: tuple[int, ...]
    def __init__(self, batch_size: int, data_shape: Sequence[int], path_imgrec: str | None = None,
                 path_imglist: str | None = None, path_root: str | None = None, path_imgidx: str | None = None,
                 shuffle: bool = False, part_index: int = 0, num_parts: int = 1,
                 aug_list: list[DetAugmenter] | None = None, imglist: list[Any] | None = None, data_name: str = "data",
                 label_name: str = "label", last_batch_handle: str = "pad", **kwargs: Any) -> None: ...
    def _estimate_label_shape(self) -> tuple[int, int]: ...
    @staticmethod
    def _parse_label(label: Any) -> _Label: ...
    @staticmethod
    def _check_valid_label(label: _Label) -> None: ...
    def reshape(self, data_shape: Sequence[int] | None = None, label_shape: Sequence[int] | None = None) -> None: ...
    def check_label_shape(self, label_shape: Sequence[int]) -> None: ...
    def sync_label_shape(self, it: ImageDetIter, verbose: bool = False) -> ImageDetIter: ...
    def augmentation_transform(self, data: NDArray, label: _Label) -> tuple[NDArray, _Label]: ...  # type: ignore[override]
    def draw_next(self, color: Any = None, thickness: int = 2, mean: Any = None, std: Any = None, clip: bool = True,
                  waitKey: int | None = None, window_name: str = "draw_next", id2labels: Any = None) -> Any: ...
