"""mx.np's Array API additions and special cases (tools/array_api.py's failures, fixed):
round, sign, the complex elementwise functions, floor_divide with infinities, the
cumulative, counting, difference, take_along_axis, searchsorted and unique functions,
finfo, empty arrays through reshapes; NumPy 2 (or the standard where it departs) is the
reference."""
import math

import numpy as onp
import pytest

from mxgo import np


def check(got, want):
    """got is an mx.np array equal to NumPy's want: shape, dtype and values."""
    want = onp.asarray(want)
    assert isinstance(got, np.ndarray) and (got.shape, got.dtype) == (want.shape, want.dtype)
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, onp.inf, -onp.inf, onp.nan]
ZS = onp.array([complex(a, b) for a in SPECIAL for b in SPECIAL] + [0.3 - 0.7j, 1e-9 + 2e-9j, 5.6e16 + 3.14j, -4.5e16 - 1e-5j],
              onp.complex128)


NUMPY2 = int(onp.__version__.split(".")[0]) >= 2
NUMPY_NAMES = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
               "atanh": "arctanh"}  # (NumPy 1's names)


@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh", "tan", "tanh",
                                  "expm1", "log1p", "log2", "log10", "reciprocal"])
def test_complex_functions_match_numpy(name):
    zs = {"expm1": ZS[onp.isfinite(ZS)], "reciprocal": ZS[onp.isfinite(ZS) & (ZS != 0)]}.get(name, ZS)  # (NumPy's
    # expm1 and complex division depart from C99 at infinities and zeros; the Go test checks the standard's cases;
    # NumPy 1 (the legacy and MXNet environments) has other signs in its unspecified cases: finite values there)
    zs = zs if NUMPY2 else zs[onp.isfinite(zs)]
    got = getattr(np, name)(np.asarray(zs)).asnumpy()
    with onp.errstate(all="ignore"):
        want = getattr(onp, NUMPY_NAMES.get(name, name))(zs)
    finite = onp.isfinite(want)
    onp.testing.assert_allclose(got[finite], want[finite], rtol=1e-7, atol=1e-300)  # (math/cmplx: ~1e-8 near 0)
    for part in (onp.real, onp.imag):  # inf and NaN where NumPy (C99) has them; signs of zeros and infinities
        g, w = part(got), part(want)
        assert (onp.isnan(g) == onp.isnan(w)).all()
        assert (g[onp.isinf(w)] == w[onp.isinf(w)]).all() or name in ("acos", "sinh")  # (±inf: sign unspecified)
        zero = w == 0
        if name not in ("cosh", "tanh", "tan", "expm1", "reciprocal"):  # (zero signs: unspecified, or the standard's
            # differ from NumPy's C99 ones: tanh(inf + 2.5j) is 1 + 0j there, 1 - 0j in C99)
            assert (onp.signbit(g[zero]) == onp.signbit(w[zero])).all()
    assert np.acos(np.asarray([0.5j], dtype="complex64")).dtype == onp.complex64
    assert complex(np.expm1(np.asarray([complex(onp.inf, 0)])).item()) == complex(onp.inf, 0)  # the standard's case


def test_floor_divide_infinities_follow_the_standard():
    x1 = np.asarray([onp.inf, -onp.inf, -1.0, 1.0, 7.0], dtype="float64")
    x2 = np.asarray([2.0, 2.0, onp.inf, -onp.inf, -2.0], dtype="float64")
    r = (x1 // x2).asnumpy()
    assert r[0] == onp.inf and r[1] == -onp.inf and r[4] == -4.0
    assert r[2] == 0 and onp.signbit(r[2]) and r[3] == 0 and onp.signbit(r[3])  # floor(-1 / inf) is -0 (NumPy: -1)


def test_round_is_half_to_even():
    x = onp.array([0.5, 1.5, 2.5, -0.5, -2.5, 1.2345, -0.0, onp.inf, onp.nan], onp.float32)
    check(np.round(np.asarray(x)), onp.round(x))
    assert onp.signbit(np.round(np.asarray(x)).asnumpy()[6])
    check(np.round(np.asarray(x), decimals=2), onp.round(x, 2))
    check(np.round(np.asarray([1250.0, -1350.0]), decimals=-2), onp.round(onp.array([1250.0, -1350.0], "f4"), -2))
    big = onp.array([2**62 + 1, -3], onp.int64)
    check(np.round(np.asarray(big)), big)
    check(np.asarray(x).round(1), onp.round(x, 1))


def test_sign_keeps_nan_and_normalises_complex():
    x = onp.array([-2.0, 0.0, -0.0, 3.0, onp.nan, -onp.inf], onp.float32)
    check(np.sign(np.asarray(x)), onp.sign(x))
    z = onp.array([3 + 4j, 0j, -2j, complex(-0.0, -0.0)], onp.complex64)
    check(np.sign(np.asarray(z)), onp.array([0.6 + 0.8j, 0, -1j, 0], onp.complex64))  # (NumPy 2's z / |z|)
    assert not onp.signbit(np.sign(np.asarray(z)).asnumpy()[3].real)
    check(np.sign(np.asarray([-3, 0, 5], dtype="int8")), onp.array([-1, 0, 1], onp.int8))


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
def test_cumulative_prod_and_count_nonzero(dtype):
    x = (onp.arange(1, 13).reshape(3, 4) % 5).astype(dtype)
    for axis in (0, 1):
        acc = {"int32": onp.int64, "bool": onp.int64}.get(dtype, dtype)
        want = onp.cumprod(x, axis=axis, dtype=acc)
        check(np.cumulative_prod(np.asarray(x), axis=axis), want)
        check(np.cumulative_prod(np.asarray(x), axis=axis, include_initial=True),
              onp.concatenate([onp.ones_like(want.take([0], axis)), want], axis=axis))
        check(np.count_nonzero(np.asarray(x), axis=axis), onp.count_nonzero(x, axis=axis).astype(onp.int64))
    check(np.cumprod(np.asarray(x)), onp.cumprod(x, dtype=acc))
    check(np.count_nonzero(np.asarray(x)), onp.int64(onp.count_nonzero(x)))
    assert np.cumulative_prod(np.zeros((0,))).shape == (0,)


def test_diff():
    x = onp.array([[1, 4, 9, 16], [2, 3, 5, 7]], onp.int16)
    for n in (0, 1, 2, 5):
        check(np.diff(np.asarray(x), n=n), onp.diff(x, n=n))
    check(np.diff(np.asarray(x), axis=0, prepend=np.asarray([[0, 0, 0, 0]], dtype="int16")),
          onp.diff(x, axis=0, prepend=onp.zeros((1, 4), onp.int16)))
    check(np.diff(np.asarray(x), append=0), onp.diff(x, append=0))
    b = onp.array([True, True, False])
    check(np.diff(np.asarray(b)), onp.diff(b))
    with pytest.raises(ValueError):
        np.diff(np.asarray(x), n=-1)


def test_take_along_axis_and_repeat_counts():
    x = onp.arange(12.0, dtype=onp.float32).reshape(3, 4)
    idx = onp.array([[3, 0], [-1, 1], [2, 2]])
    check(np.take_along_axis(np.asarray(x), np.asarray(idx), axis=1), onp.take_along_axis(x, idx, axis=1))
    check(np.take_along_axis(np.asarray(x), np.asarray(onp.array([[2, 0, 1, 0]])), axis=0),
          onp.take_along_axis(x, onp.array([[2, 0, 1, 0]]), axis=0))
    assert np.take_along_axis(np.asarray(x), np.zeros((3, 0), dtype="int64"), axis=1).shape == (3, 0)
    check(np.take(np.asarray(x), np.asarray([-1, 0]), axis=1), onp.take(x, [-1, 0], axis=1))
    check(np.repeat(np.asarray(x), np.asarray([1, 0, 2]), axis=0), onp.repeat(x, [1, 0, 2], axis=0))
    with pytest.raises(ValueError):
        np.repeat(np.asarray(x), np.asarray([1, -1, 2]), axis=0)


def test_searchsorted_and_unique():
    a = onp.array([1.0, 2.0, 2.0, 5.0], onp.float32)
    v = onp.array([[2.0, 0.0], [6.0, onp.nan]], onp.float32)
    for side in ("left", "right"):
        check(np.searchsorted(np.asarray(a), np.asarray(v), side=side), onp.searchsorted(a, v, side=side))
    perm = onp.array([3, 0, 2, 1])
    check(np.searchsorted(np.asarray(a[perm]), np.asarray(v), sorter=np.asarray(onp.argsort(a[perm]))),
          onp.searchsorted(a[perm], v, sorter=onp.argsort(a[perm])))
    x = onp.array([[3, 1, 3], [onp.nan, 1, onp.nan]], onp.float32)
    r = np.unique_all(np.asarray(x))
    assert r._fields == ("values", "indices", "inverse_indices", "counts")  # NaNs distinct (the standard's rule)
    check(r.values, onp.array([1, 3, onp.nan, onp.nan], onp.float32))
    check(r.indices, onp.array([1, 0, 3, 5], onp.int64))
    check(r.inverse_indices, onp.array([[1, 0, 1], [2, 0, 3]], onp.int64))
    check(r.counts, onp.array([2, 2, 1, 1], onp.int64))
    y = onp.array([4, -1, 4, 0, -1, 4], onp.int8)
    values, inverse, counts = onp.unique(y, return_inverse=True, return_counts=True)
    check(np.unique_values(np.asarray(y)), values)
    check(np.unique_counts(np.asarray(y)).counts, counts.astype(onp.int64))
    check(np.unique_inverse(np.asarray(y)).inverse_indices, inverse.astype(onp.int64))
    assert np.unique_inverse(np.asarray(False)).inverse_indices.shape == ()
    with pytest.raises(ValueError):
        np.searchsorted(np.asarray(x), np.asarray(a))


def test_finfo_fields_are_python_numbers_and_empty_shapes():
    f = np.finfo(np.complex64)
    assert f.dtype == onp.float32 and f.bits == 32
    assert all(type(getattr(f, k)) is float for k in ("eps", "max", "min", "smallest_normal"))
    assert f.eps == float(onp.finfo(onp.float32).eps) and f.resolution == onp.finfo(onp.float32).resolution
    assert np.linspace(6.69631615294505e16, onp.pi, 36)[-1].item() == onp.float32(onp.pi)  # the endpoint exactly
    assert np.eye(0).shape == (0, 0) and np.eye(0, 3).shape == (0, 3)
    grids = np.meshgrid(np.asarray([1, 2], dtype="uint8"), np.zeros((0,), dtype="uint8"), indexing="ij")
    assert [g.shape for g in grids] == [(2, 0), (2, 0)]
    out = np.broadcast_arrays(np.zeros((0, 1, 1)), np.zeros((5, 0, 3, 1)))
    assert [o.shape for o in out] == [(5, 0, 3, 1)] * 2
    assert np.asarray(False)[np.asarray(False)].shape == (0,)
    assert "float16" not in np.__array_namespace_info__().dtypes()  # (not one of the standard's)
    assert np.full_like(np.zeros((2,), dtype="int8"), 3).dtype == onp.int8
    assert math.isnan(np.vecdot(np.asarray([onp.nan]), np.asarray([1.0])).item())
    assert np.vecdot(np.zeros((0,), dtype="uint8"), np.zeros((0,), dtype="uint8")).dtype == onp.uint8
