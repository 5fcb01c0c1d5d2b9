"""sort, argsort, topk, cumsum, the softmax family, norm, nansum, nanprod, moments and their
NDArray methods against NumPy and PyTorch, for what the MXNet differential cases
(mxnet_diff_sort.py) cannot check: out=, strided and transposed inputs, NumPy and PyTorch
arrays through DLPack, dtypes MXNet lacks or mishandles (bfloat16, float16 sums), NaN,
lengths and labels outside their range, and long lanes (the radix sort and the heap
selection of topk).
"""
import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import name
from test_ops_shape import nd, sliced

SORT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float32, np.float64)
RNG = np.random.RandomState(7)


def ties(shape, dtype):
    """Random small integers (many ties) of dtype."""
    v = RNG.randint(0, 50, size=shape)
    return v.astype(dtype)


def stable(a, axis, ascending):
    """NumPy's stable argsort, descending with ties in index order (MXNet's order)."""
    if ascending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    rev = np.flip(a, axis)
    return n - 1 - np.flip(np.argsort(rev, axis=axis, kind="stable"), axis)


@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=name)
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
@pytest.mark.parametrize("n", [5, 300, 3000])
def test_sort_argsort_topk_match_stable_numpy(dtype, layout, n):
    a = ties((3, n), dtype)
    x = nd(a) if layout == "contiguous" else sliced(a)
    for asc in (True, False):
        order = stable(a, 1, asc)
        np.testing.assert_array_equal(mx.nd.sort(x, is_ascend=asc).asnumpy(), np.take_along_axis(a, order, 1))
        got = mx.nd.argsort(x, is_ascend=asc, dtype="int64").asnumpy()
        np.testing.assert_array_equal(got, order)
        k = max(1, n // 30)
        v, i = mx.nd.topk(x, k=k, ret_typ="both", is_ascend=asc, dtype="int32")
        np.testing.assert_array_equal(i.asnumpy(), order[:, :k])
        np.testing.assert_array_equal(v.asnumpy(), np.take_along_axis(a, order[:, :k], 1))
        mask = np.zeros_like(a)
        np.put_along_axis(mask, order[:, :k], 1, 1)
        np.testing.assert_array_equal(mx.nd.topk(x, k=k, ret_typ="mask", is_ascend=asc).asnumpy(), mask)


@pytest.mark.parametrize("dtype", (np.int16, np.uint32, np.int64, np.float32, np.float64), ids=name)
@pytest.mark.parametrize("n", [70_000, 600_000])
def test_sort_long_lanes_match_stable_numpy(dtype, n):
    # lanes from 2^16 keys on are sorted by their top byte first, the buckets then one at a
    # time (shared among the cores from 2^19 keys): values spread over every byte, ties,
    # negative values, NaN and infinities
    a = (RNG.standard_normal(n) * 1e4).astype(dtype)
    a[RNG.randint(0, n, n // 4)] = 7  # ties
    if np.dtype(dtype).kind == "f":
        a[RNG.randint(0, n, 50)] = np.nan
        a[:3] = [np.inf, -np.inf, -0.0]
    x = nd(a)
    for asc in (True, False):
        order = stable(a[None], 1, asc)[0]
        np.testing.assert_array_equal(mx.nd.sort(x, is_ascend=asc).asnumpy(), a[order])
        np.testing.assert_array_equal(mx.nd.argsort(x, is_ascend=asc, dtype="int64").asnumpy(), order)
        v, i = mx.nd.topk(x, k=n // 10, ret_typ="both", is_ascend=asc, dtype="int64")
        np.testing.assert_array_equal(i.asnumpy(), order[:n // 10])


def test_sort_nan_and_infinities():
    a = np.array([[3, np.nan, -np.inf, 0, np.inf, -1]], np.float32)
    np.testing.assert_array_equal(mx.nd.sort(nd(a)).asnumpy(), np.sort(a))
    np.testing.assert_array_equal(mx.nd.argsort(nd(a)).asnumpy(), np.argsort(a, kind="stable").astype(np.float32))
    desc = mx.nd.sort(nd(a), is_ascend=False).asnumpy()[0]
    assert np.isnan(desc[0]) and list(desc[1:]) == [np.inf, 3, 0, -1, -np.inf]
    np.testing.assert_array_equal(mx.nd.topk(nd(a), k=1).asnumpy(), [[1]])  # NaN is the largest


def test_sort_axis_none_and_transposed():
    a = ties((4, 5, 6), np.int32)
    x = nd(a).transpose((2, 0, 1))
    t = np.transpose(a, (2, 0, 1))
    np.testing.assert_array_equal(mx.nd.sort(x, axis=None).asnumpy(), np.sort(t, axis=None))
    np.testing.assert_array_equal(mx.nd.argsort(x, axis=0, dtype="int64").asnumpy(), stable(t, 0, True))
    np.testing.assert_array_equal(mx.nd.topk(x, axis=None, k=3, ret_typ="value").asnumpy(),
                                  np.take(t.ravel(), stable(t.ravel(), 0, False)[:3]))
    m = mx.nd.topk(x, axis=None, k=4, ret_typ="mask").asnumpy()
    assert m.shape == t.shape and m.sum() == 4


def test_sort_out_and_dlpack_inputs():
    a = ties((3, 40), np.float32)
    out = mx.nd.zeros((3, 40))
    r = mx.nd.sort(nd(a), out=out)
    assert r is out
    np.testing.assert_array_equal(out.asnumpy(), np.sort(a))
    wide = mx.nd.zeros((3, 80))
    mx.nd.argsort(nd(a), out=wide[:, ::2])
    np.testing.assert_array_equal(wide.asnumpy()[:, ::2], np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(mx.nd.sort(a, is_ascend=False).asnumpy(), -np.sort(-a))  # a NumPy array
    t = torch.from_numpy(a.copy())
    np.testing.assert_array_equal(mx.nd.topk(t, k=3, ret_typ="value").asnumpy(), torch.topk(t, 3).values.numpy())
    tout = torch.zeros(3, 3)
    mx.nd.topk(t, k=3, ret_typ="indices", out=tout)
    np.testing.assert_array_equal(tout.numpy(), stable(a, 1, False)[:, :3])  # ties by index, unlike torch.topk
    vo, io = mx.nd.zeros((3, 2)), mx.nd.zeros((3, 2), dtype="int64")
    res = mx.nd.topk(nd(a), k=2, ret_typ="both", dtype="int64", out=[vo, io])
    assert res[0] is vo and res[1] is io
    np.testing.assert_array_equal(io.asnumpy(), stable(a, 1, False)[:, :2])


def test_sort_bad_inputs():
    x = mx.nd.ones((2, 3))
    with pytest.raises(mx.base.MXNetTypeError):
        mx.nd.sort(x.astype("bool"))
    with pytest.raises(mx.base.MXNetTypeError):
        mx.nd.topk(x, ret_typ="both", out=mx.nd.zeros((2, 1)))
    with pytest.raises(mx.base.MXNetValueError):
        mx.nd.topk(x, k=4)
    with pytest.raises(IndexError):
        mx.nd.argsort(x, axis=-3)
    with pytest.raises(mx.base.MXNetValueError):
        mx.nd.sort(mx.nd.array(np.float32(1)).reshape(()), axis=0)


def test_sort_size_zero():
    x = mx.nd.zeros((0, 3))
    assert mx.nd.sort(x).shape == (0, 3)
    assert mx.nd.argsort(x, axis=0).shape == (0, 3)
    assert mx.nd.topk(x, k=2).shape == (0, 2)


def test_cumsum_against_numpy():
    a = ties((3, 4, 5), np.int16)
    x = sliced(a)
    np.testing.assert_array_equal(mx.nd.cumsum(x, axis=1).asnumpy(), np.cumsum(a, axis=1).astype(np.int16))
    np.testing.assert_array_equal(mx.nd.cumsum(x).asnumpy(), np.cumsum(a).astype(np.int16))
    np.testing.assert_allclose(mx.nd.cumsum(x, axis=2, dtype="float32").asnumpy(), np.cumsum(a, axis=2, dtype=np.float32))
    h = np.arange(10, dtype=np.float16)
    np.testing.assert_array_equal(mx.nd.cumsum(nd(h)).asnumpy(), np.cumsum(h))  # MXNet 1.9.1 gives inf
    out = mx.nd.zeros((60,), dtype="int16")
    assert mx.nd.cumsum(x, out=out) is out


def softmax_ref(a, axis=-1, t=1.0):
    z = (a - a.max(axis=axis, keepdims=True)) / t
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_family_against_torch(layout, axis):
    a = RNG.randn(6, 7, 300).astype(np.float32)
    x = nd(a) if layout == "contiguous" else sliced(a)
    t = torch.from_numpy(a)
    np.testing.assert_allclose(mx.nd.softmax(x, axis=axis).asnumpy(), torch.softmax(t, axis).numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(x.log_softmax(axis=axis).asnumpy(), torch.log_softmax(t, axis).numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.softmin(axis=axis, temperature=2.0).asnumpy(), torch.softmax(-t / 2, axis).numpy(),
                               rtol=1e-5, atol=1e-7)
    r = mx.nd.softmax(x, axis=axis, dtype="float64")
    assert r.dtype == np.float64
    np.testing.assert_allclose(r.asnumpy(), softmax_ref(a.astype(np.float64), axis), rtol=1e-12)


def test_softmax_bfloat16_nan_and_out():
    a = RNG.randn(4, 9).astype(np.float32)
    b = mx.nd.array(a).astype("bfloat16")
    got = mx.nd.softmax(b, dtype="float32").asnumpy()
    np.testing.assert_allclose(got, softmax_ref(b.astype("float32").asnumpy()), rtol=1e-6)
    a[1, 3] = np.nan
    r = mx.nd.softmax(nd(a)).asnumpy()
    assert np.isnan(r[1]).all() and not np.isnan(r[[0, 2, 3]]).any()  # NaN spoils its own lane only
    out = torch.zeros(4, 9, dtype=torch.float64)
    mx.nd.softmax(nd(a), dtype="float64", out=out)
    np.testing.assert_allclose(out.numpy()[0], softmax_ref(a[0].astype(np.float64)), rtol=1e-12)


def test_softmax_length():
    a = RNG.randn(3, 5).astype(np.float32)
    lengths = np.array([0, 2, 5], np.int32)
    got = mx.nd.softmax(nd(a), nd(lengths), use_length=True).asnumpy()
    for r, n in enumerate(lengths):
        np.testing.assert_allclose(got[r, :n], softmax_ref(a[r, :n]) if n else [], rtol=1e-6)
        assert (got[r, n:] == 0).all()
    with pytest.raises(mx.base.MXNetValueError):
        mx.nd.softmax(nd(a), nd(np.array([1, 6, 2], np.int32)), use_length=True).wait_to_read()
    with pytest.raises(mx.base.MXNetValueError):
        mx.nd.softmax(nd(a), nd(np.array([1, -1, 2], np.int64)), use_length=True).asnumpy()


def test_softmax_output_and_cross_entropy():
    a = RNG.randn(2, 3, 4).astype(np.float32)
    flat = softmax_ref(a.reshape(2, 12)).reshape(2, 3, 4)
    np.testing.assert_allclose(mx.nd.SoftmaxOutput(sliced(a), mx.nd.zeros((2, 3))).asnumpy(), flat, rtol=1e-6)
    np.testing.assert_allclose(mx.nd.Softmax(nd(a), mx.nd.zeros((2, 4)), multi_output=True).asnumpy(), softmax_ref(a, 1),
                               rtol=1e-6)
    np.testing.assert_allclose(mx.nd.SoftmaxActivation(nd(a), mode="channel").asnumpy(), softmax_ref(a, 1), rtol=1e-6)
    d = RNG.randn(4, 5).astype(np.float32)
    label = np.array([0, 4, 9, -1], np.float32)  # the last two are outside [0, 5): probability 0
    p = softmax_ref(d.astype(np.float64))
    want = -np.log(p[0, 0]) - np.log(p[1, 4]) - 2 * np.log(1e-8)
    np.testing.assert_allclose(mx.nd.softmax_cross_entropy(nd(d), nd(label)).asnumpy(), [want], rtol=1e-6)


NAN_DTYPES = (np.float16, np.float32, np.float64)


@pytest.mark.parametrize("dtype", NAN_DTYPES, ids=name)
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_nansum_nanprod_norm_against_numpy(dtype, layout):
    a = (RNG.rand(5, 6, 7) * 2).astype(dtype)
    a[a > 1.8] = np.nan
    x = nd(a) if layout == "contiguous" else sliced(a)
    tol = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    wide = a.astype(np.float64)
    for axis in (None, 1, (0, 2)):
        np.testing.assert_allclose(mx.nd.nansum(x, axis=axis).asnumpy(), np.atleast_1d(np.nansum(wide, axis=axis)), rtol=tol)
        want = np.atleast_1d(np.nanprod(wide, axis=axis)).astype(dtype)  # under- and overflow as dtype does
        np.testing.assert_allclose(x.nanprod(axis=axis).asnumpy(), want, rtol=10 * tol)
    clean = np.nan_to_num(a)
    c = nd(clean) if layout == "contiguous" else sliced(clean)
    cw = clean.astype(np.float64)
    for axis in (None, 2, (0, 1)):
        np.testing.assert_allclose(c.norm(axis=axis).asnumpy(), np.atleast_1d(np.sqrt((cw * cw).sum(axis=axis))), rtol=tol)
        np.testing.assert_allclose(mx.nd.norm(c, ord=1, axis=axis).asnumpy(), np.atleast_1d(np.abs(cw).sum(axis=axis)),
                                   rtol=tol)


def test_nansum_long_rows_and_out():
    a = RNG.randn(3_000_000).astype(np.float32)
    a[::1000] = np.nan
    np.testing.assert_allclose(mx.nd.nansum(nd(a)).asnumpy(), [np.nansum(a.astype(np.float64))], rtol=1e-6)
    np.testing.assert_allclose(mx.nd.norm(nd(np.nan_to_num(a))).asnumpy(), [np.linalg.norm(np.nan_to_num(a).astype(np.float64))],
                               rtol=1e-6)
    out = torch.zeros(1)
    mx.nd.nansum(a, out=out)
    np.testing.assert_allclose(out.numpy(), [np.nansum(a.astype(np.float64))], rtol=1e-6)


def test_moments_and_axis_aliases():
    a = RNG.randn(3, 4, 5).astype(np.float32)
    x = sliced(a)
    mean, var = mx.nd.moments(x, axes=(0, 2))
    np.testing.assert_allclose(mean.asnumpy(), a.mean(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), a.var(axis=(0, 2)), rtol=1e-5)
    outs = [mx.nd.zeros((1, 4, 1)), mx.nd.zeros((1, 4, 1))]
    res = mx.nd.moments(x, axes=(0, 2), keepdims=True, out=outs)
    assert res[0] is outs[0] and res[1] is outs[1]
    np.testing.assert_allclose(outs[1].asnumpy().ravel(), a.var(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_array_equal(mx.nd.sum_axis(x, axis=1, exclude=True).asnumpy(), nd(a).sum(axis=(0, 2)).asnumpy())
    np.testing.assert_array_equal(mx.nd.max_axis(x, axis=(0, 1, 2), exclude=True).asnumpy(), a)
    np.testing.assert_array_equal(x.argmax_channel().asnumpy(), a.argmax(axis=1).astype(np.float32))


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int64), ids=name)
def test_histogram_against_numpy(dtype):
    a = (RNG.rand(6, 7) * 20).astype(dtype)
    x = sliced(a)
    counts, edges = mx.nd.histogram(x, bins=4, range=(0, 20))
    want, want_edges = np.histogram(a, bins=4, range=(0, 20))
    assert counts.dtype == np.int64 and edges.dtype == dtype
    np.testing.assert_array_equal(counts.asnumpy(), want)
    np.testing.assert_allclose(edges.asnumpy(), want_edges.astype(dtype))
    bins = np.array([0, 1, 5, 12, 20], dtype)
    counts, edges = mx.nd.histogram(x, bins=nd(bins))
    np.testing.assert_array_equal(counts.asnumpy(), np.histogram(a, bins=bins)[0])
    np.testing.assert_array_equal(edges.asnumpy(), bins)
    c, e = mx.nd.histogram(x, bins=5)  # MXNet: NumPy's own result, as float32
    np.testing.assert_array_equal(c.asnumpy(), np.histogram(a, bins=5)[0].astype(np.float32))
    with pytest.raises(mx.base.MXNetTypeError):
        mx.nd.histogram(x, bins=mx.nd.array([0, 1], dtype="int8"))
    with pytest.raises(mx.base.MXNetValueError):
        mx.nd.histogram(x, bins=3, range=(2, 1))


def test_histogram_nan_and_edges():
    a = np.array([np.nan, 0, 1, 1, 2, 2.5, 3, -1, 4], np.float32)
    counts, _ = mx.nd.histogram(nd(a), bins=3, range=(0, 3))
    np.testing.assert_array_equal(counts.asnumpy(), [1, 2, 3])  # 3 is in the last bin; NaN, -1 and 4 in none
