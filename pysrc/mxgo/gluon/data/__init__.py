"""mx.gluon.data: datasets, samplers and the DataLoader, as MXNet 1.9.1's.

    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(x, y), batch_size=32, shuffle=True)
    for data, label in loader: ...

MXNet's RecordFileDataset is left out (mxgo has no mx.recordio), and so is vision/ for now
(its transforms are gluon Blocks).

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    sampler ← dataset ← dataloader
"""
from . import dataloader, dataset, sampler
from .dataloader import DataLoader
from .dataset import ArrayDataset, Dataset, SimpleDataset
from .sampler import BatchSampler, FilterSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "FilterSampler", "BatchSampler", "DataLoader", "dataset", "sampler", "dataloader"]
