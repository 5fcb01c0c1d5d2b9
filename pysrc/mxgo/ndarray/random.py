"""Random sampling: ``mx.nd.random.uniform`` and ``mx.nd.random.normal``."""
import numbers

from ..base import DTYPE_NAMES, MXNetTypeError, core
from . import op as _ops
from .ndarray import NDArray, empty

__all__ = ["uniform", "normal", "seed"]


def _sample(op, names, a, b, shape, dtype, ctx, out):
    for v in (a, b):
        if not isinstance(v, numbers.Real):
            raise MXNetTypeError("distribution parameters must be real numbers, got %s" % type(v).__name__)
    if out is None:  # allocated here so that ctx is honoured (and checked) like everywhere else
        out = empty((1,) if shape is None else shape, ctx, dtype)
    elif not isinstance(out, NDArray):
        raise MXNetTypeError("out must be an NDArray")
    params = {names[0]: float(a), names[1]: float(b), "shape": out.shape, "dtype": DTYPE_NAMES[out._code]}
    return _ops.invoke(op, [], params, out)


def uniform(low=0, high=1, shape=None, dtype=None, ctx=None, out=None):
    """Samples from the uniform distribution on [low, high). Shape (1,) by default, as in MXNet."""
    return _sample("random_uniform", ("low", "high"), low, high, shape, dtype, ctx, out)


def normal(loc=0, scale=1, shape=None, dtype=None, ctx=None, out=None):
    """Samples from the normal distribution N(loc, scale**2)."""
    return _sample("random_normal", ("loc", "scale"), loc, scale, shape, dtype, ctx, out)


def seed(seed_state):
    """Seeds the random generator, so that later samples repeat."""
    if not isinstance(seed_state, numbers.Integral):
        raise MXNetTypeError("seed must be an int")
    core.Seed(int(seed_state) & ((1 << 63) - 1))
