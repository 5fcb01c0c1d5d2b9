"""Gradients of the rest of the layers (Pooling, Deconvolution, UpSampling, the
normalizations, the losses) against central finite differences of mxgo's own forward, in
float64. tests_py/mxnet_diff_grad_nn2.py compares the same gradients with MXNet's."""
import numpy as np
import pytest

import mxgo as mx
from autograd_helpers import check_grads

R = np.random.default_rng(1)


def rand(*shape, lo=-1.5, hi=1.5):
    return R.uniform(lo, hi, size=shape)


@pytest.mark.parametrize("shape,kw", [
    ((2, 2, 7), {"kernel": (3,), "stride": (2,), "pad": (1,)}),
    ((2, 2, 6, 5), {"kernel": (3, 2), "stride": (2, 1), "pad": (1, 1)}),
    ((1, 2, 7, 6), {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pooling_convention": "full"}),
    ((1, 2, 4, 5, 4), {"kernel": (2, 3, 2), "stride": (2, 1, 2), "pad": (1, 1, 0)}),
    ((2, 2, 4, 5), {"global_pool": True}),
])
@pytest.mark.parametrize("pool", [{"pool_type": "max"}, {"pool_type": "avg"}, {"pool_type": "sum"},
                                  {"pool_type": "avg", "count_include_pad": False},
                                  {"pool_type": "lp", "p_value": 2}, {"pool_type": "lp", "p_value": 3}])
def test_pooling(shape, kw, pool):
    # distinct values (no ties) keep max pooling differentiable; lp on positive data
    x = rand(*shape, lo=0.2) if pool["pool_type"] == "lp" else rand(*shape)
    check_grads(lambda a: mx.nd.Pooling(a, **kw, **pool), x)


def test_pooling_channels_last():
    check_grads(lambda a: mx.nd.Pooling(a, kernel=(2, 2), stride=(1, 2), pool_type="avg", layout="NHWC"), rand(2, 5, 4, 3))


@pytest.mark.parametrize("kw", [{"kernel": (2, 2)}, {"kernel": (3, 3), "stride": (2, 2), "pool_type": "avg"}])
def test_pooling_v1(kw):
    check_grads(lambda a: mx.nd.Pooling_v1(a, **kw), rand(2, 2, 5, 5, lo=0.1))


@pytest.mark.parametrize("ds,ws,kw", [
    ((2, 3, 5), (3, 4, 3), {"kernel": (3,), "num_filter": 4, "stride": (2,), "pad": (1,), "adj": (1,)}),
    ((2, 2, 4, 3), (2, 3, 3, 2), {"kernel": (3, 2), "num_filter": 3, "stride": (2, 2), "pad": (1, 0), "dilate": (1, 2),
                                  "adj": (1, 1)}),
    ((1, 4, 3, 3), (4, 3, 3, 3), {"kernel": (3, 3), "num_filter": 6, "num_group": 2, "pad": (1, 1)}),
    ((2, 4, 3, 3), (4, 2, 3, 3), {"kernel": (3, 3), "num_filter": 2, "stride": (2, 2), "target_shape": (5, 6)}),
    ((1, 2, 2, 3, 2), (2, 3, 2, 3, 2), {"kernel": (2, 3, 2), "num_filter": 3, "stride": (2, 1, 2), "pad": (1, 1, 0)}),
])
def test_deconvolution(ds, ws, kw):
    check_grads(lambda x, w, b: mx.nd.Deconvolution(x, w, b, no_bias=False, **kw),
                rand(*ds), rand(*ws), rand(kw["num_filter"]))


@pytest.mark.parametrize("mode", ["concat", "sum"])
def test_upsampling(mode):
    ch = 2 if mode == "sum" else 1
    check_grads(lambda a, b: mx.nd.UpSampling(a, b, scale=2, sample_type="nearest", num_args=2, multi_input_mode=mode),
                rand(2, 2, 2, 3), rand(2, ch, 4, 6))


@pytest.mark.parametrize("mode,shape", [("instance", (3, 4)), ("instance", (2, 3, 2)), ("channel", (2, 3, 2, 2)),
                                        ("spatial", (2, 3, 2, 2))])
def test_l2_normalization(mode, shape):
    check_grads(lambda a: mx.nd.L2Normalization(a, mode=mode), rand(*shape))


@pytest.mark.parametrize("groups,shape", [(2, (2, 4, 3)), (3, (2, 6, 2, 2)), (1, (3, 2, 4))])
def test_group_norm(groups, shape):
    check_grads(lambda x, g, b: mx.nd.GroupNorm(x, g, b, num_groups=groups),
                rand(*shape), rand(groups, lo=0.5), rand(groups))


def test_softmax_cross_entropy():
    label = mx.nd.array([2, 0, 1, 1], dtype="float64")
    check_grads(lambda x: mx.nd.softmax_cross_entropy(x, label), rand(4, 3))


@pytest.mark.parametrize("nsize", [1, 3, 5])
def test_lrn(nsize):
    # float32 only (MXNet's CPU kernel): the formula checked against float64 finite
    # differences of the formula itself in NumPy
    x = rand(2, 4, 2, 3, lo=-3, hi=3).astype(np.float32)
    head = np.random.default_rng(3).uniform(0.5, 1.5, x.shape).astype(np.float32)
    alpha, beta, k = 0.01, 0.75, 2.0

    def lrn(v):
        sq = np.zeros_like(v)
        for c in range(v.shape[1]):
            lo, hi = max(0, c - nsize // 2), min(v.shape[1], c - nsize // 2 + nsize)
            sq[:, c] = (v[:, lo:hi] ** 2).sum(axis=1)
        return v * (k + alpha / nsize * sq) ** -beta

    a = mx.nd.array(x)
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LRN(a, nsize=nsize, alpha=alpha, beta=beta, knorm=k)
    y.backward(mx.nd.array(head))
    x64, want = x.astype(np.float64), np.zeros(x.shape)
    for idx in np.ndindex(*x.shape):
        up, dn = x64.copy(), x64.copy()
        up[idx] += 1e-6
        dn[idx] -= 1e-6
        want[idx] = ((lrn(up) - lrn(dn)) * head).sum() / 2e-6
    np.testing.assert_allclose(a.grad.asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_svm_output_is_the_hinge_gradient():
    # MXNet's output layer: the head gradient is ignored; L2 hinge by default
    x = np.array([[1.0, 2.0, -3.0], [0.5, 0.2, -1.0]])
    a = mx.nd.array(x, dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SVMOutput(a, mx.nd.array([2, 0], dtype="float64"))
    y.backward(mx.nd.array(np.full((2, 3), 7.0), dtype="float64"))
    np.testing.assert_allclose(a.grad.asnumpy(), [[4, 6, -8], [-1, 2.4, 0]], rtol=1e-12)
