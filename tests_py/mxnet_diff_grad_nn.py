"""Gradient differential cases (mxnet_diff_grad.grad_case) for the layers and products:
dot, batch_dot, FullyConnected, the activations, softmax and its output layers,
Convolution, Pooling, Embedding, Dropout, the normalizations. Each compares the result
and every input's gradient with MXNet 1.9.1's for a non-uniform head gradient; the
training-mode cases (Dropout's mask, BatchNorm's batch statistics and running averages)
compare what MXNet defines deterministically."""
import numpy as np

from mxnet_diff import Case
from mxnet_diff_grad import grad_case

CASES = []
F = ("float32", "float64")


def arr(*shape, seed=0, lo=-1.5, hi=1.5):
    """A list literal of a reproducible array of shape with values in [lo, hi)."""
    v = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return repr(np.round(v, 3).tolist())


def case(expr, names, inputs, id, head=True):
    grad_case(expr, names, inputs, id=id, head=head, cases=CASES)


# ---- dot, batch_dot -------------------------------------------------------------------
DOT = [  # lhs shape, rhs shape, transpose_a, transpose_b
    ((2, 3), (3, 4), False, False), ((3, 2), (3, 4), True, False), ((2, 3), (4, 3), False, True),
    ((3, 2), (4, 3), True, True), ((3,), (3,), False, False), ((2, 3), (3,), False, False),
    ((3,), (3, 4), False, False), ((2, 2, 3), (3, 4), False, False), ((2, 3), (3, 2, 2), False, False),
    ((3, 2, 2), (3, 4), True, False), ((2, 3), (2, 2, 3), False, True), ((3, 2), (3,), True, False),
]
for ls, rs, ta, tb in DOT:
    for dt in F:
        case("mx.nd.dot(a, b, transpose_a=%s, transpose_b=%s)" % (ta, tb), ("nd.dot",),
             {"a": (arr(*ls, seed=1), dt), "b": (arr(*rs, seed=2), dt)}, "dot %s %s %s %s %s" % (ls, rs, ta, tb, dt))
for ta in (False, True):
    for tb in (False, True):
        ls = (2, 4, 3) if ta else (2, 3, 4)
        rs = (2, 5, 4) if tb else (2, 4, 5)
        for dt in F:
            case("mx.nd.batch_dot(a, b, transpose_a=%s, transpose_b=%s)" % (ta, tb), ("nd.batch_dot",),
                 {"a": (arr(*ls, seed=3), dt), "b": (arr(*rs, seed=4), dt)}, "batch_dot %s %s %s" % (ta, tb, dt))

# ---- FullyConnected ------------------------------------------------------------------
for dt in F:
    for no_bias in (False, True):
        w = {"w": (arr(4, 6, seed=6), dt)}
        if not no_bias:
            w["b"] = (arr(4, seed=7), dt)
        args = "x, w" + ("" if no_bias else ", b")
        case("mx.nd.FullyConnected(%s, num_hidden=4, no_bias=%s)" % (args, no_bias), ("nd.FullyConnected",),
             dict({"x": (arr(3, 2, 3, seed=5), dt)}, **w), "FC flatten no_bias=%s %s" % (no_bias, dt))
    case("mx.nd.FullyConnected(x, w, b, num_hidden=4, flatten=False)", ("nd.FullyConnected",),
         {"x": (arr(2, 3, 6, seed=5), dt), "w": (arr(4, 6, seed=6), dt), "b": (arr(4, seed=7), dt)}, "FC no flatten %s" % dt)

# ---- activations -----------------------------------------------------------------------
ACT = arr(3, 5, seed=8, lo=-3, hi=3)
for act in ("relu", "sigmoid", "tanh", "softrelu", "softsign"):
    for dt in F:
        case("mx.nd.Activation(x, act_type=%r)" % act, ("nd.Activation",), {"x": (ACT, dt)}, "Activation %s %s" % (act, dt))
# float32 only: MXNet 1.9.1's float64 LeakyReLU rounds its results through float32 (a
# forward difference); rrelu under record() crashes MXNet 1.9.1 (test_autograd_nn.py
# checks its inference gradient).
for act, kw in (("leaky", ""), ("leaky", ", slope=0.1"), ("elu", ""), ("elu", ", slope=0.7"), ("selu", ""), ("gelu", "")):
    for dt in ("float32",):
        case("mx.nd.LeakyReLU(x, act_type=%r%s)" % (act, kw), ("nd.LeakyReLU",), {"x": (ACT, dt)},
             "LeakyReLU %s%s %s" % (act, kw, dt))
for dt in ("float32",):
    case("mx.nd.LeakyReLU(x, g, act_type='prelu')", ("nd.LeakyReLU",),
         {"x": (arr(2, 3, 4, seed=9), dt), "g": ("[0.1, 0.2, 0.3]", dt)}, "prelu channels %s" % dt)
    case("mx.nd.LeakyReLU(x, g, act_type='prelu')", ("nd.LeakyReLU",),
         {"x": (arr(2, 3, 4, seed=9), dt), "g": ("[0.25]", dt)}, "prelu one %s" % dt)

# ---- softmax family ----------------------------------------------------------------------
SM = arr(2, 3, 4, seed=10, lo=-2, hi=2)
for fn in ("softmax", "log_softmax", "softmin"):
    for dt in F:
        for kw in ("", ", axis=1", ", axis=0, temperature=2.5"):
            case("mx.nd.%s(x%s)" % (fn, kw), ("nd." + fn,), {"x": (SM, dt)}, "%s%s %s" % (fn, kw, dt))
case("mx.nd.softmax(x, l, use_length=True)".replace("l,", "mx.nd.array([[2, 4, 1], [3, 1, 4]], dtype='int32'),"),
     ("nd.softmax",), {"x": (SM, "float32")}, "softmax use_length")
for mode in ("instance", "channel"):
    case("mx.nd.SoftmaxActivation(x, mode=%r)" % mode, ("nd.SoftmaxActivation",), {"x": (SM, "float32")},
         "SoftmaxActivation %s" % mode)

# SoftmaxOutput: the head gradient is ignored (unless out_grad); label gets 0
LAB = "[0, 2, -1, 3]"
for dt in F:
    for kw in ("", ", grad_scale=2.0", ", use_ignore=True", ", use_ignore=True, ignore_label=2",
               ", use_ignore=True, normalization='valid'", ", normalization='batch'", ", normalization='valid'",
               ", out_grad=True", ", smooth_alpha=0.1", ", smooth_alpha=0.2, use_ignore=True"):
        case("mx.nd.SoftmaxOutput(x, l%s)" % kw, ("nd.SoftmaxOutput",),
             {"x": (arr(4, 5, seed=11), dt), "l": (LAB, dt)}, "SoftmaxOutput%s %s" % (kw, dt))
    case("mx.nd.SoftmaxOutput(x, l)", ("nd.SoftmaxOutput",),
         {"x": (arr(2, 2, 3, seed=11), dt), "l": ("[1, 5]", dt)}, "SoftmaxOutput instance 3-D %s" % dt)
    case("mx.nd.SoftmaxOutput(x, l, preserve_shape=True, normalization='batch')", ("nd.SoftmaxOutput",),
         {"x": (arr(2, 3, 4, seed=11), dt), "l": ("[[0, 1, 3], [2, 2, 0]]", dt)}, "SoftmaxOutput preserve %s" % dt)
    for kw in ("", ", normalization='batch'", ", normalization='valid', use_ignore=True", ", grad_scale=3.0"):
        case("mx.nd.SoftmaxOutput(x, l, multi_output=True%s)" % kw, ("nd.SoftmaxOutput",),
             {"x": (arr(2, 3, 4, seed=12), dt), "l": ("[[0, 1, 2, -1], [2, 2, 0, 1]]", dt)},
             "SoftmaxOutput multi%s %s" % (kw, dt))
    case("mx.nd.SoftmaxOutput(x, l)", ("nd.SoftmaxOutput",),
         {"x": (arr(2, 3, seed=11), dt), "l": ("[[0.2, 0.3, 0.5], [1, 0, 0]]", dt)}, "SoftmaxOutput prob labels %s" % dt)
for op in ("LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"):
    for dt in F:
        for kw in ("", ", grad_scale=3.0"):
            case("mx.nd.%s(x, l%s)" % (op, kw), ("nd." + op,),
                 {"x": (arr(3, 4, seed=13), dt), "l": (arr(3, 4, seed=14), dt)}, "%s%s %s" % (op, kw, dt))
    case("mx.nd.%s(x, l)" % op, ("nd." + op,), {"x": (arr(3, 1, seed=13), "float32"), "l": ("[1, 0, 2]", "float32")},
         "%s label without last axis" % op)

# ---- Dropout: the deterministic cases (tests_py/test_autograd_nn.py checks the mask) --
DROP = arr(3, 4, seed=15)
for dt in F:
    for rec, kw in (("train_mode=False", ", p=0.5"), ("", ", p=0.0"), ("train_mode=False", ", p=0.3, mode='training'")):
        CASES.append(Case(
            "x = mx.nd.array(%s, dtype=%r)\nx.attach_grad()\nwith mx.autograd.record(%s):\n"
            "    y = mx.nd.Dropout(x%s)\ny.backward(mx.nd.array(np.linspace(0.5, 1.5, 12).reshape(3, 4), dtype=%r))\n"
            "r = [y, x.grad]" % (DROP, dt, rec, kw, dt), ("nd.Dropout",), "Dropout record(%s)%s %s" % (rec, kw, dt), grad=True))
    CASES.append(Case("x = mx.nd.array(%s, dtype=%r)\nr = mx.nd.Dropout(x, p=0.5)" % (DROP, dt), ("nd.Dropout",),
                      "Dropout outside record %s" % dt))
    # the mask's values and its reuse by the gradient: y * head == x.grad * x
    CASES.append(Case(
        "x = mx.nd.ones((40, 50), dtype=%r)\nx.attach_grad()\nwith mx.autograd.record():\n    y = mx.nd.Dropout(x, p=0.25)\n"
        "h = mx.nd.array(np.linspace(0.5, 1.5, 2000).reshape(40, 50), dtype=%r)\ny.backward(h)\n"
        "r = [mx.nd.array(np.unique(y.asnumpy()), dtype=%r), (x.grad == y * h).min()]" % (dt, dt, dt),
        ("nd.Dropout",), "Dropout mask values and reuse %s" % dt, grad=True))

# ---- BatchNorm (training: batch statistics; backward updates the moving ones) -----------
# backward's train_mode matches the forward's: MXNet's gradient follows backward's mode,
# mxgo's the forward's (nn_norm_grad.go)
BN_X = arr(4, 3, 2, seed=16)
for dt in F:
    pdt = dt
    # an explicit eps: float32 only (MXNet's eps is a double whose default is 1e-3 rounded to
    # float32; mxgo rounds every eps to float32, a forward difference in float64)
    eps = ", eps=1e-3" if dt == "float32" else ""
    for kw in ("", ", fix_gamma=False", ", fix_gamma=False, momentum=0.5" + eps, ", fix_gamma=False, use_global_stats=True",
               ", axis=-1, fix_gamma=False"):
        ch = 2 if "axis=-1" in kw else 3
        for rec in ("", "train_mode=False"):
            CASES.append(Case(
                "x = mx.nd.array(%s, dtype=%r)\ng = mx.nd.array(%s, dtype=%r)\nb = mx.nd.array(%s, dtype=%r)\n"
                "mm = mx.nd.array(%s, dtype=%r)\nmv = mx.nd.array(%s, dtype=%r)\n"
                "for a in (x, g, b):\n    a.attach_grad()\n"
                "with mx.autograd.record(%s):\n    y = mx.nd.BatchNorm(x, g, b, mm, mv%s)\n"
                "y.backward(mx.nd.array(np.linspace(0.5, 1.5, y.size).reshape(y.shape), dtype=%r)%s)\n"
                "r = [y, x.grad, g.grad, b.grad, mm, mv]"
                % (BN_X, dt, arr(ch, seed=17, lo=0.5, hi=1.5), pdt, arr(ch, seed=18), pdt, arr(ch, seed=19), pdt,
                   arr(ch, seed=20, lo=0.5, hi=1.5), pdt, rec, kw, dt, ", train_mode=False" if rec else ""),
                ("nd.BatchNorm",), "BatchNorm record(%s)%s %s" % (rec, kw, dt), grad=True))
    CASES.append(Case(
        "x = mx.nd.array(%s, dtype=%r)\ng = mx.nd.ones(3, dtype=%r)\nb = mx.nd.zeros(3, dtype=%r)\n"
        "mm = mx.nd.zeros(3, dtype=%r)\nmv = mx.nd.ones(3, dtype=%r)\n"
        "with mx.autograd.train_mode():\n    y = mx.nd.BatchNorm(x, g, b, mm, mv)\nr = [y, mm, mv]" % (BN_X, dt, dt, dt, dt, dt),
        ("nd.BatchNorm",), "BatchNorm train_mode without record %s" % dt))

# ---- LayerNorm, InstanceNorm ---------------------------------------------------------------
for dt in F:
    for axis, n in ((-1, 4), (1, 3)):
        case("mx.nd.LayerNorm(x, g, b, axis=%d)" % axis, ("nd.LayerNorm",),
             {"x": (arr(2, 3, 4, seed=21), dt), "g": (arr(n, seed=22, lo=0.5, hi=1.5), dt), "b": (arr(n, seed=23), dt)},
             "LayerNorm axis=%d %s" % (axis, dt))
case("mx.nd.InstanceNorm(x, g, b, eps=1e-3)", ("nd.InstanceNorm",),
     {"x": (arr(2, 3, 5, seed=24), "float32"), "g": (arr(3, seed=25, lo=0.5, hi=1.5), "float32"),
      "b": (arr(3, seed=26), "float32")},
     "InstanceNorm")

# ---- Convolution ----------------------------------------------------------------------------
CONV = [  # data shape, weight shape, parameters
    ((2, 3, 7), (4, 3, 3), "kernel=(3,), num_filter=4"),
    ((2, 3, 7), (4, 3, 3), "kernel=(3,), num_filter=4, stride=(2,), pad=(1,)"),
    ((2, 2, 6, 5), (4, 2, 3, 3), "kernel=(3, 3), num_filter=4"),
    ((2, 2, 7, 6), (4, 2, 3, 2), "kernel=(3, 2), num_filter=4, stride=(2, 2), pad=(1, 0), dilate=(1, 2)"),
    ((1, 4, 6, 6), (6, 2, 3, 3), "kernel=(3, 3), num_filter=6, num_group=2, pad=(1, 1)"),
    ((2, 3, 4, 4), (5, 3, 1, 1), "kernel=(1, 1), num_filter=5"),
    ((3, 4, 2, 2), (5, 4, 3, 3), "kernel=(3, 3), num_filter=5, pad=(1, 1)"),  # windows cover the image
    ((2, 3, 2, 2), (4, 3, 3, 3), "kernel=(3, 3), num_filter=4, stride=(2, 2), pad=(1, 1)"),
    ((1, 2, 4, 5, 4), (3, 2, 2, 3, 2), "kernel=(2, 3, 2), num_filter=3, stride=(2, 1, 2), pad=(1, 1, 0)"),
]
for ds, ws, kw in CONV:
    for dt in F:
        f = ws[0]
        case("mx.nd.Convolution(x, w, b, %s)" % kw, ("nd.Convolution",),
             {"x": (arr(*ds, seed=30), dt), "w": (arr(*ws, seed=31), dt), "b": (arr(f, seed=32), dt)},
             "Convolution %s %s" % (kw, dt))
    case("mx.nd.Convolution(x, w, %s, no_bias=True)" % kw, ("nd.Convolution",),
         {"x": (arr(*ds, seed=30), "float32"), "w": (arr(*ws, seed=31), "float32")}, "Convolution no_bias %s" % kw)

# ---- Embedding: a dense gradient to weight (repeated indices add up, clipped ones too) -----
# (a gradient of the indices raises in both)
for dt in F:
    for attach in ("", "d.attach_grad()\n"):
        CASES.append(Case(
            "d = mx.nd.array([[0, 2, 2], [4, 1, 7.9]])\nw = mx.nd.array(%s, dtype=%r)\n%sw.attach_grad()\n"
            "with mx.autograd.record():\n    y = mx.nd.Embedding(d, w, input_dim=5, output_dim=3)\n"
            "y.backward(mx.nd.array(np.linspace(0.5, 1.5, 18).reshape(2, 3, 3), dtype=%r))\nr = [y, w.grad]"
            % (arr(5, 3, seed=40), dt, attach, dt), ("nd.Embedding",), "Embedding %s%s" % (attach.strip(), dt), grad=True))
