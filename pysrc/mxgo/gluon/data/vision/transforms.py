"""Image transforms as Gluon Blocks, as MXNet 1.9.1's gluon.data.vision.transforms, built
on mx.nd operators and mx.image's resizing and crops (mxgo has no mx.nd.image). Images
are (height, width, channels) or batches of them (N, H, W, C); ToTensor turns them into (C, H, W) float32 in [0, 1].

The random transforms draw from mxgo's generator (``mx.random.seed`` pins them) and
decide in Python, and most transforms need their input's shape: so they run on NDArrays
even when hybridized (giving the values a graph would) and cannot be traced on Symbols.
"""
import random

import numpy as np

from .... import image
from .... import ndarray as nd
from ....base import MXNetError
from ....image.image import _interp, _resize_np
from ...block import Block, HybridBlock
from ...nn import HybridSequential, Sequential

__all__ = ["Compose", "Cast", "ToTensor", "Normalize", "Resize", "CropResize", "CenterCrop", "RandomResizedCrop",
           "Rotate", "RandomRotation", "RandomFlipLeftRight", "RandomFlipTopBottom",
           "RandomBrightness", "RandomContrast", "RandomSaturation", "RandomHue", "RandomColorJitter", "RandomLighting",
           "RandomApply"]


def _check_image(x, what, ndims=(3, 4)):
    if x.ndim not in ndims:
        raise MXNetError("%s expects an image (height, width, channels)%s, got shape %s"
                         % (what, " or a batch of them" if 4 in ndims else "", x.shape))


class _Imperative(HybridBlock):
    """A HybridBlock that runs ``hybrid_forward(mx.nd, x)`` whether hybridized or not."""

    def forward(self, x):
        if not isinstance(x, nd.NDArray):
            raise MXNetError("%s needs its input's shape: mxgo runs it on NDArrays only, it cannot be traced on "
                             "Symbols" % type(self).__name__)
        return self.hybrid_forward(nd, x)


class Compose(Sequential):
    """Applies ``transforms`` in order; runs of consecutive HybridBlocks are grouped in a
    HybridSequential, as MXNet groups them."""

    def __init__(self, transforms):
        super().__init__()
        run = []
        for t in list(transforms) + [None]:
            if isinstance(t, HybridBlock):
                run.append(t)
                continue
            if len(run) == 1:
                self.add(run[0])
            elif run:
                group = HybridSequential()
                group.add(*run)
                self.add(group)
            run = []
            if t is not None:
                self.add(t)

    def hybridize(self, active=True, **kwargs):
        # The transforms take the flag, not the groups: a group traced on Symbols would
        # hand its transforms Symbols, which they cannot take.
        for child in self._children.values():
            for t in child._children.values() if isinstance(child, HybridSequential) else [child]:
                t.hybridize(active, **kwargs)


class Cast(HybridBlock):
    """Casts the input to ``dtype``."""

    def __init__(self, dtype="float32"):
        super().__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, x):
        return F.cast(x, self._dtype)


class ToTensor(_Imperative):
    """(H, W, C) [or (N, H, W, C)] image in [0, 255] to a (C, H, W) [(N, C, H, W)] float32
    tensor in [0, 1]."""

    def hybrid_forward(self, F, x):
        _check_image(x, "ToTensor")
        axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
        return F.transpose(F.cast(x, "float32"), axes=axes) / 255.0


class Normalize(_Imperative):
    """``(x[c] - mean[c]) / std[c]`` per channel of a (C, H, W) or (N, C, H, W) tensor; a
    scalar mean or std applies to every channel."""

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean, self._std = mean, std
        self._arrays = {}  # (channels, dtype, context) -> (mean, std) as (C, 1, 1) arrays: made once, not per sample

    def _per_channel(self, v, x):
        v = np.atleast_1d(np.asarray(v, dtype=np.float32))
        channels = x.shape[-3]
        if v.size not in (1, channels):
            raise MXNetError("Normalize: mean and std need 1 or %d (the channels) values, got %d for input of shape %s"
                             % (channels, v.size, x.shape))
        return nd.array(np.broadcast_to(v, (channels,)).reshape(channels, 1, 1), ctx=x.context, dtype=x.dtype)

    def hybrid_forward(self, F, x):
        _check_image(x, "Normalize")
        key = (x.shape[-3], x.dtype, x.context)
        if key not in self._arrays:
            self._arrays[key] = (self._per_channel(self._mean, x), self._per_channel(self._std, x))
        mean, std = self._arrays[key]
        return F.broadcast_div(F.broadcast_sub(x, mean), std)


def _resize(x, width, height, interpolation):
    """(H, W, C) or (N, H, W, C) ``x`` resized as OpenCV's resize (mx.image's)."""
    out = _resize_np(x.asnumpy(), width, height, _interp(1 if interpolation is None else interpolation))
    return nd.array(out, ctx=x.context, dtype=x.dtype)


def _pair(size):
    return (size, size) if isinstance(size, (int, np.integer)) else tuple(size)


class Resize(_Imperative):
    """Resizes an image (or batch) to ``size``, (width, height) or one int: both sides,
    or with ``keep_ratio`` the shorter side (the other scaled and truncated), as MXNet's."""

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super().__init__()
        _interp(interpolation)
        self._size, self._keep, self._interpolation = size, keep_ratio, interpolation

    def hybrid_forward(self, F, x):
        _check_image(x, "Resize")
        h, w = x.shape[-3], x.shape[-2]
        if isinstance(self._size, (int, np.integer)) and self._keep:
            size = (self._size, int(h * self._size / w)) if h > w else (int(w * self._size / h), self._size)
        else:
            size = _pair(self._size)
        if min(size) <= 0:
            raise MXNetError("Resize: the output size %s must be positive" % (size,))
        return _resize(x, *size, self._interpolation)


class CropResize(_Imperative):
    """The ``width`` x ``height`` crop at (``x``, ``y``) of an image (or batch), resized
    to ``size`` ((width, height) or one int) when given, as MXNet's (whose default
    interpolation=None fails there; here it is bilinear)."""

    def __init__(self, x, y, width, height, size=None, interpolation=None):
        super().__init__()
        if interpolation is not None:
            _interp(interpolation)
        self._box, self._size, self._interpolation = (x, y, width, height), size, interpolation

    def hybrid_forward(self, F, x):
        _check_image(x, "CropResize")
        x0, y0, w, h = self._box
        if x0 < 0 or y0 < 0 or w <= 0 or h <= 0 or x0 + w > x.shape[-2] or y0 + h > x.shape[-3]:
            raise MXNetError("CropResize: the crop (x=%d, y=%d, width=%d, height=%d) must lie inside the image of "
                             "shape %s" % (x0, y0, w, h, x.shape))
        out = x[:, y0:y0 + h, x0:x0 + w] if x.ndim == 4 else x[y0:y0 + h, x0:x0 + w]
        return _resize(out, *_pair(self._size), self._interpolation) if self._size else out


class CenterCrop(Block):
    """Crops the centre of an (H, W, C) image to ``size`` ((width, height) or one int);
    an image smaller than that is cropped to its aspect ratio and scaled up, as MXNet's
    (mx.image.center_crop)."""

    def __init__(self, size, interpolation=1):
        super().__init__()
        _interp(interpolation)
        self._size, self._interpolation = _pair(size), interpolation

    def forward(self, x):
        _check_image(x, "CenterCrop", (3,))
        return image.center_crop(x, self._size, self._interpolation)[0]


class RandomResizedCrop(Block):
    """A crop of random area (a fraction in ``scale`` of the image's) and aspect ratio
    (log-uniform in ``ratio``) at a random place, resized to ``size``; after 10 draws that
    do not fit, the centre crop (mx.image.random_size_crop, drawing from Python's ``random``)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        super().__init__()
        _interp(interpolation)
        self._args = (_pair(size), scale, ratio, interpolation)

    def forward(self, x):
        _check_image(x, "RandomResizedCrop", (3,))
        return image.random_size_crop(x, *self._args)[0]


class Rotate(Block):
    """Rotates float32 (C, H, W) images (or batches) by ``rotation_degrees`` about their
    centre (mx.image.imrotate)."""

    def __init__(self, rotation_degrees, zoom_in=False, zoom_out=False):
        super().__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        if x.dtype != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it after ToTensor")
        return image.imrotate(x, *self._args)


class RandomRotation(Block):
    """With probability ``rotate_with_proba``, rotates by angles uniform in
    ``angle_limits`` (mx.image.random_rotate; NumPy's generator draws, as MXNet's)."""

    def __init__(self, angle_limits, zoom_in=False, zoom_out=False, rotate_with_proba=1.0):
        super().__init__()
        if angle_limits[0] >= angle_limits[1]:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if not 0 <= rotate_with_proba <= 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args, self._p = (angle_limits, zoom_in, zoom_out), rotate_with_proba

    def forward(self, x):
        if np.random.random() > self._p:
            return x
        if x.dtype != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it after ToTensor")
        return image.random_rotate(x, *self._args)


def _chance(p):
    return nd.random.uniform(0, 1, shape=(1,)).asscalar() < p


class _RandomFlip(_Imperative):
    _axis = 1

    def hybrid_forward(self, F, x):
        _check_image(x, type(self).__name__, (3,))
        return F.flip(x, axis=self._axis) if _chance(0.5) else x


class RandomFlipLeftRight(_RandomFlip):
    """Mirrors the image left to right with probability 0.5."""


class RandomFlipTopBottom(_RandomFlip):
    """Flips the image top to bottom with probability 0.5."""

    _axis = 0


def _uniform(low, high):
    return nd.random.uniform(low, high, shape=(1,)).asscalar()


def _blend(F, x, alpha, reference):
    """``alpha * x + (1 - alpha) * reference(F, x)`` in float32, as x's dtype (a uint8
    result clipped to [0, 255] and truncated, as MXNet's random colour operators)."""
    xf = F.cast(x, "float32")
    return _saturate(F, F.broadcast_add(xf * alpha, reference(F, xf) * (1.0 - alpha)), x.dtype)


def _saturate(F, out, dtype):
    """float32 ``out`` as ``dtype``: a uint8 result clipped to [0, 255] and truncated, as MXNet's."""
    if dtype == np.uint8:
        out = F.floor(F.clip(out, 0, 255))
    return F.cast(out, dtype)


_GRAY = (0.299, 0.587, 0.114)


def _gray(F, xf):
    """The (H, W, 1) luminance of an RGB (H, W, 3) float image."""
    return F.sum(F.broadcast_mul(xf, nd.array(_GRAY, ctx=xf.context).reshape(1, 1, 3)), axis=2, keepdims=True)


def _black(F, xf):
    """Brightness blends with black."""
    return F.zeros((1, 1, 1), ctx=xf.context)


def _mean_gray(F, xf):
    """Contrast blends with the image's mean gray level."""
    return F.mean(_gray(F, xf)).reshape(1, 1, 1)


def _last_gray(F, xf):
    """Saturation blends with a gray level: MXNet 1.9.1's kernel overwrites the weighted sum
    instead of adding to it, which leaves 0.114 times the last channel; mxgo gives the
    same numbers."""
    return F.slice_axis(xf, axis=2, begin=2, end=3) * _GRAY[2]


class _RandomFactor(_Imperative):
    """``_blend(x, alpha, _reference)`` for alpha drawn from [1 - amount, 1 + amount], as
    MXNet's random colour operators."""

    _reference = staticmethod(_black)

    def __init__(self, amount):
        super().__init__()
        self._amount = float(amount)

    def hybrid_forward(self, F, x):
        _check_image(x, type(self).__name__, (3,))
        return _blend(F, x, 1.0 + _uniform(-self._amount, self._amount), self._reference)


class RandomBrightness(_RandomFactor):
    """Multiplies the image by a factor in [1 - brightness, 1 + brightness]."""


class RandomContrast(_RandomFactor):
    """Blends the image with its mean gray level by a factor in [1 - contrast, 1 + contrast]."""

    _reference = staticmethod(_mean_gray)


class RandomSaturation(_RandomFactor):
    """Blends the image with a gray level (``_last_gray``: MXNet 1.9.1's) by a factor in
    [1 - saturation, 1 + saturation]."""

    _reference = staticmethod(_last_gray)


#: per hue sector (of 6), the (b, g, r) entries of the table [p2, p1, falling, rising]
_HLS_SECTORS = ((1, 3, 0), (1, 0, 2), (3, 0, 1), (0, 2, 1), (0, 1, 3), (2, 1, 0))


def _shift_hue(F, xf, factor):
    """RGB float image ``xf`` (0-255) with its hue turned by ``factor`` of a full turn,
    through OpenCV's HLS (the conversion MXNet's kernel does), lightness and saturation kept."""
    r, g, b = (F.slice_axis(xf, axis=2, begin=c, end=c + 1) / 255.0 for c in range(3))
    vmax, vmin = F.maximum(r, F.maximum(g, b)), F.minimum(r, F.minimum(g, b))
    diff = vmax - vmin
    chroma = diff > float(np.finfo(np.float32).eps)
    light = (vmax + vmin) * 0.5
    sat = chroma * F.where(light < 0.5, diff / F.maximum(vmax + vmin, 1e-30), diff / F.maximum(2.0 - vmax - vmin, 1e-30))
    per = 60.0 / F.where(chroma, diff, F.ones_like(diff))
    hue = F.where(vmax == r, (g - b) * per, F.where(vmax == g, (b - r) * per + 120.0, (r - g) * per + 240.0))
    # float32 throughout and times 1/60, as MXNet's kernel: truncation to uint8 shows any difference
    hue = (chroma * (hue + (hue < 0) * 360.0) + float(np.float32(factor) * np.float32(360))) * float(np.float32(1 / 60))
    hue = hue - F.floor(hue / 6.0) * 6.0
    p2 = F.where(light <= 0.5, light * (1 + sat), light + sat - light * sat)
    p1 = 2 * light - p2
    sector = F.floor(hue)
    frac = hue - sector
    table = (p2, p1, p1 + (p2 - p1) * (1 - frac), p1 + (p2 - p1) * frac)
    bgr = [sum((sector == k) * table[entries[c]] for k, entries in enumerate(_HLS_SECTORS)) for c in range(3)]
    rgb = [F.where(sat == 0, light, v) for v in bgr[::-1]]
    return F.concat(*rgb, dim=2) * 255.0


class RandomHue(_Imperative):
    """Turns the hue of an RGB image by a factor drawn from [max(0, 1 - hue), 1 + hue] of
    a full turn (in OpenCV's HLS space, as MXNet's kernel)."""

    def __init__(self, hue):
        super().__init__()
        self._range = (max(0.0, 1.0 - hue), 1.0 + hue)

    def hybrid_forward(self, F, x):
        _check_rgb(x, "RandomHue")
        return _saturate(F, _shift_hue(F, F.cast(x, "float32"), _uniform(*self._range)), x.dtype)


class RandomColorJitter(_Imperative):
    """Brightness, contrast, saturation and hue jitter in a random order, as MXNet's
    ``image.random_color_jitter``: each stage whose amount is > 0 blends (or, for hue,
    turns by a fraction of a full turn) by a factor drawn from 1 + [-amount, amount]
    (hue: [-hue, hue]), the result of each stage cast to the image's dtype. With every
    amount 0 the image comes back unchanged (MXNet's kernel leaves its output unwritten)."""

    #: per stage (brightness, contrast, saturation, hue): the blend's reference (None: the
    #: hue turn) and the centre of its factor's range
    _STAGES = ((_black, 1.0), (_mean_gray, 1.0), (_last_gray, 1.0), (None, 0.0))

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self._args = (brightness, contrast, saturation, hue)

    def hybrid_forward(self, F, x):
        _check_rgb(x, "RandomColorJitter")
        out = x
        for stage in nd.random.shuffle(nd.arange(4)).asnumpy().astype(int):
            amount, (reference, centre) = self._args[stage], self._STAGES[stage]
            if amount > 0:
                factor = centre + _uniform(-amount, amount)
                out = _blend(F, out, factor, reference) if reference else \
                    _saturate(F, _shift_hue(F, F.cast(out, "float32"), factor), x.dtype)
        return x.copy() if out is x else out  # every stage makes a new array


def _check_rgb(x, what):
    _check_image(x, what, (3,))
    if x.shape[2] != 3:
        raise MXNetError("%s expects an RGB image (3 channels), got shape %s" % (what, x.shape))


#: AlexNet's PCA of ImageNet's RGB pixels: eigenvectors (columns) times their eigenvalues
_RGB_PCA = (np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
            * [55.46, 4.794, 1.148]).astype(np.float32)


class RandomLighting(_Imperative):
    """AlexNet's lighting noise: adds to an RGB image the PCA eigenvectors weighted by
    their eigenvalues times weights drawn from N(0, alpha)."""

    def __init__(self, alpha):
        super().__init__()
        self._alpha = float(alpha)

    def hybrid_forward(self, F, x):
        _check_rgb(x, "RandomLighting")
        weights = nd.random.normal(0, self._alpha, shape=(3,)).asnumpy()
        offset = nd.array(_RGB_PCA @ weights, ctx=x.context).reshape(1, 1, 3)
        return _saturate(F, F.broadcast_add(F.cast(x, "float32"), offset), x.dtype)


class RandomApply(Sequential):
    """Applies ``transforms`` (a Block) with probability ``p``."""

    def __init__(self, transforms, p=0.5):
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x):
        if self.p < random.random():
            return x
        return self.transforms(x)

