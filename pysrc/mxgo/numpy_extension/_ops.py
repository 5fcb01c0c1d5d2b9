"""npx's operators: mx.nd's functions with mx.np results, npx.reshape's codes, nonzero,
arange_like, constraint_check, save and load."""
import math

import numpy as _onp

from .. import ndarray as _nd
from ..base import MXNetTypeError, MXNetValueError
from .. import numpy as _mnp
from ..numpy import _array, _reduce
from ..numpy import multiarray as _np

__all__ = ["FUNCTIONS", "reshape", "nonzero", "arange_like", "constraint_check", "save", "load", "as_np"]

#: npx name -> mx.nd function name
_FROM_ND = {
    "activation": "Activation", "batch_norm": "BatchNorm", "convolution": "Convolution",
    "deconvolution": "Deconvolution", "dropout": "Dropout", "embedding": "Embedding",
    "fully_connected": "FullyConnected", "layer_norm": "LayerNorm", "leaky_relu": "LeakyReLU", "pooling": "Pooling",
    "rnn": "RNN", "roi_pooling": "ROIPooling", "sequence_mask": "SequenceMask", "one_hot": "one_hot", "pick": "pick",
    "topk": "topk", "reshape_like": "reshape_like", "gather_nd": "gather_nd", "shape_array": "shape_array",
    "slice": "slice", "smooth_l1": "smooth_l1", "erf": "erf", "erfinv": "erfinv", "gamma": "gamma",
    "gammaln": "gammaln", "relu": "relu", "sigmoid": "sigmoid", "softmax": "softmax", "log_softmax": "log_softmax",
    "batch_dot": "batch_dot", "batch_flatten": "Flatten", "cast": "Cast",
}


def as_np(result):
    """A new result of mx.nd (an array, or a list of them) as mx.np arrays."""
    if isinstance(result, (list, tuple)):
        return type(result)(as_np(r) for r in result)
    return _array.adopt(result)


def _wrap(npx_name, nd_name):
    fn = getattr(_nd, nd_name)

    def op(*args, **kwargs):
        out = kwargs.get("out")
        result = fn(*args, **kwargs)
        return result if out is not None else as_np(result)
    op.__name__ = op.__qualname__ = npx_name
    op.__doc__ = "mx.nd.%s with mx.np arrays.\n\n%s" % (nd_name, fn.__doc__ or "")
    return op


FUNCTIONS = {name: _wrap(name, nd_name) for name, nd_name in _FROM_ND.items()}


def _codes(shape, spec):
    """npx.reshape's codes against shape, read left to right: the output dimensions."""
    out, i, spec = [], 0, list(spec)
    k = 0
    while k < len(spec):
        c = spec[k]
        if c >= 0 or c == -1:
            out.append(c)
            i += 1
        elif c == -2:
            out.append(shape[i])
            i += 1
        elif c == -3:
            if shape[i] != 1:
                raise MXNetValueError("npx.reshape: -3 skips dimension %d only if its size is 1 (it is %d)" % (i, shape[i]))
            i += 1
        elif c == -4:
            out.extend(shape[i:])
            i = len(shape)
        elif c == -5:
            out.append(shape[i] * shape[i + 1])
            i += 2
        elif c == -6:
            a, b = spec[k + 1], spec[k + 2]
            if a == -1:
                a = shape[i] // b
            if b == -1:
                b = shape[i] // a
            if a * b != shape[i]:
                raise MXNetValueError("npx.reshape: -6 cannot split %d into %d x %d" % (shape[i], a, b))
            out += [a, b]
            i += 1
            k += 2
        else:
            raise MXNetValueError("npx.reshape: unknown code %d" % c)
        k += 1
    return out


def reshape(a, newshape, reverse=False, order="C"):
    """a in a new shape with npx's codes: -1 infers, -2 copies a dimension, -3 drops a
    dimension of size 1, -4 copies the rest, -5 merges two, -6 splits one in the next two
    (``reverse``: read from the right). Always a copy, as MXNet's."""
    a = _array.operand(a, "a")
    spec = (newshape,) if isinstance(newshape, int) else tuple(newshape)
    try:
        if reverse:
            dims = _codes(a.shape[::-1], _reverse_spec(spec))[::-1]
        else:
            dims = _codes(a.shape, spec)
    except IndexError:
        raise MXNetValueError("npx.reshape: codes %s do not fit shape %s" % (spec, a.shape)) from None
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        dims = [a.size // known if d == -1 and known else d for d in dims]
    return _np.asarray(a).reshape(tuple(dims)).copy()


def _reverse_spec(spec):
    """spec read from the right: -6's two following values stay in their order."""
    out, k = [], len(spec) - 1
    while k >= 0:
        if k >= 2 and spec[k - 2] == -6:
            out += [-6, spec[k - 1], spec[k]]
            k -= 3
        else:
            out.append(spec[k])
            k -= 1
    return out


def nonzero(a):
    """The indices of a's nonzero elements as one (N, a.ndim) int64 array (waits for a)."""
    a = _array.operand(a, "a")
    idx = _onp.stack(_onp.nonzero(a.asnumpy()), axis=1) if a.ndim else _onp.zeros((int(bool(a.item())), 0), _onp.int64)
    return _np.asarray(idx.astype(_onp.int64), device=a.context)


def arange_like(data, start=0.0, step=1.0, repeat=1, ctx=None, axis=None):
    """An array of data's shape (or of its length along ``axis``) and dtype counting from
    ``start`` by ``step``, each value ``repeat`` times; start and step are cast to the
    dtype first, as MXNet's (an int array counts by int(step))."""
    data = _array.operand(data, "data")
    if repeat < 1:
        raise MXNetValueError("arange_like: repeat must be positive, got %r" % (repeat,))
    shape = data.shape if axis is None else (data.shape[_reduce.normalize_axis(axis, data.ndim)],)
    dt = data.dtype
    i = _mnp.floor_divide(_mnp.arange(math.prod(shape), ctx=ctx or data.context), int(repeat)).astype(dt)
    return (i * dt.type(step).item() + dt.type(start).item()).astype(dt).reshape(shape)


def constraint_check(x, msg):
    """True (a 0-d bool array) when every element of the bool array x is; otherwise
    ValueError with ``msg``, as MXNet's (waits for x)."""
    x = _array.operand(x, "x")
    if x.dtype != _onp.bool_:
        raise MXNetTypeError("constraint_check: x must be a bool array, got %s" % x.dtype)
    if not bool(_mnp.all(x)):
        raise MXNetValueError(msg)
    return _mnp.full((), True, dtype=_onp.bool_, device=x.context)


def save(file, arr):
    """Saves an array, or a dict of them, in MXNet's .params format with NumPy shape
    semantics (what MXNet's npx.load reads)."""
    _nd.save(file, arr, np_shape=True)


def load(file):
    """Loads MXNet's .params file: a dict of mx.np arrays by name (a list when unnamed)."""
    loaded = _nd.load(file)
    if isinstance(loaded, dict):
        return {k: as_np(v) for k, v in loaded.items()}
    return as_np(loaded)
