"""KVStore, as MXNet 1.9.1's: values under int or str keys, pushed (summed) and pulled
(copied out), and ``create``.

A push sums the values given for a key (MXNet's local reduce), in a 'dist' store then over
every worker (the engine's all-reduce, in place); with an optimizer set, the sum is the
gradient of an update of the stored value, which every worker runs alike, else it replaces
the stored value. A pull copies the stored value into every output.
"""
from .. import ndarray as nd
from .. import optimizer as opt
from ..base import MXNetError
from . import engine
from .base import DIST_TYPES, LOCAL_TYPES, REFUSED, KVStoreBase

__all__ = ["KVStore", "create"]


def _check(ok, message, *args):
    """MXNet asserts on the form of keys and values: AssertionError, with a message
    (formatted only then: this runs at every push)."""
    if not ok:
        raise AssertionError(message % args)


def _values(value, what):
    """value (an NDArray or a list of them) as a list."""
    values = [value] if isinstance(value, nd.NDArray) else value
    _check(isinstance(values, (list, tuple)) and values and all(isinstance(v, nd.NDArray) for v in values),
           "%s must be an NDArray or a non-empty list of NDArrays, got %s", what, _kind(value))
    return list(values)


def _kind(value):
    """What value is, for messages: its type, or the types in a list."""
    if isinstance(value, (list, tuple)):
        return "%s of %s" % (type(value).__name__, [type(v).__name__ for v in value])
    return type(value).__name__


def _is_key(k):
    return isinstance(k, (int, str)) and not isinstance(k, bool)


def _pairs(key, value, what):
    """[(key, [NDArray, ...]), ...] of MXNet's forms (one key with an NDArray or a list; a
    list of keys with a list of NDArrays or of lists), the values of a repeated key joined."""
    if _is_key(key):
        return [(key, _values(value, what))]
    _check(isinstance(key, (list, tuple)) and all(_is_key(k) for k in key),
           "unexpected type for keys: %r (an int, a str or a list of them)", key)
    _check(isinstance(value, (list, tuple)) and len(value) == len(key),
           "%d keys need a list of %d values, got %s", len(key), len(key), _kind(value))
    _check(len({type(k) for k in key}) <= 1, "inconsistent types of keys detected.")
    grouped = {}
    for k, v in zip(key, value):
        grouped.setdefault(k, []).extend(_values(v, what))
    return list(grouped.items())


class KVStore(KVStoreBase):
    """A store of one of the types ``create`` makes (``type``)."""

    def __init__(self, name="local"):
        if name not in LOCAL_TYPES + DIST_TYPES:
            raise ValueError("unknown kvstore type %r: mxgo has %s" % (name, ", ".join(LOCAL_TYPES + DIST_TYPES)))
        self._type = name
        self._engine = engine.get() if name in DIST_TYPES else None
        self._store = {}    # key -> the stored NDArray
        self._merged = {}   # key -> the buffer a push sums into when an updater takes the sum
        self._key_type = None
        self._updater = None

    @property
    def type(self):
        return self._type

    @property
    def rank(self):
        return self._engine.rank if self._engine else 0

    @property
    def num_workers(self):
        return self._engine.size if self._engine else 1

    def is_capable(self, capability):
        """Whether the store has a capability ('optimizer': it runs the updates)."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError("Unknown capability: {}".format(capability))

    def _checked(self, key, value, what, inited):
        pairs = _pairs(key, value, what)
        for k, values in pairs:
            if self._key_type not in (None, type(k)):
                raise MXNetError("Mixed key types are not allowed: this store's keys are %s, got %r"
                                 % (self._key_type.__name__, k))
            if inited and k not in self._store:
                raise MXNetError("key %r has not been inited" % (k,))
            if inited and any(v.shape != self._store[k].shape for v in values):
                raise MXNetError("key %r holds shape %s, got %s" % (k, self._store[k].shape,
                                                                    [v.shape for v in values]))
        return pairs

    def init(self, key, value):
        """Stores a copy of each value under its key, rank 0's in a 'dist' store (each key
        once)."""
        pairs = self._checked(key, value, "value", inited=False)
        for k, values in pairs:
            if len(values) != 1 or k in self._store:
                raise MXNetError("duplicate init of key %r. Please double check if you called kv.init or "
                                 "kv.broadcast with this key multiple times" % (k,))
        for k, (value,) in pairs:
            stored = value.copy()
            if self._engine:
                self._engine.broadcast(stored)
            self._store[k] = stored
            self._key_type = type(k)

    def push(self, key, value, priority=0):
        """Sums the values of each key (over every worker in a 'dist' store) and stores the
        sum, or updates the stored value with it when an optimizer is set."""
        for k, values in self._checked(key, value, "value", inited=True):
            stored = self._store[k]
            if self._updater is None:
                self._reduce(values, stored)
            else:
                merged = self._merged.get(k)
                if merged is None:
                    merged = self._merged[k] = nd.zeros(stored.shape, stored.context, stored.dtype)
                self._updater(k, self._reduce(values, merged), stored)

    def _reduce(self, values, out):
        """out := the sum of values (and over every worker); returns out."""
        if len(values) == 1:
            if values[0] is not out:
                values[0].copyto(out)
        else:
            nd.add_n(*[v.as_in_context(out.context) for v in values]).copyto(out)
        if self._engine:
            self._engine.allreduce(out)
        return out

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copies the stored value of each key into every one of its outputs."""
        _check(out is not None, "pull needs out: the NDArray (or list) to copy the stored value into")
        for k, outs in self._checked(key, out, "out", inited=True):
            for o in outs:
                self._store[k].copyto(o)

    def pushpull(self, key, value, out=None, priority=0):
        """push, then pull into out (into value when out is None). Without an optimizer and
        with out None, the sum is made in value's own memory (no copy for the all-reduce)."""
        pairs = self._checked(key, value, "value", inited=True)
        if out is not None:
            self._checked(key, out, "out", inited=True)
        if out is None and self._updater is None:
            for k, values in pairs:  # sum into the first value, all-reduce it in place, share it
                self._reduce(values, values[0]).copyto(self._store[k])
                for v in values[1:]:
                    values[0].copyto(v)
            return
        self.push(key, value, priority)
        self.pull(key, value if out is None else out, priority)

    def broadcast(self, key, value, out, priority=0):
        """init with value (rank 0's), then pull into out."""
        self.init(key, value)
        self.pull(key, out, priority)

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Refused: mxgo has no row_sparse storage (pull gives every row)."""
        raise MXNetError("row_sparse_pull needs row_sparse arrays, which mxgo does not have; use pull")

    def set_gradient_compression(self, compression_params):
        """Refused: the engine all-reduces full-precision values."""
        raise MXNetError("gradient compression is not supported by mxgo's kvstore (%s): its all-reduce sums "
                         "the values exactly" % self._type)

    def set_optimizer(self, optimizer):
        """Pushes from now on update the stored values with optimizer (on every worker)."""
        if not isinstance(optimizer, opt.Optimizer):
            raise TypeError("set_optimizer expects an mx.optimizer.Optimizer, got %r" % (optimizer,))
        self._set_updater(opt.get_updater(optimizer))

    def _set_updater(self, updater):
        """Pushes from now on call updater(key, summed, stored)."""
        if not callable(updater):
            raise TypeError("updater must be callable, got %r" % (updater,))
        self._updater = updater

    def _check_updater(self):
        if not isinstance(self._updater, opt.Updater):
            raise AssertionError("Cannot save states for distributed training")

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Writes the updater's states (and the optimizer with dump_optimizer) to fname."""
        self._check_updater()
        with open(fname, "wb") as f:
            f.write(self._updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname):
        """Reads what save_optimizer_states wrote."""
        self._check_updater()
        with open(fname, "rb") as f:
            self._updater.set_states(f.read())

    def barrier(self):
        """Returns when every worker has called it (at once in a local store)."""
        if self._engine:
            self._engine.barrier()

    _barrier = barrier


def create(name="local"):
    """A new store: 'local' or 'device' (one process: the values pushed for a key are
    summed), 'dist_sync' or 'dist_device_sync' (summed over every worker process too, which
    ``python -m mxgo.distributed.launch`` starts), or a registered KVStoreBase's name."""
    if not isinstance(name, str):
        raise TypeError("name must be a string")
    registered = KVStoreBase.kv_registry.get(name.lower())
    if registered is not None:
        return registered()
    name = name.lower()
    if name in REFUSED:
        raise MXNetError("kvstore %r %s" % (name, REFUSED[name]))
    return KVStore(name)
