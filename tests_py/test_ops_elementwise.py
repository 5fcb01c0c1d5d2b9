"""Elementwise operators against NumPy: unary math (negative ... relu), power, maximum,
minimum, the comparisons, where and clip. Values, result dtypes, broadcasting (0-d and
0-size included), scalar forms on both sides, operator syntax, ``out=`` (NDArrays, and
PyTorch / NumPy memory through DLPack, written zero-copy) and errors that leave their
inputs intact.

NumPy is the oracle, with mxgo's documented rules where they differ from NumPy's:
  * binary operators need one dtype on both sides (TypeError otherwise), as in MXNet;
  * power/maximum/minimum convert a Python number to the array's dtype first (MXNet's rule,
    as for + - * /): int32 ``x ** 2.7`` is ``x ** 2``;
  * comparisons give 1 or 0 in the operands' dtype, as in MXNet (api_helpers.mxnet_compare:
    bool only for two bool arrays, int64 for a bool array and a number), so ``(x > 2) * x`` works;
  * comparisons with a Python number convert it to the array's dtype first, as MXNet does
    (C's cast of a double: int32 ``x == 2.7`` is ``x == 2``, uint8 ``x > -1`` is ``x > 255``;
    converted_scalar); floating-point arrays compare with the number rounded to their dtype;
  * integer power is MXNet's: computed in float32 and converted back as C casts (power_ref),
    so a negative exponent gives the truncated reciprocal where NumPy raises, and 0 ** -1
    infinity converted as C does;
  * exp, log, sqrt, sin, cos, tanh and sigmoid keep integer dtypes, as in MXNet: the value is
    computed in float64 and converted as C casts (api_helpers.c_cast); bool gives NumPy's float16;
  * negative of bool, sign of complex, relu of bool or complex, square of bool: TypeError;
  * sign of NaN is 0, as in MXNet;
  * clip is MXNet's (clip_ref): a_max above it, else a_min below it, the float32 bounds
    converted to the dtype as C casts (integer arrays truncate them); NaN bounds never compare;
  * where does not broadcast, as MXNet's: x, y and the condition have one shape, or the
    condition is 1-D as long as x's first axis (it picks rows).
"""
import numbers
import operator

import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import ALL_DTYPES, Snapshot, c_cast, mxnet_compare, name, np_cast, sample
from interop_helpers import NUMPY_DLPACK_DTYPES, TORCH_DLPACK_DTYPES

SIGNED = (np.int8, np.int16, np.int32, np.int64)
UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)
FLOATS = (np.float16, np.float32, np.float64)
COMPLEX = (np.complex64, np.complex128)
NUMERIC = SIGNED + UNSIGNED + FLOATS + COMPLEX
REAL_NUMERIC = SIGNED + UNSIGNED + FLOATS
REAL = (np.bool_,) + REAL_NUMERIC

#: (rtol, atol) for results of inexact functions: NumPy's float32 kernels (SIMD) and Go's
#: float64-then-round differ by a few ulps; float16 results by one ulp.
TOL = {np.dtype(np.float16): (2e-3, 1e-4), np.dtype(np.float32): (1e-5, 1e-6), np.dtype(np.float64): (1e-12, 1e-15),
       np.dtype(np.complex64): (1e-5, 1e-6), np.dtype(np.complex128): (1e-12, 1e-14)}


def nd(a, dtype=None):
    a = np.asarray(a)
    return mx.nd.array(a, dtype=a.dtype if dtype is None else dtype)


def check(got, want, exact=False):
    """got is an NDArray with want's shape, dtype and values (NaNs where want has them)."""
    assert isinstance(got, mx.nd.NDArray), type(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.dtype(got.dtype) == want.dtype, (got.dtype, want.dtype)
    values = got.asnumpy()
    if exact or want.dtype.kind in "biu":
        np.testing.assert_array_equal(values, want)
    else:
        rtol, atol = TOL[want.dtype]
        np.testing.assert_allclose(values, want, rtol=rtol, atol=atol)


def quiet(fn, *args):
    with np.errstate(all="ignore"):
        return fn(*args)


# ------------------------------------------------------------------------------ unary

def relu_ref(a):
    return np.maximum(a, np.zeros((), a.dtype))


def sigmoid_ref(a):
    dt = np.exp(a[..., :0]).dtype  # NumPy's float result dtype, as for exp
    return (1 / (1 + np.exp(-a.astype(np.float64)))).astype(dt)


def mxnet_float_fn(ref):
    """ref with MXNet's rule for integer arrays: computed in float64, converted back as C casts."""
    def fn(a):
        if a.dtype.kind in "iu":
            return c_cast(ref(a.astype(np.float64)), a.dtype)
        return ref(a)
    return fn


#: name -> (NumPy reference, dtypes mxgo supports, exact result)
UNARY = {
    "negative": (np.negative, NUMERIC, True),
    "abs": (np.abs, ALL_DTYPES, True),
    "sign": (lambda a: np.where(np.isnan(a), np.zeros((), a.dtype), np.sign(a)), REAL_NUMERIC, True),  # MXNet: NaN gives 0
    "square": (np.square, NUMERIC, True),
    "relu": (relu_ref, REAL_NUMERIC, True),
    "exp": (mxnet_float_fn(np.exp), ALL_DTYPES, False),
    "log": (mxnet_float_fn(np.log), ALL_DTYPES, False),
    "sqrt": (mxnet_float_fn(np.sqrt), ALL_DTYPES, False),
    "sin": (mxnet_float_fn(np.sin), ALL_DTYPES, False),
    "cos": (mxnet_float_fn(np.cos), ALL_DTYPES, False),
    "tanh": (mxnet_float_fn(np.tanh), ALL_DTYPES, False),
    "sigmoid": (mxnet_float_fn(sigmoid_ref), REAL, False),
}
FLOAT_FUNCTIONS = [op for op, (_, _, exact) in UNARY.items() if not exact]


def moderate(dtype, shape=(3, 4)):
    """Values of dtype where every function is well conditioned (and complex ones with
    imaginary parts), negatives and zeros included."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return sample(dt, shape)
    if dt.kind == "u":
        vals = [0, 1, 2, 3, 5, 7, 10, 12, 4, 6, 9, 11]
    elif dt.kind == "i":
        vals = [0, 1, 2, 3, -1, -2, -5, 7, 10, -7, 12, 4]
    else:
        vals = [0.5, -1.5, 2.25, 3.0, -0.25, 0.0, 1.0, -3.5, 7.5, 10.0, -10.0, 0.1]
    a = np.array(vals[:int(np.prod(shape))], dtype=np.float64).reshape(shape)
    if dt.kind == "c":
        a = a + 1j * np.roll(a, 3)
    return a.astype(dt)


def unary_cases():
    for op, (_, dtypes, _) in UNARY.items():
        for dt in dtypes:
            yield pytest.param(op, dt, id="%s-%s" % (op, name(dt)))


@pytest.mark.parametrize("op, dtype", list(unary_cases()))
def test_unary_matches_numpy(op, dtype):
    ref, _, exact = UNARY[op]
    if np.dtype(dtype).kind == "c" and op in ("abs", "square"):
        exact = False  # NumPy's complex64 hypot and products round in float32, mxgo's once from float64
    datasets = [moderate(dtype)]
    if np.dtype(dtype).kind != "c" or op in ("negative", "abs"):
        datasets.append(sample(dtype))  # extremes, -0.0, inf and NaN
    for a in datasets:
        x = nd(a)
        check(getattr(mx.nd, op)(x), quiet(ref, a), exact)
        check(x, a, True)  # the input is intact


@pytest.mark.parametrize("op", FLOAT_FUNCTIONS)
@pytest.mark.parametrize("dtype", (np.bool_,) + SIGNED + UNSIGNED, ids=name)
def test_integer_inputs_keep_their_dtype(op, dtype):
    """MXNet's rule: integer arrays keep their dtype (exp(int32 20) is int32 485165195); bool,
    for which MXNet has no kernel, gives NumPy's float16."""
    got = getattr(mx.nd, op)(mx.nd.zeros((2,), dtype=dtype))
    assert np.dtype(got.dtype) == (np.float16 if dtype is np.bool_ else np.dtype(dtype))


@pytest.mark.parametrize("op", FLOAT_FUNCTIONS + ["negative", "abs", "sign", "relu", "square"])
@pytest.mark.parametrize("dtype", FLOATS, ids=name)
def test_unary_float_specials(op, dtype):
    a = np_cast([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e30], dtype)  # 1e30 overflows float16
    check(getattr(mx.nd, op)(nd(a)), quiet(UNARY[op][0], a), UNARY[op][2])


def test_abs_of_complex_is_real():
    a = np.array([3 + 4j, -5j, complex(np.inf, np.nan), 0], np.complex64)
    check(mx.nd.abs(nd(a)), np.abs(a), True)
    check(abs(nd(a.astype(np.complex128))), np.abs(a.astype(np.complex128)), False)


def test_unsigned_negative_wraps_and_integer_minimum_stays():
    check(-nd(np.array([0, 1, 200], np.uint8)), np.array([0, 255, 56], np.uint8))
    m = np.array([-128, 127], np.int8)
    check(mx.nd.abs(nd(m)), np.abs(m))
    check(-nd(m), np.negative(m))


@pytest.mark.parametrize("op, dtype", [(op, dt) for op, (_, dts, _) in UNARY.items()
                                       for dt in ALL_DTYPES if dt not in dts],
                         ids=lambda v: v if isinstance(v, str) else name(v))
def test_unary_unsupported_dtypes_raise_type_error(op, dtype):
    x = nd(sample(dtype))
    snap = Snapshot(x)
    with pytest.raises(TypeError, match="%s does not support dtype %s" % (op, np.dtype(dtype).name)):
        getattr(mx.nd, op)(x)
    snap.assert_intact()


def test_unary_0d_and_0_size():
    check(mx.nd.exp(mx.nd.array(1.0)), np.exp(np.float32(1.0)) * np.ones((), np.float32))
    check(mx.nd.sqrt(mx.nd.array(4, dtype="int16")), np.array(2, np.int16))
    for op in UNARY:
        check(getattr(mx.nd, op)(mx.nd.zeros((0, 3), dtype="int8")), quiet(UNARY[op][0], np.zeros((0, 3), np.int8)))


# ------------------------------------------------------------------ power, maximum, minimum

def power_ref(a, b):
    """np.power, with NumPy 2's 0 ** z == 0 for complex z with a positive real part (NumPy 1
    gave NaN unless z was real); integers as MXNet's: powf of the operands in float32,
    converted back as C casts (so 4 ** 20 overflows to int32's minimum)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iu":
        with np.errstate(all="ignore"):
            f = np.power(a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64))
        return c_cast(f.astype(np.float32), a.dtype)
    r = np.power(a, b)
    if r.dtype.kind == "c":
        r = np.where((np.asarray(a) == 0) & (np.real(b) > 0) & np.isnan(r), np.zeros((), r.dtype), r)
    return r


BINARY = {"power": (power_ref, NUMERIC), "maximum": (np.maximum, ALL_DTYPES), "minimum": (np.minimum, ALL_DTYPES)}


def power_operands(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        a = np.array([[-3, -2, -1, 0], [1, 2, 3, 7], [5, -5, 4, 2]])
        b = np.array([[0, 1, 2, 3], [5, 3, 1, 0], [2, 3, 20, 11]])  # 4 ** 20 overflows
        if dt.kind == "u":
            a = np.abs(a)
        return a.astype(dt), b.astype(dt)
    a = np.array([[0.5, 2, -2, 0], [1.5, 3, -1.5, 10], [4, 0.25, 7, -3]])
    b = np.array([[2, 0.5, 3, -1], [-2, 1.5, 0.5, 2.5], [0, 3, -0.5, 2]])
    if dt.kind == "c":
        a, b = a + 1j * np.roll(a, 1) + 0.5j, b - 0.5j * np.roll(b, 2)
    return a.astype(dt), b.astype(dt)


def binary_operands(op, dtype):
    if op == "power":
        return power_operands(dtype)
    a = sample(dtype)
    b = np.roll(a, 5)
    b[0, :2] = a[0, :2]  # ties
    return a, b


def binary_cases():
    for op, (_, dtypes) in BINARY.items():
        for dt in dtypes:
            yield pytest.param(op, dt, id="%s-%s" % (op, name(dt)))


@pytest.mark.parametrize("op, dtype", list(binary_cases()))
def test_binary_matches_numpy(op, dtype):
    ref = BINARY[op][0]
    a, b = binary_operands(op, dtype)
    x, y = nd(a), nd(b)
    exact = op != "power" or np.dtype(dtype).kind in "iu"
    check(getattr(mx.nd, op)(x, y), quiet(ref, a, b), exact)
    if op != "power":
        check(getattr(mx.nd, op)(y, x), quiet(ref, b, a), exact)
    check(x, a, True)
    check(y, b, True)


SHAPES = [((3, 1), (4,)), ((2, 3, 4), (3, 1)), ((), (2, 3)), ((2, 3), ()), ((), ()),
          ((0, 4), (4,)), ((0,), ()), ((1, 0), (3, 1)), ((5, 1, 2), (1, 4, 1))]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("dtype", (np.int32, np.float32, np.float16), ids=name)
def test_binary_broadcasting(op, dtype, shapes):
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 5, s).astype(dtype) for s in shapes)
    check(getattr(mx.nd, op)(nd(a), nd(b)), quiet(BINARY[op][0], a, b), op != "power" or dtype is np.int32)
    if op == "power":
        check(nd(a) ** nd(b), quiet(np.power, a, b), dtype is np.int32)


SCALARS = [2, 3, 0.5, -2.7, np.float32(1.5), np.int64(2), 0]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("dtype", (np.int8, np.int32, np.uint16, np.int64, np.float16, np.float32, np.float64,
                                   np.complex64, np.bool_), ids=name)
def test_binary_scalar_forms_convert_the_scalar_to_the_array_dtype(op, dtype, scalar):
    ref, dtypes = BINARY[op]
    if dtype not in dtypes:  # power of bool
        x = nd(np.array([True, False]))
        with pytest.raises(TypeError, match="power(_scalar)? does not support dtype bool"):
            getattr(mx.nd, op)(x, scalar)
        with pytest.raises(TypeError, match="power(_scalar)? does not support dtype bool"):
            x ** scalar
        return
    a, _ = binary_operands(op, dtype)
    if op == "power" and np.dtype(dtype).kind in "iu":
        a = np.abs(a)  # an array's negative exponents are test_integer_power_with_a_negative_exponent's
    s = np_cast(scalar, dtype)
    x = nd(a)
    exact = op != "power" or np.dtype(dtype).kind in "iu"
    fn = getattr(mx.nd, op)
    if op == "power" and np.dtype(dtype).kind == "i" and s < 0:  # MXNet's, where NumPy raises
        want = c_pow(a, s, dtype)
    else:
        want = quiet(ref, a, s)
    check(fn(x, scalar), want, exact)
    check(fn(scalar, x), quiet(ref, s, a), exact)  # the reflected form
    if op == "power":
        check(x ** scalar, want, exact)
        check(scalar ** x, quiet(ref, s, a), exact)
    check(x, a, True)


def test_power_of_bool_arrays_is_a_type_error():
    x = nd(np.array([True, False]))
    snap = Snapshot(x)
    with pytest.raises(TypeError, match="power does not support dtype bool"):
        mx.nd.power(x, x)
    with pytest.raises(TypeError, match="power does not support dtype bool"):
        x ** x
    snap.assert_intact()


@pytest.mark.parametrize("op", sorted(BINARY))
def test_complex_scalars(op):
    a, _ = binary_operands(op, np.complex64) if op != "power" else power_operands(np.complex128)
    x = nd(a)
    for s in (1 - 2j, 0.5j, 2):
        c = np_cast(s, a.dtype)
        exact = op != "power"
        check(getattr(mx.nd, op)(x, s), quiet(BINARY[op][0], a, c), exact)
        check(getattr(mx.nd, op)(s, x), quiet(BINARY[op][0], c, a), exact)


def c_pow(a, e, dtype):
    """MXNet 1.9.1's integer power of a negative exponent: pow in floating point converted
    back as C does (c_cast): the truncated reciprocal, and infinity for a base of 0."""
    with np.errstate(divide="ignore"):
        return c_cast(np.power(a.astype(np.float64), np.float64(e)), dtype)


@pytest.mark.parametrize("dtype", SIGNED + UNSIGNED, ids=name)
def test_integer_power_with_a_negative_exponent(dtype):
    """MXNet's results (no ValueError, unlike NumPy): the scalar is converted to the dtype
    first (-1.5 is -1; for unsigned dtypes -1 is the largest value), and x ** s agrees with
    mx.nd.power(x, s), with an array exponent, and with x **= s."""
    a = np.array([2, 3, 0, 1], dtype)
    if np.dtype(dtype).kind == "i":
        a = np.array([2, 3, 0, 1, -1, -2], dtype)
    x = nd(a)
    for s in (-1, -2, -3, -1.5):
        e = int(np_cast(c_cast(s, dtype), np.int64)) if np.dtype(dtype).kind == "i" else None
        got = x ** s
        check(mx.nd.power(x, s), got.asnumpy())
        if e is not None:
            check(got, c_pow(a, e, dtype))
            check(nd(a) ** nd(np.full(a.shape, e, dtype)), got.asnumpy())
        y = nd(a)
        y **= s
        check(y, got.asnumpy())
    check(x, a)
    check(x ** -0.5, np.ones(a.shape, dtype))  # -0.5 becomes 0 first (MXNet's scalar rule)
    if np.dtype(dtype).kind == "i":
        # 1 for 1, +-1 for -1, 0 otherwise; 0 ** -k is infinity converted as C does
        base = np.array([1, -1, -1, 2, 0, -3, 5], dtype)
        exp = np.array([-5, -3, -4, -1, -2, -1, 2], dtype)
        zero = c_cast(np.inf, dtype)
        check(nd(base) ** nd(exp), np.array([1, -1, 1, 0, zero, 0, 25], dtype))
        check(mx.nd.power(-1, nd(exp)), np.array([-1, -1, 1, -1, 1, -1, 1], dtype))


def test_examples_of_integer_powers_with_negative_exponents():
    """MXNet 1.9.1's results, checked in .venv-mxnet."""
    x = mx.nd.array([0, 1, -1, 2, -2, 3], dtype="int32")
    assert (x ** -1).asnumpy().tolist() == [-2 ** 31, 1, -1, 0, 0, 0]
    assert (x ** -2).asnumpy().tolist() == [-2 ** 31, 1, 1, 0, 0, 0]
    assert (2 ** x).asnumpy().tolist() == [1, 2, 0, 4, 0, 8]
    assert (0 ** x).asnumpy().tolist() == [1, 0, -2 ** 31, 0, -2 ** 31, 0]
    assert (mx.nd.array([0, 2], dtype="int8") ** -1).asnumpy().tolist() == [0, 0]
    assert (mx.nd.array([0, 1, 2], dtype="uint8") ** -1).asnumpy().tolist() == [0, 1, 0]  # -1 is 255


def test_nan_propagates_through_maximum_and_minimum():
    a = np.array([1.0, np.nan, 3.0, -np.inf, np.nan], np.float32)
    b = np.array([np.nan, 2.0, 1.0, np.nan, np.nan], np.float32)
    for op in ("maximum", "minimum"):
        check(getattr(mx.nd, op)(nd(a), nd(b)), getattr(np, op)(a, b), True)
        check(getattr(mx.nd, op)(nd(a), np.nan), getattr(np, op)(a, np.float32(np.nan)), True)
        check(getattr(mx.nd, op)(np.inf, nd(a)), getattr(np, op)(np.float32(np.inf), a), True)


def test_power_operator_forms():
    a, b = power_operands(np.float64)
    x, y = nd(a), nd(b)
    check(x ** y, quiet(np.power, a, b))
    check(2 ** x, np.power(2.0, a))
    check(x ** 2, a ** 2)
    v = x[1]
    before = x
    x **= 2
    assert x is before
    check(x, a ** 2)
    check(v, a[1] ** 2)  # views see the in-place update
    x **= y
    check(x, quiet(np.power, a ** 2, b))
    assert pow(nd(np.array([2], np.int32)), 3).asnumpy().tolist() == [8]
    with pytest.raises(TypeError):
        pow(nd(np.array([2], np.int32)), 3, 5)


# ------------------------------------------------------------------------------ comparisons

CMP = {"equal": operator.eq, "not_equal": operator.ne, "greater": operator.gt,
       "greater_equal": operator.ge, "lesser": operator.lt, "lesser_equal": operator.le}


@pytest.mark.parametrize("op", sorted(CMP))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_comparison_of_arrays(op, dtype):
    a = sample(dtype)
    b = np.roll(a, 1)
    b[0, :2] = a[0, :2]
    x, y = nd(a), nd(b)
    want = mxnet_compare(quiet(CMP[op], a, b), dtype)
    check(getattr(mx.nd, op)(x, y), want)
    check(CMP[op](x, y), want)  # operator syntax
    check(getattr(mx.nd, op)(y, x), mxnet_compare(quiet(CMP[op], b, a), dtype))
    check(x, a, True)


@pytest.mark.parametrize("op", sorted(CMP))
def test_comparison_broadcasting(op):
    rng = np.random.default_rng(3)
    for sa, sb in SHAPES:
        a, b = rng.integers(0, 3, sa).astype(np.int16), rng.integers(0, 3, sb).astype(np.int16)
        check(CMP[op](nd(a), nd(b)), mxnet_compare(CMP[op](a, b), np.int16))


def scalar_reference(fn, a, s):
    """a fn s, as MXNet gives it: 1 or 0 in a's dtype (mxnet_compare) of NumPy's bool result
    of the comparison; int64 for a bool array (MXNet 1.9.1's dtype there)."""
    return mxnet_compare(exact_comparison(fn, a, s), np.int64 if a.dtype == np.bool_ else a.dtype)


def exact_comparison(fn, a, s):
    """a fn s as MXNet computes it, as a bool array: s is converted to a's dtype first
    (converted_scalar for integer and bool arrays; rounded to floating-point and complex
    dtypes); real arrays compare with a complex s as complex numbers."""
    if isinstance(s, numbers.Complex) and not isinstance(s, numbers.Real):
        if a.dtype.kind != "c":
            return quiet(fn, a.astype(np.complex128), s)
        return quiet(fn, a, np_cast(s, a.dtype))
    if a.dtype.kind in "biu":
        c = converted_scalar(s, a.dtype)
        return np.array([fn(int(v), c) for v in a.ravel().tolist()], bool).reshape(a.shape)
    return quiet(fn, a, np_cast(s, a.dtype))


def converted_scalar(s, dtype):
    """The number s converted to integer or bool dtype as MXNet 1.9.1 converts its scalar
    (a double) before a comparison: C's cast on x86 (c_cast; uint64 takes [2**63, 2**64) as
    it is), to int64 for bool. A Python int."""
    v = float(s)
    dt = np.dtype(np.int64) if np.dtype(dtype) == np.bool_ else np.dtype(dtype)
    if dt == np.uint64 and 2.0 ** 63 <= v < 2.0 ** 64:
        return int(v)
    return int(c_cast(v, dt))


CMP_SCALARS = [0, 1, -1, 2.5, -0.5, 300, 2 ** 63, 2 ** 64 - 1, -2 ** 63, 1e30, float("nan"), float("-inf"),
               np.int8(-3), np.float16(1.5), True, 2.7, -1.5, 255.9, 256, 2 ** 31, 2 ** 32 + 5, 2 ** 53 + 1, 1e19]


@pytest.mark.parametrize("scalar", CMP_SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_comparison_with_scalars_converts_them_first(dtype, scalar):
    a = sample(dtype)
    x = nd(a)
    for op, fn in CMP.items():
        want = scalar_reference(fn, a, scalar)
        check(getattr(mx.nd, op)(x, scalar), want)
        check(fn(x, scalar), want)
        reflected = scalar_reference(lambda u, v, fn=fn: fn(v, u), a, scalar)  # scalar op x
        check(getattr(mx.nd, op)(scalar, x), reflected)
        check(fn(scalar, x), reflected)  # Python turns 2 < x into x > 2
    check(x, a, True)


@pytest.mark.parametrize("dtype", (np.float64, np.int32, np.complex64), ids=name)
def test_comparison_with_complex_scalars(dtype):
    a = moderate(dtype)
    x = nd(a)
    for s in (1 + 1j, 3j, 2 + 0j):
        for op, fn in CMP.items():
            check(getattr(mx.nd, op)(x, s), scalar_reference(fn, a, s))


def test_examples_of_scalar_comparisons():
    """MXNet 1.9.1's results (checked in .venv-mxnet): the number is converted to the
    array's dtype first, as MXNet's arithmetic (and mxgo's) converts it."""
    def values(r, dtype):
        assert r.dtype is np.dtype(dtype).type  # 1 or 0 in the array's dtype, as in MXNet
        return r.asnumpy().tolist()

    u = mx.nd.array([1, 2], dtype="uint8")
    assert values(u > -1, "uint8") == [0, 0]  # -1 is 255
    assert values(u == 257, "uint8") == [1, 0]  # 257 is 1
    assert values(u < 1.5, "uint8") == [0, 0]  # 1.5 is 1
    i = mx.nd.array([1, 2, 3], dtype="int32")
    assert values(i == 2.7, "int32") == [0, 1, 0]  # 2.7 is truncated to 2
    assert values(i >= 2.5, "int32") == [0, 1, 1]
    assert values(2.7 > i, "int32") == [1, 0, 0]
    assert values(i == 2.0, "int32") == [0, 1, 0]
    assert values(mx.nd.array([-2 ** 31], dtype="int32") == 2 ** 31, "int32") == [1]  # x86: int32's minimum
    b = mx.nd.array([False, True], dtype="bool")
    assert values(b == 0.5, "int64") == [1, 0]  # 0.5 is 0; a bool array and a number give int64
    assert values(b < 2, "int64") == [1, 1]  # compared as integers, not as bool(2)
    h = mx.nd.array([0.1, 2048], dtype="float16")
    assert values(h == 0.1, "float16") == [1.0, 0.0]  # 0.1 rounds to float16 first
    assert values(h == 2049, "float16") == [0.0, 1.0]  # and so does 2049
    b = mx.nd.array([True, False], dtype="bool")
    assert values(b == mx.nd.array([True, True], dtype="bool"), "bool") == [True, False]  # bool in, bool out
    x = mx.nd.array([1.0, 3.0, 5.0])
    assert ((x > 2) * x).asnumpy().tolist() == [0.0, 3.0, 5.0]  # the MXNet idiom


def test_comparisons_keep_arrays_hashable():
    x, y = mx.nd.array([1, 2]), mx.nd.array([1, 3])
    assert isinstance(x == y, mx.nd.NDArray)
    assert hash(x) == hash(x) and len({x, y}) == 2
    d = {x: "x"}
    assert d[x] == "x"
    assert x in [x]  # identity first; [y, x] would ask bool(y == x), ambiguous as in NumPy
    assert (x == None) is False  # noqa: E711  (not an array or a number: identity)
    assert (x != "a") is True
    with pytest.raises(TypeError):
        x < "a"  # noqa: B015 (it must raise)


# ---------------------------------------------------------------------------------- where

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_where_values(dtype):
    a, b = sample(dtype), np.roll(sample(dtype), 3)
    cond = np.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]], bool)
    check(mx.nd.where(nd(cond), nd(a), nd(b)), np.where(cond, a, b), True)


@pytest.mark.parametrize("cond_dtype", ALL_DTYPES, ids=name)
def test_where_condition_of_any_dtype(cond_dtype):
    cond = sample(cond_dtype)  # NaN counts as true, -0.0 as false, as in NumPy
    a, b = np.arange(12.0).reshape(3, 4), -np.arange(12.0).reshape(3, 4)
    check(mx.nd.where(nd(cond), nd(a), nd(b)), np.where(cond, a, b), True)


@pytest.mark.parametrize("shapes", [((3, 1), (3, 4), (3, 4)), ((), (2, 3), (2, 3)), ((2, 3), (2, 3), (3,)),
                                    ((2, 3), (2, 1), (2, 3)), ((1, 3), (2, 3), (2, 3)), ((2, 3), (2, 3), ())], ids=str)
def test_where_does_not_broadcast(shapes):
    """MXNet's where refuses every broadcast (MXNetError; mxgo's ValueError is one too)."""
    rng = np.random.default_rng(5)
    cond = rng.integers(0, 2, shapes[0]).astype(bool)
    a, b = rng.normal(size=shapes[1]), rng.normal(size=shapes[2])
    with pytest.raises(mx.base.MXNetError):
        mx.nd.where(nd(cond), nd(a), nd(b))
    with pytest.raises(ValueError):
        mx.nd.where(nd(cond), nd(a), nd(b))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0), (3,), (2, 3, 4)], ids=str)
def test_where_of_one_shape(shape):
    rng = np.random.default_rng(6)
    cond = rng.integers(0, 2, shape).astype(bool)
    a, b = rng.normal(size=shape), rng.normal(size=shape)
    check(mx.nd.where(nd(cond), nd(a), nd(b)), np.where(cond, a, b), True)


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (4, 2, 5), (1, 4), (3, 0)], ids=str)
@pytest.mark.parametrize("cond_dtype", [np.float32, np.int32, np.bool_, np.uint8], ids=name)
def test_where_picks_rows_with_a_1d_condition(shape, cond_dtype):
    """MXNet's where: a 1-D condition as long as x's first axis picks whole rows (x[i] or
    y[i]), even for a square x, where NumPy's broadcasting would pick columns."""
    rng = np.random.default_rng(7)
    cond = rng.integers(0, 2, shape[0]).astype(cond_dtype)
    a, b = rng.normal(size=shape), rng.normal(size=shape)
    rows = cond.reshape((-1,) + (1,) * (len(shape) - 1)).astype(bool)
    want = np.where(rows, a, b)
    check(mx.nd.where(nd(cond), nd(a), nd(b)), want, True)
    check(mx.nd.where(nd(np.repeat(cond, 2))[::2], nd(a), nd(b)), want, True)  # a strided condition
    out = nd(np.zeros(shape))
    assert mx.nd.where(nd(cond), nd(a), nd(b), out=out) is out
    check(out, want, True)


def test_where_1d_condition_of_another_length():
    x, y = nd(np.ones((2, 3))), nd(np.zeros((2, 3)))
    for n in (1, 3, 4):  # NumPy would pick columns where n is 3; MXNet refuses
        with pytest.raises(ValueError, match="condition"):
            mx.nd.where(nd(np.ones(n)), x, y)
    check(mx.nd.where(nd(np.array([1.0, 0, 1])), nd(np.arange(3.0)), nd(-np.arange(3.0))), np.array([0.0, -1, 2]), True)


def test_where_errors_leave_inputs_intact():
    c, x, y = nd(np.array([True, False])), nd(np.array([1.0, 2.0])), nd(np.array([3.0, 4.0], np.float32))
    snap = Snapshot(c, x, y)
    with pytest.raises(TypeError, match="dtype mismatch"):
        mx.nd.where(c, x, y)
    with pytest.raises(ValueError, match="condition"):
        mx.nd.where(nd(np.array([True, False, True])), x, x)
    with pytest.raises(TypeError):
        mx.nd.where(c, x)
    snap.assert_intact()


# ----------------------------------------------------------------------------------- clip

def clip_bounds(dtype):
    kind = np.dtype(dtype).kind
    return (-5, 100) if kind == "i" else (2, 100) if kind == "u" else (-1.5, 2.25)


def clip_ref(a, lo, hi):
    """MXNet's clip: a_max where a > a_max, else a_min where a < a_min, else a; the bounds
    are float32, compared in float32 (float64 data in float64), converted as C casts."""
    lo32, hi32 = np.float32(lo), np.float32(hi)
    cmp = a if a.dtype == np.float64 else a.astype(np.float32)
    if a.dtype.kind in "iu":
        lo_v, hi_v = c_cast(np.float64(lo32), a.dtype), c_cast(np.float64(hi32), a.dtype)
    else:
        lo_v, hi_v = np.asarray(lo32).astype(a.dtype), np.asarray(hi32).astype(a.dtype)
    with np.errstate(invalid="ignore"):
        return np.where(cmp > hi32, hi_v, np.where(cmp < lo32, lo_v, a)).astype(a.dtype)


@pytest.mark.parametrize("dtype", REAL_NUMERIC, ids=name)
def test_clip_matches_mxnet(dtype):
    a = sample(dtype)
    lo, hi = clip_bounds(dtype)
    x = nd(a)
    check(mx.nd.clip(x, lo, hi), np.clip(a, lo, hi), True)
    check(mx.nd.clip(x, a_min=hi, a_max=lo), clip_ref(a, hi, lo), True)  # a_min > a_max: a_min at or below a_max
    check(mx.nd.clip(x, lo, float("inf")), np.maximum(a, np_cast(lo, dtype)), True)
    for bounds in [(1.5, 2.5), (-1.5, 2.5), (-2.7, -0.3), (0.5, 3.9), (float("nan"), 3), (1000.5, 2000.5)]:
        check(mx.nd.clip(x, *bounds), clip_ref(a, *bounds), True)
    check(x, a, True)


def test_clip_rules_beyond_numpy():
    """Values given by MXNet 1.9.1."""
    i = mx.nd.array([-3, 1, 2, 3, 9], dtype="int32")
    check(mx.nd.clip(i, 1.5, 3.9), np.array([1, 1, 2, 3, 3], np.int32))  # bounds truncated
    check(mx.nd.clip(mx.nd.array([1, 2, 3, 4], dtype="int32"), 1.5, 2.5), np.array([1, 2, 2, 2], np.int32))
    check(mx.nd.clip(i, 1e10, 2e10), np.full(5, -2 ** 31, np.int32))  # C's conversion of 1e10
    u = mx.nd.array([0, 128, 255], dtype="uint8")
    check(mx.nd.clip(u, -5, 300), np.array([0, 128, 255], np.uint8))
    check(mx.nd.clip(u, 300.7, 200.2), np.array([44, 44, 200], np.uint8))  # 300 converted as C does
    f = mx.nd.array([1.0, 5.0], dtype="float64")
    check(mx.nd.clip(f, float("nan"), 3), np.array([1.0, 3.0]), True)  # NaN never compares
    check(mx.nd.clip(f, 0.1, 0.9), np.array([0.9, 0.9], np.float32).astype(np.float64), True)  # float32 bounds
    check(mx.nd.clip(mx.nd.array([0, 1], dtype="float16"), 0.1, 0.2), np.array([0.1, 0.2], np.float16), True)
    snap = Snapshot(i)
    with pytest.raises(TypeError):
        mx.nd.clip(i, 1)
    for dt in ("bool", "complex64"):
        with pytest.raises(TypeError, match="clip does not support dtype " + dt):
            mx.nd.clip(mx.nd.zeros((2,), dtype=dt), 0, 1)
    snap.assert_intact()


def test_clip_0d_and_0_size():
    check(mx.nd.clip(mx.nd.array(7.0), 0, 1), np.array(1.0, np.float32))
    check(mx.nd.clip(mx.nd.zeros((2, 0)), 0, 1), np.zeros((2, 0), np.float32))


# ------------------------------------------------------------------------------------ out=

def test_out_ndarray_is_returned():
    a, b = power_operands(np.float32)
    x, y = nd(a), nd(b)
    for call, want in [
        (lambda o: mx.nd.exp(x, out=o), np.exp(a)),
        (lambda o: mx.nd.power(x, y, out=o), quiet(np.power, a, b)),
        (lambda o: mx.nd.maximum(x, 1.0, out=o), np.maximum(a, np.float32(1))),
        (lambda o: mx.nd.clip(x, 0, 1, out=o), np.clip(a, 0, 1)),
        (lambda o: mx.nd.where(x > y, x, y, out=o), np.where(a > b, a, b)),
    ]:
        out = mx.nd.full(a.shape, 7)
        assert call(out) is out
        check(out, want)
    base = mx.nd.zeros((3, 8), dtype="float32")
    view = base[:, ::2]
    assert mx.nd.greater(x, y, out=view) is view
    check(view, mxnet_compare(a > b, np.float32))
    check(base[:, 1::2], np.zeros((3, 4), np.float32))


def test_out_is_an_input():
    a, b = power_operands(np.float64)
    x, y = nd(a), nd(b)
    mx.nd.exp(x, out=x)  # x = exp(x), in place
    check(x, np.exp(a))
    mx.nd.minimum(y, nd(np.array([0.5, 1, 2, 3])), out=y)  # broadcast operand
    check(y, np.minimum(b, [0.5, 1, 2, 3]))
    z = nd(np.arange(6.0))
    mx.nd.negative(z[:-1], out=z[1:])  # overlapping: every input read before it is written
    check(z, np.array([0.0, -0, -1, -2, -3, -4]))
    n, c = np.arange(4.0), np.array([1, 0, 1, 0], bool)
    w = nd(n)
    mx.nd.where(nd(c), w, w[::-1], out=w[::-1])
    n[::-1] = np.where(c, n, n[::-1])  # NumPy computes the whole result first
    check(w, n)


def torch_dtype(dtype):
    return torch.from_numpy(np.zeros(1, dtype)).dtype


@pytest.mark.parametrize("dtype", [d for d in (np.float32, np.float64, np.int32, np.float16, np.complex64)
                                   if np.dtype(d).name in TORCH_DLPACK_DTYPES], ids=name)
def test_out_torch_tensor_zero_copy(dtype):
    a, b = power_operands(dtype)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    t = torch.zeros(a.shape, dtype=torch_dtype(dtype))
    ptr = t.data_ptr()
    r = mx.nd.maximum(ta, tb, out=t)  # torch inputs and torch out
    assert r is t and t.data_ptr() == ptr  # out comes back as given
    np.testing.assert_array_equal(t.numpy(), np.maximum(a, b))  # the function waited
    mx.nd.square(nd(a), out=t)
    np.testing.assert_array_equal(t.numpy(), np.square(a))
    mx.nd.where(ta, ta, tb, out=t)  # a numeric condition
    np.testing.assert_array_equal(t.numpy(), np.where(a, a, b))
    if np.dtype(dtype).kind != "c":
        tt = torch.zeros(a.shape[::-1], dtype=t.dtype).t()  # a transposed out
        mx.nd.clip(ta, 0, 2, out=tt)
        np.testing.assert_array_equal(tt.contiguous().numpy(), np.clip(a, 0, 2))
    mx.nd.square(t, out=t)  # in place on torch memory
    check(mx.nd.from_dlpack(t), np.square(np.where(a, a, b)), np.dtype(dtype).kind != "c")


def test_out_numpy_and_bool_frameworks():
    a, b = power_operands(np.float32)
    o = np.zeros(a.shape, np.float32)
    mx.nd.sigmoid(nd(a), out=o)
    np.testing.assert_allclose(o, sigmoid_ref(a), rtol=1e-6)
    bool_outs = []
    if "bool" in TORCH_DLPACK_DTYPES:
        bool_outs.append(lambda: torch.zeros(a.shape, dtype=torch.bool))
    if "bool" in NUMPY_DLPACK_DTYPES:
        bool_outs.append(lambda: np.zeros(a.shape, bool))
    for make in bool_outs:  # bool operands give a bool result
        out = make()
        mx.nd.lesser_equal(nd(a <= 1), nd(a > 0), out=out)
        np.testing.assert_array_equal(np.asarray(out), (a <= 1) <= (a > 0))
    mx.nd.lesser_equal(nd(a), 1.0, out=o)  # float32 operands: 1 or 0 in float32
    np.testing.assert_array_equal(o, mxnet_compare(a <= 1, np.float32))


def test_out_of_the_wrong_dtype_or_shape_is_left_alone():
    x = nd(np.array([1, 2, 3], np.int8))
    out = mx.nd.full((3,), 7, dtype="float32")
    snap = Snapshot(x, out)
    with pytest.raises(TypeError, match="the result is int8"):
        mx.nd.exp(x, out=out)  # exp(int8) is int8, as MXNet gives
    with pytest.raises(TypeError, match="the result is int8"):
        mx.nd.equal(x, x, out=out)  # 1 or 0 in int8, as MXNet gives
    with pytest.raises(ValueError, match="shape"):
        mx.nd.abs(x, out=mx.nd.zeros((4,), dtype="int8"))
    snap.assert_intact()


# ---------------------------------------------------------------------- errors and dunders

@pytest.mark.parametrize("op", sorted(BINARY) + sorted(CMP))
def test_binary_dtype_and_shape_mismatch(op):
    x = nd(np.array([[1.0, 2.0, 3.0]], np.float32))
    y = nd(np.array([1.0, 2.0, 3.0], np.float64))
    z = nd(np.array([[1.0, 2.0]], np.float32))
    snap = Snapshot(x, y, z)
    fn = getattr(mx.nd, op)
    with pytest.raises(TypeError, match="dtype mismatch"):
        fn(x, y)
    with pytest.raises(ValueError, match="broadcast"):
        fn(x, z)
    with pytest.raises(TypeError):
        fn(x, "a")
    with pytest.raises(TypeError):
        fn(2, 3)
    snap.assert_intact()


def test_operator_syntax():
    a = np.array([[-1.5, 2.0, 0.0], [3.0, -4.0, 0.5]], np.float32)
    b = np.array([1.0, 2.0, -1.0], np.float32)
    x, y = nd(a), nd(b)
    check(-x, -a)
    check(abs(x), np.abs(a))
    f32 = np.float32
    check(x == y, mxnet_compare(a == b, f32))
    check(x != y, mxnet_compare(a != b, f32))
    check(x > y, mxnet_compare(a > b, f32))
    check(x >= y, mxnet_compare(a >= b, f32))
    check(x < y, mxnet_compare(a < b, f32))
    check(x <= y, mxnet_compare(a <= b, f32))
    check(x > 0, mxnet_compare(a > 0, f32))
    check(0 > x, mxnet_compare(0 > a, f32))
    check(1 == x, mxnet_compare(a == 1, f32))
    check((x > 0) * x, np.where(a > 0, a, f32(0)))  # MXNet's idiom: the mask is float32
    check(x ** 2, a ** 2)
    check(2 ** y, np.float32(2) ** b)
    check(abs(x) ** y, quiet(np.power, np.abs(a), b))
    check(-(x > 0).astype("int32"), -(a > 0).astype(np.int32))


def test_unary_dunders_do_not_take_other_arguments():
    with pytest.raises(TypeError):
        mx.nd.negative(mx.nd.ones((2,)), 3)
    with pytest.raises(TypeError):
        -mx.nd.ones((2,), dtype="bool")


# ----------------------------------------------------------------- bfloat16 against torch

TORCH_UNARY = {"negative": torch.neg, "abs": torch.abs, "sign": torch.sign, "square": torch.square,
               "relu": torch.relu, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "sin": torch.sin,
               "cos": torch.cos, "tanh": torch.tanh, "sigmoid": torch.sigmoid}


def as_f32(x):
    return x.astype("float32").asnumpy()


def test_bfloat16_against_torch():
    t = torch.tensor([[0.5, -1.5, 2.25, 3.0], [-0.25, 0.0, 1.0, 7.5]], dtype=torch.bfloat16)
    u = torch.tensor([[2.0, 0.5, 3.0, -1.0], [1.0, 2.0, -3.0, 0.5]], dtype=torch.bfloat16)
    for op, fn in TORCH_UNARY.items():
        got = getattr(mx.nd, op)(t)  # a torch input, through DLPack
        assert "bfloat16" in str(got.dtype)
        np.testing.assert_allclose(as_f32(got), fn(t).float().numpy(), rtol=8e-3, atol=1e-3, err_msg=op)
    for op, fn in (("maximum", torch.maximum), ("minimum", torch.minimum), ("power", torch.pow)):
        np.testing.assert_allclose(as_f32(getattr(mx.nd, op)(t, u)), fn(t, u).float().numpy(), rtol=8e-3)
    for op, fn in CMP.items():
        for rhs in (u, 1):
            got = getattr(mx.nd, op)(t, rhs)
            assert "bfloat16" in str(got.dtype), op  # 1 or 0 in the operands' dtype, as in MXNet
            np.testing.assert_array_equal(as_f32(got), mxnet_compare(fn(t, rhs).numpy(), np.float32), err_msg=op)
    np.testing.assert_array_equal(as_f32(mx.nd.clip(t, -1, 2)), torch.clamp(t, -1, 2).float().numpy())
    np.testing.assert_array_equal(as_f32(mx.nd.where(mx.nd.greater(t, 0), t, u)),
                                  torch.where(t > 0, t, u).float().numpy())
    out = torch.zeros(2, 4, dtype=torch.bfloat16)
    ptr = out.data_ptr()
    mx.nd.exp(t, out=out)  # written in torch's memory
    assert out.data_ptr() == ptr
    np.testing.assert_allclose(out.float().numpy(), torch.exp(t).float().numpy(), rtol=8e-3)


# --------------------------------------------------------------------------------- large

def test_large_inputs_match_numpy():
    rng = np.random.default_rng(7)
    a = rng.normal(size=(1024, 1024)).astype(np.float32)
    b = rng.normal(size=(1024,)).astype(np.float32)
    x, y = nd(a), nd(b)
    check(mx.nd.tanh(x), np.tanh(a))
    check(mx.nd.maximum(x, y), np.maximum(a, b), True)
    check(x[:, ::-3] > y[::3], mxnet_compare(a[:, ::-3] > b[::3], a.dtype))
    check(mx.nd.where(x > 0, x, x[::-1]), np.where(a > 0, a, a[::-1]), True)
    check(mx.nd.clip(x.astype("int32"), -1, 1), np.clip(a.astype(np.int32), -1, 1))


def test_python_ints_of_2_to_the_63_and_more_keep_their_value():
    """They travel as their uint64 bits (what integer arithmetic wraps to) and their value
    (what comparisons and floating-point arrays need). A comparison converts the value to
    the array's dtype as MXNet converts its double: 2**64 - 1 is 2**64 there, beyond
    uint64 and int64, which x86 turns into 2**63 and int64's minimum."""
    f = mx.nd.array([1.0, 2.0 ** 64], dtype="float64")
    check(f + 2 ** 63, np.array([2.0 ** 63, 2.0 ** 64 + 2.0 ** 63]))
    check(mx.nd.maximum(f, 2 ** 64 - 1), np.array([2.0 ** 64, 2.0 ** 64]))
    check(mx.nd.full((2,), 2 ** 64 - 1, dtype="float32"), np.full(2, 2.0 ** 64, np.float32))
    u = nd(np.array([2 ** 64 - 1, 1], np.uint64))
    check(u == 2 ** 64 - 1, np.array([0, 0], np.uint64))
    check(nd(np.array([2 ** 63, 1], np.uint64)) == 2 ** 64 - 1, np.array([1, 0], np.uint64))
    check(u + (2 ** 64 - 1), np.array([2 ** 64 - 2, 0], np.uint64))  # wraps, as -1 would
    check(mx.nd.array([-1, 5], dtype="int64") < 2 ** 63, np.array([0, 0], np.int64))
