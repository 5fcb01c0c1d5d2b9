"""Lifetimes across frameworks: a consumer outlives its producer, and once everything is
gone the memory is given back exactly once (NumPy refcounts, mxgo's live counters, and
deleter counts of a producer that counts)."""
import gc
import itertools
import sys
import weakref

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from dlpack_producer import CountingProducer
from interop_helpers import (MX, NUMPY, NUMPY_EXPORTS_READ_ONLY, NUMPY_IMPORTS_WRITABLE, TORCH, layout_named,
                             live_counts, reference)

OFFSET = layout_named("offset")  # a strided view with an offset: the hardest case to keep alive


pytestmark = pytest.mark.usefixtures("frozen_heap")


def churn():
    """Allocates and fills memory of the freed blocks' sizes, so that a dangling view
    would read garbage instead of the old values."""
    junk = [np.full(n, 0x5A, np.uint8) for n in (16, 64, 80, 128, 4096) for _ in range(32)]
    junk += [torch.full((n,), -7.0) for n in (4, 16, 20, 32) for _ in range(32)]
    del junk


#: name -> (producer adapter, exchange, consumer adapter, whether the consumer may write)
EXCHANGES = {
    "torch_capsule_to_mx": (TORCH, lambda t: mx.nd.from_dlpack(tdl.to_dlpack(t)), MX, True),
    "torch_object_to_mx": (TORCH, mx.nd.from_dlpack, MX, True),
    "numpy_object_to_mx": (NUMPY, mx.nd.from_dlpack, MX, True),
    "numpy_from_numpy_to_mx": (NUMPY, lambda a: mx.nd.from_numpy(a.copy()), MX, True),
    "mx_for_read_to_torch": (MX, lambda x: tdl.from_dlpack(x.to_dlpack_for_read()), TORCH, False),
    "mx_for_write_to_torch": (MX, lambda x: tdl.from_dlpack(x.to_dlpack_for_write()), TORCH, True),
    "mx_object_to_torch": (MX, torch.from_dlpack, TORCH, True),
    "mx_object_to_numpy": (MX, np.from_dlpack, NUMPY, NUMPY_IMPORTS_WRITABLE),
    "torch_to_mx_to_numpy": (TORCH, lambda t: np.from_dlpack(mx.nd.from_dlpack(t)), NUMPY,
                             NUMPY_IMPORTS_WRITABLE),
    "numpy_to_mx_to_torch": (NUMPY, lambda a: torch.from_dlpack(mx.nd.from_dlpack(a)), TORCH, True),
}


@pytest.mark.parametrize("name", sorted(EXCHANGES))
def test_consumer_outlives_producer(name):
    producer, exchange, consumer, writable = EXCHANGES[name]
    src = producer.make("float32", OFFSET)
    dst = exchange(src)
    expected = OFFSET.of_numpy(reference("float32", OFFSET.base))
    np.testing.assert_array_equal(consumer.values(dst), expected)
    del src
    gc.collect()
    churn()
    np.testing.assert_array_equal(consumer.values(dst), expected)
    if writable:
        consumer.write(dst, (0, 0), -1.0)
        expected[0, 0] = -1.0
        np.testing.assert_array_equal(consumer.values(dst), expected)


# ---- NumPy sources: their refcount returns to the baseline -------------------------------

NUMPY_IMPORTERS = {
    "from_dlpack": mx.nd.from_dlpack,
    "from_dlpack_capsule": lambda a: mx.nd.from_dlpack(a.__dlpack__()),
    "from_numpy": mx.nd.from_numpy,
}
VIEWS = {"base": lambda x: x, "slice": lambda x: x[1:, ::2], "reshape": lambda x: x.reshape((12,))}
ORDERS = list(itertools.permutations(sorted(VIEWS)))


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
@pytest.mark.parametrize("importer", sorted(NUMPY_IMPORTERS))
def test_numpy_source_refcount(importer, order):
    """An import holds the NumPy array (a DLPack export or a buffer export) while any
    mxgo view of it lives, and lets go exactly once afterwards."""
    a = np.arange(12.0).reshape(3, 4)
    baseline = sys.getrefcount(a)
    x = NUMPY_IMPORTERS[importer](a)
    held = sys.getrefcount(a)
    assert held > baseline
    arrays = {name: make(x) for name, make in VIEWS.items()}
    del x
    for i, name in enumerate(order):
        del arrays[name]
        gc.collect()
        assert sys.getrefcount(a) == (baseline if i == len(order) - 1 else held), name
    np.testing.assert_array_equal(a, np.arange(12.0).reshape(3, 4))


# ---- torch sources: released exactly when the last mxgo view goes ---------------------------

def _check_views(arrays, ref):
    for name, view in arrays.items():
        np.testing.assert_array_equal(view.asnumpy(), VIEWS[name](ref))


TORCH_IMPORTERS = {"capsule": lambda t: mx.nd.from_dlpack(tdl.to_dlpack(t)), "object": mx.nd.from_dlpack}


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
@pytest.mark.parametrize("importer", sorted(TORCH_IMPORTERS))
def test_torch_source_released_with_last_view(importer, order):
    """PyTorch keeps a tensor's Python object alive while C++ holds the tensor (as its
    DLPack export does), so a weak reference to it dies exactly when mxgo runs torch's
    deleter."""
    ref = np.arange(12.0).reshape(3, 4)
    t = torch.tensor(ref)  # not a view: torch 1.13 does not preserve views' Python objects
    source = weakref.ref(t)
    x = TORCH_IMPORTERS[importer](t)
    arrays = {name: make(x) for name, make in VIEWS.items()}
    del x, t
    for name in order:
        gc.collect()
        churn()
        assert source() is not None
        _check_views(arrays, ref)  # the views outlive the tensor and each other
        del arrays[name]
    gc.collect()
    assert source() is None


# ---- mxgo's live counters return to the baseline -------------------------------------------

def _mx():
    return MX.make("float32", OFFSET)


def _go(view):
    """view with its Go side made: a view of an import made in C is made in C too (view.c)
    until a use needs Go, and these scenarios are about the Go side's lifetimes."""
    assert view.handle
    return view


#: name -> function returning the objects that keep the scenario alive (deleted in order)
SCENARIOS = {
    "capsule_unconsumed": lambda: [x := _mx(), x.to_dlpack_for_read()],
    "capsule_for_write_unconsumed": lambda: [x := _mx(), x.to_dlpack_for_write()],
    "capsule_versioned_unconsumed": lambda: [x := _mx(), x.to_dlpack_for_read(max_version=(1, 0))],
    "dunder_capsule_unconsumed": lambda: [x := _mx(), x.__dlpack__(max_version=(1, 0))],
    "torch_for_read": lambda: [x := _mx(), tdl.from_dlpack(x.to_dlpack_for_read())],
    "torch_for_write": lambda: [x := _mx(), tdl.from_dlpack(x.to_dlpack_for_write())],
    "torch_object": lambda: [x := _mx(), torch.from_dlpack(x)],
    "numpy_object": lambda: [x := _mx(), np.from_dlpack(x)],
    "copy_export": lambda: [x := _mx(), mx.nd.from_dlpack(x.__dlpack__(max_version=(1, 0), copy=True))],
    "torch_import": lambda: [t := TORCH.make("float32", OFFSET), x := mx.nd.from_dlpack(t), _go(x[1:])],
    "numpy_import": lambda: [a := NUMPY.make("float32", OFFSET), x := mx.nd.from_dlpack(a), _go(x[1:])],
    "from_numpy": lambda: [a := np.ones((3, 4)), x := mx.nd.from_numpy(a), _go(x.reshape((12,)))],
    "mx_torch_mx": lambda: [x := _mx(), t := torch.from_dlpack(x), mx.nd.from_dlpack(t)],
    "views": lambda: [x := _mx(), x[1:], x[:, 1], x[0, None]],
}
if NUMPY_EXPORTS_READ_ONLY:  # older NumPy refuses to export the read-only arrays it imports
    SCENARIOS["mx_numpy_mx"] = lambda: [x := _mx(), a := np.from_dlpack(x), mx.nd.from_dlpack(a)]


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_live_counters_return_to_baseline(name, reverse):
    gc.collect()
    baseline = live_counts()
    objs = SCENARIOS[name]()
    alive = live_counts()
    assert all(n >= b for n, b in zip(alive, baseline)) and alive != baseline
    for _ in range(len(objs)):
        objs.pop(-1 if reverse else 0)
        gc.collect()
        now = live_counts()
        assert all(n >= b for n, b in zip(now, baseline)), (now, baseline)  # never freed twice
    assert live_counts() == baseline


# ---- a producer that counts: its deleter runs exactly once ---------------------------------

@pytest.mark.parametrize("order", ORDERS, ids="-".join)
@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
def test_deleter_runs_once_after_the_last_view(versioned, order):
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(12.0).reshape(3, 4), versioned=versioned)
    base = mx.nd.from_dlpack(capsule)
    arrays = {name: make(base) for name, make in VIEWS.items()}
    del base, capsule
    for name in order:
        assert producer.deleter_calls(tag) == 0 and producer.buffer_alive(tag)
        del arrays[name]
        gc.collect()
    assert producer.deleter_calls(tag) == 1
    assert not producer.buffer_alive(tag)  # the producer really let its memory go
    assert producer.unknown_calls == 0


#: name -> how mxgo hands an imported array on to someone who keeps it
REEXPORTS = {
    "torch_object": torch.from_dlpack,
    "torch_capsule": lambda x: tdl.from_dlpack(x.to_dlpack_for_read()),
    "numpy_object": np.from_dlpack,
    "mx_capsule_unconsumed": lambda x: x.to_dlpack_for_write(),
    "mx_capsule_consumed": lambda x: mx.nd.from_dlpack(x.to_dlpack_for_write()),
}


@pytest.mark.parametrize("mx_first", [True, False], ids=["mx_first", "consumer_first"])
@pytest.mark.parametrize("name", sorted(REEXPORTS))
def test_deleter_runs_once_after_reexport(name, mx_first):
    """A foreign tensor imported by mxgo and exported again stays alive while either side
    holds it, and its deleter runs once after both are gone."""
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(6.0))
    x = mx.nd.from_dlpack(capsule)
    objs = [x, REEXPORTS[name](x)]
    del x, capsule
    objs.pop(0 if mx_first else 1)
    gc.collect()
    churn()
    assert producer.deleter_calls(tag) == 0
    objs.clear()
    gc.collect()
    assert producer.deleter_calls(tag) == 1


def test_deleter_runs_once_for_a_copy():
    """from_dlpack(copy=True) releases the producer's tensor once the copy is made; the
    copy lives on."""
    producer = CountingProducer()
    capsule, tag = producer.capsule(np.arange(6.0))
    y = mx.nd.from_dlpack(capsule, copy=True)
    y.wait_to_read()
    gc.collect()
    assert producer.deleter_calls(tag) == 1 and not producer.buffer_alive(tag)
    churn()
    np.testing.assert_array_equal(y.asnumpy(), np.arange(6.0))


def test_many_imports_each_delete_once():
    producer = CountingProducer()
    made = [producer.capsule(np.full(4, i, np.int32), versioned=bool(i % 2)) for i in range(200)]
    arrays = [mx.nd.from_dlpack(capsule) for capsule, _ in made]
    for i, x in enumerate(arrays):
        assert x.asnumpy().tolist() == [i] * 4
    del arrays, made, x
    gc.collect()
    assert producer.total_calls == 200 and producer.unknown_calls == 0


def test_a_stale_handle_never_reaches_the_array_that_reuses_its_slot():
    # Go reuses handle slots; a handle carries its slot's generation, so one kept past
    # its array's death is refused rather than taken for the array now in the slot.
    from mxgo.base import core
    x = mx.nd.ones((2,))
    stale = x.handle
    del x
    y = mx.nd.zeros((3,))
    assert y.handle & 0xFFFFFFFF == stale & 0xFFFFFFFF, "the slot was reused"
    assert y.handle != stale
    with pytest.raises(RuntimeError, match="invalid or freed array handle"):
        core.WaitToRead(stale)
    with pytest.raises(ValueError, match="invalid or freed array handle"):
        mx.nd.NDArray(stale)
    assert y.asnumpy().tolist() == [0, 0, 0]
