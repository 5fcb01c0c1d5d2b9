"""Datasets for test_gluon_data.py's DataLoader worker processes: importable by name, so that
the 'spawn' workers can unpickle them, and light (NumPy and mxgo)."""
import os
import time

import numpy as np

import mxgo as mx
from mxgo.gluon.data import Dataset


class Pairs(Dataset):
    """(an NDArray made in the worker, (a NumPy vector, an int)) per index."""

    def __len__(self):
        return 11

    def __getitem__(self, i):
        return mx.nd.array([i, i * i], dtype="float32"), (np.full(3, i, dtype="int64"), i)


class FailsAt(Pairs):
    """Raises ValueError at one index."""

    def __init__(self, bad):
        self.bad = bad

    def __getitem__(self, i):
        if i == self.bad:
            raise ValueError("sample %d is broken" % i)
        return super().__getitem__(i)


class DiesAt(Pairs):
    """Kills its worker process at one index."""

    def __getitem__(self, i):
        if i == 2:
            os._exit(3)
        return super().__getitem__(i)


class SlowAt(Pairs):
    """Takes a minute over one index."""

    def __getitem__(self, i):
        if i == 1:
            time.sleep(60)
        return super().__getitem__(i)


class Unpicklable(Exception):
    """An exception that pickles and does not unpickle (its __init__ wants two arguments)."""

    def __init__(self, a, b):
        super().__init__("%s %s" % (a, b))


class RaisesUnpicklable(Pairs):
    def __getitem__(self, i):
        raise Unpicklable(i, "odd")


def pid_batch(samples):
    """A batchify_fn that reports which process made the batch."""
    return os.getpid(), [s[1][1] for s in samples]
