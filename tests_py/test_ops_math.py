"""MXNet 1.x's elementwise math (math_unary.go, math_binary.go, math_misc.go) where MXNet
itself cannot check it (mxnet_diff_math.py does the rest): strided and negative-stride
inputs, out= (strided, in place), inputs from NumPy and PyTorch through DLPack, the
dtypes MXNet lacks (int16, uint16, uint32, uint64, bfloat16), the float32 row kernels bit
for bit against NumPy, and the errors MXNet raises as AssertionError (a Python number
given to broadcast_* or elemwise_*).

The references are MXNet's rules: the result keeps the input's dtype; an integer element
is computed in float64 and converted back as C does on x86-64 (c_cast); rint rounds
halves down; degrees and radians multiply by float32 factors.
"""
import math

import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import assert_bits, c_cast, name
from test_ops_shape import nd, sliced

DEG32 = np.float32(180) / np.float32(np.pi)
RAD32 = np.float32(np.pi) / np.float32(180)


def _rint_down(x):
    lo, hi = np.floor(x), np.ceil(x)
    return np.where(x - lo <= hi - x, lo, hi)


def _round_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _vec(f):
    return np.vectorize(f, otypes=[np.float64])


#: float64 references of the unary functions (what MXNet computes for float64 and integers)
REF = {
    "arccos": np.arccos, "arcsin": np.arcsin, "arctan": np.arctan, "arccosh": np.arccosh, "arcsinh": np.arcsinh,
    "arctanh": np.arctanh, "cosh": np.cosh, "sinh": np.sinh, "tan": np.tan, "cbrt": np.cbrt,
    "rcbrt": lambda x: 1 / np.cbrt(x), "rsqrt": lambda x: 1 / np.sqrt(x), "reciprocal": lambda x: 1 / x,
    "expm1": np.expm1, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "erf": _vec(math.erf), "erfinv": lambda x: torch.special.erfinv(torch.from_numpy(x)).numpy(),
    "gamma": _vec(lambda v: math.gamma(v) if v > 0 and v < 170 or (v < 0 and v != int(v)) else
                  (math.copysign(math.inf, v) if v == 0 else (math.inf if v >= 170 else math.nan))),
    "gammaln": lambda x: torch.lgamma(torch.from_numpy(x)).numpy(),
    "degrees": lambda x: x * np.float64(DEG32), "radians": lambda x: x * np.float64(RAD32),
    "fix": np.trunc, "trunc": np.trunc, "rint": _rint_down, "round": _round_away, "ceil": np.ceil, "floor": np.floor,
    "softsign": lambda x: x / (1 + np.abs(x)), "logical_not": lambda x: (x == 0).astype(np.float64),
    "smooth_l1": lambda x: np.where(np.abs(x) < 1, 0.5 * x * x, np.abs(x) - 0.5),
}
UNARY = sorted(REF)
ROUNDING = ["fix", "trunc", "rint", "round", "ceil", "floor"]


def int_sample(dtype):
    info = np.iinfo(dtype)
    vals = [0, 1, 2, 3, 7, 100, int(info.max), int(info.max) // 3] + ([-1, -2, -100, int(info.min)] if info.min else [])
    return np.array(vals * 2, dtype=dtype).reshape(4, -1)


FLOAT_SAMPLE = np.array([[0.5, -0.25, 0.9, -0.9], [0.0, -0.0, 1.0, -1.0], [2.5, -3.5, 7.25, 1e30],
                         [np.inf, -np.inf, np.nan, 1e-30]])


# ---- layouts, out= and other frameworks' arrays --------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32, np.uint64], ids=name)
@pytest.mark.parametrize("fn", UNARY)
def test_strided_and_out(fn, dtype):
    """A strided (negative-stride) input, and a strided out, give the contiguous result."""
    with np.errstate(all="ignore"):
        a = int_sample(dtype) if np.dtype(dtype).kind in "iu" else FLOAT_SAMPLE.astype(dtype)
    f = getattr(mx.nd, fn)
    want = f(nd(a)).asnumpy()
    assert_bits(f(sliced(a)), want)
    big = mx.nd.zeros((8, 2 * a.shape[1]), dtype=dtype)
    out = big[::2, ::-2]
    assert f(nd(a), out=out) is out
    assert_bits(out.asnumpy(), want)
    x = nd(a)
    f(x, out=x)  # in place
    assert_bits(x.asnumpy(), want)


@pytest.mark.parametrize("fn", ["arccos", "round", "logical_not", "smooth_l1", "hard_sigmoid"])
def test_dlpack_producers(fn):
    a = FLOAT_SAMPLE.astype(np.float32)
    want = getattr(mx.nd, fn)(nd(a)).asnumpy()
    assert_bits(getattr(mx.nd, fn)(a.copy()), want)
    t = torch.from_numpy(a.copy())
    assert_bits(getattr(mx.nd, fn)(t), want)
    o = torch.zeros(a.shape)
    getattr(mx.nd, fn)(t, out=o)
    assert_bits(o.numpy(), want)


def test_binary_dlpack_and_strided():
    a = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    b = np.arange(4, dtype=np.float32)[::-1].copy()
    for fn, ref in [("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]:
        want = ref(a, b).astype(np.float32)
        assert_bits(getattr(mx.nd, fn)(sliced(a), nd(b)), want)
        assert_bits(getattr(mx.nd, fn)(torch.from_numpy(a), b), want)
        assert_bits(getattr(mx.nd, "broadcast_" + fn)(a, sliced(b)), want)
    assert_bits(mx.nd.broadcast_hypot(sliced(a), nd(b)), np.hypot(a, b))
    assert_bits(mx.nd.elemwise_mul(sliced(a), torch.from_numpy(a)), a * a)
    assert_bits(mx.nd.add_n(sliced(a), a, nd(a)), a + a + a)


# ---- dtypes MXNet lacks and the integer rule ------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64], ids=name)
@pytest.mark.parametrize("fn", UNARY)
def test_integers(fn, dtype):
    """Integers keep their dtype: computed in float64, converted back as C does."""
    a = int_sample(dtype)
    with np.errstate(all="ignore"):
        x = a.astype(np.float64)
        want = a.copy() if fn in ROUNDING else c_cast(REF[fn](x), dtype)
    if fn == "erfinv":  # MXNet's NaN of an integer type is 0
        want = np.where(np.abs(x) > 1, 0, want).astype(dtype)
    if fn == "gamma":  # (only where gamma is an exact integer: the arguments up to 20, the poles)
        keep = (x <= 20)
        want, a = want[keep], a[keep]
    got = getattr(mx.nd, fn)(nd(a))
    assert_bits(got, want)


def test_uint64_in_range():
    a = np.array([0, 1, 7, 100, 2 ** 40], dtype=np.uint64)
    assert_bits(mx.nd.cbrt(nd(a)), np.cbrt(a.astype(np.float64)).astype(np.uint64))
    assert_bits(mx.nd.floor(nd(a)), a)
    assert_bits(mx.nd.logical_not(nd(a)), (a == 0).astype(np.uint64))


@pytest.mark.parametrize("fn", UNARY + ["hard_sigmoid"])
def test_bfloat16(fn):
    a = FLOAT_SAMPLE.astype(np.float32)
    x = mx.nd.array(a, dtype="float32").astype("bfloat16")
    got = getattr(mx.nd, fn)(x)
    assert got.dtype == x.dtype
    want = getattr(mx.nd, fn)(x.astype("float32")).asnumpy()
    np.testing.assert_allclose(got.astype("float32").asnumpy(), want, rtol=1e-2, atol=1e-2)


def test_rint_and_round_ties():
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, 8388609.0, 1e30, -0.0])
    for dt in (np.float16, np.float32, np.float64):
        with np.errstate(all="ignore"):
            x = a.astype(dt)
            x64 = x.astype(np.float64)
            assert_bits(mx.nd.rint(nd(x)), _rint_down(x64).astype(dt))
            assert_bits(mx.nd.round(nd(x)), _round_away(x64).astype(dt))


# ---- the float32 row kernels against NumPy, bit for bit ---------------------------------------

def _f32_stream(n=200000):
    rng = np.random.default_rng(5)
    a = np.concatenate([rng.standard_normal(n // 2) * 10, rng.standard_normal(n // 4) * 1e6,
                        np.arange(-40, 40) / 4, FLOAT_SAMPLE.ravel(), [0.49999997, 8388607.5, -8388607.5, 3e38]])
    return np.concatenate([a, rng.uniform(-2, 2, n - a.size)]).astype(np.float32)


@pytest.mark.parametrize("fn", ["floor", "ceil", "trunc", "fix", "rint", "round", "reciprocal", "rsqrt", "degrees",
                                "radians", "softsign"])
def test_float32_rows(fn):
    a = _f32_stream()
    with np.errstate(all="ignore"):
        want = {
            "reciprocal": lambda: np.float32(1) / a, "degrees": lambda: a * DEG32, "radians": lambda: a * RAD32,
            "softsign": lambda: a / (np.float32(1) + np.abs(a)),
            "rsqrt": lambda: np.float32(1) / np.sqrt(a),  # MXNet's 1.0/sqrtf(x)
        }.get(fn, lambda: REF[fn](a.astype(np.float64)).astype(np.float32))()
    assert_bits(getattr(mx.nd, fn)(nd(a)), want)
    assert_bits(getattr(mx.nd, fn)(sliced(a.reshape(1000, -1))), want.reshape(1000, -1))


#: the functions whose long float32 rows go to glibc's libmvec where it loads (within 4 ulp)
MVEC = ["arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh", "cosh", "sinh", "tan", "cbrt", "rcbrt", "expm1",
        "log1p", "log2", "log10", "erf"]


@pytest.mark.parametrize("fn", MVEC + ["erfinv", "gamma", "gammaln"])
def test_float32_transcendentals_close(fn):
    a = _f32_stream()[:50000] / 1e3
    a = {"arccosh": np.abs(a) + 1, "log1p": np.abs(a), "log2": np.abs(a) + 1e-3, "log10": np.abs(a) + 1e-3,
         "gamma": np.abs(a) + 1e-2, "gammaln": np.abs(a) + 1e-2}.get(fn, a).astype(np.float32)
    if fn in ("arccos", "arcsin", "arctanh", "erfinv"):
        a = np.clip(a, -0.999, 0.999)
    with np.errstate(all="ignore"):
        want = REF[fn](a.astype(np.float64))
    np.testing.assert_allclose(getattr(mx.nd, fn)(nd(a)).asnumpy(), want, rtol=5e-7, atol=1e-37, err_msg=fn)


@pytest.mark.parametrize("fn", MVEC + ["erfinv", "gamma", "gammaln"])
def test_long_rows_agree_with_short_ones(fn):
    """A long row (libmvec where it loads; erfinv, gamma and gammaln: internal/simd's
    special32 kernels, within 2 ulp) and rows of one element (Go) agree: NaN in the same
    places, the same ±inf and ±0, and within 4 ulp elsewhere."""
    a = np.tile(FLOAT_SAMPLE.ravel(), 8).astype(np.float32)
    long_row = getattr(mx.nd, fn)(nd(a)).asnumpy()
    short = np.concatenate([getattr(mx.nd, fn)(nd(a[i:i + 1])).asnumpy() for i in range(16)] * 8)
    np.testing.assert_array_equal(np.isnan(long_row), np.isnan(short))  # (NaN payloads may differ)
    special = np.isinf(short) | (short == 0)
    assert_bits(long_row[special], short[special])
    special |= np.isnan(short)
    np.testing.assert_array_max_ulp(long_row[~special], short[~special], maxulp=4)


# ---- parameters and special values -----------------------------------------------------------

def test_hard_sigmoid_and_smooth_l1():
    a = FLOAT_SAMPLE
    alpha, beta = np.float64(np.float32(0.3)), np.float64(np.float32(-0.2))
    with np.errstate(all="ignore"):
        want = a * alpha + beta
    want = np.where(want > 1, 1, np.where(want < 0, 0, want))
    assert_bits(mx.nd.hard_sigmoid(nd(a), alpha=0.3, beta=-0.2), want)
    sigma = 3.0
    with np.errstate(all="ignore"):
        want = np.where(a > 1 / sigma ** 2, a - 0.5 / sigma ** 2,
                        np.where(a < -1 / sigma ** 2, -a - 0.5 / sigma ** 2, 0.5 * a * a * sigma ** 2))
    assert_bits(mx.nd.smooth_l1(nd(a), scalar=sigma), want)


def test_logical_16bit_floats():
    a = np.array([0.0, -0.0, np.nan, 1.0, -2.0, np.inf], dtype=np.float32)
    b = np.array([1.0, 1.0, 1.0, 0.0, -0.0, 3.0], dtype=np.float32)
    for dt in ("float16", "bfloat16"):
        x, y = mx.nd.array(a).astype(dt), mx.nd.array(b).astype(dt)
        for fn, ref in [("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]:
            got = getattr(mx.nd, fn)(x, y)
            assert got.dtype == x.dtype
            assert_bits(got.astype("float32").asnumpy(), ref(a, b).astype(np.float32))
        assert_bits(mx.nd.logical_not(x).astype("float32").asnumpy(), (a == 0).astype(np.float32))


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.uint32, np.uint64], ids=name)
def test_binary_extra_dtypes(dtype):
    a = np.array([[0, 1, 2], [3, 4, 200]], dtype=dtype)
    b = np.array([[1, 0, 2], [4, 0, 100]], dtype=dtype)
    assert_bits(mx.nd.logical_and(nd(a), nd(b)), np.logical_and(a, b).astype(dtype))
    assert_bits(mx.nd.logical_xor(nd(a), 0), (a != 0).astype(dtype))
    assert_bits(mx.nd.broadcast_hypot(nd(a), nd(b)), np.hypot(a.astype(np.float64), b).astype(dtype))
    assert_bits(mx.nd.add_n(nd(a), nd(b), nd(a)), (a + b + a).astype(dtype))
    assert_bits(mx.nd.elemwise_sub(nd(a), nd(b)), (a - b).astype(dtype))
    assert_bits(mx.nd.broadcast_maximum(nd(a), nd(b[:1])), np.maximum(a, b[:1]))


def test_add_n_into_an_input():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = a * 10
    x, y = nd(a), nd(b)
    assert mx.nd.add_n(x, y, x, out=x) is x
    assert_bits(x.asnumpy(), a + b + a)
    y2 = nd(b)
    mx.nd.ElementWiseSum(nd(a), y2, out=y2)
    assert_bits(y2.asnumpy(), a + b)


def test_copies_and_cast():
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    for fn in ("identity", "stop_gradient", "BlockGrad"):
        x = nd(a)
        r = getattr(mx.nd, fn)(x.T)
        r[:] = 0
        assert_bits(x.asnumpy(), a)
        assert_bits(getattr(mx.nd, fn)(x.T), a.T.copy())
    assert_bits(mx.nd.Cast(nd(a), dtype="bfloat16").astype("float32"), a.astype(np.float32))
    assert_bits(mx.nd.Cast(sliced(a), dtype=np.complex64), a.astype(np.complex64))


# ---- errors -----------------------------------------------------------------------------------

X = np.ones((2, 3), np.float32)


@pytest.mark.parametrize("call, error", [
    (lambda: mx.nd.arccos(nd(X).astype("bool")), TypeError),
    (lambda: mx.nd.floor(nd(X).astype("complex64")), TypeError),
    (lambda: mx.nd.hard_sigmoid(nd(X).astype("int32")), TypeError),
    (lambda: mx.nd.hard_sigmoid(nd(X), alpha="x"), (TypeError, ValueError)),
    (lambda: mx.nd.smooth_l1(nd(X), scalar=None), (TypeError, ValueError)),
    (lambda: mx.nd.round(nd(X), out=mx.nd.zeros((2, 3), dtype="float64")), TypeError),
    (lambda: mx.nd.logical_and(nd(X).astype("bool"), nd(X).astype("bool")), TypeError),
    (lambda: mx.nd.logical_or(nd(X), nd(X).astype("int8")), TypeError),
    (lambda: mx.nd.broadcast_add(nd(X), 2), TypeError),
    (lambda: mx.nd.broadcast_logical_and(2, nd(X)), TypeError),
    (lambda: mx.nd.broadcast_hypot(nd(X), 2.5), TypeError),
    (lambda: mx.nd.elemwise_add(nd(X), 2), TypeError),
    (lambda: mx.nd.elemwise_div(nd(X), nd(X)[:1]), ValueError),
    (lambda: mx.nd.broadcast_mul(nd(X), nd(X).T), ValueError),
    (lambda: mx.nd.add_n(), TypeError),
    (lambda: mx.nd.add_n(nd(X), nd(X).T), ValueError),
    (lambda: mx.nd.add_n(nd(X), nd(X).astype("float64")), TypeError),
    (lambda: mx.nd.Cast(nd(X)), TypeError),
    (lambda: mx.nd.Cast(nd(X), dtype="float33"), (TypeError, ValueError)),
], ids=lambda v: "" if callable(v) else None)
def test_errors(call, error):
    with pytest.raises(error):
        call()
    with pytest.raises(mx.base.MXNetError):
        call()
