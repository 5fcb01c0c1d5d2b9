"""Shape inference for graphs (Symbol.infer_shape, a SymbolBlock's deferred Parameters):
the shapes of the weights that layers' operators take, from their data's shape and
attributes, as MXNet's operators infer them backwards; every other shape by running the
node on zero arrays of its input shapes."""
import numpy as np

from .. import ndarray as nd
from ..base import MXNetValueError
from ._graph import TYPE_FLAGS, decode, topo_order
from .evaluate import compile_node


def _attr(node, key, default=None):
    return decode(node.attrs[key]) if key in node.attrs else default


def _channel_axis(node, data):
    layout = _attr(node, "layout")
    return layout.find("C") if isinstance(layout, str) and "C" in layout else 1


def _fc(node, data):
    units = _attr(node, "num_hidden")
    inner = int(np.prod(data[1:])) if _attr(node, "flatten", True) else data[-1]
    return [(units, inner), (units,)]


def _conv(node, data, transposed=False):
    kernel, filters, groups = tuple(_attr(node, "kernel")), _attr(node, "num_filter"), _attr(node, "num_group", 1)
    channels = data[_channel_axis(node, data)]
    outer, inner = (channels, filters // groups) if transposed else (filters, channels // groups)
    layout = _attr(node, "layout")
    weight = (outer,) + kernel + (inner,) if isinstance(layout, str) and layout.endswith("C") else (outer, inner) + kernel
    return [weight, (filters,)]


def _per_channel(node, data):
    return [(data[_attr(node, "axis", 1)],)] * 4


def _per_axis(node, data):
    return [(data[_attr(node, "axis", -1)],)] * 2


#: operator -> rule giving the shapes of its inputs after the first (the data)
_RULES = {
    "FullyConnected": _fc,
    "Convolution": _conv,
    "Deconvolution": lambda node, data: _conv(node, data, transposed=True),
    "BatchNorm": _per_channel,
    "InstanceNorm": lambda node, data: [(data[1],)] * 2,
    "LayerNorm": _per_axis,
    "GroupNorm": lambda node, data: [(_attr(node, "num_groups", 1),)] * 2,
    "Embedding": lambda node, data: [(_attr(node, "input_dim"), _attr(node, "output_dim"))],
    "LeakyReLU": lambda node, data: [(data[1],)],
}


def _known(shape):
    return shape is not None and all(d > 0 for d in shape)


def infer_shapes(heads, given):
    """({variable: shape}, [output shapes]) of the graph heads, given some variables'
    shapes; unknown dimensions of a variable's __shape__ are 0."""
    shapes = {}
    for node in topo_order(heads):
        if node.op is None:
            shape = given.get(node.name)
            if shape is None and "__shape__" in node.attrs:
                shape = tuple(decode(node.attrs["__shape__"]))
            shapes[(id(node), 0)] = tuple(shape) if shape is not None else None
            continue
        entries = [(id(src), i) for src, i in node.inputs]
        data = shapes.get(entries[0]) if entries else None
        rule = _RULES.get(node.op)
        if rule is not None and _known(data):
            for entry, (src, _), want in zip(entries[1:], node.inputs[1:], rule(node, data)):
                if src.op is None and not _known(shapes.get(entry)):
                    shapes[entry] = _merge(shapes.get(entry), want, src.name)
        missing = [src.name for (src, _), e in zip(node.inputs, entries) if not _known(shapes.get(e))]
        if missing:
            raise MXNetValueError("cannot infer the shape of %s's inputs %s: give the shapes of the graph's inputs"
                                  % (node.name, ", ".join(missing)))
        fn, kwargs = compile_node(node)
        result = fn(*[nd.zeros(shapes[e], dtype=_dtype(src)) for (src, _), e in zip(node.inputs, entries)], **kwargs)
        for i, r in enumerate(result if isinstance(result, (list, tuple)) else [result]):
            shapes[(id(node), i)] = tuple(r.shape)
    variables = {n.name: shapes[(id(n), 0)] for n in topo_order(heads) if n.op is None}
    return variables, [shapes[(id(n), i)] for n, i in heads]


_FLAG_DTYPES = {str(flag): name for name, flag in TYPE_FLAGS.items()}


def _dtype(node):
    """A variable's dtype from its __dtype__ (float32 without one, or for an operator's output)."""
    return _FLAG_DTYPES.get(node.attrs.get("__dtype__"), "float32") if node.op is None else "float32"


def _merge(shape, want, name):
    want = tuple(want)
    if shape is None:
        return want
    if len(shape) != len(want) or any(d not in (0, w) for d, w in zip(shape, want)):
        raise MXNetValueError("variable %s has shape %s, but its operator needs %s" % (name, shape, want))
    return want
