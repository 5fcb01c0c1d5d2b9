"""Property tests (hypothesis): round trips with NumPy and PyTorch over random dtypes,
shapes and basic-index views (steps, negative steps, new axes, ellipses, 0-d and empty
results), in both directions. Each checks values, dtype, shape, strides, that memory is
shared (same address, and a write on one side is seen on the other) and that mxgo's live
counts return to where they were. Derandomized, so that CI runs the same examples."""
import gc

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import mxgo as mx
from api_helpers import mxnet_shaped
from interop_helpers import NUMPY_DLPACK_DTYPES, TORCH_DLPACK_DTYPES, live_counts, marker, mx_address, reference

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
pytestmark = pytest.mark.usefixtures("frozen_heap")


NP_DTYPES = [d for d in NUMPY_DLPACK_DTYPES if d != "bfloat16"]
TORCH_DTYPES = [d for d in TORCH_DLPACK_DTYPES if d != "bfloat16"]


def _has_negative_step(key):
    return any(isinstance(k, slice) and (k.step or 1) < 0 for k in (key if isinstance(key, tuple) else (key,)))


@st.composite
def views(draw, dtypes, negative_steps=True):
    """(dtype, base shape, basic index) with the index valid for the shape. PyTorch has no
    negative strides (2.15 refuses them, 1.13 aborts), so its cases have positive steps."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    keys = hnp.basic_indices(shape, min_dims=0, allow_newaxis=True, allow_ellipsis=True)
    if not negative_steps:
        keys = keys.filter(lambda k: not _has_negative_step(k))
    return dtype, shape, draw(keys)


def _element_strides(a):
    """Strides in elements, of the axes longer than 1 (the others' strides mean nothing)."""
    return tuple(s // a.itemsize for s, n in zip(a.strides, a.shape) if n > 1)


def _check_shared(write, read, dtype, ref_view):
    """A write through ``write`` (a framework's view) is seen through ``read`` (NumPy)."""
    if ref_view.size == 0:
        return
    idx = (0,) * ref_view.ndim
    new = marker(dtype, ref_view[idx])
    write(idx, new)
    assert read()[idx] == np.array(new, dtype=ref_view.dtype)


@SETTINGS
@given(views(NP_DTYPES))
def test_numpy_view_into_mx_and_back(case):
    dtype, shape, key = case
    gc.collect()
    base = live_counts()
    a = reference(dtype, shape)
    view = a[key]
    if not isinstance(view, np.ndarray):  # a scalar, when every axis is indexed
        view = a[key + (Ellipsis,)] if isinstance(key, tuple) else a[(key, Ellipsis)]
    x = mx.nd.from_dlpack(view)
    assert x.dtype == view.dtype and x.shape == view.shape
    back = np.from_dlpack(x)
    np.testing.assert_array_equal(back, view)
    if view.size:  # an empty array's strides mean nothing either
        assert _element_strides(back) == _element_strides(view)
    if view.size:
        assert mx_address(x) == view.__array_interface__["data"][0]

        def write(idx, v):
            x[idx] = v  # noqa: F821 (deleted below to check lifetimes)
            x.wait_to_read()  # noqa: F821 (deleted below to check lifetimes)
        _check_shared(write, lambda: view, dtype, view)
    del x, back
    gc.collect()
    assert live_counts() == base


@SETTINGS
@given(views(TORCH_DTYPES, negative_steps=False), st.booleans())
def test_mx_view_into_torch_and_back(case, use_capsule):
    dtype, shape, key = case
    gc.collect()
    base = live_counts()
    ref = reference(dtype, shape)
    x = mx.nd.array(ref, dtype=dtype)
    v = x[key]
    ref_view = mxnet_shaped(ref[key])  # x[1, 2] has shape (1,), as in MXNet
    x.wait_to_read()
    t = tdl.from_dlpack(v.to_dlpack_for_write()) if use_capsule else torch.from_dlpack(v)
    assert tuple(t.shape) == ref_view.shape
    np.testing.assert_array_equal(t.numpy(), ref_view)
    if ref_view.size:
        assert [s for s, n in zip(t.stride(), t.shape) if n > 1] == [s for s, n in zip(v.strides, v.shape) if n > 1]
    if ref_view.size:
        assert t.data_ptr() == mx_address(v)

        def write(idx, val):
            t[idx] = val  # noqa: F821 (deleted below to check lifetimes)
        _check_shared(write, lambda: v.asnumpy(), dtype, ref_view)  # noqa: F821 (deleted below to check lifetimes)
        # and back into mxgo: the same memory again
        again = mx.nd.from_dlpack(t)
        assert mx_address(again) == mx_address(v)
        np.testing.assert_array_equal(again.asnumpy(), v.asnumpy())
        del again
    del x, v, t
    gc.collect()
    assert live_counts() == base


@SETTINGS
@given(views(TORCH_DTYPES, negative_steps=False))
def test_torch_view_into_mx(case):
    dtype, shape, key = case
    gc.collect()
    base = live_counts()
    ref = reference(dtype, shape)
    t = torch.from_numpy(ref.copy())
    tv = t[key] if t.ndim else t  # torch indexes 0-d tensors differently; keep them whole
    ref_view = tv.numpy().copy()
    x = mx.nd.from_dlpack(tdl.to_dlpack(tv))
    assert x.shape == tuple(tv.shape)
    np.testing.assert_array_equal(x.asnumpy(), ref_view)
    if ref_view.size:
        assert mx_address(x) == tv.data_ptr()

        def write(idx, val):
            x[idx] = val  # noqa: F821 (deleted below to check lifetimes)
            x.wait_to_read()  # noqa: F821 (deleted below to check lifetimes)
        _check_shared(write, lambda: tv.numpy(), dtype, ref_view)
    del x
    gc.collect()
    assert live_counts() == base


@SETTINGS
@given(st.sampled_from(NP_DTYPES), hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6),
       st.sampled_from(["read", "write", "versioned"]))
def test_own_capsules_come_back_as_the_same_memory(dtype, shape, how):
    x = mx.nd.array(reference(dtype, shape), dtype=dtype)
    capsule = {"read": x.to_dlpack_for_read, "write": x.to_dlpack_for_write,
               "versioned": lambda: x.__dlpack__(max_version=(1, 0))}[how]()
    y = mx.nd.from_dlpack(capsule)
    assert y.shape == x.shape and y.dtype == x.dtype
    assert mx_address(y) == mx_address(x)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
