"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for sorting, the softmax
family and the reductions of norm.go: sort, argsort, topk, cumsum, softmax, log_softmax,
softmin, SoftmaxActivation, SoftmaxOutput/Softmax, softmax_cross_entropy, norm, nansum,
nanprod, sum_axis, max_axis, min_axis, argmax_channel, moments, histogram and their NDArray methods.

Left out, where MXNet 1.9.1 is wrong or undefined (mxgo's behaviour is tested in
test_ops_sort.py instead): NaN in sorts and in softmax inputs (MXNet's
results there depend on its comparison order and fast math), float16 norm, nansum and
cumsum (MXNet gives inf for small sums), indices beyond float16's or uint8's range,
softmax lengths beyond the axis and out-of-range labels of the cross-entropy
(MXNet reads past the lane), and integer L2 norms of the most negative integer
(SIGFPE in MXNet). Negative cumsum axes are refused, as MXNet 1.9.1 refuses them. Where
a float32 or float16 input asks for a wider result (softmax's dtype), MXNet computes in
the input's precision and mxgo in the result's: those cases compare after casting back.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.sort nd.argsort nd.topk: NaN sorts last (stably), where MXNet's order depends on its comparisons.
- nd.softmax nd.log_softmax nd.softmin: NaN inputs give defined results (test_ops_sort.py), where MXNet's
  depend on its fast math; a dtype wider than the input's computes in that dtype, where MXNet computes in
  the input's precision; lengths past the axis raise ValueError, where MXNet reads past it.
- nd.norm nd.nansum nd.cumsum: float16 inputs give finite sums (test_ops_sort.py), where MXNet gives inf for
  small sums.
- nd.argsort nd.topk: indices beyond float16's or uint8's range convert as mxgo's casts do, where MXNet's
  are undefined.
- nd.softmax_cross_entropy: out-of-range labels give a defined result (test_ops_sort.py), where MXNet 1.9.1
  reads past the row.
- nd.norm: the integer L2 norm of the most negative integer is computed (wrapping), where MXNet 1.9.1 dies
  of SIGFPE.
"""
from mxnet_diff import Case

X = "x = mx.nd.array([[3, 1, 2], [0, 5, 4]])\n"
X3 = "x = mx.nd.array(np.array([[[0, 5], [9, 1], [3, 2]], [[4, 4], [1, 7], [8, 0]]]))\n"
TIES = "x = mx.nd.array([1, 1, 1, 0, 0, 2, 0, 1])\n"
NAN = "x = mx.nd.array([[1, np.nan, 2], [np.nan, 3, -1]])\n"
RND = "x = mx.nd.array(np.random.RandomState(0).randn(4, 5, 6))\n"


def _cases(names, setup, lines):
    return [Case(code=setup + "r = " + line, names=names) for line in lines]


SORT = ("nd.sort", "NDArray.sort")
ARGSORT = ("nd.argsort", "NDArray.argsort")
TOPK = ("nd.topk", "NDArray.topk")

CASES = (
    _cases(SORT, X, [
        "mx.nd.sort(x)", "mx.nd.sort(x, axis=0)", "mx.nd.sort(x, axis=None)", "mx.nd.sort(x, is_ascend=False)",
        "mx.nd.sort(x, axis=0, is_ascend=0)", "mx.nd.sort(x, axis=-2)", "mx.nd.sort(x, axis=2)", "mx.nd.sort(x, axis=-3)",
        "mx.nd.sort(x, axis=(0, 1))", "x.sort()", "x.sort(axis=0, is_ascend=False)", "x.T.sort()",
        "mx.nd.sort(x.astype('int32'))", "mx.nd.sort(x.astype('uint8'), is_ascend=False)", "mx.nd.sort(x.astype('int64'), axis=0)",
        "mx.nd.sort(x.astype('int8'), axis=None)", "mx.nd.sort(x.astype('float64'), is_ascend=False)",
        "mx.nd.sort(x.astype('float16'))", "mx.nd.sort(x.astype('bool'))", "mx.nd.sort(-x.astype('int8'))",
    ])
    + _cases(SORT, RND, ["mx.nd.sort(x, axis=1)", "mx.nd.sort(x[:, ::2, 1:], axis=0, is_ascend=False)"])
    + _cases(ARGSORT, X, [
        "mx.nd.argsort(x)", "mx.nd.argsort(x, axis=0)", "mx.nd.argsort(x, axis=None)", "mx.nd.argsort(x, is_ascend=False)",
        "mx.nd.argsort(x, dtype='int32')", "mx.nd.argsort(x, dtype='int64')", "mx.nd.argsort(x, dtype='float64')",
        "mx.nd.argsort(x, dtype='float16')", "mx.nd.argsort(x, dtype='uint8')", "mx.nd.argsort(x, dtype=np.int32)",
        "mx.nd.argsort(x, dtype='int8')", "mx.nd.argsort(x, dtype='bool')", "mx.nd.argsort(x, axis=3)",
        "mx.nd.argsort(x.astype('float16'))", "mx.nd.argsort(x.astype('int64'))", "mx.nd.argsort(x.astype('uint8'), axis=0)",
        "x.argsort()", "x.argsort(axis=0, dtype='int32')", "x.T.argsort(is_ascend=False)",
    ])
    + _cases(ARGSORT, TIES, ["mx.nd.argsort(x)", "mx.nd.argsort(x, is_ascend=False)",
        "mx.nd.argsort(x.astype('int32'), is_ascend=False)"])
    + _cases(ARGSORT, RND, ["mx.nd.argsort(x, axis=1)", "mx.nd.argsort(x[::-1, :, ::3], axis=2, is_ascend=False, dtype='int64')"])
    + _cases(TOPK, X, [
        "mx.nd.topk(x)", "mx.nd.topk(x, k=2)", "mx.nd.topk(x, k=2, ret_typ='value')", "mx.nd.topk(x, k=2, ret_typ='mask')",
        "mx.nd.topk(x, k=2, ret_typ='both')", "mx.nd.topk(x, axis=0, k=2, ret_typ='value', is_ascend=True)",
        "mx.nd.topk(x, axis=None, k=3)", "mx.nd.topk(x, axis=None, k=2, ret_typ='mask')",
        "mx.nd.topk(x, axis=None, k=2, ret_typ='both')",
        "mx.nd.topk(x, k=0)", "mx.nd.topk(x, k=-1, ret_typ='value')", "mx.nd.topk(x, k=3, ret_typ='value')", "mx.nd.topk(x, k=5)",
        "mx.nd.topk(x, k=4, axis=None)", "mx.nd.topk(x, ret_typ='foo')", "mx.nd.topk(x, axis=2)",
        "mx.nd.topk(x, k=2, dtype='int64')", "mx.nd.topk(x, k=2, dtype='float16')", "mx.nd.topk(x, k=2, dtype='uint8')",
        "mx.nd.topk(x, k=2, dtype='int8')", "mx.nd.topk(x, k=2, ret_typ='mask', dtype='int32')",
        "mx.nd.topk(x.astype('float64'), k=2, ret_typ='both', dtype='int32')", "mx.nd.topk(x.astype('int32'), k=2, ret_typ='mask')",
        "mx.nd.topk(x.astype('uint8'), k=2, ret_typ='mask')", "mx.nd.topk(x.astype('int64'), k=2)",
        "mx.nd.topk(x.astype('int8'), k=2, ret_typ='value')", "mx.nd.topk(x.astype('float16'))",
        "mx.nd.topk(x.astype('float16'), k=2, ret_typ='value')", "mx.nd.topk(x.astype('float16'), k=2, ret_typ='mask')",
        "mx.nd.topk(x.astype('bool'), k=2)", "x.topk()", "x.topk(k=2, ret_typ='both')",
        "x.T.topk(k=2, ret_typ='value', is_ascend=True)",
    ])
    + _cases(TOPK, TIES, ["mx.nd.topk(x, k=2)", "mx.nd.topk(x, k=3, is_ascend=True)", "mx.nd.topk(x, k=4, ret_typ='mask')"])
    + _cases(TOPK, RND, ["mx.nd.topk(x, axis=1, k=3, ret_typ='both')", "mx.nd.topk(x[:, 1:, ::-2], axis=0, k=2, ret_typ='mask')"])
    + _cases(("nd.cumsum",), X, [
        "mx.nd.cumsum(x)", "mx.nd.cumsum(x, axis=0)", "mx.nd.cumsum(x, axis=-1)", "mx.nd.cumsum(x, axis=-2)",
        "mx.nd.cumsum(x, dtype='int32')", "mx.nd.cumsum(x.astype('int32'), axis=1)",
        "mx.nd.cumsum(x, dtype='float64')", "mx.nd.cumsum(x.astype('int8'))", "mx.nd.cumsum(x.astype('bool'))",
        "mx.nd.cumsum(x.astype('uint8'), axis=0, dtype='int32')", "mx.nd.cumsum(x, axis=2)", "mx.nd.cumsum(x, dtype='uint8')",
        "mx.nd.cumsum(x, dtype='bool')", "mx.nd.cumsum(x.T, axis=1)",
    ])
    + _cases(("nd.softmax", "NDArray.softmax"), X, [
        "mx.nd.softmax(x)", "mx.nd.softmax(x, axis=0)", "mx.nd.softmax(x, temperature=2.0)",
        "mx.nd.softmax(x, dtype='float64').astype('float32')",
        "mx.nd.softmax(x, dtype='float16')", "mx.nd.softmax(x, dtype=np.float64).astype('float32')",
        "mx.nd.softmax(x, dtype='int32')",
        "mx.nd.softmax(x.astype('float16'))", "mx.nd.softmax(x.astype('float16'), dtype='float32').astype('float16')",
        "mx.nd.softmax(x.astype('float64'), dtype='float32')", "mx.nd.softmax(x.astype('int32'))",
        "mx.nd.softmax(x.astype('uint8'))",
        "mx.nd.softmax(x, axis=2)", "mx.nd.softmax(x, axis=-3)", "mx.nd.softmax(x, use_length=True)",
        "mx.nd.softmax(x, mx.nd.array([1, 2], dtype='int32'), use_length=True)",
        "mx.nd.softmax(x, mx.nd.array([0, 3], dtype='int64'), use_length=True, temperature=2.0, dtype='float64')"
        ".astype('float32')",
        "mx.nd.softmax(x, mx.nd.array([1, 2, 0], dtype='int32'), use_length=True, axis=0)",
        "mx.nd.softmax(x, mx.nd.array([1, 2]), use_length=True)",
        "mx.nd.softmax(x, mx.nd.array([1, 2], dtype='uint8'), use_length=True)",
        "mx.nd.softmax(x, mx.nd.array([[1], [2]], dtype='int32'), use_length=True)",
        "mx.nd.softmax(x, mx.nd.array([1, 2], dtype='int32'))",
        "x.softmax()", "x.softmax(axis=0)", "x.T.softmax(temperature=0.5)",
    ])
    + _cases(("nd.softmax",), "x = mx.nd.arange(24).reshape((2, 3, 4))\n", [
        "mx.nd.softmax(x, mx.nd.array([[1, 2, 3, 0], [0, 1, 2, 3]], dtype='int32'), use_length=True, axis=1)",
        "mx.nd.softmax(x[:, ::-1, 1:], axis=1)",
    ])
    + _cases(("nd.log_softmax", "NDArray.log_softmax"), X, [
        "mx.nd.log_softmax(x)", "mx.nd.log_softmax(x, axis=0, temperature=0.5)",
        "mx.nd.log_softmax(x, dtype='float64').astype('float32')",
        "mx.nd.log_softmax(x, use_length=True)", "mx.nd.log_softmax(x.astype('int64'))", "mx.nd.log_softmax(x, axis=5)",
        "x.log_softmax(axis=0)", "mx.nd.log_softmax(x.astype('float16'))",
    ])
    + _cases(("nd.softmin", "NDArray.softmin"), X, [
        "mx.nd.softmin(x)", "mx.nd.softmin(x, dtype='float64').astype('float32')", "mx.nd.softmin(x, axis=0, temperature=3.0)",
        "mx.nd.softmin(x.astype('int32'))", "x.softmin()", "x.softmin(axis=-2)",
    ])
    + _cases(("nd.SoftmaxActivation",), X3, [
        "mx.nd.SoftmaxActivation(x)", "mx.nd.SoftmaxActivation(x, mode='channel')", "mx.nd.SoftmaxActivation(x[0])",
        "mx.nd.SoftmaxActivation(x[0], mode='channel')", "mx.nd.SoftmaxActivation(x, mode='foo')",
        "mx.nd.SoftmaxActivation(x.astype('float64'))", "mx.nd.SoftmaxActivation(x.astype('float16'))",
        "mx.nd.SoftmaxActivation(mx.nd.arange(3))",
    ])
    + _cases(("nd.SoftmaxOutput", "nd.Softmax"), X3, [
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3)))", "mx.nd.Softmax(x, mx.nd.zeros((2, 3)))",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3, 2)))", "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2,)))",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 2)), multi_output=True)",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 1, 2)), multi_output=True)",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 2, 1)), multi_output=True)",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3)), preserve_shape=True)",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 2)), preserve_shape=True, multi_output=True)",
        "mx.nd.SoftmaxOutput(x[0], mx.nd.zeros((3,)))", "mx.nd.SoftmaxOutput(x[0], mx.nd.zeros((3,)), multi_output=True)",
        "mx.nd.SoftmaxOutput(x[0], mx.nd.zeros((4,)))",
        "mx.nd.SoftmaxOutput(x.astype('float64'), mx.nd.zeros((2, 3)))",
        "mx.nd.SoftmaxOutput(x.astype('float64'), mx.nd.zeros((2, 3), dtype='float64'))",
        "mx.nd.SoftmaxOutput(x.astype('float16'), mx.nd.zeros((2, 3), dtype='float16'))",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3), dtype='int32'))",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3)), grad_scale=2.0, normalization='batch', smooth_alpha=0.1, "
        "use_ignore=True, ignore_label=1, out_grad=True)",
        "mx.nd.SoftmaxOutput(x, mx.nd.zeros((2, 3)), normalization='foo')", "mx.nd.SoftmaxOutput(x)",
        "mx.nd.SoftmaxOutput(x.transpose((2, 0, 1)), mx.nd.zeros((2, 2)))",
    ])
    + _cases(("nd.softmax_cross_entropy",), X, [
        "mx.nd.softmax_cross_entropy(x, mx.nd.array([0, 1]))", "mx.nd.softmax_cross_entropy(x, mx.nd.array([2.9, 1.2]))",
        "mx.nd.softmax_cross_entropy(mx.nd.array([[0, -30, 0]]), mx.nd.array([1]))",
        "mx.nd.softmax_cross_entropy(x, mx.nd.array([0, 1, 2]))",
        "mx.nd.softmax_cross_entropy(x.astype('float64'), mx.nd.array([0, 1]))",
        "mx.nd.softmax_cross_entropy(x.astype('float64'), mx.nd.array([0, 1], dtype='float64'))",
        "mx.nd.softmax_cross_entropy(x, mx.nd.array([0, 1], dtype='int32'))",
        "mx.nd.softmax_cross_entropy(x.reshape((1, 2, 3)), mx.nd.array([0]))",
        "mx.nd.softmax_cross_entropy(x, mx.nd.array([[0], [1]]))", "mx.nd.softmax_cross_entropy(x.T, mx.nd.array([0, 1, 0]))",
    ])
    + _cases(("nd.norm", "NDArray.norm"), X, [
        "mx.nd.norm(x)", "mx.nd.norm(x, ord=1)", "mx.nd.norm(x, ord=3)", "mx.nd.norm(x, axis=1)", "mx.nd.norm(x, axis=(0, 1))",
        "mx.nd.norm(x, axis=(0, 1), keepdims=True)", "mx.nd.norm(x, axis=-1, keepdims=True, ord=1)", "mx.nd.norm(x, axis=())",
        "mx.nd.norm(x, axis=(0, 0))", "mx.nd.norm(x, axis=2)", "mx.nd.norm(x, out_dtype='float32')",
        "mx.nd.norm(x, out_dtype='float64')", "mx.nd.norm(x, out_dtype='int32')", "mx.nd.norm(x.astype('float64'))",
        "mx.nd.norm(x.astype('float64'), out_dtype='float32')", "mx.nd.norm(x.astype('int32'))",
        "mx.nd.norm(x.astype('int32'), ord=1)", "mx.nd.norm(x.astype('int64'), axis=0)", "mx.nd.norm(x.astype('uint8'))",
        "mx.nd.norm(x.astype('uint8'), ord=1)", "mx.nd.norm(mx.nd.array([-3, 0, -4], dtype='int32'))",
        "mx.nd.norm(mx.nd.array([[3, 4], [1, 7]], dtype='int32'), axis=0)",
        "mx.nd.norm(mx.nd.array([3, 4, 4], dtype='int32'))", "mx.nd.norm(-x.astype('int8'), ord=1)",
        "mx.nd.norm(mx.nd.array([3e30, 4e30]))", "mx.nd.norm(x.astype('bool'))", "mx.nd.norm(x.astype('bool'), axis=1, ord=1)",
        "mx.nd.norm(mx.nd.zeros((2, 2), dtype='bool'))",
        "x.norm()", "x.norm(ord=1, axis=0)", "x.T.norm(axis=1)",
    ])
    + _cases(("nd.norm",), RND, ["mx.nd.norm(x, axis=(0, 2))", "mx.nd.norm(x[::-1, ::2], ord=1, axis=1, keepdims=True)"])
    + _cases(("nd.nansum", "NDArray.nansum"), NAN, [
        "mx.nd.nansum(x)", "mx.nd.nansum(x, axis=0)", "mx.nd.nansum(x, axis=0, exclude=True)",
        "mx.nd.nansum(x, axis=(), exclude=True)",
        "mx.nd.nansum(x, axis=None, exclude=True)", "mx.nd.nansum(x, axis=1, keepdims=True)", "mx.nd.nansum(x.astype('float64'))",
        "mx.nd.nansum(x, axis=2)", "x.nansum()", "x.T.nansum(axis=1)",
    ])
    + _cases(("nd.nansum",), X, [
        "mx.nd.nansum(x.astype('int32'))", "mx.nd.nansum(x.astype('uint8'), axis=1)", "mx.nd.nansum(x.astype('bool'))",
        "mx.nd.nansum(mx.nd.zeros((2, 3), dtype='bool'), axis=1)",
        "mx.nd.nanprod(x.astype('bool'), axis=0)",
    ])
    + _cases(("nd.nanprod", "NDArray.nanprod"), NAN, [
        "mx.nd.nanprod(x)", "mx.nd.nanprod(x, axis=1)", "mx.nd.nanprod(x.astype('float64'), axis=0, exclude=True)",
        "mx.nd.nanprod(x, axis=(0, 1), keepdims=True)", "x.nanprod()", "x.nanprod(axis=0)",
    ])
    + _cases(("nd.nanprod",), X, ["mx.nd.nanprod(x.astype('int32'))", "mx.nd.nanprod(x.astype('int64') + 1, axis=0)"])
    + _cases(("nd.sum_axis", "nd.max_axis", "nd.min_axis"), X, [
        "mx.nd.sum_axis(x)", "mx.nd.sum_axis(x, axis=1)", "mx.nd.sum_axis(x, axis=1, exclude=True)",
        "mx.nd.sum_axis(x, axis=(0, 1), exclude=True)", "mx.nd.sum_axis(x, axis=(0, 3), exclude=True)",
        "mx.nd.sum_axis(x.astype('int32'), axis=0)", "mx.nd.max_axis(x, axis=0)", "mx.nd.max_axis(x, axis=5)",
        "mx.nd.max_axis(x, axis=0, exclude=True)", "mx.nd.min_axis(x, axis=0, keepdims=True)",
        "mx.nd.min_axis(x.astype('uint8'), axis=1, exclude=True, keepdims=True)",
    ])
    + _cases(("nd.argmax_channel", "NDArray.argmax_channel"), X3, [
        "mx.nd.argmax_channel(x)", "mx.nd.argmax_channel(x[0])", "mx.nd.argmax_channel(x.transpose((0, 2, 1)))",
        "mx.nd.argmax_channel(x.astype('int32'))", "mx.nd.argmax_channel(x.astype('float64'))",
        "mx.nd.argmax_channel(mx.nd.arange(3))", "mx.nd.argmax_channel(mx.nd.array([[1, 3, 3], [np.nan, 1, 2]]))",
        "x.argmax_channel()",
    ])
    + _cases(("nd.histogram",), X, [
        "mx.nd.histogram(x, bins=3)", "mx.nd.histogram(x)", "mx.nd.histogram(x, bins=3, range=(0, 10))",
        "mx.nd.histogram(x.astype('float64'), bins=2, range=(1, 4))", "mx.nd.histogram(x, bins=mx.nd.array([0, 2, 6]))",
        "mx.nd.histogram(x, bins=mx.nd.array([0, 2, 6], dtype='float64'))",
        "mx.nd.histogram(x.astype('int32'), bins=2, range=(0, 5))", "mx.nd.histogram(x, bins=2, range=(5, 0))",
        "mx.nd.histogram(x, bins=2, range=(3, 3))", "mx.nd.histogram(x, bins=[0, 1, 2])",
        "mx.nd.histogram(x, bins=mx.nd.array([[0, 2, 6]]))", "mx.nd.histogram(x, bins=3, range=(0.5, 4.5))",
        "mx.nd.histogram(x.T, bins=mx.nd.array([0.5, 1, 3.5, 5]))",
        "mx.nd.histogram(x.astype('int32'), bins=mx.nd.array([0, 2, 6], dtype='int32'))",
    ])
    + _cases(("nd.moments",), X, [
        "mx.nd.moments(x, axes=0)", "mx.nd.moments(x, axes=(0, 1), keepdims=True)", "mx.nd.moments(x, axes=1)",
        "mx.nd.moments(x.astype('int32'), axes=0)", "mx.nd.moments(x.astype('float64'), axes=1)",
        "mx.nd.moments(x.astype('float16'), axes=1)", "mx.nd.moments(x)", "mx.nd.moments(x, axes=())",
        "mx.nd.moments(x, axes=2)", "mx.nd.moments(x, axes=(0, 1))", "mx.nd.moments(x.T, axes=-1, keepdims=True)",
    ])
)

# softmax's length array by name as well as by position (an optional input, "length?")
CASES += [
    Case(code="x = mx.nd.array(np.arange(12).reshape(3, 4) / 3)\nl = mx.nd.array([1, 4, 2], dtype='int32')\n"
              "r = mx.nd.softmax(data=x, length=l, use_length=True)", names=("nd.softmax",)),
    Case(code="x = mx.nd.array(np.arange(12).reshape(3, 4) / 3)\nl = mx.nd.array([1, 4, 2], dtype='int32')\n"
              "r = mx.nd.softmax(x, length=l, axis=-1, use_length=True)", names=("nd.softmax",)),
    Case(code="x = mx.nd.array(np.arange(12).reshape(3, 4) / 3)\nr = mx.nd.softmax(data=x, axis=0)", names=("nd.softmax",)),
]
