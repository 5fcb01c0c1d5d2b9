"""bfloat16: mxgo holds and exchanges it (DLPack code 4) with PyTorch and JAX in every
environment; NumPy shows it as ml_dtypes' bfloat16 where that is installed (the main
environment) and ``asnumpy()`` raises a clear TypeError where it is not (the legacy one).
NumPy's own DLPack has no bfloat16 at all."""
import math

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx
from mxgo.base import NUMPY_BFLOAT16

from interop_helpers import NUMPY_HAS_BFLOAT16, NUMPY_VERSION, mx_address

# exactly representable in bfloat16 (8 bits of mantissa), specials included
VALUES = [0.0, -0.0, 0.5, -2.0, 3.140625, 2.0 ** 100, -1.5 * 2.0 ** -100, 65280.0, math.inf, -math.inf]


def _as_float32_list(x):
    return x.astype("float32").asnumpy().tolist()


def test_environment_has_the_expected_numpy_bfloat16():
    """The environment is what the tests below assume (see interop_helpers)."""
    assert (NUMPY_BFLOAT16 is not None) == NUMPY_HAS_BFLOAT16


def test_create_and_cast():
    x = mx.nd.array(VALUES, dtype="bfloat16")
    assert x.shape == (len(VALUES),) and _as_float32_list(x) == VALUES
    assert mx.nd.zeros((2, 3), dtype="bfloat16").astype("float64").asnumpy().tolist() == [[0.0] * 3] * 2
    y = x + 1
    assert _as_float32_list(y)[2:4] == [1.5, -1.0]
    nan = mx.nd.array([math.nan], dtype="bfloat16").astype("float32").asnumpy()
    assert np.isnan(nan).all()


def test_numpy_view_of_bfloat16():
    x = mx.nd.array(VALUES, dtype="bfloat16")
    if NUMPY_HAS_BFLOAT16:  # ml_dtypes: a real NumPy dtype
        import ml_dtypes
        a = x.asnumpy()
        assert a.dtype == np.dtype(ml_dtypes.bfloat16) and x.dtype is ml_dtypes.bfloat16
        assert a.astype(np.float32).tolist() == VALUES
        assert np.asarray(x).dtype == a.dtype and float(x[2].asscalar()) == 0.5
        assert "NDArray" in repr(x)
        # and back: from NumPy's bfloat16, copied and zero-copy
        b = np.array(VALUES, dtype=ml_dtypes.bfloat16)
        assert _as_float32_list(mx.nd.array(b, dtype="bfloat16")) == VALUES
        z = mx.nd.from_numpy(b)
        assert mx_address(z) == b.ctypes.data and _as_float32_list(z) == VALUES
    else:  # no NumPy bfloat16: a clear TypeError naming the dtype and the way out
        assert x.dtype == "bfloat16"
        for convert in (x.asnumpy, lambda: np.asarray(x), x[0].asscalar):
            with pytest.raises(TypeError, match="bfloat16"):
                convert()
        assert "NDArray" in repr(x)  # repr shows the values through float32


@pytest.mark.parametrize("path", ["capsule", "object"])
def test_torch_to_mxgo(path):
    t = torch.tensor(VALUES, dtype=torch.bfloat16)
    x = mx.nd.from_dlpack(tdl.to_dlpack(t) if path == "capsule" else t)
    assert mx_address(x) == t.data_ptr() and _as_float32_list(x) == VALUES
    x[0] = 8.0
    x.wait_to_read()
    assert t[0].item() == 8.0


@pytest.mark.parametrize("path", ["utils_for_read", "utils_for_write", "torch_from_dlpack"])
def test_mxgo_to_torch(path):
    x = mx.nd.array(VALUES, dtype="bfloat16")
    if path == "torch_from_dlpack":
        t = torch.from_dlpack(x)
    else:
        t = tdl.from_dlpack(x.to_dlpack_for_read() if path == "utils_for_read" else x.to_dlpack_for_write())
    assert t.dtype == torch.bfloat16 and t.data_ptr() == mx_address(x)
    assert t.float().tolist() == VALUES
    x[1] = -4.0
    x.wait_to_read()  # mxgo writes asynchronously: wait before torch reads
    assert t[1].item() == -4.0


def test_numpy_dlpack_has_no_bfloat16():
    """NumPy (1.24 and 2.x) refuses DLPack's bfloat16 code on import: BufferError since 2.5
    (numpy#31000; seen on 2.5), RuntimeError before (seen on 1.24, 2.2 and 2.4)."""
    with pytest.raises(BufferError if NUMPY_VERSION >= (2, 5) else RuntimeError, match="[Uu]nsupported dtype"):
        np.from_dlpack(mx.nd.zeros((2,), dtype="bfloat16"))
