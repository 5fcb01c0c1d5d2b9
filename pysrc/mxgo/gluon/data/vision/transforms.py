"""Image transforms as Gluon Blocks, as MXNet 1.9.1's gluon.data.vision.transforms, built
on mx.nd operators (mxgo has no mx.nd.image). Images are (height, width, channels) or
batches of them (N, H, W, C); ToTensor turns them into (C, H, W) float32 in [0, 1].

The random transforms draw from mxgo's generator (``mx.random.seed`` pins them) and
decide in Python, so they run imperatively; Compose does not hybridize its children.
"""
import random

import numpy as np

from .... import ndarray as nd
from ....base import MXNetError
from ...block import HybridBlock
from ...nn import HybridSequential, Sequential

__all__ = ["Compose", "Cast", "ToTensor", "Normalize", "RandomFlipLeftRight", "RandomFlipTopBottom",
           "RandomBrightness", "RandomContrast", "RandomSaturation", "RandomLighting", "RandomApply"]


def _check_image(x, what, ndims=(3, 4)):
    if x.ndim not in ndims:
        raise MXNetError("%s expects an image (height, width, channels)%s, got shape %s"
                         % (what, " or a batch of them" if 4 in ndims else "", x.shape))


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


class Cast(HybridBlock):
    """Casts the input to ``dtype``."""

    def __init__(self, dtype="float32"):
        super().__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, x):
        return F.cast(x, self._dtype)


class ToTensor(HybridBlock):
    """(H, W, C) [or (N, H, W, C)] image in [0, 255] to a (C, H, W) [(N, C, H, W)] float32
    tensor in [0, 1]."""

    def hybrid_forward(self, F, x):
        _check_image(x, "ToTensor")
        axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
        return F.transpose(F.cast(x, "float32"), axes=axes) / 255.0


class Normalize(HybridBlock):
    """``(x[c] - mean[c]) / std[c]`` per channel of a (C, H, W) or (N, C, H, W) tensor; a
    scalar mean or std applies to every channel."""

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean, self._std = mean, std

    def _per_channel(self, v, x):
        v = np.atleast_1d(np.asarray(v, dtype=np.float32))
        channels = x.shape[-3]
        if v.size not in (1, channels):
            raise MXNetError("Normalize: mean and std need 1 or %d (the channels) values, got %d for input of shape %s"
                             % (channels, v.size, x.shape))
        return nd.array(np.broadcast_to(v, (channels,)).reshape(channels, 1, 1), ctx=x.context, dtype=x.dtype)

    def hybrid_forward(self, F, x):
        _check_image(x, "Normalize")
        return F.broadcast_div(F.broadcast_sub(x, self._per_channel(self._mean, x)), self._per_channel(self._std, x))


def _chance(p):
    return nd.random.uniform(0, 1, shape=(1,)).asscalar() < p


class _RandomFlip(HybridBlock):
    _axis = 1

    def hybrid_forward(self, F, x):
        _check_image(x, type(self).__name__, (3,))
        return F.flip(x, axis=self._axis) if _chance(0.5) else x


class RandomFlipLeftRight(_RandomFlip):
    """Mirrors the image left to right with probability 0.5."""


class RandomFlipTopBottom(_RandomFlip):
    """Flips the image top to bottom with probability 0.5."""

    _axis = 0


class _RandomFactor(HybridBlock):
    """``alpha * x + (1 - alpha) * reference`` (``_blend_with``) for alpha drawn from
    [1 - amount, 1 + amount], as MXNet's random colour operators; a uint8 image's result
    is clipped to [0, 255] and truncated, as theirs."""

    def __init__(self, amount):
        super().__init__()
        self._amount = float(amount)

    def _blend_with(self, F, x):
        raise NotImplementedError

    def hybrid_forward(self, F, x):
        _check_image(x, type(self).__name__, (3,))
        alpha = 1.0 + nd.random.uniform(-self._amount, self._amount, shape=(1,)).asscalar()
        xf = F.cast(x, "float32")
        return _saturate(F, F.broadcast_add(xf * alpha, self._blend_with(F, xf) * (1.0 - alpha)), x.dtype)


def _saturate(F, out, dtype):
    """float32 ``out`` as ``dtype``: a uint8 result clipped to [0, 255] and truncated, as MXNet's."""
    if dtype == np.uint8:
        out = F.floor(F.clip(out, 0, 255))
    return F.cast(out, dtype)


_GRAY = (0.299, 0.587, 0.114)


def _gray(F, xf):
    """The (H, W, 1) luminance of an RGB (H, W, 3) float image."""
    return F.sum(F.broadcast_mul(xf, nd.array(_GRAY, ctx=xf.context).reshape(1, 1, 3)), axis=2, keepdims=True)


class RandomBrightness(_RandomFactor):
    """Multiplies the image by a factor in [1 - brightness, 1 + brightness]."""

    def _blend_with(self, F, xf):
        return F.zeros((1, 1, 1), ctx=xf.context)


class RandomContrast(_RandomFactor):
    """Blends the image with its mean gray level by a factor in [1 - contrast, 1 + contrast]."""

    def _blend_with(self, F, xf):
        return F.mean(_gray(F, xf)).reshape(1, 1, 1)


class RandomSaturation(_RandomFactor):
    """Blends the image with a gray level by a factor in [1 - saturation, 1 + saturation].
    The gray level is MXNet 1.9.1's: its kernel overwrites the weighted sum instead of
    adding to it, which leaves 0.114 times the last channel; mxgo gives the same numbers."""

    def _blend_with(self, F, xf):
        return F.slice_axis(xf, axis=2, begin=2, end=3) * _GRAY[2]


#: AlexNet's PCA of ImageNet's RGB pixels: eigenvectors (columns) times their eigenvalues
_RGB_PCA = (np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
            * [55.46, 4.794, 1.148]).astype(np.float32)


class RandomLighting(HybridBlock):
    """AlexNet's lighting noise: adds to an RGB image the PCA eigenvectors weighted by
    their eigenvalues times weights drawn from N(0, alpha)."""

    def __init__(self, alpha):
        super().__init__()
        self._alpha = float(alpha)

    def hybrid_forward(self, F, x):
        _check_image(x, "RandomLighting", (3,))
        if x.shape[2] != 3:
            raise MXNetError("RandomLighting expects an RGB image (3 channels), got shape %s" % (x.shape,))
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

