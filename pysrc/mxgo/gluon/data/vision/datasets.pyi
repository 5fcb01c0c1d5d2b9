from collections.abc import Callable
from typing import Any

from ..dataset import Dataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100"]

_Transform = Callable[[Any, Any], Any] | None

class _DownloadedDataset(Dataset):
    def __init__(self, root: str, transform: _Transform) -> None: ...
    def __getitem__(self, idx: Any) -> Any: ...
    def __len__(self) -> int: ...

class MNIST(_DownloadedDataset):
    def __init__(self, root: str = ..., train: bool = True, transform: _Transform = None) -> None: ...

class FashionMNIST(MNIST):
    def __init__(self, root: str = ..., train: bool = True, transform: _Transform = None) -> None: ...

class CIFAR10(_DownloadedDataset):
    def __init__(self, root: str = ..., train: bool = True, transform: _Transform = None) -> None: ...

class CIFAR100(CIFAR10):
    def __init__(self, root: str = ..., fine_label: bool = False, train: bool = True,
                 transform: _Transform = None) -> None: ...
