"""Containers and basic layers (gluon.nn.Sequential, HybridSequential, Dense, Dropout,
the normalizations, Embedding, Flatten, Lambda, HybridLambda)."""
import warnings

import numpy as np

from ... import ndarray as nd
from ..block import Block, HybridBlock
from ..utils import indent
from .activations import Activation


def _container_repr(block):
    modstr = "\n".join("  ({key}): {block}".format(key=key, block=indent(repr(child), 2))
                       for key, child in block._children.items())
    return "{name}(\n{modstr}\n)".format(name=block.__class__.__name__, modstr=modstr)


def _kwargs_repr(block, extra=""):
    content = ", ".join("=".join([k, repr(v)]) for k, v in block._kwargs.items())
    return "{name}({content}{extra})".format(name=block.__class__.__name__, content=content, extra=extra)


class _Stack:
    """What Sequential and HybridSequential share: add, indexing, len, repr."""

    _is_container = True

    def add(self, *blocks):
        """Appends blocks, run in the order added."""
        for block in blocks:
            self.register_child(block)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if not isinstance(layers, list):
            return layers
        net = type(self)(prefix=self._prefix)
        with net.name_scope():
            net.add(*layers)
        return net

    def __len__(self):
        return len(self._children)

    def __repr__(self):
        return _container_repr(self)


class Sequential(_Stack, Block):
    """Runs its children one after the other."""

    def forward(self, x):
        for block in self._children.values():
            x = block(x)
        return x

    def hybridize(self, active=True, **kwargs):
        if self._children and all(isinstance(c, HybridBlock) for c in self._children.values()):
            warnings.warn("All children of this Sequential layer '%s' are HybridBlocks. Consider using "
                          "HybridSequential for the best performance." % self.prefix, stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(_Stack, HybridBlock):
    """Runs its HybridBlock children one after the other."""

    def hybrid_forward(self, F, x):
        for block in self._children.values():
            x = block(x)
        return x


class Dense(HybridBlock):
    """A fully connected layer: activation(dot(x, weight.T) + bias), x flattened to 2-D
    unless flatten=False (then over the last axis)."""

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype="float32",
                 weight_initializer=None, bias_initializer="zeros", in_units=0, **kwargs):
        super().__init__(**kwargs)
        self._flatten = flatten
        with self.name_scope():
            self._units = units
            self._in_units = in_units
            self.weight = self.params.get("weight", shape=(units, in_units), init=weight_initializer, dtype=dtype,
                                          allow_deferred_init=True)
            self.bias = self.params.get("bias", shape=(units,), init=bias_initializer, dtype=dtype,
                                        allow_deferred_init=True) if use_bias else None
            self.act = Activation(activation, prefix=activation + "_") if activation is not None else None

    def infer_shape(self, x, *args):
        in_units = int(np.prod(x.shape[1:])) if self._flatten else x.shape[-1]
        self.weight.shape = (self._units, in_units)

    def hybrid_forward(self, F, x, weight, bias=None):
        out = F.FullyConnected(x, weight, bias, no_bias=bias is None, num_hidden=self._units, flatten=self._flatten)
        return self.act(out) if self.act is not None else out

    def __repr__(self):
        shape = self.weight.shape
        return "{name}({layout}, {act})".format(name=self.__class__.__name__, act=self.act if self.act else "linear",
                                                layout="{0} -> {1}".format(shape[1] if shape[1] else None, shape[0]))


class Dropout(HybridBlock):
    """Zeroes elements with probability rate while training (whole slices along axes),
    scaling the rest by 1/(1-rate); the identity otherwise."""

    def __init__(self, rate, axes=(), **kwargs):
        super().__init__(**kwargs)
        self._rate = rate
        self._axes = axes

    def hybrid_forward(self, F, x):
        if self._rate > 0:
            return F.Dropout(x, p=self._rate, axes=self._axes, cudnn_off=False)
        return F.identity(x)

    def __repr__(self):
        return "{name}(p = {_rate}, axes={_axes})".format(name=self.__class__.__name__, **self.__dict__)


def _channel_params(block, in_channels, center, scale, beta_init, gamma_init, differentiable=False):
    """gamma and beta of shape (in_channels,), each trained only if scale / center."""
    extra = {"differentiable": scale} if differentiable else {}
    block.gamma = block.params.get("gamma", grad_req="write" if scale else "null", shape=(in_channels,),
                                   init=gamma_init, allow_deferred_init=True, **extra)
    extra = {"differentiable": center} if differentiable else {}
    block.beta = block.params.get("beta", grad_req="write" if center else "null", shape=(in_channels,),
                                  init=beta_init, allow_deferred_init=True, **extra)


class _BatchNorm(HybridBlock):
    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True, use_global_stats=False,
                 fuse_relu=False, beta_initializer="zeros", gamma_initializer="ones",
                 running_mean_initializer="zeros", running_variance_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats}
        self.fuse_relu = fuse_relu
        if in_channels != 0:
            self.in_channels = in_channels
        _channel_params(self, in_channels, center, scale, beta_initializer, gamma_initializer, differentiable=True)
        self.running_mean = self.params.get("running_mean", grad_req="null", shape=(in_channels,),
                                            init=running_mean_initializer, allow_deferred_init=True,
                                            differentiable=False)
        self.running_var = self.params.get("running_var", grad_req="null", shape=(in_channels,),
                                           init=running_variance_initializer, allow_deferred_init=True,
                                           differentiable=False)

    def infer_shape(self, x, *args):
        channels = x.shape[self._kwargs["axis"]]
        for p in (self.gamma, self.beta, self.running_mean, self.running_var):
            p.shape = (channels,)

    def cast(self, dtype):
        if np.dtype(dtype).name == "float16":
            dtype = "float32"  # statistics stay float32, as in MXNet
        super().cast(dtype)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        out = F.BatchNorm(x, gamma, beta, running_mean, running_var, **self._kwargs)
        return F.relu(out) if self.fuse_relu else out

    def __repr__(self):
        in_channels = self.gamma.shape[0]
        return _kwargs_repr(self, ", in_channels={0}".format(in_channels if in_channels else None))


class BatchNorm(_BatchNorm):
    """Batch normalization: batch statistics while training (updating the running ones by
    momentum), the running statistics otherwise."""

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True, use_global_stats=False,
                 beta_initializer="zeros", gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", in_channels=0, **kwargs):
        super().__init__(axis, momentum, epsilon, center, scale, use_global_stats, False, beta_initializer,
                         gamma_initializer, running_mean_initializer, running_variance_initializer, in_channels,
                         **kwargs)


class BatchNormReLU(_BatchNorm):
    """BatchNorm followed by ReLU."""

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True, use_global_stats=False,
                 beta_initializer="zeros", gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", in_channels=0, **kwargs):
        super().__init__(axis, momentum, epsilon, center, scale, use_global_stats, True, beta_initializer,
                         gamma_initializer, running_mean_initializer, running_variance_initializer, in_channels,
                         **kwargs)


class Embedding(HybridBlock):
    """Rows of weight (input_dim, output_dim) picked by integer indices."""

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None, sparse_grad=False,
                 **kwargs):
        if sparse_grad:
            raise ValueError("Embedding(sparse_grad=True) needs row_sparse gradients: mxgo has no sparse storage")
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype, "sparse_grad": sparse_grad}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim), init=weight_initializer, dtype=dtype,
                                      allow_deferred_init=True)

    def hybrid_forward(self, F, x, weight):
        return F.Embedding(x, weight, **self._kwargs)

    def __repr__(self):
        return "{block_name}({input_dim} -> {output_dim}, {dtype})".format(block_name=self.__class__.__name__,
                                                                           **self._kwargs)


class Flatten(HybridBlock):
    """Reshapes (N, ...) to (N, prod(...))."""

    def hybrid_forward(self, F, x):
        return F.flatten(x)

    def __repr__(self):
        return self.__class__.__name__


class InstanceNorm(HybridBlock):
    """Normalizes each sample's each channel over its spatial axes."""

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        _channel_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def infer_shape(self, x, *args):
        self.gamma.shape = self.beta.shape = (x.shape[self._axis],)

    def hybrid_forward(self, F, x, gamma, beta):
        if self._axis == 1:
            return F.InstanceNorm(x, gamma, beta, eps=self._epsilon)
        x = x.swapaxes(1, self._axis)
        return F.InstanceNorm(x, gamma, beta, eps=self._epsilon).swapaxes(1, self._axis)

    def __repr__(self):
        return _kwargs_repr(self, ", in_channels={0}".format(self.gamma.shape[0]))


class LayerNorm(HybridBlock):
    """Normalizes over axis (the last by default), then scales by gamma and shifts by beta."""

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        _channel_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def infer_shape(self, data, *args):
        self.gamma.shape = self.beta.shape = (data.shape[self._axis],)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.LayerNorm(data, gamma=gamma, beta=beta, axis=self._axis, eps=self._epsilon)

    def __repr__(self):
        return _kwargs_repr(self, ", in_channels={0}".format(self.gamma.shape[0]))


class GroupNorm(HybridBlock):
    """Normalizes each sample over groups of channels; gamma and beta per group."""

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center, "scale": scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        _channel_params(self, num_groups, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.GroupNorm(data, gamma=gamma, beta=beta, num_groups=self._num_groups, eps=self._epsilon)

    def __repr__(self):
        return _kwargs_repr(self)


def _function(function):
    if isinstance(function, str):
        if not hasattr(nd, function):
            raise ValueError("Function name %s is not found in ndarray." % function)
        return getattr(nd, function), function
    if callable(function):
        return function, function.__name__
    raise ValueError("Unrecognized function in lambda: {} of type {}".format(function, type(function)))


class Lambda(Block):
    """A Block of a function of NDArrays (or the name of an mx.nd operator)."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        self._func_impl, self._func_name = _function(function)

    def forward(self, *args):
        return self._func_impl(*args)

    def __repr__(self):
        return "{name}({function})".format(name=self.__class__.__name__, function=self._func_name)


class HybridLambda(HybridBlock):
    """A HybridBlock of ``function(F, x, *args)`` (or the name of an operator)."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        func, self._func_name = _function(function)
        self._func = (lambda F, *args: getattr(F, function)(*args)) if isinstance(function, str) else func

    def hybrid_forward(self, F, x, *args):
        return self._func(F, x, *args)

    def __repr__(self):
        return "{name}({function})".format(name=self.__class__.__name__, function=self._func_name)
