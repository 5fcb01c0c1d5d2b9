"""Starts the workers of a distributed job and watches them:

    python -m mxgo.distributed.launch -n 4 train.py --epochs 3

Each worker runs ``python script args...`` with RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and
MASTER_PORT set (torchrun's names, which torch.distributed reads) and MXNet's DMLC_ROLE=worker,
DMLC_WORKER_ID, DMLC_NUM_WORKER, DMLC_PS_ROOT_URI and DMLC_PS_ROOT_PORT. On several machines,
run it on each with the same ``--nnodes``, ``--master-addr`` (rank 0's machine, reachable from
the others) and ``--master-port``, and that machine's ``--node-rank``: worker ranks are
node_rank * n + local rank. (torchrun, started the same way, works too.)

When a worker exits with an error, the launcher stops the others (SIGTERM, then SIGKILL after
``--grace`` seconds), says which rank failed, and exits with its code: a job never waits on
a dead worker. The workers' own collectives are bounded by MXGO_KVSTORE_TIMEOUT.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

__all__ = ["main", "free_port", "worker_env", "Job"]


def free_port(host="127.0.0.1"):
    """A TCP port that nothing listens on now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def worker_env(rank, local_rank, world, addr, port, base=None):
    """The environment of the worker of the given rank."""
    env = dict(os.environ if base is None else base)
    values = {"RANK": rank, "LOCAL_RANK": local_rank, "WORLD_SIZE": world, "MASTER_ADDR": addr, "MASTER_PORT": port,
              "DMLC_ROLE": "worker", "DMLC_WORKER_ID": rank, "DMLC_NUM_WORKER": world, "DMLC_PS_ROOT_URI": addr,
              "DMLC_PS_ROOT_PORT": port}
    env.update({k: str(v) for k, v in values.items()})
    return env


class Job:
    """The worker processes of this machine; ``wait`` returns the job's exit code."""

    def __init__(self, commands, envs, grace=5.0):
        self.grace = grace
        self.procs = [subprocess.Popen(cmd, env=env) for cmd, env in zip(commands, envs)]
        self.ranks = [int(env["RANK"]) for env in envs]

    def wait(self, poll=0.05):
        """0 when every worker exited 0; else the first failure's code, the others stopped."""
        while True:
            codes = [p.poll() for p in self.procs]
            failed = [(rank, code) for rank, code in zip(self.ranks, codes) if code not in (None, 0)]
            if failed:
                rank, code = failed[0]
                sys.stderr.write("mxgo.distributed.launch: worker rank %d exited with code %d; stopping the others\n"
                                 % (rank, code))
                self.stop()
                return code if code > 0 else 128 - code
            if all(code == 0 for code in codes):
                return 0
            time.sleep(poll)

    def stop(self):
        """SIGTERM to every worker still running, SIGKILL to those alive after grace seconds."""
        alive = [p for p in self.procs if p.poll() is None]
        for p in alive:
            p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for p in alive:
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m mxgo.distributed.launch", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--num-workers", type=int, required=True, help="workers on this machine")
    parser.add_argument("--nnodes", type=int, default=1, help="machines in the job")
    parser.add_argument("--node-rank", type=int, default=0, help="this machine's index, 0 on rank 0's")
    parser.add_argument("--master-addr", default="127.0.0.1", help="rank 0's machine")
    parser.add_argument("--master-port", type=int, default=0, help="a free port on rank 0's machine (0: any, "
                        "one machine only)")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds between SIGTERM and SIGKILL")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    if ns.num_workers < 1 or ns.nnodes < 1 or not 0 <= ns.node_rank < ns.nnodes:
        parser.error("need -n >= 1, --nnodes >= 1 and 0 <= --node-rank < --nnodes")
    if ns.nnodes > 1 and not ns.master_port:
        parser.error("several machines need the same --master-port on each")
    return ns


def main(argv=None):
    ns = parse(sys.argv[1:] if argv is None else argv)
    port = ns.master_port or free_port(ns.master_addr)
    world = ns.num_workers * ns.nnodes
    ranks = [ns.node_rank * ns.num_workers + i for i in range(ns.num_workers)]
    envs = [worker_env(rank, i, world, ns.master_addr, port) for i, rank in enumerate(ranks)]
    job = Job([[sys.executable, ns.script] + ns.args for _ in ranks], envs, ns.grace)
    try:
        return job.wait()
    except KeyboardInterrupt:
        job.stop()
        return 130


if __name__ == "__main__":
    sys.exit(main())
