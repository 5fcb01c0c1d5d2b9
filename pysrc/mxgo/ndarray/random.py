"""Random sampling: ``mx.nd.random``, as MXNet 1.9.1's.

Each distribution is a pair of registry operators (pkg/ops/random/random_dist.go): random_<name>
for numbers as parameters, sample_<name> for NDArrays as parameters (one set of draws per
element, shape appended). The functions here pick one, as MXNet's do, and allocate the
result so that ctx is honoured. Values differ from MXNet's (another generator); the
distributions, shapes, dtypes and errors are the same.
"""
import numbers

from ..base import DTYPE_NAMES, MXNetTypeError, core
from . import op as _ops
from .ndarray import NDArray, empty

__all__ = ["uniform", "normal", "randn", "exponential", "gamma", "poisson", "negative_binomial",
           "generalized_negative_binomial", "randint", "multinomial", "shuffle", "seed",
           "uniform_like", "normal_like", "exponential_like", "gamma_like", "poisson_like",
           "negative_binomial_like", "generalized_negative_binomial_like"]


def _sample(dist, params, shape, dtype, ctx, out):
    """Draws from distribution ``dist`` with ``params`` (name -> number, or name -> NDArray)."""
    arrays = [v for v in params.values() if isinstance(v, NDArray)]
    if arrays:
        if len(arrays) != len(params):
            raise MXNetTypeError("%s: the parameters must all be numbers or all be NDArrays" % dist)
        extra = {"shape": () if shape is None else shape}
        if dtype is not None:
            extra["dtype"] = dtype
        return _ops.invoke("sample_" + dist, list(params.values()), extra, out)
    for name, v in params.items():
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            raise MXNetTypeError("%s: %s must be a real number or an NDArray, got %s" % (dist, name, type(v).__name__))
    if out is None:  # allocated here so that ctx is honoured (and checked) like everywhere else
        out = empty((1,) if shape is None else shape, ctx, dtype)
    elif not isinstance(out, NDArray):
        raise MXNetTypeError("out must be an NDArray")
    return _ops.invoke("random_" + dist, [], dict(params, shape=out.shape, dtype=DTYPE_NAMES[out._code]), out)


def uniform(low=0, high=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples from the uniform distribution on [low, high). Shape (1,) by default, as in MXNet."""
    return _sample("uniform", {"low": low, "high": high}, shape, dtype, ctx, out)


def normal(loc=0, scale=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples from the normal distribution N(loc, scale**2)."""
    return _sample("normal", {"loc": loc, "scale": scale}, shape, dtype, ctx, out)


def randn(*shape, loc=0, scale=1, dtype=None, ctx=None, out=None, name=None):
    """Samples from N(loc, scale**2) with the shape given as positional arguments."""
    if not shape:
        raise MXNetTypeError("randn needs a shape: randn(d0, d1, ...)")
    return normal(loc, scale, shape, dtype, ctx, out)


def exponential(scale=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples from the exponential distribution with mean ``scale`` (rate 1/scale)."""
    lam = 1.0 / scale if isinstance(scale, (NDArray, numbers.Real)) and not isinstance(scale, bool) else scale
    return _sample("exponential", {"lam": lam}, shape, dtype, ctx, out)


def gamma(alpha=1, beta=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples from the gamma distribution with shape ``alpha`` and scale ``beta``."""
    return _sample("gamma", {"alpha": alpha, "beta": beta}, shape, dtype, ctx, out)


def poisson(lam=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples counts from the Poisson distribution with mean ``lam`` (in a floating-point dtype)."""
    return _sample("poisson", {"lam": lam}, shape, dtype, ctx, out)


def negative_binomial(k=1, p=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples failures before the k-th success of trials that succeed with probability p."""
    return _sample("negative_binomial", {"k": k, "p": p}, shape, dtype, ctx, out)


def generalized_negative_binomial(mu=1, alpha=1, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples from the generalized negative binomial distribution (mean mu, dispersion alpha)."""
    return _sample("generalized_negative_binomial", {"mu": mu, "alpha": alpha}, shape, dtype, ctx, out)


def randint(low, high, shape=None, dtype=None, ctx=None, out=None, name=None):
    """Samples integers uniformly from [low, high): int32 unless dtype is int64."""
    for what, v in (("low", low), ("high", high)):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise MXNetTypeError("randint: %s must be an int, got %s" % (what, type(v).__name__))
    if out is None:
        out = empty((1,) if shape is None else shape, ctx, "int32" if dtype is None else dtype)
    elif not isinstance(out, NDArray):
        raise MXNetTypeError("out must be an NDArray")
    params = {"low": int(low), "high": int(high), "shape": out.shape, "dtype": DTYPE_NAMES[out._code]}
    return _ops.invoke("random_randint", [], params, out)


def multinomial(data, shape=None, get_prob=False, out=None, dtype="int32", name=None):
    """Draws category indices from the distributions in data's last axis; with get_prob, also
    the log-probability of each draw: [indices, log_probs]."""
    params = {"shape": () if shape is None else shape, "dtype": dtype}
    idx = _ops.invoke("sample_multinomial", [data], params, None if get_prob else out)
    if not get_prob:
        return idx
    lead = data.shape[:-1]
    draws = idx.shape[len(lead):]
    probs = data.reshape(lead + (1,) * len(draws) + data.shape[-1:]).broadcast_to(idx.shape + data.shape[-1:])
    return [idx, _ops.invoke("log", [_ops.invoke("pick", [probs, idx], {"axis": -1})], None, out)]


def shuffle(data, out=None, name=None):
    """A copy of data with its first axis randomly permuted."""
    return _ops.invoke("shuffle", [data], None, out)


def _like(dist, data, params, out):
    if not isinstance(data, NDArray):
        raise MXNetTypeError("%s_like: data must be an NDArray, got %s" % (dist, type(data).__name__))
    return _sample(dist, params, data.shape, DTYPE_NAMES[data._code], data.context, out)


def uniform_like(data, low=0, high=1, out=None, name=None):
    """Samples like uniform, in data's shape and dtype."""
    return _like("uniform", data, {"low": low, "high": high}, out)


def normal_like(data, loc=0, scale=1, out=None, name=None):
    """Samples like normal, in data's shape and dtype."""
    return _like("normal", data, {"loc": loc, "scale": scale}, out)


def exponential_like(data, lam=1, out=None, name=None):
    """Samples from the exponential distribution with rate lam, in data's shape and dtype."""
    return _like("exponential", data, {"lam": lam}, out)


def gamma_like(data, alpha=1, beta=1, out=None, name=None):
    """Samples like gamma, in data's shape and dtype."""
    return _like("gamma", data, {"alpha": alpha, "beta": beta}, out)


def poisson_like(data, lam=1, out=None, name=None):
    """Samples like poisson, in data's shape and dtype."""
    return _like("poisson", data, {"lam": lam}, out)


def negative_binomial_like(data, k=1, p=1, out=None, name=None):
    """Samples like negative_binomial, in data's shape and dtype."""
    return _like("negative_binomial", data, {"k": k, "p": p}, out)


def generalized_negative_binomial_like(data, mu=1, alpha=1, out=None, name=None):
    """Samples like generalized_negative_binomial, in data's shape and dtype."""
    return _like("generalized_negative_binomial", data, {"mu": mu, "alpha": alpha}, out)


def seed(seed_state):
    """Seeds the random generator, so that later samples repeat."""
    if not isinstance(seed_state, numbers.Integral):
        raise MXNetTypeError("seed must be an int")
    core.Seed(int(seed_state) & ((1 << 63) - 1))
