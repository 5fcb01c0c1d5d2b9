from . import datasets as datasets
from . import transforms as transforms
from .datasets import CIFAR10 as CIFAR10
from .datasets import CIFAR100 as CIFAR100
from .datasets import MNIST as MNIST
from .datasets import FashionMNIST as FashionMNIST

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "datasets", "transforms"]
