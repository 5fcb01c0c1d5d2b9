"""Gradients of the indexing, layout and sorting operators (take, pick, gather_nd,
scatter_nd, advanced indexing, pad, Crop, diag, depth_to_space, space_to_depth, the
Sequence operators, sort, topk) against central finite differences of mxgo's own forward,
in float64, with indices held constant; assignment into arrays while recording; the
operators without a gradient. tests_py/mxnet_diff_grad_layout.py compares the same
gradients with MXNet 1.9.1's."""
import numpy as np
import pytest

import mxgo as mx
from autograd_helpers import check_grads

R = np.random.default_rng(0)


def rand(*shape, lo=-1.5, hi=1.5):
    return R.uniform(lo, hi, size=shape)


def distinct(*shape):
    """Values far apart (no ties), so that sorting is smooth under finite differences."""
    n = int(np.prod(shape))
    return (R.permutation(n) * 0.5 - n / 4).reshape(shape)


def nd(v, dtype="float64"):
    return mx.nd.array(v, dtype=dtype)


@pytest.mark.parametrize("idx,axis,mode", [([1, 0, 1], 0, "clip"), ([[4, -1], [1, 1]], 1, "wrap"),
                                           ([0, 3, 3, 9], -1, "clip"), ([2, 2], 2, "raise")])
def test_take(idx, axis, mode):
    check_grads(lambda a: mx.nd.take(a, nd(idx), axis=axis, mode=mode), rand(2, 3, 4))


@pytest.mark.parametrize("idx,axis,keepdims,mode", [([2, 2], 1, False, "clip"), ([3, 0, -1], 0, True, "wrap"),
                                                    ([[0, 3, 3, 1], [2, 2, 0, 1]], 1, False, "clip")])
def test_pick(idx, axis, keepdims, mode):
    data = rand(2, 3) if len(np.shape(idx)) == 1 else rand(2, 3, 4)
    check_grads(lambda a: mx.nd.pick(a, nd(idx), axis=axis, keepdims=keepdims, mode=mode), data)


@pytest.mark.parametrize("idx,shape", [([[1, 1, 0], [2, 2, 0]], (2, 3)), ([[0, 1, -1], [2, -1, 0]], (2, 3, 4)),
                                       ([[1, 0, 1]], (2, 3))])
def test_gather_nd(idx, shape):
    check_grads(lambda a: mx.nd.gather_nd(a, nd(idx)), rand(*shape))


def test_scatter_nd():
    check_grads(lambda a: mx.nd.scatter_nd(a, nd([[1, 0], [2, 0]]), shape=(2, 3, 4)), rand(2, 4))


@pytest.mark.parametrize("key", [lambda a: a[[0, 2, 0]], lambda a: a[:, [3, 1, 3]], lambda a: a[[1, 0], [2, 2]],
                                 lambda a: a[1, [2, 0, 2], 1:3], lambda a: a[[[1], [0]], :, [0, 3]]])
def test_advanced_indexing(key):
    check_grads(key, rand(3, 4, 5))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
@pytest.mark.parametrize("shape,width", [((1, 2, 3, 4), (0, 0, 0, 0, 1, 2, 0, 1)),
                                         ((1, 1, 3, 3, 4), (0, 0, 0, 0, 1, 0, 2, 1, 0, 2))])
def test_pad(mode, shape, width):
    check_grads(lambda a: mx.nd.pad(a, mode=mode, pad_width=width, constant_value=0.5), rand(*shape))


def test_crop():  # float32 only: its gradient is checked exactly, the head in the window
    a = nd(rand(1, 2, 4, 4), "float32")
    a.attach_grad()
    head = rand(1, 2, 2, 3)
    with mx.autograd.record():
        y = mx.nd.Crop(a, h_w=(2, 3), offset=(1, 0))
    y.backward(nd(head, "float32"))
    want = np.zeros((1, 2, 4, 4), np.float32)
    want[:, :, 1:3, 0:3] = head
    np.testing.assert_array_equal(a.grad.asnumpy(), want)


def test_space():
    check_grads(lambda a: mx.nd.depth_to_space(a, block_size=2), rand(1, 8, 2, 3))
    check_grads(lambda a: mx.nd.space_to_depth(a, block_size=2), rand(1, 2, 4, 6))


@pytest.mark.parametrize("shape,kw", [((2, 3), {}), ((2, 3), {"k": 1}), ((3,), {"k": -1}),
                                      ((2, 3, 4), {"k": 1, "axis1": 0, "axis2": 2})])
def test_diag(shape, kw):
    check_grads(lambda a: mx.nd.diag(a, **kw), rand(*shape))


@pytest.mark.parametrize("fn", ["SequenceMask", "SequenceReverse", "SequenceLast"])
@pytest.mark.parametrize("lens", [None, [1, 3], [0, 4]])
def test_sequence(fn, lens):
    f = getattr(mx.nd, fn)
    if lens is None:  # SequenceLast's last step: where mxgo departs from MXNet (zero there)
        check_grads(lambda a: f(a), rand(4, 2, 3))
    else:
        check_grads(lambda a: f(a, nd(lens), use_sequence_length=True), rand(4, 2, 3))


@pytest.mark.parametrize("kw", [{"axis": 1}, {"axis": 0, "is_ascend": False}, {"axis": None}])
def test_sort(kw):
    check_grads(lambda a: mx.nd.sort(a, **kw), distinct(3, 4))


@pytest.mark.parametrize("kw", [{"k": 2}, {"k": 2, "axis": 0, "is_ascend": True}, {"k": 5, "axis": None}])
def test_topk(kw):
    check_grads(lambda a: mx.nd.topk(a, ret_typ="value", **kw), distinct(3, 4))
    check_grads(lambda a: mx.nd.topk(a, ret_typ="both", **kw)[0], distinct(3, 4))


def test_sort_ties_give_each_position_one_gradient():
    a = nd([[1.0, 1.0, 0.0]])
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.sort(a, axis=1)
    y.backward(nd([[1.0, 2.0, 3.0]]))
    assert a.grad.asnumpy().tolist() == [[2.0, 3.0, 1.0]]  # the stable order: ties keep theirs


def test_repeated_indices_accumulate():
    a = nd([1.0, 2.0, 3.0])
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.take(a, nd([2, 2, 0, 2])) + a[[1, 1]].sum()
    y.backward(nd([1.0, 10.0, 100.0, 1000.0]))
    assert a.grad.asnumpy().tolist() == [100.0, 2222.0, 1011.0]  # a[[1, 1]].sum() meets every head twice


@pytest.mark.parametrize("expr", [lambda a: mx.nd.batch_take(a, mx.nd.array([2, 0], dtype="int32")),
                                  lambda a: mx.nd.fill_element_0index(a, mx.nd.array([1.0, 2.0]), mx.nd.array([2, 0])),
                                  lambda a: mx.nd.histogram(a, bins=3, range=(0, 4))[0]])
def test_non_differentiable(expr):
    a = nd([[0.5, 1.5, 2.0], [3.5, 0.75, 0.25]], "float32")
    a.attach_grad()
    with mx.autograd.record():
        y = expr(a)
    with pytest.raises(mx.MXNetError, match="non-differentiable"):
        y.backward()


# ---- assignment while recording --------------------------------------------------------------

def test_whole_assignment_records_a_copy():
    for key in (slice(None), Ellipsis, (slice(None), slice(0, 3))):
        y = nd([[10.0, 20.0, 30.0]])
        y.attach_grad()
        with mx.autograd.record():
            buf = mx.nd.zeros((3, 3), dtype="float64")
            buf[key] = y * 2  # broadcast: the gradient sums back
            z = buf * buf
        z.backward()
        assert y.grad.asnumpy().tolist() == [[240.0, 480.0, 720.0]]  # 3 rows * 2 * 2 * (2y)


def test_whole_assignment_casts_back():
    y = nd([1.0, 2.0], "float32")
    y.attach_grad()
    with mx.autograd.record():
        buf = mx.nd.zeros((2,), dtype="float64")
        buf[:] = y
        z = buf * 3
    z.backward()
    assert y.grad.dtype == np.float32 and y.grad.asnumpy().tolist() == [3.0, 3.0]


@pytest.mark.parametrize("key", [slice(1, 2), 1, (slice(None), 1), [0, 2], (slice(None), [1, 1])])
def test_partial_assignment_of_a_recorded_value_is_refused(key):
    y = nd([[10.0, 20.0, 30.0]])
    y.attach_grad()
    with mx.autograd.record():
        v = y * 2
        buf = mx.nd.zeros((3, 3), dtype="float64")
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            buf[key] = v[0, 0:1] if key == (slice(None), 1) else v
        x = y * 1
        with pytest.raises(mx.MXNetError, match="already in a computational graph"):
            x[0:1] = v
    buf[key] = 5  # outside record, or a constant value: a plain write
    with mx.autograd.record():
        buf[key] = 7
        buf[key] = mx.nd.array([1.0, 2.0, 3.0], dtype="float64")[0:1]
