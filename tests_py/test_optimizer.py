"""mx.optimizer, mx.lr_scheduler and the update operators without MXNet: bad inputs raise
MXNet's error types and leave every array as it was, states are updated in place (and
ordered by the engine), the Updater's states survive a pickle round trip, and the large,
strided and float16 paths give the formula's numbers. test_mxnet_optimizer.py compares the
numbers with MXNet itself."""
import pickle
import warnings

import numpy as np
import pytest

import mxgo as mx


def _arrays(*shapes, dtype="float32", seed=0):
    rng = np.random.default_rng(seed)
    return [mx.nd.array(rng.standard_normal(s), dtype=dtype) for s in shapes]


def test_unknown_optimizer_is_a_value_error():
    with pytest.raises(ValueError, match="Cannot find optimizer nosuch"):
        mx.optimizer.create("nosuch")
    assert type(mx.optimizer.create("SgD", learning_rate=0.5)) is mx.optimizer.SGD  # any case, as MXNet


def test_register_warns_when_it_replaces_and_create_finds_the_new_class():
    class Custom(mx.optimizer.Optimizer):
        pass
    try:
        assert mx.optimizer.register(Custom) is Custom
        with pytest.warns(UserWarning, match="overriding"):
            mx.optimizer.Optimizer.register(type("Custom", (mx.optimizer.Optimizer,), {}))
        assert type(mx.optimizer.create("custom")).__name__ == "Custom"
    finally:
        del mx.optimizer.Optimizer.opt_registry["custom"]


@pytest.mark.parametrize("bad, exc", [
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g[:2], m, lr=0.1, out=w), ValueError),  # grad's shape
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g, m[:, :3], lr=0.1, out=w), ValueError),  # state's shape
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g, m.astype("float64"), lr=0.1, out=w), TypeError),
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g, w, lr=0.1, out=w), ValueError),  # the state is the weight
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g, m, lr=0.1, out=m), ValueError),  # out is the state
    (lambda w, g, m: mx.nd.sgd_mom_update(w, g, m, out=w), TypeError),  # lr is required
    (lambda w, g, m: mx.nd.adam_update(w, g, m, m, lr=0.1, out=w), ValueError),  # one array as two states
    (lambda w, g, m: mx.nd.mp_sgd_update(w, g, m.astype("float16"), lr=0.1, out=w), TypeError),  # weight32's dtype
    (lambda w, g, m: mx.nd.sgd_update(w.astype("int32"), g.astype("int32"), lr=0.1), TypeError),
    (lambda w, g, m: mx.nd.multi_sgd_update(w, g, w, lrs=(0.1,), wds=(0.0,), num_weights=1, out=[w]), ValueError),
    (lambda w, g, m: mx.nd.multi_sgd_mom_update(w, g, m, lrs=(0.1, 0.2), wds=(0.0,), num_weights=1, out=[w]),
     ValueError),
    (lambda w, g, m: mx.nd.multi_sum_sq(w, g, num_arrays=3), ValueError),
    (lambda w, g, m: mx.nd.lamb_update_phase2(w, g, m, m, lr=0.1, out=w), ValueError),  # r1, r2 not scalars
    (lambda w, g, m: mx.nd.ftml_update(w, g, m, m.copy(), m.copy(), lr=0.1, out=w), TypeError),  # t is required
])
def test_bad_update_calls_raise_and_leave_arrays_intact(bad, exc):
    w, g, m = _arrays((3, 4), (3, 4), (3, 4))
    before = [a.asnumpy() for a in (w, g, m)]
    with pytest.raises(exc) as info:
        bad(w, g, m)
    assert isinstance(info.value, mx.base.MXNetError) or exc is TypeError and "required" in str(info.value)
    for a, b in zip((w, g, m), before):
        np.testing.assert_array_equal(a.asnumpy(), b)


def test_read_only_state_is_refused_before_anything_runs():
    w, g = _arrays((4,), (4,))
    frozen = np.zeros(4, np.float32)
    frozen.flags.writeable = False
    mom = mx.nd.from_numpy(frozen)
    with pytest.raises(ValueError, match="read-only|writable"):
        mx.nd.sgd_mom_update(w, g, mom, lr=0.1, momentum=0.9, out=w)
    np.testing.assert_array_equal(frozen, 0)


def test_states_are_updated_in_place_and_ordered_by_the_engine():
    w, g = _arrays((5,), (5,))
    w0, g0 = w.asnumpy(), g.asnumpy()
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01)
    updater = mx.optimizer.get_updater(opt)
    updater(0, g, w)
    mom = updater.states[0]
    updater(0, g, w)
    assert updater.states[0] is mom  # the same array, written by the operator
    m1 = -0.1 * (0.01 * w0 + g0)
    w1 = w0 + m1
    m2 = 0.9 * m1 - 0.1 * (0.01 * w1 + g0)
    np.testing.assert_allclose(mom.asnumpy(), m2, rtol=1e-5)
    np.testing.assert_allclose(w.asnumpy(), w1 + m2, rtol=1e-5)
    # a write then a read of the state, both pending: the read sees the update
    mean, var = mx.nd.zeros((5,)), mx.nd.zeros((5,))
    mx.nd.adam_update(w, g, mean, var, lr=0.01, out=w)
    np.testing.assert_allclose((mean * 1).asnumpy(), 0.1 * g0, rtol=1e-6)


def test_updater_states_round_trip_through_pickle():
    weights, grads = _arrays((3, 2), (4,)), _arrays((3, 2), (4,), seed=1)
    opt = mx.optimizer.Adam(learning_rate=0.01, wd=0.001)
    updater = mx.optimizer.get_updater(opt)
    updater([0, 1], grads, weights)
    saved = updater.get_states(dump_optimizer=True)
    restored = mx.optimizer.get_updater(mx.optimizer.SGD())
    restored.set_states(saved)
    assert type(restored.optimizer) is mx.optimizer.Adam and restored.optimizer.num_update == 1
    assert not any(restored.states_synced.values())
    copies = [w.copy() for w in weights]
    updater([0, 1], grads, weights)
    restored([0, 1], grads, copies)  # states moved to the weights' device on first use
    for a, b in zip(weights, copies):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    for i in (0, 1):
        for a, b in zip(updater.states[i], restored.states[i]):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    plain = mx.optimizer.get_updater(mx.optimizer.Adam())
    plain.set_states(updater.get_states())
    assert type(plain.optimizer) is mx.optimizer.Adam and sorted(plain.states) == [0, 1]
    assert pickle.loads(pickle.dumps(opt)).param_dict == {}


def test_learning_rate_multipliers_and_scheduler_rules():
    opt = mx.optimizer.SGD(learning_rate=0.5, wd=0.1, param_idx2name={0: "fc_weight", 1: "fc_bias"})
    opt.set_lr_mult({"fc_weight": 2.0})
    assert opt._get_lrs([0, 1, 2]) == [1.0, 0.5, 0.5]
    assert opt._get_wds([0, 1, 2]) == [0.1, 0.0, 0.1]  # a bias decays only when asked, as in MXNet
    opt.set_learning_rate(0.25)
    assert opt.learning_rate == 0.25
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    with pytest.warns(UserWarning):
        opt = mx.optimizer.SGD(learning_rate=0.1, lr_scheduler=sched)
    assert sched.base_lr == 0.1
    with pytest.raises(UserWarning):
        opt.set_learning_rate(0.3)


@pytest.mark.parametrize("make, exc", [
    (lambda: mx.lr_scheduler.FactorScheduler(step=0), ValueError),
    (lambda: mx.lr_scheduler.FactorScheduler(step=2, factor=1.5), ValueError),
    (lambda: mx.lr_scheduler.MultiFactorScheduler(step=[5, 3]), ValueError),
    (lambda: mx.lr_scheduler.MultiFactorScheduler(step=5), TypeError),
    (lambda: mx.lr_scheduler.PolyScheduler(max_update=0), ValueError),
    (lambda: mx.lr_scheduler.CosineScheduler(max_update=2.5), TypeError),
    (lambda: mx.lr_scheduler.LRScheduler(base_lr=0.1, warmup_begin_lr=0.2), ValueError),
    (lambda: mx.lr_scheduler.LRScheduler(warmup_mode="cubic"), ValueError),
    (lambda: mx.lr_scheduler.LRScheduler(warmup_steps=-1), ValueError),
])
def test_bad_scheduler_arguments(make, exc):
    with pytest.raises(exc):
        make()


def test_warmup_then_schedule():
    sched = mx.lr_scheduler.PolyScheduler(max_update=12, base_lr=1.0, pwr=1, warmup_steps=2, warmup_begin_lr=0.5)
    assert [sched(n) for n in (0, 1, 2, 7, 12, 20)] == pytest.approx([0.5, 0.75, 1.0, 0.5, 0.0, 0.0])


def test_large_strided_and_float16_updates_follow_the_formula():
    n = 3 << 20  # above ndarray.SerialBelow: the pass is cut across cores
    w, g, m = _arrays((n,), (n,), (n,))
    ref = [a.asnumpy() for a in (w, g, m)]
    mx.nd.sgd_mom_update(w, g, m, lr=0.1, momentum=0.9, wd=0.01, out=w)
    mom = 0.9 * ref[2] - 0.1 * 0.01 * ref[0] - 0.1 * ref[1]
    np.testing.assert_allclose(m.asnumpy(), mom, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), ref[0] + mom, rtol=1e-5, atol=1e-6)
    base = _arrays((4, 6), dtype="float16")[0]
    view, grad = base[:, ::2], _arrays((4, 3), dtype="float16", seed=2)[0]
    want = base.asnumpy().astype(np.float32)
    want[:, ::2] = want[:, ::2] * (1 - 0.1 * 0.1) - 0.1 * grad.asnumpy().astype(np.float32)
    mx.nd.sgd_update(view, grad, lr=0.1, wd=0.1, out=view)
    np.testing.assert_allclose(base.asnumpy(), want.astype(np.float16), rtol=1e-3)


def test_multi_precision_keeps_a_float32_master_copy():
    w16, g16 = _arrays((6,), (6,), dtype="float16")
    opt = mx.optimizer.SGD(learning_rate=0.01, momentum=0.9, multi_precision=True)
    updater = mx.optimizer.get_updater(opt)
    updater([0], [g16], [w16])
    mom, w32 = updater.states[0]
    assert (mom.dtype, w32.dtype) == (np.float32, np.float32)
    np.testing.assert_array_equal(w16.asnumpy(), w32.asnumpy().astype(np.float16))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mx.optimizer.SGD(momentum=0.9).create_state_multi_precision(0, w16)
    assert any("multi_precision=True" in str(c.message) for c in caught)


def test_sgld_adds_noise_of_variance_lr():
    w = mx.nd.zeros((20000,))
    mx.optimizer.SGLD(learning_rate=0.04).update(0, w, mx.nd.zeros((20000,)), None)
    assert abs(float(w.asnumpy().std()) - 0.2) < 0.01


def test_all_finite():
    assert mx.nd.all_finite(mx.nd.array([1.0, 2.0])).asnumpy().tolist() == [1.0]
    assert mx.nd.multi_all_finite(mx.nd.array([1.0]), mx.nd.array([np.nan]), num_arrays=2).asnumpy().tolist() == [0.0]


def test_reset_arrays_zeroes_in_place_and_returns_nothing():
    a, b = _arrays((2, 3), (4,), dtype="float16")
    assert mx.nd.reset_arrays(a, b, num_arrays=2) == []
    assert a.asnumpy().tolist() == [[0.0] * 3] * 2 and b.asnumpy().tolist() == [0.0] * 4
    with pytest.raises(ValueError, match="num_arrays"):
        mx.nd.reset_arrays(a, b, num_arrays=1)
