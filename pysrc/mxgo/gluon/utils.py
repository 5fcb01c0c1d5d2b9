"""Gluon's helpers (gluon.utils): splitting batches across contexts, clipping by the
global norm, hook handles and repr indentation."""
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from .. import ndarray as nd


def indent(s_, num_spaces):
    """s_ with every line after the first indented by num_spaces."""
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    return lines[0] + "\n" + "\n".join(" " * num_spaces + line for line in lines[1:])


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Splits data into num_slice slices along batch_axis (evenly unless told otherwise)."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError("data with shape %s cannot be evenly split into %d slices along axis %d. Use a batch size "
                         "that's multiple of %d or set even_split=False to allow uneven partitioning of data."
                         % (data.shape, num_slice, batch_axis, num_slice))
    if size < num_slice:
        raise ValueError("Too many slices for data with shape %s. Arguments are num_slice=%d and batch_axis=%d."
                         % (data.shape, num_slice, batch_axis))
    step = size // num_slice
    if num_slice == 1:
        return [data]
    if not even_split and batch_axis == 0:
        return [data[i * step:(i + 1) * step] if i < num_slice - 1 else data[i * step:size] for i in range(num_slice)]
    if even_split:
        return nd.split(data, num_outputs=num_slice, axis=batch_axis)
    return [nd.slice_axis(data, batch_axis, i * step, (i + 1) * step if i < num_slice - 1 else size)
            for i in range(num_slice)]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Splits data (an NDArray or NumPy array) across ctx_list, one slice per context."""
    if isinstance(data, np.ndarray):
        data = nd.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(c) for s, c in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Scales arrays in place so that their joint L2 norm is at most max_norm; returns the
    norm (a float, or an NDArray when check_isfinite is False)."""
    if not arrays:
        raise ValueError("clip_global_norm needs at least one array")
    ctx = arrays[0].context
    total = nd.add_n(*[(a.reshape((-1,)).astype("float32") ** 2).sum().as_in_context(ctx) for a in arrays]).sqrt()
    if check_isfinite and not np.isfinite(total.asscalar()):
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."), stacklevel=2)
    scale = max_norm / (total + 1e-8)
    scale = nd.minimum(scale, nd.ones((1,), dtype=scale.dtype, ctx=ctx))
    for a in arrays:
        a *= scale.as_in_context(a.context).astype(a.dtype)
    return total.asscalar() if check_isfinite else total


class HookHandle:
    """What register_forward_hook returns: ``detach()`` (or leaving a ``with``) removes the hook."""

    _next_id = [0]

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        if self._hooks_dict_ref is not None:
            raise ValueError("The same handle cannot be attached twice.")
        self._id = HookHandle._next_id[0]
        HookHandle._next_id[0] += 1
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks_dict = self._hooks_dict_ref() if self._hooks_dict_ref is not None else None
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self):
        return (self._hooks_dict_ref() if self._hooks_dict_ref is not None else None, self._id)

    def __setstate__(self, state):
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()
