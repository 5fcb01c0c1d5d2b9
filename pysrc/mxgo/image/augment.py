"""MXNet 1.9.1's image Augmenters (callables on (H, W, C) NDArrays) and CreateAugmenter,
the list of them that ImageIter applies. They draw from Python's ``random`` (and the
lighting noise from NumPy's), as MXNet's, so that a seed reproduces MXNet's draws.
"""
import json
import random

import numpy as np

from .. import ndarray as nd
from .image import _interp, center_crop, color_normalize, imresize, random_crop, random_size_crop, resize_short

__all__ = ["Augmenter", "SequentialAug", "ResizeAug", "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug",
           "CenterCropAug", "RandomOrderAug", "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug",
           "HueJitterAug", "ColorJitterAug", "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug",
           "CastAug", "CreateAugmenter"]

_LUMA = (0.299, 0.587, 0.114)


class _Dumped:
    """Keeps its arguments (arrays as lists) for ``dumps``, which writes ``[class name in
    lower case, arguments]`` as JSON; the base of Augmenter and detection's DetAugmenter."""

    def __init__(self, **kwargs):
        self._kwargs = {k: (v.asnumpy() if isinstance(v, nd.NDArray) else v) for k, v in kwargs.items()}
        self._kwargs = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self._kwargs.items()}

    def dumps(self):
        return json.dumps([type(self).__name__.lower(), self._kwargs])


class Augmenter(_Dumped):
    """Base class of the image augmenters: called with an image, returns an image."""

    def __call__(self, src):
        raise NotImplementedError("Must override implementation.")


class SequentialAug(Augmenter):
    """Applies the augmenters ``ts`` in order."""

    def __init__(self, ts):
        super().__init__()
        self.ts = ts

    def dumps(self):
        return [type(self).__name__.lower(), [t.dumps() for t in self.ts]]

    def __call__(self, src):
        for t in self.ts:
            src = t(src)
        return src


class RandomOrderAug(SequentialAug):
    """Applies the augmenters ``ts`` in a random order (shuffled in place, as MXNet's)."""

    def __call__(self, src):
        random.shuffle(self.ts)
        return super().__call__(src)


class _Sized(Augmenter):
    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp


class ResizeAug(_Sized):
    """Resizes the shorter side to ``size``."""

    def __call__(self, src):
        return resize_short(src, self.size, self.interp)


class ForceResizeAug(_Sized):
    """Resizes to ``size`` (width, height)."""

    def __call__(self, src):
        sizes = (src.shape[0], src.shape[1], self.size[1], self.size[0])
        return imresize(src, *self.size, interp=_interp(self.interp, sizes))


class RandomCropAug(_Sized):
    """A random crop of ``size`` (width, height)."""

    def __call__(self, src):
        return random_crop(src, self.size, self.interp)[0]


class CenterCropAug(_Sized):
    """The central crop of ``size`` (width, height)."""

    def __call__(self, src):
        return center_crop(src, self.size, self.interp)[0]


class RandomSizedCropAug(Augmenter):
    """random_size_crop's crop of random area and aspect ratio, resized to ``size``."""

    def __init__(self, size, area, ratio, interp=2, **kwargs):
        area = kwargs.pop("min_area", area)
        if kwargs:
            raise TypeError("RandomSizedCropAug got unexpected keyword arguments %s" % sorted(kwargs))
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        self.size, self.area, self.ratio, self.interp = size, area, ratio, interp

    def __call__(self, src):
        return random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class _Jitter(Augmenter):
    """Scales by alpha = 1 + uniform(-amount, amount), then adds (1 - alpha) times the
    reference that ``_reference(src)`` gives (none: brightness)."""
    _name = ""

    def __init__(self, amount):
        super().__init__(**{self._name: amount})
        setattr(self, self._name, amount)
        self.coef = nd.array([[_LUMA]])

    def _reference(self, src):
        return None

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-getattr(self, self._name), getattr(self, self._name))
        ref = self._reference(src)
        src *= alpha
        if ref is not None:
            src += ref * (1.0 - alpha)
        return src


class BrightnessJitterAug(_Jitter):
    """Random brightness: src * alpha."""
    _name = "brightness"


class ContrastJitterAug(_Jitter):
    """Random contrast: blends with the image's mean luma (3 x the mean of src * luma weights)."""
    _name = "contrast"

    def _reference(self, src):
        gray = src * self.coef
        return nd.sum(gray) * (3.0 / gray.size)


class SaturationJitterAug(_Jitter):
    """Random saturation: blends each pixel with its luma."""
    _name = "saturation"

    def _reference(self, src):
        return nd.sum(src * self.coef, axis=2, keepdims=True)


class HueJitterAug(Augmenter):
    """Rotates the hue by uniform(-hue, hue) half-turns in YIQ space."""

    _YIQ = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321], [0.211, -0.523, 0.311]])
    _RGB = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647], [1.0, -1.107, 1.705]])

    def __init__(self, hue):
        super().__init__(hue=hue)
        self.hue = hue

    def __call__(self, src):
        angle = random.uniform(-self.hue, self.hue) * np.pi
        c, s = np.cos(angle), np.sin(angle)
        rotate = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        return nd.dot(src, nd.array((self._RGB @ rotate @ self._YIQ).T))


class ColorJitterAug(RandomOrderAug):
    """Brightness, contrast and saturation jitter (those > 0), in random order."""

    def __init__(self, brightness, contrast, saturation):
        kinds = ((brightness, BrightnessJitterAug), (contrast, ContrastJitterAug), (saturation, SaturationJitterAug))
        super().__init__([cls(v) for v, cls in kinds if v > 0])


class LightingAug(Augmenter):
    """AlexNet's PCA lighting noise: adds eigvec @ (eigval * N(0, alphastd)) per channel."""

    def __init__(self, alphastd, eigval, eigvec):
        super().__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd, self.eigval, self.eigvec = alphastd, eigval, eigvec

    def __call__(self, src):
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        src += nd.array(np.dot(self.eigvec * alpha, self.eigval))
        return src


class ColorNormalizeAug(Augmenter):
    """color_normalize with ``mean`` and ``std``."""

    def __init__(self, mean, std):
        super().__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, nd.NDArray) else nd.array(mean)
        self.std = std if std is None or isinstance(std, nd.NDArray) else nd.array(std)

    def __call__(self, src):
        return color_normalize(src, self.mean, self.std)


class _Chance(Augmenter):
    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src):
        return self._apply(src) if random.random() < self.p else src

    def _apply(self, src):
        raise NotImplementedError("Must override implementation.")


class RandomGrayAug(_Chance):
    """With probability ``p``, gray (0.21 R + 0.72 G + 0.07 B in every channel)."""

    def __init__(self, p):
        super().__init__(p)
        self.mat = nd.array([[0.21] * 3, [0.72] * 3, [0.07] * 3])

    def _apply(self, src):
        return nd.dot(src, self.mat)


class HorizontalFlipAug(_Chance):
    """With probability ``p``, mirrored left to right."""

    def _apply(self, src):
        return nd.flip(src, axis=1)


class CastAug(Augmenter):
    """Casts to ``typ``."""

    def __init__(self, typ="float32"):
        super().__init__(type=typ)
        self.typ = typ

    def __call__(self, src):
        return src.astype(self.typ)


_EIGVAL = np.array([55.46, 4.794, 1.148])
_MEAN, _STD = [123.68, 116.28, 103.53], [58.395, 57.12, 57.375]  # ImageNet's, RGB
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])


def _color_augs(brightness, contrast, saturation, hue, pca_noise, rand_gray, mean, std, array=nd.array):
    """The tail of CreateAugmenter's and CreateDetAugmenter's lists: colour jitter, hue,
    lighting, gray, normalize (mean/std True: ImageNet's, made by ``array``)."""
    augs = [ColorJitterAug(brightness, contrast, saturation)] if brightness or contrast or saturation else []
    if hue:
        augs.append(HueJitterAug(hue))
    if pca_noise > 0:
        augs.append(LightingAug(pca_noise, _EIGVAL, _EIGVEC))
    if rand_gray > 0:
        augs.append(RandomGrayAug(rand_gray))
    mean, std = _check_stat(mean, "mean", array(_MEAN)), _check_stat(std, "std", array(_STD))
    if mean is not None or std is not None:
        augs.append(ColorNormalizeAug(mean, std))
    return augs


def _check_stat(v, name, default):
    if v is True:
        return default
    if v is not None and not (isinstance(v, (np.ndarray, nd.NDArray)) and v.shape[0] in (1, 3)):
        raise ValueError("mean and std must be True, None or arrays of 1 or 3 values, got %s=%r" % (name, v))
    return v


def CreateAugmenter(data_shape, resize=0, rand_crop=False, rand_resize=False, rand_mirror=False, mean=None, std=None,
                    brightness=0, contrast=0, saturation=0, hue=0, pca_noise=0, rand_gray=0, inter_method=2):
    """MXNet's standard augmenter list for images of ``data_shape`` (C, H, W): resize,
    crop (random, random-sized or central), mirror, cast to float32, colour jitter, hue,
    lighting, gray, normalize (mean/std True: ImageNet's)."""
    if rand_resize and not rand_crop:
        raise ValueError("CreateAugmenter: rand_resize needs rand_crop")
    augs = [ResizeAug(resize, inter_method)] if resize > 0 else []
    crop = (data_shape[2], data_shape[1])
    if rand_resize:
        augs.append(RandomSizedCropAug(crop, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    else:
        augs.append((RandomCropAug if rand_crop else CenterCropAug)(crop, inter_method))
    if rand_mirror:
        augs.append(HorizontalFlipAug(0.5))
    return augs + [CastAug()] + _color_augs(brightness, contrast, saturation, hue, pca_noise, rand_gray, mean, std)
