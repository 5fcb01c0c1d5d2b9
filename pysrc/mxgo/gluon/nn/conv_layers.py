"""Convolution, transposed convolution and pooling layers (gluon.nn.Conv1D ... Conv3DTranspose,
Max/Avg/GlobalMax/GlobalAvg pooling in 1-3 D, ReflectionPad2D)."""
import numbers

from ..block import HybridBlock
from .activations import Activation

_LAYOUTS = {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _tuple(value, n, what):
    """value as an n-tuple (an int repeated)."""
    if isinstance(value, numbers.Integral):
        return (int(value),) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError("%s must be a number or a list of %d ints" % (what, n))
    return value


def _layout(layout, n, what, allowed=None):
    """layout (the channels-first one of n spatial axes when None), if allowed for what."""
    layout = layout or _LAYOUTS[n][0]
    allowed = allowed or _LAYOUTS[n]
    if layout not in allowed:
        raise ValueError("Only %s layouts are valid for %dD %s" % (" and ".join(allowed), n, what))
    return layout


class _Conv(HybridBlock):
    """Convolution (op_name 'Convolution') or its transpose ('Deconvolution') over n
    spatial axes, with an optional activation."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout, in_channels=0,
                 activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 op_name="Convolution", adj=None, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        n = len(kernel_size)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            self._op_name = op_name
            self._kwargs = {"kernel": kernel_size, "stride": _tuple(strides, n, "strides"),
                            "dilate": _tuple(dilation, n, "dilation"), "pad": _tuple(padding, n, "padding"),
                            "num_filter": channels, "num_group": groups, "no_bias": not use_bias, "layout": layout}
            if adj is not None:
                self._kwargs["adj"] = adj
            self.weight = self.params.get("weight", shape=self._weight_shape(in_channels), init=weight_initializer,
                                          allow_deferred_init=True)
            self.bias = self.params.get("bias", shape=(channels,), init=bias_initializer,
                                        allow_deferred_init=True) if use_bias else None
            self.act = Activation(activation, prefix=activation + "_") if activation is not None else None

    def _weight_shape(self, in_channels):
        kernel, groups, layout = self._kwargs["kernel"], self._kwargs["num_group"], self._kwargs["layout"]
        if self._op_name == "Deconvolution":
            outer, inner = in_channels, self._channels // groups
        else:
            outer, inner = self._channels, in_channels // groups
        return (outer,) + tuple(kernel) + (inner,) if layout[-1] == "C" else (outer, inner) + tuple(kernel)

    def infer_shape(self, x, *args):
        self.weight.shape = self._weight_shape(x.shape[self._kwargs["layout"].find("C")])

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        out = op(x, weight, **self._kwargs) if bias is None else op(x, weight, bias, **self._kwargs)
        return self.act(out) if self.act is not None else out

    def _alias(self):
        return "conv"

    def __repr__(self):
        n = len(self._kwargs["kernel"])
        s = "{name}({mapping}, kernel_size={kernel}, stride={stride}"
        if self._kwargs["pad"] != (0,) * n:
            s += ", padding={pad}"
        if self._kwargs["dilate"] != (1,) * n:
            s += ", dilation={dilate}"
        if getattr(self, "out_pad", (0,) * n) != (0,) * n:
            s += ", output_padding={out_pad}".format(out_pad=self.out_pad)
        if self._kwargs["num_group"] != 1:
            s += ", groups={num_group}"
        if self.bias is None:
            s += ", bias=False"
        if self.act:
            s += ", {}".format(self.act)
        shape = self.weight.shape
        return (s + ")").format(name=self.__class__.__name__,
                                mapping="{0} -> {1}".format(shape[1] if shape[1] else None, shape[0]),
                                **self._kwargs)


class _ConvN(_Conv):
    """A convolution over NDIM spatial axes."""

    NDIM = 0

    def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1, groups=1, layout=None,
                 activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros", in_channels=0,
                 **kwargs):
        n = self.NDIM
        layout = _layout(layout, n, "convolution", _LAYOUTS[n][:1] if n == 1 else None)
        super().__init__(channels, _tuple(kernel_size, n, "kernel_size"), strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         kwargs.pop("op_name", "Convolution"), **kwargs)


class _ConvNTranspose(_Conv):
    """A transposed convolution over NDIM spatial axes."""

    NDIM = 0

    def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0, dilation=1, groups=1,
                 layout=None, activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 in_channels=0, **kwargs):
        n = self.NDIM
        layout = _layout(layout, n, "transposed convolution", _LAYOUTS[n][:1] if n == 1 else None)
        output_padding = _tuple(output_padding, n, "output_padding")
        super().__init__(channels, _tuple(kernel_size, n, "kernel_size"), strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name=kwargs.pop("op_name", "Deconvolution"), adj=output_padding, **kwargs)
        self.outpad = output_padding  # MXNet's repr looks for out_pad, so never shows it


class Conv1D(_ConvN):
    """1-D convolution over (N, C, W)."""
    NDIM = 1


class Conv2D(_ConvN):
    """2-D convolution over (N, C, H, W) (or NHWC)."""
    NDIM = 2


class Conv3D(_ConvN):
    """3-D convolution over (N, C, D, H, W) (or NDHWC)."""
    NDIM = 3


class Conv1DTranspose(_ConvNTranspose):
    """1-D transposed convolution."""
    NDIM = 1


class Conv2DTranspose(_ConvNTranspose):
    """2-D transposed convolution."""
    NDIM = 2


class Conv3DTranspose(_ConvNTranspose):
    """3-D transposed convolution."""
    NDIM = 3


class _Pooling(HybridBlock):
    """Pooling of pool_type over the spatial axes (global_pool: all of them)."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super().__init__(**kwargs)
        n = len(pool_size)
        self._kwargs = {"kernel": pool_size, "stride": _tuple(pool_size if strides is None else strides, n, "strides"),
                        "pad": _tuple(padding, n, "padding"), "global_pool": global_pool, "pool_type": pool_type,
                        "layout": layout, "pooling_convention": "full" if ceil_mode else "valid"}
        if count_include_pad is not None:
            self._kwargs["count_include_pad"] = count_include_pad

    def _alias(self):
        return "pool"

    def hybrid_forward(self, F, x):
        return F.Pooling(x, **self._kwargs)

    def __repr__(self):
        s = "{name}(size={kernel}, stride={stride}, padding={pad}, ceil_mode={ceil_mode}"
        s += ", global_pool={global_pool}, pool_type={pool_type}, layout={layout})"
        return s.format(name=self.__class__.__name__, ceil_mode=self._kwargs["pooling_convention"] == "full",
                        **self._kwargs)


class _PoolN(_Pooling):
    """Max or average pooling over NDIM spatial axes."""

    NDIM, TYPE = 0, ""

    def __init__(self, pool_size=2, strides=None, padding=0, layout=None, ceil_mode=False, count_include_pad=True,
                 **kwargs):
        n = self.NDIM
        layout = _layout(layout, n, "Pooling")
        super().__init__(_tuple(pool_size, n, "pool_size"), strides, padding, ceil_mode, False, self.TYPE, layout,
                         count_include_pad if self.TYPE == "avg" else None, **kwargs)


class _GlobalPoolN(_Pooling):
    """Max or average over all NDIM spatial axes."""

    NDIM, TYPE = 0, ""

    def __init__(self, layout=None, **kwargs):
        n = self.NDIM
        layout = _layout(layout, n, "Pooling")
        super().__init__((1,) * n, None, 0, True, True, self.TYPE, layout, **kwargs)


class MaxPool1D(_PoolN):
    """Max pooling over W."""
    NDIM, TYPE = 1, "max"


class MaxPool2D(_PoolN):
    """Max pooling over H, W."""
    NDIM, TYPE = 2, "max"


class MaxPool3D(_PoolN):
    """Max pooling over D, H, W."""
    NDIM, TYPE = 3, "max"


class AvgPool1D(_PoolN):
    """Average pooling over W."""
    NDIM, TYPE = 1, "avg"


class AvgPool2D(_PoolN):
    """Average pooling over H, W."""
    NDIM, TYPE = 2, "avg"


class AvgPool3D(_PoolN):
    """Average pooling over D, H, W."""
    NDIM, TYPE = 3, "avg"


class GlobalMaxPool1D(_GlobalPoolN):
    """Max over W."""
    NDIM, TYPE = 1, "max"


class GlobalMaxPool2D(_GlobalPoolN):
    """Max over H, W."""
    NDIM, TYPE = 2, "max"


class GlobalMaxPool3D(_GlobalPoolN):
    """Max over D, H, W."""
    NDIM, TYPE = 3, "max"


class GlobalAvgPool1D(_GlobalPoolN):
    """Mean over W."""
    NDIM, TYPE = 1, "avg"


class GlobalAvgPool2D(_GlobalPoolN):
    """Mean over H, W."""
    NDIM, TYPE = 2, "avg"


class GlobalAvgPool3D(_GlobalPoolN):
    """Mean over D, H, W."""
    NDIM, TYPE = 3, "avg"


class ReflectionPad2D(HybridBlock):
    """Pads H and W of (N, C, H, W) by reflection: padding an int or MXNet's 8-tuple pad_width."""

    def __init__(self, padding=0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, numbers.Integral):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise ValueError("ReflectionPad2D's padding is an int or 8 numbers, not %r" % (padding,))
        self._padding = padding

    def hybrid_forward(self, F, x):
        return F.pad(x, mode="reflect", pad_width=self._padding)
