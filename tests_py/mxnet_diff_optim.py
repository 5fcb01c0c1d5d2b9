"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for the optimizer update
operators: the new weight and every state each updates in place, in float32 and float64,
and the mp_ forms on float16 weights (test_mxnet_optimizer.py runs whole optimizers)."""
from mxnet_diff import Case

A = ("w = mx.nd.array(np.linspace(-1, 1, 6).reshape(2, 3), dtype='{dt}')\n"
     "g = mx.nd.array(np.linspace(2, -1, 6).reshape(2, 3), dtype='{dt}')\n"
     "s1 = mx.nd.array(np.linspace(0.1, 0.6, 6).reshape(2, 3), dtype='{s}')\n"
     "s2 = mx.nd.array(np.linspace(0.3, 0.8, 6).reshape(2, 3), dtype='{s}')\n"
     "s3 = mx.nd.array(np.linspace(0.05, 0.2, 6).reshape(2, 3), dtype='{s}')\n")
H = "lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.4"
ONE = [  # (operator, arrays after w and g, states updated, parameters)
    ("sgd_update", "", "", H), ("sgd_mom_update", "s1, ", "s1", H + ", momentum=0.9"),
    ("nag_mom_update", "s1, ", "s1", H + ", momentum=0.9"), ("adam_update", "s1, s2, ", "s1, s2", H),
    ("rmsprop_update", "s1, ", "s1", H + ", clip_weights=0.9"), ("rmspropalex_update", "s1, s3, s2, ", "s1, s3, s2", H),
    ("ftrl_update", "s1, s2, ", "s1, s2", H), ("signsgd_update", "", "", "lr=0.1, wd=0.01"),
    ("signum_update", "s1, ", "s1", H + ", momentum=0.9, wd_lh=0.05"),
    ("ftml_update", "s1, s2, s3, ", "s1, s2, s3", "lr=0.1, wd=0.01, t=2, clip_grad=0.4"),
]
CASES = []
for dt in ("float32", "float64"):
    for name, arrays, states, params in ONE:
        code = A.format(dt=dt, s=dt) + "o = mx.nd.%s(w, g, %sout=w, %s)\nr = [w, %s]" % (name, arrays, params, states)
        CASES.append(Case(code=code, names=("nd." + name,)))
    CASES.append(Case(code=A.format(dt=dt, s=dt) + "o = mx.nd.lamb_update_phase1(w, g, s1, s2, t=2, wd=0.01)\n"
                      "r = [mx.nd.lamb_update_phase2(w, o, w.norm(), o.norm(), lr=0.1, lower_bound=0.1), s1, s2]",
                      names=("nd.lamb_update_phase1", "nd.lamb_update_phase2")))
MP = A.format(dt="float16", s="float32") + "w32 = w.astype('float32')\n"
CASES += [
    Case(code=MP + "mx.nd.mp_sgd_update(w, g, w32, out=w, %s)\nr = [w, w32]" % H, names=("nd.mp_sgd_update",)),
    Case(code=MP + "mx.nd.mp_sgd_mom_update(w, g, s1, w32, out=w, momentum=0.9, %s)\nr = [w, s1, w32]" % H,
         names=("nd.mp_sgd_mom_update",)),
    Case(code=MP + "mx.nd.mp_nag_mom_update(w, g, s1, w32, out=w, momentum=0.9, %s)\nr = [w, s1, w32]" % H,
         names=("nd.mp_nag_mom_update",)),
    Case(code=MP + "o = mx.nd.mp_lamb_update_phase1(w, g, s1, s2, w32, t=1, wd=0.01)\n"
         "r = [mx.nd.mp_lamb_update_phase2(w, o, w32.norm(), o.norm(), w32, lr=0.1), o, s1, s2, w32]",
         names=("nd.mp_lamb_update_phase1", "nd.mp_lamb_update_phase2")),
    Case(code=A.format(dt="float32", s="float32") + "ws = [w, w * 2]\n"
         "mx.nd.multi_sgd_mom_update(w, g, s1, ws[1], g, s2, out=ws, lrs=(0.1, 0.2), wds=(0.0, 0.01), momentum=0.9, "
         "num_weights=2)\nr = ws + [s1, s2]", names=("nd.multi_sgd_mom_update",)),
    Case(code=A.format(dt="float32", s="float32") + "mx.nd.multi_sgd_update(w, g, out=[w], lrs=(0.1,), wds=(0.01,))\nr = w",
         names=("nd.multi_sgd_update",)),
    Case(code=MP + "mx.nd.multi_mp_sgd_mom_update(w, g, s1, w32, out=[w], lrs=(0.1,), wds=(0.01,), momentum=0.5)\n"
         "r = [w, s1, w32]", names=("nd.multi_mp_sgd_mom_update",)),
    Case(code=MP + "mx.nd.multi_mp_sgd_update(w, g, w32, out=[w], lrs=(0.1,), wds=(0.01,))\nr = [w, w32]",
         names=("nd.multi_mp_sgd_update",)),
    Case(code=A.format(dt="float32", s="float32") + "rates = [mx.nd.array([0.1]), mx.nd.array([0.01])]\n"
         "mx.nd.preloaded_multi_sgd_mom_update(w, g, s1, *rates, out=[w], momentum=0.9)\nr = [w, s1]",
         names=("nd.preloaded_multi_sgd_mom_update",)),
    Case(code=A.format(dt="float32", s="float32") + "rates = [mx.nd.array([0.1]), mx.nd.array([0.01])]\n"
         "mx.nd.preloaded_multi_sgd_update(w, g, *rates, out=[w])\nr = w", names=("nd.preloaded_multi_sgd_update",)),
    Case(code=MP + "rates = [mx.nd.array([0.1]), mx.nd.array([0.01])]\n"
         "mx.nd.preloaded_multi_mp_sgd_update(w, g, w32, *rates, out=[w])\nr = [w, w32]",
         names=("nd.preloaded_multi_mp_sgd_update",)),
    Case(code=MP + "rates = [mx.nd.array([0.1]), mx.nd.array([0.01])]\n"
         "mx.nd.preloaded_multi_mp_sgd_mom_update(w, g, s1, w32, *rates, out=[w], momentum=0.9)\nr = [w, s1, w32]",
         names=("nd.preloaded_multi_mp_sgd_mom_update",)),
    Case(code=A.format(dt="float32", s="float32") + "r = mx.nd.multi_sum_sq(w, g, s1, num_arrays=3)",
         names=("nd.multi_sum_sq",)),
    Case(code="r = mx.nd.multi_lars(mx.nd.array([0.1, 0.2]), mx.nd.array([4.0, 0.0]), mx.nd.array([9.0, 1.0]), "
         "mx.nd.array([0.01, 0.1]), eta=0.5, eps=1e-3, rescale_grad=0.5)", names=("nd.multi_lars",)),
    Case(code="r = [mx.nd.all_finite(mx.nd.array([1.0, np.inf])), mx.nd.all_finite(mx.nd.array([1.0, 2.0]))]",
         names=("nd.all_finite",)),
    Case(code="r = mx.nd.multi_all_finite(mx.nd.array([1.0]), mx.nd.array([np.nan]), num_arrays=2)",
         names=("nd.multi_all_finite",)),
    Case(code="a = mx.nd.ones((2, 3))\nb = mx.nd.ones((4,), dtype='float16')\n"
         "r = [len(mx.nd.reset_arrays(a, b, num_arrays=2)), a, b]", names=("nd.reset_arrays",)),
]
