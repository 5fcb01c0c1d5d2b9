"""TVM-FFI and mxgo: foreign compiled functions on mxgo's engine, and mxgo's operators as
TVM-FFI global functions.

MXNet 1.x ran TVM-compiled functions on its engine with ``mx.tvm.to_mxnet_func(func,
const_loc=[...])``; :func:`to_mxgo_func` does the same for any ``tvm_ffi.Function``
(compiled by ``tvm_ffi.cpp.load_inline``, loaded from a shared library, ...) through
TVM-FFI's stable C ABI, so mxgo and the function need no common C++ ABI::

    mod = tvm_ffi.cpp.load_inline("k", cpp_sources=src, functions=["scale"])
    scale = mx.tvm_bridge.to_mxgo_func(mod.scale, const_loc=[0])
    scale(x, y, 2.0)          # returns at once; y is written on an engine thread
    y.wait_to_read()

The other way, every operator of mxgo's registry is the global function
``"mxgo.nd.<name>"``, registered when this module is imported, which any TVM-FFI caller
calls on its own memory::

    add = tvm_ffi.get_global_func("mxgo.nd.add")
    add(torch_a, torch_b, torch_c)      # mxgo's kernel on PyTorch's memory, into torch_c
    torch_d = add(torch_a, torch_b)     # a new tensor (tvm_ffi hands PyTorch a torch.Tensor)

A global function's arguments are: the operator's array inputs, each a tensor (what
tvm_ffi makes of torch/NumPy arrays, or a ``DLTensor*`` from C), ``None`` for an omitted
optional input (and then for those after it), or, for a variadic operator (``add_n``,
``concat``), one list of tensors; then ``out``, a tensor or ``None`` for a new result;
then the operator's parameters positionally, in the order ``mx.nd.<name>`` lists them
(int, float, bool, str, tuples of ints; ``None`` where the parameter takes None, and
otherwise to keep the default); trailing ones may be left out. The call runs the operator
and waits for it: the caller owns the memory. Errors raise the same exception types as
``mx.nd.<name>`` (MXNetError as RuntimeError).

Importing this module needs ``tvm_ffi`` (``pip install apache-tvm-ffi``); mxgo itself
never needs it.
"""
import atexit
import ctypes
import os

import tvm_ffi
import tvm_ffi.error

from .base import MXNetBufferError, MXNetTypeError, MXNetValueError, _mxcore, core
from .ndarray.dlpack import from_dlpack
from .ndarray.ndarray import NDArray

__all__ = ["to_mxgo_func", "register_global_functions", "BridgedFunction", "PREFIX"]

#: the prefix of mxgo's operators in TVM-FFI's global function table
PREFIX = "mxgo.nd."


def _load_module():
    # As base._load_fastpath: one ctypes call, with the GIL held, creates the C module.
    lib = ctypes.PyDLL(_mxcore.__file__)
    lib.mxgo_tvm_module.restype = ctypes.py_object
    lib.mxgo_tvm_module.argtypes = []
    return lib.mxgo_tvm_module()


_tvm = _load_module()
# The library tvm_ffi loaded (ctypes.CDLL, RTLD_GLOBAL): C reopens it with RTLD_NOLOAD, so
# both use one instance and one global function table.
_tvm.load(getattr(getattr(tvm_ffi, "LIB", None), "_name", None) or tvm_ffi.libinfo.find_libtvm_ffi())
_push = _tvm.push

# Exceptions mxgo raises that tvm_ffi does not map by kind (it maps ValueError, TypeError,
# IndexError, MemoryError, ... itself; an unknown kind becomes RuntimeError).
for _cls in (BufferError, NotImplementedError):
    if _cls.__name__ not in tvm_ffi.core.ERROR_NAME_TO_TYPE:
        tvm_ffi.error.register_error(_cls.__name__, _cls)


def register_global_functions(prefix=PREFIX):
    """Registers every operator as the TVM-FFI global function ``prefix + name``
    (replacing earlier registrations) and returns how many. Importing this module does it
    with ``"mxgo.nd."``."""
    if not isinstance(prefix, str):
        raise MXNetTypeError("prefix must be a str, got %s" % type(prefix).__name__)
    return _tvm.register(prefix)


register_global_functions()


def _shutdown():
    # Registered after base's exit hook, so it runs first: let pushed calls run while
    # Python is whole, then refuse any later one (its function might be Python's).
    try:
        core.WaitAll()
    except RuntimeError:
        pass
    _tvm.close()


atexit.register(_shutdown)
os.register_at_fork(after_in_child=lambda: atexit.unregister(_shutdown))


class BridgedFunction:
    """A ``tvm_ffi.Function`` run on mxgo's engine (see :func:`to_mxgo_func`)."""

    __slots__ = ("func", "const_loc", "_handle", "_consts")

    def __init__(self, func, const_loc):
        self.func = func  # held: its handle stays valid while this object lives
        self.const_loc = const_loc
        self._handle = func.__chandle__()
        self._consts = {}  # number of arguments -> whether each is read only

    def _consts_for(self, n):
        if self.const_loc and self.const_loc[-1] >= n:
            raise MXNetValueError("const_loc %r is out of range for %d argument(s)" % (list(self.const_loc), n))
        consts = self._consts[n] = tuple(i in self.const_loc for i in range(n))
        return consts

    def __call__(self, *args):
        """Pushes one engine operation calling the function on ``args`` and returns None
        at once. NDArrays and DLPack producers (imported with ``mx.nd.from_dlpack``)
        become TVM-FFI Tensor arguments, read at ``const_loc`` and written elsewhere;
        bools, ints and floats are passed as TVM-FFI Bool, Int and Float. The function's
        error becomes the engine error of the written arrays."""
        consts = self._consts.get(len(args)) or self._consts_for(len(args))
        converted = None
        for i, a in enumerate(args):
            if not isinstance(a, NDArray):
                if isinstance(a, (bool, int, float)):
                    if consts[i]:
                        raise MXNetTypeError("argument %d is in const_loc but is a %s, not an array"
                                             % (i, type(a).__name__))
                    continue
                if not hasattr(a, "__dlpack__"):
                    raise MXNetTypeError("argument %d must be an NDArray, a DLPack producer, bool, int or float, "
                                         "got %s" % (i, type(a).__name__))
                if converted is None:
                    converted = list(args)
                a = converted[i] = from_dlpack(a)
            if not consts[i] and not a.writable:
                raise MXNetBufferError("argument %d is a read-only array but is written (not in const_loc)" % i)
        _push(self._handle, args if converted is None else tuple(converted), consts)

    def __repr__(self):
        return "<BridgedFunction %r const_loc=%r>" % (self.func, list(self.const_loc))


def to_mxgo_func(func, const_loc=()):
    """Wraps a ``tvm_ffi.Function`` so that calling it runs ``func`` on mxgo's engine, as
    MXNet's ``mx.tvm.to_mxnet_func`` did for TVM functions.

    ``const_loc`` lists the positions of the arguments ``func`` only reads; it writes the
    other arrays. Calling the result with NDArrays, DLPack producers (PyTorch, NumPy, ...)
    and Python scalars pushes one operation that waits for the pending writes of the
    arrays it reads and the pending reads and writes of those it writes, and returns at
    once. An engine thread then calls ``func`` through TVM-FFI's C ABI
    (``TVMFFIFunctionCall``) without the GIL and without Python in between: independent
    calls run in parallel, dependent ones (and mxgo's own operations on the same arrays)
    in order. Arrays are passed as TVM-FFI Tensor objects (as tvm_ffi passes tensors from
    Python, so ``TensorView`` and ``Tensor`` parameters both take them), each owning a
    reference to its mxgo storage. An error raised by ``func`` becomes the engine error of the written arrays,
    raised by their next wait with its type (TVM-FFI kinds ValueError, TypeError,
    IndexError... map to MXNetValueError, ...; others to MXNetError "Kind: message").
    Arrays stay alive until the call has run, whatever Python drops.

    As with ``run_async``, a foreign tensor gets a fresh engine variable each time it is
    imported: import it once (``x = mx.nd.from_dlpack(t)``) to order several calls on it,
    and wait (``x.wait_to_read()``) before the other framework reads the result. Arrays
    must be on the CPU. A ``func`` made from a Python callable (``tvm_ffi.convert``) works
    too, taking the GIL on the engine thread as tvm_ffi does, but then it is no faster
    than ``mx.nd.run_async``.

    Raises TypeError for a ``func`` that is not a tvm_ffi.Function or a bad ``const_loc``;
    calling the result raises TypeError for an argument that is neither an array nor a
    bool, int or float, ValueError for ``const_loc`` positions past the arguments, and
    BufferError for a read-only array in a written position (as ``mx.nd.from_dlpack``
    does for memory mxgo cannot use).
    """
    if not isinstance(func, tvm_ffi.Function):
        raise MXNetTypeError("to_mxgo_func needs a tvm_ffi.Function, got %s" % type(func).__name__)
    if isinstance(const_loc, (str, bytes)) or not hasattr(const_loc, "__iter__"):
        raise MXNetTypeError("const_loc must be a sequence of ints, got %s" % type(const_loc).__name__)
    locs = []
    for c in const_loc:
        if not isinstance(c, int) or isinstance(c, bool):
            raise MXNetTypeError("const_loc must hold ints, got %s" % type(c).__name__)
        if c < 0:
            raise MXNetValueError("const_loc positions must be >= 0, got %d" % c)
        locs.append(c)
    return BridgedFunction(func, tuple(sorted(set(locs))))
