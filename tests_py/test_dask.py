"""mxgo under Dask's distributed scheduler, with worker processes: a dask.array built from
an NDArray, map_blocks pipelines running mxgo operators in the workers, and NDArrays
crossing processes by pickle. The cluster is local (loopback only), started and closed
by the script with bounded timeouts; the script runs in its own interpreter under a
timeout. Main environment only, like JAX: the legacy one has no Dask (environments.py)."""
import os

from isolation import run_script

HERE = os.path.dirname(os.path.abspath(__file__))

PIPELINE = """
import numpy as np, dask, dask.array as da
from dask.distributed import Client, LocalCluster
import mxgo as mx

def mx_block(b):
    # NumPy blocks as Dask deserialises them: read-only, possibly unaligned
    x = mx.nd.array(b, dtype=b.dtype)
    return (mx.nd.exp(x * 0.5) + x).asnumpy()

def mx_zero_copy(b):
    y = mx.nd.from_dlpack(np.ascontiguousarray(b))
    return np.from_dlpack(y * 3)

def reduce_rows(x):
    return x.sum(axis=1)

values = (np.arange(6000, dtype=np.float64).reshape(200, 30) % 17) / 7
x = mx.nd.array(values, dtype="float64")
with dask.config.set({"distributed.comm.timeouts.connect": "30s"}):
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None)
    client = Client(cluster, timeout=60)
try:
    d = da.from_array(x, chunks=(50, 30))
    assert d.dtype == np.float64 and d.shape == (200, 30) and d.npartitions == 4
    got = d.map_blocks(mx_block, dtype=np.float64).compute(timeout=120)
    np.testing.assert_allclose(got, np.exp(values * 0.5) + values, rtol=1e-12)
    got = d.map_blocks(mx_zero_copy, dtype=np.float64).sum(axis=0).compute(timeout=120)
    np.testing.assert_allclose(got, (values * 3).sum(axis=0), rtol=1e-12)
    # NDArrays out to a worker and back, by pickle
    futures = client.map(reduce_rows, [x, x[::2], mx.nd.ones((4, 5), dtype="int32")])
    r = client.gather(futures, errors="raise")
    assert all(isinstance(v, mx.nd.NDArray) for v in r)
    np.testing.assert_allclose(r[0].asnumpy(), values.sum(axis=1))
    np.testing.assert_allclose(r[1].asnumpy(), values[::2].sum(axis=1))
    assert r[2].asnumpy().tolist() == [5] * 4
    pids = client.run(lambda: __import__("os").getpid())
    assert len(set(pids.values())) == 2 and __import__("os").getpid() not in pids.values()
finally:
    client.close(timeout=30)
    cluster.close(timeout=30)
print("ok")
"""


def check(code, timeout=300):
    status, out, err = run_script(code, timeout=timeout)
    assert status is not None, "hung (killed after %d s)\n%s" % (timeout, err[-4000:])
    assert status == 0 and out.strip().endswith("ok"), "exit status %s\n%s\n%s" % (status, out[-3000:], err[-4000:])


def test_dask_pipeline():
    check(PIPELINE)


def test_dask_example():
    status, out, err = run_script(open(os.path.join(HERE, "..", "examples", "dask_pipeline.py")).read(), timeout=300)
    assert status == 0 and "match NumPy" in out, "exit status %s\n%s\n%s" % (status, out[-3000:], err[-4000:])
