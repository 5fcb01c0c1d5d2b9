"""npx.random: MXNet's extra samplers (seed, bernoulli, uniform_n, normal_n) on mx.np."""
import numbers

from ..base import MXNetValueError
from ..ndarray import random as _nd_random
from ..numpy import _array, _dtypes, _manip, _ufuncs
from ._ops import as_np

__all__ = ["seed", "bernoulli", "uniform_n", "normal_n"]


def seed(seed, ctx="all"):  # noqa: A002  (MXNet's name)
    """Seeds every generator (as mx.random.seed)."""
    _nd_random.seed(seed)


def _shape(size):
    if size is None:
        return ()
    return (size,) if isinstance(size, numbers.Integral) else tuple(size)


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """Samples of 1 with probability ``prob`` (or sigmoid(``logit``)), else 0."""
    if (prob is None) == (logit is None):
        raise MXNetValueError("bernoulli needs exactly one of prob and logit")
    p = prob if logit is None else _ufuncs.unary("reciprocal", _ufuncs.binary("add", 1.0, _ufuncs.unary(
        "exp", _ufuncs.unary("negative", _array.operand(logit)))))
    shape = _shape(size) if size is not None else getattr(p, "shape", ())
    u = as_np(_nd_random.uniform(0, 1, shape=shape or (1,), ctx=ctx))
    u = _array.reshape(u, shape)
    r = _array.astype(_ufuncs.binary("less", u, p), _dtypes.as_dtype(dtype) or _dtypes.DEFAULT_FLOAT)
    if out is None:
        return r
    out[...] = r
    return out


def _n(sampler, a, b, batch_shape, dtype, ctx):
    batch = _shape(batch_shape)
    arrays = [x for x in (a, b) if _array.is_array(x)]
    tail = _manip.broadcast_arrays(*arrays)[0].shape if arrays else ()
    shape = batch + tail
    unit = as_np(sampler(0, 1, shape=shape or (1,), dtype=dtype, ctx=ctx))
    unit = _array.reshape(unit, shape)
    return unit, a, b


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Uniform samples in [low, high) of shape batch_shape + the parameters' broadcast shape."""
    u, low, high = _n(_nd_random.uniform, low, high, batch_shape, dtype, ctx)
    return _ufuncs.binary("add", _ufuncs.binary("multiply", u, _ufuncs.binary("subtract", high, low)
                                                 if _array.is_array(high) or _array.is_array(low) else high - low), low)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Normal samples of shape batch_shape + the parameters' broadcast shape."""
    z, loc, scale = _n(_nd_random.normal, loc, scale, batch_shape, dtype, ctx)
    return _ufuncs.binary("add", _ufuncs.binary("multiply", z, scale), loc)
