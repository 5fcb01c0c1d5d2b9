"""Parameters (gluon.Parameter, Constant, ParameterDict), as MXNet 1.x has them.

A Parameter holds one copy of its array per context and, unless ``grad_req`` is 'null', a
gradient buffer for each, marked as the copy's gradient with autograd.mark_variables. Its
shape may hold 0 for a dimension not known yet (a layer built without ``in_units``): then
``initialize`` only records what to do, and the layer finishes it on its first forward,
when the input tells the shape (deferred initialization).
"""
import re
import warnings
from collections import OrderedDict

import numpy as np

from .. import autograd, context, initializer
from .. import ndarray as nd
from .. import symbol
from ..base import MXNetError
from ..context import Context
from ..util import is_np_array

_GRAD_REQS = ("write", "add", "null")
#: the global initializer when neither the call nor the Parameter names one
DEFAULT_INIT = initializer.Uniform()


class DeferredInitializationError(MXNetError):
    """A Parameter's data was asked for before its deferred initialization finished."""


def _shape_known(shape):
    return shape is not None and all(d > 0 for d in shape)


def _contexts(ctx):
    if ctx is None:
        return [context.current_context()]
    return [ctx] if isinstance(ctx, Context) else list(ctx)


class Parameter:
    """A weight of a Block: data on one or more contexts, their gradients, and how the
    Trainer treats them (lr_mult, wd_mult, grad_req)."""

    def __init__(self, name, grad_req="write", shape=None, dtype="float32", lr_mult=1.0, wd_mult=1.0, init=None,
                 allow_deferred_init=False, differentiable=True, stype="default", grad_stype="default"):
        for what, value in (("stype", stype), ("grad_stype", grad_stype)):
            if value != "default":
                raise ValueError("%s for Parameter '%s' must be 'default': mxgo has no sparse storage (got '%s')"
                                 % (what, name, value))
        self._data = None
        self._grad = None
        self._ctx_list = None
        self._trainer = None
        self._deferred_init = ()
        self._differentiable = differentiable
        self._allow_deferred_init = allow_deferred_init
        self._grad_req = None
        self._shape = (shape,) if isinstance(shape, int) else (tuple(shape) if shape is not None else None)
        self.name = name
        self._dtype = dtype
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.grad_req = grad_req
        self.init = init
        self._stype = self._grad_stype = "default"

    def __repr__(self):
        return "Parameter {name} (shape={shape}, dtype={dtype})".format(name=self.name, shape=self.shape,
                                                                        dtype=self.dtype)

    @property
    def grad_req(self):
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in _GRAD_REQS:
            raise ValueError("grad_req must be one of 'write', 'add', or 'null', but got '%s'" % (req,))
        if not self._differentiable:
            req = "null"
        if self._grad_req == req:
            return
        self._grad_req = req
        if req == "null" and self._grad is not None:
            self._grad = None
            self._data = [d.detach() for d in self._data]
        elif self._data is not None:
            self._init_grad()

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, dtype):
        self.cast(dtype)

    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        new_shape = tuple(new_shape)
        if self._shape is not None and (len(self._shape) != len(new_shape) or any(
                old not in (0, new) for old, new in zip(self._shape, new_shape))):
            raise ValueError("Expected shape %s is incompatible with given shape %s." % (new_shape, self._shape))
        self._shape = new_shape

    @property
    def stype(self):
        return self._stype

    def _set_trainer(self, trainer):
        self._trainer = trainer

    def _check_and_get(self, arr_list, ctx):
        """The array (or with ctx list, every array) of arr_list for ctx: in NumPy mode
        (npx.set_np) as mx.np arrays over the same memory, as MXNet gives them."""
        got = self._find(arr_list, ctx)
        if not is_np_array():
            return got
        return [a.as_np_ndarray() for a in got] if ctx is list else got.as_np_ndarray()

    def _find(self, arr_list, ctx):
        if arr_list is not None:
            if ctx is list:
                return arr_list
            if ctx is None:
                if len(arr_list) == 1:
                    return arr_list[0]
                ctx = context.current_context()
            for c, arr in zip(self._ctx_list, arr_list):
                if c == ctx:
                    return arr
            raise RuntimeError("Parameter '%s' was not initialized on context %s. It was only initialized on %s."
                               % (self.name, ctx, self._ctx_list))
        if self._deferred_init:
            raise DeferredInitializationError(
                "Parameter '%s' has not been initialized yet because initialization was deferred. Actual "
                "initialization happens during the first forward pass. Please pass one batch of data through the "
                "network before accessing Parameters. You can also avoid deferred initialization by specifying "
                "in_units, num_features, etc., for network layers." % self.name)
        raise RuntimeError("Parameter '%s' has not been initialized. Note that you should initialize parameters "
                           "and create Trainer with Block.collect_params() instead of Block.params because the "
                           "later does not include Parameters of nested child Blocks" % self.name)

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source="current"):
        """(Re)initializes from loaded data, checking shape and dtype as MXNet does."""
        if cast_dtype and dtype_source not in ("current", "saved"):
            raise ValueError("dtype_source must be 'current' or 'saved', not %r" % (dtype_source,))
        if self._shape:
            if len(self._shape) != len(data.shape) or any(
                    d not in (0, s) for d, s in zip(self._shape, data.shape)):
                raise ValueError("Failed loading Parameter '%s' from saved params: shape incompatible expected %s "
                                 "vs saved %s" % (self.name, self._shape, data.shape))
            self._shape = tuple(data.shape)
        if self._dtype is not None and np.dtype(self._dtype) != np.dtype(data.dtype):
            if not cast_dtype:
                raise ValueError("Failed loading Parameter '%s' from saved params: dtype incompatible expected %s "
                                 "vs saved %s. Set cast_dtype=True to cast the dtype of saved params."
                                 % (self.name, np.dtype(self._dtype), np.dtype(data.dtype)))
            if dtype_source == "current":
                data = data.astype(self._dtype, copy=False)
            else:
                self._dtype = data.dtype
        if isinstance(ctx, Context):
            ctx = [ctx]
        if self._data is None:
            if self._deferred_init:
                if ctx is not None and set(ctx) != set(self._deferred_init[1]):
                    raise ValueError("Failed to load Parameter '%s' on %s because it was previous initialized on %s."
                                     % (self.name, ctx, self.list_ctx()))
                ctx = self._deferred_init[1]
            elif ctx is None:
                ctx = [context.cpu()]
            self._init_impl(data, ctx)
        else:
            if ctx is not None and set(ctx) != set(self.list_ctx()):
                raise ValueError("Failed to load Parameter '%s' on %s because it was previous initialized on %s."
                                 % (self.name, ctx, self.list_ctx()))
            self.set_data(data)
        self._deferred_init = ()

    def _finish_deferred_init(self):
        if not self._deferred_init:
            return
        init, ctx, default_init, data = self._deferred_init
        if not _shape_known(self._shape):
            raise ValueError("Cannot initialize Parameter '%s' because it has invalid shape: %s. Please specify "
                             "in_units, in_channels, etc for `Block`s." % (self.name, self._shape))
        self._deferred_init = ()
        with autograd.pause():
            if data is None:
                data = nd.zeros(self._shape, dtype=self._dtype, ctx=context.cpu())
                initializer.create(default_init)(initializer.InitDesc(self.name, {"__init__": init}), data)
            self._init_impl(data, ctx)

    def _init_impl(self, data, ctx_list):
        self._ctx_list = list(ctx_list)
        self._data = [data.copyto(c) for c in self._ctx_list]
        self._init_grad()

    def _init_grad(self):
        if self.grad_req == "null":
            self._grad = None
            return
        self._grad = [nd.zeros(d.shape, dtype=d.dtype, ctx=d.context) for d in self._data]
        autograd.mark_variables(self._data, self._grad, self.grad_req)

    def _reduce(self):
        """The mean of the copies, on the CPU (what save and reset_ctx keep)."""
        block = self.list_data()
        if len(block) == 1:
            return block[0].copyto(context.cpu())
        return nd.add_n(*(w.copyto(context.cpu()) for w in block)) / len(block)

    def initialize(self, init=None, ctx=None, default_init=DEFAULT_INIT, force_reinit=False):
        """Allocates and fills the data (and gradients) on ctx (one context or a list):
        with init, else the Parameter's own init, else default_init. A shape not known
        yet defers it to the first forward, where the Parameter allows that."""
        if self._data is not None and not force_reinit:
            warnings.warn("Parameter '%s' is already initialized, ignoring. Set force_reinit=True to "
                          "re-initialize." % self.name, stacklevel=2)
            return
        self._data = self._grad = None
        ctx = _contexts(ctx)
        if init is None:
            init = default_init if self.init is None else self.init
        if not _shape_known(self._shape):
            if self._allow_deferred_init:
                self._deferred_init = (init, ctx, default_init, None)
                return
            raise ValueError("Cannot initialize Parameter '%s' because it has invalid shape: %s."
                             % (self.name, self._shape))
        self._deferred_init = (init, ctx, default_init, None)
        self._finish_deferred_init()

    def reset_ctx(self, ctx):
        """Moves the data (the mean of its copies) to other contexts."""
        ctx = _contexts(ctx)
        if self._data:
            data = self._reduce()
            with autograd.pause():
                self._init_impl(data, ctx)
        elif self._deferred_init:
            self._deferred_init = (self._deferred_init[0], ctx) + self._deferred_init[2:]
        else:
            raise ValueError("Cannot reset context for Parameter '%s' because it has not been initialized."
                             % self.name)

    def set_data(self, data):
        """Sets the value on every context (or the value a deferred init will use)."""
        self.shape = data.shape
        if self._data is None:
            if not self._deferred_init:
                raise RuntimeError("Parameter '%s' has not been initialized" % self.name)
            self._deferred_init = self._deferred_init[:3] + (data,)
            return
        for arr in self._data:
            arr[:] = data

    def data(self, ctx=None):
        """The data on ctx (the only copy when ctx is None and there is one)."""
        return self._check_and_get(self._data, ctx)

    def list_data(self):
        return self._check_and_get(self._data, list)

    def grad(self, ctx=None):
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because grad_req='null'" % self.name)
        return self._check_and_get(self._grad, ctx)

    def list_grad(self):
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because grad_req='null'" % self.name)
        return self._check_and_get(self._grad, list)

    def list_ctx(self):
        if self._data is None:
            if self._deferred_init:
                return self._deferred_init[1]
            raise RuntimeError("Parameter '%s' has not been initialized" % self.name)
        return self._ctx_list

    def zero_grad(self):
        """Sets the gradient buffers to 0 (nothing when there are none)."""
        for g in self._grad or ():
            nd.zeros_like(g, out=g)

    def var(self):
        """The variable standing for this Parameter in a traced graph (with MXNet's attributes)."""
        return symbol.var(self.name, shape=self._shape, dtype=self._dtype, lr_mult=self.lr_mult,
                          wd_mult=self.wd_mult, init=self.init, stype=self._stype)

    def cast(self, dtype):
        """Casts data and gradients to dtype (new arrays, marked again)."""
        self._dtype = dtype
        if self._data is None:
            return
        with autograd.pause():
            self._data = [d.astype(dtype) for d in self._data]
            if self._grad is not None:
                self._grad = [g.astype(dtype) for g in self._grad]
                autograd.mark_variables(self._data, self._grad, self.grad_req)


class _ValueInit(initializer.Initializer):
    """Fills with a copy of one array (a Constant's value)."""

    def __init__(self, value):
        super().__init__()
        self._value = value

    def _init_weight(self, _, arr):
        self._value.copyto(arr)


class Constant(Parameter):
    """A Parameter that autograd and the Trainer leave alone (grad_req 'null'), initialized
    to value."""

    def __init__(self, name, value):
        if not isinstance(value, nd.NDArray):
            value = nd.array(value)
        self.value = value
        super().__init__(name, grad_req="null", shape=value.shape, dtype=value.dtype, init=_ValueInit(value))

    def __repr__(self):
        return "Constant {name} (shape={shape}, dtype={dtype})".format(name=self.name, shape=self.shape,
                                                                       dtype=self.dtype)

    @property
    def grad_req(self):
        return "null"

    @grad_req.setter
    def grad_req(self, req):
        if req != "null":
            warnings.warn("Constant parameter \"{}\" does not support grad_req other than \"null\", and new value "
                          "\"{}\" is ignored.".format(self.name, req), stacklevel=2)


class ParameterDict:
    """An ordered dict of Parameters whose names start with ``prefix``; ``shared`` is
    looked in before a new Parameter is made (how Blocks share weights)."""

    def __init__(self, prefix="", shared=None):
        self._prefix = prefix
        self._params = OrderedDict()
        self._shared = shared

    def __repr__(self):
        body = "\n".join("  " + repr(v) for v in self.values())
        return "{name}(\n{content}\n)".format(name=self._prefix + " " if self._prefix else "", content=body)

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._params[name]
        return None

    def get(self, name, **kwargs):
        """The Parameter ``prefix + name``, from here or the shared dict, else a new one made
        with kwargs; an existing one must agree with kwargs (a 0 in a shape is filled in)."""
        name = self._prefix + name
        param = self._get_impl(name)
        if param is None:
            param = self._params[name] = Parameter(name, **kwargs)
            return param
        for k, v in kwargs.items():
            existing = getattr(param, k, None)
            if existing is None:
                setattr(param, k, v)
            elif k == "shape" and _merge_shape(param, v):
                continue
            elif k == "dtype" and np.dtype(v) == np.dtype(existing):
                continue
            elif v is not None and v != existing:
                raise ValueError("Cannot retrieve Parameter '%s' because desired attribute does not match with "
                                 "stored for attribute '%s': desired '%s' vs stored '%s'." % (name, k, v, existing))
        return param

    def get_constant(self, name, value=None):
        """The Constant ``prefix + name``, made from value when there is none yet."""
        name = self._prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise KeyError("No constant named '{}'. Please specify value if you want to create a new constant."
                               .format(name))
            param = self._params[name] = Constant(name, value)
        elif value is not None:
            if not isinstance(param, Constant):
                raise ValueError("Parameter '{}' already exists but it is not a constant.".format(name))
            value = value.asnumpy() if isinstance(value, nd.NDArray) else np.asarray(value)
            if param.shape != value.shape or not (param.value.asnumpy() == value).all():
                raise ValueError("Constant '{}' already exists but it's value doesn't match new value".format(name))
        return param

    def update(self, other):
        """Adds other's Parameters; a name may not stand for two different Parameters."""
        for k, v in other.items():
            if k in self._params and self._params[k] is not v:
                raise ValueError("Cannot update self with other because they have different Parameters with the "
                                 "same name '%s'" % k)
        for k, v in other.items():
            self._params[k] = v

    def initialize(self, init=DEFAULT_INIT, ctx=None, verbose=False, force_reinit=False):
        """Initializes every Parameter: its own init if it has one, else init."""
        if verbose:
            init.set_verbosity(verbose=verbose)
        for v in self.values():
            v.initialize(None, ctx, init, force_reinit=force_reinit)

    def zero_grad(self):
        """Sets every gradient to 0, in one operator (reset_arrays, as MXNet's)."""
        grads = [g for p in self.values() for g in p._grad or ()]
        if grads:
            nd.reset_arrays(*grads, num_arrays=len(grads))

    def reset_ctx(self, ctx):
        for p in self.values():
            p.reset_ctx(ctx)

    def list_ctx(self):
        seen = []
        for p in self.values():
            seen += [c for c in p.list_ctx() if c not in seen]
        return seen

    def setattr(self, name, value):
        """Sets attribute name (e.g. 'grad_req', 'lr_mult') on every Parameter."""
        for p in self.values():
            setattr(p, name, value)

    def save(self, filename, strip_prefix=""):
        """Saves {name without strip_prefix: data} with mx.nd.save."""
        arg_dict = {}
        for param in self.values():
            if not param.name.startswith(strip_prefix):
                raise ValueError("Prefix '%s' is to be striped before saving, but Parameter's name '%s' does not "
                                 "start with '%s'. this may be due to your Block shares parameters from other "
                                 "Blocks or you forgot to use 'with name_scope()' when creating child blocks."
                                 % (strip_prefix, param.name, strip_prefix))
            arg_dict[param.name[len(strip_prefix):]] = param._reduce()
        nd.save(filename, arg_dict)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False, restore_prefix="",
             cast_dtype=False, dtype_source="current"):
        """Loads what save wrote (restore_prefix put back in front of every name)."""
        if restore_prefix:
            for name in self.keys():
                if not name.startswith(restore_prefix):
                    raise ValueError("restore_prefix is '%s' but Parameters name '%s' does not start with '%s'"
                                     % (restore_prefix, name, restore_prefix))
        loaded = nd.load(filename)
        if not isinstance(loaded, dict):
            raise ValueError("'%s' holds a list of arrays, not the named parameters that save writes" % filename)
        self.load_dict({restore_prefix + k[4:] if k.startswith(("arg:", "aux:")) else restore_prefix + k: v
                        for k, v in loaded.items()}, ctx, allow_missing, ignore_extra, filename, cast_dtype,
                       dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False, filename=None,
                  cast_dtype=False, dtype_source="current"):
        """Loads {name: NDArray}, checking that the names match unless told otherwise."""
        source = "file '%s'" % filename if filename else "the dict"
        if not allow_missing:
            for name in self.keys():
                if name not in param_dict:
                    raise ValueError("Parameter '%s' is missing in %s. Set allow_missing=True to ignore missing "
                                     "parameters." % (name, source))
        for name, value in param_dict.items():
            if name not in self._params:
                if not ignore_extra:
                    raise ValueError("Parameter '%s' loaded from %s is not present in ParameterDict. Set "
                                     "ignore_extra=True to ignore." % (name, source))
                continue
            self._params[name]._load_init(value, ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)


def _merge_shape(param, shape):
    """Fills the unknown (0) dimensions of param's shape from shape; False on a conflict."""
    existing = param._shape
    if len(shape) != len(existing):
        return False
    merged = []
    for want, have in zip(shape, existing):
        if want != have and want > 0 and have > 0:
            return False
        merged.append(have if want in (0, -1) else want)
    param._shape = tuple(merged)
    return True


def select_params(params, select):
    """The items of params whose names match the regular expression select (at the start)."""
    pattern = re.compile(select)
    return {name: p for name, p in params.items() if pattern.match(name)}

