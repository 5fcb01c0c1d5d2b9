"""mx.np's functions that MXNet 1.9.1 itself hands to NumPy (its numpy/fallback.py): the
NaN-ignoring order statistics, cov and corrcoef, the polynomial and histogram helpers, frexp, spacing,
i0 and the like, and genfromtxt.

Each waits for its arrays, runs NumPy's function on the host and returns its arrays as
mx.np arrays of NumPy's dtypes (a NumPy scalar as a 0-d array), as MXNet's do. The
financial functions (npv, pv, ppmt, mirr, rate), which NumPy 1.20 dropped, are computed
here from their documented formulas (numpy_financial's), on the host too.
"""
import numpy as _onp

from ..base import MXNetValueError
from ._array import asarray, is_array

__all__ = ["FUNCTIONS"]


def _to_host(v):
    if is_array(v):
        return v.asnumpy()
    if isinstance(v, (list, tuple)) and any(is_array(x) or isinstance(x, (list, tuple)) for x in v):
        return type(v)(_to_host(x) for x in v)
    return v


def _adopt(r):
    if isinstance(r, (tuple, list)):
        return tuple(_adopt(x) for x in r)
    return asarray(_onp.asarray(r))


def _host(name, fn):
    def call(*args, **kwargs):
        return _adopt(fn(*(_to_host(a) for a in args), **{k: _to_host(v) for k, v in kwargs.items()}))
    call.__name__ = call.__qualname__ = name
    call.__doc__ = "NumPy's %s on the host, as MXNet 1.9.1's (its arrays as mx.np arrays)." % name
    return call


_NAMES = ("corrcoef correlate cov digitize frexp histogram2d histogram_bin_edges histogramdd i0 nanmedian nanpercentile "
          "nanquantile packbits unpackbits piecewise poly polyadd polydiv polyfit polyint polymul polysub roots "
          "spacing unwrap vander").split()
FUNCTIONS = {name: _host(name, getattr(_onp, name)) for name in _NAMES}
# NumPy 2 names it trapezoid (trapz went in 2.4); MXNet's name is trapz
FUNCTIONS["trapz"] = _host("trapz", getattr(_onp, "trapezoid", None) or _onp.trapz)  # type: ignore[attr-defined]


def genfromtxt(*args, ctx=None, **kwargs):
    """NumPy's genfromtxt, its table as an mx.np array (on ``ctx``)."""
    return asarray(_onp.genfromtxt(*args, **kwargs), device=ctx)


_WHEN = {"begin": 1, "start": 1, "end": 0, "finish": 0}


def _when(when):
    if isinstance(when, str):
        if when not in _WHEN:
            raise MXNetValueError("when must be 'begin' or 'end', got %r" % when)
        return _WHEN[when]
    return _onp.asarray(_to_host(when))


def _growth(rate, nper, when):
    """(1 + rate)**nper, and what a payment per period grows to: (1 + rate*when)
    ((1 + rate)**nper - 1) / rate (nper when rate is 0)."""
    temp = (1 + rate) ** nper
    safe = _onp.where(rate == 0, 1, rate)
    return temp, _onp.where(rate == 0, nper, (1 + safe * when) * (temp - 1) / safe)


def _fv(rate, nper, pmt, pv, when):
    temp, fact = _growth(rate, nper, when)
    return -(pv * temp + pmt * fact)


def _pmt(rate, nper, pv, fv, when):
    temp, fact = _growth(rate, nper, when)
    return -(fv + pv * temp) / fact


def _floats(*xs):
    return [_onp.asarray(_to_host(x), dtype=_onp.float64) for x in xs]


def pv(rate, nper, pmt, fv=0, when="end"):
    """The present value of a series of payments: -(fv + pmt * f) / (1 + rate)**nper, where
    f = (1 + rate*when) ((1 + rate)**nper - 1) / rate (nper when rate is 0)."""
    rate, nper, pmt, fv = _floats(rate, nper, pmt, fv)
    temp, fact = _growth(rate, nper, _when(when))
    return _adopt(-(fv + pmt * fact) / temp)


def npv(rate, values):
    """The net present value of the cash flows ``values`` (1-d, the first at time 0)."""
    rate, values = _floats(rate, values)
    return _adopt((values / (1 + rate) ** _onp.arange(values.shape[0])).sum(axis=0))


def ppmt(rate, per, nper, pv, fv=0, when="end"):
    """The principal part of payment number ``per``: the payment less its interest."""
    rate, per, nper, pv, fv = _floats(rate, per, nper, pv, fv)
    w = _when(when)
    total = _pmt(rate, nper, pv, fv, w)
    interest = _fv(rate, per - 1, total, pv, w) * rate
    interest = _onp.where(w == 1, interest / (1 + rate), interest)
    interest = _onp.where((w == 1) & (per == 1), 0, interest)
    return _adopt(total - interest)


def mirr(values, finance_rate, reinvest_rate):
    """The modified internal rate of return of the cash flows ``values`` (NaN unless some
    are positive and some negative)."""
    (values,) = _floats(values)
    pos, neg = values > 0, values < 0
    if not (pos.any() and neg.any()):
        return _adopt(_onp.nan)
    n = values.size
    gains = abs(_onp.asarray(npv(reinvest_rate, values * pos).asnumpy()))
    costs = abs(_onp.asarray(npv(finance_rate, values * neg).asnumpy()))
    return _adopt((gains / costs) ** (1.0 / (n - 1)) * (1 + reinvest_rate) - 1)


def rate(nper, pmt, pv, fv, when="end", guess=None, tol=None, maxiter=100):
    """The interest rate per period, by Newton's method from ``guess`` (0.1) until steps are
    under ``tol`` (1e-6); NaN when it does not converge within ``maxiter`` steps."""
    n, p, x, y = _floats(nper, pmt, pv, fv)
    w = _when(when)
    r = _onp.float64(0.1 if guess is None else guess)
    tol = 1e-6 if tol is None else tol
    for _ in range(int(maxiter)):
        t1, t2 = (r + 1) ** n, (r + 1) ** (n - 1)
        g = y + t1 * x + p * (t1 - 1) * (r * w + 1) / r
        gp = n * t2 * x - p * (t1 - 1) * (r * w + 1) / r ** 2 + n * p * t2 * (r * w + 1) / r + p * (t1 - 1) * w / r
        step = g / gp
        r = r - step
        if _onp.all(abs(step) < tol):
            return _adopt(r)
    return _adopt(_onp.nan + r)


FUNCTIONS.update({"genfromtxt": genfromtxt, "pv": pv, "npv": npv, "ppmt": ppmt, "mirr": mirr, "rate": rate})
