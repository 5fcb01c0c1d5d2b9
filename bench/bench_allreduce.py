#!/usr/bin/env python3
"""All-reduce (sum) of float32 buffers across worker processes on this machine (127.0.0.1),
through the collective engines mxgo's KVStore could sit on, each fed mxgo arrays zero-copy
against the same engine on its own native buffers, in the same run.

- gloo (torch.distributed): ``dist.all_reduce(torch.utils.dlpack.from_dlpack(
  x.to_dlpack_for_write()))`` in place on an mxgo array, against ``dist.all_reduce(t)`` on
  a torch tensor. The capsule export and import are inside the timed call.
- Open MPI (mpi4py, when installed with ``mpirun`` on PATH): ``comm.Allreduce(MPI.IN_PLACE,
  x)`` on an mxgo array (mpi4py takes any ``__dlpack__`` object as a buffer), against the
  same on a NumPy array.

Each size runs ``reps`` calls per side, mxgo's and the native one alternating, after a
warm-up call each; the table gives rank 0's median milliseconds per call and the ratio
mxgo / native (1.00 = same cost). Sizes: 1 KiB, 1 MiB, 100 MiB; 2 and 4 processes.

    python bench/bench_allreduce.py [--out bench/results/allreduce.md] [--worlds 2 4]
"""
import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [(1 << 10, "1 KiB", 200), (1 << 20, "1 MiB", 40), (100 << 20, "100 MiB", 4)]  # bytes, label, reps


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(fn, reps):
    fn()  # warm-up: connections, first-touch of the pages
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def measure(mx_call, native_call, reps):
    """Median ms of each side, the sides alternating in blocks of one call."""
    mx_t, nat_t = [], []
    for _ in range(reps):
        mx_t += timed(mx_call, 1)[-1:]
        nat_t += timed(native_call, 1)[-1:]
    return statistics.median(mx_t) * 1e3, statistics.median(nat_t) * 1e3


def gloo_worker(rank, world, port):
    import torch
    import torch.distributed as dist
    import torch.utils.dlpack as tdl

    import mxgo as mx
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
    rows = []
    for nbytes, label, reps in SIZES:
        n = nbytes // 4
        x, t = mx.nd.ones((n,)), torch.ones(n)
        rows.append((label, *measure(lambda x=x: dist.all_reduce(tdl.from_dlpack(x.to_dlpack_for_write())),
                                     lambda t=t: dist.all_reduce(t), reps)))
        assert x[0].asscalar() > 1  # the reductions landed in the mxgo array itself
    dist.destroy_process_group()
    return rows


def mpi_worker():
    import numpy as np
    from mpi4py import MPI

    import mxgo as mx
    comm = MPI.COMM_WORLD
    rows = []
    for nbytes, label, reps in SIZES:
        n = nbytes // 4
        x, a = mx.nd.ones((n,)), np.ones(n, np.float32)
        rows.append((label, *measure(lambda x=x: comm.Allreduce(MPI.IN_PLACE, x),
                                     lambda a=a: comm.Allreduce(MPI.IN_PLACE, a), reps)))
    return rows if comm.Get_rank() == 0 else None


def run_gloo(world):
    port = free_port()
    procs = [subprocess.Popen([sys.executable, __file__, "--gloo-worker", str(r), str(world), str(port)],
                              stdout=subprocess.PIPE, text=True) for r in range(world)]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    if any(p.returncode for p in procs):
        raise SystemExit("gloo workers failed: %s" % [p.returncode for p in procs])
    return json.loads(outs[0])


def run_mpi(world):
    mpirun = shutil.which("mpirun")
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None
    if not mpirun:
        return None
    cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "-n", str(world), "--mca", "btl", "self,vader,tcp",
           sys.executable, __file__, "--mpi-worker"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(results):
    lines = ["| engine | processes | size | mxgo array ms | native ms | ratio |", "|---|---:|---:|---:|---:|---:|"]
    for engine, world, rows in results:
        for label, mx_ms, nat_ms in rows:
            lines.append("| %s | %d | %s | %.3f | %.3f | %.2f |" % (engine, world, label, mx_ms, nat_ms, mx_ms / nat_ms))
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--gloo-worker":
        rows = gloo_worker(*map(int, sys.argv[2:5]))
        if int(sys.argv[2]) == 0:
            print(json.dumps(rows))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--mpi-worker":
        rows = mpi_worker()
        if rows is not None:
            print(json.dumps(rows))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "results", "allreduce.md"))
    parser.add_argument("--worlds", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    import torch

    import mxgo as mx
    from machine import cpu_name
    results = []
    for world in args.worlds:
        results.append(("gloo (torch.distributed)", world, run_gloo(world)))
        mpi = run_mpi(world)
        if mpi is not None:
            results.append(("Open MPI (mpi4py)", world, mpi))
    try:
        import mpi4py
        mpi_version = "mpi4py %s" % mpi4py.__version__
    except ImportError:
        mpi_version = "no mpi4py"
    text = "\n".join([
        "# All-reduce through mxgo arrays against the engine's own buffers", "",
        "Python %s, PyTorch %s, %s, mxgo %s; %s, %d cores; %s" % (
            platform.python_version(), torch.__version__, mpi_version, mx.__version__, cpu_name(), os.cpu_count(),
            platform.platform()), "",
        "Sum of float32 buffers across processes on 127.0.0.1, in place; median ms per call on rank 0 "
        "(1 KiB: 200 calls, 1 MiB: 40, 100 MiB: 4 per side, the sides alternating); ratio = mxgo / native. "
        "gloo's native side is a torch tensor, Open MPI's a NumPy array; mxgo's side hands the engine the "
        "array's own memory (gloo: a DLPack capsule from `to_dlpack_for_write`, imported by torch; mpi4py: "
        "the array's `__dlpack__`). `python bench/bench_allreduce.py`.", "",
        table(results), ""])
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
