from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..ndarray import NDArray

__all__ = ["Augmenter", "SequentialAug", "ResizeAug", "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug",
           "CenterCropAug", "RandomOrderAug", "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug",
           "HueJitterAug", "ColorJitterAug", "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug",
           "CastAug", "CreateAugmenter"]

_LUMA: tuple[float, float, float]
_EIGVAL: np.ndarray[Any, Any]
_EIGVEC: np.ndarray[Any, Any]
_MEAN: list[float]
_STD: list[float]

class _Dumped:
    _kwargs: dict[str, Any]
    def __init__(self, **kwargs: Any) -> None: ...
    def dumps(self) -> Any: ...

class Augmenter(_Dumped):
    def __call__(self, src: NDArray) -> NDArray: ...

class SequentialAug(Augmenter):
    ts: list[Augmenter]
    def __init__(self, ts: list[Augmenter]) -> None: ...

class RandomOrderAug(SequentialAug): ...

class _Sized(Augmenter):
    size: Any
    interp: int
    def __init__(self, size: Any, interp: int = 2) -> None: ...

class ResizeAug(_Sized): ...
class ForceResizeAug(_Sized): ...
class RandomCropAug(_Sized): ...
class CenterCropAug(_Sized): ...

class RandomSizedCropAug(Augmenter):
    size: Sequence[int]
    area: Any
    ratio: Sequence[float]
    interp: int
    def __init__(self, size: Sequence[int], area: Any, ratio: Sequence[float], interp: int = 2,
                 **kwargs: Any) -> None: ...

class _Jitter(Augmenter):
    _name: ClassVar[str]
    coef: NDArray
    def __init__(self, amount: float) -> None: ...
    def _reference(self, src: NDArray) -> NDArray | None: ...

class BrightnessJitterAug(_Jitter): ...
class ContrastJitterAug(_Jitter): ...
class SaturationJitterAug(_Jitter): ...

class HueJitterAug(Augmenter):
    _YIQ: ClassVar[np.ndarray[Any, Any]]
    _RGB: ClassVar[np.ndarray[Any, Any]]
    hue: float
    def __init__(self, hue: float) -> None: ...

class ColorJitterAug(RandomOrderAug):
    def __init__(self, brightness: float, contrast: float, saturation: float) -> None: ...  # type: ignore[override]

class LightingAug(Augmenter):
    alphastd: float
    eigval: Any
    eigvec: Any
    def __init__(self, alphastd: float, eigval: Any, eigvec: Any) -> None: ...

class ColorNormalizeAug(Augmenter):
    mean: Any
    std: Any
    def __init__(self, mean: Any, std: Any) -> None: ...

class _Chance(Augmenter):
    p: float
    def __init__(self, p: float) -> None: ...
    def _apply(self, src: NDArray) -> NDArray: ...

class RandomGrayAug(_Chance):
    mat: NDArray

class HorizontalFlipAug(_Chance): ...

class CastAug(Augmenter):
    typ: str
    def __init__(self, typ: str = "float32") -> None: ...

def _color_augs(brightness: float, contrast: float, saturation: float, hue: float, pca_noise: float, rand_gray: float,
                mean: Any, std: Any, array: Any = ...) -> list[Augmenter]: ...
def _check_stat(v: Any, name: str, default: Any) -> Any: ...
def CreateAugmenter(data_shape: Sequence[int], resize: int = 0, rand_crop: bool = False, rand_resize: bool = False,
                    rand_mirror: bool = False, mean: Any = None, std: Any = None, brightness: float = 0,
                    contrast: float = 0, saturation: float = 0, hue: float = 0, pca_noise: float = 0,
                    rand_gray: float = 0, inter_method: int = 2) -> list[Augmenter]: ...
