"""Samplers: iterables of dataset indices, and of batches of them (BatchSampler)."""
import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SplitSampler", "FilterSampler", "BatchSampler"]

LAST_BATCH = ("keep", "discard", "rollover")


class Sampler:
    """Base class of samplers: subclasses define ``__iter__`` and ``__len__``."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """start, start + 1, ..., start + length - 1."""

    def __init__(self, length, start=0):
        self._length = length
        self._start = start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class RandomSampler(Sampler):
    """A permutation of range(length), new on each iteration. It shuffles with NumPy's
    global generator, as MXNet does: ``np.random.seed`` makes it repeatable."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices)

    def __len__(self):
        return self._length


class SplitSampler(Sampler):
    """The part_index-th of num_parts equal contiguous parts of range(length), shuffled
    (NumPy's global generator) on each iteration unless shuffle=False: each worker of a
    distributed job reads its own shard with ``SplitSampler(len(dataset), kv.num_workers,
    kv.rank)``. The idiom of MXNet's distributed examples (MXNet 1.9.1 has no such class);
    the length % num_parts samples at the end are left out, so that every worker takes the
    same number of steps (each step all-reduces)."""

    def __init__(self, length, num_parts=1, part_index=0, shuffle=True):
        if num_parts < 1 or not 0 <= part_index < num_parts:
            raise ValueError("SplitSampler needs num_parts >= 1 and 0 <= part_index < num_parts, got %r and %r"
                             % (num_parts, part_index))
        self._length = length // num_parts
        self._start = self._length * part_index
        self._shuffle = shuffle

    def __iter__(self):
        indices = np.arange(self._start, self._start + self._length)
        if self._shuffle:
            np.random.shuffle(indices)
        return iter(indices.tolist())

    def __len__(self):
        return self._length


class FilterSampler(Sampler):
    """The indices of the samples of ``dataset`` for which ``fn(sample)`` is true (found
    once, at construction)."""

    def __init__(self, fn, dataset):
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i, sample in enumerate(dataset) if fn(sample)]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


def _bad_last_batch(last_batch):
    return ValueError("last_batch must be one of 'keep', 'discard', or 'rollover', but got %s" % last_batch)


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices of ``sampler``. An incomplete last batch is yielded
    ('keep'), dropped ('discard') or put in front of the next iteration's ('rollover'). An
    unknown ``last_batch`` raises ValueError when the sampler is used, as in MXNet."""

    def __init__(self, sampler, batch_size, last_batch="keep"):
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev = []

    def __iter__(self):
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if not batch or self._last_batch == "discard":
            return
        if self._last_batch == "keep":
            yield batch
        elif self._last_batch == "rollover":
            self._prev = batch
        else:
            raise _bad_last_batch(self._last_batch)

    def __len__(self):
        size = len(self._sampler)
        if self._last_batch == "keep":
            return (size + self._batch_size - 1) // self._batch_size
        if self._last_batch == "discard":
            return size // self._batch_size
        if self._last_batch == "rollover":
            return (len(self._prev) + size) // self._batch_size
        raise _bad_last_batch(self._last_batch)
