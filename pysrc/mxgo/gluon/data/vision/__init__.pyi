from . import datasets as datasets
from . import transforms as transforms
from .datasets import CIFAR10 as CIFAR10
from .datasets import CIFAR100 as CIFAR100
from .datasets import MNIST as MNIST
from .datasets import FashionMNIST as FashionMNIST
from .datasets import ImageFolderDataset as ImageFolderDataset
from .datasets import ImageRecordDataset as ImageRecordDataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset", "ImageFolderDataset", "datasets", "transforms"]
