"""Gradient differential cases (mxnet_diff_grad.grad_case) for the indexing, layout and
sorting operators: take, pick, batch_take, gather_nd, scatter_nd, one_hot, advanced
indexing, pad, depth_to_space, space_to_depth, diag, the Sequence operators, Crop,
ravel_multi_index, unravel_index, reshape_like, broadcast_like, sort, argsort, topk,
histogram, khatri_rao, and assignment into part of an array while recording. Each
compares the result and every input's gradient with MXNet 1.9.1's for a non-uniform head
gradient; where MXNet has no gradient, both must raise. Indices are attached too: MXNet
gives them a zero gradient.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.SequenceLast: without use_sequence_length the gradient reaches the last step, where
  MXNet 1.9.1 gives a zero gradient (its backward reads lengths it never wrote).
- nd.gather_nd: a negative index gets its gradient at the element it read, where MXNet
  1.9.1's backward writes it out of bounds.
"""
from mxnet_diff import Case
from mxnet_diff_grad import arr, grad_case

CASES = []
F = ("float32", "float64")


def case(expr, names, inputs, id, head=True):
    grad_case(expr, names, inputs, id=id, head=head, cases=CASES)


M23 = arr(2, 3, seed=1)
T234 = arr(2, 3, 4, seed=2)

# ---- take: repeated and out-of-range indices add up in the table ----------------------
TAKE = [  # indices, axis, mode
    ("[1, 0, 1]", 0, "clip"), ("[[4, -1], [1, 1]]", 1, "wrap"), ("[[2, 2, 0], [5, -3, 1]]", 1, "clip"),
    ("[0, 2, 2, 1]", -1, "clip"), ("[1.7, 0.2]", 2, "raise"), ("[3, -2, 0]", -2, "wrap"),
]
for idx, axis, mode in TAKE:
    for dt in F:
        case("mx.nd.take(a, i, axis=%d, mode=%r)" % (axis, mode), ("nd.take",),
             {"a": (T234, dt), "i": (idx, "float32")}, "take %s axis=%d %s %s" % (idx, axis, mode, dt))
case("mx.nd.take(a, i)", ("nd.take",), {"a": (M23, "float32"), "i": ("[1, 1, 1]", "int32")}, "take int32 indices")
case("a.take(i, axis=1) * a.take(i, axis=1)", ("NDArray.take",), {"a": (M23, "float64"), "i": ("[2, 0, 2]", "float64")},
     "take method twice")

# ---- pick / choose_element_0index -----------------------------------------------------
PICK = [  # data, index, axis, keepdims, mode
    (M23, "[2, 2]", 1, False, "clip"), (M23, "[3, 0, -1]", 0, True, "wrap"), (M23, "[5, -1]", -1, False, "clip"),
    (T234, "[[0, 3, 3, 1], [2, 2, 0, 1]]", 1, False, "clip"), (T234, "[[[1], [0], [9]], [[-1], [2], [3]]]", 2, True, "wrap"),
]
for data, idx, axis, keep, mode in PICK:
    for dt in F:
        case("mx.nd.pick(a, i, axis=%d, keepdims=%s, mode=%r)" % (axis, keep, mode), ("nd.pick",),
             {"a": (data, dt), "i": (idx, "float32")}, "pick %s axis=%d %s %s %s" % (idx, axis, keep, mode, dt))
case("mx.nd.choose_element_0index(a, i)", ("nd.choose_element_0index",), {"a": (M23, "float32"), "i": ("[2, 0]", "float32")},
     "choose_element_0index")
case("a.pick(i)", ("NDArray.pick",), {"a": (M23, "float64"), "i": ("[1, 1]", "float64")}, "pick method")
# no gradient in MXNet: both raise "non-differentiable"
case("mx.nd.batch_take(a, i)", ("nd.batch_take",), {"a": (M23, "float32"), "i": ("[2, 0]", "int32")}, "batch_take raises")
case("mx.nd.fill_element_0index(a, m, i)", ("nd.fill_element_0index",),
     {"a": (M23, "float32"), "m": ("[9, 8]", "float32"), "i": ("[2, 0]", "float32")}, "fill_element_0index raises")

# ---- gather_nd, scatter_nd ------------------------------------------------------------
GND = [  # data, indices
    (M23, "[[1, 1, 0], [2, 2, 0]]"), (M23, "[[1, 0, 1]]"), (T234, "[[0, 1, 1], [2, 2, 0]]"),
    (T234, "[[[1, 1], [0, 1]], [[2, 2], [0, 2]], [[3, 3], [1, 0]]]"),
]
for data, idx in GND:
    for dt in F:
        case("mx.nd.gather_nd(a, i)", ("nd.gather_nd",), {"a": (data, dt), "i": (idx, "float32")}, "gather_nd %s %s" % (idx, dt))
SND = [  # data, indices, shape
    ("[1.5, -2.0, 3.25]", "[[1, 1, 0], [2, 2, 0]]", (2, 3)), ("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]", "[[1, 0]]", (3, 3)),
    (arr(2, 4, seed=3), "[[0, 1], [2, 0]]", (2, 3, 4)),
]
for data, idx, shape in SND:
    for dt in F:
        case("mx.nd.scatter_nd(a, i, shape=%r)" % (shape,), ("nd.scatter_nd",), {"a": (data, dt), "i": (idx, "float32")},
             "scatter_nd %s %s %s" % (idx, shape, dt))

# ---- one_hot, ravel_multi_index, unravel_index: zero gradients ------------------------------
case("mx.nd.one_hot(i, depth=4) * 2", ("nd.one_hot",), {"i": ("[1, 2, 0]", "float32")}, "one_hot")
case("mx.nd.one_hot(i, depth=3, on_value=2.5, dtype='float64')", ("nd.one_hot",), {"i": ("[[1], [3]]", "float64")},
     "one_hot float64")
case("mx.nd.ravel_multi_index(i, shape=(2, 3)) * 1", ("nd.ravel_multi_index",), {"i": ("[[1, 0], [2, 1]]", "float32")},
     "ravel_multi_index")
case("mx.nd.unravel_index(i, shape=(2, 3)) * 1", ("nd.unravel_index",), {"i": ("[1, 4]", "float32")}, "unravel_index")

# ---- advanced indexing under record: repeated indices accumulate -------------------------
ADV = ["a[[0, 2, 0]]", "a[:, [3, 1, 3]]", "a[[1, 0], [2, 2]]", "a[[[1], [0]], :, [0, 3]]", "a[1, [2, 0, 2], 1:3]",
       "a[:, [0, 0], [1, 1]] * a[:, 1:2, 0:1]", "a[mx.nd.array([1, 1])]"]
for key in ADV:
    for dt in F:
        case(key, ("NDArray.__getitem__",), {"a": (arr(3, 4, 5, seed=4), dt)}, "%s %s" % (key, dt))

# ---- pad: constant keeps the inner region; edge and reflect add the borders back ----------
PAD4 = (0, 0, 0, 0, 1, 2, 0, 1)
PAD5 = (0, 0, 0, 0, 1, 0, 2, 1, 0, 2)
for mode in ("constant", "edge", "reflect"):
    for dt in F:
        case("mx.nd.pad(a, mode=%r, pad_width=%r, constant_value=1.5)" % (mode, PAD4), ("nd.pad",),
             {"a": (arr(1, 2, 3, 4, seed=5), dt)}, "pad 4-D %s %s" % (mode, dt))
    case("mx.nd.Pad(a, mode=%r, pad_width=%r)" % (mode, PAD5), ("nd.Pad",), {"a": (arr(2, 1, 3, 3, 4, seed=6), "float32")},
         "Pad 5-D %s" % mode)
case("a.pad(mode='reflect', pad_width=(0, 0, 0, 0, 2, 2, 3, 3))", ("NDArray.pad",), {"a": (arr(1, 1, 3, 4, seed=7), "float64")},
     "pad reflect wide")

# ---- depth_to_space, space_to_depth, diag ------------------------------------------------
for dt in F:
    case("mx.nd.depth_to_space(a, block_size=2)", ("nd.depth_to_space",), {"a": (arr(2, 8, 2, 3, seed=8), dt)},
         "depth_to_space %s" % dt)
    case("mx.nd.space_to_depth(a, block_size=2)", ("nd.space_to_depth",), {"a": (arr(1, 2, 4, 6, seed=9), dt)},
         "space_to_depth %s" % dt)
case("a.depth_to_space(3)", ("NDArray.depth_to_space",), {"a": (arr(1, 9, 2, 2, seed=10), "float32")}, "depth_to_space 3")
DIAG = [  # data, kwargs
    (M23, ""), (M23, "k=1"), (M23, "k=-1"), ("[1.5, -2.0, 3.0]", ""), ("[1.5, -2.0, 3.0]", "k=-1"), ("[1.5, -2.0]", "k=2"),
    (arr(3, 3, seed=11), "k=0"), (T234, "k=1, axis1=0, axis2=2"), (T234, "k=-1, axis1=2, axis2=1"), (T234, ""),
]
for data, kw in DIAG:
    for dt in F:
        case("mx.nd.diag(a%s)" % (", " + kw if kw else ""), ("nd.diag",), {"a": (data, dt)}, "diag %s %s %s" % (data[:12], kw, dt))

# ---- SequenceMask, SequenceLast, SequenceReverse -----------------------------------------
S423 = arr(4, 2, 3, seed=12)
S243 = arr(2, 4, 3, seed=13)
for dt in F:
    for lens in ("[1, 3]", "[0, 4]", "[2.7, 4]"):
        case("mx.nd.SequenceMask(a, l, use_sequence_length=True, value=-1)", ("nd.SequenceMask",),
             {"a": (S423, dt), "l": (lens, dt)}, "SequenceMask %s %s" % (lens, dt))
        case("mx.nd.SequenceReverse(a, l, use_sequence_length=True)", ("nd.SequenceReverse",),
             {"a": (S423, dt), "l": (lens, dt)}, "SequenceReverse %s %s" % (lens, dt))
    for lens in ("[1, 3]", "[4, 2]", "[2.7, 4]"):
        case("mx.nd.SequenceLast(a, l, use_sequence_length=True)", ("nd.SequenceLast",),
             {"a": (S423, dt), "l": (lens, dt)}, "SequenceLast %s %s" % (lens, dt))
        case("mx.nd.SequenceLast(a, l, use_sequence_length=True, axis=1)", ("nd.SequenceLast",),
             {"a": (S243, dt), "l": (lens, dt)}, "SequenceLast axis=1 %s %s" % (lens, dt))
    case("mx.nd.SequenceMask(a, l, use_sequence_length=True, axis=1)", ("nd.SequenceMask",),
         {"a": (S243, dt), "l": ("[1, 3]", dt)}, "SequenceMask axis=1 %s" % dt)
    case("mx.nd.SequenceMask(a)", ("nd.SequenceMask",), {"a": (S423, dt)}, "SequenceMask whole %s" % dt)
    case("mx.nd.SequenceReverse(a)", ("nd.SequenceReverse",), {"a": (S423, dt)}, "SequenceReverse whole %s" % dt)
case("mx.nd.SequenceLast(a, l, use_sequence_length=True)", ("nd.SequenceLast",),
     {"a": (arr(3, 2, seed=14), "float32"), "l": ("[3, 1]", "float32")}, "SequenceLast 2-D")

# ---- Crop, reshape_like, broadcast_like (the model arrays get zeros) ----------------------
case("mx.nd.Crop(a, h_w=(2, 3), offset=(1, 0))", ("nd.Crop",), {"a": (arr(1, 2, 4, 4, seed=15), "float32")}, "Crop h_w")
case("mx.nd.Crop(a, b, num_args=2, center_crop=True)", ("nd.Crop",),
     {"a": (arr(2, 1, 5, 4, seed=16), "float32"), "b": ("np.zeros((1, 1, 2, 3)).tolist()", "float32")}, "Crop like")
case("mx.nd.Crop(a, b, num_args=2, offset=(2, 1))", ("nd.Crop",),
     {"a": (arr(1, 2, 5, 4, seed=17), "float32"), "b": ("np.zeros((1, 1, 3, 3)).tolist()", "float32")}, "Crop like offset")
for dt in F:
    case("mx.nd.reshape_like(a, b)", ("nd.reshape_like",), {"a": (M23, dt), "b": (arr(3, 2, seed=18), dt)}, "reshape_like %s" % dt)
    case("mx.nd.broadcast_like(a, b)", ("nd.broadcast_like",), {"a": ("[[1.5, -2.0, 3.0]]", dt), "b": (M23, dt)},
         "broadcast_like %s" % dt)
case("mx.nd.broadcast_like(a, b, lhs_axes=(0,), rhs_axes=(1,))", ("nd.broadcast_like",),
     {"a": ("[[1.5, -2.0, 3.0]]", "float32"), "b": (M23, "float32")}, "broadcast_like axes")
case("mx.nd.reshape_like(a, b, lhs_begin=1, rhs_begin=0, rhs_end=2)", ("nd.reshape_like",),
     {"a": (arr(2, 6, seed=19), "float32"), "b": (arr(2, 3, seed=20), "float32")}, "reshape_like part")

# ---- sort, topk (values back to where they came from), argsort: zeros ---------------------
SORTD = "[[0.5, -1.25, 2.0, -1.25], [3.5, 0.75, 0.75, 0.25], [1.0, 1.0, 1.0, -2.0]]"  # with ties
for dt in F:
    for kw in ("axis=1", "axis=0, is_ascend=False", "axis=None", "axis=-1, is_ascend=False"):
        case("mx.nd.sort(a, %s)" % kw, ("nd.sort",), {"a": (SORTD, dt)}, "sort %s %s" % (kw, dt))
    for kw in ("k=2", "k=2, axis=0", "k=3, is_ascend=True", "k=0", "k=5, axis=None", "k=1, axis=0, is_ascend=True"):
        case("mx.nd.topk(a, ret_typ='value', %s)" % kw, ("nd.topk",), {"a": (SORTD, dt)}, "topk value %s %s" % (kw, dt))
    case("mx.nd.topk(a, ret_typ='both', k=2)[0] * 2", ("nd.topk",), {"a": (SORTD, dt)}, "topk both values %s" % dt)
case("mx.nd.sort(a, axis=1)", ("nd.sort",), {"a": (T234, "float32")}, "sort 3-D axis=1")
case("mx.nd.topk(a, ret_typ='value', k=2, axis=1)", ("nd.topk",), {"a": (T234, "float64")}, "topk 3-D axis=1")
case("a.sort(axis=-1) * a.sort(axis=-1)", ("NDArray.sort",), {"a": (SORTD, "float64")}, "sort method twice")
case("a.topk(ret_typ='value', k=2)", ("NDArray.topk",), {"a": (SORTD, "float32")}, "topk method")
for expr in ("mx.nd.topk(a, ret_typ='indices', k=2)", "mx.nd.topk(a, ret_typ='mask', k=2) * a",
             "mx.nd.topk(a, ret_typ='both', k=2)[1]", "mx.nd.topk(a, ret_typ='mask', k=2)", "mx.nd.argsort(a) * a",
             "mx.nd.argsort(a, axis=0, is_ascend=False)", "a.argsort()"):
    case(expr, ("nd.topk" if "topk" in expr else "nd.argsort" if "nd." in expr else "NDArray.argsort",),
         {"a": (SORTD, "float32")}, expr)
case("mx.nd.histogram(a, bins=3, range=(0, 4))[0]", ("nd.histogram",), {"a": (M23, "float32")}, "histogram raises")
case("mx.nd.khatri_rao(a, b)", ("nd.khatri_rao",), {"a": (M23, "float32"), "b": (arr(3, 3, seed=21), "float32")},
     "khatri_rao raises")

# ---- assignment while recording: into the whole array a recorded copy (broadcast if need
# be); a recorded value into part of an array is refused by both ("Inplace operations")
SET = "x = mx.nd.array(%s, dtype=%%r)\nx.attach_grad()\ny = mx.nd.array([[1.5, -2.0, 3.0]], dtype='float32')\n" \
      "y.attach_grad()\nwith mx.autograd.record():\n    buf = mx.nd.zeros((3, 3), dtype=%%r)\n    %%s\n    z = buf * x\n" \
      "z.backward(mx.nd.array(np.linspace(0.5, 1.5, 9).reshape(3, 3), dtype=z.dtype))\nr = [z, x.grad, y.grad]" % arr(3, 3, seed=22)
for stmt in ("buf[:] = y * 2", "buf[...] = y", "buf[:, 0:3] = y[0]", "buf[0:3] = mx.nd.concat(y, y, x[0:1], dim=0)",
             "buf[:] = x", "buf[1:2] = 3", "buf[1:2] = y.detach()", "buf[[0, 2]] = 4",
             "buf[1:2] = y", "buf[1] = y[0] * 2", "buf[:, 1] = y[0]", "buf[[0, 2]] = mx.nd.concat(y, y, dim=0)",
             "buf[[0, 0]] = mx.nd.concat(y, y * 3, dim=0)", "buf[:] = y\n    buf[:] = x * 2", "buf = x * 1\n    buf[1:2] = y"):
    for dt in ("float32", "float64"):
        CASES.append(Case(SET % (dt, dt, stmt), ("NDArray.__setitem__", "NDArray.backward"), "setitem %s %s" % (stmt, dt),
                          grad=True))
# onehot_encode writes its out: recording it is refused by MXNet, and backward by mxgo
CASES.append(Case("i = mx.nd.array([1, 0, 2])\ni.attach_grad()\no = mx.nd.zeros((3, 4))\nwith mx.autograd.record():\n"
                  "    y = mx.nd.onehot_encode(i, o)\ny.backward()\nr = [y, i.grad]", ("nd.onehot_encode",),
                  "onehot_encode raises", grad=True))
