"""Helpers shared by the test modules: dtype tables, sample data, assertions, and NumPy
references made MXNet 1.x's (mxnet_*)."""
import warnings

import numpy as np

import mxgo as mx

#: Every dtype the Python API promises, in NumPy form.
ALL_DTYPES = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)

#: dtypes whose arithmetic the tests check against NumPy.
ARITH_DTYPES = (np.int32, np.int64, np.float16, np.float32, np.float64, np.complex64)


def name(dtype):
    """Readable pytest id of a dtype ("float32")."""
    return np.dtype(dtype).name


def _real_samples(dt):
    if dt.kind == "b":
        return [True, False, False, True, True]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [int(info.min), int(info.max), 0, 1, 2, int(info.max) - 1, 7, int(info.min) + 1]
        return vals + ([-1, -7] if dt.kind == "i" else [])
    info = np.finfo(dt)
    return [0.0, -0.0, 1.5, -2.25, float(info.max), float(info.min), float(info.tiny),
            float(info.eps), np.inf, -np.inf, np.nan, 1 / 3]


def sample(dtype, shape=(3, 4)):
    """An array of ``dtype`` and ``shape`` cycling through awkward values of the dtype: its
    extremes, zero, negatives, and for floats -0.0, inf and NaN."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dt.kind == "c":
        reals = _real_samples(np.dtype(np.float32 if dt.itemsize == 8 else np.float64))
        vals = [complex(r, i) for r, i in zip(reals, reversed(reals))]
    else:
        vals = _real_samples(dt)
    vals = (vals * (n // len(vals) + 1))[:n]
    return np.array(vals, dtype=dt).reshape(shape)


def assert_bits(got, expected):
    """``got`` (an NDArray or NumPy array) equals NumPy's ``expected`` bit for bit, with the
    same shape and dtype (NaN payloads and -0.0 included)."""
    if isinstance(got, mx.nd.NDArray):
        assert got.dtype is expected.dtype.type, (got.dtype, expected.dtype)
        got = got.asnumpy()
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.tobytes() == expected.tobytes(), "%r\n!=\n%r" % (got, expected)


def assert_nd(got, expected, rtol=0.0):
    """``got`` is an NDArray with ``expected``'s shape and dtype and its values (within
    ``rtol``; NaNs in the same places count as equal)."""
    assert isinstance(got, mx.nd.NDArray), type(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype is expected.dtype.type, (got.dtype, expected.dtype)
    if rtol:
        np.testing.assert_allclose(got.asnumpy(), expected, rtol=rtol, atol=0)
    else:
        np.testing.assert_array_equal(got.asnumpy(), expected)


def np_cast(values, dtype):
    """NumPy's ``astype`` with its cast warnings (complex to real, ...) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return np.asarray(values).astype(dtype)


# ---- NumPy references made MXNet 1.x's (mx.nd follows MXNet where the two disagree) ----

def c_cast(v, dtype):
    """float64 values converted to integer ``dtype`` as C on x86-64 converts them: through a
    32-bit truncation for types up to 32 bits (but uint32), else a 64-bit one; NaN and
    out-of-range values give the minimum of that width, whose low bits are kept."""
    dt = np.dtype(dtype)
    v = np.asarray(v, np.float64)
    bits = 32 if dt.itemsize < 4 or dt == np.int32 else 64
    lo, hi = -2.0 ** (bits - 1), 2.0 ** (bits - 1)
    with np.errstate(invalid="ignore"):
        ok = (v >= lo) & (v < hi)
        wide = np.where(ok, np.trunc(np.where(ok, v, 0)), lo).astype(np.int64)
    return wide.astype(dt)


def mxnet_shaped(v):
    """``v`` as an array shaped as MXNet gives it: MXNet has no 0-d results, so a 0-d result
    (a whole-array reduction, the dot of two vectors, ``x[1, 2]``) has shape (1,)."""
    v = np.asarray(v)
    return v.reshape(1) if v.ndim == 0 else v


def mxnet_compare(want, dtype):
    """MXNet's result of a comparison whose NumPy result is the bool array ``want``: 1 or 0
    in the operands' ``dtype`` (bool for bool operands), so ``(x > 2) * x`` works."""
    return np.asarray(want).astype(dtype)


def mxnet_reduce(op, a, axis=None, keepdims=False):
    """NumPy's reduction ``op`` (sum, mean, prod, max, min, argmax, argmin) of ``a``, made
    MXNet 1.x's: axis=() reduces every axis (argmax and argmin refuse it, as MXNet does and
    NumPy too), the result has the input's dtype (integer sums wrap; an integer mean is that
    wrapped sum divided by the count, truncated toward zero, and 0 for no elements; a bool
    mean is whether any element is true; argmax's indices are in the dtype too) and a result
    with no dimensions has shape (1,)."""
    if axis == () and op not in ("argmax", "argmin"):
        axis = None
    if op == "mean" and a.dtype.kind in "iu":
        wrapped = mxnet_reduce("sum", a, axis, keepdims).astype(object)  # Python ints: exact
        count = mxnet_shaped(np.sum(np.ones(a.shape, np.int64), axis=axis, keepdims=keepdims)).astype(object)
        quotient = np.sign(wrapped) * (np.abs(wrapped) // np.maximum(count, 1))
        return quotient.astype(a.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mean of nothing, complex max, casts of NaN, ...
        with np.errstate(all="ignore"):
            r = np.asarray(getattr(np, op)(a, axis=axis, keepdims=keepdims)).astype(a.dtype)
    return mxnet_shaped(r)


class Snapshot:
    """Remembers an NDArray's (and optionally a NumPy array's) contents so that a test can
    check, after an error, that nothing was changed."""

    def __init__(self, *arrays):
        self.arrays = arrays
        self.saved = [self._read(a) for a in arrays]

    @staticmethod
    def _read(a):
        return a.asnumpy() if isinstance(a, mx.nd.NDArray) else np.array(a, copy=True)

    def assert_intact(self):
        for a, before in zip(self.arrays, self.saved):
            assert_bits(self._read(a), before)
