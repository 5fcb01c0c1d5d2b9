"""Gradients of the loss and spatial operators (CTCLoss, ROIPooling, GridGenerator,
BilinearSampler, SpatialTransformer, Correlation) against central finite differences of
mxgo's own forward, in float64. tests_py/mxnet_diff_grad_nn3.py compares the same
gradients with MXNet's."""
import numpy as np
import pytest

import mxgo as mx
from autograd_helpers import autograd_grads, check_grads

R = np.random.default_rng(3)


def rand(*shape, lo=-1.5, hi=1.5):
    return R.uniform(lo, hi, size=shape)


def const(v):
    return mx.nd.array(v, dtype="float64")


@pytest.mark.parametrize("label,kw,extra", [
    ([[1, 2], [1, 1], [3, 0]], {}, ()),
    ([[0, 3], [2, 2], [1, -1]], {"blank_label": "last"}, ()),
    ([[1, 2], [2, 0], [3, 3]], {"use_data_lengths": True}, ([3, 5, 4],)),
    ([[1, 2], [2, 1], [3, 3]], {"use_label_lengths": True}, (None, [2, 1, 0])),
])
def test_ctc_loss(label, kw, extra):
    extra = [None if e is None else const(e) for e in extra]
    check_grads(lambda x: mx.nd.CTCLoss(x, const(label), *extra, **kw), rand(5, 3, 5))


def test_ctc_loss_labels_get_zeros():
    x, lab = rand(4, 2, 4), np.array([[1.0, 2.0], [3.0, 0.0]])
    _, grads = autograd_grads(lambda a, b: mx.nd.CTCLoss(a, b), [x, lab], np.array([0.5, 1.5]))
    assert np.all(grads[1] == 0)


def test_ctc_loss_no_path_gets_zeros():
    # label (1, 1, 1) needs 5 frames of 3: loss 0 and a zero gradient (MXNet's is unset)
    x = rand(3, 2, 4)
    y, grads = autograd_grads(lambda a: mx.nd.CTCLoss(a, const([[1, 1, 1], [2, 0, 0]])), [x], np.array([0.5, 1.5]))
    assert y[0] == 0 and np.all(grads[0][:, 0] == 0) and np.any(grads[0][:, 1] != 0)


@pytest.mark.parametrize("rois,kw", [
    ([[0, 0, 0, 3, 3], [1, 1, 2, 5, 4], [0, 2, 1, 6, 5]], {"pooled_size": (2, 2), "spatial_scale": 1.0}),
    ([[0, 1, 3, 9, 11], [1, 0, 0, 13, 11]], {"pooled_size": (3, 2), "spatial_scale": 0.5}),
])
def test_roi_pooling(rois, kw):
    # distinct values: every bin's maximum is strict, so max pooling is differentiable
    check_grads(lambda a: mx.nd.ROIPooling(a, const(rois), **kw), rand(2, 2, 6, 7))


@pytest.mark.parametrize("kw,shape", [({"transform_type": "affine", "target_shape": (3, 4)}, (2, 6)),
                                      ({"transform_type": "warp"}, (2, 2, 3, 4))])
def test_grid_generator(kw, shape):
    check_grads(lambda a: mx.nd.GridGenerator(a, **kw), rand(*shape))


def test_bilinear_sampler():
    # grid points off the pixel lattice, some outside the image: the sampler is smooth there
    check_grads(lambda a, g: mx.nd.BilinearSampler(a, g), rand(2, 2, 4, 5), rand(2, 2, 3, 4, lo=-1.2, hi=1.2))


def test_spatial_transformer():
    # matrices that keep every point off the pixel lattice, where the sampler has no derivative
    loc = np.array([[0.913, 0.107, 0.052, -0.149, 1.093, -0.103], [0.611, -0.297, 0.207, 0.253, 0.689, 0.113]])
    check_grads(lambda a, t: mx.nd.SpatialTransformer(a, t, target_shape=(4, 5), transform_type="affine",
                                                       sampler_type="bilinear"), rand(2, 2, 5, 6), loc)


@pytest.mark.parametrize("kw", [
    {"kernel_size": 1, "max_displacement": 1},
    {"kernel_size": 3, "max_displacement": 2, "stride2": 2, "pad_size": 2},
    {"kernel_size": 1, "max_displacement": 2, "stride1": 2, "pad_size": 1},
])
@pytest.mark.parametrize("mul", [True, False])
def test_correlation(kw, mul):
    check_grads(lambda a, b: mx.nd.Correlation(a, b, is_multiply=mul, **kw), rand(1, 2, 7, 7), rand(1, 2, 7, 7))
