"""NDArray arithmetic (+ - * / and their in-place and reflected forms) against NumPy.

MXNet's rules, which mxgo follows and NumPy does not:
  * the result has the array's dtype: a scalar is first cast to it (2.7 -> 2 for ints);
  * integer division truncates toward zero (-7 / 2 == -3) and x / 0 == 0;
  * both operands of array-array arithmetic have the same shape and dtype.
The reference :func:`expected` implements those rules with NumPy.
"""
import operator

import numpy as np
import pytest

import mxgo as mx
from api_helpers import ARITH_DTYPES, assert_nd, name, np_cast

S = slice
OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}
IOPS = {"add": operator.iadd, "sub": operator.isub, "mul": operator.imul, "div": operator.itruediv}
#: 1 ulp of slack where NumPy and Go round differently (float16 via float32, complex division).
RTOL = {np.dtype(np.float16): 1e-3, np.dtype(np.complex64): 1e-6}

A = np.array([[-7, -3, 0, 1], [2, 5, 9, 100]])
B = np.array([[2, -2, 3, 4], [-4, 5, 2, 7]])
SCALARS = [3, 2.5, -2.7, 0.5, 1]


def expected(op, a, b):
    """a op b under mxgo's rules; a and b are NumPy arrays (or 0-d) of the same dtype."""
    dt = np.result_type(a)
    if dt.kind in "iu" and op is operator.truediv:
        a64, b64 = np.broadcast_arrays(a.astype(np.int64), np.asarray(b).astype(np.int64))
        q = np.zeros(a64.shape, np.int64)
        nz = b64 != 0
        q[nz] = np.trunc(a64[nz] / b64[nz])
        return q.astype(dt)
    with np.errstate(all="ignore"):
        return np.asarray(op(a, b)).astype(dt)


def operands(dtype):
    a = A.astype(dtype) + (0.5 if np.dtype(dtype).kind == "f" else 0)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * A[::-1].astype(dtype)
    return a.astype(dtype), B.astype(dtype)


def check(got, want, dtype):
    assert_nd(got, want, rtol=RTOL.get(np.dtype(dtype), 0.0))


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=name)
def test_array_op_array(op, dtype):
    a, b = operands(dtype)
    x, y = mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype)
    check(OPS[op](x, y), expected(OPS[op], a, b), dtype)
    check(OPS[op](y, x), expected(OPS[op], b, a), dtype)
    check(OPS[op](x, x), expected(OPS[op], a, a), dtype)
    assert_nd(x, a)
    assert_nd(y, b)


@pytest.mark.parametrize("scalar", SCALARS + [np.float32(1.5), np.int64(-4)], ids=repr)
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=name)
def test_array_op_scalar_casts_the_scalar_to_the_array_dtype(op, dtype, scalar):
    a, _ = operands(dtype)
    x = mx.nd.array(a, dtype=dtype)
    s = np_cast(scalar, dtype)
    check(OPS[op](x, scalar), expected(OPS[op], a, s), dtype)
    check(OPS[op](scalar, x), expected(OPS[op], s, a), dtype)  # reflected: 2 - x, 1 / x
    assert_nd(x, a)


@pytest.mark.parametrize("scalar", [1 - 2j, 0.5j, 3])
@pytest.mark.parametrize("op", sorted(OPS))
def test_complex_scalars(op, scalar):
    a, _ = operands(np.complex64)
    x = mx.nd.array(a, dtype="complex64")
    s = np.complex64(scalar)
    check(OPS[op](x, scalar), expected(OPS[op], a, s), np.complex64)
    check(OPS[op](scalar, x), expected(OPS[op], s, a), np.complex64)


@pytest.mark.parametrize("other_is_array", [False, True], ids=["scalar", "array"])
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", ARITH_DTYPES, ids=name)
def test_in_place_forms_update_the_same_object(op, dtype, other_is_array):
    a, b = operands(dtype)
    x = mx.nd.array(a, dtype=dtype)
    view = x[1]
    other = mx.nd.array(b, dtype=dtype) if other_is_array else 3
    ref = b if other_is_array else np_cast(3, dtype)
    before = x
    x = IOPS[op](x, other)
    assert x is before
    want = expected(OPS[op], a, ref)
    check(x, want, dtype)
    check(view, want[1], dtype)  # views see the in-place update


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_division_truncates_toward_zero_and_by_zero_gives_zero(dtype):
    x = mx.nd.array([-7, 7, -1, 6, 5, -5], dtype=dtype)
    assert_nd(x / 2, np.array([-3, 3, 0, 3, 2, -2], dtype))
    assert_nd(x / -2, np.array([3, -3, 0, -3, -2, 2], dtype))
    assert_nd(x / 0, np.zeros(6, dtype))
    assert_nd(x / mx.nd.array([0, 0, 1, 0, 2, 3], dtype=dtype), np.array([0, 0, -1, 0, 2, -1], dtype))
    assert_nd(12 / mx.nd.array([0, 5, -5], dtype=dtype), np.array([0, 2, -2], dtype))
    assert_nd(x / 2.9, np.array([-3, 3, 0, 3, 2, -2], dtype))  # 2.9 becomes 2 first
    assert_nd(x * 1.9, x.asnumpy())  # 1.9 becomes 1


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_division_by_zero_is_ieee(dtype):
    x = mx.nd.array([1, -1, 0], dtype=dtype)
    with np.errstate(all="ignore"):
        ref = np.array([1, -1, 0], dtype) / np.array(0, dtype)
    assert_nd(x / 0, ref)
    assert_nd(x / mx.nd.zeros((3,), dtype=dtype), ref)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32"])
def test_integer_overflow_wraps_like_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max - 1], dtype)
    x = mx.nd.array(a, dtype=dtype)
    with np.errstate(all="ignore"):
        assert_nd(x + 1, a + np.array(1, dtype))
        assert_nd(x * mx.nd.array(a, dtype=dtype), a * a)
        assert_nd(x - 2, a - np.array(2, dtype))


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_arithmetic_on_strided_views(op, dtype):
    n = (np.arange(48).reshape(6, 8) + 1).astype(dtype)
    x = mx.nd.array(n, dtype=dtype)
    keys = [(S(None, None, 2), S(1, None, 3)), (S(1, None, 2), S(None, None, -3)),
            (S(None, 3), S(None, None, -3)), (S(3, None), 1, None)]
    for k1, k2 in [(keys[0], keys[1]), (keys[1], keys[2]), (keys[2], keys[0])]:
        check(OPS[op](x[k1], x[k2]), expected(OPS[op], n[k1], n[k2]), dtype)
        check(OPS[op](x[k1], 2), expected(OPS[op], n[k1], np_cast(2, dtype)), dtype)
    v = x[keys[0]]
    v = IOPS[op](v, x[keys[1]])  # in place on a strided view writes into the parent
    n[keys[0]] = expected(OPS[op], n[keys[0]], n[keys[1]])
    check(x, n, dtype)


@pytest.mark.parametrize("dst, src", [
    ((S(1, None),), (S(None, -1),)), ((S(None, -1),), (S(1, None),)), ((S(None),), (S(None, None, -1),)),
    ((S(None), S(1, None)), (S(None), S(None, -1))),
], ids=["down", "up", "reversed", "columns"])
@pytest.mark.parametrize("op", sorted(OPS))
def test_in_place_with_an_overlapping_operand_matches_numpy(dst, src, op):
    n = np.arange(1, 21, dtype=np.float64).reshape(4, 5)
    x = mx.nd.array(n, dtype="float64")
    target = x[dst]
    IOPS[op](target, x[src])
    n[dst] = OPS[op](n[dst], n[src])  # NumPy reads all of n[src] before writing
    assert_nd(x, n)


def test_0d_and_0_size_arithmetic():
    s = mx.nd.array(3.0)
    assert_nd(s * 2 + s, np.array(9.0, np.float32))
    z = mx.nd.zeros((0, 4))
    assert_nd(z + z - 1, np.zeros((0, 4), np.float32))
