"""mxgo in worker processes: NDArrays through multiprocessing.Queue and Pool.map under the
'spawn' and 'forkserver' start methods; under 'fork' a worker's use of mxgo raises the
forked-child MXNetError, which Pool and PyTorch's DataLoader re-raise in the parent, never
a hang. Each case runs in its own interpreter under a timeout (the workers it starts are
its children), so a hang fails the case instead of the run."""
import pytest

from isolation import run_script

PRELUDE = """
import multiprocessing as mp, numpy as np
import mxgo as mx
import proc_workers as w
"""

POOL = PRELUDE + """
ctx = mp.get_context(%r)
xs = [mx.nd.array(np.arange(12).reshape(3, 4) + i, dtype=dt)
      for i, dt in enumerate(["float32", "int64", "float16", "uint8"])]
xs.append(xs[0][:, ::2])  # a strided view travels as a compact copy
with ctx.Pool(2) as pool:
    ys = pool.map(w.double, xs)
    zs = pool.map(w.double_values, [[1, 2], [3, 4]])
for x, y in zip(xs, ys):
    assert isinstance(y, mx.nd.NDArray) and y.dtype == x.dtype and y.shape == x.shape, (x, y)
    assert (y.asnumpy() == x.asnumpy() * 2).all(), (x, y)
assert [z.tolist() for z in zs] == [[2, 4], [6, 8]], zs
print("ok")
"""

QUEUE = PRELUDE + """
ctx = mp.get_context(%r)
inbox, outbox = ctx.Queue(), ctx.Queue()
p = ctx.Process(target=w.echo_doubled, args=(inbox, outbox))
p.start()
xs = [mx.nd.ones((2, 3)), mx.nd.arange(5, dtype="int32"), mx.nd.zeros((0, 4)), mx.nd.array(7.0).reshape(())]
for x in xs:
    inbox.put(x)
inbox.put(None)
for x in xs:
    y = outbox.get(timeout=60)
    assert y.dtype == np.float64 and y.shape == x.shape and (y.asnumpy() == 2 * x.asnumpy()).all(), (x, y)
p.join(60)
assert p.exitcode == 0, p.exitcode
print("ok")
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_pool_map(method):
    check(POOL % method)


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_queue(method):
    check(QUEUE % method)


def test_pool_under_fork_reports_the_error():
    check(PRELUDE + """
import time
ctx = mp.get_context("fork")
x = mx.nd.ones((3,))
with ctx.Pool(2) as pool:
    assert pool.map(w.numpy_only, [[1, 2]])[0].tolist() == [2, 4]  # no mxgo: fine under fork
    for fn, arg in ((w.double_values, [1, 2]), (w.double, x)):  # an NDArray argument unpickles, then fails
        start = time.monotonic()
        try:
            pool.map(fn, [arg])
        except mx.MXNetError as err:
            assert "forked child" in str(err) and "spawn" in str(err), err
        else:
            raise AssertionError("no error under fork")
        assert time.monotonic() - start < 10
assert (x.asnumpy() == 1).all()  # the parent carries on
print("ok")
""")


def test_forkserver_with_mxgo_preloaded_reports_the_error():
    # The fork server then runs Go itself, and its workers are forks of it.
    check(PRELUDE + """
ctx = mp.get_context("forkserver")
ctx.set_forkserver_preload(["mxgo"])
with ctx.Pool(1) as pool:
    try:
        pool.map(w.double_values, [[1, 2]])
    except mx.MXNetError as err:
        assert "set_forkserver_preload" in str(err), err
    else:
        raise AssertionError("a worker forked from a server that preloaded mxgo ran Go")
print("ok")
""")


DATALOADER = PRELUDE + """
import torch
from torch.utils.data import DataLoader
loader = DataLoader(w.MxDataset(), batch_size=4, num_workers=2%s)
batches = list(loader)
assert len(batches) == 2 and batches[1].shape == (4, 2, 3), [b.shape for b in batches]
assert batches[1][3].tolist() == (torch.arange(6.0).reshape(2, 3) + 7).tolist()
print("ok")
"""


def test_dataloader_spawn():
    check(DATALOADER % ', multiprocessing_context="spawn"')


def test_dataloader_default_fork_fails_fast():
    check(PRELUDE + """
import time, torch
from torch.utils.data import DataLoader
start = time.monotonic()
try:
    list(DataLoader(w.MxDataset(), batch_size=4, num_workers=2))
except mx.MXNetError as err:
    assert "forked child" in str(err) and "multiprocessing_context='spawn'" in str(err), err
else:
    raise AssertionError("the fork workers did not refuse")
assert time.monotonic() - start < 30
print("ok")
""")


def check(code, timeout=240):
    status, out, err = run_script(code, timeout=timeout)
    assert status is not None, "hung (killed after %d s)\n%s" % (timeout, err[-4000:])
    assert status == 0 and out.strip().endswith("ok"), "exit status %s\n%s\n%s" % (status, out[-3000:], err[-4000:])
