"""What worker processes run in test_multiprocessing.py: importable by name, so that the
'spawn' and 'forkserver' start methods can find it, and light (NumPy and mxgo; PyTorch
only for the DataLoader dataset), so that a fresh interpreter starts quickly."""
import numpy as np

import mxgo as mx


def double(x):
    """An NDArray in, an NDArray out: both cross the process boundary by pickle."""
    return x * 2


def double_values(values):
    """Plain values in; the worker makes its own NDArray."""
    return (mx.nd.array(values) * 2).asnumpy()


def numpy_only(values):
    """Work that never touches mxgo: fine in any child, forked ones included."""
    return np.asarray(values) * 2


def echo_doubled(inbox, outbox):
    """Reads NDArrays from inbox until None, puts each doubled (as a float64) in outbox."""
    while True:
        x = inbox.get()
        if x is None:
            break
        outbox.put(x.astype("float64") * 2)


class MxDataset:
    """A map-style dataset whose items mxgo builds, handed to PyTorch without a copy."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        import torch
        x = mx.nd.arange(6, dtype="float32").reshape((2, 3)) + i
        return torch.from_dlpack(x)
