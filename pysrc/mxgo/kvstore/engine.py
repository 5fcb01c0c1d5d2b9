"""The collective engine of the 'dist_*' stores: torch.distributed on gloo (CPU), which
reduces the mxgo arrays' own memory, handed to it through DLPack (no copies).

gloo was chosen by measurement (bench/bench_allreduce.py, bench/results/allreduce.md). The
workers find each other through the variables the launcher sets (python -m
mxgo.distributed.launch, or torchrun): RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, or MXNet's
DMLC_WORKER_ID (DMLC_RANK), DMLC_NUM_WORKER, DMLC_PS_ROOT_URI, DMLC_PS_ROOT_PORT. A process
group the program made itself (torch.distributed.init_process_group) is used as it is.
Every collective is bounded by MXGO_KVSTORE_TIMEOUT seconds (default 300): a worker that
died or stopped answering makes the others raise MXNetError, never hang.
"""
import atexit
import datetime
import os

from ..base import MXNetError

__all__ = ["Engine", "get", "TIMEOUT_ENV", "DEFAULT_TIMEOUT"]

TIMEOUT_ENV = "MXGO_KVSTORE_TIMEOUT"
DEFAULT_TIMEOUT = 300.0


def _env(*names):
    """The first of the variables names that is set and not empty, else None."""
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


def _int_env(value, what):
    try:
        return int(value)
    except ValueError:
        raise MXNetError("kvstore: %s must be a whole number, got %r" % (what, value)) from None


def timeout_seconds():
    """MXGO_KVSTORE_TIMEOUT, or the default."""
    value = os.environ.get(TIMEOUT_ENV) or DEFAULT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise MXNetError("%s must be a number of seconds > 0, got %r" % (TIMEOUT_ENV, value))
    return seconds


class Engine:
    """One process's membership of the job's process group: its rank, the number of
    workers, and in-place all-reduce (sum), broadcast from rank 0 and barrier of mxgo
    arrays."""

    def __init__(self):
        role = os.environ.get("DMLC_ROLE", "worker")
        if role != "worker":
            raise MXNetError("DMLC_ROLE=%s: mxgo has no parameter servers or scheduler; every process is a worker "
                             "that all-reduces (start only workers)" % role)
        try:
            import torch.distributed as dist
            import torch.utils.dlpack as tdl
        except ImportError as e:
            raise MXNetError("a 'dist' kvstore all-reduces with PyTorch's torch.distributed (gloo): pip install "
                             "torch (%s)" % e) from e
        self._dist, self._tdl = dist, tdl
        self.timeout = timeout_seconds()
        self.failed = ""  # why the process group broke, once it has
        if not dist.is_initialized():
            self._join(dist)
        self.rank, self.size = dist.get_rank(), dist.get_world_size()

    def _join(self, dist):
        world = _env("WORLD_SIZE", "DMLC_NUM_WORKER")
        rank = _env("RANK", "DMLC_WORKER_ID", "DMLC_RANK")
        port = _env("MASTER_PORT", "DMLC_PS_ROOT_PORT")
        if world is None or rank is None or port is None:
            raise MXNetError("a 'dist' kvstore needs its worker's rank, the number of workers and the address of "
                             "rank 0: start the workers with `python -m mxgo.distributed.launch -n N script.py` (or "
                             "torchrun), which set RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (MXNet's "
                             "DMLC_WORKER_ID, DMLC_NUM_WORKER, DMLC_PS_ROOT_URI and DMLC_PS_ROOT_PORT work too)")
        world, rank = _int_env(world, "WORLD_SIZE"), _int_env(rank, "RANK")
        if not 0 <= rank < world:
            raise MXNetError("kvstore: rank %d is not in [0, %d)" % (rank, world))
        addr = "%s:%d" % (_env("MASTER_ADDR", "DMLC_PS_ROOT_URI") or "127.0.0.1", _int_env(port, "MASTER_PORT"))
        try:
            dist.init_process_group("gloo", init_method="tcp://" + addr, rank=rank, world_size=world,
                                    timeout=datetime.timedelta(seconds=self.timeout))
        except (RuntimeError, ValueError) as e:
            raise MXNetError("kvstore: worker rank %d of %d could not join the others at %s within %gs: %s"
                             % (rank, world, addr, self.timeout, e)) from e
        # The group this store made is left at exit: gloo's threads, still running when the
        # interpreter ends, abort it otherwise (PyTorch 1.13: "terminate called without an
        # active exception").
        atexit.register(self._leave)

    def _leave(self):
        if self._dist.is_initialized():
            self._abandon()

    def _tensor(self, arr):
        """A torch tensor on arr's memory (waits for arr's pending reads and writes)."""
        return self._tdl.from_dlpack(arr.to_dlpack_for_write())

    def _run(self, what, fn, *args, **kwargs):
        if self.failed:
            raise MXNetError("kvstore: %s on worker rank %d of %d: the job failed earlier (%s)"
                             % (what, self.rank, self.size, self.failed))
        try:
            fn(*args, **kwargs)
        except RuntimeError as e:
            self.failed = "kvstore: %s failed on worker rank %d of %d (%s); a peer worker that exited or did not " \
                          "answer within %gs fails it so" % (what, self.rank, self.size, e, self.timeout)
            self._abandon()
            raise MXNetError(self.failed) from e

    def _abandon(self):
        """Leaves the broken process group now (its threads would abort the interpreter at
        exit otherwise); this process's later collectives raise."""
        try:
            self._dist.destroy_process_group()
        except (RuntimeError, ValueError, AssertionError):
            pass

    def allreduce(self, arr):
        """arr := the sum of arr over every worker, in arr's memory."""
        self._run("all-reduce", self._dist.all_reduce, self._tensor(arr))

    def broadcast(self, arr):
        """arr := rank 0's arr, in arr's memory."""
        self._run("broadcast", self._dist.broadcast, self._tensor(arr), src=0)

    def barrier(self):
        """Returns when every worker has called it."""
        self._run("barrier", self._dist.barrier)


_ENGINE: list = []


def get():
    """This process's Engine (made on the first call)."""
    if not _ENGINE:
        _ENGINE.append(Engine())
    return _ENGINE[0]
