"""mx.optimizer, mx.lr_scheduler and the update operators against MXNet 1.9.1 in the same process.

Collected only in the MXNet environment (.venv-mxnet; see environments.py). Each optimizer,
in a few settings, runs K steps from the same weights and NumPy gradients in both, through
an Updater called with lists as the Gluon Trainer calls it; weights and every state must
agree after each step. The update operators are compared directly (each with the same
inputs, states updated in place), with their parameter names and defaults; every
scheduler over 50 updates.
"""
import re

import mxnet
import numpy as np
import pytest

import mxgo as mx

K = 5
SHAPES = [(3, 4), (5,)]
RTOL = {"float32": 1e-5, "float16": 2e-3, "float64": 1e-12}


def _flat(state):
    if state is None:
        return []
    if isinstance(state, (tuple, list)):
        return [a for s in state for a in _flat(s)]
    return [state.asnumpy()]


def _train(lib, name, kwargs, dtype, schedule, single):
    rng = np.random.default_rng(7)
    kwargs = dict(kwargs)
    if schedule:
        kwargs["lr_scheduler"] = getattr(lib.lr_scheduler, schedule[0])(*schedule[1], **schedule[2])
    opt = lib.optimizer.create(name, **kwargs)
    updater = lib.optimizer.get_updater(opt)
    weights = [lib.nd.array(rng.standard_normal(s), dtype=dtype) for s in SHAPES]
    history = []
    for _ in range(K):
        grads = [lib.nd.array(rng.standard_normal(s), dtype=dtype) for s in SHAPES]
        if single:
            for i, (g, w) in enumerate(zip(grads, weights)):
                updater(i, g, w)
        else:
            updater(list(range(len(weights))), grads, weights)
        history.append([w.asnumpy() for w in weights] + [a for i in range(len(weights)) for a in _flat(updater.states[i])])
    return history


MP = {"multi_precision": True}
CASES = [
    ("sgd", {}, "float32"), ("sgd", {"momentum": 0.9, "wd": 0.01}, "float32"),
    ("sgd", {"momentum": 0.9, "clip_gradient": 0.5, "rescale_grad": 0.5}, "float32"),
    ("sgd", {"momentum": 0.9, "wd": 0.01, **MP}, "float16"), ("sgd", {"wd": 0.01, **MP}, "float16"),
    ("sgd", {"momentum": 0.9}, "float64"), ("ccsgd", {"momentum": 0.5}, "float32"),
    ("nag", {"momentum": 0.9, "wd": 0.01, "clip_gradient": 0.5}, "float32"), ("nag", {"wd": 0.01}, "float32"),
    ("nag", {"momentum": 0.9, "wd": 0.01, **MP}, "float16"),
    ("adam", {"wd": 0.01}, "float32"), ("adam", {"clip_gradient": 0.1, "rescale_grad": 2.0}, "float32"),
    ("adam", {"wd": 0.01, **MP}, "float16"),
    ("rmsprop", {}, "float32"), ("rmsprop", {"centered": True, "wd": 0.01, "clip_weights": 1.0}, "float32"),
    ("adagrad", {"wd": 0.01}, "float32"), ("adagrad", {"clip_gradient": 0.5}, "float32"),
    ("adadelta", {"wd": 0.01, "rescale_grad": 0.5}, "float32"),
    ("adamax", {"wd": 0.01, "clip_gradient": 0.5}, "float32"), ("nadam", {"wd": 0.01}, "float32"),
    ("ftrl", {"wd": 0.01}, "float32"), ("ftrl", {"clip_gradient": 0.5, "rescale_grad": 0.5}, "float32"),
    ("ftml", {"wd": 0.01, "clip_gradient": 0.5}, "float32"),
    ("signum", {"wd": 0.01, "wd_lh": 0.01}, "float32"), ("signum", {"momentum": 0.0}, "float32"),
    ("lamb", {"wd": 0.01}, "float32"),
    ("lamb", {"lower_bound": 0.1, "upper_bound": 5.0, "bias_correction": False}, "float32"),
    ("lamb", {"wd": 0.01, **MP}, "float16"),
    ("lars", {"momentum": 0.9, "wd": 0.01, "eta": 0.01, "param_idx2name": {0: "fc_weight", 1: "fc_bias"}}, "float32"),
    ("lars", {"eta": 0.01, "wd": 0.01}, "float32"),
    ("dcasgd", {"wd": 0.01, "lamda": 0.1}, "float32"), ("test", {"rescale_grad": 0.5}, "float32"),
    # LBSGD's warmups; batch_scale > 1 applies every batch_scale-th call, the running sum of all gradients
    ("lbsgd", {"momentum": 0.9, "wd": 0.01}, "float32"),
    ("lbsgd", {"batch_scale": 2, "warmup_epochs": 1, "updates_per_epoch": 4, "clip_gradient": 0.5}, "float32"),
    ("lbsgd", {"momentum": 0.5, "batch_scale": 3, "warmup_strategy": "power2", "warmup_epochs": 2,
               "updates_per_epoch": 2, "begin_epoch": 1}, "float32"),
    ("lbsgd", {"batch_scale": 4, "warmup_strategy": "sqrt", "warmup_epochs": 1, "updates_per_epoch": 8}, "float32"),
    ("lbsgd", {"momentum": 0.9, "warmup_strategy": "lars", "wd": 0.01}, "float32"),
    ("lbsgd", {"momentum": 0.9, "wd": 0.01, **MP}, "float16"),
]
SCHEDULES = {"sgd": ("FactorScheduler", (2, 0.5), {"base_lr": 0.1}), "lamb": ("PolyScheduler", (6,), {"base_lr": 0.01}),
             "adam": ("CosineScheduler", (6,), {"base_lr": 0.01, "warmup_steps": 2})}


@pytest.mark.parametrize("name, kwargs, dtype", CASES, ids=lambda v: str(v))
def test_optimizer_steps_match_mxnet(name, kwargs, dtype):
    want = _train(mxnet, name, kwargs, dtype, None, single=False)
    got = _train(mx, name, kwargs, dtype, None, single=False)
    for step, (w, g) in enumerate(zip(want, got)):
        assert len(w) == len(g)
        for a, b in zip(w, g):
            assert b.dtype == a.dtype
            tol = RTOL[str(a.dtype)]  # a float16 weight rounds its float32 master copy
            np.testing.assert_allclose(b, a, rtol=tol, atol=tol, err_msg="step %d" % step)


def test_lamb_without_aggregation_matches_mxnet(monkeypatch):
    """One weight per call: MXNet's mp_lamb_update_phase2 leaves the master copy as it was."""
    monkeypatch.setenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "1")
    want = _train(mxnet, "lamb", {"wd": 0.01, **MP}, "float16", None, single=False)
    got = _train(mx, "lamb", {"wd": 0.01, **MP}, "float16", None, single=False)
    for w, g in zip(want, got):
        for a, b in zip(w, g):
            np.testing.assert_allclose(b, a, rtol=RTOL[str(a.dtype)], atol=RTOL[str(a.dtype)])


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_optimizer_with_scheduler_and_single_calls(name):
    want = _train(mxnet, name, {"momentum": 0.9} if name == "sgd" else {}, "float32", SCHEDULES[name], single=True)
    got = _train(mx, name, {"momentum": 0.9} if name == "sgd" else {}, "float32", SCHEDULES[name], single=True)
    np.testing.assert_allclose(np.concatenate([a.ravel() for s in got for a in s]),
                               np.concatenate([a.ravel() for s in want for a in s]), rtol=1e-5, atol=1e-6)


SCHEDULERS = [
    ("FactorScheduler", (5,), {"factor": 0.7, "stop_factor_lr": 1e-3, "base_lr": 0.1}),
    ("FactorScheduler", (4,), {"factor": 0.5, "base_lr": 0.1, "warmup_steps": 6, "warmup_begin_lr": 0.01}),
    ("MultiFactorScheduler", ([5, 12, 30],), {"factor": 0.5, "base_lr": 1.0}),
    ("MultiFactorScheduler", ([10, 20],), {"factor": 0.1, "warmup_steps": 5, "warmup_mode": "constant",
                                          "warmup_begin_lr": 0.001}),
    ("PolyScheduler", (40,), {"base_lr": 0.5, "pwr": 2, "final_lr": 0.01}),
    ("PolyScheduler", (40,), {"base_lr": 0.5, "pwr": 1, "warmup_steps": 10}),
    ("CosineScheduler", (40,), {"base_lr": 0.5, "final_lr": 0.05}),
    ("CosineScheduler", (40,), {"base_lr": 0.5, "warmup_steps": 8, "warmup_begin_lr": 0.1}),
]


@pytest.mark.parametrize("kind, args, kwargs", SCHEDULERS, ids=lambda v: str(v))
def test_lr_scheduler_matches_mxnet(kind, args, kwargs):
    want, got = getattr(mxnet.lr_scheduler, kind)(*args, **kwargs), getattr(mx.lr_scheduler, kind)(*args, **kwargs)
    assert [got(n) for n in range(50)] == pytest.approx([want(n) for n in range(50)], rel=1e-12)


# ---------------------------------------------------------------------- the operators

COMMON = {"rescale_grad": 0.5, "clip_gradient": 0.3}
#: (operator, number of arrays, indices updated in place, float32 indices (mp), parameters)
OPS = [
    ("sgd_update", 2, [], [], {"lr": 0.1, "wd": 0.01, **COMMON}),
    ("sgd_mom_update", 3, [2], [], {"lr": 0.1, "wd": 0.01, "momentum": 0.9, **COMMON}),
    ("nag_mom_update", 3, [2], [], {"lr": 0.1, "wd": 0.01, "momentum": 0.9, **COMMON}),
    ("adam_update", 4, [2, 3], [], {"lr": 0.1, "wd": 0.01, **COMMON}),
    ("rmsprop_update", 3, [2], [], {"lr": 0.1, "wd": 0.01, "clip_weights": 1.0, **COMMON}),
    ("rmspropalex_update", 5, [2, 3, 4], [], {"lr": 0.1, "wd": 0.01, "gamma2": 0.8, **COMMON}),
    ("ftrl_update", 4, [2, 3], [], {"lr": 0.1, "wd": 0.01, "lamda1": 0.05, **COMMON}),
    ("ftml_update", 5, [2, 3, 4], [], {"lr": 0.1, "wd": 0.01, "rescale_grad": 0.5, "clip_grad": 0.3, "t": 3}),
    ("signsgd_update", 2, [], [], {"lr": 0.1, "wd": 0.01}),
    ("signum_update", 3, [2], [], {"lr": 0.1, "wd": 0.01, "momentum": 0.9, "wd_lh": 0.1, **COMMON}),
    ("lamb_update_phase1", 4, [2, 3], [], {"wd": 0.01, "t": 3, **COMMON}),
    ("lamb_update_phase1", 4, [2, 3], [], {"wd": 0.01, "t": 2, "bias_correction": False}),
    ("mp_sgd_update", 3, [2], [2], {"lr": 0.1, "wd": 0.01, **COMMON}),
    ("mp_sgd_mom_update", 4, [2, 3], [2, 3], {"lr": 0.1, "wd": 0.01, "momentum": 0.9}),
    ("mp_nag_mom_update", 4, [2, 3], [2, 3], {"lr": 0.1, "wd": 0.01, "momentum": 0.9, **COMMON}),
    ("mp_lamb_update_phase1", 5, [2, 3, 4], [2, 3, 4], {"wd": 0.01, "t": 2}),
]


def _inputs(n, f32, dtype, mutates, shape=(4, 5), seed=3):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(shape).astype(np.float32 if i in f32 else dtype) for i in range(n)]
    for i in mutates:  # second moments and the like are not negative
        arrays[i] = np.abs(arrays[i])
    return arrays


def _call(lib, name, arrays, mutates, kwargs):
    a = [lib.nd.array(x, dtype=x.dtype) for x in arrays]
    fn = getattr(lib.nd, name)
    out = fn(*a, **kwargs) if "phase1" in name else fn(*a, out=a[0], **kwargs)  # phase 1 gives a new array
    return [out.asnumpy()] + [a[i].asnumpy() for i in mutates]


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("name, n, mutates, f32, kwargs", OPS, ids=lambda v: str(v))
def test_update_operator_matches_mxnet(name, n, mutates, f32, kwargs, dtype):
    if f32 and dtype != "float16":
        dtype = "float16"  # the mp_ operators are for float16 weights
    arrays = _inputs(n, f32, dtype, mutates)
    want, got = _call(mxnet, name, arrays, mutates, kwargs), _call(mx, name, arrays, mutates, kwargs)
    # float16 without a master copy: MXNet rounds each operation to float16, mxgo only the result
    rtol = {"float32": 2e-6, "float64": 1e-12, "float16": 3e-2 if name.startswith(("ftml", "ftrl", "lamb")) else 2e-3}
    for a, b in zip(want, got):
        assert b.dtype == a.dtype
        np.testing.assert_allclose(b, a, rtol=rtol[dtype] if not f32 else 1e-6, atol=rtol[dtype] if not f32 else 1e-6)


def _params(fn):
    """{name: default} of an MXNet operator, from its docstring."""
    doc = fn.__doc__.split("Parameters\n----------")[-1]
    found = {}
    for name, spec in re.findall(r"^(\w+) : (.*)$", doc, re.M):
        if name not in ("out", "name") and "NDArray" not in spec:
            found[name] = spec.split("default=")[-1].strip("'") if "default=" in spec else None
    return found


UPDATE_OPS = sorted({o[0] for o in OPS} | {"lamb_update_phase2", "mp_lamb_update_phase2", "multi_sgd_update",
                                           "multi_sgd_mom_update", "multi_mp_sgd_update", "multi_mp_sgd_mom_update",
                                           "preloaded_multi_sgd_update", "preloaded_multi_sgd_mom_update",
                                           "preloaded_multi_mp_sgd_update", "preloaded_multi_mp_sgd_mom_update",
                                           "multi_sum_sq", "multi_lars", "all_finite", "multi_all_finite",
                                           "reset_arrays"})


@pytest.mark.parametrize("name", UPDATE_OPS)
def test_update_operator_parameters_match_mxnet(name):
    import inspect
    want = _params(getattr(mxnet.nd, name))
    sig = inspect.signature(getattr(mx.nd, name)).parameters
    got = {k: p.default for k, p in sig.items() if k not in ("out", "name") and p.kind != p.VAR_POSITIONAL}
    got = {k: v for k, v in got.items() if k not in ("weight", "grad", "mom", "mean", "var", "weight32", "n", "g",
                                                      "delta", "z", "d", "v", "r1", "r2", "data", "lrs", "wds",
                                                      "weights_sum_sq", "grads_sum_sq") or k in want}
    assert list(got) == list(want)
    for k, default in want.items():
        if default is None:
            assert got[k] is inspect.Parameter.empty, k
        elif default in ("True", "False") or default.isdigit() and got[k] in (True, False):
            assert got[k] == (default in ("True", "1")), k
        else:
            assert float(got[k]) == pytest.approx(float(default), rel=1e-7), k


@pytest.mark.parametrize("pre", [False, True])
@pytest.mark.parametrize("mom, mp", [(False, False), (True, False), (False, True), (True, True)])
def test_multi_sgd_operators_match_mxnet(pre, mom, mp):
    name = "%smulti_%ssgd_%supdate" % ("preloaded_" if pre else "", "mp_" if mp else "", "mom_" if mom else "")
    group = 2 + mom + mp
    dtype = np.float16 if mp else np.float32
    lrs, wds = [0.1, 0.05, 0.2], [0.01, 0.0, 0.02]
    arrays = []
    for k, shape in enumerate([(3, 4), (5,), (2, 2, 2)]):
        arrays += _inputs(group, list(range(2, group)) if mp else [], dtype, range(2, group), shape, seed=k)
    kwargs = {"num_weights": 3, "rescale_grad": 0.5, "clip_gradient": 0.4, **({"momentum": 0.9} if mom else {})}
    if not pre:
        kwargs.update(lrs=lrs, wds=wds)

    def run(lib):
        a = [lib.nd.array(x, dtype=x.dtype) for x in arrays]
        extra = [lib.nd.array(lrs, dtype="float32"), lib.nd.array(wds, dtype="float32")] if pre else []
        getattr(lib.nd, name)(*a, *extra, out=a[::group], **kwargs)
        return [x.asnumpy() for x in a]
    for a, b in zip(run(mxnet), run(mx)):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)


def test_norm_operators_match_mxnet():
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (7,), (2, 5)]]
    sums = [lib.nd.multi_sum_sq(*[lib.nd.array(x) for x in arrays], num_arrays=3).asnumpy() for lib in (mxnet, mx)]
    np.testing.assert_allclose(sums[1], sums[0], rtol=1e-6)
    lars = [np.array([0.1, 0.2, 0.3], np.float32), sums[0], sums[0][::-1].copy(), np.array([0.01, 0.0, 0.1], np.float32)]
    lars[1][1] = 0  # a zero norm keeps its learning rate
    got = [lib.nd.multi_lars(*[lib.nd.array(x) for x in lars], eta=0.01, eps=1e-6, rescale_grad=0.5).asnumpy()
           for lib in (mxnet, mx)]
    np.testing.assert_allclose(got[1], got[0], rtol=1e-6)
    bad = arrays[1].copy()
    bad[3] = np.inf
    for data, init in [([arrays[0]], True), ([bad], True), ([arrays[0], bad], True), ([arrays[0]], False)]:
        want, have = [], []
        for lib, res in ((mxnet, want), (mx, have)):
            out = lib.nd.array([0.5])
            if len(data) == 1:
                lib.nd.all_finite(lib.nd.array(data[0]), init_output=init, out=out)
            else:
                lib.nd.multi_all_finite(*[lib.nd.array(x) for x in data], num_arrays=len(data), init_output=init, out=out)
            res.append(out.asnumpy())
        np.testing.assert_array_equal(have, want)


@pytest.mark.parametrize("mp", [False, True])
@pytest.mark.parametrize("bounds", [{}, {"lower_bound": 2.0, "upper_bound": 3.0}, {"upper_bound": 0.5}])
def test_lamb_phase2_matches_mxnet(mp, bounds):
    arrays = _inputs(3 if mp else 2, [1, 2] if mp else [], np.float16 if mp else np.float32, [])
    results = []
    for lib in (mxnet, mx):
        a = [lib.nd.array(x, dtype=x.dtype) for x in arrays]
        r = [lib.nd.array([2.5]), lib.nd.array([1.5])]
        getattr(lib.nd, ("mp_" if mp else "") + "lamb_update_phase2")(a[0], a[1], *r, *a[2:], lr=0.1, out=a[0], **bounds)
        results.append([x.asnumpy() for x in a])
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, rtol=1e-6)
