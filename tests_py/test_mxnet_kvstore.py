"""mx.kv's local store against MXNet 1.9.1's (mxnet.kv.create('local')) in the same process.

Collected only in the MXNet environment (.venv-mxnet; see environments.py). The same
sequence of init, push (lists of values summed), pull (into lists), pushpull, broadcast and
optimizer updates runs in both; every pulled value must agree exactly (the updates within
float32 rounding), and bad calls raise the same exception types.
"""
import mxnet
import numpy as np
import pytest

import mxgo as mx


def _arr(lib, x, dtype):
    return lib.nd.array(np.asarray(x), dtype=dtype)


def _script(lib, key, dtype):
    """What one store gives for a fixed sequence of calls, as NumPy arrays."""
    k0, k1 = (key, key + 1) if isinstance(key, int) else (key, key + "b")
    kv = lib.kv.create("local")
    a = np.arange(6).reshape(2, 3)
    kv.init([k0, k1], [_arr(lib, a, dtype), _arr(lib, [1, 2], dtype)])
    seen = [(kv.type, kv.rank, kv.num_workers)]
    outs = [lib.nd.zeros((2, 3), dtype=dtype) for _ in range(2)]
    kv.pull(k0, out=outs)
    seen += [o.asnumpy() for o in outs]
    kv.push(k0, [_arr(lib, a, dtype), _arr(lib, 2 * a, dtype), _arr(lib, 3 * a, dtype)])
    kv.push([k1, k1], [_arr(lib, [5, 6], dtype), _arr(lib, [7, 8], dtype)])  # a repeated key: summed
    small = lib.nd.zeros((2,), dtype=dtype)
    kv.pull([k0, k1], out=[outs, small])
    seen += [o.asnumpy() for o in outs] + [small.asnumpy()]
    value = [_arr(lib, a + 1, dtype), _arr(lib, a, dtype)]
    kv.pushpull(k0, value)  # out=None: into the values themselves
    seen += [v.asnumpy() for v in value]
    kv.pushpull(k1, _arr(lib, [3, 4], dtype), out=small)
    seen.append(small.asnumpy())
    kv.broadcast(k1 * 2 if isinstance(k1, int) else k1 + "c", _arr(lib, [9, 9], dtype), out=[small])
    seen.append(small.asnumpy())
    return seen


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("key", [3, "w"])
def test_local_store_agrees(key, dtype):
    for ours, theirs in zip(_script(mx, key, dtype), _script(mxnet, key, dtype), strict=True):
        if isinstance(ours, tuple):
            assert ours == theirs
        else:
            assert ours.dtype == theirs.dtype
            np.testing.assert_array_equal(ours, theirs)


def _updated(lib, save):
    """A store with an SGD optimizer: each push is a gradient of the stored weight."""
    kv = lib.kv.create("local")
    kv.init(0, lib.nd.array([[1.0, -2.0], [3.0, 0.5]]))
    kv.set_optimizer(lib.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5))
    out = lib.nd.zeros((2, 2))
    seen = []
    for step in range(3):
        kv.push(0, [lib.nd.array([[0.5, 1.0], [-1.0, 2.0]]) * (step + 1), lib.nd.ones((2, 2))])
        kv.pull(0, out=out)
        seen.append(out.asnumpy())
    grad = lib.nd.array([[1.0, 2.0], [3.0, 4.0]])
    kv.pushpull(0, grad, out=out)
    seen += [out.asnumpy(), grad.asnumpy()]  # the gradient is left as it was
    kv.save_optimizer_states(save)
    kv.load_optimizer_states(save)
    kv.pushpull(0, grad, out=out)
    seen.append(out.asnumpy())
    return seen


def test_updates_agree(tmp_path):
    ours, theirs = _updated(mx, str(tmp_path / "a.states")), _updated(mxnet, str(tmp_path / "b.states"))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def _raises(call):
    """The exception type of call(mx) and of call(mxnet) (MXNet's errors are MXNetError)."""
    types = []
    for lib in (mx, mxnet):
        with pytest.raises(Exception) as info:
            call(lib)
        types.append(type(info.value))
    return types


def _store(lib):
    kv = lib.kv.create("local")
    kv.init(3, lib.nd.ones((2,)))
    return kv


@pytest.mark.parametrize("call, expected", [
    (lambda lib: _store(lib).init(3, lib.nd.ones((2,))), "MXNetError"),        # duplicate init
    (lambda lib: _store(lib).pull(9, out=lib.nd.ones((2,))), "MXNetError"),    # not inited
    (lambda lib: _store(lib).init("s", lib.nd.ones((2,))), "MXNetError"),      # mixed key types
    (lambda lib: _store(lib).pull(3), "AssertionError"),                       # no out
    (lambda lib: _store(lib).push([3, 4], [lib.nd.ones((2,))]), "AssertionError"),
    (lambda lib: _store(lib).push(3, [1, 2]), "AssertionError"),               # not NDArrays
    (lambda lib: _store(lib).save_optimizer_states("unused"), "AssertionError"),
    (lambda lib: _store(lib).is_capable("sparse"), "ValueError"),
    (lambda lib: _store(lib).row_sparse_pull(3, out=lib.nd.ones((2,)), row_ids=lib.nd.array([0])), "MXNetError"),
    (lambda lib: lib.kv.create(3), "TypeError"),
])
def test_errors_agree(call, expected):
    assert [t.__name__ for t in _raises(call)] == [expected, expected]


def test_state_kept_after_a_refused_call():
    kv = _store(mx)
    with pytest.raises(mx.MXNetError):
        kv.push(3, mx.nd.ones((3,)))  # wrong shape: MXNet fails later, on its engine
    out = mx.nd.zeros((2,))
    kv.pull(3, out=out)
    np.testing.assert_array_equal(out.asnumpy(), [1, 1])
