"""Views made in C (pkg/pybridge/view.c): x[key] for keys of ints and slices and
x.reshape(shape) of a C-contiguous array, while nothing is recorded, make their view
without Go. Each must be exactly the view Go makes of the same key (shape, strides,
memory, writability, values, for mx.nd's rules and mx.np's), get its Go side by the same
call on first use (which checks that the two agree), share memory both ways, keep its base
alive, wait for its base's pending writes, and leave every other key to Go as before."""
import gc

import numpy as np
import pytest
import torch

import mxgo as mx
from interop_helpers import live_counts

NAMESPACES = {"nd": mx.nd, "np": mx.np}


@pytest.fixture
def no_gc():
    """The live counters move only by what the test does (nothing here makes cycles)."""
    gc.disable()
    yield
    gc.enable()


def _address(x):
    return np.from_dlpack(x).__array_interface__["data"][0]


def _bound(rng, d):
    """A slice bound for an axis of length d: None, or any int within twice the length."""
    return None if rng.random() < 0.3 else int(rng.integers(-2 * d - 2, 2 * d + 3))


def _random_key(rng, shape):
    """A tuple of ints (in range, negative too) and slices (any bounds, steps of either
    sign), for up to all of shape's axes."""
    key = []
    for d in shape[:rng.integers(0, len(shape) + 1)]:
        if rng.random() < 0.35:
            key.append(int(rng.integers(-d, d)))
        else:
            step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3, 7]))
            key.append(slice(_bound(rng, d), _bound(rng, d), step))
    return tuple(key)


def _same_view(got, want, what):
    assert type(got) is type(want), what
    assert (got.shape, got.strides, got.dtype) == (want.shape, want.strides, want.dtype), what
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy(), err_msg=str(what))


@pytest.mark.parametrize("ns", NAMESPACES)
def test_a_view_made_in_c_is_the_view_go_makes(ns, no_gc):
    rng = np.random.default_rng(7)
    made_in_c = 0
    for shape in [(7,), (1,), (3, 4), (4, 1, 5), (2, 3, 4, 5)]:
        a = rng.standard_normal(shape).astype(np.float32)
        x = NAMESPACES[ns].array(a)
        x.handle  # noqa: B018 (a Go array, as most bases are)
        keys = [_random_key(rng, shape) for _ in range(150)] + [0, -1, slice(None), (), (0,) * len(shape)]
        for key in keys:
            want = x._getitem(key)  # Python's path: Go's view
            mx.nd.waitall()
            live = live_counts()
            got = x[key]
            if live_counts() == live:  # the key was one C takes (an empty result is not)
                made_in_c += 1
                _same_view(got, want, key)
                assert got.handle and _address(got) == _address(want), key  # Go's side, the same memory
            else:
                _same_view(got, want, key)
            del got, want
    assert made_in_c > 200  # the rest: empty results and mx.nd's 0-d ones, which Go makes


@pytest.mark.parametrize("ns", NAMESPACES)
def test_a_reshape_made_in_c_is_the_one_go_makes(ns, no_gc):
    a = np.arange(120, dtype=np.float64)
    for shape in [(120,), (2, 60), (2, 3, 4, 5), (5, 24)]:
        x = NAMESPACES[ns].array(a.reshape(shape))
        for spec in [(-1,), (4, 30), (4, -1), (-1, 2, 3), (1, 120), (2, 1, 3, 1, 20), (120, 1)]:
            want = x._reshape(*spec)
            mx.nd.waitall()
            live = live_counts()
            got = x.reshape(*spec)
            assert live_counts() == live, spec  # made in C
            _same_view(got, want, spec)
            assert _address(got) == _address(want)
            del got, want
    # a view that is not C-contiguous, another size, and mx.nd's codes go to Go
    x = mx.nd.array(a.reshape(10, 12))
    np.testing.assert_array_equal(x[:, ::2].reshape(-1).asnumpy(), a.reshape(10, 12)[:, ::2].ravel())
    with pytest.raises(mx.base.MXNetError):
        x.reshape(7, -1)
    assert x.reshape(0, -1).shape == (10, 12)


@pytest.mark.parametrize("ns", NAMESPACES)
def test_keys_c_leaves_to_go_behave_as_before(ns):
    x = NAMESPACES[ns].array(np.arange(12, dtype=np.float32).reshape(3, 4))
    for key in [(None, 1), (Ellipsis, 1), (1, None), (slice(2, 2),), (np.int64(1),), ([0, 2],)]:
        _same_view(x[key], x._getitem(key), key)
    for key in [5, -4, (0, 4), (1, 1, 1), (slice(None, None, 0),)]:
        with pytest.raises(Exception) as c_path:
            x[key]
        with pytest.raises(Exception) as go_path:
            x._getitem(key)
        assert (type(c_path.value), str(c_path.value)) == (type(go_path.value), str(go_path.value)), key


def test_mx_nd_keeps_its_rules_for_ints():
    v = mx.nd.array([1.0, 2.0, 3.0])
    assert v[1].shape == (1,) and v[-1].asnumpy().tolist() == [3.0]
    assert mx.np.array([1.0, 2.0, 3.0])[1].shape == ()
    m = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert m[1, 2].shape == (1,) and m[1, 2].asnumpy().tolist() == [5.0]  # Go's 0-d view reshaped


def test_views_share_memory_both_ways():
    x = mx.nd.array(np.zeros((4, 5), np.float32))
    v = x[1:3, ::2]
    v[:] = 7
    assert x.asnumpy()[1:3, ::2].tolist() == [[7.0] * 3] * 2
    x[:] = 1
    assert v.asnumpy().tolist() == [[1.0] * 3] * 2
    r = x.reshape(-1)
    t = torch.from_dlpack(r)
    t[0] = 5
    assert x.asnumpy()[0, 0] == 5
    w = x[2]  # C's view, written by a C operation
    mx.nd.add(w, w, out=w)
    assert x.asnumpy()[2].tolist() == [2.0] * 5


def test_a_view_keeps_its_base_alive(no_gc):
    gc.collect()
    mx.nd.waitall()
    live = live_counts()
    x = mx.nd.array(np.arange(10, dtype=np.float32))
    v, r = x[2:5], x.reshape(2, 5)
    del x
    gc.collect()
    assert v.asnumpy().tolist() == [2.0, 3.0, 4.0]
    assert r.handle and r.asnumpy()[1].tolist() == [5.0, 6.0, 7.0, 8.0, 9.0]
    del v, r
    mx.nd.waitall()
    assert live_counts() == live


@pytest.mark.parametrize("make", ["from_numpy", "tiny.c"])
def test_a_view_of_an_array_made_in_c(make, no_gc):
    a = np.arange(6, dtype=np.float32)
    # no Go side yet: an import, or a result tiny.c computed
    x = mx.nd.from_numpy(a.copy(), zero_copy=True) if make == "from_numpy" else mx.nd.array(a) + 0
    mx.nd.waitall()
    live = live_counts()
    v = x[1:4]
    assert live_counts() == live
    x[2:3] = 50  # through Go: the base's Go side, which the view's memory is part of
    assert v.asnumpy().tolist() == [1.0, 50.0, 3.0]
    np.testing.assert_allclose(mx.nd.exp(v).asnumpy(), np.exp(np.float32([1, 50, 3])), rtol=1e-6)
    assert x[::-1][0].asnumpy().tolist() == [5.0]  # a view of a view: the first gets its Go side


def test_a_long_chain_of_views():
    x = mx.np.array(np.arange(20000, dtype=np.float32))
    v = x
    for _ in range(10000):
        v = v[1:]
    assert v.shape == (10000,) and float(v[0]) == 10000.0
    assert v.handle


def test_a_pending_write_to_the_base_is_seen():
    big = mx.nd.ones((2_000_000, 10))
    x = mx.nd.zeros(10)
    v, r = x[2:5], x.reshape(2, 5)
    mx.nd.waitall()
    mx.nd.sum(big, axis=0, out=x)  # runs on the engine while the next lines are called
    np.testing.assert_array_equal(v.asnumpy(), np.full(3, 2_000_000, np.float32))
    mx.nd.sum(big * 2, axis=0, out=x)
    np.testing.assert_array_equal((r + 1).asnumpy(), np.full((2, 5), 4_000_001, np.float32))
    mx.nd.sum(big * 3, axis=0, out=x)
    assert torch.from_dlpack(x[0:2]).tolist() == [6_000_000.0, 6_000_000.0]


def test_a_read_only_base_gives_read_only_views():
    a = np.arange(10.0)
    a.flags.writeable = False
    x = mx.nd.from_dlpack(a.__dlpack__(max_version=(1, 0)))
    for v in (x[2:4], x.reshape(2, 5)):
        with pytest.raises(mx.base.MXNetValueError, match="read-only"):
            v[:] = 1
    assert a[2] == 2.0


def test_recording_makes_views_in_go():
    x = mx.nd.array([1.0, 2.0, 3.0])
    x.attach_grad()
    with mx.autograd.record():
        y = (x[1:] * 2).sum() + (x.reshape(3, 1) * 3).sum()
    y.backward()
    assert x.grad.asnumpy().tolist() == [3.0, 5.0, 5.0]


@pytest.mark.parametrize("make", ["index", "reshape"])
def test_a_view_made_before_recording_is_not_recorded_when_used(make):
    """Its Go side is made under record() here, as Go's view made before record() would be
    used there: neither connects the view to the base's gradient."""
    outcomes = []
    for path in ("c", "go"):
        x = mx.nd.array([1.0, 2.0, 3.0])
        x.attach_grad()
        if make == "index":
            v = x[1:] if path == "c" else x._getitem(slice(1, None))
        else:
            v = x.reshape(3, 1) if path == "c" else x._reshape(3, 1)
        with mx.autograd.record():
            z = (v * 2).sum() + (x * 1).sum()
        z.backward()
        outcomes.append(x.grad.asnumpy().tolist())
    assert outcomes[0] == outcomes[1] == [1.0, 1.0, 1.0]
