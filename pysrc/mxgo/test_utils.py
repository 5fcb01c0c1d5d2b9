"""Testing helpers, as in ``mxnet.test_utils``."""
import numpy as np

from .ndarray import NDArray

__all__ = ["assert_almost_equal", "default_rtols", "default_atols"]

# MXNet's defaults by dtype.
_RTOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5}
_ATOL = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20}


def default_rtols():
    return dict(_RTOL)


def default_atols():
    return dict(_ATOL)


def _as_numpy(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    return np.asarray(x)


def _tolerance(table, a, b, given):
    if given is not None:
        return given
    dts = [d for d in (a.dtype, b.dtype) if d in table]
    return max((table[d] for d in dts), default=0.0)


def assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False):
    """Asserts that ``a`` and ``b`` (NDArrays, NumPy arrays or scalars) have the same shape
    and agree within ``|a - b| <= atol + rtol * |b|`` elementwise. Default tolerances
    depend on the dtypes, as in MXNet (exact for integers)."""
    a_np, b_np = _as_numpy(a), _as_numpy(b)
    if a_np.shape != b_np.shape:
        raise AssertionError("shape mismatch: %s %s vs %s %s" % (names[0], a_np.shape, names[1], b_np.shape))
    rtol = _tolerance(_RTOL, a_np, b_np, rtol)
    atol = _tolerance(_ATOL, a_np, b_np, atol)
    np.testing.assert_allclose(a_np, b_np, rtol=rtol, atol=atol, equal_nan=equal_nan,
                               err_msg="%s and %s differ" % names)
