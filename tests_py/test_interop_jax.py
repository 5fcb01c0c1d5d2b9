"""Exchange between mxgo and JAX on CPU, both directions (``jnp.from_dlpack(x)``,
``jax.dlpack.from_dlpack(x)``; ``mx.nd.from_dlpack(jax_array)`` and of its capsule), for
every dtype and layout, with JAX's DLPack behaviour recorded as data (``JAX``) and checked
against the installed JAX.

This module runs in the main environment only (environments.py leaves it out of the legacy
one, which has no JAX); there a missing JAX is an import error, never a skip.

JAX arrays are immutable, but a legacy capsule (all that JAX before 0.12 speaks) cannot say
so: the tests write through mxgo into JAX's memory only to prove that it is shared.
"""
import dataclasses
import gc

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mxgo as mx

from dlpack_producer import FLAG_IS_COPIED, FLAG_READ_ONLY, CountingProducer, inspect_capsule
from interop_helpers import (LAYOUTS, MX, MX_DTYPES, check_exchange, live_counts, marker,
                             mx_address, mx_sides, reference, version_tuple)

# JAX is 32-bit unless told otherwise: without x64, 64-bit arrays it imports are narrowed
# (copied) to 32 bits and 64-bit dtypes cannot be made. The tests want every dtype.
jax.config.update("jax_enable_x64", True)

JAX_VERSION = version_tuple(jax.__version__)


@dataclasses.dataclass(frozen=True)
class JaxDLPack:
    """What a JAX release does with DLPack on CPU."""
    dtypes: tuple             # exchanged both ways (with x64 enabled)
    exports_versioned: bool   # __dlpack__(max_version=(1, x)) gives "dltensor_versioned" 1.3,
                              # READ_ONLY always set, IS_COPIED too for copy=True
    asks_max_version: bool    # its from_dlpack passes max_version to __dlpack__
    takes_capsules: bool      # jnp.from_dlpack accepts a bare capsule (with a DeprecationWarning)
    import_alignment: int     # zero-copy import needs the first element aligned to this
    import_copy_true_copies: bool    # jnp.from_dlpack(x, copy=True) gives fresh memory
    import_copy_false_refuses: bool  # jnp.from_dlpack(x, copy=False) raises where it must copy
    import_keeps_strides: bool  # a zero-copy import of a permuted layout keeps its strides


def jax_dlpack(version):
    """JAX's DLPack behaviour by release, each branch observed on one release: 0.10.2
    (requirements/peers.txt's jax>=0.10 for CPython >= 3.11), 0.12.0.1 (CPython 3.13's
    newest) and 0.6.2 (the newest for CPython 3.10). Releases in between were not checked:
    one that differs fails test_jax_table_matches_jax or the test of the fact, and gets a
    branch here."""
    jax_0_10 = JaxDLPack(
        dtypes=MX_DTYPES + ("bfloat16",),
        # jax/_src/dlpack.py: DLPACK_VERSION = (0, 8); __dlpack__ returns legacy capsules
        # whatever max_version says ((0, 5) <= max_version), and from_dlpack calls
        # __dlpack__(stream=...) only.
        exports_versioned=False,
        asks_max_version=False,
        takes_capsules=False,
        # XLA's CPU client shares foreign memory only when it is 64-byte aligned, else it
        # copies (copy=False: ValueError "... is not aligned to 64 bytes").
        import_alignment=64,
        # copy=True is not honoured on CPU: the result still aliases the producer's memory.
        import_copy_true_copies=False,
        import_copy_false_refuses=True,
        import_keeps_strides=True,
    )
    if version < (0, 10):  # seen on 0.6.2
        return dataclasses.replace(
            jax_0_10,
            # from_dlpack still takes capsules (deprecated).
            takes_capsules=True,
            # _place_array copies for copy=True (jnp.array(..., copy=True)); copy=False does
            # not stop the copy of misaligned memory (only a logged "DLPack buffer is not
            # aligned ... Creating a copy").
            import_copy_true_copies=True,
            import_copy_false_refuses=False,
            # A zero-copy (aligned) import ignores the strides of a permuted layout: JAX
            # reads the buffer in row-major order (wrong values, no error), computes and
            # exports it that way, and np.asarray views it. A copied (misaligned) import
            # honours the strides.
            import_keeps_strides=False,
        )
    if version >= (0, 12):  # seen on 0.12.0.1
        # DLPACK_VERSION comes from jaxlib (1.3): __dlpack__(max_version=(1, x)) gives a
        # versioned capsule with READ_ONLY (JAX arrays are immutable; IS_COPIED too for
        # copy=True), and from_dlpack asks for one (max_version=(1, 3)).
        return dataclasses.replace(jax_0_10, exports_versioned=True, asks_max_version=True)
    return jax_0_10  # 0.11 not checked


JAX = jax_dlpack(JAX_VERSION)


def x64(enabled):
    """JAX's context manager for jax_enable_x64: jax.enable_x64 (seen on 0.10.2 and 0.12);
    0.6.2 has it as jax.experimental.enable_x64 only."""
    if JAX_VERSION < (0, 10):
        return jax.experimental.enable_x64(enabled)
    return jax.enable_x64(enabled)


def mx_row_major_view(x, dtype):
    """An mxgo array over x's memory with x's shape read in row-major order (C strides):
    what a JAX that drops imported strides sees (JaxDLPack.import_keeps_strides)."""
    bfloat16 = dtype == "bfloat16"
    like = np.zeros(x.shape, np.uint16 if bfloat16 else dtype)
    capsule, _ = CountingProducer().capsule(like, dtype=(4, 16, 1) if bfloat16 else None, data=mx_address(x))
    return mx.nd.from_dlpack(capsule)


def jax_accepts_layout(shape, strides):
    """JAX imports "compact" tensors only: strides that are a permutation of C-contiguous
    ones (dimensions of size 1 may have any stride; size 0 is always fine). Steps, gaps,
    broadcasts and negative strides raise JaxRuntimeError UNIMPLEMENTED."""
    if 0 in shape:
        return True
    expect = 1
    for stride, dim in sorted((st, d) for d, st in zip(shape, strides) if d != 1):
        if stride != expect:
            return False
        expect *= dim
    return True


# ---- the JAX adapter (interop_helpers' protocol) --------------------------------------

class _Jax:
    name = "jax"

    def make(self, dtype, layout):
        """A JAX array of a layout: JAX materialises every view, so the result is always
        C-contiguous (JAX has no strided views)."""
        view = layout.of_numpy(reference(dtype, layout.base))  # (JAX indexing compiles: slower)
        return jnp.asarray(view, dtype=jnp.bfloat16 if dtype == "bfloat16" else view.dtype)

    def values(self, a):
        """The values in the buffer now, read by NumPy through a capsule of it
        (np.asarray(a) may answer from a cache, see
        test_jax_numpy_view_of_transposed_import_is_cached). NumPy has no DLPack
        bfloat16: those go through a JAX copy (reads the buffer too, but compiles)."""
        if a.dtype == jnp.bfloat16:
            return np.asarray(jnp.copy(a)).astype(np.float32)
        return np.from_dlpack(_CapsuleHolder(a.__dlpack__())).copy()

    def dtype_name(self, a):
        return np.dtype(a.dtype).name

    def shape(self, a):
        return tuple(a.shape)

    def strides(self, a):
        """Element strides of the buffer (JAX keeps an imported tensor's layout, unless
        JaxDLPack.import_keeps_strides says otherwise), read from a capsule of it."""
        info = inspect_capsule(a.__dlpack__())
        return info["strides"] or tuple(np.empty(a.shape, np.int8).strides)  # NULL strides: C order

    def address(self, a):
        return a.unsafe_buffer_pointer()

    def write(self, a, index, value):
        raise AssertionError("JAX arrays are immutable")


class _CapsuleHolder:
    """Hands one capsule to np.from_dlpack, which takes objects only."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


JAXA = _Jax()

#: mxgo -> JAX entry points
TO_JAX = {"jnp.from_dlpack": jnp.from_dlpack, "jax.dlpack.from_dlpack": jax.dlpack.from_dlpack}
#: JAX -> mxgo: the array itself (mxgo calls __dlpack__ with keywords) or its capsule
#: given to the mxgo side's from_dlpack (mx.nd's or mx.np's)
FROM_JAX = {"object": lambda side, a: side.from_dlpack(a),
            "capsule": lambda side, a: side.from_dlpack(a.__dlpack__())}


pytestmark = pytest.mark.usefixtures("frozen_heap")


# ---- the table is what the installed JAX does --------------------------------------------

def test_jax_table_matches_jax():
    assert JAX_VERSION >= (0, 10) or JAX_VERSION == (0, 6), \
        "requirements/peers.txt asks for jax>=0.10 (0.6.2 on CPython 3.10)"
    assert jax.default_backend() == "cpu" and jax.config.jax_enable_x64
    a = jnp.arange(6.0)
    for max_version in (None, (0, 8), (1, 0), (1, 3), (2, 0)):
        for copy in (None, True):
            info = inspect_capsule(a.__dlpack__(max_version=max_version, copy=copy))
            assert (info["data"] == a.unsafe_buffer_pointer()) == (not copy)
            if JAX.exports_versioned and max_version and max_version[0] >= 1:
                assert info["name"] == "dltensor_versioned" and info["version"] == (1, 3)
                assert info["flags"] == FLAG_READ_ONLY | (FLAG_IS_COPIED if copy else 0)
            else:
                assert info["name"] == "dltensor"
    with pytest.raises(BufferError):
        a.__dlpack__(max_version=(0, 4))

    class Spy:
        """Records the keywords a consumer passes to __dlpack__."""
        def __init__(self, x):
            self.x, self.kwargs = x, None

        def __dlpack__(self, **kwargs):
            self.kwargs = kwargs
            return self.x.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()

    spy = Spy(mx.nd.arange(4))
    jnp.from_dlpack(spy)
    assert ("max_version" in spy.kwargs) == JAX.asks_max_version
    capsule = mx.nd.arange(4).to_dlpack_for_read()
    if JAX.takes_capsules:
        with pytest.warns(DeprecationWarning, match="DLPack tensor is deprecated"):
            assert np.asarray(jnp.from_dlpack(capsule)).tolist() == [0, 1, 2, 3]
    else:
        with pytest.raises(TypeError):
            jnp.from_dlpack(capsule)
    for name in JAX.dtypes:
        x = mx.nd.zeros((3,), dtype=name)
        assert np.dtype(jnp.from_dlpack(x).dtype).name == name
        assert mx.nd.from_dlpack(jnp.zeros(3, dtype=name)).shape == (3,)


# ---- mxgo -> JAX ----------------------------------------------------------------------------

@pytest.mark.parametrize("side,layout", mx_sides(LAYOUTS))
@pytest.mark.parametrize("dtype", JAX.dtypes)
@pytest.mark.parametrize("path", sorted(TO_JAX))
def test_mxgo_to_jax(path, dtype, side, layout):
    """Compact layouts import, zero-copy when aligned for XLA (else JAX copies); other
    layouts are refused by JAX. A JAX that drops the strides of a zero-copy import shares
    the memory read in row-major order instead (JaxDLPack.import_keeps_strides)."""
    x = side.make(dtype, layout)
    if not jax_accepts_layout(x.shape, x.strides):
        with pytest.raises(jax.errors.JaxRuntimeError, match="compact"):
            TO_JAX[path](x)
        return
    j = TO_JAX[path](x)
    assert JAXA.dtype_name(j) == dtype and j.shape == x.shape
    shared = x.size and mx_address(x) % JAX.import_alignment == 0
    seen = x if not shared or JAX.import_keeps_strides or layout.c_contiguous else mx_row_major_view(x, dtype)
    np.testing.assert_array_equal(JAXA.values(j), side.values(seen))
    if shared:
        check_exchange(side, seen, JAXA, j, dtype, writers=("producer",))
    elif x.size:  # misaligned: JAX copied, and mxgo's writes stay in mxgo
        assert JAXA.address(j) != mx_address(x)
        index = (0,) * x.ndim
        old = side.values(x)[index]
        side.write(x, index, marker(dtype, old))
        assert JAXA.values(j)[index] == old


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_mxgo_to_jax_alignment(dtype):
    """The same compact view is shared or copied by its address alone; copy=False makes
    JAX refuse what it would copy."""
    itemsize = np.dtype(dtype).itemsize
    base = mx.nd.zeros((256 // itemsize,), dtype=dtype)
    assert mx_address(base) % 64 == 0  # mxgo allocates 64-byte aligned
    for offset in range(0, 128 // itemsize):
        x = base[offset:offset + 4]
        shared = (mx_address(x) % JAX.import_alignment) == 0
        assert (jnp.from_dlpack(x).unsafe_buffer_pointer() == mx_address(x)) == shared
        if shared:
            assert jnp.from_dlpack(x, copy=False).unsafe_buffer_pointer() == mx_address(x)
        elif JAX.import_copy_false_refuses:
            with pytest.raises(ValueError, match="aligned"):
                jnp.from_dlpack(x, copy=False)
        else:  # copied all the same
            j = jnp.from_dlpack(x, copy=False)
            assert j.unsafe_buffer_pointer() != mx_address(x) and np.asarray(j).tolist() == x.asnumpy().tolist()


def test_mxgo_to_jax_copy_true():
    x = mx.nd.arange(64)
    j = jnp.from_dlpack(x, copy=True)
    x[0] = 42
    x.wait_to_read()  # mxgo writes asynchronously: wait before JAX reads
    if JAX.import_copy_true_copies:
        assert j.unsafe_buffer_pointer() != mx_address(x) and float(j[0]) == 0
    else:  # JAX's bug: copy=True still aliases mxgo's memory
        assert j.unsafe_buffer_pointer() == mx_address(x) and float(j[0]) == 42


def test_jax_numpy_view_of_transposed_import_is_cached():
    """np.asarray of a JAX array is a zero-copy view for JAX's default (row-major)
    layout, but for an imported transposed layout it is a copy that JAX makes once and
    caches: it misses later writes to the shared memory (computations see them). A JAX
    that drops imported strides (0.6.2) has a row-major array there, viewed as such."""
    base = mx.nd.arange(12).reshape((3, 4))
    capsule, _ = CountingProducer().capsule(np.zeros(1, np.float32), ndim=2, shape=(4, 3), strides=(1, 4),
                                            data=mx_address(base))
    x = mx.nd.from_dlpack(capsule)
    j = jnp.from_dlpack(x)
    assert j.unsafe_buffer_pointer() == mx_address(x)
    if JAX.import_keeps_strides:
        assert np.asarray(j)[3, 0] == 3.0
        x[3, 0] = 100
        x.wait_to_read()  # mxgo writes asynchronously: wait before JAX reads
        assert np.asarray(j)[3, 0] == 3.0 and float(j[3, 0]) == 100.0  # stale cache, fresh compute
    else:  # j is the buffer read row-major: j[r, c] is base's element 3 * r + c
        assert np.asarray(j).tolist() == np.arange(12.0).reshape(4, 3).tolist()
        x[3, 0] = 100  # base's element 3: j[1, 0]
        x.wait_to_read()
        assert np.asarray(j)[1, 0] == 100.0 and float(j[1, 0]) == 100.0  # a view: nothing stale
    k = jnp.from_dlpack(base)  # row-major: np.asarray views the buffer
    assert np.asarray(k)[0, 3] == 100.0
    base[0, 3] = 7
    base.wait_to_read()
    assert np.asarray(k)[0, 3] == 7.0


def test_mxgo_read_only_to_jax():
    """A JAX that asks for a versioned capsule gets one with READ_ONLY (shared when
    aligned, as any import). One that asks for a legacy capsule, which cannot carry
    READ_ONLY, is refused a read-only array (copy it first)."""
    src = np.arange(64.0)
    src.flags.writeable = False
    x = mx.nd.from_numpy(src)
    if JAX.asks_max_version:
        j = jnp.from_dlpack(x)
        assert (j.unsafe_buffer_pointer() == mx_address(x)) == (mx_address(x) % JAX.import_alignment == 0)
        assert np.asarray(j).tolist() == src.tolist()
    else:
        with pytest.raises(BufferError, match="read-only"):
            jnp.from_dlpack(x)
    assert np.asarray(jnp.from_dlpack(x.copy())).tolist() == src.tolist()


def test_jax_without_x64_narrows_64_bit_imports():
    """With JAX's default (x64 off), 64-bit arrays are converted to 32 bits: a copy."""
    x = mx.nd.arange(64, dtype="int64")
    with x64(False):
        j = jnp.from_dlpack(x)
        assert j.dtype == jnp.int32 and j.unsafe_buffer_pointer() != mx_address(x)
    j = jnp.from_dlpack(x)
    assert j.dtype == jnp.int64 and j.unsafe_buffer_pointer() == mx_address(x)


# ---- JAX -> mxgo ----------------------------------------------------------------------------

@pytest.mark.parametrize("side,layout", mx_sides(LAYOUTS))
@pytest.mark.parametrize("dtype", JAX.dtypes)
@pytest.mark.parametrize("path", sorted(FROM_JAX))
def test_jax_to_mxgo(path, dtype, side, layout):
    """JAX exports its (always compact) buffers; mxgo views them without copying. Only
    mxgo writes (JAX cannot), and JAX sees the writes. A legacy capsule cannot say that
    JAX's memory is immutable; a versioned one (mxgo asks objects for one) says READ_ONLY,
    and mxgo's view is read-only: then mxgo writes through a legacy import of the same
    buffer, and the read-only view sees it."""
    j = JAXA.make(dtype, layout)
    x = FROM_JAX[path](side, j)
    read_only = path == "object" and JAX.exports_versioned
    assert type(x) is side.cls and x.writable == (not read_only)
    check_exchange(JAXA, j, side, x, dtype, writers=() if read_only else ("consumer",))
    if read_only:
        check_exchange(side, FROM_JAX["capsule"](side, j), side, x, dtype, writers=("producer",))


@pytest.mark.parametrize("path", sorted(FROM_JAX))
def test_jax_exports_c_contiguous(path):
    """Views of JAX arrays are new arrays: the export is C-contiguous, with JAX's own
    (aligned) memory."""
    j = jnp.arange(24.0).reshape(6, 4)[::-1, ::2]
    x = FROM_JAX[path](MX, j)
    assert x.asnumpy().tolist() == np.arange(24.0).reshape(6, 4)[::-1, ::2].tolist()
    assert x.strides == mx.nd.empty(x.shape).strides
    assert mx_address(x) == j.unsafe_buffer_pointer() and mx_address(x) % 64 == 0


def test_jax_reexport_keeps_an_imported_layout():
    """A transposed buffer JAX imported is exported again with its strides (a JAX that
    drops imported strides exports the buffer row-major, as it reads it)."""
    base = mx.nd.arange(12).reshape((3, 4))
    capsule, _ = CountingProducer().capsule(np.zeros(1, np.float32), ndim=2, shape=(4, 3), strides=(1, 4),
                                            data=mx_address(base))
    j = jnp.from_dlpack(mx.nd.from_dlpack(capsule))
    assert j.unsafe_buffer_pointer() == mx_address(base)
    x = mx.nd.from_dlpack(j)
    assert mx_address(x) == mx_address(base)
    if JAX.import_keeps_strides:
        assert x.strides == (1, 4) and x.asnumpy().tolist() == base.asnumpy().T.tolist()
    else:
        assert x.strides == (3, 1) and x.asnumpy().tolist() == base.asnumpy().reshape(4, 3).tolist()


def test_jax_export_keywords():
    a = jnp.arange(8.0)
    info = inspect_capsule(a.__dlpack__(copy=True))
    assert info["data"] != a.unsafe_buffer_pointer()  # copied, though no IS_COPIED (legacy)
    assert inspect_capsule(a.__dlpack__(copy=False))["data"] == a.unsafe_buffer_pointer()
    assert inspect_capsule(a.__dlpack__(dl_device=(1, 0)))["data"] == a.unsafe_buffer_pointer()
    with pytest.raises(RuntimeError):  # not BufferError: JAX looks for a CUDA back end
        a.__dlpack__(dl_device=(2, 0))
    assert inspect_capsule(a.__dlpack__(stream=None))["data"] == a.unsafe_buffer_pointer()
    with pytest.raises(jax.errors.JaxRuntimeError, match="UNIMPLEMENTED"):  # CPU has no streams
        a.__dlpack__(stream=1)


@pytest.mark.parametrize("copy", [None, False, True])
def test_from_dlpack_keywords_with_jax(copy):
    """mxgo passes copy to JAX's __dlpack__, which honours it on export. A versioned
    export is READ_ONLY, JAX's copy too (NumPy's from_dlpack(a, copy=True) of it is
    read-only as well): mxgo then writes through a legacy import of a's buffer."""
    a = jnp.arange(16.0)
    x = mx.nd.from_dlpack(a, copy=copy, device=mx.cpu())
    assert (mx_address(x) == a.unsafe_buffer_pointer()) == (not copy)
    assert x.writable == (not JAX.exports_versioned)
    if x.writable:
        x[0] = -1
        x.wait_to_read()
        assert float(a[0]) == (0.0 if copy else -1.0)
    else:
        alias = mx.nd.from_dlpack(a.__dlpack__())  # legacy: writable
        alias[0] = -1
        alias.wait_to_read()
        assert float(a[0]) == -1.0 and x.asnumpy()[0] == (0.0 if copy else -1.0)


def test_jax_bfloat16_values():
    """bfloat16 both ways, with values (ml_dtypes' bfloat16 on the NumPy side)."""
    vals = [0.5, -2.0, 3.140625, 1e30]
    j = jnp.asarray(vals, dtype=jnp.bfloat16)
    x = mx.nd.from_dlpack(j)
    assert np.dtype(x.dtype).name == "bfloat16"
    assert x.astype("float32").asnumpy().tolist() == np.asarray(j, np.float32).tolist()
    y = mx.nd.array(vals, dtype="bfloat16")
    k = jnp.from_dlpack(y)
    assert k.dtype == jnp.bfloat16 and np.asarray(k, np.float32).tolist() == y.astype("float32").asnumpy().tolist()


# ---- lifetimes ------------------------------------------------------------------------------

def _churn():
    junk = [np.full(n, 0x5A, np.uint8) for n in (64, 256, 4096) for _ in range(32)]
    junk += [jnp.full((n,), -7.0) for n in (8, 32, 512) for _ in range(8)]
    del junk


@pytest.mark.parametrize("path", sorted(FROM_JAX))
def test_mxgo_outlives_jax_producer(path):
    j = jnp.arange(1000.0) * 2
    address = j.unsafe_buffer_pointer()
    x = FROM_JAX[path](MX, j)
    view = x[10:20]
    del j, x
    gc.collect()
    _churn()
    assert mx_address(view) == address + 10 * 8
    assert view.asnumpy().tolist() == [2.0 * i for i in range(10, 20)]


@pytest.mark.parametrize("path", sorted(TO_JAX))
def test_jax_outlives_mxgo_producer(path):
    gc.collect()
    baseline = live_counts()
    x = mx.nd.arange(256, dtype="float64")
    j = TO_JAX[path](x[64:])  # 64 * 8 bytes in: aligned, shared
    assert j.unsafe_buffer_pointer() == mx_address(x) + 512
    del x
    gc.collect()
    _churn()
    assert np.asarray(j).tolist() == [float(i) for i in range(64, 256)]
    assert live_counts()[2] == baseline[2] + 1  # JAX holds the export
    del j
    gc.collect()
    assert live_counts() == baseline


def test_counting_producer_to_mxgo_to_jax():
    """A foreign tensor imported by mxgo, then handed to JAX: the producer's deleter runs
    once, after both are gone."""
    producer = CountingProducer()
    buf = mx.nd.zeros((16,), dtype="int32")  # aligned memory for JAX to share
    buf[...] = np.arange(16)
    capsule, tag = producer.capsule(np.zeros(16, np.int32), data=mx_address(buf))
    x = mx.nd.from_dlpack(capsule)
    j = jnp.from_dlpack(x)
    assert j.unsafe_buffer_pointer() == mx_address(buf)
    del x
    gc.collect()
    assert producer.deleter_calls(tag) == 0 and np.asarray(j).tolist() == list(range(16))
    del j
    gc.collect()
    assert producer.deleter_calls(tag) == 1
