"""The C consumer of DLPack's C exchange API (exchange_consumer.c), compiled once per
interpreter with the system's gcc against the interpreter's own headers into the checkout's
ignored build/exchange_consumer/, and loaded with ctypes.PyDLL (its functions run with the
GIL held, as a consumer's do). ``lib()`` returns it with its signatures set; ``FakeProducer``
is a pure-Python DLPack producer whose type carries a table made by it."""
import ctypes
import functools
import hashlib
import os
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "exchange_consumer.c")
BUILD = os.path.join(os.path.dirname(HERE), "build", "exchange_consumer")

_O, _ULL, _I, _S, _N = ctypes.py_object, ctypes.c_ulonglong, ctypes.c_int, ctypes.c_char_p, ctypes.c_ssize_t
SIGNATURES = {
    "xc_header": [_O], "xc_capsule_fields": [_O], "xc_from_py": [_O], "xc_view": [_O], "xc_misuse": [_O, _O],
    "xc_delete": [_ULL], "xc_delete_in_threads": [_O], "xc_to_py": [_O, _ULL], "xc_foreign": [_I, _I],
    "xc_foreign_deleted": [], "xc_alloc": [_O, _I, _I, _I, _I, _O], "xc_alloc_ndim": [_O, _I, _I],
    "xc_stream": [_O, _I, _I], "xc_read": [_ULL, _N], "xc_fake_api": [_S, _S], "xc_fake_calls": [],
}


@functools.lru_cache(maxsize=None)
def lib():
    digest = hashlib.sha256(sys.version.encode())
    for src in (SOURCE, os.path.join(HERE, "dltensor.h")):
        with open(src, "rb") as f:
            digest.update(f.read())
    tag = digest.hexdigest()[:16]
    os.makedirs(BUILD, exist_ok=True)
    path = os.path.join(BUILD, "exchange_consumer_%s.so" % tag)
    if not os.path.exists(path):
        tmp = "%s.%d.tmp" % (path, os.getpid())
        subprocess.run(["gcc", "-O1", "-g", "-Wall", "-Werror", "-fPIC", "-shared", "-pthread",
                        "-I" + sysconfig.get_paths()["include"], SOURCE, "-o", tmp], check=True)
        os.replace(tmp, path)  # atomic: parallel test processes may build it too
    dll = ctypes.PyDLL(path)
    for name, args in SIGNATURES.items():
        fn = getattr(dll, name)
        fn.argtypes = args
        fn.restype = ctypes.py_object
    return dll


def fake_api(kind, name="dlpack_exchange_api"):
    """A capsule of the fake table ``kind`` (exchange_consumer.c's xc_fake_api)."""
    return lib().xc_fake_api(kind.encode(), name.encode())


class FakeProducer:
    """A DLPack producer in pure Python over an mxgo array (NumPy 1.24, in the legacy
    environment, cannot give versioned capsules); subclasses set
    ``__dlpack_c_exchange_api__`` (fake tables delegate to ``__dlpack__``). Counts its
    ``__dlpack__`` calls (a class attribute), so tests see which path a consumer took."""

    dlpack_calls = 0

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        type(self).dlpack_calls += 1
        return self.array.__dlpack__(max_version=(1, 3))

    def __dlpack_device__(self):
        return (1, 0)


def fake_producer_class(kind=None, name="dlpack_exchange_api", attr=None):
    """A new FakeProducer subclass whose table is the fake ``kind`` (capsule named ``name``),
    or ``attr`` as it is; with neither, no table."""
    ns = {"dlpack_calls": 0}
    if kind is not None:
        ns["__dlpack_c_exchange_api__"] = fake_api(kind, name)
    elif attr is not None:
        ns["__dlpack_c_exchange_api__"] = attr
    return type("Fake_%s" % (kind or "plain"), (FakeProducer,), ns)
