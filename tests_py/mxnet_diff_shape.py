"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for the shape, creation and
gather operators: expand_dims, squeeze, flatten/Flatten, swapaxes/SwapAxis, flip/reverse,
tile, repeat, broadcast_to/like/axis/axes, zeros_like, ones_like, linspace, eye, diag,
slice_axis, one_hot, take, pick and their NDArray methods.

MXNet 1.x's mx.nd has no 0-d or size-0 arrays (a 0 in a shape means "unknown" there), so
none of these cases uses them: mxgo's behaviour on them is tested against NumPy in
test_ops_shape_mxnet.py. Neither do cases where MXNet lacks a kernel for a dtype (bool
for flip, swapaxes, diag, slice_axis and pick: "Unknown type enum 7"), which mxgo supports.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.flip nd.reverse nd.swapaxes nd.SwapAxis nd.diag nd.slice_axis nd.pick: bool arrays work, where MXNet
  1.9.1 has no kernel ("Unknown type enum 7").
"""
from mxnet_diff import Case

X = "x = mx.nd.array(np.arange(6).reshape(2, 3))\n"
X3 = "x = mx.nd.array(np.arange(24).reshape(2, 3, 4))\n"
ONES = "x = mx.nd.ones((1, 3, 1))\n"


def _cases(names, setup, lines):
    return [Case(code=setup + "r = " + line, names=names) for line in lines]


CASES = (
    _cases(("nd.expand_dims", "NDArray.expand_dims"), X, [
        "mx.nd.expand_dims(x, axis=2)", "mx.nd.expand_dims(x, axis=-3)", "mx.nd.expand_dims(x, axis=1)",
        "mx.nd.expand_dims(x, axis=3)", "mx.nd.expand_dims(x, axis=-4)", "mx.nd.expand_dims(x)",
        "x.expand_dims(0)", "x.expand_dims(-1)", "x.expand_dims(1, inplace=True)",
        "mx.nd.expand_dims(x.astype('int64'), 0)", "mx.nd.expand_dims(x.astype('bool'), 0)",
    ])
    + _cases(("nd.squeeze", "NDArray.squeeze"), ONES, [
        "mx.nd.squeeze(x)", "mx.nd.squeeze(x, axis=0)", "mx.nd.squeeze(x, axis=(0, 2))", "mx.nd.squeeze(x, axis=-1)",
        "mx.nd.squeeze(x, axis=())", "mx.nd.squeeze(mx.nd.ones((1, 1)))", "mx.nd.squeeze(x, axis=1)",
        "mx.nd.squeeze(x, axis=3)", "mx.nd.squeeze(x, axis=(0, 0))", "mx.nd.squeeze(x, axis=(0, -3))",
        "x.squeeze()", "x.squeeze(axis=2)", "x.squeeze(inplace=True)", "x.squeeze(axis=0, inplace=True)",
    ])
    + _cases(("nd.flatten", "nd.Flatten", "NDArray.flatten"), X3, [
        "mx.nd.flatten(x)", "mx.nd.Flatten(x)", "mx.nd.flatten(mx.nd.ones((5,)))", "x.flatten()",
        "x.flatten(inplace=True)", "mx.nd.flatten(x.astype('float16'))",
    ])
    + _cases(("nd.swapaxes", "nd.SwapAxis", "NDArray.swapaxes"), X3, [
        "mx.nd.swapaxes(x)", "mx.nd.swapaxes(x, 0, 2)", "mx.nd.swapaxes(x, dim1=-1, dim2=0)", "mx.nd.SwapAxis(x, 1, 0)",
        "mx.nd.swapaxes(x, 0, 3)", "mx.nd.swapaxes(x, -4, 0)", "x.swapaxes(1, 2)", "mx.nd.swapaxes(x.astype('int32'), 1, 1)",
    ])
    + _cases(("nd.flip", "nd.reverse", "NDArray.flip"), X3, [
        "mx.nd.flip(x, axis=0)", "mx.nd.flip(x, axis=(0, 2))", "mx.nd.reverse(x, axis=1)", "mx.nd.flip(x, axis=(1, 1))",
        "mx.nd.flip(x, axis=())", "mx.nd.flip(x, axis=-1)", "mx.nd.flip(x, axis=3)", "mx.nd.flip(x)",
        "x.flip(axis=2)", "x.flip(2)", "mx.nd.flip(x.astype('uint8'), axis=1)",
    ])
    + _cases(("nd.tile", "NDArray.tile"), X, [
        "mx.nd.tile(x, reps=(2,))", "mx.nd.tile(x, reps=(2, 1, 2))", "mx.nd.tile(x, reps=(3, 2))", "mx.nd.tile(x, reps=())",
        "mx.nd.tile(x, reps=2)", "mx.nd.tile(x, reps=(-1, 2))", "mx.nd.tile(x)", "x.tile((2, 2))",
        "mx.nd.tile(x.astype('bool'), reps=(2,))", "mx.nd.tile(mx.nd.ones((3, 1, 2)), reps=(2, 3, 1))",
    ])
    + _cases(("nd.repeat", "NDArray.repeat"), X, [
        "mx.nd.repeat(x, repeats=2)", "mx.nd.repeat(x, repeats=2, axis=1)", "mx.nd.repeat(x, repeats=3, axis=-2)",
        "mx.nd.repeat(x, repeats=0)", "mx.nd.repeat(x, repeats=-1)", "mx.nd.repeat(x, repeats=2, axis=2)",
        "mx.nd.repeat(x, repeats=2, axis=-3)", "x.repeat(2, axis=0)", "x.repeat(repeats=3)",
        "mx.nd.repeat(x.astype('int8'), repeats=2, axis=0)",
    ])
    + _cases(("nd.broadcast_to", "NDArray.broadcast_to"), "x = mx.nd.array([[0, 1, 2]])\n", [
        "mx.nd.broadcast_to(x, shape=(2, 3))", "mx.nd.broadcast_to(x, shape=(2, 0))", "mx.nd.broadcast_to(x, shape=(0, 0))",
        "mx.nd.broadcast_to(x, shape=(4, 2, 3))", "mx.nd.broadcast_to(x, shape=(3,))", "mx.nd.broadcast_to(x, shape=(2, 4))",
        "mx.nd.broadcast_to(x, shape=(-1, 3))", "mx.nd.broadcast_to(x)", "x.broadcast_to((4, 2, 3))", "x.broadcast_to((3,))",
        "x.broadcast_to((2, 0))", "x.broadcast_to([5, 3])", "mx.nd.broadcast_to(x.astype('float64'), shape=(3, 3))",
    ])
    + _cases(("nd.broadcast_like", "NDArray.broadcast_like"), "x = mx.nd.array([[0, 1, 2]])\ny = mx.nd.ones((2, 1))\n", [
        "mx.nd.broadcast_like(x, mx.nd.ones((2, 3)))", "mx.nd.broadcast_like(x, mx.nd.ones((4, 2, 3)))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5,)), lhs_axes=(1,), rhs_axes=(0,))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5,)), lhs_axes=(-1,), rhs_axes=(0,))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5,)), lhs_axes=(1,))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5, 4)), lhs_axes=(0, 1), rhs_axes=(1, 0))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5, 4)), lhs_axes=(1, 1), rhs_axes=(1, 0))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5, 4)), lhs_axes=(1,), rhs_axes=(1,))",
        "mx.nd.broadcast_like(y, mx.nd.ones((5, 4)), lhs_axes=(), rhs_axes=())",
        "mx.nd.broadcast_like(y, mx.nd.ones((5, 4)), lhs_axes=(2,), rhs_axes=(1,))",
        "mx.nd.broadcast_like(y, mx.nd.ones((2, 4), dtype='int32'))", "mx.nd.broadcast_like(y, mx.nd.ones((3, 4)))",
        "x.broadcast_like(mx.nd.ones((4, 2, 3)))", "y.broadcast_like(mx.nd.ones((3,)))",
    ])
    + _cases(("nd.broadcast_axis", "nd.broadcast_axes", "NDArray.broadcast_axes"), "x = mx.nd.array([[[1]], [[2]]])\n", [
        "mx.nd.broadcast_axis(x, axis=(1, 2), size=(3, 4))", "mx.nd.broadcast_axis(x, axis=1, size=3)",
        "mx.nd.broadcast_axis(x, axis=-1, size=3)", "mx.nd.broadcast_axis(x, axis=0, size=3)",
        "mx.nd.broadcast_axis(x, axis=3, size=3)", "mx.nd.broadcast_axis(x, axis=(1, 2), size=(3,))",
        "mx.nd.broadcast_axis(x)", "mx.nd.broadcast_axis(x, axis=1, size=-1)", "mx.nd.broadcast_axis(x, axis=(1, 1), size=(3, 4))",
        "mx.nd.broadcast_axes(x, axis=1, size=3)", "x.broadcast_axes(axis=2, size=5)",
    ])
    + _cases(("nd.zeros_like", "nd.ones_like", "NDArray.zeros_like", "NDArray.ones_like"), X, [
        "mx.nd.zeros_like(x)", "mx.nd.ones_like(x)", "mx.nd.zeros_like(x.astype('int8'))", "mx.nd.ones_like(x.astype('float16'))",
        "mx.nd.ones_like(x.astype('bool'))", "x.zeros_like()", "x.ones_like()", "mx.nd.ones_like(x.T)",
    ])
    + _cases(("nd.linspace",), "", [
        "mx.nd.linspace(0, 1, 5)", "mx.nd.linspace(0, 1, 5, endpoint=False)", "mx.nd.linspace(0, 1, 1)",
        "mx.nd.linspace(0, 1, 1, endpoint=False)", "mx.nd.linspace(0, 1, 0)", "mx.nd.linspace(0, 1, -1)",
        "mx.nd.linspace(0, 10, 4, dtype='int32')", "mx.nd.linspace(-1, 1, 4, dtype='int32')",
        "mx.nd.linspace(0.3, 1.7, 49, dtype='float64')", "mx.nd.linspace(0.3, 1.7, 49, endpoint=False, dtype='float64')",
        "mx.nd.linspace(0.1, 0.7, 7)", "mx.nd.linspace(0, 1, 3, dtype='uint8')", "mx.nd.linspace(0, 1, 3, dtype='bool')",
        "mx.nd.linspace(0, 1, 3.5)", "mx.nd.linspace(1, 0, 5)", "mx.nd.linspace(0, 1e9, 3, dtype='float16')",
        "mx.nd.linspace(-3, 7, 6, dtype='int64')", "mx.nd.linspace(2, 3, 5, ctx=mx.cpu())",
    ])
    + _cases(("nd.eye",), "", [
        "mx.nd.eye(3)", "mx.nd.eye(2, 3, 1)", "mx.nd.eye(2, 3, -1)", "mx.nd.eye(2, 3, 5)", "mx.nd.eye(2, 3, -5)",
        "mx.nd.eye(0)", "mx.nd.eye(-1)", "mx.nd.eye(2, -1)", "mx.nd.eye(2, dtype='int32')", "mx.nd.eye(2, dtype='bool')",
        "mx.nd.eye(2, dtype='uint8')", "mx.nd.eye(2, 0, 1)", "mx.nd.eye(4, 2, k=-1, dtype='float64')",
        "mx.nd.eye(3, ctx=mx.cpu())",
    ])
    + _cases(("nd.diag", "NDArray.diag"), X, [
        "mx.nd.diag(x)", "mx.nd.diag(x, k=1)", "mx.nd.diag(x, k=-1)", "mx.nd.diag(x, k=3)", "mx.nd.diag(x, k=-2)",
        "mx.nd.diag(x, k=4)", "mx.nd.diag(x, k=-3)", "mx.nd.diag(mx.nd.array([0, 1, 2]))",
        "mx.nd.diag(mx.nd.array([0, 1, 2]), k=1)", "mx.nd.diag(mx.nd.array([0, 1, 2]), k=-2)",
        "mx.nd.diag(mx.nd.array([0, 1, 2]), axis1=1, axis2=2)", "x.diag(1)", "x.diag(k=-1)", "x.T.diag()",
        "mx.nd.diag(x.astype('int32'))",
    ])
    + _cases(("nd.diag",), X3, [
        "mx.nd.diag(x)", "mx.nd.diag(x, k=1, axis1=1, axis2=2)", "mx.nd.diag(x, axis1=-1, axis2=0)",
        "mx.nd.diag(x, axis1=2, axis2=0)", "mx.nd.diag(x, axis1=1, axis2=1)", "mx.nd.diag(x, axis1=3, axis2=1)",
        "mx.nd.diag(x, k=4, axis1=1, axis2=2)", "mx.nd.diag(x, k=5, axis1=1, axis2=2)",
    ])
    + _cases(("nd.slice_axis", "NDArray.slice_axis"), X, [
        "mx.nd.slice_axis(x, axis=1, begin=1, end=3)", "mx.nd.slice_axis(x, axis=1, begin=-2, end=None)",
        "mx.nd.slice_axis(x, axis=1, begin=0, end=-1)", "mx.nd.slice_axis(x, axis=-1, begin=0, end=2)",
        "mx.nd.slice_axis(x, axis=0, begin=1, end=2)", "mx.nd.slice_axis(x, axis=1, begin=2, end=1)",
        "mx.nd.slice_axis(x, axis=1, begin=1, end=1)", "mx.nd.slice_axis(x, axis=1, begin=0, end=5)",
        "mx.nd.slice_axis(x, axis=1, begin=-5, end=2)", "mx.nd.slice_axis(x, axis=1, begin=3, end=None)",
        "mx.nd.slice_axis(x, axis=2, begin=0, end=1)", "mx.nd.slice_axis(x, axis=1, begin=0)",
        "mx.nd.slice_axis(x, axis=1, end=2)", "x.slice_axis(axis=0, begin=0, end=1)", "x.slice_axis(1, 1, None)",
        "mx.nd.slice_axis(x.astype('int64'), 1, 0, 2)",
    ])
    + _cases(("nd.one_hot", "NDArray.one_hot"), "", [
        "mx.nd.one_hot(mx.nd.array([1, 0, 2, 5, -1]), 3)",
        "mx.nd.one_hot(mx.nd.array([1, 0, 2]), depth=3, on_value=8, off_value=-1, dtype='int32')",
        "mx.nd.one_hot(mx.nd.array([1.7, 0.2, -0.5, 2.9]), depth=3)", "mx.nd.one_hot(mx.nd.array([[1, 0], [2, 1]]), depth=3)",
        "mx.nd.one_hot(mx.nd.array([1, 0], dtype='int32'), depth=3)",
        "mx.nd.one_hot(mx.nd.array([1, 0], dtype='float16'), depth=3)",
        "mx.nd.one_hot(mx.nd.array([1, 0], dtype='uint8'), depth=3)", "mx.nd.one_hot(mx.nd.array([1, 0], dtype='int64'), depth=4)",
        "mx.nd.one_hot(mx.nd.array([1, 0]), depth=0)", "mx.nd.one_hot(mx.nd.array([1, 0]), depth=-1)",
        "mx.nd.one_hot(mx.nd.array([1, 0]), depth=3, dtype='bool')", "mx.nd.one_hot(mx.nd.array([1, 0]), depth=3, dtype='float16')",
        "mx.nd.one_hot(mx.nd.array([1, 0]), depth=3, on_value=1.5, dtype='int32')",
        "mx.nd.one_hot(mx.nd.array([1, 0]), depth=3, on_value=300, dtype='uint8')",
        "mx.nd.one_hot(mx.nd.array([1, 0]), depth=3, on_value=-1.7, dtype='int32')",
        "mx.nd.one_hot(mx.nd.array([1, np.nan]), depth=3)", "mx.nd.array([1, 0]).one_hot(3)",
        "mx.nd.array([2, 0]).one_hot(depth=3, on_value=2.5, off_value=0.5, dtype='float64')",
    ])
    + _cases(("nd.take", "NDArray.take"), X, [
        "mx.nd.take(x, mx.nd.array([1, 0, 1]))", "mx.nd.take(x, mx.nd.array([1, 0, 5, -1, -3]))",
        "mx.nd.take(x, mx.nd.array([1, 0, 5, -1, -3]), mode='wrap')", "mx.nd.take(x, mx.nd.array([1, 0, 5, -1, -3]), mode='raise')",
        "mx.nd.take(x, mx.nd.array([1, 0]), mode='raise')", "mx.nd.take(x, mx.nd.array([1, 0]), mode='foo')",
        "mx.nd.take(x, mx.nd.array([0.7, 1.9, -0.5, 2.5]), axis=1)", "mx.nd.take(x, mx.nd.array([[0, 2], [1, 1]]), axis=1)",
        "mx.nd.take(x, mx.nd.array([[0, 2], [1, 1]]), axis=-1)", "mx.nd.take(x, mx.nd.array([0, 2]), axis=2)",
        "mx.nd.take(x, mx.nd.array([0, 2]), axis=-3)", "mx.nd.take(x, mx.nd.array([0, 2], dtype='int32'), axis=1)",
        "mx.nd.take(x, mx.nd.array([0, 2], dtype='int64'), axis=1)", "mx.nd.take(x, mx.nd.array([0, 2], dtype='uint8'), axis=1)",
        "mx.nd.take(x, mx.nd.array([0, 1], dtype='bool'), axis=1)", "mx.nd.take(x, mx.nd.array([0, 2], dtype='float16'), axis=1)",
        "mx.nd.take(x.astype('int32'), mx.nd.array([0, 2]), axis=1)", "mx.nd.take(x.astype('bool'), mx.nd.array([0, 2]), axis=1)",
        "mx.nd.take(x, mx.nd.array([-4, -7, 7]), axis=1, mode='wrap')",
        "mx.nd.take(x, mx.nd.array([np.nan, 1e20, -1e20]), axis=1)",
        "mx.nd.take(x, mx.nd.array([np.nan, 1e20, -1e20]), axis=1, mode='wrap')",
        "mx.nd.take(x, mx.nd.array([3e9, -3e9]), axis=1, mode='wrap')",
        "x.take(mx.nd.array([1]))", "x.take(mx.nd.array([2, 0]), axis=1, mode='wrap')", "x.T.take(mx.nd.array([2, 0]))",
    ])
    + _cases(("nd.take",), X3, [
        "mx.nd.take(x, mx.nd.array([[2, 0, 1]]), axis=1)", "mx.nd.take(x, mx.nd.array([3, 3, 0]), axis=2)",
    ])
    + _cases(("nd.pick", "NDArray.pick"), X, [
        "mx.nd.pick(x, mx.nd.array([0, 2]))", "mx.nd.pick(x, mx.nd.array([0, 2, 1]), axis=0)",
        "mx.nd.pick(x, mx.nd.array([1, 0, 1]), axis=0)", "mx.nd.pick(x, mx.nd.array([0, 2]), keepdims=True)",
        "mx.nd.pick(x, mx.nd.array([[0], [2]]))", "mx.nd.pick(x, mx.nd.array([[0, 1]]))", "mx.nd.pick(x, mx.nd.array([0, 5]))",
        "mx.nd.pick(x, mx.nd.array([-1, -5]))", "mx.nd.pick(x, mx.nd.array([-1, -5]), mode='wrap')",
        "mx.nd.pick(x, mx.nd.array([0, 5]), mode='raise')", "mx.nd.pick(x, mx.nd.array([1.7, -0.5]))",
        "mx.nd.pick(x, mx.nd.array([0, 2]), axis=2)", "mx.nd.pick(x, mx.nd.array([0, 2]), axis=-2)",
        "mx.nd.pick(x, mx.nd.array([0, 2, 1]), axis=-2)", "mx.nd.pick(x, mx.nd.array([0, 2, 1]))",
        "mx.nd.pick(x, mx.nd.array([0, 2], dtype='int32'))", "mx.nd.pick(x, mx.nd.array([0, 2], dtype='int64'))",
        "mx.nd.pick(x.astype('int64'), mx.nd.array([0, 1], dtype='uint8'))", "mx.nd.pick(x, mx.nd.array([0, 2]), axis=None)",
        "mx.nd.pick(mx.nd.array([0, 1, 2]), mx.nd.array([1]))",
        "mx.nd.pick(mx.nd.array([0, 1, 2]), mx.nd.array([1]), keepdims=True)",
        "x.pick(mx.nd.array([0, 2]))", "x.pick(mx.nd.array([1, 1, 0]), axis=0, keepdims=True)",
        "mx.nd.pick(x, mx.nd.array([np.nan, 1e20]))", "mx.nd.pick(x, mx.nd.array([np.nan, 1e20]), mode='wrap')",
        "mx.nd.pick(x, mx.nd.array([3e9, -3e9]), mode='wrap')",
    ])
    + _cases(("nd.pick",), X3, [
        "mx.nd.pick(x, mx.nd.array([[0, 1, 3], [3, 2, 1]]))",
        "mx.nd.pick(x, mx.nd.array([[0, 1, 3, 2], [3, 2, 1, 0]]), axis=1)",
        "mx.nd.pick(x, mx.nd.array([[0, 1, 3, 2], [3, 2, 1, 0]]), axis=1, keepdims=True)",
    ])
    + [
        Case(code=X + "out = mx.nd.zeros((3, 2))\nmx.nd.swapaxes(x, 0, 1, out=out)\nr = out", names=("nd.swapaxes",)),
        Case(code=X + "out = mx.nd.zeros((2, 6))\nr = mx.nd.tile(x, reps=(1, 2), out=out)", names=("nd.tile",)),
        Case(code=X + "out = mx.nd.zeros((2, 2))\nr = mx.nd.take(x, mx.nd.array([2, 0]), axis=1, out=out)", names=("nd.take",)),
        Case(code=X + "out = mx.nd.zeros((3, 3))\nr = mx.nd.one_hot(mx.nd.array([0, 2, 1]), 3, out=out)", names=("nd.one_hot",)),
        Case(code=X + "r = mx.nd.flip(mx.nd.take(x, mx.nd.array([1, 0])), axis=1) + mx.nd.repeat(x, 1, axis=0)",
             names=("nd.flip", "nd.take", "nd.repeat")),
    ]
)
