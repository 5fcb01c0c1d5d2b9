"""``mx.nd.run_async``: Python callables run on mxgo's dependency engine.

A callable pushed with the arrays it reads and writes runs on an engine thread once the
work it depends on is done, and the work pushed after it on those arrays waits for it, as
the MXNet-TVM bridge ran foreign functions on MXNet's engine. It receives the arrays as
:class:`DLPackView` objects that any DLPack consumer imports without copying
(``torch.from_dlpack(v)``, ``np.from_dlpack(v)``).

How it works: the callable is kept in ``_pending`` under an id until it has run (or been
dropped because a dependency failed); ``core.RunAsync`` pushes an engine operation whose
work calls C (``pkg/pybridge/callback.c``), which takes the GIL and calls ``_runner`` with
the id. ``_runner`` reports the callable's exception as ``(kind, message)``, which becomes
the engine error of the written arrays.
"""
import atexit
import itertools
import os

from ..base import RUN_ASYNC, MXNetBufferError, MXNetTypeError, MXNetValueError, call, callbacks, core, error_result
from ..context import Context
from .dlpack import from_dlpack
from .ndarray import NDArray

__all__ = ["run_async", "DLPackView"]


_cb = callbacks
_export = _cb.export

#: callbacks pushed and not yet run or dropped: id -> (callable, views)
_pending = {}
_ids = itertools.count(1)

_READ_ONLY = 1 << 0  # DLPack flags
_IS_COPIED = 1 << 1
_CPU = Context.devstr2type["cpu"]

def _runner(cid, run):
    # Called from C on an engine thread with the GIL held (see callback.c).
    entry = _pending.pop(cid, None)
    if entry is None or not run:
        return None  # dropped: a dependency failed, the callable is released unrun
    fn, views = entry
    del entry
    try:
        fn(*views)
    except BaseException as exc:  # noqa: B902 - everything becomes the engine's error
        return error_result(exc)
    finally:
        for v in views:
            v._close()
    return None


_cb.set_runner(RUN_ASYNC, _runner)


def _shutdown():
    # Registered after base's exit hook, so it runs first: let pushed callbacks run while
    # Python still can, then refuse any later one (it would run during finalization).
    try:
        core.WaitAll()
    except RuntimeError:
        pass
    _cb.close()


atexit.register(_shutdown)


def _forked_child():
    # No engine runs in a forked child (see base._forked_child): nothing to drain at exit,
    # and callables inherited in _pending never run there.
    atexit.unregister(_shutdown)
    _cb.close()
    _pending.clear()


os.register_at_fork(after_in_child=_forked_child)


def pending():
    """Number of callbacks pushed that have neither run nor been dropped (for tests)."""
    return len(_pending)


class DLPackView:
    """What a :func:`run_async` callable receives for each array: a zero-copy DLPack
    producer of the array, valid while the callable runs.

    Import it with any DLPack consumer: ``torch.from_dlpack(v)``, ``np.from_dlpack(v)``,
    ``jax.dlpack.from_dlpack(v)``, ``mx.nd.from_dlpack(v)``, or MXNet-style
    ``torch.utils.dlpack.from_dlpack(v.to_dlpack_for_write())``. Unlike an NDArray's own
    exports these never wait on the engine: the running callable is the very work such a
    wait would wait for. Versioned exports of an array declared only as read carry
    DLPack's READ_ONLY flag. Once the callable has returned, exporting raises BufferError.
    """

    __slots__ = ("_array", "_write", "shape", "dtype")

    def __init__(self, array, write):
        self._array = array
        self._write = bool(write)
        self.shape = array.shape
        self.dtype = array.dtype

    @property
    def writable(self):
        """Whether the array was declared as written (and may be written)."""
        return self._write and self._array is not None and self._array.writable

    def _close(self):
        self._array = None

    def _live(self):
        arr = self._array
        if arr is None:
            raise MXNetBufferError("this DLPackView belonged to a run_async callable that has returned; "
                              "views are valid only while their callable runs")
        return arr

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        arr = self._live()
        if stream is not None and (not isinstance(stream, int) or isinstance(stream, bool)):
            raise MXNetTypeError("stream must be None or an int, got %s" % type(stream).__name__)
        if stream not in (None, -1):
            raise MXNetValueError("stream=%r is not valid for CPU arrays (use None or -1)" % (stream,))
        versioned = False
        if max_version is not None:
            try:
                major = max_version[0]
                if len(max_version) != 2 or not isinstance(major, int) or isinstance(major, bool):
                    raise TypeError
            except (TypeError, IndexError, KeyError):
                raise MXNetTypeError("max_version must be a (major, minor) tuple of ints, got %r" % (max_version,)) from None
            versioned = major >= 1
        if dl_device is not None:
            dev = tuple(dl_device)
            if dev != arr.__dlpack_device__() and dev != (_CPU, 0):
                raise MXNetBufferError("cannot export to DLPack device %r: the array is on %r"
                                  % (dev, arr.__dlpack_device__()))
        if copy is not None and not isinstance(copy, bool):
            raise MXNetTypeError("copy must be None, True or False, got %r" % (copy,))
        copy = bool(copy)
        if not versioned and not copy and not arr.writable:
            raise MXNetBufferError("a read-only array cannot be exported as a legacy DLPack capsule "
                              "(pass max_version=(1, 0) or newer)")
        flags = 0
        if versioned:
            flags = _IS_COPIED if copy else (0 if self._write else _READ_ONLY)
        return _export(arr.handle, versioned, flags, copy)

    def __dlpack_device__(self):
        return self._live().__dlpack_device__()

    def to_dlpack_for_read(self):
        """A legacy DLPack capsule of the array (MXNet's name), without waiting."""
        return _export(self._live().handle, False, 0, False)

    def to_dlpack_for_write(self):
        """A legacy DLPack capsule for a consumer that writes; BufferError unless the array
        was declared in ``writes``."""
        arr = self._live()
        if not self._write or not arr.writable:
            raise MXNetBufferError("to_dlpack_for_write: the array was not declared in writes")
        return _export(arr.handle, False, 0, False)

    def __repr__(self):
        state = "closed" if self._array is None else ("write" if self._write else "read")
        return "<DLPackView %s %s (%s)>" % ("x".join(map(str, self.shape)) or "()", self.dtype, state)


def _as_list(objs, name):
    if objs is None:
        return []
    if isinstance(objs, NDArray) or hasattr(objs, "__dlpack__"):
        return [objs]  # a single array (torch tensors are iterable: check first)
    if isinstance(objs, (str, bytes)):
        raise MXNetTypeError("run_async: %s must be a sequence of arrays, got %s" % (name, type(objs).__name__))
    try:
        return list(objs)
    except TypeError:
        raise MXNetTypeError("run_async: %s must be a sequence of arrays, got %s" % (name, type(objs).__name__)) from None


def run_async(fn, *arrays, reads=(), writes=()):
    """Runs ``fn`` on mxgo's engine, ordered with mxgo's own work on the arrays it declares.

    ``reads`` and ``writes`` are the arrays ``fn`` reads and writes: NDArrays, or objects
    that speak DLPack (PyTorch tensors, NumPy arrays, ...), imported zero-copy. The call
    returns at once. ``fn`` runs on an engine thread once the pending writes of its reads,
    and the pending reads and writes of its writes, are done; mxgo work pushed later that
    reads or writes what it writes, or writes what it reads, waits for it; work that only
    reads the same arrays (other callables included) may run in parallel with it.

    ``fn`` is called as ``fn(*views)``: one :class:`DLPackView` per array in ``arrays``
    or, when no ``arrays`` are given, per array of ``reads`` then ``writes``. A view is a
    zero-copy DLPack producer (``torch.from_dlpack(v).add_(1)``, ``np.from_dlpack(v)``)
    valid while ``fn`` runs. Arrays in ``arrays`` that are in neither list are read.
    Its return value is ignored.

    An exception raised by ``fn`` becomes the engine error of the arrays it writes: it is
    raised once, as in MXNet 1.x, by the first wait that meets it (``wait_to_read()``,
    ``wait_to_write()``, ``asnumpy()``... on them or on work that depended on them, or
    ``mx.nd.waitall()``), with its original type when it is ValueError, TypeError,
    IndexError, BufferError, MemoryError or NotImplementedError (a subclass of one is
    raised as that type, named in the message), otherwise as ``mx.MXNetError("TypeName:
    message")``. Work pushed after ``fn`` on what it writes, before that error was raised,
    does not run and carries the same error, as for any failed operation. If a dependency of ``fn`` failed, ``fn`` is
    not called (and is released).

    The GIL. The calling thread does not hold the GIL while the operation is pushed (the
    Go call releases it, as every mxgo call that can block does). The engine thread takes
    the GIL (``PyGILState_Ensure``) only to run ``fn`` and releases it when ``fn`` returns;
    while ``fn`` runs, other Python threads run only when ``fn`` releases the GIL (blocking
    I/O, ``time.sleep``, most PyTorch and NumPy kernels), as in any Python thread. Waits
    (``waitall``, ``wait_to_read``, ``asnumpy``, DLPack exports) release the GIL, so a
    thread waiting for ``fn``'s result never blocks it. With ``MXGO_ENGINE=naive``, ``fn``
    runs inside ``run_async``, on the calling thread.

    Never wait inside ``fn`` on the engine for the arrays it declares: ``x.wait_to_read()``,
    ``x.asnumpy()``, ``mx.nd.waitall()``, or ``torch.from_dlpack(x)`` of the NDArray
    itself (its export waits) on an array ``fn`` writes wait for ``fn`` to finish, a
    deadlock; exports of arrays it reads wait for its reads to finish, the same. Use the
    views ``fn`` receives. mxgo operations that ``fn`` pushes on those arrays run after it
    (with the naive engine they, too, wait for ``fn``: a deadlock).

    Foreign arrays get a fresh engine variable each time they are imported, so two
    ``run_async`` calls on the same PyTorch tensor are not ordered with each other unless
    they use the same imported NDArray (``x = mx.nd.from_dlpack(t)``); and, as with any
    mxgo work on shared memory, the other framework sees ``fn``'s writes only after a wait
    (``x.wait_to_read()`` or ``mx.nd.waitall()``).

    After the interpreter starts exiting (mxgo's exit hook has drained the engine),
    callables are no longer run: their written arrays get an MXNetError.

    Raises TypeError if ``fn`` is not callable or an array is neither an NDArray nor a
    DLPack producer, ValueError if an array in ``writes`` is read-only.
    """
    if not callable(fn):
        raise MXNetTypeError("run_async: fn must be callable, got %s" % type(fn).__name__)
    reads, writes = _as_list(reads, "reads"), _as_list(writes, "writes")
    imported = {}  # id(obj) -> (obj, NDArray); holding obj keeps the ids unique

    def as_array(obj, where):
        entry = imported.get(id(obj))
        if entry is None:
            if isinstance(obj, NDArray):
                arr = obj
            elif hasattr(obj, "__dlpack__"):
                arr = from_dlpack(obj)
            else:
                raise MXNetTypeError("run_async: %s must be an NDArray or an object with __dlpack__, got %s"
                                % (where, type(obj).__name__))
            entry = imported[id(obj)] = (obj, arr)
        return entry[1]

    w_arrs = [as_array(o, "writes[%d]" % i) for i, o in enumerate(writes)]
    for i, a in enumerate(w_arrs):
        if not a.writable:
            raise MXNetValueError("run_async: writes[%d] is a read-only array" % i)
    r_arrs = [as_array(o, "reads[%d]" % i) for i, o in enumerate(reads)]
    written = {id(o) for o in writes}
    declared = written | {id(o) for o in reads}
    passed = arrays if arrays else tuple(reads) + tuple(writes)
    views = []
    for i, o in enumerate(passed):
        arr = as_array(o, "argument %d" % (i + 1))
        if id(o) not in declared:
            r_arrs.append(arr)
        views.append(DLPackView(arr, id(o) in written))
    cid = next(_ids)
    _pending[cid] = (fn, views)
    try:
        call(core.RunAsync, cid, ",".join(str(a.handle) for a in r_arrs), ",".join(str(a.handle) for a in w_arrs))
    except BaseException:
        _pending.pop(cid, None)
        raise
