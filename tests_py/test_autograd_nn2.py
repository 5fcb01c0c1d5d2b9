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
