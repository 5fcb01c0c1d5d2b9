"""``mx.util``: MXNet's NumPy-mode switches (``npx.set_np`` and friends).

MXNet 1.x keeps two flags per thread: NumPy shape semantics (0-d and zero-size arrays) and
NumPy arrays (Gluon blocks and data take and give ``mx.np.ndarray``). mx.np's arrays always
have NumPy's shapes, so the flags here say what the code that reads them asks for: Gluon's
NumPy mode reads ``is_np_array()``.
"""
import functools
import threading

from .base import MXNetValueError

__all__ = ["set_np", "reset_np", "is_np_array", "is_np_shape", "set_np_shape", "use_np", "np_array", "np_shape"]

_state = threading.local()


def _get(name):
    return getattr(_state, name, False)


def is_np_shape():
    """Whether NumPy shape semantics are on in this thread."""
    return _get("shape")


def is_np_array():
    """Whether NumPy array semantics are on in this thread (Gluon gives mx.np arrays)."""
    return _get("array")


def set_np_shape(active):
    """Turns NumPy shape semantics on or off; returns the previous state."""
    prev = _get("shape")
    if not active and _get("array"):
        raise MXNetValueError("NumPy shape semantics cannot be turned off while NumPy array semantics are on")
    _state.shape = bool(active)
    return prev


def set_np(shape=True, array=True, dtype=False):
    """Turns NumPy semantics on (MXNet's ``npx.set_np``). ``array`` needs ``shape``; ``dtype``
    (NumPy's float64 default) is refused: mxgo keeps MXNet's float32 default."""
    if array and not shape:
        raise MXNetValueError("NumPy array semantics need NumPy shape semantics (shape=True)")
    if dtype:
        raise MXNetValueError("set_np(dtype=True) (float64 defaults) is not supported: mx.np keeps float32")
    _state.shape, _state.array = bool(shape), bool(array)


def reset_np():
    """Turns NumPy semantics off (MXNet's ``npx.reset_np``)."""
    _state.shape = _state.array = False


class _Scope:
    def __init__(self, shape, array):
        self._want = (shape, array)

    def __enter__(self):
        self._prev = (_get("shape"), _get("array"))
        _state.shape, _state.array = self._want
        return self

    def __exit__(self, *exc):
        _state.shape, _state.array = self._prev


def np_shape(active=True):
    """A scope with NumPy shape semantics on (or off)."""
    return _Scope(bool(active), _get("array") and bool(active))


def np_array(active=True):
    """A scope with NumPy array (and shape) semantics on (or off)."""
    return _Scope(_get("shape") or bool(active), bool(active))


def use_np(func):
    """Decorator: the function (or every method of the class) runs with NumPy semantics on."""
    if isinstance(func, type):
        for name, attr in list(vars(func).items()):
            if callable(attr) and not name.startswith("__") or name in ("__init__", "__call__"):
                setattr(func, name, use_np(attr))
        return func

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _Scope(True, True):
            return func(*args, **kwargs)
    return wrapper
