"""Gradient differential cases (mxnet_diff_grad.grad_case) for the rest of the layers:
Pooling (and Pooling_v1), Deconvolution (and Convolution_v1), UpSampling,
L2Normalization, LRN, GroupNorm, softmax_cross_entropy, SVMOutput. Each compares the
result and every input's gradient with MXNet 1.9.1's for a non-uniform head gradient;
where MXNet refuses a gradient (a label's), both must raise.

MXNet's own gradient semantics, followed where they are not the derivative: max pooling
sends a window's gradient to the first maximum in scan order (ties get one share), and
Pooling_v1 to every maximum; SVMOutput ignores the head gradient (its gradient is the
hinge loss's), as do the other output layers.
"""
import numpy as np

from mxnet_diff import Case
from mxnet_diff_grad import grad_case

CASES = []
F = ("float32", "float64")


def arr(*shape, seed=0, lo=-1.5, hi=1.5, digits=3):
    """A list literal of a reproducible array of shape with values in [lo, hi), rounded to
    digits (one digit makes ties)."""
    v = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return repr(np.round(v, digits).tolist())


def case(expr, names, inputs, id, head=True):
    grad_case(expr, names, inputs, id=id, head=head, cases=CASES)


# ---- Pooling: every type, 1-D/2-D/3-D, conventions, padding, global; ties (one-digit data) --
POOL = [  # data shape, parameters
    ((2, 3, 7), "kernel=(3,)"),
    ((2, 3, 8), "kernel=(3,), stride=(2,), pad=(1,)"),
    ((2, 3, 8), "kernel=(3,), stride=(2,), pooling_convention='full'"),
    ((2, 2, 6, 5), "kernel=(2, 2)"),
    ((2, 2, 6, 5), "kernel=(3, 2), stride=(2, 1), pad=(1, 1)"),
    ((2, 2, 7, 6), "kernel=(3, 3), stride=(2, 2), pad=(1, 1), pooling_convention='full'"),
    ((2, 2, 6, 5), "kernel=(3, 3), stride=(2, 2), pad=(2, 1)"),
    ((1, 2, 4, 5, 4), "kernel=(2, 3, 2), stride=(2, 1, 2), pad=(1, 1, 0)"),
    ((2, 2, 4, 5), "global_pool=True"),
    ((2, 2, 4, 5), "kernel=(2, 2), global_pool=True"),
]
for ds, kw in POOL:
    for pt in ("max", "avg", "sum"):
        for dt in F:
            case("mx.nd.Pooling(x, pool_type=%r, %s)" % (pt, kw), ("nd.Pooling",),
                 {"x": (arr(*ds, seed=50, digits=1), dt)}, "Pooling %s %s %s %s" % (pt, ds, kw, dt))
    if "pad" in kw:
        case("mx.nd.Pooling(x, pool_type='avg', count_include_pad=False, %s)" % kw, ("nd.Pooling",),
             {"x": (arr(*ds, seed=51), "float32")}, "Pooling avg count_include_pad=False %s %s" % (ds, kw))
    for p in (1, 2, 3):
        # positive data: lp of negative values has no real root (MXNet's lp takes no |x|)
        case("mx.nd.Pooling(x, pool_type='lp', p_value=%d, %s)" % (p, kw), ("nd.Pooling",),
             {"x": (arr(*ds, seed=52, lo=0.2, hi=1.5), "float64")}, "Pooling lp p=%d %s %s" % (p, ds, kw))
case("mx.nd.Pooling(x, kernel=(3,), pad=(1,))", ("nd.Pooling",), {"x": ("[[[1, 3, 3, 2, 2, 0]]]", "float32")},
     "Pooling max ties go to the first")
case("mx.nd.Pooling(x, kernel=(3,), pad=(2,))", ("nd.Pooling",), {"x": ("[[[-1, -3, -3, -2, -2, 0]]]", "float32")},
     "Pooling max negative data, padded windows")
for kw in ("kernel=(2, 2)", "kernel=(3, 3), stride=(2, 2), pool_type='avg'", "kernel=(2, 2), pool_type='sum'",
           "kernel=(3, 3), stride=(2, 2), pooling_convention='full'", "global_pool=True"):
    # positive data: Pooling_v1 pads with zeros that take part in its max
    case("mx.nd.Pooling_v1(x, %s)" % kw, ("nd.Pooling_v1",), {"x": (arr(2, 2, 5, 5, seed=53, lo=0.1, digits=1), "float32")},
         "Pooling_v1 %s" % kw)
case("mx.nd.Pooling_v1(x, kernel=(2, 2))", ("nd.Pooling_v1",), {"x": ("[[[[1, 3], [3, 1]]]]", "float64")},
     "Pooling_v1 ties all get the gradient")

# ---- Deconvolution, Convolution_v1 ----------------------------------------------------------
# float32 only where MXNet 1.9.1's float64 Deconvolution has no kernel (3-D) or computes
# dilation otherwise than its float32 one (the forward's difference, not the gradient's);
# float64 only where its float32 (oneDNN) forward fails (kernel 3, target_shape (6, 6))
DECONV = [  # data shape, weight shape, parameters, dtypes
    ((2, 3, 5), (3, 4, 3), "kernel=(3,), num_filter=4", F),
    ((2, 3, 5), (3, 4, 3), "kernel=(3,), num_filter=4, stride=(2,), pad=(1,), adj=(1,)", F),
    ((2, 2, 4, 3), (2, 3, 3, 3), "kernel=(3, 3), num_filter=3", F),
    ((2, 2, 4, 3), (2, 3, 3, 3), "kernel=(3, 3), num_filter=3, stride=(2, 2), pad=(1, 1), adj=(0, 1)", F),
    ((2, 2, 4, 3), (2, 3, 3, 2), "kernel=(3, 2), num_filter=3, stride=(2, 2), pad=(1, 0), dilate=(1, 2), adj=(1, 1)",
     ("float32",)),
    ((1, 4, 3, 3), (4, 3, 3, 3), "kernel=(3, 3), num_filter=6, num_group=2, pad=(1, 1)", F),
    ((2, 4, 3, 3), (4, 2, 2, 2), "kernel=(2, 2), num_filter=2, stride=(2, 2), target_shape=(6, 6)", F),
    ((2, 4, 3, 3), (4, 2, 2, 2), "kernel=(2, 2), num_filter=2, stride=(2, 2), pad=(1, 1), target_shape=(5, 5)", F),
    ((2, 4, 3, 3), (4, 2, 3, 3), "kernel=(3, 3), num_filter=2, stride=(2, 2), target_shape=(6, 6)", ("float64",)),
    ((2, 4, 3, 3), (4, 2, 3, 3), "kernel=(3, 3), num_filter=2, stride=(2, 2), target_shape=(5, 6)", ("float64",)),
    ((1, 2, 2, 3, 2), (2, 3, 2, 3, 2), "kernel=(2, 3, 2), num_filter=3, stride=(2, 1, 2), pad=(1, 1, 0)", ("float32",)),
]
for ds, ws, kw, dts in DECONV:
    for dt in dts:
        case("mx.nd.Deconvolution(x, w, %s)" % kw, ("nd.Deconvolution",),
             {"x": (arr(*ds, seed=60), dt), "w": (arr(*ws, seed=61), dt)}, "Deconvolution %s %s" % (kw, dt))
    nf = int(kw.split("num_filter=")[1].split(",")[0])
    case("mx.nd.Deconvolution(x, w, b, %s, no_bias=False)" % kw, ("nd.Deconvolution",),
         {"x": (arr(*ds, seed=60), dts[0]), "w": (arr(*ws, seed=61), dts[0]), "b": (arr(nf, seed=62), dts[0])},
         "Deconvolution bias %s" % kw)
for dt in F:
    case("mx.nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=4, pad=(1, 1))", ("nd.Convolution_v1",),
         {"x": (arr(2, 3, 5, 4, seed=63), dt), "w": (arr(4, 3, 3, 3, seed=64), dt), "b": (arr(4, seed=65), dt)},
         "Convolution_v1 %s" % dt)

# ---- UpSampling (nearest): one input, several concatenated or summed ---------------------
for dt in F:
    case("mx.nd.UpSampling(x, scale=2, sample_type='nearest')", ("nd.UpSampling",),
         {"x": (arr(2, 3, 2, 3, seed=70), dt)}, "UpSampling one input %s" % dt)
    case("mx.nd.UpSampling(x, y, scale=2, sample_type='nearest', num_args=2)", ("nd.UpSampling",),
         {"x": (arr(1, 2, 2, 2, seed=71), dt), "y": (arr(1, 1, 4, 4, seed=72), dt)}, "UpSampling concat %s" % dt)
    case("mx.nd.UpSampling(x, y, scale=3, sample_type='nearest', num_args=2, multi_input_mode='sum')", ("nd.UpSampling",),
         {"x": (arr(1, 2, 2, 1, seed=73), dt), "y": (arr(1, 2, 6, 3, seed=74), dt)}, "UpSampling sum %s" % dt)
case("mx.nd.UpSampling(x, y, scale=2, sample_type='nearest', num_args=2)", ("nd.UpSampling",),
     {"x": (arr(1, 2, 2, 2, seed=71), "float32"), "y": (arr(1, 1, 1, 1, seed=72), "float32")}, "UpSampling concat scales")

# ---- L2Normalization, LRN, GroupNorm -----------------------------------------------------
for dt in F:
    for mode, shape in (("instance", (3, 4)), ("instance", (2, 3, 2)), ("channel", (2, 3, 2, 2)), ("spatial", (2, 3, 2, 2))):
        case("mx.nd.L2Normalization(x, mode=%r)" % mode, ("nd.L2Normalization",), {"x": (arr(*shape, seed=75), dt)},
             "L2Normalization %s %s %s" % (mode, shape, dt))
    case("mx.nd.L2Normalization(x, mode='channel', eps=0.5)", ("nd.L2Normalization",), {"x": (arr(2, 3, 4, seed=76), dt)},
         "L2Normalization eps %s" % dt)
    case("mx.nd.GroupNorm(x, g, b, num_groups=2)", ("nd.GroupNorm",),
         {"x": (arr(2, 4, 3, seed=77), dt), "g": ("[0.5, 1.5]", dt), "b": ("[0.25, -1.0]", dt)}, "GroupNorm %s" % dt)
    case("mx.nd.GroupNorm(x, g, b, num_groups=3, eps=0.01)", ("nd.GroupNorm",),
         {"x": (arr(2, 6, 2, 2, seed=78), dt), "g": ("[0.5, 1.5, 2.0]", dt), "b": ("[0.25, -1.0, 0.0]", dt)},
         "GroupNorm 4-D %s" % dt)
    case("mx.nd.GroupNorm(x, g, b)", ("nd.GroupNorm",),
         {"x": (arr(3, 2, 4, seed=79), dt), "g": ("[1.25]", dt), "b": ("[0.5]", dt)}, "GroupNorm one group %s" % dt)
# LRN: float32 only (MXNet's CPU kernel)
# (odd nsize: an even one's forward window is not MXNet's, a difference of the forward)
for kw in ("nsize=3", "nsize=5, alpha=0.01, beta=0.5, knorm=1.5", "nsize=1"):
    case("mx.nd.LRN(x, %s)" % kw, ("nd.LRN",), {"x": (arr(2, 4, 2, 3, seed=80, lo=-3, hi=3), "float32")}, "LRN %s" % kw)

# ---- softmax_cross_entropy, SVMOutput: the losses ------------------------------------------
for dt in F:
    case("mx.nd.softmax_cross_entropy(x, mx.nd.array([2, 0, 1, 1], dtype=%r))" % dt, ("nd.softmax_cross_entropy",),
         {"x": (arr(4, 3, seed=81), dt)}, "softmax_cross_entropy %s" % dt)
    for kw in ("", ", use_linear=True", ", margin=1.5, regularization_coefficient=2.0",
               ", use_linear=True, margin=0.5, regularization_coefficient=0.25"):
        case("mx.nd.SVMOutput(x, l%s)" % kw, ("nd.SVMOutput",),
             {"x": (arr(4, 3, seed=82, digits=1), dt), "l": ("[2, 0, 1.7, 5]", dt)}, "SVMOutput%s %s" % (kw, dt))
    case("mx.nd.SVMOutput(x, l)", ("nd.SVMOutput",),
         {"x": (arr(2, 3, 4, seed=83), dt), "l": ("[[0, 3, 1], [2, 2, 0]]", dt)}, "SVMOutput 3-D %s" % dt)
CASES.append(Case(
    "x = mx.nd.array(%s)\nx.attach_grad()\nl = mx.nd.array([2, 0, 2.7, 5])\nwith mx.autograd.record():\n"
    "    y = mx.nd.softmax_cross_entropy(x, l)\ny.backward(mx.nd.array([2.5]))\nr = [x.grad]" % arr(4, 3, seed=81),
    ("nd.softmax_cross_entropy",), "softmax_cross_entropy labels truncated, out of range", grad=True))
# (the gradient only: MXNet's forward reads past the row for a label out of range)
# a label's gradient: softmax_cross_entropy refuses it, SVMOutput gives 0
CASES.append(Case(
    "x = mx.nd.array(%s)\nl = mx.nd.array([2, 0, 1, 1])\nx.attach_grad()\nl.attach_grad()\nwith mx.autograd.record():\n"
    "    y = mx.nd.softmax_cross_entropy(x, l)\ny.backward()\nr = [x.grad, l.grad]" % arr(4, 3, seed=81),
    ("nd.softmax_cross_entropy",), "softmax_cross_entropy label gradient raises", grad=True))
