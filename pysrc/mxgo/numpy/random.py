"""``mx.np.random``: MXNet 1.9.1's numpy.random on the registry's samplers.

Each distribution is an exact transform of unit draws of the result's shape from the
registry's operators (uniform on [0, 1), N(0, 1), Exp(1), Gamma(k, 1)): lognormal =
exp(normal), gumbel = loc - scale*log(E), logistic = loc + scale*log(E1/E2), weibull =
E**(1/a), pareto = exp(E/a) - 1, power = exp(-E/a), rayleigh = scale*sqrt(2E), beta =
G1/(G1+G2), chisquare = 2*G(df/2), f = a ratio of chisquares. Parameters are Python
numbers or arrays, broadcast with each other and with ``size`` as NumPy does; results are
float32 unless ``dtype`` says otherwise (int64 for integer draws), as MXNet's. Values
differ from MXNet's (another generator); seed with ``seed`` (= mx.random.seed).
"""
import math
import numbers

import numpy as _onp

from ..base import MXNetTypeError, MXNetValueError
from ..ndarray import random as _nd_random
from . import _array, _dtypes, _manip, _reduce, _ufuncs

__all__ = ["randint", "uniform", "normal", "choice", "rand", "multinomial", "multivariate_normal", "logistic", "gumbel",
           "shuffle", "randn", "gamma", "beta", "chisquare", "exponential", "lognormal", "weibull", "pareto", "power",
           "rayleigh", "laplace", "f", "seed"]

_exp, _log, _sqrt = (lambda x: _ufuncs.unary("exp", x)), (lambda x: _ufuncs.unary("log", x)), (
    lambda x: _ufuncs.unary("sqrt", x))


def seed(seed, ctx="all"):  # noqa: A002  (MXNet's name)
    """Seeds every generator (as mx.random.seed), so that later draws repeat."""
    _nd_random.seed(seed)


def _size(size):
    if size is None:
        return None
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(d) for d in size)


def _param(name, v, low=None, strict=False):
    """Parameter v as a Python float or an mx.np array; ValueError below ``low``."""
    if isinstance(v, bool) or v is None:
        raise MXNetTypeError("%s must be a number or an array, got %r" % (name, v))
    if isinstance(v, numbers.Real):
        v = float(v)
        bad = v < low or (strict and v == low) if low is not None else False
    else:
        v = _array.operand(v, name)
        bad = low is not None and bool(_reduce.any(v <= low if strict else v < low))
    if bad:
        raise MXNetValueError("%s must be %s %g" % (name, "greater than" if strict else "at least", low))
    return v


def _shape(size, *params):
    """The result's shape: size, else the parameters' broadcast shape."""
    if size is not None:
        return _size(size)
    return tuple(_onp.broadcast_shapes(*(p.shape for p in params if _array.is_array(p))))


def _float(dtype):
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT
    if dt.kind != "f":
        raise MXNetTypeError("random sampling needs a floating-point dtype, got %s" % dt)
    return dt


def _draw(op, shape, dt, ctx, **params):
    """Unit draws of registry operator ``op`` (random_<name>) in an array of shape, dt and ctx."""
    out = _array.empty(shape, dt, ctx)
    return _array.invoke(op, [], dict(params, shape=shape, dtype=dt.name), out)


def _gamma1(k, shape, dt, ctx):
    """Gamma(k, 1) draws of shape (k a number or an array that broadcasts to shape)."""
    if not _array.is_array(k):
        return _draw("random_gamma", shape, dt, ctx, alpha=k, beta=1.0)
    kf = _manip.broadcast_to(_array.astype(k, _dtypes.float_of(_dtypes.as_dtype(k.dtype))), shape)
    r = _array.invoke("sample_gamma", [kf, _array.full(shape, 1.0, kf.dtype)], {"shape": (), "dtype": dt.name})
    return _array.reshape(r, shape)


def _finish(r, shape, dt, out):
    """r (dt, shape) into out when given; ValueError when the parameters do not fit size."""
    if r.shape != shape:
        raise MXNetValueError("parameters of shape %s do not broadcast to size %s" % (r.shape, shape))
    r = _array.astype(r, dt)
    if out is None:
        return r
    out[...] = r
    return out


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draws from the uniform distribution on [low, high)."""
    low, high = _param("low", low), _param("high", high)
    shape, dt = _shape(size, low, high), _float(dtype)
    return _finish(low + _draw("random_uniform", shape, dt, ctx, low=0.0, high=1.0) * (high - low), shape, dt, out)


def rand(*size, **kwargs):
    """Uniform draws on [0, 1) of shape ``size`` (rand(2, 3))."""
    return uniform(size=size, **kwargs)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draws from N(loc, scale**2)."""
    loc, scale = _param("loc", loc), _param("scale", scale, 0.0)
    shape, dt = _shape(size, loc, scale), _float(dtype)
    return _finish(loc + _draw("random_normal", shape, dt, ctx, loc=0.0, scale=1.0) * scale, shape, dt, out)


def randn(*size, **kwargs):
    """Standard normal draws of shape ``size`` (randn(2, 3))."""
    return normal(size=size, **kwargs)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draws of exp(X), X from N(mean, sigma**2)."""
    r = normal(mean, sigma, size, dtype, ctx)
    return _finish(_exp(r), r.shape, _float(dtype), out)


def _exp1(shape, dt, ctx):
    return _draw("random_exponential", shape, dt, ctx, lam=1.0)


def _loc_scale(loc, scale, size, dtype, ctx, out, unit):
    """loc + scale * unit(shape, dt, ctx): the location-scale families."""
    loc, scale = _param("loc", loc), _param("scale", scale, 0.0)
    shape, dt = _shape(size, loc, scale), _float(dtype)
    return _finish(loc + unit(shape, dt, ctx) * scale, shape, dt, out)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Draws from the logistic distribution: loc + scale * log(E1 / E2)."""
    return _loc_scale(loc, scale, size, None, ctx, out,
                      lambda s, dt, c: _log(_exp1(s, dt, c)) - _log(_exp1(s, dt, c)))


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Draws from the Gumbel distribution: loc - scale * log(E)."""
    return _loc_scale(loc, scale, size, None, ctx, out, lambda s, dt, c: -_log(_exp1(s, dt, c)))


def laplace(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draws from the Laplace distribution: loc + scale * (E1 - E2) (NumPy's; MXNet 1.9.1 lacks it)."""
    return _loc_scale(loc, scale, size, dtype, ctx, out, lambda s, dt, c: _exp1(s, dt, c) - _exp1(s, dt, c))


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Draws from the exponential distribution of mean ``scale``."""
    return _loc_scale(0.0, scale, size, None, ctx, out, _exp1)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Draws from the Rayleigh distribution: scale * sqrt(2 E)."""
    return _loc_scale(0.0, scale, size, None, ctx, out, lambda s, dt, c: _sqrt(_exp1(s, dt, c) * 2.0))


def _of_exp(a, size, ctx, out, transform):
    """transform(E, a) for shape parameter a > 0 (weibull, pareto, power)."""
    a = _param("a", a, 0.0, strict=True)
    shape, dt = _shape(size, a), _float(None)
    return _finish(transform(_exp1(shape, dt, ctx), a), shape, dt, out)


def weibull(a, size=None, ctx=None, out=None):
    """Draws from the Weibull distribution of shape a: E ** (1/a)."""
    return _of_exp(a, size, ctx, out, lambda e, a: e ** (1.0 / a))


def pareto(a, size=None, ctx=None, out=None):
    """Draws from the Pareto II (Lomax) distribution of shape a, as NumPy's: exp(E/a) - 1."""
    return _of_exp(a, size, ctx, out, lambda e, a: _exp(e / a) - 1.0)


def power(a, size=None):
    """Draws on [0, 1] of density a x**(a-1): exp(-E/a)."""
    return _of_exp(a, size, None, None, lambda e, a: _exp(-e / a))


def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draws from the gamma distribution of shape k and scale theta."""
    k, scale = _param("shape", shape, 0.0, strict=True), _param("scale", scale, 0.0)
    s, dt = _shape(size, k, scale), _float(dtype)
    return _finish(_gamma1(k, s, dt, ctx) * scale, s, dt, out)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Draws from the beta distribution: G(a) / (G(a) + G(b))."""
    a, b = _param("a", a, 0.0, strict=True), _param("b", b, 0.0, strict=True)
    s, dt = _shape(size, a, b), _float(dtype)
    ga, gb = _gamma1(a, s, dt, ctx), _gamma1(b, s, dt, ctx)
    return _finish(ga / (ga + gb), s, dt, None)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Draws from the chi-square distribution of df degrees of freedom: 2 G(df/2)."""
    df = _param("df", df, 0.0, strict=True)
    s, dt = _shape(size, df), _float(dtype)
    return _finish(_gamma1(df / 2.0, s, dt, ctx) * 2.0, s, dt, None)


def f(dfnum, dfden, size=None, dtype=None, ctx=None):
    """Draws from the F distribution: (X1/dfnum) / (X2/dfden), X chi-square (NumPy's; MXNet 1.9.1 lacks it)."""
    d1, d2 = _param("dfnum", dfnum, 0.0, strict=True), _param("dfden", dfden, 0.0, strict=True)
    s, dt = _shape(size, d1, d2), _float(dtype)
    return _finish((_gamma1(d1 / 2.0, s, dt, ctx) / d1) / (_gamma1(d2 / 2.0, s, dt, ctx) / d2), s, dt, None)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers drawn uniformly from [low, high) ([0, low) without high); int64 by default."""
    if high is None:
        low, high = 0, low
    for name, v in (("low", low), ("high", high)):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise MXNetTypeError("randint: %s must be an int, got %r" % (name, v))
    dt = _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_INT
    if dt.kind not in "iu":
        raise MXNetTypeError("randint: dtype must be an integer dtype, got %s" % dt)
    if not (_onp.iinfo(dt).min <= low and high - 1 <= _onp.iinfo(dt).max):
        raise MXNetValueError("randint: [%d, %d) does not fit %s" % (low, high, dt))
    shape = _size(size) or ()
    r = _array.invoke("random_randint", [], {"low": int(low), "high": int(high), "shape": shape, "dtype": "int64"},
                      _array.empty(shape, _dtypes.DEFAULT_INT, ctx))
    return _finish(r, shape, dt, out)


def _probabilities(p, n):
    """p as a float array of n probabilities that sum to 1 (ValueError otherwise)."""
    p = _array.operand(p, "p")
    if p.shape != (n,):
        raise MXNetValueError("probabilities must have shape (%d,), got %s" % (n, p.shape))
    v = p.asnumpy().astype(_onp.float64)
    if not (v >= 0).all() or not math.isclose(v.sum(), 1.0, abs_tol=1e-6):
        raise MXNetValueError("probabilities must be non-negative and sum to 1")
    return _array.astype(p, _dtypes.float_of(_dtypes.as_dtype(p.dtype)))


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Draws from a (an int n: range(n), or a 1-d array), with or without replacement,
    uniformly or with probabilities p."""
    if isinstance(a, numbers.Integral) and not isinstance(a, bool):
        n, values = int(a), None
    else:
        values = _array.operand(a, "a")
        if values.ndim != 1:
            raise MXNetValueError("choice: a must be an int or a 1-d array, got shape %s" % (values.shape,))
        n = values.shape[0]
    if n <= 0:
        raise MXNetValueError("choice: a must be positive (or a non-empty array)")
    shape = _size(size) or ()
    probs = None if p is None else _probabilities(p, n)
    if replace and probs is None:
        idx = randint(0, n, shape, ctx=ctx)
    elif replace:
        idx = _array.reshape(_array.astype(_array.invoke("sample_multinomial", [probs], {"shape": shape}),
                                           _dtypes.DEFAULT_INT), shape)
    else:
        k = math.prod(shape)
        if k > n:
            raise MXNetValueError("choice: cannot take %d of %d values without replacement" % (k, n))
        # the k largest of log(p) + Gumbel noise: a sample without replacement (Gumbel top-k)
        keys = gumbel(size=(n,)) if probs is None else _log(probs) + gumbel(size=(n,))
        idx = _array.reshape(_manip.argsort(keys, descending=True)[:k], shape)
    r = idx if values is None else _manip.take(values, idx)
    return _finish(r, shape, _dtypes.as_dtype(r.dtype), out)


def multinomial(n, pvals, size=None, **kwargs):
    """Counts of n draws among len(pvals) outcomes: shape size + (len(pvals),), int64."""
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 0:
        raise MXNetValueError("multinomial: n must be a non-negative int, got %r" % (n,))
    p = _array.operand(pvals, "pvals")
    if p.ndim != 1 or p.shape[0] == 0:
        raise MXNetValueError("multinomial: pvals must be a non-empty 1-d sequence")
    v = p.asnumpy().astype(_onp.float64)
    if not (v >= 0).all() or v[:-1].sum() > 1.0 + 1e-6:
        raise MXNetValueError("multinomial: pvals must be non-negative, the first ones summing to at most 1")
    k, shape = p.shape[0], _size(size) or ()
    # the last outcome takes what the others leave, as in NumPy
    probs = _array.asarray(_onp.append(v[:-1], max(0.0, 1.0 - v[:-1].sum())))
    idx = _array.reshape(_array.invoke("sample_multinomial", [probs], {"shape": shape + (n,)}), shape + (n,))
    hot = _array.invoke("one_hot", [idx], {"depth": k, "dtype": "int64"})
    return _reduce.FUNCTIONS["sum"](hot, axis=-2, dtype=_dtypes.DEFAULT_INT)


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):
    """Draws from N(mean, cov): mean + Z L^T with cov = L L^T (cov must be positive definite)."""
    mean, cov = _array.operand(mean, "mean"), _array.operand(cov, "cov")
    d = mean.shape[-1] if mean.ndim else 0
    if mean.ndim != 1 or cov.shape != (d, d):
        raise MXNetValueError("multivariate_normal: mean must be 1-d (d,) and cov (d, d), got %s and %s"
                              % (mean.shape, cov.shape))
    dt = _dtypes.float_of(_dtypes.result_type(mean.dtype, cov.dtype))
    low = _array.invoke("linalg_potrf", [_array.astype(cov, dt)])
    shape = (_size(size) or ()) + (d,)
    z = _draw("random_normal", shape, dt, None, loc=0.0, scale=1.0)
    return _manip.matmul(z, _manip.matrix_transpose(low)) + mean


def shuffle(x):
    """Permutes x's first axis randomly, in place."""
    if not _array.is_array(x):
        raise MXNetTypeError("shuffle needs an mx.np array, got %s" % type(x).__name__)
    x[...] = _array.invoke("shuffle", [x])
