"""Weight initializers (mx.init, mx.initializer), as MXNet 1.x has them.

An initializer is called with a name (an InitDesc, a str subclass that may carry the
variable's attributes) and an NDArray that it fills in place. The name's ending picks what
is filled: "weight" gets the initializer's own rule, "bias" and "beta" zeros, "gamma" ones,
"moving_mean"/"moving_var" (by plain name) zeros and ones; an ``'__init__'`` attribute names
another initializer for that one variable, which is how a Gluon Parameter's own ``init``
overrides the global one.
"""
import json
import logging
import re

import numpy as np

from . import ndarray as nd
from .ndarray import random
from .registry import get_alias_func, get_create_func, get_register_func


class InitDesc(str):
    """A variable's name with its attributes (``attrs``, e.g. ``{'__init__': ...}``) and the
    global initializer to fall back to."""

    def __new__(cls, name, attrs=None, global_init=None):
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


class Initializer:
    """The base class of an initializer: subclasses define ``_init_weight``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Log every initialized array (with ``print_func(arr)``, default its L2 norm per element)."""
        self._verbose = verbose
        self._print_func = print_func or (lambda x: str((nd.norm(x) / np.sqrt(x.size)).asscalar()))
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, init, self._print_func(arr))

    def dumps(self):
        """The JSON config ``["name", {kwargs}]`` that ``mx.init.create`` reads back."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get("__init__", "")
        if init:
            create(init)._init_weight(desc, arr)
            self._verbose_print(desc, init, arr)
            return
        for suffix, method in _BY_SUFFIX:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        self._init_default(desc, arr)

    def _legacy_init(self, name, arr):
        """The rule for plain names (Module's variables), by prefix and suffix."""
        if not isinstance(name, str):
            raise TypeError("name must be string")
        if not isinstance(arr, nd.NDArray):
            raise TypeError("arr must be NDArray")
        if name.startswith("upsampling"):
            self._init_bilinear(name, arr)
        elif name.startswith("stn_loc") and name.endswith("weight"):
            self._init_zero(name, arr)
        elif name.startswith("stn_loc") and name.endswith("bias"):
            self._init_loc_bias(name, arr)
        else:
            for suffix, method in _LEGACY_SUFFIX:
                if name.endswith(suffix):
                    getattr(self, method)(name, arr)
                    return
            self._init_default(name, arr)

    def _init_bilinear(self, _, arr):
        arr[:] = _bilinear(arr.shape)

    def _init_loc_bias(self, _, arr):
        if arr.shape[0] != 6:
            raise ValueError("a spatial transformer's localisation bias has 6 elements, not %d" % arr.shape[0])
        arr[:] = np.array([1.0, 0, 0, 0, 1.0, 0])

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_weight(self, name, arr):
        raise NotImplementedError("%s must override _init_weight" % type(self).__name__)

    def _init_default(self, name, _):
        raise ValueError('Unknown initialization pattern for %s. Default initialization is now limited to '
                         '"weight", "bias", "gamma" (1.0), and "beta" (0.0). Please use '
                         'mx.sym.Variable(init=mx.init.*) to set initialization pattern' % name)

    def __eq__(self, other):
        return isinstance(other, Initializer) and self.dumps() == other.dumps()

    __hash__ = object.__hash__

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % kv for kv in self._kwargs.items()))


#: which method fills a variable, by the ending of its name (first match wins, as in MXNet)
_BY_SUFFIX = (("weight", "_init_weight"), ("bias", "_init_bias"), ("gamma", "_init_gamma"),
              ("beta", "_init_beta"), ("min", "_init_zero"), ("max", "_init_one"))
_LEGACY_SUFFIX = (("bias", "_init_bias"), ("gamma", "_init_gamma"), ("beta", "_init_beta"),
                  ("weight", "_init_weight"), ("moving_mean", "_init_zero"), ("moving_var", "_init_one"),
                  ("moving_inv_var", "_init_zero"), ("moving_avg", "_init_zero"), ("min", "_init_zero"),
                  ("max", "_init_one"))

register = get_register_func(Initializer, "initializer")
alias = get_alias_func(Initializer, "initializer")
create = get_create_func(Initializer, "initializer")


def _bilinear(shape):
    """The bilinear upsampling kernel of shape (..., h, w), computed as MXNet does."""
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    i = np.arange(int(np.prod(shape)))
    x, y = i % shape[3], (i // shape[3]) % shape[2]
    return ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype(np.float32).reshape(shape)


class Load:
    """Initializes variables from a file or dict of arrays (``arg:``/``aux:`` prefixes
    dropped), falling back to ``default_init`` for names it lacks."""

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, str):
            param = nd.load(param)
        if not isinstance(param, dict):
            raise TypeError("Load needs a dict of name to NDArray (or a file holding one)")
        self.param = {(k[4:] if k.startswith(("arg:", "aux:")) else k): v for k, v in param.items()}
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            if arr.shape != self.param[name].shape:
                raise ValueError("Parameter %s cannot be initialized from loading. Shape mismatch, target %s vs "
                                 "loaded %s" % (name, arr.shape, self.param[name].shape))
            arr[:] = self.param[name]
            how = "loading"
        elif self.default_init is None:
            raise ValueError("Cannot Initialize %s. Not found in loaded param and no default Initializer is "
                             "provided." % name)
        else:
            self.default_init(name, arr)
            how = "default"
        if self.verbose:
            logging.info("Initialized %s by %s", name, how)


class Mixed:
    """Initializes each variable with the initializer of the first pattern (a regular
    expression, matched at the start of the name) that matches its name."""

    def __init__(self, patterns, initializers):
        if len(patterns) != len(initializers):
            raise ValueError("Mixed needs one initializer per pattern")
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError('Parameter name %s did not match any pattern. Consider add a ".*" pattern at the and '
                         'with default Initializer.' % name)


@register
@alias("zeros")
class Zero(Initializer):
    """Fills with 0."""

    def _init_weight(self, _, arr):
        arr[:] = 0


@register
@alias("ones")
class One(Initializer):
    """Fills with 1."""

    def _init_weight(self, _, arr):
        arr[:] = 1


@register
class Constant(Initializer):
    """Fills with ``value`` (a scalar or an array that broadcasts to the variable)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        arr[:] = self.value

    def dumps(self):
        val = self._kwargs["value"]
        if not np.isscalar(val):
            val = val.tolist() if hasattr(val, "tolist") else list(val)
        return json.dumps([self.__class__.__name__.lower(), {"value": val}])


@register
class Uniform(Initializer):
    """Samples uniformly from [-scale, scale]."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        random.uniform(-self.scale, self.scale, arr.shape, out=arr)


@register
class Normal(Initializer):
    """Samples from a normal distribution of mean 0 and standard deviation sigma."""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        random.normal(0, self.sigma, arr.shape, out=arr)


@register
class Orthogonal(Initializer):
    """An orthogonal matrix (of the variable flattened to 2-D) times scale, from the SVD
    of a uniform ('uniform') or normal ('normal') sample."""

    def __init__(self, scale=1.414, rand_type="uniform"):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        shape = (arr.shape[0], int(np.prod(arr.shape[1:])))
        if self.rand_type == "uniform":
            tmp = random.uniform(-1.0, 1.0, shape=shape).asnumpy()
        elif self.rand_type == "normal":
            tmp = random.normal(0.0, 1.0, shape=shape).asnumpy()
        else:
            raise ValueError("Orthogonal's rand_type is 'uniform' or 'normal', not %r" % (self.rand_type,))
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        arr[:] = self.scale * (u if u.shape == tmp.shape else v).reshape(arr.shape)


@register
class Xavier(Initializer):
    """Glorot's initialization: scale = sqrt(magnitude / factor), factor the fan in, out or
    their mean ('avg'), with receptive fields counted; uniform in [-scale, scale] or
    normal with sigma = scale ('gaussian')."""

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError("Xavier initializer cannot be applied to vector {0}. It requires at least 2D."
                             .format(name))
        hw_scale = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fans = {"in": shape[1] * hw_scale, "out": shape[0] * hw_scale}
        fans["avg"] = (fans["in"] + fans["out"]) / 2.0
        if self.factor_type not in fans:
            raise ValueError("Incorrect factor type")
        scale = np.sqrt(self.magnitude / fans[self.factor_type])
        if self.rnd_type == "uniform":
            random.uniform(-scale, scale, arr.shape, out=arr)
        elif self.rnd_type == "gaussian":
            random.normal(0, scale, arr.shape, out=arr)
        else:
            raise ValueError("Unknown random type")


@register
class MSRAPrelu(Xavier):
    """He's initialization for PReLU networks: Xavier gaussian with magnitude 2/(1+slope²)."""

    def __init__(self, factor_type="avg", slope=0.25):
        super().__init__("gaussian", factor_type, 2.0 / (1 + slope ** 2))
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """The bilinear interpolation kernel (for Deconvolution used as upsampling)."""

    def _init_weight(self, _, arr):
        arr[:] = _bilinear(arr.shape)


@register
class LSTMBias(Initializer):
    """Zeros, except forget_bias in the forget gate (the second quarter) of an LSTM bias."""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        arr[:] = 0.0
        num_hidden = arr.shape[0] // 4
        arr[num_hidden:2 * num_hidden] = self.forget_bias


#: the gates of each fused RNN mode, in the order of the packed blob
_GATES = {"rnn_relu": [""], "rnn_tanh": [""], "lstm": ["_i", "_f", "_c", "_o"], "gru": ["_r", "_z", "_o"]}


@register
class FusedRNN(Initializer):
    """Fills the one flat parameter blob of a fused RNN (MXNet's cuDNN layout: every layer's
    and direction's per-gate i2h then h2h weights, then their biases) by applying ``init``
    (the global initializer when None) to each named piece, as ``l0_i2h_f_weight``; LSTM
    forget-gate biases get ``forget_bias``."""

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False, forget_bias=1.0):
        if isinstance(init, str):
            klass, kwargs = json.loads(init)
            init = create(klass.lower(), **kwargs)
        if mode not in _GATES:
            raise ValueError("FusedRNN: mode must be one of %s, got %r" % (", ".join(_GATES), mode))
        super().__init__(init=init.dumps() if init is not None else None, num_hidden=num_hidden,
                         num_layers=num_layers, mode=mode, bidirectional=bidirectional, forget_bias=forget_bias)
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _pieces(self, size):
        """(name, shape) of each piece of a blob of ``size`` elements, in the blob's order."""
        gates, h, layers = _GATES[self._mode], self._num_hidden, self._num_layers
        dirs = ["l", "r"] if self._bidirectional else ["l"]
        b, m = len(dirs), len(gates)
        num_input = size // b // h // m - (layers - 1) * (h + b * h + 2) - h - 2
        weights, biases = [], []
        for layer in range(layers):
            for d in dirs:
                for kind, shape in (("i2h", (h, num_input if layer == 0 else b * h)), ("h2h", (h, h))):
                    weights += [("%s%d_%s%s_weight" % (d, layer, kind, g), shape) for g in gates]
                    biases += [("%s%d_%s%s_bias" % (d, layer, kind, g), (h,)) for g in gates]
        pieces = weights + biases
        if num_input <= 0 or sum(int(np.prod(s)) for _, s in pieces) != size:
            raise ValueError("FusedRNN: a blob of %d elements is not a %d-layer %s%s of %d hidden units"
                             % (size, layers, "bidirectional " if b == 2 else "", self._mode, h))
        return pieces

    def _init_weight(self, desc, arr):
        if arr.ndim != 1:
            raise ValueError("FusedRNN fills a flat parameter blob, got shape %s" % (arr.shape,))
        start = 0
        for name, shape in self._pieces(arr.size):
            n = int(np.prod(shape))
            piece = arr[start:start + n].reshape(shape).copy()
            if self._mode == "lstm" and name.endswith("_f_bias"):
                piece[:] = self._forget_bias
            else:
                (self._init or desc.global_init)(InitDesc(name, global_init=desc.global_init), piece)
            arr[start:start + n] = piece.reshape((n,))
            start += n
