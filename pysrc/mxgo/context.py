"""Devices, MXNet style: ``mx.cpu()``, ``mx.gpu(1)``, ``with mx.cpu(0): ...``."""
import threading

from .base import FACTS, MXNetValueError, core

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "current_context", "num_gpus", "gpu_status"]


class Context:
    """A device an array lives on: a type ("cpu", "gpu", "cpu_pinned") and an id.

    Type ids are DLPack's device codes, so ``(ctx.device_typeid, ctx.device_id)`` is what
    ``__dlpack_device__`` reports. Usable as a context manager to set the default device.
    """

    devstr2type = dict(FACTS["device_types"])  # DLPack's codes, from Go's device package
    devtype2str = {code: name for name, code in devstr2type.items()}
    _local = threading.local()

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            device_type, device_id = device_type.device_type, device_type.device_id
        if device_type not in self.devstr2type:
            raise MXNetValueError("unknown device type %r (expected one of %s)" % (device_type, sorted(self.devstr2type)))
        if not isinstance(device_id, int) or isinstance(device_id, bool) or not 0 <= device_id < 2 ** 31:
            # DLPack's device_id is an int32
            raise MXNetValueError("device_id must be an int in [0, 2**31), got %r" % (device_id,))
        self.device_typeid = self.devstr2type[device_type]
        self.device_id = device_id

    @property
    def device_type(self):
        return self.devtype2str[self.device_typeid]

    def __eq__(self, other):
        return isinstance(other, Context) and (self.device_typeid, self.device_id) == (other.device_typeid, other.device_id)

    def __hash__(self):
        return hash((self.device_typeid, self.device_id))

    def __repr__(self):
        return "%s(%d)" % (self.device_type, self.device_id)

    __str__ = __repr__

    # The contexts entered on this thread, innermost last, so that one Context object may be
    # entered again inside itself (and current_context may hand out a shared cpu(0)).
    def __enter__(self):
        local = Context._local
        if not hasattr(local, "stack"):
            local.stack = []
        local.stack.append(getattr(local, "ctx", None))
        local.ctx = self
        return self

    def __exit__(self, *exc):
        Context._local.ctx = Context._local.stack.pop()


def cpu(device_id=0):
    """Returns the CPU context."""
    return Context("cpu", device_id)


def gpu(device_id=0):
    """Returns a GPU context. Arrays are allocated on it when a CUDA driver with that device
    is present (see num_gpus); otherwise creating one raises MXNetError naming the cause."""
    return Context("gpu", device_id)


def cpu_pinned(device_id=0):
    """Returns the pinned (page-locked) CPU context."""
    return Context("cpu_pinned", device_id)


_CPU0 = Context("cpu", 0)


def current_context():
    """Returns the default context: the innermost ``with ctx:`` block's, else cpu(0)."""
    return getattr(Context._local, "ctx", None) or _CPU0


def num_gpus():
    """Returns the number of GPUs mxgo can use: 0 when no CUDA driver can be loaded
    (libcuda.so.1, or the library named by $MXGO_LIBCUDA) or it reports no device. The
    first call loads the driver; nothing CUDA happens before a GPU is first used."""
    return int(core.GPUCount())


def gpu_status():
    """Returns "" when a GPU can be used, else the reason none can (mxgo's own; not MXNet's)."""
    return str(core.GPUStatus())
