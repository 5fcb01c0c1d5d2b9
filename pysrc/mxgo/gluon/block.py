"""Blocks (gluon.Block, HybridBlock), as MXNet 1.x has them: a tree of child blocks and
the Parameters they register, named by prefixes ("dense0_weight"), saved by structure
("0.weight").

A HybridBlock runs ``hybrid_forward(F, x, *args, **params)``: on NDArrays with F the mx.nd
namespace and params its Parameters' data on the input's context; on Symbols with F mx.sym
and params their variables, which traces the block into a graph (``export`` writes it as
MXNet's model files; SymbolBlock runs such graphs, MXNet's included). A hybridized block
traces itself so on its first call and later calls run the cached graph (one mx.nd
operator per node, no Python of the blocks in between), as MXNet's CachedOp does; the
values are the imperative ones. Where MXNet infers a deferred Parameter's shape from the
symbolic graph, each layer infers it from its input (``infer_shape``), on an imperative
first call.

In NumPy mode (``npx.set_np()``) Parameters give and blocks return ``mx.np`` arrays over the
same memory, as MXNet 1.9.1's Gluon does; ``F.np`` and ``F.npx`` in ``hybrid_forward`` are
mx.np and mx.npx on arrays.
"""
import threading
import warnings
from collections import OrderedDict

from .. import ndarray as nd
from .. import numpy as _mxnp
from .. import symbol
from ..base import MXNetError, MXNetValueError
from ..util import is_np_array
from ..symbol.evaluate import Program
from ..symbol.shapes import infer_shapes
from .parameter import DEFAULT_INIT, DeferredInitializationError, Parameter, ParameterDict, select_params
from .utils import HookHandle, indent


class _Names(threading.local):
    """The per-thread count of blocks made outside any name scope, by hint ("dense0")."""

    def __init__(self):
        super().__init__()
        self.counts = {}

    def next(self, hint):
        count = self.counts.get(hint, 0)
        self.counts[hint] = count + 1
        return "%s%d" % (hint, count)


_NAMES = _Names()


class _BlockScope:
    """The name scope of a block: children made inside it get the block's prefix and
    their own per-hint counter ("model_dense0_")."""

    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._old_scope = None

    @staticmethod
    def create(prefix, params, hint):
        current = getattr(_BlockScope._current, "value", None)
        if current is None:
            if prefix is None:
                prefix = _NAMES.next(hint) + "_"
            params = ParameterDict(prefix) if params is None else ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = "%s%d_" % (hint, count)
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if not self._block._empty_prefix:
            self._old_scope = getattr(_BlockScope._current, "value", None)
            _BlockScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        if not self._block._empty_prefix:
            _BlockScope._current.value = self._old_scope


def _leaves(args):
    """The NDArrays and Symbols in a nested structure of arguments, in order."""
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _leaves(a)
        elif isinstance(a, (nd.NDArray, symbol.Symbol)):
            yield a


class Block:
    """The base class of layers and models: override ``forward``."""

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ""
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith("_") else self._prefix
        self._scope = _BlockScope(self)
        self._children = OrderedDict()
        self._reg_params = {}
        self._forward_hooks = OrderedDict()
        self._forward_pre_hooks = OrderedDict()

    def __repr__(self):
        modstr = "\n".join("  ({key}): {block}".format(key=key, block=indent(repr(block), 2))
                           for key, block in self.__dict__.items() if isinstance(block, Block))
        return "{name}(\n{modstr}\n)".format(name=self.__class__.__name__, modstr=modstr)

    def __setattr__(self, name, value):
        if hasattr(self, name):
            existing = getattr(self, name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError("Changing attribute type for {name} from {type1} to {type2}is not allowed.".format(
                    name=name, type1=type(existing), type2=type(value)))
        if isinstance(value, Block):
            self.register_child(value, name)
        elif isinstance(value, Parameter):
            if name in self._reg_params:
                raise ValueError("Overriding Parameter attribute %s is not allowed. If you want to share parameters "
                                 "between blocks, please set 'params' at Block construction instead." % name)
            self._reg_params[name] = value
        super().__setattr__(name, value)

    def _check_container_with_block(self):
        children = set(map(id, self._children.values()))

        def unregistered(data):
            if isinstance(data, (list, tuple)):
                return any(unregistered(e) for e in data)
            if isinstance(data, dict):
                return any(unregistered(e) for e in data.values())
            return isinstance(data, Block) and id(data) not in children
        for k, v in self.__dict__.items():
            if isinstance(v, (list, tuple, dict)) and not (k.startswith("__") or k == "_children") and unregistered(v):
                warnings.warn('"{name}" is an unregistered container with Blocks. Note that Blocks inside the list, '
                              'tuple or dict will not be registered automatically. Make sure to register them using '
                              'register_child() or switching to nn.Sequential/nn.HybridSequential instead. '
                              .format(name=self.__class__.__name__ + "." + k), stacklevel=3)

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        return self._prefix

    @property
    def name(self):
        return self._name

    def name_scope(self):
        """The scope (``with net.name_scope():``) in which children get this block's prefix."""
        return self._scope

    @property
    def params(self):
        """This block's own ParameterDict (its children's not included)."""
        return self._params

    def collect_params(self, select=None):
        """A ParameterDict of this block's and all its descendants' Parameters, those whose
        names match the regular expression select if given."""
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        ret.update(select_params(self.params, select) if select else self.params)
        for child in self._children.values():
            ret.update(child.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=""):
        if prefix:
            prefix += "."
        ret = {prefix + key: val for key, val in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def save_parameters(self, filename, deduplicate=False):
        """Saves the Parameters under their structural names ("0.weight", "features.1.bias")
        with mx.nd.save; a shared Parameter once if deduplicate."""
        params = self._collect_params_with_prefix()
        if deduplicate:
            params = {k: v for v, k in {v: k for k, v in params.items()}.items()}
        nd.save(filename, {key: val._reduce() for key, val in params.items()})

    def save_params(self, filename):
        """[Deprecated] Saves with the Parameters' full names, prefix stripped."""
        warnings.warn("save_params is deprecated. Please use save_parameters. Note that if you want load from "
                      "SymbolBlock later, please use export instead.", stacklevel=2)
        self.collect_params().save(filename, strip_prefix=self.prefix)

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False, cast_dtype=False,
                        dtype_source="current"):
        """Loads what save_parameters (or, by full names, save_params) wrote."""
        loaded = nd.load(filename)
        if not isinstance(loaded, dict):
            raise ValueError("'%s' holds a list of arrays, not named parameters" % filename)
        params = self._collect_params_with_prefix()
        if not loaded and not params:
            return
        if not any("." in k for k in loaded):
            self.collect_params().load(filename, ctx, allow_missing, ignore_extra, self.prefix,
                                       cast_dtype=cast_dtype, dtype_source=dtype_source)
            return
        if not allow_missing:
            names_of = {}
            for k, v in params.items():
                names_of.setdefault(id(v), []).append(k)
            for name, param in params.items():
                if not any(p in loaded for p in names_of[id(param)]):
                    raise ValueError("Parameter '%s' is missing in file '%s', which contains parameters: %s. Set "
                                     "allow_missing=True to ignore missing parameters."
                                     % (name, filename, _brief(loaded.keys())))
        for name in loaded:
            if name not in params:
                if not ignore_extra:
                    raise ValueError("Parameter '%s' loaded from file '%s' is not present in ParameterDict, which "
                                     "contains parameters %s. Set ignore_extra=True to ignore. "
                                     % (name, filename, _brief(params.keys())))
                continue
            params[name]._load_init(loaded[name], ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """[Deprecated] load_parameters."""
        warnings.warn("load_params is deprecated. Please use load_parameters.", stacklevel=2)
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def register_child(self, block, name=None):
        """Adds block as a child (blocks assigned as attributes are added by their names)."""
        self._children[str(len(self._children)) if name is None else name] = block

    def register_forward_pre_hook(self, hook):
        """Calls ``hook(block, inputs)`` before every forward; returns its HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        """Calls ``hook(block, inputs, outputs)`` after every forward; returns its HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def apply(self, fn):
        """Calls fn(block) on every descendant, then on this block."""
        for child in self._children.values():
            child.apply(fn)
        fn(self)
        return self

    def initialize(self, init=DEFAULT_INIT, ctx=None, verbose=False, force_reinit=False):
        """Initializes every Parameter of this block and its descendants."""
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def zero_grad(self):
        """Sets every gradient of this block's and its descendants' Parameters to 0."""
        self.collect_params().zero_grad()

    def hybridize(self, active=True, **kwargs):
        """Sets the hybridize flag of the HybridBlocks among the descendants."""
        for child in self._children.values():
            child.hybridize(active, **kwargs)

    def cast(self, dtype):
        """Casts every Parameter to dtype."""
        for child in self._children.values():
            child.cast(dtype)
        for param in self.params.values():
            param.cast(dtype)

    def __call__(self, *args):
        for hook in self._forward_pre_hooks.values():
            hook(self, args)
        out = self.forward(*args)
        if is_np_array():  # NumPy mode (npx.set_np): blocks give mx.np arrays, as MXNet's
            out = _as_np(out)
        for hook in self._forward_hooks.values():
            hook(self, args, out)
        return out

    def forward(self, *args):
        """Override: the computation, on NDArrays."""
        raise NotImplementedError

    def summary(self, *inputs):
        """Prints each layer's output shape and Parameter count for a forward of inputs."""
        summary = _Summary(self)
        try:
            self(*inputs)
        finally:
            summary.detach()
        summary.print(inputs)


def _as_np(out):
    """A block's output with its NDArrays as mx.np arrays over the same memory."""
    if isinstance(out, (list, tuple)):
        return type(out)(_as_np(o) for o in out)
    return _mxnp.asarray(out) if isinstance(out, nd.NDArray) else out


class HybridBlock(Block):
    """A Block whose computation is ``hybrid_forward(F, x, *args, **params)``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._active = False
        self._flags = []
        self._in_count = None  # how many inputs the last forward had: what export traces
        self._cached_graph = None  # hybridized: (input names, Program, [(name, Parameter)], single output)
        self._traceable = True  # False once tracing reached F.np (mx.sym has none): runs imperatively

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError("Children of HybridBlock must also be HybridBlock, but %s has type %s. If you are using "
                             "Sequential, please try HybridSequential instead." % (block, type(block)))
        super().register_child(block, name)
        self._cached_graph = None

    def hybridize(self, active=True, backend=None, clear=True, static_alloc=False, static_shape=False,
                  inline_limit=2, forward_bulk_size=None, backward_bulk_size=None, **kwargs):
        """Activates (or not) the cached graph: the next call traces the block on symbols,
        later calls run that graph. The options are MXNet's, recorded."""
        self._active = active
        self._cached_graph = None
        self._flags = [("static_alloc", static_alloc), ("static_shape", static_shape),
                       ("inline_limit", inline_limit)] + list(kwargs.items())
        super().hybridize(active, static_alloc=static_alloc, static_shape=static_shape, inline_limit=inline_limit,
                          forward_bulk_size=forward_bulk_size, backward_bulk_size=backward_bulk_size, **kwargs)

    def infer_shape(self, *args):
        """Fills the unknown dimensions of this block's Parameters from its inputs: layers
        with deferred Parameters override it."""
        unknown = [p.name for p in self._reg_params.values() if p.shape is None or 0 in p.shape]
        if unknown:
            raise MXNetError("%s cannot infer the shapes of %s from its inputs: mxgo has no symbolic graph to infer "
                             "them from. Give the shapes when creating the Parameters, or override infer_shape."
                             % (type(self).__name__, ", ".join(unknown)))

    def infer_type(self, *args):
        """Parameters keep the dtype they were created with."""

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Writes MXNet's model files: ``path-symbol.json`` (this block traced with its last
        forward's number of inputs, named data or data0, data1, ...) and
        ``path-%04d.params`` (``arg:``/``aux:`` names); returns their names."""
        if self._in_count is None:
            raise RuntimeError("Please first call block.hybridize() and then run forward with this block at least "
                               "once before calling export.")
        names = ["data"] if self._in_count == 1 else ["data%d" % i for i in range(self._in_count)]
        out = self(*[symbol.var(n) for n in names])
        sym = symbol.Group(list(out)) if isinstance(out, (list, tuple)) else out
        sym_file, params_file = "%s-symbol.json" % path, "%s-%04d.params" % (path, epoch)
        sym.save(sym_file, remove_amp_cast=remove_amp_cast)
        args, aux = set(sym.list_arguments()), set(sym.list_auxiliary_states())
        arg_dict = {}
        for name, param in self.collect_params().items():
            if name in args or name in aux:
                arg_dict[("arg:%s" if name in args else "aux:%s") % name] = param._reduce()
        nd.save(params_file, arg_dict)
        return sym_file, params_file

    def forward(self, x, *args):
        inputs = [x, *args]
        plain = all(isinstance(a, nd.NDArray) for a in inputs)  # the usual call: arrays, nothing nested
        cached = self._cached_graph
        if plain and cached is not None and len(cached[0]) == len(inputs):
            return self._call_cached_graph(inputs)
        leaves = inputs if plain else list(_leaves(inputs))
        arrays = leaves if plain else [a for a in leaves if isinstance(a, nd.NDArray)]
        symbols = [] if plain else [a for a in leaves if isinstance(a, symbol.Symbol)]
        if symbols:
            if arrays:
                raise ValueError("In HybridBlock, we do not support mixed NDArrays and Symbols types for the input. "
                                 "Please check the type of the args.\n")
            params = {k: v.var() for k, v in self._reg_params.items()}
            return self.hybrid_forward(symbol, x, *args, **params)
        if not arrays:
            raise ValueError("In HybridBlock, there must be one NDArray or one Symbol in the input. Please check the "
                             "type of the args.\n")
        self._in_count = len(inputs)
        if self._active and plain and self._traceable and self._ready():
            try:
                return self._call_cached_graph(inputs)  # traces the graph, which the next calls find
            except symbol.NumPyInterfaceError:
                self._traceable = False  # F.np in a hybrid_forward: imperative, as before hybridize()
        ctx = arrays[0].context
        with ctx:
            try:
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
            except DeferredInitializationError:
                self.infer_shape(x, *args)
                for v in self.params.values():
                    v._finish_deferred_init()
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
            return self.hybrid_forward(nd, x, *args, **params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Override: the computation, with F the operator namespace (mx.nd)."""
        raise NotImplementedError

    def cast(self, dtype):
        self._cached_graph = None
        super().cast(dtype)

    def _ready(self):
        """Whether every Parameter has its data (deferred ones get it on an imperative call)."""
        return all(p._data is not None for p in self.collect_params().values())

    def _call_cached_graph(self, inputs):
        cached = self._cached_graph
        if cached is None or len(cached[0]) != len(inputs):
            names = ["data"] if len(inputs) == 1 else ["data%d" % i for i in range(len(inputs))]
            out = self.forward(*[symbol.var(n) for n in names])
            single = isinstance(out, symbol.Symbol)
            graph = out if single else symbol.Group(list(out))
            reads = set(graph.list_inputs())
            params = [(n, p) for n, p in self.collect_params().items() if n in reads]
            cached = self._cached_graph = (names, Program(graph._outputs), params, single)
        names, program, params, single = cached
        ctx = inputs[0].context
        feed = dict(zip(names, inputs))
        feed.update((n, p.data(ctx)) for n, p in params)
        with ctx:
            out = program.run(feed)
        return out[0] if single else out


class SymbolBlock(HybridBlock):
    """A HybridBlock of a graph: outputs (a Symbol) computed from the variables inputs;
    every other variable of the graph is a Parameter (those operators write, such as
    BatchNorm's moving statistics, with grad_req 'null'), named as in the graph."""

    def __init__(self, outputs, inputs, params=None):
        super().__init__(prefix=None, params=None)
        self._prefix = ""
        self._params = ParameterDict("", params)
        if isinstance(outputs, (list, tuple)):
            outputs = symbol.Group(list(outputs))
        inputs = [inputs] if isinstance(inputs, symbol.Symbol) else list(inputs)
        self._outputs = outputs
        self._program = None
        self._input_names = [i.name for i in inputs]
        if len(set(self._input_names)) != len(self._input_names) or None in self._input_names:
            raise MXNetValueError("SymbolBlock's inputs must be distinct variables, not %s" % (self._input_names,))
        known = set(outputs.list_inputs())
        for name in self._input_names:
            if name not in known:
                raise MXNetValueError("input '%s' is not a variable of the graph, whose variables are %s"
                                      % (name, sorted(known)))
        for name in outputs.list_arguments():  # then the auxiliary states, MXNet's order
            if name not in self._input_names:
                self._reg_params[name] = self.params.get(name, allow_deferred_init=True)
        for name in outputs.list_auxiliary_states():
            if name not in self._input_names:
                self._reg_params[name] = self.params.get(name, allow_deferred_init=True, grad_req="null")

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False, ignore_extra=False):
        """A SymbolBlock of MXNet's model files (what ``export`` writes): the graph in
        symbol_file with the variables input_names as inputs, Parameters loaded from
        param_file (in their saved dtypes)."""
        names = [input_names] if isinstance(input_names, str) else list(input_names)
        block = SymbolBlock(symbol.load(symbol_file), [symbol.var(n) for n in names])
        if param_file is not None:
            block.collect_params().load(param_file, ctx=ctx, allow_missing=allow_missing, ignore_extra=ignore_extra,
                                        cast_dtype=True, dtype_source="saved")
        return block

    def _ready(self):
        return False  # it is a graph already: hybridize changes nothing

    def infer_shape(self, *args):
        """Fills the Parameters' unknown shapes from the inputs' (the graph's operators
        infer their weights' shapes, as MXNet's do)."""
        variables, _ = infer_shapes(self._outputs._outputs, {n: a.shape for n, a in zip(self._input_names, args)})
        for name, param in self.params.items():
            if variables.get(name) is not None:
                param.shape = variables[name]

    def forward(self, x, *args):
        inputs = [x, *args]
        if len(inputs) != len(self._input_names):
            raise MXNetValueError("this SymbolBlock takes %d inputs (%s), not %d"
                                  % (len(self._input_names), ", ".join(self._input_names), len(inputs)))
        if any(isinstance(a, symbol.Symbol) for a in inputs):
            raise MXNetError("a SymbolBlock runs on NDArrays only")
        return super().forward(x, *args)

    def hybrid_forward(self, F, x, *args, **params):
        if self._program is None:
            self._program = Program(self._outputs._outputs)
        out = self._program.run(dict(zip(self._input_names, [x, *args]), **params))
        return out[0] if len(out) == 1 else out



def _brief(names, limit=3):
    names = list(names)
    return "%s, ..., %s" % (", ".join(names[:limit - 1]), names[-1]) if len(names) > limit else ", ".join(names)


class _Summary:
    """The hooks and rows of Block.summary, printed as MXNet 1.x prints them."""

    FORMAT = "{:>20}  {:>42} {:>15}"

    def __init__(self, block):
        self.rows, self.seen, self.handles = [], set(), []
        block.apply(self._hook)

    def _hook(self, block):
        if isinstance(block, HybridBlock) and block._active:
            raise ValueError('"{}" must not be hybridized to print summary.'.format(block.name))
        if not getattr(block, "_is_container", False):
            self.handles.append(block.register_forward_hook(self._record))

    def _record(self, block, _, outputs):
        count = trainable = shared = 0
        for p in block.params.values():
            size = p.data().size
            count += size
            trainable += 0 if p.grad_req == "null" else size
            shared += size if id(p) in self.seen else 0
            self.seen.add(id(p))
        self.rows.append(("%s-%d" % (block.__class__.__name__, len(self.rows) + 1), _shape_str(outputs), count,
                          trainable, shared))

    def detach(self):
        for h in self.handles:
            h.detach()

    def print(self, inputs):
        rows = [("Input", _shape_str(list(inputs)), 0, 0, 0)] + self.rows
        total, trainable, shared = (sum(r[i] for r in rows) for i in (2, 3, 4))
        print("-" * 80)
        print(self.FORMAT.format("Layer (type)", "Output Shape", "Param #"))
        print("=" * 80)
        for name, shape, count, _, _ in rows:
            print(self.FORMAT.format(name, shape, count))
        print("=" * 80)
        print("Parameters in forward computation graph, duplicate included")
        print("   Total params: " + str(total))
        print("   Trainable params: " + str(trainable))
        print("   Non-trainable params: " + str(total - trainable))
        print("Shared params in forward computation graph: " + str(shared))
        print("Unique parameters in model: " + str(total - shared))
        print("-" * 80)


def _shapes(x):
    if isinstance(x, nd.NDArray):
        return x.shape
    if isinstance(x, (list, tuple)):
        return [_shapes(e) for e in x]
    return x


def _shape_str(x):
    """A shape, or the shapes of a list without its brackets, as MXNet's summary prints them."""
    shapes = _shapes(x)
    return str(shapes)[1:-1] if isinstance(shapes, list) else str(shapes)
