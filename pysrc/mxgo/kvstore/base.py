"""KVStoreBase (the interface a KVStore keeps, and its registry) and the store types."""
__all__ = ["KVStoreBase"]

#: the store types mxgo makes: the local ones and the synchronous distributed ones
LOCAL_TYPES = ("local", "device")
DIST_TYPES = ("dist_sync", "dist_device_sync", "dist_sync_device")
#: MXNet's other types, each refused with why
REFUSED = {
    "dist_async": "needs parameter servers, which mxgo does not have: every worker all-reduces and updates its "
                  "own copy in step (use 'dist_sync')",
    "dist": "needs parameter servers for its asynchronous mode; use 'dist_sync'",
    "nccl": "is a GPU store of MXNet's CUDA build; use 'device' on one machine or 'dist_device_sync' across them",
    "horovod": "is Horovod's store; use 'dist_sync', which all-reduces with torch.distributed",
    "byteps": "is BytePS's store; use 'dist_sync', which all-reduces with torch.distributed",
    "p3": "needs MXNet's parameter servers; use 'dist_sync'",
}


class KVStoreBase:
    """The interface of a key-value store; stores registered with ``register`` are what
    ``create`` makes for their lower-cased class name."""

    kv_registry: dict = {}
    OPTIMIZER = "optimizer"

    def broadcast(self, key, value, out, priority=0):
        raise NotImplementedError

    def pushpull(self, key, value, out=None, priority=0):
        raise NotImplementedError

    def set_optimizer(self, optimizer):
        raise NotImplementedError

    def is_capable(self, capability):
        raise NotImplementedError

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise NotImplementedError

    def load_optimizer_states(self, fname):
        raise NotImplementedError

    @property
    def type(self):
        raise NotImplementedError

    @property
    def rank(self):
        raise NotImplementedError

    @property
    def num_workers(self):
        raise NotImplementedError

    @staticmethod
    def register(klass):
        """Registers a KVStoreBase subclass under its lower-cased name (a class decorator)."""
        if not (isinstance(klass, type) and issubclass(klass, KVStoreBase)):
            raise TypeError("register expects a subclass of KVStoreBase, got %r" % (klass,))
        KVStoreBase.kv_registry[klass.__name__.lower()] = klass
        return klass
