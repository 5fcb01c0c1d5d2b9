"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for the neural-network
forward operators: FullyConnected, Convolution, Pooling, Activation, LeakyReLU, Dropout,
Embedding, BatchNorm, LayerNorm, InstanceNorm, GroupNorm, L2Normalization and LRN.

mxgo's operators whose bias or gamma input depends on a parameter (FullyConnected,
Convolution, LeakyReLU) take their arrays positionally only, so every case here passes
them positionally. Cases MXNet refuses (wrong shapes, dtypes, parameters) must raise in
mxgo too. Random data comes from a seeded NumPy generator, so no window holds ties.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.LeakyReLU: rrelu's mask (its second result) holds zeros, where MXNet 1.9.1 leaves it unwritten in
  inference (whatever the memory held).
- nd.Convolution: where every window covers the whole image (1x1 and 2x2 images under a 3x3 kernel with
  padding 1), weights whose taps read only padding leave the product (a NaN or infinite weight there does
  not reach the result), where MXNet 1.9.1 multiplies them by the padding's zeros: one product of the
  batch with the live taps instead of an im2col of zero rows.
"""
from mxnet_diff import Case


def _rand(name, shape, seed, dtype="float32"):
    return "%s = mx.nd.array(np.random.RandomState(%d).uniform(-2, 2, %r), dtype=%r)\n" % (name, seed, shape, dtype)


def _cases(names, setup, lines):
    return [Case(code=setup + "r = " + line, names=names) for line in lines]


FC = _rand("x", (4, 3, 5), 1) + _rand("w", (6, 15), 2) + _rand("b", (6,), 3) + _rand("w2", (6, 5), 4)
CONV = _rand("x", (2, 4, 7, 6), 5) + _rand("w", (6, 4, 3, 3), 6) + _rand("b", (6,), 7) + _rand("wg", (6, 2, 3, 3), 8)
CONV1 = _rand("x", (2, 3, 9), 9) + _rand("w", (4, 3, 3), 10) + _rand("b", (4,), 11)
CONV3 = _rand("x", (2, 2, 5, 4, 6), 12) + _rand("w", (3, 2, 2, 3, 3), 13) + _rand("b", (3,), 14)
POOL = _rand("x", (2, 3, 7, 6), 15)
POOL1 = _rand("x", (2, 3, 10), 16)
POOL3 = _rand("x", (1, 2, 5, 6, 4), 17)
ACT = _rand("x", (2, 3, 4), 18) + "x = x * 4\n"
BN = (_rand("x", (2, 3, 4, 5), 19) + _rand("g", (3,), 20) + _rand("be", (3,), 21) + _rand("mm", (3,), 22)
      + "mv = mx.nd.array(np.random.RandomState(23).uniform(0.5, 2, (3,)))\n")
LN = _rand("x", (2, 3, 5), 24) + _rand("g", (5,), 25) + _rand("be", (5,), 26) + _rand("g3", (3,), 27) + _rand("be3", (3,), 28)
DECONV = _rand("x", (2, 4, 3, 3), 35) + _rand("w", (4, 3, 2, 2), 36) + _rand("b", (3,), 37)
EMB = "x = mx.nd.array([[0, 3, 1], [2, 2, 4]])\n" + _rand("w", (5, 4), 29)

CASES = (
    _cases(("nd.FullyConnected",), FC, [
        "mx.nd.FullyConnected(x, w, b, num_hidden=6)",
        "mx.nd.FullyConnected(x, w, num_hidden=6, no_bias=True)",
        "mx.nd.FullyConnected(x, w2, b, num_hidden=6, flatten=False)",
        "mx.nd.FullyConnected(x, w2, num_hidden=6, flatten=False, no_bias=True)",
        "mx.nd.FullyConnected(x[0], w2, b, num_hidden=6)",
        "mx.nd.FullyConnected(x.astype('float64'), w.astype('float64'), b.astype('float64'), num_hidden=6)",
        "mx.nd.FullyConnected(x, w, num_hidden=6)",  # bias missing
        "mx.nd.FullyConnected(x, w, b, num_hidden=5)",
        "mx.nd.FullyConnected(x, w2, b, num_hidden=6)",
        "mx.nd.FullyConnected(x, w, b)",
        "mx.nd.FullyConnected(x, w.astype('float64'), b, num_hidden=6)",
        "mx.nd.FullyConnected(x.astype('float16'), w.astype('float16'), b.astype('float16'), num_hidden=6)",
        "mx.nd.FullyConnected(x.astype('int32'), w.astype('int32'), b.astype('int32'), num_hidden=6)",
        "mx.nd.FullyConnected(x, w, b, num_hidden=6, bogus=1)",
    ])
    + _cases(("nd.Convolution",), CONV, [
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=6, no_bias=True)",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, stride=(2, 1), pad=(1, 2))",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, dilate=(2, 2), pad=(1, 1))",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, stride=(3, 2), dilate=(1, 2))",
        "mx.nd.Convolution(x, wg, b, kernel=(3, 3), num_filter=6, num_group=2)",
        "mx.nd.Convolution(x, w[:, :, :1, :1], b, kernel=(1, 1), num_filter=6)",
        "mx.nd.Convolution(x, w[:, :, :1, :1], b, kernel=(1, 1), num_filter=6, stride=(2, 2))",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, layout='NCHW', workspace=64, cudnn_tune='off')",
        "mx.nd.Convolution(x.astype('float64'), w.astype('float64'), b.astype('float64'), kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=6)",  # bias missing
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=5)",
        "mx.nd.Convolution(x, w, b, kernel=(2, 2), num_filter=6)",
        "mx.nd.Convolution(x, w, b, kernel=(3,), num_filter=6)",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, stride=(2,))",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, stride=(0, 1))",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, dilate=(4, 4))",
        "mx.nd.Convolution(x, wg, b, kernel=(3, 3), num_filter=6, num_group=3)",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, layout='NCW')",
        "mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=6, cudnn_tune='bad')",
        "mx.nd.Convolution(x.astype('float64'), w, b, kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution(x.astype('float16'), w.astype('float16'), b.astype('float16'), kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution(x, w, b, num_filter=6)",
    ])
    + _cases(("nd.Convolution",), CONV1, [
        "mx.nd.Convolution(x, w, b, kernel=(3,), num_filter=4)",
        "mx.nd.Convolution(x, w, b, kernel=(3,), num_filter=4, stride=(2,), pad=(2,), dilate=(2,))",
        "mx.nd.Convolution(x, w, b, kernel=(3,), num_filter=4, layout='NCW')",
        "mx.nd.Convolution(x, w, b, kernel=3, num_filter=4)",
    ])
    + _cases(("nd.Convolution",), CONV3, [
        "mx.nd.Convolution(x, w, b, kernel=(2, 3, 3), num_filter=3)",
        "mx.nd.Convolution(x, w, b, kernel=(2, 3, 3), num_filter=3, stride=(2, 1, 2), pad=(1, 1, 0))",
        "mx.nd.Convolution(x, w, kernel=(2, 3, 3), num_filter=3, no_bias=True, dilate=(2, 1, 1))",
    ])
    + _cases(("nd.Convolution_v1",), CONV, [
        "mx.nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution_v1(x, wg, kernel=(3, 3), num_filter=6, num_group=2, no_bias=True, stride=(2, 2), pad=(1, 1))",
        "mx.nd.Convolution_v1(x.astype('float64'), w.astype('float64'), b.astype('float64'), kernel=(3, 3), num_filter=6)",
        "mx.nd.Convolution_v1(x[:, :, 0].copy(), w[:, :, 0].copy(), b, kernel=(3,), num_filter=6)",
        "mx.nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=5)",
    ])
    + _cases(("nd.Pooling_v1",), POOL, [
        "mx.nd.Pooling_v1(x, kernel=(2, 2))",
        "mx.nd.Pooling_v1(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg')",
        "mx.nd.Pooling_v1(x, kernel=(3, 3), stride=(2, 2), pool_type='sum', pooling_convention='full')",
        "mx.nd.Pooling_v1(x, global_pool=True, pool_type='avg')",
        "mx.nd.Pooling_v1(x.astype('float16'), kernel=(2, 2))",
        "mx.nd.Pooling_v1(x, kernel=(2, 2), pool_type='lp')",
        "mx.nd.Pooling_v1(x[0], kernel=(2,))",
        "mx.nd.Pooling_v1(x, kernel=(2, 2), count_include_pad=False)",
    ])
    + _cases(("nd.UpSampling",), DECONV + _rand("y", (2, 2, 1, 3), 40), [
        "mx.nd.UpSampling(x, scale=2, sample_type='nearest')",
        "mx.nd.UpSampling(x, scale=3, sample_type='nearest', num_filter=7)",
        "mx.nd.UpSampling(x, x[:, :2], scale=2, sample_type='nearest', num_args=2)",
        "mx.nd.UpSampling(x, y, scale=2, sample_type='nearest', num_args=2)",
        "mx.nd.UpSampling(x, x[:, :2].copy(), scale=2, sample_type='nearest', num_args=2, multi_input_mode='sum')",
        "mx.nd.UpSampling(x[:, :2].copy(), x[:, 2:], scale=2, sample_type='nearest', num_args=2, multi_input_mode='sum')",
        "mx.nd.UpSampling(x.astype('float64'), scale=2, sample_type='nearest')",
        "mx.nd.UpSampling(x.astype('float16'), scale=1, sample_type='nearest')",
        "mx.nd.UpSampling(x, mx.nd.ones((2, 2, 2, 2)), scale=2, sample_type='nearest', num_args=2)",
        "mx.nd.UpSampling(x[0], scale=2, sample_type='nearest')",
        "mx.nd.UpSampling(x, scale=2)",
        "mx.nd.UpSampling(x, scale=2, sample_type='bad')",
    ])
    + _cases(("nd.Deconvolution",), DECONV, [
        "mx.nd.Deconvolution(x, w, kernel=(2, 2), num_filter=3)",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False)",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), pad=(1, 1), adj=(1, 1))",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), pad=(1, 1), adj=(0, 1))",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), target_shape=(6, 6))",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), pad=(1, 1), target_shape=(5, 5))",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, dilate=(2, 2))",
        "mx.nd.Deconvolution(x, w[:, :1], b[:2], kernel=(2, 2), num_filter=2, num_group=2, no_bias=False)",
        "mx.nd.Deconvolution(x[:, :, 0].copy(), w[:, :, 0].copy(), b, kernel=(2,), num_filter=3, no_bias=False, stride=(3,))",
        "mx.nd.Deconvolution(mx.nd.ones((1, 4, 2, 2, 2)), mx.nd.ones((4, 3, 2, 2, 2)), b, kernel=(2, 2, 2), num_filter=3, "
        "no_bias=False)",
        "mx.nd.Deconvolution(x.astype('float64'), w.astype('float64'), kernel=(2, 2), num_filter=3, layout='NCHW')",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3)",  # bias given but no_bias by default
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), target_shape=(7, 7))",
        "mx.nd.Deconvolution(x, w, b, kernel=(2, 2), num_filter=3, no_bias=False, stride=(2, 2), adj=(2, 2))",
        "mx.nd.Deconvolution(x, w, kernel=(2, 2), num_filter=3, adj=(1,))",
        "mx.nd.Deconvolution(x, w, kernel=(3, 3), num_filter=3)",
        "mx.nd.Deconvolution(x, w, kernel=(2, 2), num_filter=4)",
    ])
    + _cases(("nd.im2col",), CONV, [
        "mx.nd.im2col(x, kernel=(2, 2))",
        "mx.nd.im2col(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1), dilate=(1, 2))",
        "mx.nd.im2col(mx.nd.ones((1, 2, 3, 4, 4)), kernel=(2, 2, 3))",
        "mx.nd.im2col(x.astype('float64'), kernel=(2, 2))",
        "mx.nd.im2col(x, kernel=(9, 9))",
        "mx.nd.im2col(x, kernel=(2, 2, 2))",
    ])
    + _cases(("nd.col2im",), _rand("x", (2, 16, 4), 38) + _rand("y", (2, 8, 25), 39), [
        "mx.nd.col2im(x, output_size=(3, 3), kernel=(2, 2))",
        "mx.nd.col2im(y, output_size=(4, 4), kernel=(2, 2), pad=(1, 1))",
        "mx.nd.col2im(x, output_size=(4, 3), kernel=(2, 2), stride=(2, 1))",
        "mx.nd.col2im(x.astype('float64'), output_size=(3, 3), kernel=(2, 2))",
        "mx.nd.col2im(x, output_size=(4, 4), kernel=(2, 2))",
        "mx.nd.col2im(y, output_size=(4, 4), kernel=(3, 3), pad=(1, 1))",
    ])
    + _cases(("nd.Pooling",), POOL, [
        "mx.nd.Pooling(x, kernel=(2, 2))",
        "mx.nd.Pooling(x, kernel=(3, 2), stride=(2, 2))",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1))",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pooling_convention='full')",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg')",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='avg', count_include_pad=False)",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 3), pad=(2, 1), pool_type='avg', pooling_convention='full')",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 3), pad=(2, 1), pool_type='avg', pooling_convention='full', "
        "count_include_pad=False)",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 3), pad=(2, 1), pool_type='max', pooling_convention='full')",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='sum')",
        "mx.nd.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type='lp', p_value=2)",
        "mx.nd.Pooling(x, kernel=(2, 2), pool_type='lp', p_value=1)",
        "mx.nd.Pooling(x, kernel=(2, 2), pool_type='lp', p_value=3)",
        "mx.nd.Pooling(x, global_pool=True)",
        "mx.nd.Pooling(x, global_pool=True, pool_type='avg')",
        "mx.nd.Pooling(x, kernel=(9, 9), global_pool=True, pool_type='sum')",
        "mx.nd.Pooling(x, kernel=(2, 2), layout='NHWC')",
        "mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='avg', layout='NHWC')",
        "mx.nd.Pooling(x, kernel=(2, 2), layout='NCHW', cudnn_off=True)",
        "mx.nd.Pooling(x.astype('float64'), kernel=(3, 3), pool_type='avg')",
        "mx.nd.Pooling(x.astype('float16'), kernel=(3, 3))",
        "mx.nd.Pooling(x.astype('int32'), kernel=(2, 2))",
        "mx.nd.Pooling(x)",
        "mx.nd.Pooling(x, kernel=(8, 8))",
        "mx.nd.Pooling(x, kernel=(2,))",
        "mx.nd.Pooling(x, kernel=(2, 2), stride=(0, 1))",
        "mx.nd.Pooling(x, kernel=(2, 2), pad=(2, 2))",
        "mx.nd.Pooling(x, kernel=(2, 2), pad=(1,))",
        "mx.nd.Pooling(x, kernel=(2, 2), pool_type='lp')",
        "mx.nd.Pooling(x, kernel=(2, 2), pool_type='bad')",
        "mx.nd.Pooling(x, kernel=(2, 2), pooling_convention='same')",
        "mx.nd.Pooling(x, kernel=(2, 2), layout='NCW')",
        "mx.nd.Pooling(x[0, 0], kernel=(2,))",
        "mx.nd.Pooling(mx.nd.array([[[1, np.nan, 3, 2, np.nan, np.nan]]]), kernel=(2,))",
    ])
    + _cases(("nd.Pooling",), POOL1, [
        "mx.nd.Pooling(x, kernel=(3,))",
        "mx.nd.Pooling(x, kernel=(3,), stride=(3,), pooling_convention='full', pool_type='avg')",
        "mx.nd.Pooling(x, kernel=(3,), stride=(2,), pad=(1,), pool_type='sum')",
        "mx.nd.Pooling(x, global_pool=True, pool_type='avg')",
        "mx.nd.Pooling(x, kernel=(3,), stride=(2,), pooling_convention='same')",
        "mx.nd.Pooling(x, kernel=(2,), layout='NWC')",
    ])
    + _cases(("nd.Pooling",), POOL3, [
        "mx.nd.Pooling(x, kernel=(2, 2, 2))",
        "mx.nd.Pooling(x, kernel=(2, 3, 2), stride=(2, 2, 1), pad=(1, 1, 0), pool_type='avg')",
        "mx.nd.Pooling(x, global_pool=True, pool_type='max')",
    ])
    + _cases(("nd.Activation",), ACT, [
        "mx.nd.Activation(x, act_type='relu')",
        "mx.nd.Activation(x, act_type='sigmoid')",
        "mx.nd.Activation(x, act_type='tanh')",
        "mx.nd.Activation(x, act_type='softrelu')",
        "mx.nd.Activation(x, act_type='softsign')",
        "mx.nd.Activation(data=x, act_type='relu')",
        "mx.nd.Activation(x.astype('float64'), act_type='softrelu')",
        "mx.nd.Activation(x.astype('float16'), act_type='sigmoid')",
        "mx.nd.Activation(x.astype('float16'), act_type='softsign')",
        "mx.nd.Activation(x)",
        "mx.nd.Activation(mx.nd.array([np.nan, -1, 1, -np.inf, np.inf]), act_type='relu')",
        "mx.nd.Activation(mx.nd.array([np.nan, -1, 1, -np.inf, np.inf], dtype='float64'), act_type='relu')",
        "mx.nd.Activation(mx.nd.array([np.nan, -1, 1, -np.inf, np.inf]), act_type='softrelu')",
        "mx.nd.Activation(mx.nd.array([np.nan, -1, 1, -np.inf, np.inf]), act_type='softsign')",
        "mx.nd.Activation(x, act_type='gelu')",
        "mx.nd.Activation(x.astype('int32'), act_type='relu')",
    ])
    + _cases(("nd.LeakyReLU",), ACT, [
        "mx.nd.LeakyReLU(x)",
        "mx.nd.LeakyReLU(x, slope=0.1)",
        "mx.nd.LeakyReLU(x, act_type='elu')",
        "mx.nd.LeakyReLU(x, act_type='elu', slope=0.7)",
        "mx.nd.LeakyReLU(x, act_type='selu')",
        "mx.nd.LeakyReLU(x, act_type='gelu')",
        "mx.nd.LeakyReLU(x, mx.nd.array([0.1, 0.2, 0.3]), act_type='prelu')",
        "mx.nd.LeakyReLU(x, mx.nd.array([0.3]), act_type='prelu')",
        "mx.nd.LeakyReLU(x[0, 0], mx.nd.array([0.1, 0.2, 0.3, 0.4]), act_type='prelu')",
        "mx.nd.LeakyReLU(x.astype('float64'), act_type='selu')",
        "mx.nd.LeakyReLU(x.astype('float16'), act_type='gelu')",
        "mx.nd.LeakyReLU(x, act_type='prelu')",
        "[mx.nd.LeakyReLU(mx.nd.array([np.nan, -1, 1, -np.inf, np.inf]), act_type=a) for a in ('leaky', 'elu', 'selu', 'gelu')]",
        "mx.nd.LeakyReLU(x, mx.nd.array([0.1, 0.2]), act_type='prelu')",  # gamma matched to the batch axis
        "mx.nd.LeakyReLU(x, mx.nd.array([0.1, 0.2, 0.3, 0.4]), act_type='prelu')",
        "mx.nd.LeakyReLU(x, mx.nd.array([0.1, 0.2, 0.3]), act_type='leaky')",
        "mx.nd.LeakyReLU(x, mx.nd.array([0.1, 0.2, 0.3], dtype='float64'), act_type='prelu')",
        "mx.nd.LeakyReLU(x, act_type='bad')",
        "mx.nd.LeakyReLU(x.astype('int32'))",
    ])
    + _cases(("nd.Dropout",), ACT, [
        "mx.nd.Dropout(x)",
        "mx.nd.Dropout(x, p=0.9)",
        "mx.nd.Dropout(x, p=0.5, axes=(1,))",
        "mx.nd.Dropout(x, p=0.0, mode='always')",
        "mx.nd.Dropout(x, p=0.3, cudnn_off=True)",
        "mx.nd.Dropout(x.astype('float16'))",
        "mx.nd.Dropout(x.astype('float64'), p=0.2)",
        "mx.nd.Dropout(x, p=0.5, mode='always').shape",
        "(mx.nd.Dropout(mx.nd.ones((50, 40)), p=1.0, mode='always').asnumpy() != 0).all().item()",
        "mx.nd.Dropout(x, p=1.5)",
        "mx.nd.Dropout(x, mode='bad')",
        "mx.nd.Dropout(x.astype('int32'))",
    ])
    + _cases(("nd.Embedding",), EMB, [
        "mx.nd.Embedding(x, w, input_dim=5, output_dim=4)",
        "mx.nd.Embedding(x.astype('int32'), w, input_dim=5, output_dim=4)",
        "mx.nd.Embedding(mx.nd.array([-1.7, 2.6, 1.5, 9]), w, input_dim=5, output_dim=4)",
        "mx.nd.Embedding(x, w.astype('float64'), input_dim=5, output_dim=4, dtype='float64')",
        "mx.nd.Embedding(x, w.astype('float16'), input_dim=5, output_dim=4, dtype='float16')",
        "mx.nd.Embedding(x, w.astype('int32'), input_dim=5, output_dim=4, dtype='int32')",
        "mx.nd.Embedding(x, w, input_dim=5, output_dim=4, sparse_grad=True)",
        "mx.nd.Embedding(x, w, input_dim=6, output_dim=4)",
        "mx.nd.Embedding(x, w, input_dim=5, output_dim=3)",
        "mx.nd.Embedding(x, w, input_dim=5)",
    ])
    + _cases(("nd.BatchNorm",), BN, [
        "mx.nd.BatchNorm(x, g, be, mm, mv)",
        "mx.nd.BatchNorm(x, g, be, mm, mv, fix_gamma=False)",
        "mx.nd.BatchNorm(x, g, be, mm, mv, fix_gamma=False, eps=0.1, use_global_stats=True)",
        "mx.nd.BatchNorm(x, g, be, mm, mv, fix_gamma=False, momentum=0.5, cudnn_off=True)",
        "mx.nd.BatchNorm(x, g[:1].tile(5), be[:1].tile(5), mm[:1].tile(5), mv[:1].tile(5), axis=-1, fix_gamma=False)",
        "mx.nd.BatchNorm(x, g[:1].tile(4), be[:1].tile(4), mm[:1].tile(4), mv[:1].tile(4), axis=2, fix_gamma=False)",
        "mx.nd.BatchNorm(x.astype('float16'), g, be, mm, mv, fix_gamma=False)",
        "mx.nd.BatchNorm(*[a.astype('float64') for a in (x, g, be, mm, mv)], fix_gamma=False)",
        "mx.nd.BatchNorm(x, g, be, mm, -mv)",
        "mx.nd.BatchNorm(x, g, be, mm, mv, axis=4)",
        "mx.nd.BatchNorm(x.astype('float64'), g, be, mm, mv)",
        "mx.nd.BatchNorm(x.astype('int32'), g, be, mm, mv)",
        "mx.nd.BatchNorm(x, g, be, mm)",
    ])
    + _cases(("nd.LayerNorm",), LN, [
        "mx.nd.LayerNorm(x, g, be)",
        "mx.nd.LayerNorm(x, g, be, eps=0.1)",
        "mx.nd.LayerNorm(x, g3, be3, axis=1)",
        "mx.nd.LayerNorm(x, g3, be3, axis=-2)",
        "mx.nd.LayerNorm(x.astype('float16'), g.astype('float16'), be.astype('float16'))",
        "mx.nd.LayerNorm(x.astype('float64'), g.astype('float64'), be.astype('float64'))",
        "mx.nd.LayerNorm(x, g3, be3)",
        "mx.nd.LayerNorm(x, g, be, axis=3)",
        "mx.nd.LayerNorm(x.astype('float64'), g, be)",
        "mx.nd.LayerNorm(x.astype('int32'), g.astype('int32'), be.astype('int32'))",
        "mx.nd.LayerNorm(x, g)",
    ])
    + _cases(("nd.InstanceNorm",), LN, [
        "mx.nd.InstanceNorm(x, g3, be3)",
        "mx.nd.InstanceNorm(x, g3, be3, eps=0.1)",
        "mx.nd.InstanceNorm(x.reshape((2, 3, 1, 5)), g3, be3)",
        "mx.nd.InstanceNorm(x, g, be)",
        "mx.nd.InstanceNorm(x[0], g, be)",
        "mx.nd.InstanceNorm(x.astype('float64'), g3.astype('float64'), be3.astype('float64'))",
    ])
    + _cases(("nd.GroupNorm",), _rand("x", (2, 4, 3), 30) + _rand("g", (2,), 31) + _rand("be", (2,), 32), [
        "mx.nd.GroupNorm(x, g, be, num_groups=2)",
        "mx.nd.GroupNorm(x, g[:1], be[:1])",
        "mx.nd.GroupNorm(x.reshape((2, 4, 3, 1)), g, be, num_groups=2, eps=0.5)",
        "mx.nd.GroupNorm(x.astype('float64'), g.astype('float64'), be.astype('float64'), num_groups=2)",
        "mx.nd.GroupNorm(x, mx.nd.ones(4), mx.nd.zeros(4), num_groups=2)",
        "mx.nd.GroupNorm(x, mx.nd.ones(3), mx.nd.zeros(3), num_groups=3)",
        "mx.nd.GroupNorm(x[0], g[:1], be[:1])",
    ])
    + _cases(("nd.L2Normalization",), _rand("x", (2, 4, 3), 33), [
        "mx.nd.L2Normalization(x)",
        "mx.nd.L2Normalization(x, mode='channel')",
        "mx.nd.L2Normalization(x, mode='spatial')",
        "mx.nd.L2Normalization(x, eps=10)",
        "mx.nd.L2Normalization(x[0])",
        "mx.nd.L2Normalization(x[0], mode='channel')",
        "mx.nd.L2Normalization(x[0, 0])",
        "mx.nd.L2Normalization(x.astype('float16'))",
        "mx.nd.L2Normalization(x.astype('float64'), mode='channel')",
        "mx.nd.L2Normalization(x[0], mode='spatial')",
        "mx.nd.L2Normalization(x, mode='bad')",
        "mx.nd.L2Normalization(x.astype('int32'))",
    ])
    + _cases(("nd.LRN",), _rand("x", (2, 5, 3, 2), 34), [
        "mx.nd.LRN(x, nsize=3)",
        "mx.nd.LRN(x, nsize=5, alpha=0.1, beta=0.5, knorm=1)",
        "mx.nd.LRN(x * 10, nsize=1, alpha=0.5)",
        "mx.nd.LRN(x)",
        "mx.nd.LRN(x[0], nsize=3)",
        "mx.nd.LRN(x.astype('float64'), nsize=3)",
    ])
)

# MXNet code passes the arrays of these layers by name as often as by position; bias and
# gamma are optional inputs ("bias?" in the registry).
_KW = ("np.random.seed(2)\nx = mx.nd.array(np.random.randn(2, 3, 5, 5))\nw = mx.nd.array(np.random.randn(4, 3, 3, 3))\n"
       "b = mx.nd.array(np.random.randn(4))\nfw = mx.nd.array(np.random.randn(6, 75))\nfb = mx.nd.array(np.random.randn(6))\n")
CASES += [
    Case(code=_KW + "r = mx.nd.FullyConnected(data=x, weight=fw, bias=fb, num_hidden=6)", names=("nd.FullyConnected",)),
    Case(code=_KW + "r = mx.nd.FullyConnected(x, fw, num_hidden=6, no_bias=True)", names=("nd.FullyConnected",)),
    Case(code=_KW + "r = mx.nd.FullyConnected(data=x, weight=fw, num_hidden=6, no_bias=True)", names=("nd.FullyConnected",)),
    Case(code=_KW + "r = mx.nd.FullyConnected(x, fw, num_hidden=6)", names=("nd.FullyConnected",)),
    Case(code=_KW + "r = mx.nd.Convolution(data=x, weight=w, bias=b, kernel=(3, 3), num_filter=4, pad=(1, 1))",
         names=("nd.Convolution",)),
    Case(code=_KW + "r = mx.nd.Convolution(data=x, weight=w, kernel=(3, 3), num_filter=4, no_bias=True)",
         names=("nd.Convolution",)),
    Case(code=_KW + "r = mx.nd.Deconvolution(data=x, weight=w.transpose((1, 0, 2, 3)), kernel=(3, 3), num_filter=4)",
         names=("nd.Deconvolution",)),
    Case(code=_KW + "r = mx.nd.LeakyReLU(data=x, gamma=mx.nd.array([0.1, 0.2, 0.3]), act_type='prelu')",
         names=("nd.LeakyReLU",)),
    Case(code=_KW + "r = mx.nd.LeakyReLU(data=x, act_type='leaky', slope=0.3)", names=("nd.LeakyReLU",)),
]

# ---- several results (issue 26): output_mean_var, rrelu's mask -----------------------------
# MXNet 1.9.1 in inference: BatchNorm gives [out, moving_mean, 1/sqrt(moving_var + eps)] in the
# statistics' dtype (for float16 data the sum is rounded to float16); LayerNorm [out, mean, std]
# with data's shape and 1 on the axis; GroupNorm [out, mean, std] of shape (batch, num_groups);
# std = sqrt(var + eps), in data's dtype. rrelu gives [out, mask]: the mask's values are what
# MXNet leaves in memory it never writes in inference, so only its shape and dtype compare.
GN = _rand("x", (2, 4, 3, 5), 40) + _rand("g2", (2,), 41) + _rand("be2", (2,), 42)
_MV = "r = mx.nd.%s\nr = [type(r).__name__, len(r)] + list(r)"
CASES += [Case(code=BN + _MV % line, names=("nd.BatchNorm",), id=line[:70]) for line in [
    "BatchNorm(x, g, be, mm, mv, output_mean_var=True)",
    "BatchNorm(x, g, be, mm, mv, output_mean_var=True, fix_gamma=False, eps=0.01)",
    "BatchNorm(x, g[:1].tile(5), be[:1].tile(5), mm[:1].tile(5), mv[:1].tile(5), axis=-1, output_mean_var=True)",
    "BatchNorm(x.astype('float16'), g, be, mm, mv, output_mean_var=True, fix_gamma=False)",
    "BatchNorm(x.astype('float16'), g, be, mm, mv * 3, output_mean_var=True, eps=0.003)",
    "BatchNorm(*[a.astype('float64') for a in (x, g, be, mm, mv)], output_mean_var=True, use_global_stats=True)",
]] + [Case(code=LN + _MV % line, names=("nd.LayerNorm",), id=line[:70]) for line in [
    "LayerNorm(x, g, be, output_mean_var=True)",
    "LayerNorm(x, g3, be3, axis=1, output_mean_var=True, eps=0.1)",
    "LayerNorm(x, g3, be3, axis=-2, output_mean_var=True)",
    "LayerNorm(x[0], g, be, output_mean_var=True)",
    "LayerNorm(x[:, 0], mx.nd.ones((2,)), mx.nd.zeros((2,)), axis=0, output_mean_var=True)",
    "LayerNorm(x.astype('float16'), g.astype('float16'), be.astype('float16'), output_mean_var=True)",
    "LayerNorm(x.astype('float64'), g.astype('float64'), be.astype('float64'), output_mean_var=True)",
]] + [Case(code=GN + _MV % line, names=("nd.GroupNorm",), id=line[:70]) for line in [
    "GroupNorm(x, g2, be2, num_groups=2, output_mean_var=True)",
    "GroupNorm(x, mx.nd.ones((1,)), mx.nd.zeros((1,)), output_mean_var=True, eps=0.1)",
    "GroupNorm(x, mx.nd.ones((4,)), mx.nd.zeros((4,)), num_groups=4, output_mean_var=True)",
    "GroupNorm(x[:, :, 0], g2, be2, num_groups=2, output_mean_var=True)",
    "GroupNorm(x.astype('float64'), g2.astype('float64'), be2.astype('float64'), num_groups=2, output_mean_var=True)",
    "GroupNorm(x.astype('float16'), g2.astype('float16'), be2.astype('float16'), num_groups=2, output_mean_var=True)",
]] + [
    Case(code=BN + "r = mx.nd.BatchNorm(x, g, be, mm, mv, output_mean_var=False)", names=("nd.BatchNorm",)),
    Case(code=LN + "r = mx.nd.LayerNorm(x, g3, be3, output_mean_var=True)", names=("nd.LayerNorm",)),  # refused
    Case(code=GN + "r = mx.nd.GroupNorm(x, g2, be2, num_groups=3, output_mean_var=True)", names=("nd.GroupNorm",)),
] + [Case(code=ACT + "r = mx.nd.LeakyReLU(%s, act_type='rrelu'%s)\nr = [type(r).__name__, len(r), r[0], r[1].shape, r[1].dtype]"
          % (x, kw), names=("nd.LeakyReLU",), id="rrelu %s%s" % (x, kw)) for x, kw in [
    ("x", ""), ("x", ", lower_bound=0.1, upper_bound=0.5"), ("x[0]", ", lower_bound=0.3, upper_bound=0.3"),
    ("x.astype('float16')", ""), ("x.astype('float64')", ", upper_bound=0.9"), ("x.reshape((2, 3, 2, 2))", ""),
]] + [
    Case(code=ACT + "r = mx.nd.LeakyReLU(x.astype('int32'), act_type='rrelu')", names=("nd.LeakyReLU",)),
    Case(code=ACT + "r = mx.nd.LeakyReLU(x.astype('float64') / 3, slope=0.1)", names=("nd.LeakyReLU",),
         id="leaky of float64 data multiplies in float32"),
    Case(code=ACT + "o = [mx.nd.zeros((2, 3, 4)), mx.nd.zeros((2, 3, 4))]\n"
         "r = mx.nd.LeakyReLU(x, act_type='rrelu', out=o)\nr = [type(r).__name__, r[0], o[0]]", names=("nd.LeakyReLU",),
         id="rrelu out=[out, mask]"),
    Case(code=ACT + "r = mx.nd.LeakyReLU(x, act_type='rrelu', out=mx.nd.zeros((2, 3, 4)))", names=("nd.LeakyReLU",)),
]
