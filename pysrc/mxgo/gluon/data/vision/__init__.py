"""gluon.data.vision: the image datasets (MNIST, Fashion-MNIST, CIFAR-10/100) read from
their original files, images in RecordIO files and folders, and image transforms as Gluon Blocks.

Import order (tools/check_pyimports.py checks it):

    datasets, transforms
"""
from . import datasets, transforms
from .datasets import CIFAR10, CIFAR100, MNIST, FashionMNIST, ImageFolderDataset, ImageRecordDataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset", "ImageFolderDataset", "datasets", "transforms"]
