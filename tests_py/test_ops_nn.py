"""The neural-network forward operators against PyTorch's CPU kernels, for what the
differential cases against MXNet (mxnet_diff_nn.py) cannot check: strided and reversed
inputs, inputs and outputs from NumPy and PyTorch through DLPack, out= (contiguous and
strided), larger shapes that take the parallel paths, channels-last pooling and the
dtypes MXNet's CPU kernels lack (which mxgo refuses with a TypeError, as MXNet raises).
"""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mxgo as mx

RNG = np.random.default_rng(5)
TOL = {"float16": 2e-3, "float32": 2e-5, "float64": 1e-12}


def rand(*shape, dtype="float32"):
    return RNG.uniform(-2, 2, shape).astype(dtype)


def strided(a):
    """An mxgo view holding a's values: its first axis reversed, its last every other."""
    big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
    big[..., ::2] = a[::-1]
    return mx.nd.array(big, dtype=a.dtype)[::-1, ..., ::2]


def close(got, want, dtype="float32"):
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    want = want.numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape
    # sums of many products cancel: the error scales with the largest value, not each one
    atol = TOL[dtype] * max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(got.astype("float64"), want.astype("float64"), rtol=TOL[dtype], atol=atol)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_convolution_matches_torch_on_strided_inputs(dtype, nd):
    spatial = (9, 8, 7)[:nd]
    x, w, b = rand(3, 4, *spatial, dtype=dtype), rand(6, 2, *(3,) * nd, dtype=dtype), rand(6, dtype=dtype)
    stride, pad, dilate = (2,) * nd, (1,) * nd, (1,) * (nd - 1) + (2,)
    got = mx.nd.Convolution(strided(x), w, b, kernel=(3,) * nd, num_filter=6, num_group=2, stride=stride, pad=pad, dilate=dilate)
    conv = (F.conv1d, F.conv2d, F.conv3d)[nd - 1]
    close(got, conv(t(x), t(w), t(b), stride=stride, padding=pad, dilation=dilate, groups=2), dtype)


def test_convolution_large_batch_and_pointwise():
    x, w = rand(5, 64, 14, 14), rand(32, 64, 1, 1)
    close(mx.nd.Convolution(mx.nd.array(x), mx.nd.array(w), kernel=(1, 1), num_filter=32, no_bias=True),
          F.conv2d(t(x), t(w)))
    w3 = rand(32, 64, 3, 3)
    close(mx.nd.Convolution(mx.nd.array(x[:1]), mx.nd.array(w3), kernel=(3, 3), num_filter=32, no_bias=True, pad=(1, 1)),
          F.conv2d(t(x[:1]), t(w3), padding=1), "float32")


def test_convolution_dlpack_inputs_and_out():
    x, w, b = rand(2, 3, 6, 6), rand(4, 3, 3, 3), rand(4)
    want = F.conv2d(t(x), t(w), t(b))
    out = torch.zeros(2, 4, 4, 4)
    r = mx.nd.Convolution(torch.from_numpy(x), w, torch.from_numpy(b), kernel=(3, 3), num_filter=4, out=out)
    close(out, want)  # written in place, visible at once
    close(r, want)
    big = mx.nd.zeros((2, 4, 4, 8))
    mx.nd.Convolution(mx.nd.array(x), mx.nd.array(w), mx.nd.array(b), kernel=(3, 3), num_filter=4, out=big[..., ::2])
    close(big[..., ::2], want)
    assert (big[..., 1::2].asnumpy() == 0).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_deconvolution_matches_torch(dtype):
    x, w, b = rand(3, 4, 5, 4, dtype=dtype), rand(4, 3, 3, 2, dtype=dtype), rand(6, dtype=dtype)
    got = mx.nd.Deconvolution(strided(x), w, b, kernel=(3, 2), num_filter=6, num_group=2, stride=(2, 2), pad=(1, 0),
                              adj=(1, 1), dilate=(1, 2), no_bias=False)
    close(got, F.conv_transpose2d(t(x), t(w), t(b), stride=2, padding=(1, 0), output_padding=(1, 1), groups=2,
                                  dilation=(1, 2)), dtype)
    # target_shape (10, 8) of a full (11, 8) output: pad 1 and adj 1 on the first axis
    out = mx.nd.zeros((3, 6, 20, 8), dtype=dtype)[:, :, ::2]
    mx.nd.Deconvolution(x, w, kernel=(3, 2), num_filter=6, num_group=2, stride=(2, 2), target_shape=(10, 8), out=out)
    close(out, F.conv_transpose2d(t(x), t(w), stride=2, padding=(1, 0), output_padding=(1, 0), groups=2), dtype)


def test_im2col_and_upsampling_match_torch():
    x = rand(2, 3, 7, 6)
    close(mx.nd.im2col(strided(x), kernel=(3, 2), stride=(2, 1), pad=(1, 1), dilate=(1, 2)),
          F.unfold(t(x), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1)))
    cols = rand(2, 18, 24)
    close(mx.nd.col2im(cols, output_size=(7, 6), kernel=(3, 2), stride=(2, 1), pad=(1, 1), dilate=(1, 2)),
          F.fold(t(cols), (7, 6), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1)))
    y = rand(2, 3, 4, 5)
    close(mx.nd.UpSampling(strided(y), scale=3, sample_type="nearest"), F.interpolate(t(y), scale_factor=3))
    z = rand(2, 3, 8, 10, dtype="float16")  # already the output's size: repeated once
    got = mx.nd.UpSampling(y.astype("float16"), z, scale=2, sample_type="nearest", multi_input_mode="sum")
    close(got, F.interpolate(t(y.astype("float32")), scale_factor=2) + t(z.astype("float32")),
          "float16")


@pytest.mark.parametrize("flatten", [True, False])
def test_fully_connected_matches_torch(flatten):
    x = rand(6, 3, 5)
    w, b = rand(7, 15 if flatten else 5), rand(7)
    want = F.linear(t(x.reshape(6, -1) if flatten else x), t(w), t(b))
    close(mx.nd.FullyConnected(strided(x), w, b, num_hidden=7, flatten=flatten), want)
    close(mx.nd.FullyConnected(x, mx.nd.array(w).T.T, num_hidden=7, flatten=flatten, no_bias=True), want - t(b))
    out = mx.nd.zeros(tuple(want.shape))
    mx.nd.FullyConnected(mx.nd.array(x), mx.nd.array(w), mx.nd.array(b), num_hidden=7, flatten=flatten, out=out)
    close(out, want)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_pooling_matches_torch(dtype):
    x = rand(2, 3, 9, 8, dtype=dtype)
    tx = t(x.astype("float32" if dtype == "float16" else dtype))
    xs = strided(x)
    close(mx.nd.Pooling(xs, kernel=(3, 3), stride=(2, 2), pad=(1, 1)), F.max_pool2d(tx, 3, 2, 1), dtype)
    close(mx.nd.Pooling(xs, kernel=(3, 2), stride=(2, 2), pad=(1, 1), pool_type="avg"),
          F.avg_pool2d(tx, (3, 2), 2, 1, count_include_pad=True), dtype)
    close(mx.nd.Pooling(xs, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", count_include_pad=False),
          F.avg_pool2d(tx, 3, 2, 1, count_include_pad=False), dtype)
    close(mx.nd.Pooling(xs, kernel=(2, 2), stride=(2, 2), pool_type="lp", p_value=2), F.lp_pool2d(tx, 2, 2, 2), dtype)
    close(mx.nd.Pooling(xs, kernel=(3, 3), stride=(2, 2), pooling_convention="full"),
          F.max_pool2d(tx, 3, 2, ceil_mode=True), dtype)
    close(mx.nd.Pooling(xs, global_pool=True, pool_type="avg"), F.adaptive_avg_pool2d(tx, 1), dtype)


def test_pooling_channels_last_and_out():
    x = rand(2, 7, 6, 3)  # NHWC
    want = F.max_pool2d(t(x.transpose(0, 3, 1, 2)), 2).permute(0, 2, 3, 1)
    close(mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2), layout="NHWC"), want)
    out = np.zeros((2, 3, 3, 3), np.float32)
    mx.nd.Pooling(strided(x), kernel=(2, 2), stride=(2, 2), layout="NHWC", out=out)  # a NumPy out, through DLPack
    close(out, want)
    x3 = rand(1, 4, 5, 6, 2)
    close(mx.nd.Pooling(x3, kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg", layout="NDHWC"),
          F.avg_pool3d(t(x3.transpose(0, 4, 1, 2, 3)), 2).permute(0, 2, 3, 4, 1))


def test_pooling_large_parallel():
    x = rand(4, 16, 64, 64)
    close(mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1)), F.max_pool2d(t(x), 3, 2, 1))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_activations_match_torch(dtype):
    x = rand(3, 4, 5, dtype=dtype) * 3
    tx = t(x.astype("float64"))
    xs = strided(x)
    for act, ref in [("relu", F.relu), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh),
                     ("softrelu", F.softplus), ("softsign", F.softsign)]:
        close(mx.nd.Activation(xs, act_type=act), ref(tx), dtype)
    f32 = "float32" if dtype == "float64" else dtype  # MXNet multiplies leaky's negative side in float32, always
    close(mx.nd.LeakyReLU(xs, slope=0.1), F.leaky_relu(tx, 0.1), f32)
    close(mx.nd.LeakyReLU(xs, act_type="elu", slope=0.5), F.elu(tx, 0.5), dtype)
    close(mx.nd.LeakyReLU(xs, act_type="selu"), F.selu(tx), "float16" if dtype == "float16" else "float32")
    close(mx.nd.LeakyReLU(xs, act_type="gelu"), F.gelu(tx), dtype)
    out, mask = mx.nd.LeakyReLU(xs, act_type="rrelu", lower_bound=0.1, upper_bound=0.3)  # [out, mask], as MXNet
    close(out, F.leaky_relu(tx, 0.2), f32)
    assert mask.dtype == out.dtype and mask.shape == x.shape and not mask.asnumpy().any()
    g = rand(4, dtype=dtype)
    close(mx.nd.LeakyReLU(xs, strided(g[None])[0], act_type="prelu"), F.prelu(tx, t(g.astype("float64"))), dtype)


def test_activation_out_in_place():
    x = mx.nd.array(rand(4, 5))
    want = F.softsign(t(x.asnumpy()))
    r = mx.nd.Activation(x, act_type="softsign", out=x)
    assert r is x
    close(x, want)


def test_dropout():
    x = mx.nd.array(rand(40, 50))
    close(mx.nd.Dropout(strided(x.asnumpy())), x.asnumpy())  # inference: identity
    r = mx.nd.Dropout(x, p=0.25, mode="always").asnumpy()
    kept = r != 0
    assert 0.6 < kept.mean() < 0.9
    np.testing.assert_allclose(r[kept], x.asnumpy()[kept] / 0.75, rtol=1e-6)
    shared = mx.nd.Dropout(x, p=0.5, mode="always", axes=(0,)).asnumpy() != 0
    assert (shared == shared[:1]).all()  # one draw per column
    mx.random.seed(3)
    a = mx.nd.Dropout(x, p=0.5, mode="always").asnumpy()
    mx.random.seed(3)
    assert (mx.nd.Dropout(x, p=0.5, mode="always").asnumpy() == a).all()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_norms_match_torch(dtype):
    pdt = "float64" if dtype == "float64" else "float32"
    x = rand(3, 4, 5, 6, dtype=dtype)
    tx = t(x.astype("float64"))
    xs = strided(x)
    e3, e5 = float(np.float32(1e-3)), float(np.float32(1e-5))  # MXNet keeps eps in float32
    g, b, m = rand(4, dtype=pdt), rand(4, dtype=pdt), rand(4, dtype=pdt)
    v = np.abs(rand(4, dtype=pdt)) + 0.5
    tg, tb, tm, tv = (t(a.astype("float64")) for a in (g, b, m, v))
    close(mx.nd.BatchNorm(xs, g, b, m, v, fix_gamma=False, eps=1e-3), F.batch_norm(tx, tm, tv, tg, tb, eps=e3), dtype)
    close(mx.nd.BatchNorm(xs, g, b, m, v), F.batch_norm(tx, tm, tv, None, tb, eps=e3), dtype)
    g6, b6 = rand(6, dtype=dtype), rand(6, dtype=dtype)
    close(mx.nd.LayerNorm(xs, g6, b6), F.layer_norm(tx, (6,), t(g6.astype("float64")), t(b6.astype("float64")), eps=e5), dtype)
    g2, b2 = rand(2, dtype=dtype), rand(2, dtype=dtype)
    want = F.group_norm(tx, 2, eps=e5).reshape(3, 2, -1) * t(g2.astype("float64"))[:, None] + t(b2.astype("float64"))[:, None]
    close(mx.nd.GroupNorm(xs, g2, b2, num_groups=2), want.reshape(x.shape), dtype)
    # output_mean_var: [out, mean, inv_std] of the moving statistics (BatchNorm), [out, mean, std] of each
    # normalised group (LayerNorm: data's shape with 1 on the axis; GroupNorm: (batch, groups)), as MXNet
    r = mx.nd.BatchNorm(xs, g, b, m, v, output_mean_var=True)
    assert [np.dtype(a.dtype).name for a in r[1:]] == [pdt, pdt] and r[1].shape == r[2].shape == (4,)
    close(r[1], tm, pdt)
    close(r[2], 1 / torch.sqrt(tv + e3), "float16" if dtype == "float16" else pdt)  # MXNet adds eps in float16
    r = mx.nd.LayerNorm(xs, g6, b6, output_mean_var=True)
    assert r[1].shape == r[2].shape == (3, 4, 5, 1) and r[1].dtype == r[2].dtype == x.dtype
    close(r[1], tx.mean(-1, keepdim=True), dtype)
    close(r[2], torch.sqrt(tx.var(-1, unbiased=False, keepdim=True) + e5), dtype)
    r = mx.nd.GroupNorm(xs, g2, b2, num_groups=2, output_mean_var=True)
    assert r[1].shape == r[2].shape == (3, 2)
    close(r[1], tx.reshape(3, 2, -1).mean(-1), dtype)
    close(r[2], torch.sqrt(tx.reshape(3, 2, -1).var(-1, unbiased=False) + e5), dtype)
    norm = torch.sqrt((tx * tx).sum(1, keepdim=True) + float(np.float32(1e-10)))
    close(mx.nd.L2Normalization(xs, mode="channel"), tx / norm, dtype)


def test_norms_float32_only_and_lrn():
    x = rand(2, 5, 4, 3)
    g, b = rand(5), rand(5)
    close(mx.nd.InstanceNorm(strided(x), g, b), F.instance_norm(t(x), weight=t(g), bias=t(b), eps=1e-3))
    close(mx.nd.LRN(strided(x), nsize=3, alpha=0.1, beta=0.6, knorm=1.5),
          F.local_response_norm(t(x), 3, alpha=0.1, beta=0.6, k=1.5))
    with pytest.raises(TypeError):
        mx.nd.InstanceNorm(x.astype("float64"), g.astype("float64"), b.astype("float64"))
    with pytest.raises(TypeError):
        mx.nd.LRN(x.astype("float16"), nsize=3)


def test_embedding_out_and_dtypes():
    w = rand(10, 4)
    idx = np.array([[0, 9, 3], [12, -1, 2.7]], np.float32)
    want = w[np.clip(np.trunc(idx).astype(int), 0, 9)]
    close(mx.nd.Embedding(strided(idx), strided(w), input_dim=10, output_dim=4), want)
    out = mx.nd.zeros((2, 3, 8))[..., ::2]
    mx.nd.Embedding(torch.from_numpy(idx), w, input_dim=10, output_dim=4, out=out)
    close(out, want)
    wi = mx.nd.array(np.arange(40).reshape(10, 4), dtype="int64")
    assert mx.nd.Embedding(idx.astype("int32"), wi, input_dim=10, output_dim=4).asnumpy().tolist() == \
        np.arange(40).reshape(10, 4)[np.clip(np.trunc(idx).astype(int), 0, 9)].tolist()
    odd = np.array([np.nan, np.inf, -np.inf, -0.5, 9.99, 1e30], np.float32)  # MXNet's clip: NaN takes row 0
    assert np.array_equal(mx.nd.Embedding(mx.nd.array(odd), mx.nd.array(w), input_dim=10, output_dim=4).asnumpy(),
                          w[[0, 9, 0, 0, 9, 9]])
    # large enough (2^20 elements) that the rows are copied in parts on several cores
    big = np.random.default_rng(3).integers(-5, 3005, (4099,)).astype(np.float32)
    table = rand(3000, 256)
    got = mx.nd.Embedding(mx.nd.array(big), mx.nd.array(table), input_dim=3000, output_dim=256).asnumpy()
    assert np.array_equal(got, table[np.clip(big.astype(int), 0, 2999)])


@pytest.mark.parametrize("call", [
    lambda: mx.nd.Convolution(rand(1, 2, 4, 4, dtype="float16"), rand(2, 2, 3, 3, dtype="float16"), kernel=(3, 3), num_filter=2,
                              no_bias=True),
    lambda: mx.nd.FullyConnected(rand(2, 3).astype("float16"), rand(4, 3).astype("float16"), num_hidden=4, no_bias=True),
    lambda: mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4), dtype="bfloat16"), kernel=(2, 2)),
    lambda: mx.nd.Activation(mx.nd.ones((2,), dtype="int32"), act_type="relu"),
    lambda: mx.nd.BatchNorm(*[mx.nd.ones((2, 3, 4), dtype="bfloat16")] + [mx.nd.ones(3)] * 4),
    lambda: mx.nd.Embedding(mx.nd.ones(2), mx.nd.ones((2, 2), dtype="complex64"), input_dim=2, output_dim=2),
])
def test_unsupported_dtypes_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("call, error", [
    (lambda: mx.nd.Convolution(mx.nd.ones((1, 2, 4, 4)), mx.nd.ones((2, 2, 3, 3)), kernel=(3, 3), num_filter=2, num_group=0,
                               no_bias=True), ValueError),
    (lambda: mx.nd.Convolution(mx.nd.ones((1, 2, 4, 4)), mx.nd.ones((2, 2, 3, 3)), kernel=(3, 3), num_filter=2), ValueError),
    (lambda: mx.nd.Pooling(mx.nd.ones((1, 2, 4, 4)), kernel=(2, 2), stride=(0, 0)), ValueError),
    (lambda: mx.nd.LayerNorm(mx.nd.ones((2, 3)), mx.nd.ones(3), mx.nd.ones(3), output_mean_var=True, out=mx.nd.ones((2, 3))),
     TypeError),  # three results, one out
    (lambda: mx.nd.Embedding(mx.nd.ones(2), mx.nd.ones((2, 2)), input_dim=-1, output_dim=2), ValueError),
    (lambda: mx.nd.Convolution(mx.nd.ones((1, 1, 2, 2)), mx.nd.ones((1, 1, 1, 1)), kernel=(1, 1), num_filter=1, no_bias=True,
                               pad=(1 << 62, 0)), ValueError),
    (lambda: mx.nd.Pooling(mx.nd.ones((1, 1, 2, 2)), kernel=(1 << 62, 1)), ValueError),
    (lambda: mx.nd.UpSampling(mx.nd.ones((1, 1, 2, 2)), scale=1 << 62, sample_type="nearest"), ValueError),
    (lambda: mx.nd.UpSampling(mx.nd.ones((1, 1, 2, 2)), scale=2, sample_type="bilinear"), NotImplementedError),
    (lambda: mx.nd.Deconvolution(mx.nd.ones((1, 1, 2, 2)), mx.nd.ones((1, 1, 2, 2)), kernel=(2, 2), num_filter=1,
                                 stride=(1 << 62, 1)), ValueError),
    (lambda: mx.nd.LeakyReLU(mx.nd.ones(()), mx.nd.ones(1), act_type="prelu"), ValueError),
])
def test_bad_arguments(call, error):
    with pytest.raises(error):
        call()


def test_convolution_on_a_1x1_image_leaves_padding_taps_out():
    """README's departure for nd.Convolution: a 1x1 image's product uses only the tap that
    reads it, so an infinite weight at a padding tap does not reach the result (MXNet:
    0 * inf = NaN); a NaN at the live tap does, and gradients flow through the live tap."""
    x = mx.nd.ones((1, 2, 1, 1))
    w = mx.nd.ones((3, 2, 3, 3))
    w[:, :, 0, 0] = np.inf
    conv = dict(kernel=(3, 3), pad=(1, 1), num_filter=3, no_bias=True)
    np.testing.assert_array_equal(mx.nd.Convolution(x, w, **conv).asnumpy().ravel(), [2, 2, 2])
    w[:, :, 1, 1] = np.nan
    assert np.isnan(mx.nd.Convolution(x, w, **conv).asnumpy()).all()
    w = mx.nd.ones((3, 2, 3, 3))
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, **conv)
    y.backward()
    expected = np.zeros((3, 2, 3, 3), np.float32)
    expected[:, :, 1, 1] = 1
    np.testing.assert_array_equal(w.grad.asnumpy(), expected)
