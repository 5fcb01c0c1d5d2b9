"""The layout operators (pad, split, split_v2, slice, slice_like, reshape_like, concatenate,
moveaxis, depth_to_space, space_to_depth, shape_array, size_array, gather_nd, scatter_nd,
ravel_multi_index, unravel_index, batch_take, Crop, SequenceMask/Last/Reverse,
choose_element_0index, fill_element_0index, onehot_encode) against NumPy, on what MXNet
cannot check (mxnet_diff_layout.py compares the rest with MXNet 1.9.1): every dtype,
strided and negative-stride inputs, out=, NumPy arrays taken by DLPack, size-0 results,
and mxgo's defined behaviour where MXNet reads or writes out of bounds.
"""
import numpy as np
import pytest

import mxgo as mx
from api_helpers import ALL_DTYPES, assert_bits, name, sample
from test_ops_shape import nd, sliced

LAYOUTS = ("contiguous", "strided")


def make(a, layout):
    return nd(a) if layout == "contiguous" else sliced(a)


def d2s(a, b):
    """NumPy depth_to_space (DCR), as MXNet's doc defines it."""
    n, c, h, w = a.shape
    return a.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)


def s2d(a, b):
    n, c, h, w = a.shape
    return a.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


# --------------------------------------------------------------------------- every dtype

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_moves_every_dtype(dtype, layout):
    a = sample(dtype, (2, 8, 2, 4))
    x = make(a, layout)
    assert_bits(mx.nd.slice(x, begin=(None, 1, None), end=(None, None, 0), step=(None, 3, -1)), a[:, 1::3, :0:-1])
    assert_bits(mx.nd.depth_to_space(x, 2), d2s(a, 2))
    assert_bits(mx.nd.space_to_depth(x, 2), s2d(a, 2))
    parts = mx.nd.split(x, num_outputs=4, axis=1)
    for got, want in zip(parts, np.split(a, 4, axis=1)):
        assert_bits(got, want)
    for got, want in zip(mx.nd.split_v2(x, (1, 5), axis=1), np.split(a, (1, 5), axis=1)):
        assert_bits(got, want)
    assert_bits(mx.nd.slice_like(x, mx.nd.zeros((1, 3, 2, 2)), axes=(1, 3)), a[:, :3, :, :2])
    assert_bits(mx.nd.reshape_like(x, mx.nd.zeros((4, 4)), lhs_begin=1, lhs_end=3), a.reshape(2, 4, 4, 4))
    assert_bits(mx.nd.gather_nd(x, mx.nd.array([[1, 0, -1], [7, 0, 2]])), a[[1, 0, 1], [7, 0, 2]])
    assert_bits(mx.nd.moveaxis(x, 0, -1), np.moveaxis(a, 0, -1))
    assert_bits(mx.nd.SequenceReverse(x), a[::-1])
    assert_bits(mx.nd.SequenceLast(x, axis=1), a[:, -1])


@pytest.mark.parametrize("dtype", (np.float16, np.float32, np.float64), ids=name)
@pytest.mark.parametrize("mode", ("constant", "edge", "reflect"))
@pytest.mark.parametrize("layout", LAYOUTS)
def test_pad_like_numpy(dtype, mode, layout):
    a = (np.arange(2 * 3 * 4 * 5 * 3) % 17).astype(dtype).reshape(2, 3, 4, 5, 3)
    width = ((0, 0), (0, 0), (3, 1), (0, 4), (2, 2))
    kw = {"constant_values": 1.5} if mode == "constant" else {}
    got = mx.nd.pad(make(a, layout), mode=mode, pad_width=sum(width, ()), constant_value=1.5)
    assert_bits(got, np.pad(a, width, mode=mode, **kw))


def test_pad_bfloat16_and_out():
    a = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    x = mx.nd.array(a).astype("bfloat16")
    got = mx.nd.pad(x, mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 1, 1))
    assert got.dtype == x.dtype
    assert_bits(got.astype("float32"), np.pad(a, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="edge"))
    big = mx.nd.zeros((1, 2, 10, 12))
    out = big[:, :, ::2, ::2]  # a strided out=
    mx.nd.pad(mx.nd.array(a), mode="reflect", pad_width=(0, 0, 0, 0, 1, 1, 1, 1), out=out)
    assert_bits(big.asnumpy()[:, :, ::2, ::2], np.pad(a, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect"))
    assert big.asnumpy()[:, :, 1::2].sum() == 0


# ------------------------------------------------------------------- out=, DLPack, size 0

def test_out_and_numpy_inputs():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    outs = [mx.nd.zeros((2, 1, 4)) for _ in range(3)]
    got = mx.nd.split(a, num_outputs=3, out=outs)  # a NumPy input, by DLPack
    assert all(g is o for g, o in zip(got, outs))
    for o, want in zip(outs, np.split(a, 3, axis=1)):
        assert_bits(o, want)
    out = np.zeros((2, 2, 4), np.float32)
    mx.nd.slice(a, begin=(0, 1), end=(2, 3), out=out)  # a NumPy out=
    assert_bits(out, a[:, 1:3])
    idx = np.array([[1, 0], [2, 0]], np.int64)
    assert_bits(mx.nd.gather_nd(a, idx), a[[1, 0], [2, 0]])
    with pytest.raises(TypeError):
        mx.nd.split(a, num_outputs=3, out=outs[:2])


def test_size_zero_results():
    x = mx.nd.array(np.arange(12.0).reshape(3, 4))
    assert mx.nd.slice(x, begin=(2,), end=(1,)).shape == (0, 4)
    parts = mx.nd.split_v2(x, (1, 1), axis=1)
    assert [p.shape for p in parts] == [(3, 1), (3, 0), (3, 3)]
    assert mx.nd.shape_array(mx.nd.zeros((0, 3))).asnumpy().tolist() == [0, 3]
    assert mx.nd.size_array(mx.nd.zeros((0, 3))).asnumpy().tolist() == [0]
    z = np.zeros((1, 1, 0, 2), np.float32)
    got = mx.nd.pad(nd(z), mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 0), constant_value=2)
    assert_bits(got, np.pad(z, ((0, 0), (0, 0), (1, 1), (1, 0)), constant_values=2))
    with pytest.raises(ValueError):  # as NumPy: no edge to repeat
        mx.nd.pad(nd(z), mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 0, 0))
    with pytest.raises(ValueError):  # more parts than elements: refused, not 2**40 empty arrays
        mx.nd.split(mx.nd.zeros((2, 0)), num_outputs=2 ** 40)
    with pytest.raises(ValueError):
        mx.nd.depth_to_space(mx.nd.zeros((1, 4, 1, 1)), 2 ** 33)


def test_many_parts():
    a = np.arange(80.0).reshape(2, 40)
    parts = mx.nd.split_v2(nd(a), tuple(range(1, 40)), axis=1)  # more starts than dimensions
    assert len(parts) == 40
    assert_bits(mx.nd.concatenate(parts, axis=1), a)
    assert [p.shape for p in mx.nd.split_v2(nd(a), 40, axis=1, squeeze_axis=True)] == [(2,)] * 40


# ------------------------------------------------- scatter and gather: where MXNet is unsafe

@pytest.mark.parametrize("layout", LAYOUTS)
def test_scatter_nd(layout):
    data = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    idx = np.array([[0, 2, 5], [1, 0, 1]], np.float32)  # tuple (5, 1) is outside: skipped
    got = mx.nd.scatter_nd(make(data, layout), make(idx, layout), shape=(3, 2, 4))
    want = np.zeros((3, 2, 4))
    want[0, 1], want[2, 0] = data[0], data[1]
    assert_bits(got, want)
    assert_bits(mx.nd.gather_nd(got, mx.nd.array([[0, 2], [1, 0]])), data[:2])


def test_index_conversions():
    flat = mx.nd.array([22, 41, 37, 1], dtype="int64")
    coords = mx.nd.unravel_index(flat, shape=(7, 6))
    assert_bits(coords, np.array(np.unravel_index([22, 41, 37, 1], (7, 6)), np.int64))
    assert_bits(mx.nd.ravel_multi_index(coords, shape=(7, 6)), flat.asnumpy())
    # data of more than 1 dimension: NumPy's layout (MXNet 1.9.1 returns its input there)
    two = mx.nd.unravel_index(mx.nd.array([[22, 41], [37, 1]], dtype="int32"), shape=(7, 6))
    assert_bits(two, np.array(np.unravel_index([[22, 41], [37, 1]], (7, 6)), np.int32))
    with pytest.raises(ValueError):
        mx.nd.unravel_index(flat, shape=(7, 0))


def test_row_element_ops():
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    got = mx.nd.fill_element_0index(mx.nd.array(a), mx.nd.array([7, 8, 9]), mx.nd.array([0, 5, -1]))
    want = a.copy()
    want[0, 0] = 7  # the rows whose index is outside stay as they were
    assert_bits(got, want)
    assert_bits(mx.nd.batch_take(sliced(a), mx.nd.array([1, 9, -3], dtype="int32")), np.array([1, 3, 4], np.float32))
    with pytest.raises(ValueError):  # more indices than rows: MXNet reads past the array
        mx.nd.batch_take(mx.nd.ones((2, 3, 2)), mx.nd.array([0] * 6, dtype="int32"))
    assert_bits(mx.nd.choose_element_0index(mx.nd.array(a), mx.nd.array([1, 0, 1])), a[[0, 1, 2], [1, 0, 1]])
    out = mx.nd.ones((3, 3))
    assert mx.nd.onehot_encode(mx.nd.array([2, 0, 9]), out) is out
    assert_bits(out, np.array([[0, 0, 1], [1, 0, 0], [0, 0, 0]], np.float32))


# ---------------------------------------------------------------------------- sequences

@pytest.mark.parametrize("layout", LAYOUTS)
def test_sequences(layout):
    a = np.arange(4 * 3 * 2, dtype=np.int32).reshape(4, 3, 2)
    x, n = make(a, layout), mx.nd.array([2, 0, 7])  # 0 and 7 (> T): out of bounds in MXNet
    mask = a.copy()
    mask[2:, 0], mask[:, 1] = -1, -1
    assert_bits(mx.nd.SequenceMask(x, n, use_sequence_length=True, value=-1), mask)
    assert_bits(mx.nd.SequenceLast(x, n, use_sequence_length=True), np.stack([a[1, 0], 0 * a[0, 1], a[3, 2]]))
    rev = a.copy()
    rev[:2, 0], rev[:, 2] = a[1::-1, 0], a[::-1, 2]  # lengths clamped to [0, T]
    assert_bits(mx.nd.SequenceReverse(x, n, use_sequence_length=True), rev)
    t = x.transpose((1, 0, 2))  # (B, T, 2), strided
    keep = np.arange(4)[None, :, None] < np.array([1, 3, 4])[:, None, None]
    assert_bits(mx.nd.SequenceMask(t, mx.nd.array([1, 3, 4]), use_sequence_length=True, axis=1),
                np.where(keep, a.transpose(1, 0, 2), 0).astype(np.int32))
    with pytest.raises(TypeError):
        mx.nd.SequenceMask(x, n)  # two arrays need use_sequence_length=True


def test_crop_and_concatenate():
    a = np.arange(2 * 3 * 5 * 6, dtype=np.float32).reshape(2, 3, 5, 6)
    assert_bits(mx.nd.Crop(sliced(a), num_args=1, h_w=(2, 3), offset=(3, 1)), a[:, :, 3:5, 1:4])
    assert_bits(mx.nd.Crop(nd(a), mx.nd.zeros((1, 1, 3, 4)), center_crop=True), a[:, :, 1:4, 1:5])
    x = nd(a)
    assert mx.nd.concatenate([x], always_copy=False) is x
    assert_bits(mx.nd.concatenate([x, sliced(a)], axis=3), np.concatenate([a, a], axis=3))
    # MXNet refuses these with assert statements
    for bad, axis, exc in (([], 0, TypeError), ((x, x), 0, TypeError), ([x, x.astype("int32")], 0, TypeError),
                           ([x, mx.nd.zeros((2, 3))], 0, ValueError), ([x, x], -1, ValueError)):
        with pytest.raises(exc):
            mx.nd.concatenate(bad, axis=axis)


def test_methods_are_the_functions():
    x = mx.nd.array(np.arange(96.0).reshape(2, 8, 2, 3))
    assert_bits(x.depth_to_space(2), mx.nd.depth_to_space(x, 2).asnumpy())
    assert_bits(x.shape_array(), np.array([2, 8, 2, 3], np.int64))
    assert_bits(x.size_array(), np.array([96], np.int64))
    assert [p.shape for p in x.split(2, axis=1)] == [(2, 4, 2, 3)] * 2
    assert [p.shape for p in x.split_v2((3,), axis=1)] == [(2, 3, 2, 3), (2, 5, 2, 3)]
    assert x.pad("constant", (0, 0, 0, 0, 1, 1, 1, 1)).shape == (2, 8, 4, 5)
