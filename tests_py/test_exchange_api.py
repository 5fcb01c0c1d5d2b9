"""DLPack 1.3's C exchange API, tested from C (exchange_consumer.c, built at test time):
mxgo's tables as a producer, field by field against ``__dlpack__``, with deleters run
exactly once (mxgo's live counters), error paths, churn and deletes from threads without
the GIL; and mxgo as a consumer of other types' tables (fake producers whose tables the C
library makes): fallback to ``__dlpack__``, versions, malformed attributes, operators."""
import gc
import threading
import time

import numpy as np
import pytest
import torch

import mxgo as mx
from mxgo.base import fastpath

from exchange_helpers import FakeProducer, fake_producer_class, lib
from interop_helpers import LAYOUTS, MX, MX_DTYPES, layout_named, live_counts, mx_address

READ_ONLY, IS_COPIED = 1, 2
TENSOR_FIELDS = ("data", "device", "ndim", "dtype", "shape", "strides", "byte_offset", "shape_null", "strides_null")


pytestmark = pytest.mark.usefixtures("frozen_heap")


@pytest.fixture
def xc():
    return lib()


def counts():
    return fastpath.exchange_counts()


def delta(before, **expected):
    after = counts()
    got = {k: after[k] - before[k] for k in expected}
    assert got == expected, got


def tensor(fields):
    return {k: fields[k] for k in TENSOR_FIELDS}


def capsule_fields(xc, obj):
    """The fields of obj.__dlpack__(max_version=(1, 3)), the capsule dropped (its deleter runs)."""
    return xc.xc_capsule_fields(obj.__dlpack__(max_version=(1, 3)))


# ---- the producer -------------------------------------------------------------------------

def test_tables_on_the_types(xc):
    x = mx.nd.ones(3)
    for obj in (x, mx.nd.ReadOnlyDLPack(x)):
        assert xc.xc_header(obj) == (1, 3, True, (True,) * 5)
    cap = fastpath.EXCHANGE_API
    assert mx.nd.NDArray.__dlpack_c_exchange_api__ is cap and fastpath.NDArrayBase.__dlpack_c_exchange_api__ is cap
    assert mx.nd.ReadOnlyDLPack.__dlpack_c_exchange_api__ is fastpath.READ_ONLY_EXCHANGE_API is not cap
    assert "dlpack_exchange_api" in repr(cap)
    assert type(mx.nd.from_numpy(np.ones(2))) is mx.nd.NDArray  # arrays made in C carry it too
    with pytest.raises((TypeError, AttributeError)):
        fastpath.NDArrayBase.__dlpack_c_exchange_api__ = None  # a static type stays immutable


@pytest.mark.parametrize("dtype", MX_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_from_py_object_is_dlpack(xc, no_leaks, dtype, layout):
    x = MX.make(dtype, layout)
    before, live = counts(), live_counts()[2]
    got = xc.xc_from_py(x)
    delta(before, managed_tensor_from_py_object_no_sync=1)
    want = capsule_fields(xc, x)
    assert tensor(got) == tensor(want)
    assert got["version"] == (1, 3) and got["flags"] == want["flags"] == 0 and got["has_deleter"]
    view = xc.xc_view(x)
    assert view == tensor(want)
    assert live_counts()[2] == live + 1  # the view owns nothing
    xc.xc_delete(got["ptr"])
    assert live_counts()[2] == live


def test_read_only_arrays_and_twin(xc, no_leaks):
    x = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    ro = mx.nd.ReadOnlyDLPack(x)
    assert ro.array is x
    got, rw = xc.xc_from_py(ro), xc.xc_from_py(x)
    assert got["flags"] == READ_ONLY and rw["flags"] == 0 and tensor(got) == tensor(rw) == xc.xc_view(ro)
    assert capsule_fields(xc, ro)["flags"] == READ_ONLY
    assert capsule_fields(xc, x)["flags"] == 0
    assert xc.xc_capsule_fields(ro.__dlpack__(max_version=(1, 0), copy=True))["flags"] == IS_COPIED
    # a NDArray handed to the read-only table directly is exported read-only too
    y = mx.nd.from_dlpack(ro)  # mxgo consumes its own read-only table
    assert not y.writable and mx_address(y) == mx_address(x)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    with pytest.raises(BufferError, match="versioned"):
        ro.__dlpack__()
    # a read-only array: both tables flag it
    p = xc.xc_foreign(4, 1)
    r = xc.xc_to_py(x, p)
    assert not r.writable
    exported = xc.xc_from_py(r)
    assert exported["flags"] == READ_ONLY == capsule_fields(xc, r)["flags"]
    for f in (got, rw, exported):
        xc.xc_delete(f["ptr"])


def test_read_only_wrapper_checks(xc):
    with pytest.raises(TypeError, match="NDArray"):
        mx.nd.ReadOnlyDLPack(np.ones(2))
    ro = mx.nd.ReadOnlyDLPack(mx.nd.ones(2))
    assert ro.__dlpack_device__() == (1, 0)
    with pytest.raises(TypeError, match="copy"):
        ro.__dlpack__(max_version=(1, 0), copy=1)
    with pytest.raises(ValueError, match="stream"):
        ro.__dlpack__(max_version=(1, 0), stream=3)
    with pytest.raises(BufferError, match="device"):
        ro.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    assert isinstance(mx.nd.ReadOnlyDLPack(mx.nd.ones(2)), fastpath.ReadOnlyDLPackBase)


def test_to_py_object(xc, no_leaks):
    x = mx.nd.array(np.arange(5, dtype=np.float64), dtype=np.float64)
    got = xc.xc_from_py(x)
    y = xc.xc_to_py(x, got["ptr"])  # mxgo's own export comes back as an array over it
    assert type(y) is mx.nd.NDArray and mx_address(y) == mx_address(x) and y.dtype == np.float64
    y[0] = 7
    assert x.asnumpy()[0] == 7
    del y
    # a foreign tensor: the array owns it, and its deleter runs once, when the array dies
    base = xc.xc_foreign_deleted()
    z = xc.xc_to_py(x, xc.xc_foreign(5, 0))
    np.testing.assert_array_equal(z.asnumpy(), np.arange(5.0))
    assert z.writable and z.shape == (5,)
    w = z + 1  # Go adopts it
    assert xc.xc_foreign_deleted() == base
    del z
    gc.collect()
    mx.nd.waitall()
    assert xc.xc_foreign_deleted() == base + 1
    np.testing.assert_array_equal(w.asnumpy(), np.arange(5.0) + 1)
    del w
    gc.collect()
    assert xc.xc_foreign_deleted() == base + 1  # w has its own memory


def test_misuse_raises(xc):
    x = mx.nd.ones(2)
    for obj in (x, mx.nd.ReadOnlyDLPack(x)):
        errs = xc.xc_misuse(obj, 3)
        assert [rc for rc, _ in errs] == [-1] * 8
        kinds = [type(e) for _, e in errs]
        assert kinds == [mx.base.MXNetTypeError, mx.base.MXNetTypeError, mx.base.MXNetValueError, mx.base.MXNetTypeError,
                         mx.base.MXNetTypeError, mx.base.MXNetValueError, mx.base.MXNetValueError, mx.base.MXNetValueError]
        assert "got int" in str(errs[1][1]) and "NULL" in str(errs[0][1])


ALLOC_DTYPES = {"float32": (2, 32), "float64": (2, 64), "float16": (2, 16), "bfloat16": (4, 16), "int8": (0, 8),
                "int64": (0, 64), "uint16": (1, 16), "bool": (6, 8), "complex64": (5, 64)}


@pytest.mark.parametrize("shape", [(2, 3), (), (4, 0, 2), (1,) * 10])
@pytest.mark.parametrize("dtype", sorted(ALLOC_DTYPES))
def test_allocator(xc, no_leaks, dtype, shape):
    code, bits = ALLOC_DTYPES[dtype]
    x = mx.nd.ones(1)
    before = counts()
    got = xc.xc_alloc(x, code, bits, 1, 1, shape)
    delta(before, managed_tensor_allocator=1)
    assert isinstance(got, dict), got
    want_strides = tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
    assert got["dtype"] == (code, bits, 1) and got["shape"] == shape and got["device"] == (1, 0)
    assert got["flags"] == 0 and got["version"] == (1, 3) and got["byte_offset"] == 0 and got["data"] != 0
    if 0 not in shape:
        assert got["strides"] == want_strides
    y = xc.xc_to_py(x, got["ptr"])  # mxgo's array over mxgo's memory
    assert y.shape == shape and y.writable and MX.dtype_name(y) == dtype
    y[...] = 1
    assert (y.astype("float32").asnumpy() == 1).all()


@pytest.mark.parametrize("case, args, kind, match", [
    ("cuda", ((2, 32, 1), 2, (2, 3)), "BufferError", "host memory"),
    ("no dtype", ((9, 32, 1), 1, (2,)), "TypeError", "no dtype"),
    ("lanes", ((2, 32, 4), 1, (2,)), "TypeError", "lanes 4"),
    ("odd bits", ((2, 24, 1), 1, (2,)), "TypeError", "bits 24"),
    ("negative", ((2, 32, 1), 1, (2, -3)), "ValueError", "negative"),
    ("huge", ((2, 64, 1), 1, (1 << 40, 1 << 40)), "ValueError", "too many elements"),
    ("too big", ((2, 64, 1), 1, (1 << 62,)), "MemoryError", "allocate"),
    ("null prototype", ((2, 32, 1), 1, None), "ValueError", "NULL prototype"),
])
def test_allocator_errors(xc, no_leaks, case, args, kind, match):
    (code, bits, lanes), dev, shape = args
    got = xc.xc_alloc(mx.nd.ones(1), code, bits, lanes, dev, shape)
    assert got[:3] == ("error", -1, kind), got
    assert match in got[3] and got[4] == "out NULL" and got[5] == 1  # SetError exactly once


def test_allocator_hostile_prototypes(xc):
    for ndim, null_shape, match in ((65, 0, "65 dimensions"), (-1, 0, "-1 dimensions"), (2, 1, "NULL shape")):
        rc, calls, kind, msg, out_set = xc.xc_alloc_ndim(mx.nd.ones(1), ndim, null_shape)
        assert (rc, calls, kind, out_set) == (-1, 1, "ValueError", False) and match in msg, msg


def test_current_work_stream(xc):
    x = mx.nd.ones(1)
    for dev in ((1, 0), (3, 0)):  # host memory: no stream (NULL)
        assert xc.xc_stream(x, *dev) in (0, None)
    with pytest.raises(BufferError, match=r"gpu\(0\): no CUDA driver"):  # mxgo's stream there, if it could
        xc.xc_stream(x, 2, 0)
    for dev in ((13, 1), (-5, 0)):
        with pytest.raises(BufferError, match="work stream"):
            xc.xc_stream(x, *dev)


def test_churn(xc, no_leaks):
    ref = np.arange(24, dtype=np.float32).reshape(4, 6)
    for i in range(300):
        x = mx.nd.array(ref) if i % 3 else mx.nd.from_numpy(ref.copy())  # made in Go, or in C
        v = x[1:, 2:]
        got = [xc.xc_from_py(a) for a in (x, v, mx.nd.ReadOnlyDLPack(v))]
        assert xc.xc_view(v)["shape"] == (3, 4)
        back = xc.xc_to_py(x, got[0]["ptr"])
        del x, v
        if i % 2:
            gc.collect()
        np.testing.assert_array_equal(back.asnumpy(), ref)
        for f in got[1:]:
            xc.xc_delete(f["ptr"])
        a = xc.xc_alloc(back, 2, 32, 1, 1, (i % 7, 3))
        xc.xc_delete(a["ptr"])


def test_deleters_from_threads_without_the_gil(xc, no_leaks):
    refs = [np.full((5, 7), i, np.float32) for i in range(4)]
    arrays = [mx.nd.array(r) for r in refs]
    lists = [[xc.xc_from_py(a[k % 5:])["ptr"] for k in range(200)] for a in arrays]
    lists.append([xc.xc_alloc(arrays[0], 2, 64, 1, 1, (k % 5, 2))["ptr"] for k in range(200)])
    exports = live_counts()[2]
    del arrays[1:]  # some deleters drop their storage's last reference, on their thread
    gc.collect()
    assert xc.xc_delete_in_threads(lists)
    assert live_counts()[2] == exports - 1000
    np.testing.assert_array_equal(arrays[0].asnumpy(), refs[0])


def test_exports_wait_for_pending_writes(xc, no_leaks):
    x = mx.nd.zeros(1000)
    gate = threading.Event()

    def slow_write(v):
        gate.wait(10)
        time.sleep(0.05)
        torch.from_dlpack(v).fill_(7)  # NumPy < 2.1 imports read-only

    for export in (xc.xc_from_py, xc.xc_view, lambda a: xc.xc_from_py(mx.nd.ReadOnlyDLPack(a))):
        mx.nd.run_async(slow_write, x, writes=[x])
        gate.set()  # the write can only finish while the export waits with the GIL released
        got = export(x)
        assert np.frombuffer(xc.xc_read(got["data"], 4000), np.float32).tolist() == [7.0] * 1000
        if "ptr" in got:
            xc.xc_delete(got["ptr"])
        gate.clear()
        x[...] = 0
    x.wait_to_read()


# ---- the consumer -------------------------------------------------------------------------

def fake(kind=None, values=None, **kw):
    cls = fake_producer_class(kind, **kw)
    return cls(mx.nd.array(np.arange(6, dtype=np.float32) if values is None else values))


@pytest.mark.parametrize("kind", ["v1", "v1_view", "v2_chain"])
def test_consumer_uses_the_table(xc, no_leaks, kind):
    obj = fake(kind)
    before, calls = counts(), xc.xc_fake_calls()
    y = mx.nd.from_dlpack(obj)
    delta(before, consumer_imports=1)
    assert xc.xc_fake_calls()[0] == calls[0] + 1
    assert mx_address(y) == mx_address(obj.array)  # shared, not copied
    np.testing.assert_array_equal(y.asnumpy(), np.arange(6))


@pytest.mark.parametrize("kind", [None, "v2", "v0", "cycle"])
def test_consumer_falls_back_to_dlpack(xc, no_leaks, kind):
    obj = fake(kind)
    before, calls = counts(), xc.xc_fake_calls()
    y = mx.nd.from_dlpack(obj)
    delta(before, consumer_imports=0)
    assert xc.xc_fake_calls() == calls and type(obj).dlpack_calls == 1
    assert mx_address(y) == mx_address(obj.array)


@pytest.mark.parametrize("attr, exc, match", [
    (dict(attr=42), TypeError, "must be a PyCapsule named 'dlpack_exchange_api', got int"),
    (dict(kind="v1", name="not_dlpack"), ValueError, "named 'not_dlpack'"),
    (dict(kind="no_from"), ValueError, "no managed_tensor_from_py_object_no_sync"),
    (dict(kind="failing"), BufferError, "without saying why"),
    (dict(kind="raising"), BufferError, "fake producer refuses"),
    (dict(kind="nothing"), ValueError, "returned no tensor"),
])
def test_consumer_refuses_malformed_tables(no_leaks, attr, exc, match):
    obj = fake(**attr)
    for _ in range(2):  # not cached: each use raises
        with pytest.raises(exc, match=match):
            mx.nd.from_dlpack(obj)
        with pytest.raises(exc, match=match):
            mx.nd.add(obj, obj)
    assert type(obj).dlpack_calls == 0 or attr.get("kind") in ("failing", "raising", "nothing")


def test_consumer_caches_per_type(xc, no_leaks):
    cls = fake_producer_class("v1")
    obj = cls(mx.nd.ones(2))
    mx.nd.from_dlpack(obj)
    cls.__dlpack_c_exchange_api__ = 42  # looked up once: the table seen first stays in use
    before = counts()
    mx.nd.from_dlpack(obj)
    delta(before, consumer_imports=1)
    for _ in range(40):  # more types than the cache holds: each still gets its own answer
        mx.nd.from_dlpack(fake("v1"))
        mx.nd.from_dlpack(fake(None))
    assert mx.nd.from_dlpack(fake("v2")).shape == (6,)


@pytest.mark.parametrize("kind", ["v1", "v1_view"])
def test_operators_take_table_objects(xc, no_leaks, kind):
    a, b = fake(kind, np.arange(6.0)), fake(kind, np.full(6, 2.0))
    out = fake(kind, np.zeros(6))
    before = counts()
    r = mx.nd.add(a, b, out=out)
    assert r is out  # out comes back as given
    np.testing.assert_array_equal(out.array.asnumpy(), np.arange(6.0) + 2)  # done before returning
    assert counts()["consumer_operands"] - before["consumer_operands"] == 2
    r = mx.nd.multiply(a, mx.nd.array(np.full(6, 3.0)))  # mixed with NDArrays, a new result
    np.testing.assert_array_equal(r.asnumpy(), np.arange(6.0) * 3)
    r = mx.nd.sum(a, axis=0)  # parameters: op.py's invoke, also in C
    assert r.asscalar() == 15
    r = mx.nd.reshape(a, shape=(2, 3))  # may view its input: through an owning import
    np.testing.assert_array_equal(r.asnumpy(), np.arange(6.0).reshape(2, 3))
    del a, b
    gc.collect()
    np.testing.assert_array_equal(r.asnumpy(), np.arange(6.0).reshape(2, 3))


def test_operators_on_plain_producers_keep_the_python_path(no_leaks):
    a = FakeProducer(mx.nd.array(np.arange(4.0)))  # __dlpack__ only
    before = counts()
    r = mx.nd.add(a, a)
    np.testing.assert_array_equal(r.asnumpy(), np.arange(4.0) * 2)
    delta(before, consumer_operands=0)
    assert FakeProducer.dlpack_calls >= 2


def test_operator_errors_on_borrowed_memory(no_leaks):
    a = fake("v1_view", np.arange(6.0))
    with pytest.raises(ValueError):
        mx.nd.add(a, fake("v1_view", np.arange(5.0)))
    out = fake("v1_view", np.zeros(5))
    with pytest.raises(ValueError):
        mx.nd.add(a, a, out=out)
    np.testing.assert_array_equal(out.array.asnumpy(), np.zeros(5))


def test_layouts_through_views(no_leaks):
    for layout in ("transposed", "offset", "stepped2d", "reversed", "0d", "0size"):
        x = MX.make("float32", layout_named(layout))
        want = x.asnumpy()
        obj = fake_producer_class("v1_view")(x)
        np.testing.assert_array_equal(mx.nd.negative(obj).asnumpy(), -want)
        np.testing.assert_array_equal(x.asnumpy(), want)
