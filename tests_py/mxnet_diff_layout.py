"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for the layout operators: pad
(Pad), Reshape (reshape's alias), split (SliceChannel), split_v2, slice (crop), slice_like,
reshape_like, concatenate, moveaxis, depth_to_space, space_to_depth, shape_array,
size_array, gather_nd, scatter_nd, ravel_multi_index, unravel_index, batch_take, Crop,
SequenceMask, SequenceLast, SequenceReverse, choose_element_0index, fill_element_0index,
onehot_encode and their NDArray methods.

Left out, because MXNet reads or writes out of bounds there (its results are garbage or it
crashes): scatter_nd with index tuples outside the result, fill_element_0index with indices
outside a row, batch_take on arrays of more than 2 dimensions, sequence lengths of 0 or past
the time axis; and unravel_index on data of more than 1 dimension (MXNet returns the data).
Nor are concatenate's refusals, which MXNet makes with assert (an AssertionError, which the
differential runner takes for a broken case). mxgo's behaviour there (skip, clamp, zeros) is
in test_ops_layout.py, as are bool inputs where MXNet lacks a kernel (depth_to_space,
split: "Unknown type enum 7").

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.scatter_nd nd.fill_element_0index nd.SequenceMask nd.SequenceLast nd.SequenceReverse: indices outside
  the array and sequence lengths of 0 or past the time axis are skipped or clamped, where MXNet 1.9.1 reads or
  writes out of bounds.
- nd.unravel_index: data of more than one dimension is unravelled element by element, where MXNet 1.9.1
  returns the data.
- nd.batch_take: arrays of more than 2 dimensions take one index per row of the last axis (ValueError for
  another count), where MXNet 1.9.1 reads out of bounds.
- nd.depth_to_space nd.split: bool arrays work, where MXNet 1.9.1 has no kernel ("Unknown type enum 7").
"""
from mxnet_diff import Case

X3 = "x = mx.nd.array(np.arange(24).reshape(2, 3, 4))\n"
X4 = "x = mx.nd.array(np.arange(120).reshape(2, 3, 4, 5))\n"
X5 = "x = mx.nd.array(np.arange(48).reshape(2, 3, 2, 2, 2))\n"
D2S = "x = mx.nd.array(np.arange(96).reshape(2, 8, 2, 3))\n"
S2D = "x = mx.nd.array(np.arange(96).reshape(2, 2, 4, 6))\n"
SEQ = "x = mx.nd.array(np.arange(24).reshape(2, 3, 4))\nn = mx.nd.array([1, 2, 1])\n"
IMG = "x = mx.nd.array(np.arange(180).reshape(2, 3, 5, 6))\n"


def _cases(names, setup, lines):
    return [Case(code=setup + "r = " + line, names=names) for line in lines]


PW = "pad_width=(0, 0, 0, 0, 1, 2, 2, 1)"

CASES = (
    _cases(("nd.pad", "nd.Pad", "NDArray.pad"), X4, [
        "mx.nd.pad(x, mode='constant', %s, constant_value=3)" % PW, "mx.nd.pad(x, mode='constant', %s)" % PW,
        "mx.nd.pad(x, mode='edge', %s)" % PW, "mx.nd.pad(x, mode='reflect', %s)" % PW,
        "mx.nd.Pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 3, 3, 4, 4))",
        "mx.nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 4, 1, 2, 2))",
        "mx.nd.pad(x, mode='constant', pad_width=(0, 0, 1, 0, 1, 1, 2, 2))",
        "mx.nd.pad(x, mode='constant', pad_width=(1, 0, 0, 0, 1, 1, 2, 2))",
        "mx.nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 1))", "mx.nd.pad(x, mode='wrap', %s)" % PW,
        "mx.nd.pad(x, %s)" % PW, "mx.nd.pad(x, mode='constant')", "mx.nd.pad(x[0], mode='constant', pad_width=(0, 0, 1, 1, 2, 2))",
        "mx.nd.pad(x.astype('int32'), mode='constant', %s)" % PW, "mx.nd.pad(x.astype('uint8'), mode='edge', %s)" % PW,
        "mx.nd.pad(x.astype('float16'), mode='constant', %s, constant_value=2.7)" % PW,
        "mx.nd.pad(x.astype('float64'), mode='reflect', %s)" % PW,
        "x.pad(mode='edge', %s)" % PW, "x.pad('constant', %s, 1.5)" % PW,
    ])
    + _cases(("nd.pad",), X5, [
        "mx.nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 2, 2, 1, 0))",
        "mx.nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 1, 0, 0, 1, 1, 1))",
        "mx.nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 0, 0, 1, 1, 1), constant_value=-1)",
    ])
    + _cases(("nd.split", "nd.SliceChannel", "NDArray.split"), X3, [
        "mx.nd.split(x, num_outputs=3, axis=1)", "mx.nd.split(x, num_outputs=3, axis=1, squeeze_axis=True)",
        "mx.nd.split(x, num_outputs=1, axis=1)", "mx.nd.split(x, num_outputs=2, axis=1)", "mx.nd.split(x, num_outputs=2)",
        "mx.nd.split(x, num_outputs=2, axis=-1)", "mx.nd.split(x, num_outputs=4, axis=-1, squeeze_axis=1)",
        "mx.nd.split(x, num_outputs=2, axis=3)", "mx.nd.split(x, num_outputs=2, axis=2, squeeze_axis=True)",
        "mx.nd.split(x, 2, 0)", "mx.nd.split(x, num_outputs=0, axis=1)", "mx.nd.split(x)",
        "mx.nd.SliceChannel(x, num_outputs=2, axis=0)", "mx.nd.SliceChannel(x, num_outputs=2)",
        "mx.nd.split(x.astype('int64'), num_outputs=2, axis=2)",
        "x.split(num_outputs=3)", "x.split(2, axis=0, squeeze_axis=True)",
    ])
    + _cases(("nd.split_v2", "NDArray.split_v2"), X3, [
        "mx.nd.split_v2(x, 3, axis=1)", "mx.nd.split_v2(x, (1, 3), axis=2)", "mx.nd.split_v2(x, (1,), axis=2)",
        "mx.nd.split_v2(x, 1, axis=2)", "mx.nd.split_v2(x, (3, 1), axis=2)", "mx.nd.split_v2(x, (1, 5), axis=2)",
        "mx.nd.split_v2(x, 5, axis=2)", "mx.nd.split_v2(x, 2)", "mx.nd.split_v2(x, [1, 3], axis=2)",
        "mx.nd.split_v2(x, (1, 2, 3), axis=2, squeeze_axis=True)", "mx.nd.split_v2(x, 4, axis=-1, squeeze_axis=True)",
        "mx.nd.split_v2(x, (1, 1, 2), axis=2, squeeze_axis=True)", "x.split_v2(3, axis=1)", "x.split_v2((1,), 0)",
    ])
    + _cases(("nd.slice", "nd.crop", "NDArray.slice"), X3, [
        "mx.nd.slice(x, begin=(0, 1), end=(2, 3))", "mx.nd.slice(x, begin=(None, 1), end=(None, None), step=(None, -1))",
        "mx.nd.slice(x, begin=(1,), end=(0,), step=(-1,))", "mx.nd.slice(x, begin=(0, 2), end=(2, 1))",
        "mx.nd.slice(x, begin=(0,), end=(2, 3))", "mx.nd.slice(x, begin=(0, 0, 0, 0), end=(1, 1, 1, 1))",
        "mx.nd.slice(x, begin=(-1, -2), end=(None, None))", "mx.nd.slice(x, begin=(0, 5), end=(2, 7))",
        "mx.nd.slice(x, begin=(0, 0), end=(2, 3), step=(1, 0))", "mx.nd.slice(x, begin=(0, 0), end=(2, 3), step=(1, 2, 3))",
        "mx.nd.slice(x, begin=(0, -10), end=(2, 10))", "mx.nd.slice(x, begin=(0, 0), end=(2, 3), step=(1,))",
        "mx.nd.slice(x, begin=(None, None, 3), end=(None, None, None), step=(None, None, -2))",
        "mx.nd.slice(x, begin=(), end=())", "mx.nd.slice(x, begin=(-10,), end=(None,), step=(-1,))",
        "mx.nd.slice(x, begin=(None,), end=(-10,), step=(-1,))",
        "mx.nd.slice(x, begin=(1, 2, 3), end=(-3, -4, -5), step=(-1, -1, -2))",
        "mx.nd.slice(x, begin=(0, 1), end=(2, 3), step=(2, 5))", "mx.nd.slice(x, (0, 1), (2, 3))", "mx.nd.slice(x, begin=(0, 1))",
        "mx.nd.crop(x, begin=(0, 1), end=(2, 3))", "mx.nd.slice(x.astype('int8'), begin=(1,), end=(2,))",
        "x.slice(begin=(0, 1), end=(2, 3))", "x.slice((0, None, 1), (1, None, None), (1, -1, 2))",
    ])
    + _cases(("nd.slice_like", "NDArray.slice_like"), X3, [
        "mx.nd.slice_like(x, mx.nd.zeros((1, 2)))", "mx.nd.slice_like(x, mx.nd.zeros((1, 2)), axes=(0,))",
        "mx.nd.slice_like(x, mx.nd.zeros((1, 2)), axes=(-1,))", "mx.nd.slice_like(x, mx.nd.zeros((1, 2, 3, 4)))",
        "mx.nd.slice_like(x, mx.nd.zeros((1, 2, 3)), axes=(2,))", "mx.nd.slice_like(x, mx.nd.zeros((1, 5)), axes=(0,))",
        "mx.nd.slice_like(x, mx.nd.zeros((1, 2)), axes=(3,))", "mx.nd.slice_like(x, mx.nd.zeros((1, 5)), axes=(1,))",
        "mx.nd.slice_like(x, mx.nd.zeros((1, 5, 2)))", "mx.nd.slice_like(x, mx.nd.zeros((1, 2, 2)), axes=(0, -1))",
        "mx.nd.slice_like(x, mx.nd.zeros((1, 2, 2)), axes=(0, 0))", "mx.nd.slice_like(x, mx.nd.zeros((2, 2, 3), dtype='int32'))",
        "x.slice_like(mx.nd.zeros((1, 3, 2)))", "x.slice_like(mx.nd.zeros((1, 3, 2)), axes=(2,))",
    ])
    + _cases(("nd.reshape_like", "NDArray.reshape_like"), X3, [
        "mx.nd.reshape_like(x, mx.nd.zeros((4, 6)))", "mx.nd.reshape_like(x, mx.nd.zeros((4, 7)))",
        "mx.nd.reshape_like(x, mx.nd.zeros((6, 4)), lhs_begin=1, lhs_end=None, rhs_begin=0, rhs_end=1)",
        "mx.nd.reshape_like(x, mx.nd.zeros((12, 2)), lhs_begin=-2, rhs_begin=0, rhs_end=1)",
        "mx.nd.reshape_like(x, mx.nd.zeros((5,)), lhs_begin=0, lhs_end=0, rhs_begin=0, rhs_end=1)",
        "mx.nd.reshape_like(x, mx.nd.zeros((3,)), lhs_begin=3, rhs_begin=0, rhs_end=0)",
        "mx.nd.reshape_like(x, mx.nd.zeros((3,)), rhs_begin=0, rhs_end=0)",
        "mx.nd.reshape_like(x, mx.nd.zeros((6, 4)), lhs_begin=-4, lhs_end=-1)",
        "mx.nd.reshape_like(x, mx.nd.zeros((6, 4)), lhs_begin=0, lhs_end=4)",
        "mx.nd.reshape_like(x, mx.nd.zeros((3, 2, 2)), lhs_begin=1, rhs_begin=1)",
        "mx.nd.reshape_like(x, mx.nd.zeros((2, 6, 2)), lhs_begin=1, lhs_end=3, rhs_begin=1, rhs_end=2)",
        "mx.nd.reshape_like(x, mx.nd.zeros((6, 4)), lhs_begin=0.5)", "x.reshape_like(mx.nd.zeros((8, 3)))",
        "mx.nd.reshape_like(x.astype('int32'), mx.nd.zeros((24,), dtype='float16'))",
    ])
    + _cases(("nd.Reshape",), X3, [
        "mx.nd.Reshape(x, shape=(4, -1))", "mx.nd.Reshape(x, (0, -3))", "mx.nd.Reshape(x, shape=(-4, 1, 2, -2))",
        "mx.nd.Reshape(x, shape=(-1, 3), reverse=True)", "mx.nd.Reshape(x, shape=(-1, -1))",
        "mx.nd.Reshape(x.astype('int32'), shape=(24,))",
    ])
    + _cases(("nd.concatenate",), X3, [
        "mx.nd.concatenate([x, x])", "mx.nd.concatenate([x, x * 2], axis=2)", "mx.nd.concatenate([x])",
        "mx.nd.concatenate([x], always_copy=False)", "mx.nd.concatenate([x, x], axis=-1)",
        "mx.nd.concatenate([x, x[:, :2]], axis=1)", "mx.nd.concatenate([x.astype('int64'), x.astype('int64')], 1, False)",
    ])
    + _cases(("nd.moveaxis",), X3, [
        "mx.nd.moveaxis(x, 0, 2)", "mx.nd.moveaxis(x, -1, 0)", "mx.nd.moveaxis(x, (0, 1), (1, 2))", "mx.nd.moveaxis(x, 3, 0)",
        "mx.nd.moveaxis(x, [0, 1], [2, 0])", "mx.nd.moveaxis(x, (0, 0), (1, 2))", "mx.nd.moveaxis(x, (0, 1), (1,))",
        "mx.nd.moveaxis(x, 0, -4)", "mx.nd.moveaxis(x.astype('uint8'), 2, 0)",
    ])
    + _cases(("nd.shape_array", "nd.size_array", "NDArray.shape_array", "NDArray.size_array"), X3, [
        "mx.nd.shape_array(x)", "mx.nd.size_array(x)", "x.shape_array()", "x.size_array()",
        "mx.nd.shape_array(x.astype('int8'))", "mx.nd.shape_array(x.astype('bool'))", "mx.nd.size_array(x[0])",
        "mx.nd.shape_array(mx.nd.ones((7,)))",
    ])
    + _cases(("nd.depth_to_space", "NDArray.depth_to_space"), D2S, [
        "mx.nd.depth_to_space(x, 2)", "mx.nd.depth_to_space(x, block_size=1)", "mx.nd.depth_to_space(x, 3)",
        "mx.nd.depth_to_space(x[0], 2)", "mx.nd.depth_to_space(x, 0)", "mx.nd.depth_to_space(x, -1)", "mx.nd.depth_to_space(x)",
        "mx.nd.depth_to_space(x.astype('int32'), 2)", "x.depth_to_space(2)",
    ])
    + _cases(("nd.space_to_depth", "NDArray.space_to_depth"), S2D, [
        "mx.nd.space_to_depth(x, 2)", "mx.nd.space_to_depth(x, 4)", "mx.nd.space_to_depth(x, block_size=1)",
        "mx.nd.space_to_depth(x.astype('float16'), 2)", "mx.nd.space_to_depth(x, 0)", "x.space_to_depth(2)",
        "mx.nd.depth_to_space(mx.nd.space_to_depth(x, 2), 2)",
    ])
    + _cases(("nd.gather_nd",), X3, [
        "mx.nd.gather_nd(x, mx.nd.array([[0, 1], [1, 2]]))", "mx.nd.gather_nd(x, mx.nd.array([[0, 1], [1, -1]]))",
        "mx.nd.gather_nd(x, mx.nd.array([[0, 1], [1, 5]]))",
        "mx.nd.gather_nd(x, mx.nd.array([[0, 1, 1], [1, 2, 3], [0, 0, 0]], dtype='int64'))",
        "mx.nd.gather_nd(x, mx.nd.array([[0, 1, 1], [1, 2, 0], [0, 3, 2]], dtype='int64'))",
        "mx.nd.gather_nd(x, mx.nd.array([[0, 1, 1, 0], [1, 2, 3, 0], [0, 0, 0, 0], [1, 1, 1, 1]]))",
        "mx.nd.gather_nd(x, mx.nd.array([1, 0]))", "mx.nd.gather_nd(x, mx.nd.array([[1.7, 0.2]]))",
        "mx.nd.gather_nd(x.astype('int32'), mx.nd.array([[1], [0]], dtype='int32'))", "mx.nd.gather_nd(x, mx.nd.array([[2], [0]]))",
        "mx.nd.gather_nd(x, mx.nd.array([[-3], [0]]))", "mx.nd.gather_nd(x, mx.nd.array([[-1], [0]]))",
        "mx.nd.gather_nd(x, mx.nd.array([[1], [0]], dtype='uint8'))", "mx.nd.gather_nd(x.astype('bool'), mx.nd.array([[1], [0]]))",
        "mx.nd.gather_nd(x, mx.nd.array([[[0, 1], [1, 0]], [[2, 0], [1, 1]]]))", "mx.nd.gather_nd(x, mx.nd.array([[0.9, -1.5]]))",
    ])
    + _cases(("nd.scatter_nd",), "", [
        "mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[0, 1], [1, 2]]), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[0, 0], [1, 1]]), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([[1, 2, 3], [4, 5, 6]]), mx.nd.array([[0, 1]]), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[0, 1], [1, -1]]), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2, 3]), mx.nd.array([[0, 1], [1, 2]]), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[0, 1], [1, 2]]))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2], dtype='int32'), mx.nd.array([[0, 1], [1, 2]], dtype='int64'), shape=(2, 3))",
        "mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[0, 1], [1, 2]]), shape=(2, 3, 2))",
        "mx.nd.scatter_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[0, 1], [1, 2]]), shape=(2, 3, 2))",
        "mx.nd.scatter_nd(mx.nd.array(np.arange(8).reshape(2, 4)), mx.nd.array([[1, 0]]), shape=(2, 4))",
        "mx.nd.scatter_nd(mx.nd.array([1.5, 2.5], dtype='float64'), mx.nd.array([[0.7, 1.2], [2.9, 0]]), shape=(2, 3))",
    ])
    + _cases(("nd.ravel_multi_index", "nd.unravel_index"), "", [
        "mx.nd.ravel_multi_index(mx.nd.array([[3, 6, 6], [4, 5, 1]]), shape=(7, 6))",
        "mx.nd.ravel_multi_index(mx.nd.array([[3, 6, 6], [4, 5, 1]]), shape=(7, 6, 2))",
        "mx.nd.ravel_multi_index(mx.nd.array([[3, 9, 6], [4, 5, -1]]), shape=(7, 6))",
        "mx.nd.ravel_multi_index(mx.nd.array([3, 4]), shape=(7, 6))",
        "mx.nd.ravel_multi_index(mx.nd.array([[3, 6, 6], [4, 5, 1]], dtype='int32'), shape=(7, 6))",
        "mx.nd.ravel_multi_index(mx.nd.array([[1, 2], [0, 1], [3, 2.5]]), shape=(2, 3, 4))",
        "mx.nd.ravel_multi_index(mx.nd.array([[3, 6, 6], [4, 5, 1]]))",
        "mx.nd.unravel_index(mx.nd.array([22, 41, 37]), shape=(7, 6))",
        "mx.nd.unravel_index(mx.nd.array([22, 41, 37]), shape=(7, -1))",
        "mx.nd.unravel_index(mx.nd.array([22, 43, -1]), shape=(7, 6))",
        "mx.nd.unravel_index(mx.nd.array([22, 41, 37]))", "mx.nd.unravel_index(mx.nd.array([22.7, 41, 37]), shape=(7, 6))",
        "mx.nd.unravel_index(mx.nd.array([5, 17, 23], dtype='int32'), shape=(2, 3, 4))",
        "mx.nd.unravel_index(mx.nd.ravel_multi_index(mx.nd.array([[1, 0], [2, 1], [3, 0]]), shape=(2, 3, 4)), shape=(2, 3, 4))",
    ])
    + _cases(("nd.batch_take",), "a = mx.nd.array(np.arange(6).reshape(3, 2))\n", [
        "mx.nd.batch_take(a, mx.nd.array([0, 1, 0], dtype='int32'))", "mx.nd.batch_take(a, mx.nd.array([0, 5, -1], dtype='int32'))",
        "mx.nd.batch_take(a, mx.nd.array([0, 1, 0]))", "mx.nd.batch_take(a, mx.nd.array([0, 1, 0], dtype='int64'))",
        "mx.nd.batch_take(a, mx.nd.array([0, 1], dtype='int32'))",
        "mx.nd.batch_take(a.astype('int64'), mx.nd.array([[0, 1, 0]], dtype='int32'))",
    ])
    + _cases(("nd.choose_element_0index", "nd.fill_element_0index"), "a = mx.nd.array(np.arange(6).reshape(3, 2))\n", [
        "mx.nd.choose_element_0index(a, mx.nd.array([0, 1, 0]))", "mx.nd.choose_element_0index(a, mx.nd.array([0, 1]), axis=0)",
        "mx.nd.choose_element_0index(a, mx.nd.array([5, -1, 0]), mode='wrap')",
        "mx.nd.choose_element_0index(a, mx.nd.array([[0], [1], [1]]), keepdims=True)",
        "mx.nd.fill_element_0index(a, mx.nd.array([7, 8, 9]), mx.nd.array([0, 1, 1]))",
        "mx.nd.fill_element_0index(a, mx.nd.array([7, 8, 9]), mx.nd.array([0.9, 1.9, 0]))",
        "mx.nd.fill_element_0index(a, mx.nd.array([7, 8]), mx.nd.array([0, 1]))",
        "mx.nd.fill_element_0index(mx.nd.ones((3, 2, 2)), mx.nd.array([7, 8, 9]), mx.nd.array([0, 1, 0]))",
        "mx.nd.fill_element_0index(a.astype('int32'), mx.nd.array([7, 8, 9]), mx.nd.array([0, 1, 0]))",
        "mx.nd.fill_element_0index(a.astype('float64'), mx.nd.array([7, 8, 9], dtype='float64'), "
        "mx.nd.array([0, 1, 0], dtype='float64'))",
        "mx.nd.fill_element_0index(a, mx.nd.array([7, 8, 9]), mx.nd.array([0, 1, 0], dtype='int32'))",
        "mx.nd.batch_take(a.astype('float16'), mx.nd.array([1, 0, 1], dtype='int32'))",
    ])
    + _cases(("nd.onehot_encode",), "o = mx.nd.zeros((3, 4))\n", [
        "mx.nd.onehot_encode(mx.nd.array([0, 2, 1]), o)", "mx.nd.onehot_encode(mx.nd.array([0, 2, 7]), o)",
        "mx.nd.onehot_encode(mx.nd.array([0, 2, -1]), o)", "mx.nd.onehot_encode(mx.nd.array([0, 2]), o)",
        "mx.nd.onehot_encode(mx.nd.array([0, 2, 1]), mx.nd.zeros((3, 4), dtype='int32'))",
        "mx.nd.onehot_encode(mx.nd.array([0, 2, 1], dtype='int32'), o)", "mx.nd.onehot_encode(mx.nd.array([0, 2.7, 1]), o)",
        "mx.nd.onehot_encode(mx.nd.array([[0, 2, 1]]), o)", "(mx.nd.onehot_encode(mx.nd.array([3, 0, 1]), o), o)[1]",
    ])
    + _cases(("nd.Crop",), IMG, [
        "mx.nd.Crop(x, num_args=1, h_w=(2, 3))", "mx.nd.Crop(x, num_args=1, h_w=(2, 3), offset=(1, 2))",
        "mx.nd.Crop(x, num_args=1, h_w=(2, 3), center_crop=True)", "mx.nd.Crop(x, mx.nd.zeros((1, 1, 3, 2)), num_args=2)",
        "mx.nd.Crop(x, mx.nd.zeros((1, 1, 3, 2)), num_args=2, center_crop=True)",
        "mx.nd.Crop(x, mx.nd.zeros((1, 1, 3, 2)), num_args=2, offset=(2, 4))",
        "mx.nd.Crop(x, mx.nd.zeros((1, 1, 3, 2)), num_args=2, offset=(3, 4))", "mx.nd.Crop(x, num_args=1)",
        "mx.nd.Crop(x, h_w=(2, 3))", "mx.nd.Crop(x, num_args=1, h_w=(6, 3))",
        "mx.nd.Crop(x, num_args=1, h_w=(2, 3), offset=(4, 0))",
        "mx.nd.Crop(x, mx.nd.zeros((1, 1, 3, 2)), num_args=1, h_w=(2, 3))", "mx.nd.Crop(x[0], num_args=1, h_w=(2, 3))",
        "mx.nd.Crop(x.astype('int32'), num_args=1, h_w=(2, 3))", "mx.nd.Crop(x, num_args=3, h_w=(2, 3))",
        "mx.nd.Crop(x, num_args=1, h_w=(2, 3), center_crop=True, offset=(1, 1))",
        "mx.nd.Crop(mx.nd.array(np.arange(210).reshape(2, 3, 5, 7)), num_args=1, h_w=(2, 4), center_crop=True)",
    ])
    + _cases(("nd.SequenceMask",), SEQ, [
        "mx.nd.SequenceMask(x, n, use_sequence_length=True, value=-1)", "mx.nd.SequenceMask(x)",
        "mx.nd.SequenceMask(x, mx.nd.array([1, 2]), use_sequence_length=True, axis=1)",
        "mx.nd.SequenceMask(x, mx.nd.array([1, 2, 3, 0]), use_sequence_length=True, axis=1)",
        "mx.nd.SequenceMask(x, mx.nd.array([1, 2]), use_sequence_length=True, axis=2)",
        "mx.nd.SequenceMask(x, use_sequence_length=True)", "mx.nd.SequenceMask(x.astype('int32'), n, use_sequence_length=True)",
        "mx.nd.SequenceMask(x, mx.nd.array([1.5, 0.2, 2]), use_sequence_length=True)",
        "mx.nd.SequenceMask(x, mx.nd.array([1, 2, 1], dtype='int32'), use_sequence_length=True, value=7)",
        "mx.nd.SequenceMask(x, mx.nd.array([[1, 2, 1]]), use_sequence_length=True)",
        "mx.nd.SequenceMask(x.astype('float16'), n, use_sequence_length=True, value=2.5)",
        "mx.nd.SequenceMask(x, n, use_sequence_length=True, axis=-1)",
        "mx.nd.SequenceMask(mx.nd.array(np.arange(6).reshape(2, 3)), mx.nd.array([1, 2, 0]), use_sequence_length=True)",
        "mx.nd.SequenceMask(mx.nd.array(np.arange(6).reshape(2, 3)), mx.nd.array([1, 2]), use_sequence_length=True, axis=1)",
    ])
    + _cases(("nd.SequenceLast",), SEQ, [
        "mx.nd.SequenceLast(x)", "mx.nd.SequenceLast(x, n, use_sequence_length=True)",
        "mx.nd.SequenceLast(x, mx.nd.array([1, 2]), use_sequence_length=True, axis=1)", "mx.nd.SequenceLast(x, axis=1)",
        "mx.nd.SequenceLast(x, n, use_sequence_length=True, axis=2)", "mx.nd.SequenceLast(mx.nd.arange(3))",
        "mx.nd.SequenceLast(mx.nd.array(np.arange(6).reshape(3, 2)))", "mx.nd.SequenceLast(x.astype('int64'))",
        "mx.nd.SequenceLast(x, mx.nd.array([2, 1.9, 1]), use_sequence_length=True)",
        "mx.nd.SequenceLast(x, use_sequence_length=True)",
    ])
    + _cases(("nd.SequenceReverse",), SEQ, [
        "mx.nd.SequenceReverse(x)", "mx.nd.SequenceReverse(x, n, use_sequence_length=True)",
        "mx.nd.SequenceReverse(x, n, use_sequence_length=True, axis=1)", "mx.nd.SequenceReverse(x, axis=1)",
        "mx.nd.SequenceReverse(x.astype('int32'))", "mx.nd.SequenceReverse(mx.nd.array(np.arange(30).reshape(5, 3, 2)), "
        "mx.nd.array([5, 3, 1]), use_sequence_length=True)", "mx.nd.SequenceReverse(x, n)",
    ])
)
