"""DataLoader: mini-batches of a dataset, made in this process, in worker processes or in
worker threads.

Worker processes are started with multiprocessing's 'spawn' method, never 'fork' (MXNet's
default on Linux): Go's runtime does not survive a fork, and mxgo refuses to run in a
forked child. So the dataset and ``batchify_fn`` must pickle (no lambdas or local
functions; ``thread_pool=True`` has no such limit), and a script that makes such a loader
at its top level needs ``if __name__ == "__main__":`` (each worker imports it). Each
worker pickles its batch itself and sends the bytes, or the exception that made it fail,
which the parent raises; the parent waits in short steps and raises when a worker has died
or a batch took longer than ``timeout`` (counted from when the workers are up: starting
an interpreter is not a slow batch), so a worker can never hang it.
"""
import collections
import itertools
import multiprocessing
import multiprocessing.pool
import os
import pickle
import queue
import signal
import time
import traceback
import weakref

import numpy as np

from ... import ndarray as nd
from ... import numpy as _mxnp
from ...base import MXNetError
from ...util import is_np_array
from ...context import cpu_pinned, num_gpus
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader"]

#: how long the parent waits on the result queue before it looks at its workers again
_POLL_S = 0.1
#: how long workers may take to start before batch timeouts count
_START_S = 60.0


def default_batchify_fn(data):
    """Stacks the samples into a batch: NDArrays with nd.stack, tuples element by element
    (a list of batches), anything else through np.asarray into an NDArray of its dtype (an
    mx.np array in NumPy mode, as MXNet's)."""
    batch = _batchify(data)
    return _mxnp.asarray(batch) if is_np_array() and isinstance(batch, nd.NDArray) else batch


def _batchify(data):
    if isinstance(data[0], nd.NDArray):
        return nd.stack(*data)
    if isinstance(data[0], tuple):
        return [default_batchify_fn(i) for i in zip(*data)]
    data = np.asarray(data)
    return nd.array(data, dtype=data.dtype)


# MXNet's stacks into shared memory; mxgo's workers send their batches pickled.
default_mp_batchify_fn = default_batchify_fn


def _as_in_context(data, ctx):
    if ctx is None:
        return data
    if isinstance(data, nd.NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


class _RemoteTraceback(Exception):
    """The worker's traceback, chained to the exception the parent raises."""

    def __str__(self):
        return "\n\n" + self.args[0]


def _outcome(dataset, batchify_fn, indices):
    """Pickled (True, batch), or (False, the exception, its traceback text)."""
    try:
        return pickle.dumps((True, batchify_fn([dataset[i] for i in indices])), pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # every failure goes to the parent
        text = traceback.format_exc()
        try:
            failure = pickle.dumps((False, err, text), pickle.HIGHEST_PROTOCOL)
            pickle.loads(failure)
            return failure
        except Exception:  # an exception that does not survive pickle goes as text
            return pickle.dumps((False, RuntimeError("%s: %s" % (type(err).__name__, err)), text))


def _worker_loop(dataset, batchify_fn, tasks, results, parent):
    """A worker process: batches for (key, indices) tasks until None, or until its parent
    is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    results.put((None, None))  # started: the parent's timeouts count from now
    while True:
        try:
            task = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:
                return
            continue
        if task is None:
            return
        key, indices = task
        results.put((key, _outcome(dataset, batchify_fn, indices)))


def _stop(procs, tasks):
    for _ in procs:
        tasks.put(None)
    tasks.cancel_join_thread()
    deadline = time.monotonic() + 0.25  # an idle worker stops at once; a busy one is killed
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.terminate()


def _timeout_error(timeout):
    return multiprocessing.TimeoutError("Worker timed out after {} seconds. This might be caused by a slow "
                                        "dataset or transform: increase timeout to allow slower data "
                                        "loading.".format(timeout))


class _Processes:
    """Worker processes that share a task queue and a result queue. Results are kept by
    key until asked for; those of keys nobody waits for any more are dropped on arrival."""

    def __init__(self, num_workers, dataset, batchify_fn):
        ctx = multiprocessing.get_context("spawn")
        self._tasks, self._results = ctx.Queue(), ctx.Queue()
        self._keys = itertools.count()
        self._wanted, self._done = set(), {}
        self._starting, self._born = num_workers, time.monotonic()
        self._procs = []
        self._finalizer = weakref.finalize(self, _stop, self._procs, self._tasks)
        for _ in range(num_workers):
            p = ctx.Process(target=_worker_loop, args=(dataset, batchify_fn, self._tasks, self._results, os.getpid()),
                            daemon=True)
            p.start()  # pickles the dataset: one that does not pickle raises here
            self._procs.append(p)

    def submit(self, indices):
        key = next(self._keys)
        self._wanted.add(key)
        self._tasks.put((key, indices))
        return key

    def result(self, key, timeout):
        try:
            outcome = pickle.loads(self._wait(key, timeout))
        finally:
            self.discard([key])
        if outcome[0]:
            return outcome[1]
        raise outcome[1] from _RemoteTraceback(outcome[2])

    def _wait(self, key, timeout):
        deadline = time.monotonic() + timeout
        while key not in self._done:
            if self._starting and time.monotonic() < self._born + _START_S:
                deadline = time.monotonic() + timeout  # a worker importing mxgo is not a slow batch
            try:
                got, payload = self._results.get(timeout=_POLL_S)
            except queue.Empty:
                dead = [p for p in self._procs if not p.is_alive()]
                if dead:
                    self._finalizer()
                    raise MXNetError("DataLoader worker (pid %d) exited unexpectedly with code %s (its stderr "
                                     "says why; a script that makes a DataLoader with workers at its top "
                                     "level needs `if __name__ == '__main__':`, since each worker imports "
                                     "it)" % (dead[0].pid, dead[0].exitcode)) from None
                if time.monotonic() > deadline:
                    raise _timeout_error(timeout) from None
                continue
            if got is None:
                self._starting -= 1
            elif got in self._wanted:
                self._done[got] = payload
        return self._done[key]

    def discard(self, keys):
        """Forgets keys whose batches nobody will ask for."""
        for key in keys:
            self._wanted.discard(key)
            self._done.pop(key, None)

    def close(self):
        self._finalizer()


class _Threads:
    """Worker threads that read the dataset in place (daemon threads: one stuck in the
    dataset does not hold up the interpreter's exit)."""

    def __init__(self, num_workers, dataset, batchify_fn):
        self._pool = multiprocessing.pool.ThreadPool(num_workers)
        self._dataset, self._batchify_fn = dataset, batchify_fn

    def submit(self, indices):
        return self._pool.apply_async(self._batch, (indices,))

    def _batch(self, indices):
        return self._batchify_fn([self._dataset[i] for i in indices])

    def result(self, pending, timeout):
        try:
            return pending.get(timeout)
        except multiprocessing.TimeoutError:
            raise _timeout_error(timeout) from None

    def discard(self, pending):
        pass  # a thread's result is dropped with its AsyncResult

    def close(self):
        self._pool.terminate()


class _WorkerIter:
    """One pass over the batches through workers, ``prefetch`` batches ahead (MXNet's
    order: each step submits one more, then waits for the oldest)."""

    def __init__(self, workers, batch_sampler, prefetch, timeout, pin):
        self._workers, self._timeout, self._pin = workers, timeout, pin
        self._batches = iter(batch_sampler)
        self._pending = collections.deque()
        for _ in range(prefetch):
            self._push()

    def _push(self):
        indices = next(self._batches, None)
        if indices is not None:
            self._pending.append(self._workers.submit(indices))

    def __iter__(self):
        return self

    def __next__(self):
        self._push()
        if not self._pending:
            raise StopIteration
        try:
            batch = self._workers.result(self._pending.popleft(), self._timeout)
        except BaseException:
            self.close()
            raise
        return _as_in_context(batch, self._pin)

    def close(self):
        """Gives up the batches submitted and not yet taken."""
        self._workers.discard(self._pending)
        self._pending.clear()

    def __del__(self):
        self.close()


class DataLoader:
    """Mini-batches of ``dataset`` (a Dataset, or an mx.nd or NumPy array).

    Either ``batch_size`` (with optional ``shuffle`` or ``sampler``, and ``last_batch``:
    'keep', 'discard' or 'rollover') or a ``batch_sampler`` of index lists. ``batchify_fn``
    makes a batch of a list of samples (default_batchify_fn). ``num_workers`` > 0 makes the
    batches in that many worker processes (threads with ``thread_pool=True``), ``prefetch``
    batches ahead (default 2 * num_workers), each within ``timeout`` seconds.
    ``pin_memory`` copies each batch to cpu_pinned(pin_device_id) (where a GPU is). With
    ``auto_reload``, the next pass is prefetched as soon as one ends (as soon as the loader is
    made, for the first)."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None, batch_sampler=None,
                 batchify_fn=None, num_workers=0, pin_memory=False, pin_device_id=0, prefetch=None,
                 thread_pool=False, timeout=120, auto_reload=False):
        if not timeout > 0:
            raise AssertionError("timeout must be positive, given {}".format(timeout))
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless batch_sampler is specified")
            if sampler is None:
                sampler = (RandomSampler if shuffle else SequentialSampler)(len(dataset))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = BatchSampler(sampler, batch_size, last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be specified if batch_sampler "
                             "is specified.")
        self._dataset = dataset
        self._batch_sampler = batch_sampler
        self._batchify_fn = default_batchify_fn if batchify_fn is None else batchify_fn
        # Pinned memory needs a CUDA driver, and without a GPU it would speed nothing up.
        self._pin = cpu_pinned(pin_device_id) if pin_memory and num_gpus() else None
        self._timeout = timeout
        self._num_workers = max(0, num_workers)
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        self._workers = None
        if self._num_workers:
            self._workers = (_Threads if thread_pool else _Processes)(self._num_workers, dataset, self._batchify_fn)
        self.auto_reload = auto_reload
        self._iter = None
        if auto_reload:
            self.refresh()

    def _in_process(self):
        for indices in self._batch_sampler:
            batch = self._batchify_fn([self._dataset[i] for i in indices])
            yield _as_in_context(batch, self._pin)

    def _prefetch_iter(self):
        if self._workers is None:
            return self._in_process()
        return _WorkerIter(self._workers, self._batch_sampler, self._prefetch, self._timeout, self._pin)

    def __iter__(self):
        if self._iter is None:
            self.refresh()
        it, self._iter = self._iter, None  # a prefetched pass serves one iteration only
        yield from it
        if self._iter is None and self.auto_reload:
            self.refresh()

    def __len__(self):
        return len(self._batch_sampler)

    def refresh(self):
        """Starts the next pass now (its workers prefetch)."""
        self._iter = self._prefetch_iter()

    def clean(self):
        """Drops the prefetched pass: the next starts when iterated."""
        self._iter = None

    def __del__(self):
        if getattr(self, "_workers", None) is not None:
            self._workers.close()
