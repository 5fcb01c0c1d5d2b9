from . import dataloader as dataloader
from . import dataset as dataset
from . import sampler as sampler
from . import vision as vision
from .dataloader import DataLoader as DataLoader
from .dataset import ArrayDataset as ArrayDataset
from .dataset import Dataset as Dataset
from .dataset import RecordFileDataset as RecordFileDataset
from .dataset import SimpleDataset as SimpleDataset
from .sampler import BatchSampler as BatchSampler
from .sampler import FilterSampler as FilterSampler
from .sampler import RandomSampler as RandomSampler
from .sampler import Sampler as Sampler
from .sampler import SequentialSampler as SequentialSampler
from .sampler import SplitSampler as SplitSampler

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "RecordFileDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "SplitSampler",
           "FilterSampler", "BatchSampler", "DataLoader", "dataset", "sampler", "dataloader", "vision"]
