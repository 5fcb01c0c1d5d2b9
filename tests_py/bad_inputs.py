"""The catalogue of bad inputs: every way a caller or a foreign producer can hand mxgo
something wrong, each with the exception it must get.

test_bad_inputs.py runs every case in a child interpreter (isolation.py), so a case that
crashes the process fails alone. After each case :func:`check_intact` proves that nothing
else was touched: bystander arrays shared with NumPy and PyTorch keep their values and
addresses; and each case ends with mxgo's live handles, storages and exports where it
started them (no leak, nothing freed early). Cases with a counting producer check that its deleter ran
exactly once.

``CASES`` maps a name ("group/what") to a zero-argument callable that raises
AssertionError (or anything else) when mxgo misbehaves.
"""
import datetime
import gc
import importlib.util
import os
import pickle

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx
from mxgo.ndarray.ndarray import _unpickle
from mxgo.ndarray.op import OPS

from dlpack_producer import CountingProducer, capsule_name, make_capsule
from interop_helpers import live_counts, mx_address
from invalid_tensors import INVALID, INVALID_VERSIONED, make_invalid

CASES = {}


#: the built-in exceptions whose mxgo form is also an mx.base.MXNetError (MXNetValueError, ...)
_MXNET_FORMS = (ValueError, TypeError, IndexError, BufferError, MemoryError, NotImplementedError)


def case(name, exc, match, fn, *, intact=(), foreign=False):
    """Registers case ``name``: ``fn()`` raises ``exc`` with a message matching ``match``,
    and every array in ``intact()`` (built before the call) is unchanged after it. As in
    MXNet, what mxgo raises is an mx.base.MXNetError too (MXNetValueError is a ValueError,
    ...), unless ``foreign``: the error is a producer's or Python's own (a bad call signature,
    an operator with an unsupported operand)."""
    assert name not in CASES, name

    def call():
        keep = [(a, _read(a)) for a in (intact() if intact else ())]
        with pytest.raises(exc, match=match) as info:
            fn([a for a, _ in keep])
        if not foreign and isinstance(info.value, _MXNET_FORMS):
            assert isinstance(info.value, mx.base.MXNetError), "%s is not an mx.base.MXNetError" % type(info.value).__name__
        for a, before in keep:
            after = _read(a)
            assert after.dtype == before.dtype and after.shape == before.shape
            assert np.array_equal(after, before, equal_nan=after.dtype.kind in "fc"), (a, before, after)

    def run():
        gc.collect()
        gc.freeze()  # the survivors so far: the collections below scan what this case makes only
        baseline = live_counts()
        call()  # returns with its frames, and the exception they hold, gone
        mx.nd.waitall()
        gc.collect()
        assert live_counts() == baseline, "live (handles, storages, exports): %s before, %s after" % (
            baseline, live_counts())

    CASES[name] = run


def _read(a):
    if isinstance(a, mx.nd.NDArray):
        return a.asnumpy()
    if isinstance(a, torch.Tensor):
        return a.numpy().copy()
    return np.array(a, copy=True)


def simple(name, exc, match, fn, *, foreign=False):
    """A case whose callable takes no arrays."""
    case(name, exc, match, lambda _: fn(), foreign=foreign)


# ------------------------------------------------------------------------ the bystanders
# Arrays that live through every case, shared across frameworks: a case must not change or
# free them.

_NP = np.arange(12.0).reshape(3, 4)
_NP_VIEW = mx.nd.from_numpy(_NP)
_TORCH = torch.arange(6, dtype=torch.int32)
_TORCH_VIEW = mx.nd.from_dlpack(_TORCH)
_MX = mx.nd.array(np.arange(5), dtype="int64")
_MX_IN_TORCH = torch.from_dlpack(_MX)
_BYSTANDERS = [(_NP_VIEW, _NP.copy(), mx_address(_NP_VIEW)), (_TORCH_VIEW, _TORCH.numpy().copy(),
               mx_address(_TORCH_VIEW)), (_MX, np.arange(5), mx_address(_MX))]
gc.collect()
gc.freeze()  # torch's 10^5 objects: each case's gc.collect() then sees the case's only


def check_intact():
    for arr, values, address in _BYSTANDERS:
        assert mx_address(arr) == address
        assert np.array_equal(arr.asnumpy(), values), arr
    assert np.array_equal(_NP, _BYSTANDERS[0][1]) and np.array_equal(_MX_IN_TORCH.numpy(), np.arange(5))


# ---------------------------------------------------------------------------- capsules

def _consumed_twice(first, second):
    def fn():
        c = mx.nd.ones((2, 3)).to_dlpack_for_read()
        first(c)
        second(c)
    return fn


simple("capsule/mx_then_mx", ValueError, "consumed", _consumed_twice(mx.nd.from_dlpack, mx.nd.from_dlpack))
simple("capsule/torch_then_mx", ValueError, "consumed", _consumed_twice(tdl.from_dlpack, mx.nd.from_dlpack))
simple("capsule/mx_then_torch", Exception, "", _consumed_twice(mx.nd.from_dlpack, tdl.from_dlpack))
simple("capsule/versioned_twice", ValueError, "consumed",
       lambda: [mx.nd.from_dlpack(c) for c in [mx.nd.ones(2).__dlpack__(max_version=(1, 0))] * 2])
simple("capsule/write_export_twice", ValueError, "consumed",
       lambda: [mx.nd.from_dlpack(c) for c in [mx.nd.ones(2).to_dlpack_for_write()] * 2])


def _foreign_capsule(name):
    def fn():
        producer = CountingProducer()
        good, tag = producer.capsule(np.arange(3.0))
        capsule = make_capsule(good_pointer(good), name)
        try:
            mx.nd.from_dlpack(capsule)
        finally:
            assert producer.deleter_calls(tag) == 0  # not ours to delete
            mx.nd.from_dlpack(good)  # still intact, and consumable once
            gc.collect()
            assert producer.deleter_calls(tag) == 1
    return fn


def good_pointer(capsule):
    from dlpack_producer import capsule_pointer
    return capsule_pointer(capsule)


for _name in [b"foo", b"dltensorX", b"DLTENSOR", b"used_dltensor", b"used_dltensor_versioned", None]:
    simple("capsule/named_%s" % _name, (TypeError, ValueError), "", _foreign_capsule(_name))

for _name, _obj in {"int": 42, "str": "dltensor", "none": None, "list": [1, 2], "bytes": b"\0" * 64,
                    "object": object(), "float": 1.5, "dict": {}, "type": int}.items():
    simple("capsule/not_dlpack_%s" % _name, TypeError, "", lambda o=_obj: mx.nd.from_dlpack(o))
simple("capsule/not_dlpack_datetime_capsule", ValueError, "not a DLPack capsule",
       lambda: mx.nd.from_dlpack(datetime.datetime_CAPI))


# --------------------------------------------------------- producers that misbehave

class _Producer:
    """An object whose __dlpack__ / __dlpack_device__ do what the case says."""

    def __init__(self, dlpack, device=lambda: (1, 0)):
        self._dlpack, self._device = dlpack, device

    def __dlpack__(self, **kwargs):
        return self._dlpack()

    def __dlpack_device__(self):
        return self._device()


def _raise(exc):
    def fn():
        raise exc
    return fn


def _used_capsule():
    c = mx.nd.ones(2).to_dlpack_for_read()
    mx.nd.from_dlpack(c)
    return c


for _exc in [ValueError("producer says no"), RuntimeError("producer says no"), BufferError("producer says no"),
             TypeError("producer says no"), KeyError("producer says no"), MemoryError("producer says no")]:
    simple("producer/dlpack_raises_%s" % type(_exc).__name__, type(_exc), "producer says no",
           lambda e=_exc: mx.nd.from_dlpack(_Producer(_raise(e))), foreign=True)  # the producer's own error
    simple("producer/device_raises_%s" % type(_exc).__name__, type(_exc), "producer says no",
           lambda e=_exc: mx.nd.from_dlpack(_Producer(lambda: mx.nd.ones(2).to_dlpack_for_read(), _raise(e))),
           foreign=True)

for _name, _ret in {"int": lambda: 7, "none": lambda: None, "str": lambda: "dltensor", "tuple": lambda: (1, 0),
                    "ndarray": lambda: np.ones(2)}.items():
    simple("producer/dlpack_returns_%s" % _name, TypeError, "", lambda r=_ret: mx.nd.from_dlpack(_Producer(r)))
simple("producer/dlpack_returns_non_dlpack_capsule", ValueError, "not a DLPack capsule",
       lambda: mx.nd.from_dlpack(_Producer(lambda: datetime.datetime_CAPI)))
simple("producer/dlpack_returns_consumed_capsule", ValueError, "consumed",
       lambda: mx.nd.from_dlpack(_Producer(_used_capsule)))
for _name, _dev in {"str": "cpu", "short": (1,), "long": (1, 0, 0), "floats": (1.0, 0.0), "none": None,
                    "list": [1, 0], "huge": (2 ** 70, 0), "negative": (-1, 0)}.items():
    simple("producer/device_%s" % _name, (TypeError, BufferError), "",
           lambda d=_dev: mx.nd.from_dlpack(_Producer(lambda: mx.nd.ones(2).to_dlpack_for_read(), lambda: d)))
for _name, _dev in {"cuda": (2, 0), "cuda_managed": (13, 0), "cuda_huge_id": (2, 2 ** 40), "metal": (8, 0)}.items():
    simple("producer/device_%s" % _name, BufferError, "",  # no CUDA driver in tests_py (conftest)
           lambda d=_dev: mx.nd.from_dlpack(_Producer(lambda: mx.nd.ones(2).to_dlpack_for_read(), lambda: d)))
for _name, (_target, _exc) in {"str": ("gpu", TypeError), "short": ((2,), TypeError), "gpu": (mx.gpu(0), BufferError),
                               "gpu_negative": ((2, -1), BufferError), "cpu_1": ((1, 1), BufferError),
                               "pinned": (mx.cpu_pinned(), BufferError), "opencl": ((4, 0), BufferError)}.items():
    simple("from_dlpack/device_%s" % _name, _exc, "", lambda t=_target: mx.nd.from_dlpack(np.ones(2), device=t))


class _NotCallable:
    __dlpack__ = 5

    def __dlpack_device__(self):
        return (1, 0)


simple("producer/dlpack_not_callable", TypeError, "", lambda: mx.nd.from_dlpack(_NotCallable()),
       foreign=True)  # Python's: "'int' object is not callable"


class _AlwaysTypeError:
    """Refuses every call signature: the keyword fallback must not loop or hide the error."""

    def __dlpack__(self, *args, **kwargs):
        raise TypeError("no signature works")

    def __dlpack_device__(self):
        return (1, 0)


simple("producer/dlpack_refuses_every_signature", TypeError, "no signature works",
       lambda: mx.nd.from_dlpack(_AlwaysTypeError()), foreign=True)


# ------------------------------------------------- DLPack C exchange API (exchange.c)
# A type's __dlpack_c_exchange_api__ that is not a capsule named "dlpack_exchange_api"
# raises (it is not silently skipped for __dlpack__), for from_dlpack and for operators.

def _with_table(attr):
    cls = type("_Tabled", (), {"__dlpack_c_exchange_api__": attr, "__dlpack__": lambda self, **kw: mx.nd.ones(3).__dlpack__(**kw),
                               "__dlpack_device__": lambda self: (1, 0)})
    return cls()


_TABLES = {"not_a_capsule": (42, TypeError, "must be a PyCapsule"),
           "wrong_capsule_name": (datetime.datetime_CAPI, ValueError, "not 'dlpack_exchange_api'")}
for _name, (_attr, _exc, _match) in _TABLES.items():
    simple("exchange/from_dlpack_" + _name, _exc, _match, lambda a=_attr: mx.nd.from_dlpack(_with_table(a)))
    case("exchange/operator_" + _name, _exc, _match, lambda arrs, a=_attr: mx.nd.add(arrs[0], _with_table(a), out=arrs[0]),
         intact=lambda: [mx.nd.ones(3)])
simple("exchange/read_only_wrapper_of_numpy", TypeError, "wraps an NDArray", lambda: mx.nd.ReadOnlyDLPack(np.ones(2)))
simple("exchange/read_only_wrapper_legacy_capsule", BufferError, "versioned",
       lambda: mx.nd.ReadOnlyDLPack(mx.nd.ones(2)).__dlpack__())
case("exchange/operator_out_read_only_wrapper", ValueError, "read-only",
     lambda arrs: mx.nd.add(arrs[0], arrs[0], out=mx.nd.ReadOnlyDLPack(arrs[1])), intact=lambda: [mx.nd.ones(3), mx.nd.zeros(3)])


# ------------------------------------------- invalid DLTensor fields (capsule and object)

def _invalid(overrides, form, through_object):
    def fn():
        producer = CountingProducer()
        capsule, tag = make_invalid(producer, overrides, form)
        try:
            mx.nd.from_dlpack(_Producer(lambda: capsule) if through_object else capsule)
        finally:
            assert capsule_name(capsule).startswith("used_")
            assert producer.deleter_calls(tag) == 1 and producer.unknown_calls == 0
    return fn


for _name, (_field, _over) in sorted({**INVALID, **INVALID_VERSIONED}.items()):
    for _form in (["versioned"] if _name in INVALID_VERSIONED else ["legacy", "versioned"]):
        for _via in ("capsule", "object"):
            simple("field/%s/%s/%s" % (_name, _form, _via), BufferError, _field,
                   _invalid(_over, _form, _via == "object"))


# ----------------------------------------------------------------------------- from_numpy

def _frozen(a):
    a.flags.writeable = False
    return a


_FROM_NUMPY = {
    "object": (TypeError, np.array([1, "a", None], dtype=object)),
    "unicode": (TypeError, np.array(["ab", "c"])),
    "bytes": (TypeError, np.array([b"ab", b"c"])),
    "structured": (TypeError, np.zeros(3, dtype=[("a", "f4"), ("b", "i4")])),
    "void": (TypeError, np.zeros(3, dtype="V8")),
    "datetime": (TypeError, np.array(["2026-11-21"], dtype="datetime64[D]")),
    "timedelta": (TypeError, np.array([1, 2], dtype="timedelta64[s]")),
    "longdouble": (TypeError, np.zeros(3, dtype=np.longdouble)),
    "big_endian": (ValueError, np.arange(4, dtype=">f4")),
    "big_endian_int": (ValueError, np.arange(4, dtype=">i8")),
}
for _name, (_exc, _arr) in _FROM_NUMPY.items():
    for _zc in (True, False):
        case("from_numpy/%s/zero_copy=%s" % (_name, _zc), _exc, "", lambda a, z=_zc: mx.nd.from_numpy(a[0], zero_copy=z),
             intact=lambda a=_arr: [a])
for _name, _make_arr in {"strided": lambda: np.arange(12.0)[::2], "fortran": lambda: np.asfortranarray(np.ones((3, 4))),
                         "reversed": lambda: np.arange(5.0)[::-1]}.items():
    case("from_numpy/%s/zero_copy" % _name, ValueError, "contiguous",
         lambda a: mx.nd.from_numpy(a[0], zero_copy=True), intact=lambda m=_make_arr: [m()])
for _name, _obj in {"list": [1.0, 2.0], "torch": torch.ones(2), "mx": mx.nd.ones(2), "none": None, "int": 3,
                    "memoryview": memoryview(b"abcd")}.items():
    simple("from_numpy/not_ndarray_%s" % _name, TypeError, "", lambda o=_obj: mx.nd.from_numpy(o))


# ------------------------------------------------------------------ creation arguments

_CREATORS = {
    "empty": lambda shape, **kw: mx.nd.empty(shape, **kw),
    "zeros": lambda shape, **kw: mx.nd.zeros(shape, **kw),
    "ones": lambda shape, **kw: mx.nd.ones(shape, **kw),
    "full": lambda shape, **kw: mx.nd.full(shape, 7, **kw),
    "uniform": lambda shape, **kw: mx.nd.random.uniform(shape=shape, **kw),
    "normal": lambda shape, **kw: mx.nd.random.normal(shape=shape, **kw),
}
_BAD_SHAPES = {
    "negative": ((-1,), ValueError), "negative_2d": ((2, -3), ValueError),
    "huge_dim": ((2 ** 63,), (ValueError, OverflowError)), "overflowing_product": ((2 ** 40, 2 ** 40), ValueError),
    "too_big_for_memory": ((2 ** 50,), (MemoryError, ValueError)),
    "float": ((1.5,), TypeError), "str": ("3", TypeError), "none_dim": ((None,), TypeError),
    "nested": (((2,),), TypeError), "65_dims": ((1,) * 65, ValueError), "object": (object(), TypeError),
}
_BAD_DTYPES = {"unknown": ("float33", TypeError), "object": (object, TypeError), "unicode": (np.dtype("U4"), TypeError),
               "structured": (np.dtype([("a", "f4")]), TypeError), "number": (3, TypeError)}
_BAD_CTX = {"str": ("gpu", TypeError), "int": (5, TypeError), "gpu": (mx.gpu(0), mx.MXNetError)}
for _fn, _make_fn in _CREATORS.items():
    for _name, (_shape, _exc) in _BAD_SHAPES.items():
        simple("create/%s/shape_%s" % (_fn, _name), _exc, "", lambda f=_make_fn, s=_shape: f(s))
    for _name, (_dt, _exc) in _BAD_DTYPES.items():
        simple("create/%s/dtype_%s" % (_fn, _name), _exc, "", lambda f=_make_fn, d=_dt: f((2,), dtype=d))
    for _name, (_ctx, _exc) in _BAD_CTX.items():
        simple("create/%s/ctx_%s" % (_fn, _name), _exc, "", lambda f=_make_fn, c=_ctx: f((2,), ctx=c))

for _name, (_src, _exc) in {"ragged": ([[1, 2], [3]], ValueError), "strings": (["a", "b"], ValueError),
                           "objects": ([object()], TypeError), "none": (None, TypeError),
                           "dict": ({1: 2}, TypeError)}.items():
    simple("create/array/%s" % _name, _exc, "", lambda s=_src: mx.nd.array(s))
for _name, (_args, _exc) in {"step_zero": ((0, 10, 0), ValueError), "nan": ((0, float("nan")), ValueError),
                            "inf": ((0, float("inf")), ValueError), "huge": ((0, 2.0 ** 62), (MemoryError, ValueError)),
                            "str": (("a",), TypeError), "repeat_zero": ((0, 3, 1, 0), ValueError)}.items():
    simple("create/arange/%s" % _name, _exc, "", lambda a=_args: mx.nd.arange(*a))
simple("create/context/huge_device_id", ValueError, "device_id", lambda: mx.cpu(2 ** 31))
simple("create/context/negative_device_id", ValueError, "device_id", lambda: mx.cpu(-1))
simple("create/context/unknown_type", ValueError, "device type", lambda: mx.Context("tpu"))
simple("create/full/value_str", TypeError, "", lambda: mx.nd.full((2,), "x"))
simple("random/seed_str", TypeError, "", lambda: mx.nd.random.seed("x"))
simple("random/uniform_int_dtype", TypeError, "", lambda: mx.nd.random.uniform(shape=(2,), dtype="int32"))
simple("random/normal_negative_scale", ValueError, "", lambda: mx.nd.random.normal(0, -1, shape=(2,)))


# ------------------------------------------------------------------ indexing and writes

def _arr():
    return [mx.nd.array(np.arange(24).reshape(2, 3, 4), dtype="int32")]


for _name, (_key, _exc) in {"int_high": (2, IndexError), "int_low": (-3, IndexError), "deep_int": ((0, 3), IndexError),
                           "too_many": ((0, 0, 0, 0), IndexError), "two_ellipses": ((Ellipsis, Ellipsis), IndexError),
                           "float": (1.5, IndexError), "str": ("a", IndexError), "step_zero": (slice(None, None, 0), ValueError),
                           "huge": (2 ** 70, IndexError),
                           # advanced indexing (MXNet 1.x's rules: indexing.py)
                           "list_out_of_range": ([0, 5], IndexError), "mx_array_out_of_range": (mx.nd.array([7]), IndexError),
                           "bool_ndarray": (mx.nd.array([1, 0], dtype="bool"), ValueError), "empty_list": ([], IndexError),
                           "ragged_list": ([[0], [0, 1]], IndexError), "str_list": (["a"], IndexError),
                           "list_of_ndarrays": ([mx.nd.ones(1)], TypeError), "nan_list": ([float("nan")], IndexError),
                           "mismatched_lists": (([0, 1], [0, 1, 2]), IndexError), "list_huge": ([2 ** 70], IndexError)}.items():
    case("index/get_%s" % _name, _exc, "", lambda a, k=_key: a[0][k], intact=_arr)
    case("index/set_%s" % _name, _exc, "", lambda a, k=_key: a[0].__setitem__(k, 1), intact=_arr)
for _name, (_val, _exc) in {"wrong_shape": (np.ones((5, 5)), ValueError), "string": ("abc", TypeError),
                           "object": (object(), TypeError), "torch_wrong_shape": (torch.ones(7), ValueError),
                           "complex_into_int": (1j, TypeError), "none": (None, TypeError)}.items():
    case("index/assign_%s" % _name, _exc, "", lambda a, v=_val: a[0].__setitem__(slice(None), v), intact=_arr)


def _read_only():
    n = _frozen(np.arange(6.0).reshape(2, 3))
    return [mx.nd.from_numpy(n), n]


for _name, _write in {"setitem": lambda x: x.__setitem__(0, 5), "fill_all": lambda x: x.__setitem__(slice(None), 1),
                      "iadd": lambda x: x.__iadd__(1), "out": lambda x: mx.nd.exp(mx.nd.ones((2, 3), dtype="float64"), out=x),
                      "copyto": lambda x: mx.nd.ones((2, 3), dtype="float64").copyto(x),
                      "random_out": lambda x: mx.nd.random.uniform(shape=(2, 3), dtype="float64", out=x),
                      "run_async_writes": lambda x: mx.nd.run_async(lambda v: None, writes=[x])}.items():
    case("read_only/%s" % _name, ValueError, "read-only|writable", lambda a, w=_write: w(a[0]), intact=_read_only)
case("read_only/export_for_write", BufferError, "read-only", lambda a: a[0].to_dlpack_for_write(), intact=_read_only)
case("read_only/dlpack_versioned_then_write_legacy", BufferError, "read-only",
     lambda a: a[0].__dlpack__(max_version=None), intact=_read_only)


# --------------------------------------------------------------------------- operators

_IN = {"dot": [(2, 3), (3, 2)], "matmul": [(2, 3), (3, 2)], "batch_dot": [(2, 2, 3), (2, 3, 2)],
       "pick": [(2, 3), (2,)], "SVMOutput": [(2, 3), (2,)], "RNN": [(2, 1, 2), (48,), (1, 1, 2), (1, 1, 2)],
       "BilinearSampler": [(1, 2, 3, 4), (1, 2, 2, 2)], "Correlation": [(1, 2, 5, 5), (1, 2, 5, 5)],
       "GridGenerator": [(2, 6)], "ROIPooling": [(2, 2, 4, 4), (1, 5)], "SpatialTransformer": [(1, 2, 3, 4), (1, 6)],
       "sample_negative_binomial": [(1, 1), (1, 1)],  # p = 0.5: the values below 1 the kernel accepts
       # linalg: square matrices where needed; (1, 1) for potrf and potri, whose (2, 2) input here is not
       # positive definite (an asynchronous error would surface in a later case)
       "linalg_gemm": [(2, 3), (3, 2), (2, 2)], "linalg_gemm2": [(2, 3), (3, 2)], "linalg_potrf": [(1, 1)],
       "linalg_potri": [(1, 1)], "linalg_trsm": [(2, 2), (2, 3)], "linalg_trmm": [(2, 2), (2, 3)],
       "linalg_inverse": [(2, 2)], "linalg_det": [(2, 2)], "linalg_sumlogdiag": [(2, 2)], "linalg_extractdiag": [(2, 2)],
       "linalg_extracttrian": [(2, 2)],
       # layout: 4-D images, index arrays of the right depth
       "pad": [(1, 1, 2, 3)], "Pad": [(1, 1, 2, 3)], "depth_to_space": [(1, 4, 2, 3)], "space_to_depth": [(1, 1, 2, 4)],
       "gather_nd": [(2, 3), (1, 2)], "scatter_nd": [(2, 3), (1, 2)], "choose_element_0index": [(2, 3), (2,)],
       "fill_element_0index": [(2, 3), (2,), (2,)], "batch_take": [(2, 3), (2,)], "Crop": [(1, 1, 3, 3)],
       # nn: data, weight and bias (or gamma, beta, moving stats) of matching shapes
       "FullyConnected": [(2, 3), (4, 3), (4,)], "Convolution": [(1, 2, 4, 4), (3, 2, 3, 3), (3,)],
       "Pooling": [(1, 2, 4, 4)], "Embedding": [(2, 3), (5, 4)], "LeakyReLU": [(2, 3)],
       "BatchNorm": [(2, 3), (3,), (3,), (3,), (3,)], "LayerNorm": [(2, 3), (3,), (3,)],
       "InstanceNorm": [(1, 2, 3), (2,), (2,)], "GroupNorm": [(1, 2, 3), (1,), (1,)], "LRN": [(1, 3, 2, 2)],
       "Deconvolution": [(1, 2, 3, 3), (2, 3, 2, 2)], "im2col": [(1, 2, 3, 3)], "col2im": [(1, 8, 4)],
       "Convolution_v1": [(1, 2, 4, 4), (3, 2, 3, 3), (3,)], "Pooling_v1": [(1, 2, 4, 4)], "UpSampling": [(1, 2, 2, 2)],
       # softmax: data alone (a length array goes with use_length=True); labels of one per row
       "softmax": [(2, 3)], "softmax_cross_entropy": [(2, 3), (2,)], "SoftmaxOutput": [(2, 3), (2,)],
       "Softmax": [(2, 3), (2,)],
       # optimizer updates: groups of one weight's arrays; LAMB's norms and preloaded rates of one element each
       "multi_sgd_mom_update": [(2, 3)] * 3, "multi_mp_sgd_update": [(2, 3)] * 3,
       "multi_mp_sgd_mom_update": [(2, 3)] * 4, "preloaded_multi_sgd_update": [(2, 3), (2, 3), (1,), (1,)],
       "preloaded_multi_sgd_mom_update": [(2, 3)] * 3 + [(1,), (1,)],
       "preloaded_multi_mp_sgd_update": [(2, 3)] * 3 + [(1,), (1,)],
       "preloaded_multi_mp_sgd_mom_update": [(2, 3)] * 4 + [(1,), (1,)],
       "lamb_update_phase2": [(2, 3), (2, 3), (1,), (1,)], "mp_lamb_update_phase2": [(2, 3), (2, 3), (1,), (1,), (2, 3)]}
_INT32_INPUT = {"batch_take": 1}
_REQUIRED = {"moments": {"axes": 0}, "GridGenerator": {"transform_type": "affine", "target_shape": (2, 2)},
             "ROIPooling": {"pooled_size": (2, 2), "spatial_scale": 1.0}, "SpatialTransformer": {"target_shape": (2, 2)},
             "reshape": {"shape": (3, 2)}, "cast": {"dtype": "float64"}, "Cast": {"dtype": "float64"},
             "clip": {"a_min": 0, "a_max": 1},
             "random_uniform": {"shape": (2, 3)}, "random_normal": {"shape": (2, 3)}, "transpose": {},
             "random_randint": {"low": 0, "high": 5, "shape": (2, 3)},
             "expand_dims": {"axis": 0}, "flip": {"axis": (0,)}, "reverse": {"axis": (1,)}, "tile": {"reps": (2,)},
             "repeat": {"repeats": 2}, "broadcast_to": {"shape": (2, 3)}, "one_hot": {"depth": 3},
             "slice_axis": {"axis": 0, "begin": 0, "end": 1},
             "slice": {"begin": (0,), "end": (1,)}, "crop": {"begin": (0,), "end": (1,)},
             "pad": {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 1, 1, 1)},
             "Pad": {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 1, 1, 1)},
             "depth_to_space": {"block_size": 2}, "space_to_depth": {"block_size": 2}, "scatter_nd": {"shape": (2, 3)},
             "ravel_multi_index": {"shape": (4, 4)}, "unravel_index": {"shape": (4, 4)}, "Crop": {"h_w": (2, 2)},
             "Reshape": {"shape": (3, 2)},
             "FullyConnected": {"num_hidden": 4}, "Convolution": {"kernel": (3, 3), "num_filter": 3},
             "Pooling": {"kernel": (2, 2)}, "Activation": {"act_type": "relu"},
             "Embedding": {"input_dim": 5, "output_dim": 4}, "LRN": {"nsize": 3},
             "Deconvolution": {"kernel": (2, 2), "num_filter": 3}, "im2col": {"kernel": (2, 2)},
             "col2im": {"kernel": (2, 2), "output_size": (3, 3)},
             "Convolution_v1": {"kernel": (3, 3), "num_filter": 3}, "Pooling_v1": {"kernel": (2, 2)},
             "UpSampling": {"scale": 2, "sample_type": "nearest"},
             **{n: {"lr": 0.1} for n in ("sgd_update", "sgd_mom_update", "mp_sgd_update", "mp_sgd_mom_update",
                                         "nag_mom_update", "mp_nag_mom_update", "adam_update", "rmsprop_update",
                                         "rmspropalex_update", "ftrl_update", "signsgd_update", "signum_update",
                                         "lamb_update_phase2", "mp_lamb_update_phase2")},
             "ftml_update": {"lr": 0.1, "t": 1}, "lamb_update_phase1": {"wd": 0.0, "t": 1},
             "mp_lamb_update_phase1": {"wd": 0.0, "t": 1}, "multi_sum_sq": {"num_arrays": 2},
             "multi_lars": {"eta": 0.1, "eps": 0.0}, "multi_all_finite": {"num_arrays": 2},
             "reset_arrays": {"num_arrays": 2},
             **{"multi_%s_update" % n: {"lrs": (0.1,), "wds": (0.0,)} for n in ("sgd", "sgd_mom", "mp_sgd", "mp_sgd_mom")},
             "RNN": {"state_size": 2, "num_layers": 1, "mode": "lstm"}}


def _inputs(name):
    info = OPS[name]
    if name in _IN:
        shapes = _IN[name]
    elif info["inputs"] and info["inputs"][0].startswith("*"):
        shapes = [(2, 3), (2, 3)]
    else:
        shapes = [(2, 3)] * len(info["inputs"])
    arrays = [mx.nd.array(np.arange(np.prod(s), dtype=np.float32).reshape(s) / 7 + 0.5) for s in shapes]
    if name in _INT32_INPUT:  # operators that take only int32 indices
        i = _INT32_INPUT[name]
        arrays[i] = arrays[i].astype("int32")
    return arrays


_BAD_PARAM = {"int": [object(), 1.5, "x", 2 ** 70], "float": [object(), "x", None], "axes": [object(), "x", 1.5, (0, "a")],
              "shape": [object(), "x", 1.5], "dtype": [object(), "float33", 3], "scalar": [object(), "x", None],
              "optint": [object(), 1.5, "x", 2 ** 70], "optfloat": [object(), "x"],
              "str": [object(), 3, "x", "clip;axis=1"], "optdtype": [object(), "float33", 3],
              "optints": [object(), "x", 1.5, (0, "a")], "floats": [object(), "x", (0.5, "a")]}
_PARAM_ERRORS = (TypeError, ValueError, OverflowError)
#: the operators of several results, and how many they have with _REQUIRED's parameters
_RESULTS = {"moments": 2, "reset_arrays": 0}

for _op in sorted(n for n in OPS if not n.startswith("_")):
    _fn = getattr(mx.nd, _op)
    _req = _REQUIRED.get(_op, {})
    if OPS[_op]["inputs"]:
        case("op/%s/input_str" % _op, TypeError, "", lambda a, f=_fn, o=_op: f(*["x"] * max(len(a), 1), **_REQUIRED.get(o, {})),
             intact=lambda o=_op: _inputs(o))
        case("op/%s/input_none" % _op, TypeError, "", lambda a, f=_fn, o=_op: f(*[None] * max(len(a), 1), **_REQUIRED.get(o, {})),
             intact=lambda o=_op: _inputs(o))
    case("op/%s/unknown_keyword" % _op, TypeError, "bogus", lambda a, f=_fn, r=_req: f(*a, bogus=1, **r),
         intact=lambda o=_op: _inputs(o), foreign=True)  # Python's own check of the generated signature
    _n = _RESULTS.get(_op, 1)  # an operator of several results takes a list of outs
    if _n:  # (one of none takes no out)
        case("op/%s/out_wrong_shape" % _op, ValueError, "shape",
             lambda a, f=_fn, r=_req, n=_n: f(*a[:-n], out=a[-1] if n == 1 else a[-n:], **r),
             intact=lambda o=_op, f=_fn, r=_req, n=_n: _inputs(o) + [mx.nd.zeros((7, 5, 3), dtype=(
                 f(*_inputs(o), **r) if n == 1 else f(*_inputs(o), **r)[i]).dtype) for i in range(n)])
    case("op/%s/out_not_array" % _op, TypeError, "", lambda a, f=_fn, r=_req: f(*a, out="x", **r),
         intact=lambda o=_op: _inputs(o))
    for _p in OPS[_op]["params"]:
        for _i, _v in enumerate(_BAD_PARAM.get(_p["kind"], [])):
            if _op in ("reshape", "Reshape") and _p["name"] == "shape" and _v == 1.5:
                continue
            case("op/%s/param_%s_%d" % (_op, _p["name"], _i), _PARAM_ERRORS, "",
                 lambda a, f=_fn, r=_req, p=_p["name"], v=_v: f(*a, **{**r, p: v}), intact=lambda o=_op: _inputs(o))

for _name, (_shapes, _kw, _exc) in {
        "add": ([(2, 3), (4, 3)], {}, ValueError), "dot": ([(2, 3), (2, 3)], {}, ValueError),
        "matmul": ([(2, 3), (2, 3)], {}, ValueError), "batch_dot": ([(2, 2, 3), (3, 2, 2)], {}, ValueError),
        "where": ([(2, 3), (2, 3), (3, 3)], {}, ValueError), "concat": ([(2, 3), (2, 4)], {"dim": 0}, ValueError),
        "stack": ([(2, 3), (3, 2)], {}, ValueError), "reshape": ([(2, 3)], {"shape": (4, 2)}, ValueError),
        "transpose": ([(2, 3)], {"axes": (0, 0)}, ValueError), "sum": ([(2, 3)], {"axis": 2}, (IndexError, ValueError)),
        "argmax": ([(2, 3)], {"axis": -3}, (IndexError, ValueError))}.items():
    case("op/mismatch/%s" % _name, _exc, "",
         lambda a, name=_name, kw=_kw: getattr(mx.nd, name)(*a, **kw),
         intact=lambda s=_shapes: [mx.nd.array(np.ones(x, np.float32)) for x in s])


# ---------------------------------------------------------------------- methods and misc

for _name, (_call, _exc) in {
        "reshape_bad": (lambda a: a.reshape((5, 5)), ValueError),
        "reshape_two_unknown": (lambda a: a.reshape((-1, -1)), ValueError),
        "transpose_bad_axes": (lambda a: a.transpose((0, 5, 1)), (IndexError, ValueError)),
        "astype_bad": (lambda a: a.astype("float33"), TypeError),
        "copyto_shape": (lambda a: a.copyto(mx.nd.zeros((3, 3))), ValueError),
        "copyto_str": (lambda a: a.copyto("x"), TypeError),
        "as_in_context_gpu": (lambda a: a.as_in_context(mx.gpu(0)), mx.MXNetError),
        "asscalar_many": (lambda a: a.asscalar(), ValueError),
        "dlpack_stream_str": (lambda a: a.__dlpack__(stream="x"), (TypeError, ValueError, BufferError)),
        "dlpack_stream_cpu_int": (lambda a: a.__dlpack__(stream=5), (ValueError, BufferError)),
        "dlpack_max_version_str": (lambda a: a.__dlpack__(max_version="1.0"), TypeError),
        "dlpack_max_version_short": (lambda a: a.__dlpack__(max_version=(1,)), (TypeError, ValueError)),
        "dlpack_device_cuda": (lambda a: a.__dlpack__(dl_device=(2, 0)), (BufferError, ValueError)),
        "dlpack_device_str": (lambda a: a.__dlpack__(dl_device="cpu"), (TypeError, ValueError, BufferError)),
        "dlpack_copy_str": (lambda a: a.__dlpack__(copy="yes"), (TypeError, ValueError)),
        "to_dlpack_max_version_bad": (lambda a: a.to_dlpack_for_read(max_version=(9, 9, 9)), (TypeError, ValueError)),
        "from_dlpack_device_bad": (lambda a: mx.nd.from_dlpack(a, device="tpu"), (TypeError, ValueError, BufferError)),
        "from_dlpack_copy_false_cross_device": (lambda a: mx.nd.from_dlpack(a, device=mx.gpu(0), copy=False), BufferError),
        "run_async_not_callable": (lambda a: mx.nd.run_async(5, a), TypeError),
        "run_async_not_array": (lambda a: mx.nd.run_async(lambda v: None, reads=["x"]), TypeError),
        "binary_with_list": (lambda a: a + [1, 2], TypeError),
        "binary_with_numpy": (lambda a: a + np.ones((2, 3)), TypeError),
        "bool_of_array": (lambda a: bool(a), ValueError),
}.items():
    case("method/%s" % _name, _exc, "", lambda a, c=_call: c(a[0]), intact=lambda: [mx.nd.ones((2, 3))],
         foreign=_name.startswith("binary_with"))  # Python's operator protocol raises those (NotImplemented)


def _async_failure():
    """A failing callback's error is raised by the first wait that meets it, once (as in
    MXNet 1.x): here waitall, as a wait on another array passes it by; unmapped exception
    types become MXNetError naming the type."""
    x, y = mx.nd.ones((2,)), mx.nd.ones((2,))
    mx.nd.run_async(lambda v: 1 / 0, writes=[x])
    y.wait_to_read()
    mx.nd.waitall()


simple("engine/run_async_error_at_waitall", mx.MXNetError, "ZeroDivisionError", _async_failure)


# ---------------------------------------------------------------------------- TVM-FFI
# mxgo.tvm_bridge, where tvm_ffi is installed (not in the legacy environment): bad calls
# of a bridged function raise at call time, and mxgo's global functions raise for tvm_ffi
# (foreign: tvm_ffi raises the built-in type), both leaving the arrays alone.

class _OnGPU:
    """A DLPack producer whose tensor is on a CUDA device."""

    def __dlpack__(self, **kwargs):
        raise BufferError("not on the CPU")

    def __dlpack_device__(self):
        return (2, 0)


if importlib.util.find_spec("tvm_ffi") is not None:
    import tvm_ffi

    from mxgo import tvm_bridge

    def _ffi_add():
        return tvm_ffi.get_global_func("mxgo.nd.add")

    def _bridged_add():
        return tvm_bridge.to_mxgo_func(_ffi_add(), const_loc=[0, 1])

    def _read_only_np():
        a = np.ones(3, np.float32)
        a.flags.writeable = False
        return a

    for _name, (_exc, _match, _call) in {
        "not_a_function": (TypeError, "tvm_ffi.Function", lambda a: tvm_bridge.to_mxgo_func(len)),
        "const_loc_not_ints": (TypeError, "const_loc", lambda a: tvm_bridge.to_mxgo_func(_ffi_add(), const_loc=["0"])),
        "const_loc_out_of_range": (ValueError, "out of range", lambda a: _bridged_add()(a[0])),
        "argument_not_an_array": (TypeError, "argument 2", lambda a: _bridged_add()(a[0], a[1], "out")),
        "read_only_written": (BufferError, "read-only", lambda a: _bridged_add()(a[0], a[1], a[2])),
        "written_on_gpu": (BufferError, "", lambda a: _bridged_add()(a[0], a[1], _OnGPU())),
    }.items():
        case("tvm/bridge_" + _name, _exc, _match, lambda a, c=_call: c(a),
             intact=lambda: [mx.nd.ones((3,)), torch.ones(3), _read_only_np()])
    for _name, (_exc, _match, _call) in {
        "shapes": (ValueError, "broadcast", lambda a: _ffi_add()(a[0], a[1][:2], a[2])),
        "out_dtype": (TypeError, "out has dtype", lambda a: _ffi_add()(a[0], a[1], a[2])),
        "param_type": (TypeError, "parameter axis", lambda a: tvm_ffi.get_global_func("mxgo.nd.sum")(a[0], None, "x")),
        "too_many_params": (TypeError, "takes 0 parameter", lambda a: _ffi_add()(a[0], a[1], None, 1)),
    }.items():
        case("tvm/global_" + _name, _exc, _match, lambda a, c=_call: c(a), foreign=True,
             intact=lambda: [torch.ones(3), torch.ones(3), np.zeros(3)])


# ---------------------------------------------------------------------------- pickles
# What a tampered file makes pickle call: mxgo's reconstructor with arguments it must
# check before allocating anything (NDArray.__reduce_ex__ writes GOOD_PICKLE's form).

GOOD_PICKLE = (1, "float32", (2, 3), (1, 0), bytes(24))


def forge_pickle(args):
    """A pickle that calls mxgo's reconstructor with args."""
    class Forged:
        def __reduce__(self):
            return _unpickle, args
    return pickle.dumps(Forged(), protocol=2)


for _name, (_args, _match) in {
    "version": ((2,) + GOOD_PICKLE[1:], "format version 2"),
    "version_bool": ((True,) + GOOD_PICKLE[1:], "format version"),
    "dtype_unknown": ((1, "float128") + GOOD_PICKLE[2:], "unknown dtype"),
    "dtype_not_str": ((1, 0) + GOOD_PICKLE[2:], "unknown dtype"),
    "shape_negative": (GOOD_PICKLE[:2] + ((-2, -12),) + GOOD_PICKLE[3:], "shape"),
    "shape_list": (GOOD_PICKLE[:2] + ([2, 3],) + GOOD_PICKLE[3:], "shape"),
    "shape_float": (GOOD_PICKLE[:2] + ((2.0, 3),) + GOOD_PICKLE[3:], "shape"),
    "shape_huge": (GOOD_PICKLE[:2] + ((1 << 40, 1 << 40),) + GOOD_PICKLE[3:], "bytes of data"),
    "shape_too_small": (GOOD_PICKLE[:2] + ((2, 2),) + GOOD_PICKLE[3:], "24 bytes of data for shape"),
    "data_short": (GOOD_PICKLE[:4] + (bytes(23),), "23 bytes of data"),
    "data_long": (GOOD_PICKLE[:4] + (bytes(25),), "25 bytes of data"),
    "data_not_buffer": (GOOD_PICKLE[:4] + ("x" * 24,), "not a contiguous buffer"),
    "data_none": (GOOD_PICKLE[:4] + (None,), "not a contiguous buffer"),
    "device_unknown": (GOOD_PICKLE[:3] + ((99, 0),) + GOOD_PICKLE[4:], "device"),
    "device_negative_id": (GOOD_PICKLE[:3] + ((1, -1),) + GOOD_PICKLE[4:], "device"),
    "device_not_pair": (GOOD_PICKLE[:3] + ((1,),) + GOOD_PICKLE[4:], "device"),
}.items():
    _data = forge_pickle(_args)
    simple("pickle/" + _name, pickle.UnpicklingError, _match, lambda d=_data: pickle.loads(d))
simple("pickle/truncated", pickle.UnpicklingError, "truncated",
       lambda: pickle.loads(pickle.dumps(mx.nd.ones((4, 4)), protocol=5)[:-20]))


# ---------------------------------------------------------------------------- forked children
# A forked child refuses what needs Go with the forked-child MXNetError (see forkcheck.py
# for the whole story); here each refusal also leaves the parent's arrays intact.

def _in_forked_child(fn):
    """Runs fn in a forked child, which exits at once (os._exit) after reporting what fn
    raised; re-raises an MXNetError the child got, with its message, in the parent."""
    def run(arrays):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                fn(arrays)
                report = "no error"
            except mx.MXNetError as err:
                report = "MXNetError:" + str(err)
            except BaseException as err:  # noqa: B036 - reported to the parent
                report = "%s: %s" % (type(err).__name__, err)
            os.write(w, report.encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            report = f.read()
        os.waitpid(pid, 0)
        if report.startswith("MXNetError:"):
            raise mx.MXNetError(report[len("MXNetError:"):])
        raise AssertionError("the forked child got " + report)
    return run


for _name, _call in {
    "create": lambda a: mx.nd.zeros((3,)),
    "operator": lambda a: a[0] + 1,
    "method": lambda a: a[0].sum(),
    "index": lambda a: a[0][1:],
    "setitem": lambda a: a[0].__setitem__(0, 1),
    "copy": lambda a: a[0].copy(),
    "waitall": lambda a: mx.nd.waitall(),
    "run_async": lambda a: mx.nd.run_async(lambda v: None, writes=[a[0]]),
    "import_mxgo_capsule": lambda a: mx.nd.from_dlpack(a[0].to_dlpack_for_read()),
    "use_of_c_import": lambda a: mx.nd.from_numpy(np.ones(3)) * 2,
    "use_of_unpickled": lambda a: pickle.loads(pickle.dumps(a[0])).exp(),
}.items():
    case("fork/" + _name, mx.MXNetError, "forked child", _in_forked_child(_call),
         intact=lambda: [mx.nd.ones((2, 3)), np.ones(3)])
