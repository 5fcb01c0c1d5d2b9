"""mx.np's elementwise functions beyond the ufunc table, composed of registry operators:
fabs, ldexp, lcm, float_power, divmod, modf, heaviside, nan_to_num, ediff1d, polyval,
interp and the windows (hanning, hamming, blackman).

Where MXNet 1.9.1 has its own kernel its dtypes are kept (fabs and ldexp keep integer
dtypes, polyval and the windows default to float32); the functions it hands to NumPy
(float_power, divmod, modf, heaviside) give NumPy's dtypes.
"""
import math
import numbers

import numpy as _onp

from ..base import MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import SCALARS, asarray, astype, full, invoke, operand, reshape
from ._manip import FUNCTIONS as _MANIP
from ._reduce import FUNCTIONS as _REDUCE, _into
from ._sets import FUNCTIONS as _SETS
from ._ufuncs import binary, unary

__all__ = ["FUNCTIONS"]

_where = _MANIP["where"]
_F64 = _onp.dtype(_onp.float64)


def fabs(x, out=None, **kwargs):
    """The absolute value of real x (complex x: TypeError); integer dtypes kept, as MXNet's."""
    x = operand(x, "x")
    if _dtypes.as_dtype(x.dtype).kind == "c":
        raise MXNetTypeError("fabs is not defined for complex arrays")
    return unary("abs", x, out)


def ldexp(x1, x2, out=None, **kwargs):
    """x1 * 2**x2, exactly, in x1's dtype (x2: integers, or floats as MXNet allows)."""
    if isinstance(x1, SCALARS):
        x1 = asarray(x1)
    x1 = operand(x1, "x1")
    dt = _dtypes.as_dtype(x1.dtype)
    if dt.kind not in "iuf":
        raise MXNetTypeError("ldexp is not defined for %s arrays" % dt)
    if isinstance(x2, SCALARS):
        if isinstance(x2, complex):
            raise MXNetTypeError("ldexp: the exponent must be real")
        return invoke("_npi_ldexp_scalar", [x1], {"scalar": x2, "reverse": False}, out)
    x2 = operand(x2, "x2")
    k2 = _dtypes.as_dtype(x2.dtype).kind
    if k2 not in "biuf":
        raise MXNetTypeError("ldexp: the exponent must be real")
    if k2 == "f" and dt.kind == "f":
        dt = _dtypes.result_type(x1, x2)
        x1, x2 = astype(x1, dt), astype(x2, dt)
    x1, x2 = _MANIP["broadcast_arrays"](x1, x2)
    return invoke("_npi_ldexp", [x1, astype(x2, _dtypes.DEFAULT_INT) if k2 == "b" else x2], None, out)


def lcm(x1, x2, out=None, **kwargs):
    """The least common multiple of |x1| and |x2| (integers; 0 where either is 0)."""
    x1, x2 = (operand(x, n) if not isinstance(x, SCALARS) else x for x, n in ((x1, "x1"), (x2, "x2")))
    dt = _dtypes.result_type(x1, x2)
    if dt.kind not in "iu":
        raise MXNetTypeError("lcm is only defined for integers, got %s" % dt)
    a, b = (unary("abs", astype(operand(x), dt) if not isinstance(x, SCALARS) else full((), x, dt)) for x in (x1, x2))
    a, b = _MANIP["broadcast_arrays"](a, b)
    g = _gcd(a, b)
    safe = _where(binary("equal", g, 0), full((), 1, dt), g)
    return _into(binary("multiply", binary("floor_divide", a, safe), b), out)


def _gcd(a, b):
    """Euclid's algorithm on whole arrays of non-negative integers (at most ~90 steps for int64)."""
    while bool(_REDUCE["any"](b)):
        nonzero = binary("not_equal", b, 0)
        r = binary("remainder", a, _where(nonzero, b, full((), 1, _dtypes.as_dtype(b.dtype))))
        a, b = _where(nonzero, b, a), _where(nonzero, r, b)
    return a


def _float_dtype(*xs):
    """The floating dtype NumPy's ufuncs compute integer inputs in (int8: float16, int32:
    float64), or the inputs' own."""
    dt = _dtypes.result_type(*xs)
    return dt if dt.kind in "fc" else _onp.result_type(dt, _onp.float16)


def float_power(x1, x2, out=None, **kwargs):
    """x1 ** x2 in float64 (complex128 for complex operands), as NumPy's."""
    dt = _onp.dtype(_onp.complex128) if _dtypes.result_type(*_operands(x1, x2)).kind == "c" else _F64
    x1, x2 = (x if isinstance(x, SCALARS) else astype(operand(x), dt) for x in (x1, x2))
    return binary("power", x1, x2, out)


def _operands(*xs):
    return [x if isinstance(x, SCALARS) else operand(x) for x in xs]


def divmod(x1, x2, out=(None, None), **kwargs):  # noqa: A001  (NumPy's name)
    """(x1 // x2, x1 % x2), NumPy's floor division and remainder."""
    out = out or (None, None)
    return binary("floor_divide", x1, x2, out[0]), binary("remainder", x1, x2, out[1])


def modf(x, out=(None, None), **kwargs):
    """(fractional part, integral part) of x, both with x's sign (inf: (±0, ±inf))."""
    x = operand(x, "x")
    dt = _dtypes.as_dtype(x.dtype)
    if dt.kind == "c":
        raise MXNetTypeError("modf is not defined for complex arrays")
    x = astype(x, _float_dtype(x))
    whole = unary("trunc", x)
    frac = _where(unary("isinf", x), full((), 0, x.dtype), binary("subtract", x, whole))
    out = out or (None, None)
    return _into(binary("copysign", frac, x), out[0]), _into(whole, out[1])


def heaviside(x1, x2, out=None, **kwargs):
    """The step function: 0 for x1 < 0, x2 where x1 == 0, 1 for x1 > 0 (NaN stays NaN)."""
    x1, x2 = _operands(x1, x2)
    dt = _float_dtype(*[x for x in (x1, x2)])
    x1 = astype(operand(x1), dt) if not isinstance(x1, SCALARS) else full((), x1, dt)
    x2 = astype(operand(x2), dt) if not isinstance(x2, SCALARS) else full((), x2, dt)
    step = astype(binary("greater", x1, 0), dt)
    r = _where(binary("equal", x1, 0), x2, _where(unary("isnan", x1), x1, step))
    return _into(r, out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None, **kwargs):
    """x with NaN replaced by ``nan`` and infinities by ``posinf``/``neginf`` (the dtype's
    largest finite values by default); real and imaginary parts apart; other dtypes unchanged."""
    x = operand(x, "x")
    if not all(v is None or isinstance(v, numbers.Real) for v in (nan, posinf, neginf)):
        raise MXNetTypeError("nan_to_num: nan, posinf and neginf must be real numbers")
    dt = _dtypes.as_dtype(x.dtype)
    if dt.kind not in "fc":
        return x.copy() if copy else x
    if dt.kind == "c":
        re, im = (nan_to_num(unary(p, x), True, nan, posinf, neginf) for p in ("real", "imag"))
        r = binary("add", astype(re, dt), binary("multiply", astype(im, dt), 1j))
    else:
        big = _onp.finfo(dt).max
        r = _where(unary("isnan", x), full((), nan, dt), x)
        r = _where(unary("isposinf", r), full((), big if posinf is None else posinf, dt), r)
        r = _where(unary("isneginf", r), full((), -big if neginf is None else neginf, dt), r)
    if copy:
        return r
    x[...] = r
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of ary's consecutive elements (flattened), with ``to_begin`` and
    ``to_end`` joined before and after (cast to ary's dtype)."""
    a = operand(ary, "ary")
    flat = reshape(a, (a.size,))
    parts = [_MANIP["diff"](flat) if a.size else flat]
    for extra, at in ((to_begin, 0), (to_end, len(parts) + 1)):
        if extra is not None:
            e = operand(extra) if not isinstance(extra, SCALARS) else asarray([extra])
            if not _onp.can_cast(e.dtype, a.dtype, casting="same_kind"):
                raise MXNetTypeError("dtype of `to_%s` must be compatible with input `ary`" % ("begin" if at == 0 else "end"))
            parts.insert(at, reshape(astype(e, _dtypes.as_dtype(a.dtype)), (e.size,)))
    return _MANIP["concat"](parts) if len(parts) > 1 else parts[0]


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x (Horner's rule);
    float32 for integers, as MXNet's."""
    p, x = operand(p, "p"), operand(x, "x") if not isinstance(x, SCALARS) else asarray(x)
    if p.ndim != 1:
        raise MXNetValueError("polyval: p must be 1-d")
    dt = _dtypes.float_of(_dtypes.result_type(p, x))
    p, x = astype(p, dt), astype(x, dt)
    y = full(x.shape, 0, dt, x.context)
    for i in range(p.shape[0]):
        y = binary("add", binary("multiply", y, x), p[i])
    return y


def interp(x, xp, fp, left=None, right=None, period=None):
    """The piecewise-linear interpolant through (xp, fp) at x (float64, as NumPy's): ``left``
    and ``right`` outside xp (fp's ends by default); ``period`` wraps x and xp."""
    x = operand(x, "x") if not isinstance(x, SCALARS) else asarray(float(x), dtype=_F64)
    xp, fp = astype(operand(xp, "xp"), _F64), astype(operand(fp, "fp"), _F64)
    x = astype(x, _F64)
    if xp.ndim != 1 or fp.ndim != 1 or xp.size != fp.size:
        raise MXNetValueError("fp and xp are not of the same length.")
    if xp.size == 0:
        raise MXNetValueError("array of sample points is empty")
    if period is not None:
        if period == 0:
            raise MXNetValueError("period must be a non-zero value")
        x, xp, fp = _periodic(x, xp, fp, abs(float(period)))
        left = right = None
    n = xp.size
    i = astype(_SETS["searchsorted"](xp, x, side="right"), _dtypes.DEFAULT_INT)
    i = _MANIP["clip"](i, 1, max(n - 1, 1))
    x0, x1 = _MANIP["take"](xp, binary("subtract", i, 1)), _MANIP["take"](xp, i)
    y0, y1 = _MANIP["take"](fp, binary("subtract", i, 1)), _MANIP["take"](fp, i)
    slope = binary("divide", binary("subtract", y1, y0), binary("subtract", x1, x0))
    y = binary("add", y0, binary("multiply", slope, binary("subtract", x, x0)))
    y = _where(binary("equal", x, x1), y1, _where(binary("equal", x, x0), y0, y))
    lo = full((), fp[0].item() if left is None else left, _F64)
    hi = full((), fp[n - 1].item() if right is None else right, _F64)
    return _where(binary("less", x, xp[0]), lo, _where(binary("greater", x, xp[n - 1]), hi, y))


def _periodic(x, xp, fp, period):
    """x and xp wrapped into [0, period), xp sorted, and one point past each end (NumPy's)."""
    x, xp = binary("remainder", x, period), binary("remainder", xp, period)
    order = _MANIP["argsort"](xp)
    xp, fp = _MANIP["take"](xp, order), _MANIP["take"](fp, order)
    n = xp.size
    xp = _MANIP["concat"]([binary("subtract", xp[n - 1:], period), xp, binary("add", xp[:1], period)])
    fp = _MANIP["concat"]([fp[n - 1:], fp, fp[:1]])
    return x, xp, fp


def _window(name, terms):
    """A cosine-sum window: sum of c_k cos(2 pi k n / (M - 1)) with signs alternating."""
    def window(M, dtype=_onp.float32, ctx=None):
        dt = _dtypes.as_dtype(dtype)
        m = int(M)
        if m < 1:
            return full((0,), 0, dt, ctx)
        if m == 1:
            return full((1,), 1, dt, ctx)
        phase = binary("multiply", asarray(_onp.arange(m, dtype=_F64)), 2 * math.pi / (m - 1))
        w = full((m,), terms[0], _F64)
        for k, c in enumerate(terms[1:], 1):
            w = binary("add", w, binary("multiply", unary("cos", binary("multiply", phase, float(k))), (-1) ** k * c))
        return astype(w, dt) if ctx is None else asarray(w, dtype=dt, device=ctx)
    window.__name__ = window.__qualname__ = name
    window.__doc__ = "The %s window of M points (float32 unless dtype says otherwise, as MXNet's)." % name
    return window


FUNCTIONS = {
    "fabs": fabs, "ldexp": ldexp, "lcm": lcm, "float_power": float_power, "divmod": divmod, "modf": modf,
    "heaviside": heaviside, "nan_to_num": nan_to_num, "ediff1d": ediff1d, "polyval": polyval, "interp": interp,
    "hanning": _window("hanning", (0.5, 0.5)), "hamming": _window("hamming", (0.54, 0.46)),
    "blackman": _window("blackman", (0.42, 0.5, 0.08)),
}
