"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for MXNet's output layers in
inference (LinearRegressionOutput, MAERegressionOutput, LogisticRegressionOutput,
SVMOutput: forward only), khatri_rao and NDArray.__hash__.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.Correlation: maps with unequal channels raise ValueError, where MXNet 1.9.1 reads out of bounds.
"""
from mxnet_diff import Case

D = "d = mx.nd.array([[1, -2], [3, 4]])\n"
CASES = []
for name in ("LinearRegressionOutput", "MAERegressionOutput", "LogisticRegressionOutput"):
    n = ("nd." + name,)
    CASES += [
        Case(code=D + "r = mx.nd.%s(d, mx.nd.array([[0, 1], [1, 0]]))" % name, names=n),
        Case(code=D + "r = mx.nd.%s(d.astype('float64'), mx.nd.zeros((2, 2), dtype='float64'), grad_scale=2)" % name,
             names=n),
        Case(code="r = mx.nd.%s(mx.nd.array([[1], [2]]), mx.nd.array([5, 6]))" % name, names=n),
        Case(code=D + "r = mx.nd.%s(d, mx.nd.array([0, 1]))" % name, names=n),
        Case(code=D + "r = mx.nd.%s(d, mx.nd.array([[0, 1, 2]]))" % name, names=n),
        Case(code=D + "r = mx.nd.%s(d.astype('float64'), mx.nd.zeros((2, 2)))" % name, names=n),
    ]
CASES += [
    Case(code=D + "r = mx.nd.SVMOutput(d, mx.nd.array([0, 1]))", names=("nd.SVMOutput",)),
    Case(code=D + "r = mx.nd.SVMOutput(d, mx.nd.array([0, 1]), margin=2, use_linear=True)", names=("nd.SVMOutput",)),
    Case(code=D + "r = mx.nd.SVMOutput(d, mx.nd.array([[0, 1], [1, 0]]))", names=("nd.SVMOutput",)),
    Case(code="r = mx.nd.khatri_rao(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[1, 2], [3, 4], [5, 6]]))",
         names=("nd.khatri_rao",)),
    Case(code="r = mx.nd.khatri_rao(mx.nd.array([[1, 2], [3, 4]]))", names=("nd.khatri_rao",)),
    Case(code="r = mx.nd.khatri_rao(mx.nd.array([[1, 2]]), mx.nd.array([[3, 4]]), mx.nd.array([[5, 6], [7, 8]]))",
         names=("nd.khatri_rao",)),
    Case(code="r = mx.nd.khatri_rao(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[1, 2, 3]]))", names=("nd.khatri_rao",)),
    Case(code="x = mx.nd.ones((2,))\ny = mx.nd.ones((2,))\nr = [hash(x) == hash(x), len({x, y, x}), x in {x: 1}]",
         names=("NDArray.__hash__",)),
]

# spatial transformers
IMG = "d = mx.nd.array(np.arange(24).reshape(1, 2, 3, 4))\n"
CASES += [
    Case(code="r = mx.nd.GridGenerator(mx.nd.array([[1, 0, 0, 0, 1, 0]]), transform_type='affine', target_shape=(2, 3))",
         names=("nd.GridGenerator",)),
    Case(code="r = mx.nd.GridGenerator(mx.nd.array([[0.5, 0.2, 0.1, -0.3, 1.5, 0], [1, 1, 1, 1, 1, 1]]), "
              "transform_type='affine', target_shape=(3, 4))", names=("nd.GridGenerator",)),
    Case(code="r = mx.nd.GridGenerator(mx.nd.array(np.arange(12).reshape(1, 2, 2, 3) / 5), transform_type='warp')",
         names=("nd.GridGenerator",)),
    Case(code="r = mx.nd.GridGenerator(mx.nd.array([[1, 0, 0, 0, 1]]), transform_type='affine', target_shape=(2, 3))",
         names=("nd.GridGenerator",)),
    Case(code="r = mx.nd.GridGenerator(mx.nd.zeros((1, 3, 2, 2)), transform_type='warp')", names=("nd.GridGenerator",)),
    Case(code=IMG + "r = mx.nd.BilinearSampler(d, mx.nd.array([[[[-1, 0, 1.5]], [[-1, 0.2, 0]]]]))", names=("nd.BilinearSampler",)),
    Case(code=IMG + "g = mx.nd.array(np.linspace(-1.2, 1.2, 2 * 2 * 5).reshape(1, 2, 2, 5))\n"
              "r = mx.nd.BilinearSampler(d.astype('float64'), g.astype('float64'))", names=("nd.BilinearSampler",)),
    Case(code=IMG + "r = mx.nd.BilinearSampler(d, mx.nd.zeros((2, 2, 1, 1)))", names=("nd.BilinearSampler",)),
    Case(code=IMG + "r = mx.nd.SpatialTransformer(d, mx.nd.array([[0.5, 0, 0, 0, 0.5, 0]]), target_shape=(2, 2), "
              "transform_type='affine', sampler_type='bilinear')", names=("nd.SpatialTransformer",)),
    Case(code=IMG + "r = mx.nd.SpatialTransformer(d, mx.nd.array([[0.9, 0.1, -0.2, -0.1, 1.1, 0.3]]), target_shape=(3, 5), "
              "transform_type='affine', sampler_type='bilinear')", names=("nd.SpatialTransformer",)),
]

CASES += [
    Case(code="r = mx.nd.Concat(mx.nd.ones((2, 2)), mx.nd.zeros((2, 1)), dim=1)", names=("nd.Concat",)),
    Case(code="r = mx.nd.Concat(mx.nd.ones((2, 2)), mx.nd.zeros((1, 2)))", names=("nd.Concat",)),
    Case(code="r = mx.nd.Concat(mx.nd.ones((2, 2)), mx.nd.zeros((1, 2)), dim=0)", names=("nd.Concat",)),
]

# CTC loss (forward)
CTC = "np.random.seed(0)\nd = mx.nd.array(np.random.randn(5, 2, 4))\nl = mx.nd.array([[1, 2, 0], [3, 3, 1]])\n"
_CTC = ("nd.CTCLoss", "nd.ctc_loss")
CASES += [
    Case(code=CTC + "r = mx.nd.CTCLoss(d, l)", names=_CTC),
    Case(code=CTC + "r = mx.nd.ctc_loss(d, l, blank_label='first')", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, mx.nd.array([[0, 1, -1], [2, 2, 0]]), blank_label='last')", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, l, mx.nd.array([3, 5]), use_data_lengths=True)", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, l, None, mx.nd.array([1, 2]), use_label_lengths=True)", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, l, mx.nd.array([4, 2]), mx.nd.array([2, 1]), use_data_lengths=True, "
                    "use_label_lengths=True)", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, mx.nd.array([[1, 1, 1], [1, 2, 1]]), mx.nd.array([2, 5]), use_data_lengths=True)",
         names=_CTC, id="a label that cannot fit its frames: 0"),
    Case(code=CTC + "r = mx.nd.CTCLoss(d, mx.nd.array([[1, 2]]))", names=_CTC),
    Case(code=CTC + "r = mx.nd.CTCLoss(d[0], l)", names=_CTC),
]

# ROIPooling
ROI = ("d = mx.nd.array(np.arange(2 * 2 * 6 * 8).reshape(2, 2, 6, 8))\n"
       "rois = mx.nd.array([[0, 0, 0, 7, 5], [1, 2, 1, 5, 4], [0, 3.3, 2.6, 3.4, 2.7], [5, 0, 0, 1, 1], [1, -3, -3, 20, 20]])\n")
_ROI = ("nd.ROIPooling",)
CASES += [
    Case(code=ROI + "r = mx.nd.ROIPooling(d, rois, pooled_size=(2, 3), spatial_scale=1.0)", names=_ROI),
    Case(code=ROI + "r = mx.nd.ROIPooling(d, rois, pooled_size=(2, 2), spatial_scale=0.5)", names=_ROI),
    Case(code=ROI + "r = mx.nd.ROIPooling(d, rois, pooled_size=(3, 3), spatial_scale=1.0)", names=_ROI),
    Case(code=ROI + "r = mx.nd.ROIPooling(-d.astype('float64'), rois.astype('float64'), pooled_size=(4, 1), spatial_scale=0.7)",
         names=_ROI),
    Case(code=ROI + "r = mx.nd.ROIPooling(d, rois[:, :4], pooled_size=(2, 2), spatial_scale=1.0)", names=_ROI),
    Case(code=ROI + "r = mx.nd.ROIPooling(d, rois, spatial_scale=1.0)", names=_ROI),
]

# Correlation (not here: data2 with fewer channels than data1, which MXNet 1.9.1 accepts and
# reads past; mxgo refuses it)
COR = ("np.random.seed(1)\na = mx.nd.array(np.random.randn(2, 3, 7, 8))\nb = mx.nd.array(np.random.randn(2, 3, 7, 8))\n")
_COR = ("nd.Correlation",)
CASES += [Case(code=COR + "r = mx.nd.Correlation(a, b%s)" % kw, names=_COR) for kw in [
    "", ", kernel_size=3, max_displacement=2", ", kernel_size=1, max_displacement=2, stride2=2",
    ", kernel_size=3, max_displacement=1, stride1=2, pad_size=1", ", max_displacement=3, pad_size=3, is_multiply=False",
    ", kernel_size=3, max_displacement=4, stride1=3, stride2=2, pad_size=4", ", kernel_size=2", ", max_displacement=9",
]] + [
    Case(code=COR + "r = mx.nd.Correlation(a.astype('float64'), b.astype('float64'), kernel_size=3, pad_size=1)", names=_COR),
]

# the NumPy-named float functions keep integer dtypes in MXNet (unary.go)
CASES += [Case(code="r = mx.nd.%s(mx.nd.array([0, 1, 2, 20, -3], dtype='%s'))" % (fn, dt), names=("nd." + fn,))
          for fn in ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid") for dt in ("int32", "int8", "uint8", "int64")]
CASES += [Case(code="r = mx.nd.array([1, 4, 9], dtype='int32').%s()" % fn, names=("NDArray." + fn,))
          for fn in ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid")]

# files: each library writes and reads its own (the bytes of each other's files are compared
# in test_mxnet_io.py)
_FILE = ("import os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'm.params')\n"
         "mx.nd.save(p, {'w': mx.nd.array([[1, 2], [3, 4]]), 'b': mx.nd.ones((3,), dtype='int32')})\n")
CASES += [
    Case(code=_FILE + "d = mx.nd.load(p)\nr = [sorted(d), d['w'], d['b']]", names=("nd.save", "nd.load")),
    Case(code=_FILE + "with open(p, 'rb') as f:\n    d = mx.nd.load_frombuffer(f.read())\nr = [sorted(d), d['w']]",
         names=("nd.load_frombuffer",)),
    Case(code="import os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'l.params')\n"
              "mx.nd.save(p, [mx.nd.arange(3), mx.nd.zeros((2, 2), dtype='float64')])\nr = mx.nd.load(p)",
         names=("nd.save", "nd.load")),
    Case(code="r = mx.nd.load_frombuffer(b'not an NDArray file')", names=("nd.load_frombuffer",)),
]
