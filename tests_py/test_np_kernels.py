"""mx.np's elementwise kernels (the registry's _npi_ operators) against NumPy, bit for bit.

Each operator runs on every dtype it takes, over all pairs of edge values (NaN, ±inf, ±0,
the integer limits) laid out to broadcast, and with Python numbers. The references are
written so that NumPy 1.x computes the same as NumPy 2: Python numbers are converted as
NEP 50 says (NumPy 2's rule) before NumPy sees them."""
import operator

import numpy as np
import pytest

import mxgo as mx
from mxgo._core.registry import invoke

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
ALL = ["bool"] + INTS + FLOATS + COMPLEX


def values(dt):
    """Edge values of dtype dt (a 1-d NumPy array)."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.array([False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array(sorted({info.min, info.min + 1, 0, 1, 2, 3, 7, info.max - 1, info.max} |
                               ({-1, -2, -7} if dt.kind == "i" else set())), dtype=dt)
    real = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, 0.1, 1e-40,
                     np.finfo(dt).max if dt.kind == "f" else 1e30], dtype=np.float64)
    with np.errstate(all="ignore"):
        if dt.kind == "c":
            return (real[:, None] + 1j * np.array([0.0, -0.0, 1.0, np.nan, np.inf])).ravel().astype(dt)
        return real.astype(dt)


def nd(a):
    return mx.nd.array(a, dtype=a.dtype)


def run(name, arrays, params=None):
    return invoke(name, [nd(a) for a in arrays], params or {}).asnumpy()


def same(got, want, ulps=0):
    """got equals want bit for bit (NaN matching any NaN), or within ulps for the float
    functions that NumPy takes from the C library."""
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind == "c":
        same(got.real, want.real, ulps)
        same(got.imag, want.imag, ulps)
        return
    if want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want)
        return
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    if ulps:
        g, w = got[~nan], want[~nan]
        np.testing.assert_array_equal(np.isinf(g), np.isinf(w))
        np.testing.assert_array_max_ulp(g[~np.isinf(g)], w[~np.isinf(w)], maxulp=ulps)
        return
    bits = "u%d" % want.dtype.itemsize
    np.testing.assert_array_equal(got[~nan].view(bits), want[~nan].view(bits))


def pairs(dt):
    """Every pair of dt's edge values, as a column and a row that broadcast."""
    v = values(dt)
    return v[:, None], v[None, :]


def weak(dt, s):
    """The dtype a Python number s takes meeting an array of dtype dt (NEP 50)."""
    dt = np.dtype(dt)
    if isinstance(s, complex):
        return dt if dt.kind == "c" else np.dtype("complex64" if dt.itemsize <= 4 and dt.kind == "f" else "complex128")
    if isinstance(s, float):
        return dt if dt.kind in "fc" else np.dtype("float64")
    return np.dtype("int64") if dt == np.bool_ else dt


def with_number(f, a, s, rev):
    """f(a, s) (f(s, a) when rev) with s converted as NumPy 2 converts a Python number."""
    t = weak(a.dtype, s)
    with np.errstate(all="ignore"):
        c = np.array(s).astype(t) if t.kind in "fc" else None
    if c is None:  # an integer with a bool or integer array: exact, in Python's ints
        f2 = (lambda x: f(s, int(x))) if rev else (lambda x: f(int(x), s))
        return np.array([f2(x) for x in a.ravel()]).reshape(a.shape)
    x = a.astype(t)
    with np.errstate(all="ignore"):
        return f(c, x) if rev else f(x, c)


CMP = {"equal": operator.eq, "not_equal": operator.ne, "greater": operator.gt,
       "greater_equal": operator.ge, "less": operator.lt, "less_equal": operator.le}
NUMBERS = [-1, 0, 2, 300, -200, 2**63 - 1, 2**64 - 1, 2.5, 0.1, 1e-10, float("nan"), float("inf"), 1 + 2j]


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("name", list(CMP))
def test_compare(name, dt):
    a, b = pairs(dt)
    f = getattr(np, name)
    with np.errstate(all="ignore"):
        same(run("_npi_" + name, [a, b]), f(a, b))
    v = values(dt)
    for s in NUMBERS:
        if isinstance(s, int) and s >= 2**63 and dt != "uint64":
            continue  # NumPy 1 cannot compare an int64 with it
        for rev in (False, True):
            got = run("_npi_%s_scalar" % name, [v], {"scalar": s, "reverse": rev})
            same(got, with_number(f, v, s, rev).astype(bool))


@pytest.mark.parametrize("dt", INTS)
def test_compare_with_ints_beyond_the_dtype(dt):
    """mx.np's comparisons (the operators and the functions, out= too) of an integer array
    with a Python int its dtype cannot hold give NumPy 2's answer, the same everywhere,
    where arithmetic with it raises OverflowError; Python's own comparison is the oracle."""
    v = values(dt)
    x = mx.np.array(v)
    info = np.iinfo(dt)
    for s in (info.max + 1, info.min - 1, 2**70, -(2**70)):
        for name, op in CMP.items():
            for rev in (False, True):
                want = np.array([op(s, int(e)) if rev else op(int(e), s) for e in v])
                args = (s, x) if rev else (x, s)
                np.testing.assert_array_equal(op(*args).asnumpy(), want)
                out = mx.np.zeros(v.shape, dtype=bool)
                assert getattr(mx.np, name)(*args, out=out) is out
                np.testing.assert_array_equal(out.asnumpy(), want)
        with pytest.raises(OverflowError):
            x + s


PREDICATES = ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "logical_not"]


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("name", PREDICATES)
def test_predicates(name, dt):
    v = values(dt)
    if dt in COMPLEX and name in ("isposinf", "isneginf", "signbit"):
        with pytest.raises(TypeError, match="complex"):
            run("_npi_" + name, [v])
        return
    same(run("_npi_" + name, [v]), getattr(np, name)(v))


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical(name, dt):
    a, b = pairs(dt)
    g = getattr(np, name)
    same(run("_npi_" + name, [a, b]), g(a, b))
    v = values(dt)
    f = lambda x, y: g(x != 0, y != 0)  # noqa: E731 (on Python's ints too)
    for s in (0, 3, 0.5, 1e-10, 0.0, 1j):
        same(run("_npi_%s_scalar" % name, [v], {"scalar": s}), with_number(f, v, s, False).astype(bool))


def ints_only(dt, name):
    """Whether NumPy takes dtype dt for the integer operator name (bool: the bitwise ops)."""
    return dt in INTS or (dt == "bool" and "shift" not in name)


@pytest.mark.parametrize("dt", ["bool"] + INTS)
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"])
def test_bitwise(name, dt):
    if not ints_only(dt, name):
        with pytest.raises(TypeError, match="bool"):
            run("_npi_" + name, list(pairs(dt)))
        return
    a, b = pairs(dt)
    f = getattr(np, name)
    if "shift" in name:
        b = np.arange(-3, 70, dtype=dt if dt[0] == "i" else "int64").astype(dt)[None, :]
    same(run("_npi_" + name, [a, b]), f(a, b))
    v = values(dt)
    counts = [0, 1, 3, 7, 8, 15, 31, 63] if "shift" in name else [0, 1, 5, 127]
    for s in counts:
        c = np.array(s).astype(dt)
        same(run("_npi_%s_scalar" % name, [v], {"scalar": s}), f(v, c))
        same(run("_npi_%s_scalar" % name, [v], {"scalar": s, "reverse": True}), f(c, v))


def test_shift_counts_beyond_the_width():
    v = values("int16")
    for s in (16, 17, 100, 2**40, -1, -100):
        big = np.full(v.shape, s, dtype="int64")
        same(run("_npi_left_shift_scalar", [v], {"scalar": s}), np.left_shift(v.astype("int64"), big).astype("int16")
             if 0 <= s < 64 else np.zeros_like(v))
        same(run("_npi_right_shift_scalar", [v], {"scalar": s}), np.where(v < 0, -1, 0).astype("int16"))
    with pytest.raises(TypeError, match="integer"):
        run("_npi_left_shift_scalar", [v], {"scalar": 1.5})


@pytest.mark.parametrize("dt", ["bool"] + INTS)
def test_bitwise_not(dt):
    v = values(dt)
    same(run("_npi_bitwise_not", [v]), np.invert(v))


def float_pairs(dt):
    """Pairs of dt's edge values and a spread of ordinary ones, to broadcast."""
    v = np.concatenate([values(dt), np.array([0.3, -0.7, 5.5, -13.25, 1e4, 1e-3, 7.0, -7.0], dtype=dt)])
    return v[:, None], v[None, :]


def std_floor_divide(a, b):
    """NumPy's floor_divide, but floor(a / b) where an operand is infinite: the Array API
    standard's special cases (inf // 2 is inf, -1 // inf is -0; NumPy: NaN, -1)."""
    if np.result_type(a, b).kind != "f":
        return np.floor_divide(a, b)
    return np.where(np.isinf(a) | np.isinf(b), np.floor(np.true_divide(a, b)), np.floor_divide(a, b))


# name: (NumPy's function, ulps allowed (the C library's transcendental functions), MXNet's reversed scalar form)
FLOAT_OPS = {
    "arctan2": (np.arctan2, 2, "_npi_rarctan2_scalar"),
    "copysign": (np.copysign, 0, "_npi_rcopysign_scalar"),
    "hypot": (np.hypot, 2, None),
    "nextafter": (np.nextafter, 0, None),
    "logaddexp": (np.logaddexp, 2, None),
    "floor_divide": (std_floor_divide, 0, None),
    "mod": (np.remainder, 0, "_npi_rmod_scalar"),
}


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name", list(FLOAT_OPS))
def test_float_binary(name, dt):
    f, ulps, rname = FLOAT_OPS[name]
    a, b = float_pairs(dt)
    with np.errstate(all="ignore"):
        same(run("_npi_" + name, [a, b]), f(a, b), ulps)
        v = a.ravel()
        for s in (2.5, -0.0, 3, float("inf"), float("nan"), 1e-30):
            c = np.array(s).astype(dt)
            same(run("_npi_%s_scalar" % name, [v], {"scalar": s}), f(v, c), ulps)
            same(run("_npi_%s_scalar" % name, [v], {"scalar": s, "reverse": True}), f(c, v), ulps)
            if rname:
                same(run(rname, [v], {"scalar": s}), f(c, v), ulps)


@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("name", ["floor_divide", "mod"])
def test_int_divmod(name, dt):
    f = FLOAT_OPS[name][0]
    a, b = pairs(dt)
    with np.errstate(all="ignore"):
        same(run("_npi_" + name, [a, b]), f(a, b))
        v = a.ravel()
        for s in (0, 1, 3, 7):
            c = np.array(s).astype(dt)
            same(run("_npi_%s_scalar" % name, [v], {"scalar": s}), f(v, c))
            same(run("_npi_%s_scalar" % name, [v], {"scalar": s, "reverse": True}), f(c, v))


@pytest.mark.parametrize("dt", FLOATS)
def test_ldexp(dt):
    v = np.concatenate([values(dt), np.array([0.75, -3.0, 1e-3], dtype=dt)])
    e = np.array([-2000, -150, -30, -1, 0, 1, 5, 30, 140, 2000], dtype="int32")
    small = np.array([-3, 0, 4], dtype=dt)
    with np.errstate(all="ignore"):
        same(run("_npi_ldexp", [v[:, None], e[None, :]]), np.ldexp(v[:, None], e[None, :]))
        same(run("_npi_ldexp", [v[:, None], e[None, :].astype(dt)]), np.ldexp(v[:, None], e[None, :].astype(dt).astype("int32")))
        for s in (-20, 0, 3, 100):
            same(run("_npi_ldexp_scalar", [v], {"scalar": s}), np.ldexp(v, s))
        same(run("_npi_rldexp_scalar", [small], {"scalar": 1.5}), np.ldexp(np.array(1.5, dtype=dt), small.astype("int32")))
    with pytest.raises(TypeError, match="first operand"):
        run("_npi_ldexp", [e, e])


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("name", ["real", "imag", "conj"])
def test_complex_parts(name, dt):
    v = values(dt)
    same(run("_npi_" + name, [v]), np.asarray(getattr(np, name)(v)))


def test_gradients_through_autograd():
    x = mx.nd.array(np.array([0.5, -2.0], dtype="float32"))
    y = mx.nd.array(np.array([[1.5], [-0.25]], dtype="float32"))
    x.attach_grad()
    with mx.autograd.record():
        z = invoke("_npi_arctan2", [x, y])
    z.backward()
    xv, yv = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), (yv / (xv * xv + yv * yv)).sum(axis=0), rtol=1e-6)
    with mx.autograd.record():
        z = invoke("_npi_greater", [x, x])
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [0, 0])


def test_numbers_that_would_change_the_dtype_are_refused():
    with pytest.raises(TypeError, match="a float with a int32 array"):
        run("_npi_floor_divide_scalar", [values("int32")], {"scalar": 2.5})
    with pytest.raises(TypeError, match="complex"):
        run("_npi_arctan2_scalar", [values("float32")], {"scalar": 1j})
    with pytest.raises(TypeError, match="dtype mismatch"):
        run("_npi_mod", [values("float32"), values("float64")])


@pytest.mark.parametrize("name,s", [("_npi_ldexp_scalar", 3), ("_npi_rldexp_scalar", 1.5), ("_npi_copysign_scalar", -1.0),
                                    ("_npi_hypot_scalar", 3.0), ("_npi_logaddexp_scalar", 0.5), ("_npi_mod_scalar", 0.75),
                                    ("_npi_rmod_scalar", 5.0), ("_npi_arctan2_scalar", 2.0), ("_npi_rarctan2_scalar", 2.0)])
def test_scalar_form_gradients(name, s):
    v = np.array([0.3, -2.2])
    x = nd(v)
    x.attach_grad()
    with mx.autograd.record():
        y = invoke(name, [x], {"scalar": s})
    y.backward()
    h = 1e-6
    numeric = (run(name, [v + h], {"scalar": s}) - run(name, [v - h], {"scalar": s})) / (2 * h)
    np.testing.assert_allclose(x.grad.asnumpy(), numeric, rtol=1e-5)
