"""What NumPy and PyTorch do with DLPack, as README.md's "DLPack support" table states it:
these tests keep the table honest for the installed peers (JAX's column is checked in
test_interop_jax.py, dtypes in test_interop_numpy.py / test_interop_torch.py). Facts are
branched on the peer's version; hand-made capsules come from ``dlpack_producer``."""
import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from dlpack_producer import FLAG_IS_COPIED, FLAG_READ_ONLY, CountingProducer, inspect_capsule
from interop_helpers import (NUMPY_EXPORTS_READ_ONLY, NUMPY_IMPORTS_WRITABLE, NUMPY_SPEAKS_VERSIONED, NUMPY_VERSION,
                             TORCH_BYTE_OFFSET, TORCH_EXPORTS_READ_ONLY, TORCH_SPEAKS_VERSIONED, TORCH_VERSION)


class Holder:
    """Hands one capsule to a consumer that takes objects only (np.from_dlpack)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def _numpy_import(capsule):
    return np.from_dlpack(Holder(capsule))


#: peer -> import of a capsule
IMPORT = {"numpy": _numpy_import, "torch": tdl.from_dlpack}


# ---- capsule kinds and versions ------------------------------------------------------------

def test_numpy_takes_objects_only():
    with pytest.raises(AttributeError):
        np.from_dlpack(np.arange(3.0).__dlpack__())


def test_versioned_export():
    for peer, make in (("numpy", np.arange(3.0)), ("torch", torch.arange(3.0))):
        speaks = NUMPY_SPEAKS_VERSIONED if peer == "numpy" else TORCH_SPEAKS_VERSIONED
        if speaks:
            info = inspect_capsule(make.__dlpack__(max_version=(1, 3)))
            assert info["name"] == "dltensor_versioned" and info["version"][0] == 1, peer
            # the versions stamped by the releases README.md names
            if peer == "numpy" and NUMPY_VERSION in ((2, 2), (2, 4), (2, 5)):
                assert info["version"] == (1, 0)
            if peer == "torch" and TORCH_VERSION in ((2, 14), (2, 15)):
                assert info["version"] == (1, 3)
        else:
            with pytest.raises(TypeError):
                make.__dlpack__(max_version=(1, 3))


@pytest.mark.parametrize("peer", sorted(IMPORT))
def test_versioned_import(peer):
    speaks = NUMPY_SPEAKS_VERSIONED if peer == "numpy" else TORCH_SPEAKS_VERSIONED
    x = mx.nd.arange(3)
    capsule = x.to_dlpack_for_write(max_version=(1, 0))
    if speaks:
        assert np.asarray(IMPORT[peer](capsule)).tolist() == [0, 1, 2]
        newer, _ = CountingProducer().capsule(np.arange(3.0), versioned=True, version=(2, 0))
        with pytest.raises(BufferError if peer == "numpy" else RuntimeError, match="version"):
            IMPORT[peer](newer)
    else:  # a "dltensor_versioned" capsule is not a capsule they know
        with pytest.raises((ValueError, RuntimeError)):
            IMPORT[peer](capsule)


def test_torch_capsule_is_consumed_once():
    capsule = mx.nd.arange(3).to_dlpack_for_write()
    tdl.from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="consumed only once"):
        tdl.from_dlpack(capsule)


# ---- flags and keywords -------------------------------------------------------------------

def test_numpy_read_only():
    a = np.arange(4.0)
    a.flags.writeable = False
    if NUMPY_EXPORTS_READ_ONLY:
        assert inspect_capsule(a.__dlpack__(max_version=(1, 0)))["flags"] == FLAG_READ_ONLY
        ro, _ = CountingProducer().capsule(np.arange(3.0), versioned=True, flags=FLAG_READ_ONLY)
        assert not _numpy_import(ro).flags.writeable
    else:
        with pytest.raises(BufferError):
            a.__dlpack__()
    assert np.from_dlpack(mx.nd.arange(3)).flags.writeable == NUMPY_IMPORTS_WRITABLE


def test_torch_read_only():
    """PyTorch exports READ_ONLY on request (read_only=True) and ignores it on import."""
    if TORCH_EXPORTS_READ_ONLY:
        capsule = torch.arange(3.0).__dlpack__(max_version=(1, 0), read_only=True)
        assert inspect_capsule(capsule)["flags"] == FLAG_READ_ONLY
    if TORCH_SPEAKS_VERSIONED:
        ro, _ = CountingProducer().capsule(np.arange(3.0), versioned=True, flags=FLAG_READ_ONLY)
        t = tdl.from_dlpack(ro)
        t[0] = 5  # no error: the flag is ignored
        assert t[0].item() == 5


def test_copy_keyword():
    """copy=True copies in both; NumPy sets IS_COPIED, PyTorch does not."""
    a, t = np.arange(3.0), torch.arange(3.0)
    if NUMPY_SPEAKS_VERSIONED:
        info = inspect_capsule(a.__dlpack__(max_version=(1, 0), copy=True))
        assert info["flags"] == FLAG_IS_COPIED and info["data"] != a.ctypes.data
    else:
        with pytest.raises(TypeError):
            a.__dlpack__(copy=True)
    if TORCH_SPEAKS_VERSIONED:
        info = inspect_capsule(t.__dlpack__(max_version=(1, 0), copy=True))
        assert info["flags"] == 0 and info["data"] != t.data_ptr()
    else:
        with pytest.raises(TypeError):
            t.__dlpack__(copy=True)


def test_dl_device_keyword():
    a, t = np.arange(3.0), torch.arange(3.0)
    if NUMPY_SPEAKS_VERSIONED:
        assert inspect_capsule(a.__dlpack__(dl_device=(1, 0)))["data"] == a.ctypes.data
        # BufferError since 2.4 (numpy#30351; seen on 2.4 and 2.5), ValueError before (seen on 2.2)
        with pytest.raises(BufferError if NUMPY_VERSION >= (2, 4) else ValueError, match="unsupported device"):
            a.__dlpack__(dl_device=(2, 0))
    else:
        with pytest.raises(TypeError):
            a.__dlpack__(dl_device=(1, 0))
    if TORCH_SPEAKS_VERSIONED:
        assert inspect_capsule(t.__dlpack__(dl_device=(1, 0)))["data"] == t.data_ptr()
        if not torch.cuda.is_available():  # a CPU-only build or machine: no BufferError
            with pytest.raises(RuntimeError):
                t.__dlpack__(dl_device=(2, 0))
    else:
        with pytest.raises(TypeError):
            t.__dlpack__(dl_device=(1, 0))


def test_stream_keyword():
    """NumPy takes stream=None only; PyTorch also -1 on CPU, and 1.13 any int."""
    a, t = np.arange(3.0), torch.arange(3.0)
    a.__dlpack__(stream=None)
    for stream in (-1, 0, 1):  # ValueError seen on 2.5; RuntimeError on 1.24, 2.2 and 2.4
        with pytest.raises(ValueError if NUMPY_VERSION >= (2, 5) else RuntimeError, match="stream=None"):
            a.__dlpack__(stream=stream)
    t.__dlpack__(stream=None)
    t.__dlpack__(stream=-1)
    with pytest.raises(TypeError):
        t.__dlpack__(stream="x")
    if TORCH_VERSION >= (2, 14):  # seen on 2.14 and 2.15 (not checked before)
        with pytest.raises(AssertionError):
            t.__dlpack__(stream=1)
    elif TORCH_VERSION < (2, 0):  # seen on 1.13
        t.__dlpack__(stream=1)


# ---- layouts and validation on import -----------------------------------------------------

def test_byte_offset_on_import():
    base = np.arange(10, dtype=np.int32)

    def capsule():
        return CountingProducer().capsule(base[3:], data=base.ctypes.data, byte_offset=12)[0]

    assert _numpy_import(capsule()).tolist() == list(range(3, 10))
    t = tdl.from_dlpack(capsule())
    if TORCH_BYTE_OFFSET == "honoured":
        assert t.tolist() == list(range(3, 10))
    elif TORCH_BYTE_OFFSET == "ignored":  # reads from data: the wrong elements
        assert t.tolist() == list(range(0, 7))


def test_negative_strides_on_import():
    """NumPy views them; PyTorch 2.x refuses them (1.13 aborts the process, not tried)."""
    base = np.arange(6.0)
    assert _numpy_import(CountingProducer().capsule(base[::-1])[0]).tolist() == base[::-1].tolist()
    if TORCH_VERSION >= (2, 0):
        with pytest.raises(RuntimeError):
            tdl.from_dlpack(CountingProducer().capsule(base[::-1])[0])


@pytest.mark.parametrize("peer", sorted(IMPORT))
@pytest.mark.parametrize("name, overrides", [
    ("lanes", {"dtype": (2, 64, 2)}), ("code", {"dtype": (99, 64, 1)}), ("bits", {"dtype": (2, 7, 1)}),
    ("mxnet_bool", {"dtype": (1, 1, 1)}), ("negative_shape", {"shape": (-6,)}), ("device", {"device": (99, 0)}),
], ids=str)
def test_peers_refuse(peer, name, overrides):
    capsule, _ = CountingProducer().capsule(np.arange(6.0), **overrides)
    with pytest.raises((RuntimeError, BufferError, ValueError)):
        IMPORT[peer](capsule)


@pytest.mark.parametrize("peer", sorted(IMPORT))
def test_peers_accept_null_and_misaligned_data(peer):
    """Neither peer checks data against its elements: NULL data with 6 elements and
    misaligned float64 import (mxgo refuses the first; nothing is read here)."""
    base = np.arange(7.0)
    for data in (0, base.ctypes.data + 1):
        capsule, _ = CountingProducer().capsule(base[:6], data=data)
        assert tuple(IMPORT[peer](capsule).shape) == (6,)
