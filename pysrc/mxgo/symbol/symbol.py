"""Symbols (mx.sym): graphs of registry operators, built by calling mx.sym's operators on
variables (which is how a HybridBlock is traced for export), read from and written to
MXNet 1.x's JSON, and run on NDArrays (``eval``).

mx.sym offers mx.nd's operators by the same names and arguments; arithmetic between
symbols and with scalars records MXNet's operators (elemwise_add, _plus_scalar, ...), so
that MXNet loads what mxgo writes. There is no executor or shape inference: graphs run
through ``eval``, a SymbolBlock or ``mx.nd``.
"""
import inspect
import numbers
import threading

from .. import ndarray as nd
from ..base import DTYPE_NAMES, MXNetTypeError, MXNetValueError, dtype_code
from ..ndarray.ndarray import NDArray
from ._graph import MXNET_NAMES, TYPE_FLAGS, Node, encode, from_json, to_json, topo_order
from .evaluate import auxiliary_names, evaluate
from .shapes import infer_shapes


class _Names(threading.local):
    """Per-thread counters of automatic node names (``fullyconnected0``), as MXNet's NameManager."""

    def __init__(self):
        super().__init__()
        self.counts = {}

    def get(self, name, hint):
        if name is not None:
            return name
        count = self.counts.get(hint, 0)
        self.counts[hint] = count + 1
        return "%s%d" % (hint, count)


_NAMES = _Names()


class Symbol:
    """One or more outputs of a graph."""

    __slots__ = ("_outputs",)

    def __init__(self, outputs):
        self._outputs = list(outputs)

    # ---- structure
    @property
    def name(self):
        """The name of the node of a single-output symbol (None for a group)."""
        return self._outputs[0][0].name if len(self._outputs) == 1 else None

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (Symbol([o]) for o in self._outputs)

    def __getitem__(self, index):
        if isinstance(index, str):
            names = self.list_outputs()
            if index not in names:
                raise MXNetValueError("There is no output named %s: %s" % (index, names))
            index = names.index(index)
        if not isinstance(index, int):
            raise MXNetTypeError("Symbol index must be an int or an output name, not %s" % type(index).__name__)
        outputs = self._outputs if len(self._outputs) > 1 else _all_outputs(self._outputs[0][0])
        return Symbol([outputs[index]])

    def __repr__(self):
        return "<Symbol %s>" % (self.name if self.name is not None else "group [%s]" % ", ".join(
            s.name for s in self))

    def _nodes(self):
        return topo_order(self._outputs)

    def _single(self):
        """The one output entry of a single-output symbol (an operator's input)."""
        if len(self._outputs) != 1:
            raise MXNetValueError("an operator's input must be a single-output Symbol, not a group of %d"
                                  % len(self._outputs))
        return self._outputs[0]

    def list_arguments(self):
        """The variables that no operator writes, in graph order."""
        aux = set(self.list_auxiliary_states())
        return [n.name for n in self._nodes() if n.op is None and n.name not in aux]

    def list_auxiliary_states(self):
        """The variables that operators write (BatchNorm's moving_mean and moving_var)."""
        return auxiliary_names(self._outputs)

    def list_inputs(self):
        return [n.name for n in self._nodes() if n.op is None]

    def list_outputs(self):
        names = []
        for node, i in self._outputs:
            if node.op is None:
                names.append(node.name)
            else:
                many = node.num_outputs() > 1 and node.op != "BatchNorm"
                names.append("%s_output%s" % (node.name, i if many else ""))
        return names

    def get_internals(self):
        """Every output of every node, as one group."""
        return Symbol([o for n in self._nodes() for o in _all_outputs(n)])

    def get_children(self):
        inputs = [o for n, _ in self._outputs for o in n.inputs]
        return Symbol(inputs) if inputs else None

    def attr(self, key):
        return self._outputs[0][0].attrs.get(key) if len(self._outputs) == 1 else None

    def list_attr(self):
        return dict(self._outputs[0][0].attrs) if len(self._outputs) == 1 else {}

    def attr_dict(self):
        return {n.name: dict(n.attrs) for n in self._nodes() if n.attrs}

    # ---- files
    def tojson(self):
        return to_json(self._outputs)

    def save(self, fname, remove_amp_cast=True):
        with open(fname, "w") as f:
            f.write(self.tojson())

    # ---- running
    def infer_shape(self, *args, **kwargs):
        """(argument shapes, output shapes, auxiliary state shapes), given the shapes of
        some arguments (positionally in list_arguments' order, or by name); (None, None,
        None) when they do not determine every shape, as in MXNet."""
        given = dict(zip(self.list_arguments(), args), **kwargs)
        try:
            variables, outputs = infer_shapes(self._outputs, given)
        except MXNetValueError as err:
            if "cannot infer" not in str(err):
                raise
            return None, None, None
        return ([variables[n] for n in self.list_arguments()], outputs,
                [variables[n] for n in self.list_auxiliary_states()])

    def eval(self, ctx=None, **kwargs):
        """The outputs (a list of NDArrays) given the variables' arrays by name."""
        return evaluate(self._outputs, kwargs)

    # ---- arithmetic, as MXNet's Symbol records it
    def __add__(self, other):
        return _binary(self, other, "elemwise_add", "_plus_scalar", "_plus", "_plusscalar")

    __radd__ = __add__

    def __sub__(self, other):
        return _binary(self, other, "elemwise_sub", "_minus_scalar", "_minus", "_minusscalar")

    def __rsub__(self, other):
        return _binary(self, other, "elemwise_sub", "_rminus_scalar", "_minus", "_rminusscalar", rev=True)

    def __mul__(self, other):
        return _binary(self, other, "elemwise_mul", "_mul_scalar", "_mul", "_mulscalar")

    __rmul__ = __mul__

    def __truediv__(self, other):
        return _binary(self, other, "elemwise_div", "_div_scalar", "_div", "_divscalar")

    def __rtruediv__(self, other):
        return _binary(self, other, "elemwise_div", "_rdiv_scalar", "_div", "_rdivscalar", rev=True)

    def __mod__(self, other):
        return _binary(self, other, "_mod", "_mod_scalar", "_mod", "_modscalar")

    def __rmod__(self, other):
        return _binary(self, other, "_mod", "_rmod_scalar", "_mod", "_rmodscalar", rev=True)

    def __pow__(self, other):
        return _binary(self, other, "_power", "_power_scalar", "_power", "_powerscalar")

    def __rpow__(self, other):
        return _binary(self, other, "_power", "_rpower_scalar", "_power", "_rpowerscalar", rev=True)

    def __neg__(self):
        return self.__mul__(-1.0)

    def __gt__(self, other):
        return _binary(self, other, "_greater", "_greater_scalar", "_greater", "_greater_scalar")

    def __ge__(self, other):
        return _binary(self, other, "_greater_equal", "_greater_equal_scalar", "_greater_equal",
                       "_greater_equal_scalar")

    def __lt__(self, other):
        return _binary(self, other, "_lesser", "_lesser_scalar", "_lesser", "_lesser_scalar")

    def __le__(self, other):
        return _binary(self, other, "_lesser_equal", "_lesser_equal_scalar", "_lesser_equal",
                       "_lesser_equal_scalar")

    def __eq__(self, other):
        return _binary(self, other, "_equal", "_equal_scalar", "_equal", "_equal_scalar")

    def __ne__(self, other):
        return _binary(self, other, "_not_equal", "_not_equal_scalar", "_not_equal", "_not_equal_scalar")

    __hash__ = object.__hash__

    def __getattr__(self, name):
        """mx.nd's fluent methods (x.reshape(...), x.swapaxes(1, 2), ...) on symbols."""
        if name.startswith("_") or not inspect.isroutine(getattr(NDArray, name, None)):  # reshape is C's
            raise AttributeError("'Symbol' object has no attribute %r" % name)
        op = _operator(name)
        return lambda *args, **kwargs: op(self, *args, **kwargs)


def _all_outputs(node):
    return [(node, i) for i in range(1 if node.op == "BatchNorm" else node.num_outputs())]


def _binary(sym, other, op, scalar_op, hint, scalar_hint, rev=False):
    if isinstance(other, Symbol):
        lhs, rhs = (other, sym) if rev else (sym, other)
        return _make(op, [lhs._single(), rhs._single()], {}, _NAMES.get(None, hint))
    if isinstance(other, numbers.Number) and not isinstance(other, bool):
        return _make(scalar_op, [sym._single()], {"scalar": encode(other)}, _NAMES.get(None, scalar_hint))
    return NotImplemented


def _make(op, inputs, attrs, name):
    node = Node(op, name, attrs, inputs)
    return Symbol(_all_outputs(node)) if node.num_outputs() > 1 and op != "BatchNorm" else Symbol([(node, 0)])


def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None, stype=None, **kwargs):
    """A variable (a graph input) named name, with MXNet's attributes for its shape, dtype,
    learning-rate and weight-decay multipliers and initializer."""
    if not isinstance(name, str):
        raise MXNetTypeError("Expect a string for variable `name`")
    attrs = dict(attr or {})
    for key, value in (("__shape__", shape), ("__lr_mult__", lr_mult), ("__wd_mult__", wd_mult)):
        if value is not None:
            attrs[key] = encode(tuple(value) if key == "__shape__" else value)
    if dtype is not None:
        attrs["__dtype__"] = str(TYPE_FLAGS[DTYPE_NAMES[dtype_code(dtype)]])
    if init is not None:
        attrs["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        attrs["__storage_type__"] = {"default": "0", "row_sparse": "1", "csr": "2"}.get(stype, "0")
    for k, v in kwargs.items():
        if not (k.startswith("__") and k.endswith("__")):
            raise MXNetValueError("Attribute name=%s is not supported. Additional attributes must start and end "
                                  "with double underscores, e.g, __yourattr__" % k)
        attrs[k] = encode(v)
    return Symbol([(Node(None, name, attrs), 0)])


Variable = var


def Group(symbols):
    """One symbol of the outputs of several."""
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise MXNetTypeError("Expected a list of symbols as input")
    return Symbol([o for s in symbols for o in s._outputs])


def load_json(json_str):
    return Symbol(from_json(json_str))


def load(fname):
    with open(fname) as f:
        return load_json(f.read())


#: mx.nd names that are Python functions in MXNet too (no operator of that name to record)
_NOT_OPERATORS = {"array", "empty", "load", "save", "from_numpy", "from_dlpack", "to_dlpack_for_read",
                  "to_dlpack_for_write", "waitall", "concatenate", "moveaxis", "imdecode", "NDArray"}
_OPERATORS = {}


def _operator(name):
    """mx.sym's function for mx.nd's operator name: it records a node with the call's
    Symbol arguments as inputs and its other arguments as attributes."""
    fn = _OPERATORS.get(name)
    if fn is not None:
        return fn
    target = getattr(nd, name, None)
    if name in _NOT_OPERATORS or not inspect.isfunction(target):
        raise AttributeError("mx.sym has no operator %r" % name)
    signature = inspect.signature(target)

    def build(*args, **kwargs):
        name_ = kwargs.pop("name", None)
        attr = kwargs.pop("attr", None)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as err:
            raise MXNetTypeError("%s: %s" % (name, err)) from None
        inputs, attrs = [], {}
        for key, value in bound.arguments.items():
            kind = signature.parameters[key].kind
            values = value if kind == inspect.Parameter.VAR_POSITIONAL else [value]
            if any(isinstance(v, Symbol) for v in values):
                inputs += [v._single() for v in values]
            elif key != "out" and value is not None and kind != inspect.Parameter.VAR_POSITIONAL:
                attrs[key] = encode(value)
        if kwargs.get("out") is not None:
            raise MXNetTypeError("%s: symbols take no out=" % name)
        if not inputs:
            raise MXNetTypeError("%s needs at least one Symbol input" % name)
        if name in ("Concat", "concat"):  # MXNet records how many arrays it joins
            attrs["num_args"] = str(len(inputs))
        node_attrs = {**{k: encode(v) for k, v in (attr or {}).items()}, **attrs}
        return _make(MXNET_NAMES.get(name, name), inputs, node_attrs, _NAMES.get(name_, name.lower()))
    build.__name__ = build.__qualname__ = name
    build.__doc__ = "mx.sym's %s: see mx.nd.%s" % (name, name)
    _OPERATORS[name] = build
    return build


def operator(name):
    """mx.sym.<name>: the builder for mx.nd's operator name (AttributeError if none)."""
    return _operator(name)


__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "operator"]
