"""mx.gluon.data's DataLoader with workers: processes (started by 'spawn') and threads give the
batches the in-process loader gives, in order, over epochs, whatever the prefetch; a worker's
exception is raised in the caller with its traceback, a worker that dies or a batch that
overruns the timeout raises instead of hanging; a dataset that cannot go to a worker process
is refused when the loader is made. Bad arguments raise MXNet's exception types (the oracle
comparison is test_mxnet_data.py).

The worker cases run in a fresh interpreter under a timeout (isolation.run_script): a hang
fails the case, not the run; the workers are its children.
"""
import numpy as np
import pytest

import mxgo as mx
from isolation import run_script
from mxgo.gluon.data import ArrayDataset, BatchSampler, DataLoader, SequentialSampler

PRELUDE = """
import gc, multiprocessing, time
import numpy as np
import mxgo as mx
import data_workers as w
from mxgo.gluon.data import DataLoader

def plain(x):
    if isinstance(x, mx.nd.NDArray):
        return (np.dtype(x.dtype).name, x.shape, x.asnumpy().tolist())
    return [plain(i) for i in x] if isinstance(x, (list, tuple)) else x

def raises(loader, kind, limit_s):
    start = time.monotonic()
    try:
        list(loader)
    except kind as err:
        assert time.monotonic() - start < limit_s, time.monotonic() - start
        return err
    raise AssertionError("no %s" % kind.__name__)
"""

SAME_BATCHES = PRELUDE + """
WORKERS = {"keep": [dict(num_workers=2), dict(num_workers=2, thread_pool=True)],
           "discard": [dict(num_workers=1, prefetch=0), dict(num_workers=1, thread_pool=True, prefetch=0)],
           "rollover": [dict(num_workers=1, prefetch=9), dict(num_workers=2, thread_pool=True, prefetch=9)]}
for last_batch, configs in WORKERS.items():
    in_process = DataLoader(w.Pairs(), batch_size=3, last_batch=last_batch)
    length = len(in_process)
    expected = [plain(list(in_process)) for _ in range(2)]
    for workers in configs:
        loader = DataLoader(w.Pairs(), batch_size=3, last_batch=last_batch, **workers)
        assert len(loader) == length
        if last_batch == "keep":  # a pass left early: its batches in flight are dropped
            it = iter(loader)
            next(it)
            del it
        assert [plain(list(loader)) for _ in range(2)] == expected, (last_batch, workers)
arrays = mx.gluon.data.ArrayDataset(mx.nd.arange(12).reshape((6, 2)), np.arange(6) * 0.5)  # pickled to the worker
assert plain(list(DataLoader(arrays, batch_size=4, num_workers=1))) == plain(list(DataLoader(arrays, batch_size=4)))
loader = DataLoader(w.Pairs(), batch_size=1, num_workers=2, batchify_fn=w.pid_batch)
assert [b[1] for b in loader] == [[i] for i in range(11)]
assert multiprocessing.current_process().pid not in {b[0] for b in loader}
procs = list(loader._workers._procs)
del loader
gc.collect()
for p in procs:
    p.join(5)
    assert not p.is_alive(), p
print("ok")
"""

FAILURES = PRELUDE + """
for kwargs in (dict(num_workers=2), dict(num_workers=2, thread_pool=True)):
    loader = DataLoader(w.FailsAt(5), batch_size=2, **kwargs)
    for _ in range(2):  # the loader stays usable: the next pass fails the same way
        err = raises(loader, ValueError, 30)
        assert "sample 5 is broken" in str(err), err
        assert kwargs.get("thread_pool") or "data_workers.py" in str(err.__cause__), err.__cause__
err = raises(DataLoader(w.RaisesUnpicklable(), batch_size=2, num_workers=1), RuntimeError, 30)
assert "Unpicklable: 0 odd" in str(err), err
err = raises(DataLoader(w.DiesAt(), batch_size=1, num_workers=1), mx.MXNetError, 30)
assert "exited unexpectedly with code 3" in str(err), err
for kwargs in (dict(num_workers=1), dict(num_workers=1, thread_pool=True)):
    err = raises(DataLoader(w.SlowAt(), batch_size=1, timeout=0.5, **kwargs), multiprocessing.TimeoutError, 20)
    assert "timed out after 0.5 seconds" in str(err), err
try:
    DataLoader(mx.gluon.data.SimpleDataset([1, 2]).transform(lambda x: x), batch_size=1, num_workers=1)
except (AttributeError, TypeError, __import__("pickle").PicklingError) as err:
    assert "pickle" in str(err) and "lambda" in str(err), err
else:
    raise AssertionError("a lambda went to a worker process")
assert plain(list(DataLoader(mx.gluon.data.SimpleDataset([1, 2]).transform(lambda x: x * 2), batch_size=2,
                             num_workers=1, thread_pool=True))) == [("int64", (2,), [2, 4])]
print("ok")
"""


@pytest.mark.parametrize("script", [SAME_BATCHES, FAILURES], ids=["same_batches", "failures"])
def test_workers(script):
    status, out, err = run_script(script, timeout=120)
    assert status is not None, "hung (killed after 120 s)\n%s" % err[-4000:]
    assert status == 0 and out.strip().endswith("ok"), "exit status %s\n%s\n%s" % (status, out[-3000:], err[-4000:])


def test_default_batchify_stacks_nested_samples():
    samples = [(mx.nd.ones((2,)) * i, (np.float64(i), [i, i + 1])) for i in range(3)]
    x, (y, z) = mx.gluon.data.dataloader.default_batchify_fn(samples)
    assert x.shape == (3, 2) and x.dtype == np.float32 and x.asnumpy()[:, 0].tolist() == [0, 1, 2]
    assert y.dtype == np.float64 and y.asnumpy().tolist() == [0, 1, 2]
    assert z.dtype == np.int64 and z.asnumpy().tolist() == [[0, 1], [1, 2], [2, 3]]


def test_pin_memory_without_a_gpu_keeps_batches_on_the_cpu():
    (batch,) = DataLoader(mx.nd.ones((2, 2)), batch_size=2, pin_memory=True)
    assert batch.context == (mx.cpu_pinned() if mx.context.num_gpus() else mx.cpu())


SAMPLER = BatchSampler(SequentialSampler(4), 2)
BAD = [
    (ValueError, lambda: DataLoader(range(4))),
    (ValueError, lambda: DataLoader(range(4), batch_size=2, batch_sampler=SAMPLER)),
    (ValueError, lambda: DataLoader(range(4), shuffle=True, batch_sampler=SAMPLER)),
    (ValueError, lambda: DataLoader(range(4), batch_size=2, shuffle=True, sampler=SequentialSampler(4))),
    (ValueError, lambda: list(DataLoader(range(5), batch_size=2, last_batch="drop"))),
    (AssertionError, lambda: DataLoader(range(4), batch_size=2, timeout=0)),
    (AssertionError, lambda: ArrayDataset(mx.nd.ones(3), [1, 2])),
    (AssertionError, lambda: ArrayDataset()),
    (AssertionError, lambda: ArrayDataset(range(3)).shard(2, 2)),
    (TypeError, lambda: ArrayDataset(range(3)).sample(range(2))),
]


@pytest.mark.parametrize("kind, fn", BAD)
def test_bad_arguments(kind, fn):
    with pytest.raises(kind):
        fn()
