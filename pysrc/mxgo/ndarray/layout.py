"""The ``mx.nd`` layout functions that are not one registry operator each: split and
SliceChannel (a list of arrays unless num_outputs == 1), split_v2, concatenate and moveaxis
(Python-level in MXNet too), onehot_encode (writes into out), and SequenceMask,
SequenceLast and SequenceReverse (one or two arrays, by use_sequence_length).

split's outputs are computed by the registry's ``_split_part`` once per output: each is
an ordinary one-output operator call on the engine, reading only its part of the input.
"""
import inspect
import numbers
import operator

from ..base import MXNetIndexError, MXNetTypeError, MXNetValueError, fastpath
from .op import PUBLIC, invoke

__all__ = ["split", "SliceChannel", "split_v2", "concatenate", "moveaxis", "onehot_encode",
           "SequenceMask", "SequenceLast", "SequenceReverse", "FUNCTIONS", "split_method", "split_v2_method"]

_Array = fastpath.NDArrayBase


def _outs(out, n, name):
    """out for n results: (for n == 1) one array, or a list or tuple of n arrays."""
    if n == 1 and not isinstance(out, (list, tuple)):
        return [out]
    if not isinstance(out, (list, tuple)) or len(out) != n:
        raise MXNetTypeError("%s returns %d arrays: out must be a list of %d" % (name, n, n))
    return list(out)


def _parts(data, n, params, out, name):
    """The n parts of data (_split_part), a list, or the only array when n == 1. The first
    call checks the parameters, before anything of size n is made."""
    outs = None if out is None else _outs(out, n, name)
    res = [invoke("_split_part", [data], dict(params, part=i), None if outs is None else outs[i]) for i in range(n)]
    return res[0] if n == 1 else res


def split(data, num_outputs, axis=1, squeeze_axis=False, out=None, name=None):
    """Splits data along axis into num_outputs equal parts: a list of arrays (the array
    itself, not a list, when num_outputs == 1). With squeeze_axis each part (of length 1
    along axis) loses the axis. The default axis=1 is MXNet's."""
    if not isinstance(num_outputs, numbers.Integral):
        raise MXNetTypeError("split: num_outputs must be an int, got %s" % type(num_outputs).__name__)
    params = {"num_outputs": num_outputs, "axis": axis, "squeeze_axis": squeeze_axis}
    if num_outputs < 1:  # the Go operator says why
        return invoke("_split_part", [data], params)
    return _parts(data, int(num_outputs), params, out, "split")


def SliceChannel(data, num_outputs, axis=1, squeeze_axis=False, out=None, name=None):  # noqa: N802 - MXNet's name
    """MXNet's old name of split."""
    return split(data, num_outputs, axis, squeeze_axis, out)


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """Splits ary along axis into indices_or_sections equal parts (an int), or at the
    indices of a tuple (NumPy's array_split positions): a list of arrays, or the array
    itself when there is one part."""
    if not isinstance(ary, _Array):
        raise MXNetTypeError("split_v2: ary must be an NDArray, got %s" % type(ary).__name__)
    axis = operator.index(axis)
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(indices_or_sections, bool):
        sections = int(indices_or_sections)
        shape = ary.shape
        if not -len(shape) <= axis < len(shape):
            raise MXNetIndexError("split_v2: axis %d is out of bounds for array of dimension %d" % (axis, len(shape)))
        if sections <= 0 or shape[axis] % sections or sections > max(shape[axis], 1):
            raise MXNetValueError("array split does not result in an equal division")
        params = {"num_outputs": sections}  # equal parts: split's, without a list of starts per call
    elif isinstance(indices_or_sections, tuple):
        params = {"indices": [0] + [operator.index(i) for i in indices_or_sections]}
    else:
        raise MXNetValueError("indices_or_sections must either int or tuple of ints")
    n = params.get("num_outputs") or len(params["indices"])
    return _parts(ary, n, dict(params, axis=axis, squeeze_axis=squeeze_axis), None, "split_v2")


def concatenate(arrays, axis=0, always_copy=True):
    """Joins a list of arrays along an existing axis (0 <= axis < ndim, as in MXNet). With
    always_copy=False a list of one array gives that array itself."""
    if not isinstance(arrays, list) or not arrays or not isinstance(arrays[0], _Array):
        raise MXNetTypeError("concatenate: arrays must be a non-empty list of NDArrays")
    if not always_copy and len(arrays) == 1:
        return arrays[0]
    axis = operator.index(axis)
    if not 0 <= axis < arrays[0].ndim:
        raise MXNetValueError("concatenate: axis %d is not in [0, %d) (MXNet takes no negative axis here)"
                              % (axis, arrays[0].ndim))
    return invoke("concat", arrays, {"dim": axis})


def _axes(v, ndim, what):
    axes = (v,) if isinstance(v, numbers.Integral) else tuple(v)
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise MXNetValueError("%s should verify 0 <= %s < tensor.ndim, got %d" % (what, what.lower(), a))
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise MXNetValueError("repeated axis in %s" % what.lower())
    return out


def moveaxis(tensor, source, destination):
    """Moves the axes source (an int or a sequence) to the positions destination, the others
    keeping their order (a copy, as MXNet's transpose gives)."""
    if not isinstance(tensor, _Array):
        raise MXNetTypeError("moveaxis: tensor must be an NDArray, got %s" % type(tensor).__name__)
    source = _axes(source, tensor.ndim, "Source")
    destination = _axes(destination, tensor.ndim, "Destination")
    if len(source) != len(destination):
        raise MXNetValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(tensor.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return invoke("transpose", [tensor], {"axes": order})


def onehot_encode(indices, out):
    """Writes into out (float32, (n, depth)) the one-hot rows of the float32 indices (n,):
    a 1 at each index (truncated toward zero), none for an index out of range. Returns out."""
    if not isinstance(out, _Array):
        raise MXNetTypeError("onehot_encode: out must be an NDArray, got %s" % type(out).__name__)
    if out.ndim != 2:
        raise MXNetValueError("onehot_encode: out must be 2-D, got shape %s" % (out.shape,))
    return invoke("_onehot_encode", [indices], {"depth": out.shape[1]}, out)


def _sequence(name, data, sequence_length, params, out):
    arrays = [data] if sequence_length is None else [data, sequence_length]
    return invoke(name, arrays, params, out)


def SequenceMask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0, out=None, name=None):  # noqa: N802
    """Sets the steps t >= sequence_length[b] of each sequence to value. data is (T, B, ...)
    for axis=0 or (B, T, ...) for axis=1; sequence_length (B,) is given exactly when
    use_sequence_length (otherwise nothing is masked)."""
    return _sequence("_sequence_mask", data, sequence_length,
                     {"use_sequence_length": use_sequence_length, "value": value, "axis": axis}, out)


def SequenceLast(data, sequence_length=None, use_sequence_length=False, axis=0, out=None, name=None):  # noqa: N802
    """The last step of each sequence (step sequence_length[b] - 1 with use_sequence_length):
    data's shape without the time axis (axis 0 or 1)."""
    return _sequence("_sequence_last", data, sequence_length,
                     {"use_sequence_length": use_sequence_length, "axis": axis}, out)


def SequenceReverse(data, sequence_length=None, use_sequence_length=False, axis=0, out=None, name=None):  # noqa: N802
    """Reverses the first sequence_length[b] steps of each sequence (all of them without
    use_sequence_length); data is (T, B, ...), axis must be 0."""
    return _sequence("_sequence_reverse", data, sequence_length,
                     {"use_sequence_length": use_sequence_length, "axis": axis}, out)


#: the functions mx.nd gets from this module
FUNCTIONS = {f.__name__: f for f in (split, SliceChannel, split_v2, concatenate, moveaxis, onehot_encode,
                                     SequenceMask, SequenceLast, SequenceReverse)}
for _f in FUNCTIONS.values():
    _f.__module__ = "mxgo.ndarray"


def _method(fn):
    def bound(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    sig = inspect.signature(fn)
    first = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    bound.__signature__ = sig.replace(parameters=[first] + list(sig.parameters.values())[1:])
    bound.__doc__ = fn.__doc__
    bound.__name__ = bound.__qualname__ = fn.__name__
    return bound


#: NDArray.split and NDArray.split_v2
split_method, split_v2_method = _method(split), _method(split_v2)

assert "split" not in PUBLIC and "concatenate" not in PUBLIC  # no registry operator hides these
