"""mxgo with Dask: when one process is not enough, Dask spreads the work, and mxgo's
NDArrays and operators go along.

A dask.array is built from an mxgo NDArray; map_blocks runs mxgo operators on every block
in two worker processes; NDArrays travel between processes by pickle (the driver's array
to the workers, results back with client.submit). Everything stays on this machine
(loopback only).

    python examples/dask_pipeline.py
"""
import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster

import mxgo as mx


def scaled_tanh(block):
    """Runs in a worker on one NumPy block (possibly read-only or unaligned, as Dask
    deserialises them): mxgo copies it in, computes, and hands back NumPy."""
    x = mx.nd.array(block, dtype="float32")
    return mx.nd.tanh(x * 0.5 + 1).asnumpy()


def row_norms(x):
    """An NDArray in, an NDArray out: both cross processes by pickle."""
    return mx.nd.sqrt((x * x).sum(axis=1))


def main():
    rng = np.random.default_rng(0)
    values = rng.standard_normal((4000, 500)).astype(np.float32)
    x = mx.nd.array(values)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        d = da.from_array(x, chunks=(1000, 500))  # blocks are slices of x, read in the workers
        y = d.map_blocks(scaled_tanh, dtype=np.float32)
        col_means = y.mean(axis=0).compute()
        norms = client.submit(row_norms, x).result()
    expected = np.tanh(values * np.float32(0.5) + np.float32(1))
    np.testing.assert_allclose(col_means, expected.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(norms.asnumpy(), np.linalg.norm(values, axis=1), rtol=1e-5)
    print("dask: %d blocks over 2 worker processes; column means and row norms match NumPy" % d.npartitions)
    print("row_norms came back as", type(norms).__name__, norms.shape)


if __name__ == "__main__":
    main()
