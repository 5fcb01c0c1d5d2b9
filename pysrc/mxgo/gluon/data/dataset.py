"""Datasets: indexable collections of samples, and their lazy views (transformed,
filtered, sharded, sampled), and the records of a RecordIO file."""
import os

from ... import recordio
from ...ndarray import NDArray
from .sampler import FilterSampler, Sampler, SequentialSampler

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "RecordFileDataset"]


class Dataset:
    """Base class of datasets: subclasses define ``__getitem__`` and ``__len__``. An mx.nd
    or NumPy array can serve as a dataset directly."""

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def filter(self, fn):
        """The samples for which ``fn(sample)`` is true (chosen now; a lazy transform
        below runs again when a sample is read)."""
        return _SampledDataset(self, FilterSampler(fn, self))

    def shard(self, num_shards, index):
        """Part ``index`` of ``num_shards`` contiguous parts, the first ``len % num_shards``
        of them one sample longer."""
        if index >= num_shards:
            raise AssertionError("Shard index of out bound: %d out of %d" % (index, num_shards))
        if num_shards <= 0:
            raise AssertionError("Number of shards must be greater than 0")
        if index < 0:
            raise AssertionError("Index must be non-negative")
        shard_len, rest = divmod(len(self), num_shards)
        start = shard_len * index + min(index, rest)
        return _SampledDataset(self, SequentialSampler(shard_len + (index < rest), start))

    def take(self, count):
        """The first ``count`` samples (all of them when count is None or larger)."""
        if count is None or count > len(self):
            count = len(self)
        return _SampledDataset(self, SequentialSampler(count))

    def sample(self, sampler):
        """The samples at the indices ``sampler`` yields (drawn now)."""
        if not isinstance(sampler, Sampler):
            raise TypeError("Invalid sampler type: %s. Expected gluon.data.Sampler instead." % type(sampler))
        return _SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        """Each sample passed through ``fn`` (a tuple sample as its arguments): on each read,
        or, with ``lazy=False``, once now into a SimpleDataset."""
        trans = _LazyTransformDataset(self, fn)
        return trans if lazy else SimpleDataset(list(trans))

    def transform_first(self, fn, lazy=True):
        """``transform`` of the first element of each sample alone (the data, not the label)."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class SimpleDataset(Dataset):
    """A dataset of any object with ``len()`` and ``[]`` (a list, an array)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]


class _LazyTransformDataset(Dataset):
    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        return self._fn(*item) if isinstance(item, tuple) else self._fn(item)


class _TransformFirstClosure:
    """A class, not a closure, so that worker processes can unpickle it."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        return (self._fn(x),) + args if args else self._fn(x)


class _SampledDataset(Dataset):
    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(sampler)

    def __len__(self):
        return len(self._sampler)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]


class ArrayDataset(Dataset):
    """Samples ``(a[i], b[i], ...)`` of several equally long dataset-like objects (a[i]
    alone for one). A 1-D mx.nd array is read into NumPy first, as MXNet does, so its
    samples are NumPy scalars."""

    def __init__(self, *args):
        if not args:
            raise AssertionError("Needs at least 1 arrays")
        self._length = len(args[0])
        self._data = []
        for i, data in enumerate(args):
            if len(data) != self._length:
                raise AssertionError("All arrays must have the same length; array[0] has length %d while "
                                     "array[%d] has %d." % (self._length, i + 1, len(data)))
            self._data.append(data.asnumpy() if isinstance(data, NDArray) and len(data.shape) == 1 else data)

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self):
        return self._length


class RecordFileDataset(Dataset):
    """The records of RecordIO file ``filename`` (bytes each), read through the index
    file beside it (the same name with extension .idx)."""

    def __init__(self, filename):
        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = recordio.MXIndexedRecordIO(self.idx_file, self.filename, "r")

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)
