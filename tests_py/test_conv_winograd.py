"""3x3 convolutions of 32 channels and more, which mxgo computes by Winograd's F(2x2, 3x3)
(pkg/ops/nn/nn_conv_winograd.go): against PyTorch's conv2d in float64, each output within
1e-6 of its sum of |terms| (the Go tests bound the same, with the direct paths' bits where
it declines); planes of odd and even sides, paddings 0 to 2, channels that are not a
multiple of the transform's 16 lanes, batches split into chunks of tiles mid row. An
infinity in the data must stay with the outputs whose windows hold it (Winograd declines
non-finite operands: its transforms mix a tile's inputs)."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mxgo as mx

CASES = [  # n, c, f, h, w, pad
    (1, 32, 32, 14, 14, 1),
    (2, 40, 33, 9, 12, 1),
    (1, 32, 48, 8, 8, 2),
    (3, 48, 32, 12, 11, 0),
    (4, 32, 32, 20, 20, 1),
    (1, 64, 64, 4, 4, 1),
]


@pytest.mark.parametrize("n,c,f,h,w,pad", CASES)
@pytest.mark.parametrize("bias", [False, True])
def test_winograd_convolution_matches_torch_float64(n, c, f, h, w, pad, bias):
    rng = np.random.default_rng(n * 1000 + c + f + h + w + pad)
    x = rng.uniform(-1, 1, (n, c, h, w)).astype(np.float32)
    k = rng.uniform(-1, 1, (f, c, 3, 3)).astype(np.float32)
    b = rng.uniform(-1, 1, f).astype(np.float32)
    args = [mx.nd.array(x), mx.nd.array(k)] + ([mx.nd.array(b)] if bias else [])
    got = mx.nd.Convolution(*args, kernel=(3, 3), pad=(pad, pad), num_filter=f, no_bias=not bias).asnumpy()
    tx, tk = torch.from_numpy(x).double(), torch.from_numpy(k).double()
    tb = torch.from_numpy(b).double() if bias else None
    want = F.conv2d(tx, tk, tb, padding=pad).numpy()
    mag = F.conv2d(tx.abs(), tk.abs(), tb.abs() if bias else None, padding=pad).numpy()
    assert got.shape == want.shape and got.dtype == np.float32
    err = np.abs(got.astype(np.float64) - want) / np.maximum(mag, 1e-30)
    assert err.max() <= 1e-6, (err.max(), np.unravel_index(err.argmax(), err.shape))


def test_an_infinity_stays_in_the_windows_that_hold_it():
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (1, 32, 10, 10)).astype(np.float32)
    x[0, 5, 4, 6] = np.inf
    k = rng.uniform(-1, 1, (32, 32, 3, 3)).astype(np.float32)
    got = mx.nd.Convolution(mx.nd.array(x), mx.nd.array(k), kernel=(3, 3), pad=(1, 1), num_filter=32,
                            no_bias=True).asnumpy()
    touched = np.zeros((10, 10), bool)
    touched[3:6, 5:8] = True  # outputs whose 3x3 window (padding 1) holds input (4, 6)
    assert np.isfinite(got[:, :, ~touched]).all()
    assert not np.isfinite(got[:, :, touched]).any()
    want = F.conv2d(torch.from_numpy(x), torch.from_numpy(k), padding=1).numpy()
    np.testing.assert_allclose(got[:, :, ~touched], want[:, :, ~touched], rtol=1e-4, atol=1e-4)
