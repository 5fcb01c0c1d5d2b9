"""mx.gluon.data against the real MXNet 1.9.1's: samplers give the same indices (RandomSampler
the same permutation after the same np.random.seed: both shuffle with NumPy's global
generator), dataset views the same samples, and DataLoader (in-process) the same batches,
types, dtypes, shapes and values with the default batchify of nested samples, in every
last_batch mode and over two epochs; bad arguments raise the same exception types.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
Worker processes are test_gluon_data.py's: MXNet's fork, mxgo's spawn.
"""
import mxnet
import numpy as np
import pytest

import mxgo as mx


def plain(x):
    """A comparable picture of a sample or a batch: kinds, dtypes, shapes and values."""
    if isinstance(x, (mx.nd.NDArray, mxnet.nd.NDArray)):
        return ("nd", np.dtype(x.dtype).name, x.shape, x.asnumpy().tolist())
    if isinstance(x, np.ndarray):
        return ("np", x.dtype.name, x.shape, x.tolist())
    if isinstance(x, np.generic):
        return ("scalar", x.dtype.name, x.item())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [plain(i) for i in x])
    return (type(x).__name__, x)


def both(fn):
    """fn(lib) for MXNet and mxgo, pictured."""
    return plain(fn(mxnet)), plain(fn(mx))


def data(lib, n=10):
    x = np.arange(n * 6, dtype="float32").reshape(n, 2, 3)
    return lib.gluon.data.ArrayDataset(lib.nd.array(x), lib.nd.array(np.arange(n) % 3, dtype="int32"),
                                       list(range(100, 100 + n)), x[:, 0, :].astype("float64"))


def epochs(loader, count=2):
    return [list(loader) for _ in range(count)]


SAMPLERS = {
    "sequential": lambda d: list(d.SequentialSampler(5, start=2)),
    "batch keep": lambda d: epochs(d.BatchSampler(d.SequentialSampler(7), 3, "keep")),
    "batch discard": lambda d: epochs(d.BatchSampler(d.SequentialSampler(7), 3, "discard")),
    "batch rollover": lambda d: [(len(s), list(s)) for s in [d.BatchSampler(d.SequentialSampler(7), 3, "rollover")] * 3],
    "filter": lambda d: list(d.FilterSampler(lambda x: x % 3 == 1, list(range(10)))),
    "lengths": lambda d: [len(d.BatchSampler(d.SequentialSampler(7), 3, m)) for m in ("keep", "discard", "rollover")],
}


@pytest.mark.parametrize("case", sorted(SAMPLERS))
def test_samplers_match(case):
    theirs, ours = both(lambda lib: SAMPLERS[case](lib.gluon.data))
    assert ours == theirs


def test_random_sampler_follows_numpy_seed():
    def draw(lib):
        np.random.seed(11)
        return [list(lib.gluon.data.RandomSampler(9)) for _ in range(2)]
    theirs, ours = both(draw)
    assert ours == theirs and ours[1][0] != ours[1][1]


VIEWS = {
    "items": lambda d: [d[i] for i in range(len(d))],
    "transform": lambda d: list(d.transform(lambda x, y, z, w: (y, z))),
    "transform eager": lambda d: list(d.transform(lambda x, y, z, w: z * 2, lazy=False)),
    "transform_first": lambda d: list(d.transform_first(lambda x: x.sum())),
    "filter": lambda d: list(d.filter(lambda s: s[2] % 2 == 0)),
    "shards": lambda d: [list(d.shard(3, i)) for i in range(3)],
    "take": lambda d: [list(d.take(3)), len(d.take(None)), len(d.take(50))],
}


@pytest.mark.parametrize("case", sorted(VIEWS))
def test_dataset_views_match(case):
    theirs, ours = both(lambda lib: VIEWS[case](data(lib)))
    assert ours == theirs


def test_single_and_simple_datasets_match():
    def run(lib):
        d = lib.gluon.data
        one = d.ArrayDataset(lib.nd.array([1.5, 2.5, 3.5]))  # 1-D: read into NumPy, as MXNet does
        two = d.ArrayDataset(lib.nd.array(np.ones((3, 2))))
        simple = d.SimpleDataset(np.arange(4)).sample(d.SequentialSampler(2, 1))
        return [list(one), list(two), list(simple), len(simple)]
    theirs, ours = both(run)
    assert ours == theirs


LOADERS = {
    "array dataset": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=4),
    "discard": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=4, last_batch="discard"),
    "rollover": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=4, last_batch="rollover"),
    "nested tuples": lambda lib: lib.gluon.data.DataLoader(
        data(lib).transform(lambda x, y, z, w: (x, (y, (z, w)))), batch_size=3),
    "nd samples": lambda lib: lib.gluon.data.DataLoader(lib.nd.arange(12).reshape((6, 2)), batch_size=4),
    "numpy samples": lambda lib: lib.gluon.data.DataLoader(np.arange(12, dtype="int64").reshape(6, 2), batch_size=5),
    "list samples": lambda lib: lib.gluon.data.DataLoader([[1, 2], [3, 4], [5, 6]], batch_size=2),
    "bool": lambda lib: lib.gluon.data.DataLoader(np.array([True, False, True]), batch_size=2),
    "batch_sampler": lambda lib: lib.gluon.data.DataLoader(
        data(lib), batch_sampler=lib.gluon.data.BatchSampler(lib.gluon.data.SequentialSampler(10, 0), 6, "keep")),
    "sampler": lambda lib: lib.gluon.data.DataLoader(
        data(lib), batch_size=2, sampler=lib.gluon.data.FilterSampler(lambda s: s[2] % 3 == 0, data(lib))),
    "batchify_fn": lambda lib: lib.gluon.data.DataLoader(
        data(lib), batch_size=4, batchify_fn=lambda samples: [s[2] for s in samples]),
    "auto_reload": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=6, auto_reload=True),
    "pin_memory": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=6, pin_memory=True),
}


@pytest.mark.parametrize("case", sorted(LOADERS))
def test_dataloader_batches_match(case):
    theirs, ours = both(lambda lib: [len(LOADERS[case](lib))] + epochs(LOADERS[case](lib)))
    assert ours == theirs


def test_shuffled_batches_match_under_the_same_seed():
    def run(lib):
        np.random.seed(3)
        return epochs(lib.gluon.data.DataLoader(data(lib), batch_size=4, shuffle=True, last_batch="rollover"), 3)
    theirs, ours = both(run)
    assert ours == theirs


def raised(fn):
    try:
        for _ in fn():
            pass
    except Exception as err:  # the type is what the test compares
        return type(err)
    return None


BAD = {
    "no batch_size": lambda lib: lib.gluon.data.DataLoader(data(lib)),
    "batch_size and batch_sampler": lambda lib: lib.gluon.data.DataLoader(
        data(lib), batch_size=2, batch_sampler=lib.gluon.data.BatchSampler(lib.gluon.data.SequentialSampler(10), 2)),
    "last_batch and batch_sampler": lambda lib: lib.gluon.data.DataLoader(
        data(lib), last_batch="keep", batch_sampler=lib.gluon.data.BatchSampler(lib.gluon.data.SequentialSampler(10), 2)),
    "shuffle and sampler": lambda lib: lib.gluon.data.DataLoader(
        data(lib), batch_size=2, shuffle=True, sampler=lib.gluon.data.SequentialSampler(10)),
    "unknown last_batch": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=3, last_batch="drop"),
    "unknown last_batch len": lambda lib: [len(lib.gluon.data.BatchSampler(lib.gluon.data.SequentialSampler(10), 3, "x"))],
    "timeout": lambda lib: lib.gluon.data.DataLoader(data(lib), batch_size=2, timeout=0),
    "lengths differ": lambda lib: lib.gluon.data.ArrayDataset(lib.nd.ones(3), [1, 2]),
    "no arrays": lambda lib: lib.gluon.data.ArrayDataset(),
    "not a sampler": lambda lib: data(lib).sample([0, 1]),
    "shard index": lambda lib: data(lib).shard(3, 3),
    "shard negative": lambda lib: data(lib).shard(3, -1),
    "abstract dataset": lambda lib: [lib.gluon.data.Dataset()[0]],
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_arguments_raise_what_mxnet_raises(case):
    theirs, ours = raised(lambda: BAD[case](mxnet)), raised(lambda: BAD[case](mx))
    assert theirs is not None and ours is theirs, (ours, theirs)
