"""Gradient differential cases (mxnet_diff_grad.grad_case) for the loss and spatial
operators: CTCLoss, ROIPooling, GridGenerator, BilinearSampler, SpatialTransformer,
Correlation. Each compares the result and every input's gradient with MXNet 1.9.1's for a
non-uniform head gradient.

MXNet's own gradient semantics, followed where they are not the derivative: CTCLoss's
labels and lengths, and ROIPooling's rois, get zero gradients; a CTC sequence no path fits
(loss 0) and frames past a sequence's data length get zero; ROIPooling sends a bin's
gradient to its first maximum in scan order (ties get one share); Correlation's absolute
difference counts a tie as positive (data1 gets +, data2 -). Points of BilinearSampler and
SpatialTransformer avoid the pixel lattice, where the sampler has no derivative and float
rounding picks a side.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.CTCLoss nd.ctc_loss: a sequence that no path fits (loss 0) gets a zero gradient, where MXNet 1.9.1 leaves
  its gradient unset (arbitrary values; test_autograd_nn3.py checks the zeros).
"""
from mxnet_diff_grad import grad_case
from mxnet_diff_grad_nn2 import arr

CASES = []
F = ("float32", "float64")


def case(expr, names, inputs, id, head=True):
    grad_case(expr, names, inputs, id=id, head=head, cases=CASES)


# ---- CTCLoss: blank first/last, padding, lengths, repeats ----------------------------------
# (float32 only: MXNet 1.9.1's CTCLoss refuses float64 data)
X453 = arr(4, 3, 5, seed=60)
case("mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [1, 1], [3, 0]]))", ("nd.CTCLoss",), {"x": (X453, "float32")},
     "CTCLoss blank first")
case("mx.nd.ctc_loss(x, mx.nd.array([[0, 3], [2, 2], [1, -1]]), blank_label='last')", ("nd.ctc_loss",),
     {"x": (X453, "float32")}, "ctc_loss blank last")
case("mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [2, 0], [3, 3]]), mx.nd.array([2, 4, 3]), use_data_lengths=True)",
     ("nd.CTCLoss",), {"x": (X453, "float32")}, "CTCLoss data lengths")
case("mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [2, 1], [3, 3]]), None, mx.nd.array([2, 1, 0]), use_label_lengths=True)",
     ("nd.CTCLoss",), {"x": (X453, "float32")}, "CTCLoss label lengths")
case("mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [2, 1], [3, 3]]), mx.nd.array([3, 0, 4]), mx.nd.array([1, 2, 2]), "
     "use_data_lengths=True, use_label_lengths=True, blank_label='last')",
     ("nd.CTCLoss",), {"x": (X453, "float32")}, "CTCLoss both lengths, blank last")
case("mx.nd.CTCLoss(x, l, dl, ll, use_data_lengths=True, use_label_lengths=True)", ("nd.CTCLoss",),
     {"x": (X453, "float32"), "l": ("[[1, 2], [2, 1], [3, 3]]", "float32"), "dl": ("[4, 2, 3]", "float32"),
      "ll": ("[2, 1, 2]", "float32")}, "CTCLoss labels and lengths get zeros")
case("mx.nd.CTCLoss(x, mx.nd.array([[1, 2, 1, 3], [4, 4, 2, 0]]))", ("nd.CTCLoss",),
     {"x": (arr(9, 2, 5, seed=62, lo=-3, hi=3), "float32")}, "CTCLoss longer sequences")

# ---- ROIPooling: scales, overlapping regions, empty and out-of-range bins, ties --------------
ROIS = "[[0, 0, 0, 3, 3], [1, 1, 2, 5, 4], [0, 2, 1, 6, 5], [1, 0, 0, 6, 5]]"
for dt in F:
    case("mx.nd.ROIPooling(x, mx.nd.array(%s, dtype=%r), pooled_size=(2, 2), spatial_scale=1.0)" % (ROIS, dt),
         ("nd.ROIPooling",), {"x": (arr(2, 2, 6, 7, seed=63), dt)}, "ROIPooling %s" % dt)
case("mx.nd.ROIPooling(x, mx.nd.array([[0, 1, 3, 9, 11], [0, 0, 0, 13, 11]]), pooled_size=(3, 2), spatial_scale=0.5)",
     ("nd.ROIPooling",), {"x": (arr(1, 2, 6, 7, seed=64), "float32")}, "ROIPooling scaled")
case("mx.nd.ROIPooling(x, mx.nd.array([[0, 0, 0, 1, 1], [0, 1, 1, 5, 5]]), pooled_size=(3, 4), spatial_scale=1.0)",
     ("nd.ROIPooling",), {"x": (arr(1, 2, 5, 6, seed=65, digits=1), "float32")}, "ROIPooling small regions and ties")
case("mx.nd.ROIPooling(x, r, pooled_size=(2, 2), spatial_scale=1.0)", ("nd.ROIPooling",),
     {"x": (arr(2, 2, 6, 7, seed=66), "float32"), "r": (ROIS, "float32")}, "ROIPooling rois get zeros")

# ---- GridGenerator: affine and warp (float32 only: MXNet 1.9.1's refuses float64) ----------
case("mx.nd.GridGenerator(x, transform_type='affine', target_shape=(3, 4))", ("nd.GridGenerator",),
     {"x": (arr(2, 6, seed=67), "float32")}, "GridGenerator affine")
case("mx.nd.GridGenerator(x, transform_type='warp')", ("nd.GridGenerator",),
     {"x": (arr(2, 2, 3, 4, seed=68), "float32")}, "GridGenerator warp")
case("mx.nd.GridGenerator(x, transform_type='affine', target_shape=(5, 2))", ("nd.GridGenerator",),
     {"x": (arr(1, 6, seed=69), "float32")}, "GridGenerator affine tall")

# ---- BilinearSampler: points inside, on the border and outside the image --------------------
for dt in F:
    case("mx.nd.BilinearSampler(x, g)", ("nd.BilinearSampler",),
         {"x": (arr(2, 3, 4, 5, seed=70), dt), "g": (arr(2, 2, 3, 3, seed=71, lo=-1.3, hi=1.3), dt)},
         "BilinearSampler %s" % dt)
case("mx.nd.BilinearSampler(x, g)", ("nd.BilinearSampler",),
     {"x": (arr(1, 2, 3, 4, seed=72), "float64"), "g": (arr(1, 2, 4, 5, seed=73, lo=-0.9, hi=0.9), "float64")},
     "BilinearSampler inside")
case("mx.nd.BilinearSampler(x, g)", ("nd.BilinearSampler",),
     {"x": (arr(1, 1, 3, 3, seed=74), "float32"), "g": ("[[[[-1.6, -1.1, 1.05], [2.5, 0.4, -0.3]], "
                                                          "[[-0.2, 1.2, -1.04], [0.7, -2.5, 1.3]]]]", "float32")},
     "BilinearSampler outside")

# ---- SpatialTransformer: near-identity and zooming affine maps -----------------------------
LOC = "[[0.913, 0.107, 0.052, -0.149, 1.093, -0.103], [0.611, -0.297, 0.207, 0.253, 0.689, 0.113]]"
for dt in F:
    case("mx.nd.SpatialTransformer(x, loc, target_shape=(4, 5), transform_type='affine', sampler_type='bilinear')",
         ("nd.SpatialTransformer",), {"x": (arr(2, 3, 5, 6, seed=75), dt), "loc": (LOC, dt)},
         "SpatialTransformer %s" % dt)
case("mx.nd.SpatialTransformer(x, loc, target_shape=(3, 3), transform_type='affine', sampler_type='bilinear')",
     ("nd.SpatialTransformer",), {"x": (arr(2, 2, 4, 4, seed=76), "float32"),
                                  "loc": ("[[1.4, 0.2, 0.1, -0.1, 1.3, 0.3], [0.5, 0.0, -0.6, 0.0, 0.5, 0.7]]", "float32")},
     "SpatialTransformer outside")

# ---- Correlation: products and absolute differences, strides, displacements, padding --------
CORR = [
    ((1, 3, 5, 5), "kernel_size=1, max_displacement=1"),
    ((2, 2, 7, 7), "kernel_size=3, max_displacement=2, stride2=2, pad_size=2"),
    ((1, 2, 8, 7), "kernel_size=1, max_displacement=2, stride1=2, stride2=1, pad_size=1"),
    ((1, 2, 6, 6), "kernel_size=3, max_displacement=1, pad_size=3"),
]
for ds, kw in CORR:
    for mul in (True, False):
        for dt in F:
            case("mx.nd.Correlation(a, b, %s, is_multiply=%s)" % (kw, mul), ("nd.Correlation",),
                 {"a": (arr(*ds, seed=77), dt), "b": (arr(*ds, seed=78), dt)},
                 "Correlation %s %s multiply=%s %s" % (ds, kw, mul, dt))
case("mx.nd.Correlation(a, b, kernel_size=1, max_displacement=1, pad_size=1, is_multiply=False)", ("nd.Correlation",),
     {"a": (arr(1, 2, 4, 4, seed=79, digits=0), "float32"), "b": (arr(1, 2, 4, 4, seed=80, digits=0), "float32")},
     "Correlation absolute difference ties")
