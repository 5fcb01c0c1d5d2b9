"""Runs a graph of mx.sym nodes on NDArrays, one mx.nd operator per node: what a
SymbolBlock and a hybridized block do, so autograd records every step as it does
imperative code."""
import operator

from .. import ndarray as nd
from ..base import MXNetError, MXNetValueError
from ._graph import AUX_INPUTS, ND_NAMES, decode, topo_order


def _scalar(fn):
    return lambda x, scalar: fn(x, decode(scalar) if isinstance(scalar, str) else scalar)


def _flip(fn):
    return lambda x, s: fn(s, x)


#: MXNet's operators that mx.nd has as Python operators or under another name
_SPECIAL = {
    "_plus_scalar": _scalar(operator.add), "_minus_scalar": _scalar(operator.sub),
    "_rminus_scalar": _scalar(_flip(operator.sub)), "_mul_scalar": _scalar(operator.mul),
    "_div_scalar": _scalar(operator.truediv), "_rdiv_scalar": _scalar(_flip(operator.truediv)),
    "_mod_scalar": _scalar(operator.mod), "_rmod_scalar": _scalar(_flip(operator.mod)),
    "_power_scalar": _scalar(operator.pow), "_rpower_scalar": _scalar(_flip(operator.pow)),
    "_maximum_scalar": _scalar(nd.maximum), "_minimum_scalar": _scalar(nd.minimum),
    "_hypot_scalar": _scalar(lambda x, s: (x * x + s * s).sqrt()),
    "_greater_scalar": _scalar(operator.gt), "_greater_equal_scalar": _scalar(operator.ge),
    "_lesser_scalar": _scalar(operator.lt), "_lesser_equal_scalar": _scalar(operator.le),
    "_equal_scalar": _scalar(operator.eq), "_not_equal_scalar": _scalar(operator.ne),
    "_plus": nd.elemwise_add, "_Plus": nd.elemwise_add, "_minus": nd.elemwise_sub, "_Minus": nd.elemwise_sub,
    "_mul": nd.elemwise_mul, "_Mul": nd.elemwise_mul, "_div": nd.elemwise_div, "_Div": nd.elemwise_div,
    "_power": operator.pow, "_Power": operator.pow, "_maximum": nd.maximum, "_Maximum": nd.maximum,
    "_minimum": nd.minimum, "_Minimum": nd.minimum, "_equal": operator.eq, "_not_equal": operator.ne,
    "_greater": operator.gt, "_greater_equal": operator.ge, "_lesser": operator.lt, "_lesser_equal": operator.le,
    "_copy": nd.identity, "_zeros": nd.zeros, "_ones": nd.ones, "_full": nd.full,
}
#: attributes MXNet writes that only tune its kernels, name nodes or count inputs
_IGNORED = {"workspace", "cudnn_tune", "cudnn_off", "name", "num_args"}


def operator_function(op):
    """The mx.nd callable that runs MXNet operator op."""
    fn = _SPECIAL.get(op)
    if fn is None and not op.startswith("__"):
        fn = getattr(nd, op, None) or getattr(nd, ND_NAMES.get(op, op), None)
    if fn is None or not callable(fn):
        raise MXNetError("operator %s is not available in mxgo" % op)
    return fn


def compile_node(node):
    """(the mx.nd callable, its keyword arguments) that run operator node."""
    kwargs = {k: decode(v) for k, v in node.attrs.items() if not k.startswith("__") and k not in _IGNORED}
    if node.op in ("_zeros", "_ones", "_full"):
        kwargs["shape"] = kwargs.get("shape", ())
    return operator_function(node.op), kwargs


class Program:
    """A graph compiled to a list of steps (operator, input slots, arguments, output
    slots), each node's attributes decoded once: what a SymbolBlock and a hybridized
    block run at every call."""

    def __init__(self, heads):
        slots, self._variables, self._steps = {}, [], []
        for node in topo_order(heads):
            if node.op is None:
                slots[(id(node), 0)] = len(slots)
                self._variables.append((node.name, slots[(id(node), 0)]))
                continue
            inputs = [slots[(id(src), i)] for src, i in node.inputs]
            outputs = []
            for i in range(node.num_outputs()):
                slots[(id(node), i)] = len(slots)
                outputs.append(slots[(id(node), i)])
            self._steps.append(compile_node(node) + (inputs, outputs))
        self._size = len(slots)
        self._heads = [slots[(id(n), i)] for n, i in heads]

    def run(self, feed):
        """The head arrays, given {variable name: NDArray} for every variable."""
        values = [None] * self._size
        for name, slot in self._variables:
            if name not in feed:
                raise MXNetValueError("the graph reads variable '%s', which was not given" % name)
            values[slot] = feed[name]
        for fn, kwargs, inputs, outputs in self._steps:
            result = fn(*[values[i] for i in inputs], **kwargs)
            if isinstance(result, (list, tuple)):
                for slot, r in zip(outputs, result):
                    values[slot] = r
            else:
                values[outputs[0]] = result
        return [values[s] for s in self._heads]


def evaluate(heads, feed):
    """The arrays of the output entries heads, given {variable name: NDArray} for every
    variable they read."""
    return Program(heads).run(feed)


def auxiliary_names(heads):
    """The variables that operators write (BatchNorm's moving statistics), in graph order."""
    names = []
    for node in topo_order(heads):
        for i in AUX_INPUTS.get(node.op, ()):
            if i < len(node.inputs) and node.inputs[i][0].op is None and node.inputs[i][0].name not in names:
                names.append(node.inputs[i][0].name)
    return names
