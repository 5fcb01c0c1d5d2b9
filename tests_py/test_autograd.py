"""mx.autograd: the API as MXNet 1.x has it (record, pause, modes, mark_variables,
backward, grad, NDArray.attach_grad/grad/backward/detach), per-thread flags, the graph's
release, MXNet's errors, flat memory over many steps, and gradients against central
finite differences. tests_py/mxnet_diff_grad*.py compare gradients with MXNet 1.9.1 itself."""
import gc
import threading

import numpy as np
import pytest
import torch

import mxgo as mx
from autograd_helpers import check_grads
from interop_helpers import mx_address
from mxgo.base import core

ag = mx.autograd


def attached(values, dtype="float32", grad_req="write"):
    x = mx.nd.array(values, dtype=dtype)
    x.attach_grad(grad_req)
    return x


def test_tutorial():
    x = attached([[1, 2], [3, 4]])
    with ag.record():
        y = (2 * x * x).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[4, 8], [12, 16]])


def test_non_scalar_head_uses_ones():
    x = attached([1.0, 2.0, 3.0])
    with ag.record():
        y = x * x
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 4, 6])


def test_flags_and_scopes():
    assert not ag.is_recording() and not ag.is_training()
    with ag.record():
        assert ag.is_recording() and ag.is_training()
        with ag.pause():
            assert not ag.is_recording() and not ag.is_training()
        with ag.predict_mode():
            assert ag.is_recording() and not ag.is_training()
        assert ag.is_recording() and ag.is_training()
    with ag.record(train_mode=False):
        assert ag.is_recording() and not ag.is_training()
    with ag.train_mode():
        assert ag.is_training() and not ag.is_recording()
    assert ag.set_recording(True) is False
    assert ag.set_recording(False) is True
    assert ag.set_training(True) is False
    assert ag.set_training(False) is True
    assert not ag.is_recording() and not ag.is_training()


def test_scope_restores_after_an_exception():
    with pytest.raises(KeyError):
        with ag.record():
            raise KeyError
    assert not ag.is_recording()


def test_pause_inside_record_does_not_record():
    x = attached([1.0, 2.0])
    with ag.record():
        y = x * 3
        with ag.pause():
            z = y * 100  # not recorded: z takes no part
        w = y * 2
    assert not core.InGraph(z._h)
    w.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [6, 6])


def test_grad_req_add_and_null():
    x = attached([1.0, 2.0], grad_req="add")
    for _ in range(3):
        with ag.record():
            y = x * x
        y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [6, 12])
    w = attached([1.0, 2.0], grad_req="null")
    with ag.record():
        y = w * w
    y.backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [0, 0])  # MXNet allocates it and leaves it alone
    with pytest.raises(mx.base.MXNetValueError, match="grad_req"):
        mx.nd.ones((2,)).attach_grad("sometimes")


def _layer_grads(layer, x, share=False):
    """The parameters' gradients of (layer(x) ** 2).sum() by backward (buffers) and by
    autograd.grad (new arrays); with share, the layer is applied twice."""
    with ag.record():
        y = layer(layer(x)) if share else layer(x)
        head = (y * y).sum()
    params = list(layer.collect_params().values())
    buffers = [(p.grad(), mx_address(p.grad())) for p in params]
    with ag.record():
        y = layer(layer(x)) if share else layer(x)
        want = ag.grad((y * y).sum(), [p.data() for p in params])
    head.backward()
    for p, (buf, address), w in zip(params, buffers, want):
        assert p.grad() is buf and mx_address(p.grad()) == address, p.name  # the buffer itself, in place
        np.testing.assert_array_equal(p.grad().asnumpy(), w.asnumpy(), err_msg=p.name)  # same bits


_DIRECT_LAYERS = {  # a layer whose parameters' gradients are written into their buffers, and its input
    "Dense": (lambda: mx.gluon.nn.Dense(3, in_units=4), lambda rng: rng.standard_normal((2, 4))),
    "Conv2D": (lambda: mx.gluon.nn.Conv2D(2, 3, padding=1, in_channels=2), lambda rng: rng.standard_normal((1, 2, 5, 5))),
    "Conv2DTranspose": (lambda: mx.gluon.nn.Conv2DTranspose(2, 3, in_channels=2),
                        lambda rng: rng.standard_normal((1, 2, 4, 4))),
    "Embedding": (lambda: mx.gluon.nn.Embedding(6, 3), lambda rng: np.array([[1, 4, 1], [0, 5, 5]])),
}


@pytest.mark.parametrize("name", sorted(_DIRECT_LAYERS))
def test_parameter_gradients_are_written_into_their_buffers(name):
    """A weight's and a bias's gradient, their buffers' only one, is written into the
    buffer (no copy): same values as autograd.grad's, same buffer; shared, summed."""
    rng = np.random.default_rng(0)
    make, data = _DIRECT_LAYERS[name]
    layer = make()
    layer.initialize(mx.init.Normal(0.5))
    x = mx.nd.array(data(rng).astype(np.float32))
    layer(x)
    for _ in range(2):  # the second backward overwrites the first's gradient
        _layer_grads(layer, x)
    if name == "Dense":
        square = mx.gluon.nn.Dense(4, in_units=4)
        square.initialize(mx.init.Normal(0.5))
        _layer_grads(square, x, share=True)  # two gradients flow in: summed, then stored


def test_gradient_buffers_seen_by_a_peer_and_read_by_the_graph():
    w = attached(np.arange(6.0).reshape(2, 3))
    x = mx.nd.array(np.ones((4, 3)))
    seen = torch.from_dlpack(w.grad)  # a peer's view of the buffer sees each new gradient
    for scale in (1.0, 2.0):
        with ag.record():
            y = mx.nd.FullyConnected(x * scale, w, no_bias=True, num_hidden=2)
        y.backward()
        np.testing.assert_array_equal(seen.numpy(), np.full((2, 3), 4 * scale))
    # a buffer the graph itself reads: the gradient is computed from its old values
    v = attached(np.ones((2, 3)))
    v.grad[:] = 5
    with ag.record():
        y = mx.nd.FullyConnected(v.grad.copy() * 0 + x[:2], v, no_bias=True, num_hidden=2)
    y.backward()
    np.testing.assert_array_equal(v.grad.asnumpy(), np.full((2, 3), 2.0))
    u = attached(np.ones((2, 3)))
    g = u.grad
    g[:] = 3
    with ag.record():
        y = mx.nd.FullyConnected(g, u, no_bias=True, num_hidden=2)  # the buffer is the data
    y.backward()
    np.testing.assert_array_equal(u.grad.asnumpy(), np.full((2, 3), 6.0))


def test_retain_graph():
    x = attached([1.0, 2.0], grad_req="add")
    with ag.record():
        y = mx.nd.exp(x)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        y.backward()


def test_grad_and_second_order():
    x = attached([0.5, 1.0], dtype="float64")
    with ag.record():
        y = mx.nd.sin(x)
        dy = ag.grad(y, [x], create_graph=True)[0]
    np.testing.assert_allclose(dy.asnumpy(), np.cos([0.5, 1.0]))
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), -np.sin([0.5, 1.0]))
    with ag.record():
        y = x * x * x
    g = ag.grad(y, x)  # one variable: one array
    assert isinstance(g, mx.nd.NDArray)
    np.testing.assert_allclose(g.asnumpy(), 3 * np.array([0.5, 1.0]) ** 2)
    np.testing.assert_allclose(x.grad.asnumpy(), -np.sin([0.5, 1.0]), err_msg="grad leaves .grad alone")


def test_third_order_of_elementwise_math():
    x = attached([0.3, -0.7], dtype="float64")
    with ag.record():
        y = mx.nd.exp(x * 2)
        d1 = ag.grad(y, [x], create_graph=True)[0]
        d2 = ag.grad(d1, [x], create_graph=True)[0]
    d2.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 8 * np.exp(2 * np.array([0.3, -0.7])))


def _second_order(f, a, w):
    """d/da of sum(g * g), g = d sum(f(a, w)) / da, by mxgo's create_graph."""
    x = attached(a, dtype="float64")
    with ag.record():
        y = f(x, mx.nd.array(w, dtype="float64"))
        g = ag.grad(y, [x], head_grads=mx.nd.ones_like(y), create_graph=True)[0]
        z = (g * g).sum()
    z.backward()
    return x.grad.asnumpy()


@pytest.mark.parametrize("name", ["fc tanh", "dot sigmoid", "softmax", "log_softmax", "mean of squares"])
def test_second_order_by_finite_differences(name):
    f, numpy_g = {
        "fc tanh": (lambda x, w: mx.nd.tanh(mx.nd.FullyConnected(x, w, no_bias=True, num_hidden=2)),
                    lambda a, w: (1 - np.tanh(a @ w.T) ** 2) @ w),
        "dot sigmoid": (lambda x, w: mx.nd.sigmoid(mx.nd.dot(x, w, transpose_b=True)),
                        lambda a, w: (lambda s: s * (1 - s))(1 / (1 + np.exp(-(a @ w.T)))) @ w),
        "softmax": (lambda x, w: mx.nd.softmax(x) * w[:, :3],
                    lambda a, w: _softmax_vjp(a, w[:, :3])),
        "log_softmax": (lambda x, w: mx.nd.log_softmax(x) * w[:, :3],
                        lambda a, w: w[:, :3] - _softmax(a) * w[:, :3].sum(axis=1, keepdims=True)),
        "mean of squares": (lambda x, w: mx.nd.mean(x * x * w[:, :3]), lambda a, w: 2 * a * w[:, :3] / a.size),
    }[name]
    a = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    w = np.array([[0.3, -0.2, 0.1], [0.5, 0.4, -0.6]])
    want = np.zeros_like(a)
    for i in np.ndindex(*a.shape):
        p, m = a.copy(), a.copy()
        p[i] += 1e-6
        m[i] -= 1e-6
        want[i] = ((numpy_g(p, w) ** 2).sum() - (numpy_g(m, w) ** 2).sum()) / 2e-6
    np.testing.assert_allclose(_second_order(f, a, w), want, rtol=1e-5, atol=1e-7)


def _softmax(a):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _softmax_vjp(a, v):
    s = _softmax(a)
    return s * (v - (s * v).sum(axis=1, keepdims=True))


def test_grad_of_a_constant_gradient_is_in_the_graph():
    x = attached([[0.5, -1.0]], dtype="float64")
    w = mx.nd.array([[0.3, -0.2]], dtype="float64")
    with ag.record():
        y = mx.nd.FullyConnected(x, w, no_bias=True, num_hidden=1)
        g = ag.grad(y, [x], create_graph=True)[0]  # w: no variable reaches it
        z = (g * g).sum()
    z.backward()  # as MXNet: the gradient graph holds it; x's gradient is zero
    np.testing.assert_array_equal(x.grad.asnumpy(), [[0, 0]])


def test_several_heads_and_head_gradients():
    x = attached([1.0, 2.0, 3.0])
    with ag.record():
        y1 = x * x
        y2 = x * 3
    ag.backward([y1, y2], [mx.nd.array([1, 0, 2]), None])
    np.testing.assert_array_equal(x.grad.asnumpy(), [2 + 3, 3, 12 + 3])


def test_mark_variables():
    x, gx = mx.nd.array([1.0, 2.0]), mx.nd.zeros((2,))
    ag.mark_variables([x], [gx])
    with ag.record():
        y = x * 5
    y.backward()
    np.testing.assert_array_equal(gx.asnumpy(), [5, 5])
    np.testing.assert_array_equal(x.grad.asnumpy(), [5, 5])
    with pytest.raises(mx.base.MXNetValueError):
        ag.mark_variables([x], [mx.nd.zeros((3,))])
    with pytest.raises(mx.base.MXNetValueError):
        ag.mark_variables([x, x], [gx])


def test_detach_and_stop_gradient():
    x = attached([1.0, 2.0, 3.0])
    with ag.record():
        y = x * x
        z = y.detach() * x + mx.nd.stop_gradient(y) * x
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 8, 18])
    assert mx.nd.ones((2,)).grad is None


def test_views_record_as_slices():
    x = attached([[1.0, 2.0], [3.0, 4.0]])
    with ag.record():
        y = x[:, 1] * x[1]
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [[0, 3], [2, 4 + 4]])  # y = [x01 * x10, x11 * x11]
    x2 = attached([[1.0, 2.0], [3.0, 4.0]])
    with ag.record():
        y = x2.reshape((4,)) * mx.nd.arange(4) + x2.T.reshape((4,)) * 10
    y.backward()
    np.testing.assert_array_equal(x2.grad.asnumpy(), [[10, 11], [12, 13]])


def test_copies_record_as_casts():
    x = attached([1.0, 2.0])
    with ag.record():
        y = x.astype("float64") * 3
        z = mx.nd.zeros((2,), dtype="float64")
        y.copyto(z)
        w = z * 2
    w.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [6, 6])
    assert x.grad.dtype == np.float32


def test_bad_inputs_raise_mxnet_errors():
    y = mx.nd.ones((3,))
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        y.backward()
    x = attached([1.0, 2.0, 3.0])
    w = attached([1.0, 2.0, 3.0])
    with ag.record():
        y = x * 2
    with pytest.raises(mx.base.MXNetValueError, match="head gradient"):
        y.backward(mx.nd.ones((2,)))
    with pytest.raises(mx.base.MXNetTypeError, match="head gradient"):
        y.backward(mx.nd.ones((3,), dtype="float64"))
    with pytest.raises(mx.MXNetError, match="did not take part"):
        ag.grad(y, [w], retain_graph=True)
    with pytest.raises(mx.MXNetError, match="not in a computational graph"):
        ag.grad(y, [mx.nd.ones((3,))], retain_graph=True)
    with pytest.raises(mx.base.MXNetTypeError):
        ag.backward([y, "y"])
    y.backward()  # the failures left the graph usable
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 2, 2])


def _refused(y, z):
    """Calls that MXNet refuses, on y (no gradient) and z (recorded)."""
    return [lambda: y.backward(), lambda: z.backward(mx.nd.ones((2,))), lambda: ag.grad(z, [mx.nd.ones((3,))]),
            lambda: mx.nd.ones((3,)).backward()]


def test_failed_backwards_leak_nothing():
    """Every refused call leaves no array behind: Python's handles are back where they were
    (what a refused graph keeps in Go is let go when Go collects it)."""
    mx.nd.waitall()
    gc.collect()
    base = core.LiveHandles()
    for _ in range(3):
        x = attached([1.0, 2.0, 3.0])
        with ag.record():
            y = mx.nd.khatri_rao(x.reshape((1, 3)), x.reshape((1, 3)))  # no gradient, as in MXNet
            z = x * 3
        for bad in _refused(y, z):
            with pytest.raises(mx.MXNetError):
                bad()
        z.backward()
        np.testing.assert_array_equal(x.grad.asnumpy(), [3, 3, 3])
        del x, y, z
    mx.nd.waitall()
    gc.collect()
    assert core.LiveHandles() == base


def test_non_differentiable_operator():
    x = attached([3.0, 1.0, 2.0])
    with ag.record():
        y = mx.nd.batch_take(x.reshape((1, 3)), mx.nd.array([1], dtype="int32"))
    with pytest.raises(mx.MXNetError, match="non-differentiable"):
        y.backward()


@pytest.mark.parametrize("write", ["x[:] = 5", "x[0] = 5", "y += 1", "y[:] = x", "v[:] = 1", "x.copyto(x)",
                                   "mx.nd.exp(y, out=y)", "y[1:] = mx.nd.ones((2,))"])
def test_writes_into_the_graph_are_refused(write):
    x = attached([1.0, 2.0, 3.0])
    with ag.record():
        y = x * 2
        v = x[1:]
        before = x.asnumpy(), y.asnumpy()
        with pytest.raises(mx.MXNetError, match="Assigning to NDArrays"):
            exec(write, {"x": x, "y": y, "v": v, "mx": mx})
    np.testing.assert_array_equal(x.asnumpy(), before[0])
    np.testing.assert_array_equal(y.asnumpy(), before[1])
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 2, 2])


def test_writes_outside_record_are_allowed():
    x = attached([1.0, 2.0])
    x[:] = 5
    with ag.record():
        y = x * 2
    y += 1  # not recording: MXNet allows it (the gradient reads what the graph saved)
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 2])


def test_assigning_a_recorded_value_into_a_part_is_refused():
    x = attached([1.0, 2.0])
    buf = mx.nd.zeros((3,))
    with ag.record():  # as MXNet refuses its _slice_assign (test_autograd_layout.py has more)
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            buf[1:] = x * 2


def test_flags_are_per_thread():
    x = attached([1.0, 2.0])
    seen = {}
    started, release = threading.Event(), threading.Event()

    def other():
        seen["recording"] = ag.is_recording()
        seen["y"] = x * 3  # this thread does not record
        started.set()
        release.wait(5)

    with ag.record():
        t = threading.Thread(target=other)
        t.start()
        assert started.wait(5)
        z = x * 2
    release.set()
    t.join()
    assert seen["recording"] is False
    assert not core.InGraph(seen["y"]._h)
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 2])


def _step(w, b, data, label):
    with ag.record():
        out = mx.nd.tanh((data.expand_dims(2) * w).sum(axis=1) + b)  # dot, from broadcasting
        loss = ((out - label) ** 2).mean()
    loss.backward()
    w -= 0.01 * w.grad
    b -= 0.01 * b.grad


def test_memory_stays_flat_over_ten_thousand_steps():
    rng = np.random.default_rng(0)
    w = attached(rng.normal(size=(4, 3)))
    b = attached(np.zeros(3))
    data, label = mx.nd.array(rng.normal(size=(8, 4))), mx.nd.array(rng.normal(size=(8, 3)))
    for _ in range(100):
        _step(w, b, data, label)
    mx.nd.waitall()
    gc.collect()
    base = core.LiveHandles(), core.LiveStorages()
    for _ in range(10_000):
        _step(w, b, data, label)
    mx.nd.waitall()
    gc.collect()
    assert (core.LiveHandles(), core.LiveStorages()) == base


# ---- gradients against finite differences (float64) ------------------------------------
RNG = np.random.default_rng(1)
A23, B23, R3 = RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)), RNG.normal(size=(3,))
P23 = RNG.uniform(0.5, 2.0, size=(2, 3))
IN23 = RNG.uniform(-0.9, 0.9, size=(2, 3))
T234 = RNG.normal(size=(2, 3, 4))
FD_CASES = {
    "add broadcast": (lambda a, b: a + b, A23, R3),
    "sub broadcast": (lambda a, b: a - b, R3, A23),
    "mul broadcast": (lambda a, b: a * b, A23, R3),
    "div broadcast": (lambda a, b: a / b, A23, P23),
    "power": (lambda a, b: a ** b, P23, A23),
    "rpow scalar": (lambda a: 1.7 ** a, A23),
    "pow scalar": (lambda a: a ** 3, A23),
    "rdiv scalar": (lambda a: 2 / a, P23),
    "rsub scalar": (lambda a: 2 - a, A23),
    "maximum": (lambda a, b: mx.nd.maximum(a, b), A23, B23),
    "minimum scalar": (lambda a: mx.nd.minimum(a, 0.1), A23),
    "hypot-free chain": (lambda a: mx.nd.sqrt(a * a + 1) * mx.nd.sigmoid(a), A23),
    **{fn: (lambda a, fn=fn: getattr(mx.nd, fn)(a), data) for fn, data in [
        ("exp", A23), ("log", P23), ("sqrt", P23), ("sin", A23), ("cos", A23), ("tanh", A23), ("sigmoid", A23),
        ("abs", A23), ("square", A23), ("arccos", IN23), ("arcsin", IN23), ("arctan", A23), ("arccosh", P23 + 1),
        ("arcsinh", A23), ("arctanh", IN23), ("cosh", A23), ("sinh", A23), ("tan", IN23), ("cbrt", P23),
        ("rcbrt", P23), ("rsqrt", P23), ("reciprocal", P23), ("expm1", A23), ("log1p", P23), ("log2", P23),
        ("log10", P23), ("erf", A23), ("erfinv", IN23), ("degrees", A23), ("radians", A23), ("softsign", A23),
        ("relu", A23)]},
    "sum axis": (lambda a: mx.nd.sum(a, axis=1), T234),
    "sum exclude": (lambda a: mx.nd.sum(a, axis=1, exclude=True), T234),
    "mean keepdims": (lambda a: mx.nd.mean(a, axis=(0, 2), keepdims=True), T234),
    "prod": (lambda a: mx.nd.prod(a, axis=0), P23),
    "max": (lambda a: mx.nd.max(a, axis=2), T234),
    "min all": (lambda a: mx.nd.min(a), T234),
    "transpose": (lambda a: mx.nd.transpose(a, axes=(1, 2, 0)) * mx.nd.arange(24, dtype="float64").reshape((3, 4, 2)), T234),
    "concat": (lambda a, b: mx.nd.concat(a, b, dim=1) * mx.nd.arange(12, dtype="float64").reshape((2, 6)), A23, B23),
    "stack": (lambda a, b: mx.nd.stack(a, b, axis=2) * mx.nd.arange(12, dtype="float64").reshape((2, 3, 2)), A23, B23),
    "slice step": (lambda a: mx.nd.slice(a, begin=(None, 3), end=(None, 0), step=(1, -2)), T234),
    "slice_axis": (lambda a: mx.nd.slice_axis(a, axis=2, begin=1, end=3), T234),
    "broadcast_to": (lambda a: mx.nd.broadcast_to(a.reshape((1, 3)), shape=(4, 3)), R3),
    "where": (lambda a, b: mx.nd.where(mx.nd.array([[1, 0, 1], [0, 1, 1]], dtype="float64"), a, b), A23, B23),
    "clip": (lambda a: mx.nd.clip(a, -0.5, 0.5), A23),
    "strided views": (lambda a: a[:, ::2, 1:] * a[1:, ::-2, :3], T234),
    "gemm": (lambda a, b: mx.nd.linalg.gemm2(a, b, transpose_b=True, alpha=0.5), A23, B23),
    "inverse": (lambda a: mx.nd.linalg.inverse(a), np.eye(3) * 2 + A23[:, :, None].sum(axis=0)[:3] * 0.1),
    "det": (lambda a: mx.nd.linalg.det(a), np.eye(3) * 2 + 0.1),
    "trmm": (lambda a, b: mx.nd.linalg.trmm(a, b, transpose=True, alpha=1.5), np.tril(np.eye(3) * 2 + 0.3), A23.T),
    "trsm right": (lambda a, b: mx.nd.linalg.trsm(a, b, rightside=True, lower=False), np.triu(np.eye(3) * 2 + 0.3), A23),
    "reshape view": (lambda a: a.reshape((4, 6)).T, T234),
}


@pytest.mark.parametrize("name", sorted(FD_CASES))
def test_gradient_matches_finite_differences(name):
    f, *inputs = FD_CASES[name]
    check_grads(f, *inputs)


def test_threads_train_independently():
    """Two threads recording and differentiating at once get what each gets alone."""
    def train(seed, out):
        rng = np.random.default_rng(seed)
        w, b = attached(rng.normal(size=(4, 3))), attached(np.zeros(3))
        data, label = mx.nd.array(rng.normal(size=(8, 4))), mx.nd.array(rng.normal(size=(8, 3)))
        for _ in range(200):
            _step(w, b, data, label)
        out[seed] = w.asnumpy()

    alone = {}
    for seed in (1, 2):
        train(seed, alone)
    together = {}
    threads = [threading.Thread(target=train, args=(seed, together)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for seed in (1, 2):
        np.testing.assert_array_equal(together[seed], alone[seed])
