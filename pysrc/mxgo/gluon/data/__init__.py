"""mx.gluon.data: datasets, samplers and the DataLoader, as MXNet 1.9.1's.

    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(x, y), batch_size=32, shuffle=True)
    for data, label in loader: ...

vision holds the image datasets and transforms (gluon.data.vision).

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    sampler ← dataset ← dataloader, vision
"""
from . import dataloader, dataset, sampler, vision
from .dataloader import DataLoader
from .dataset import ArrayDataset, Dataset, RecordFileDataset, SimpleDataset
from .sampler import BatchSampler, FilterSampler, RandomSampler, Sampler, SequentialSampler, SplitSampler

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "RecordFileDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "SplitSampler",
           "FilterSampler", "BatchSampler", "DataLoader", "dataset", "sampler", "dataloader", "vision"]
