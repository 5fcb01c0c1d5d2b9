"""Decoding, resizing and cropping of (height, width, channels) images, as MXNet 1.9.1's
mx.image functions.

Decoding is Go's image/jpeg and image/png (pkg/imgcodec), chosen over Pillow (or OpenCV)
because it needs nothing installed beside mxgo, although Pillow (libjpeg-turbo, zlib)
decodes 2 to 4 times faster from 640x480 up (as fast at 64x64). PNG decodes exactly as
MXNet's OpenCV does; JPEG within a few levels (IDCT rounding), since imgcodec reproduces
libjpeg's chroma upsampling and colour conversion.

Resizing follows OpenCV's resize for the interpolation codes MXNet passes on (0 nearest,
1 bilinear, 2 bicubic, 3 area, 4 Lanczos), for uint8 images with OpenCV's 11-bit fixed-
point weights, computed in NumPy (float64, whose integers are exact). The random
functions draw from Python's ``random``, as MXNet's, so that ``random.seed`` reproduces
MXNet's crops.
"""
import numbers
import os
import random

import numpy as np

from .. import ndarray as nd
from ..base import MXNetError
from ..recordio import _decode_img

__all__ = ["imdecode", "imread", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop", "center_crop",
           "color_normalize", "random_size_crop", "imrotate", "random_rotate"]

_COEF = 2048  # OpenCV's INTER_RESIZE_COEF_SCALE


def imdecode(buf, flag=1, to_rgb=True, out=None):
    """Decodes a JPEG or PNG image from ``buf`` (bytes, bytearray, a uint8 numpy array or
    NDArray) into an (H, W, 3) uint8 NDArray (RGB unless ``to_rgb`` is false; (H, W, 1)
    gray with ``flag=0``)."""
    if isinstance(buf, nd.NDArray):
        buf = buf.asnumpy()
    if not isinstance(buf, (bytes, bytearray, np.ndarray)):
        raise ValueError("buf must be of type bytes, bytearray or numpy.ndarray, if you would like to input type str, "
                         "please convert to bytes")
    img = _decode_img(buf, flag, to_rgb)
    if out is None:
        return img
    out[:] = img
    return out


def imread(filename, flag=1, to_rgb=True, out=None):
    """Reads and decodes the image file ``filename`` as ``imdecode``."""
    if not os.path.isfile(filename):
        raise MXNetError("imread: cannot find the image file %s" % filename)
    with open(filename, "rb") as f:
        return imdecode(f.read(), flag, to_rgb, out)


def _linear_taps(out_len, in_len, area):
    """OpenCV's two-tap weights along one axis: bilinear (half-pixel centres), or INTER_AREA's
    when enlarging; edges clamped, in float32 as OpenCV computes them."""
    scale = np.float64(in_len) / out_len
    d = np.arange(out_len)
    if area:
        i0 = np.floor(d * scale).astype(np.int64)
        frac = ((d + 1) - (i0 + 1) / scale).astype(np.float32)
        frac = np.where(frac <= 0, 0, frac - np.floor(frac)).astype(np.float32)
    else:
        pos = ((d + 0.5) * scale - 0.5).astype(np.float32)
        i0 = np.floor(pos).astype(np.int64)
        frac = (pos - i0).astype(np.float32)
    frac[(i0 < 0) | (i0 >= in_len - 1)] = 0
    i0 = np.clip(i0, 0, in_len - 1)
    return [(i0, 1 - frac), (np.minimum(i0 + 1, in_len - 1), frac)]


def _cubic_taps(out_len, in_len):
    """OpenCV's bicubic weights (A = -0.75) along one axis, replicated borders."""
    pos = ((np.arange(out_len) + 0.5) * (np.float64(in_len) / out_len) - 0.5).astype(np.float32)
    i0 = np.floor(pos).astype(np.int64)
    x = (pos - i0).astype(np.float32)
    a = np.float32(-0.75)
    c0 = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
    c1 = ((a + 2) * x - (a + 3)) * x * x + 1
    c2 = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1
    return [(np.clip(i0 + k - 1, 0, in_len - 1), c) for k, c in enumerate((c0, c1, c2, 1 - c0 - c1 - c2))]


def _lanczos_taps(out_len, in_len):
    """OpenCV's Lanczos-4 weights (8 taps, normalised to sum 1) along one axis."""
    pos = ((np.arange(out_len) + 0.5) * (np.float64(in_len) / out_len) - 0.5).astype(np.float32)
    i0 = np.floor(pos).astype(np.int64)
    x = (pos - i0).astype(np.float32).astype(np.float64)
    s45 = np.sqrt(0.5)
    cs = [(1, 0), (-s45, -s45), (0, 1), (s45, -s45), (-1, 0), (s45, s45), (0, -1), (-s45, s45)]
    y0 = -(x + 3) * np.pi * 0.25
    coeffs = []
    for k, (a, b) in enumerate(cs):
        d = (x + 3 - k).astype(np.float32)
        y = -d.astype(np.float64) * np.pi * 0.25
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.where(np.abs(d) >= 1e-6, (a * np.sin(y0) + b * np.cos(y0)) / (y * y), 1e30)
        coeffs.append(c.astype(np.float32))
    total = np.float32(1) / np.sum(coeffs, axis=0, dtype=np.float32)
    return [(np.clip(i0 + k - 3, 0, in_len - 1), c * total) for k, c in enumerate(coeffs)]


def _area_matrix(out_len, in_len):
    """INTER_AREA's shrinking weights: output pixel d averages source [d*s, (d+1)*s)."""
    s = in_len / out_len
    lo, hi = np.arange(out_len)[:, None] * s, (np.arange(out_len)[:, None] + 1) * s
    src = np.arange(in_len)[None, :]
    return np.clip(np.minimum(hi, src + 1) - np.maximum(lo, src), 0, None) / s


def _apply(a, taps, axis, fixed):
    """Sum over taps of a's rows (or columns) at the taps' indices times their weights."""
    shape = [1] * a.ndim
    shape[axis] = -1
    out = 0
    for idx, w in taps:
        w = np.round(w.astype(np.float64) * _COEF) if fixed else w.astype(np.float64)
        out = out + np.take(a, idx, axis=axis) * w.reshape(shape)
    return out


def _resize_np(a, w, h, interp):
    """(…, H, W, C) numpy ``a`` resized to (…, h, w, C) as OpenCV's resize."""
    rows, cols = a.ndim - 3, a.ndim - 2
    ih, iw = a.shape[rows], a.shape[cols]
    fixed = a.dtype == np.uint8
    if interp == 0:
        return np.take(np.take(a, np.minimum(np.floor(np.arange(h) * (ih / h)).astype(np.int64), ih - 1), axis=rows),
                       np.minimum(np.floor(np.arange(w) * (iw / w)).astype(np.int64), iw - 1), axis=cols)
    x = a.astype(np.float64)
    if interp == 3 and h <= ih and w <= iw:
        if fixed and ih % h == 0 and iw % w == 0:  # OpenCV's integer fast path rounds halves up
            k = (ih // h) * (iw // w)
            s = x.reshape(a.shape[:rows] + (h, ih // h, w, iw // w, a.shape[-1])).sum(axis=(rows + 1, rows + 3))
            return np.floor((s + k // 2) / k).astype(np.uint8)
        out = np.moveaxis(np.tensordot(_area_matrix(h, ih), x, axes=(1, rows)), 0, rows)
        out = np.moveaxis(np.tensordot(_area_matrix(w, iw), out, axes=(1, cols)), 0, cols)
        return np.clip(np.rint(out), 0, 255).astype(np.uint8) if fixed else out.astype(a.dtype)
    if interp in (2, 4):
        taps = _cubic_taps if interp == 2 else _lanczos_taps
        taps_w, taps_h = taps(w, iw), taps(h, ih)
    else:
        taps_w, taps_h = _linear_taps(w, iw, interp == 3), _linear_taps(h, ih, interp == 3)
    horizontal = _apply(x, taps_w, cols, fixed)
    if not fixed:
        return _apply(horizontal, taps_h, rows, False).astype(a.dtype)
    if interp in (2, 4):  # OpenCV's VResizeCubic and VResizeLanczos4: (sum + 2^21) >> 22
        out = np.floor((_apply(horizontal, taps_h, rows, True) + (1 << 21)) / (1 << 22))
    else:  # OpenCV's SIMD bilinear: ((b0 * (S0 >> 4)) >> 16) + ((b1 * (S1 >> 4)) >> 16) + 2) >> 2
        parts = [np.floor(_apply(np.floor(horizontal / 16), [t], rows, True) / 65536) for t in taps_h]
        out = np.floor((parts[0] + parts[1] + 2) / 4)
    return np.clip(out, 0, 255).astype(np.uint8)


def _interp(interp, sizes=()):
    """MXNet's interp codes: 9 picks by the sizes (old h, old w, new h, new w), 10 at random."""
    if interp == 9:
        if not sizes:
            return 2
        oh, ow, nh, nw = sizes
        return 2 if nh > oh and nw > ow else 3 if nh < oh and nw < ow else 1
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError("Unknown interp method %r" % (interp,))
    return interp


def imresize(src, w, h, interp=1, out=None):
    """Resizes (H, W, C) image ``src`` to width ``w`` and height ``h`` as OpenCV's resize
    with ``interp`` (0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos; 9 and 10 pick)."""
    if not isinstance(src, nd.NDArray):
        raise TypeError("imresize expects an NDArray, got %s" % type(src).__name__)
    if src.ndim != 3:
        raise MXNetError("imresize expects an image of (height, width, channels), got shape %s" % (src.shape,))
    if int(w) <= 0 or int(h) <= 0:
        raise MXNetError("imresize: the output size (%s, %s) must be positive" % (w, h))
    mode = _interp(interp)
    res = nd.array(_resize_np(src.asnumpy(), int(w), int(h), mode), ctx=src.context, dtype=src.dtype)
    if out is None:
        return res
    out[:] = res
    return out


def scale_down(src_size, size):
    """The crop ``size`` (w, h) shrunk, keeping its aspect ratio, to fit ``src_size`` (w, h)."""
    (w, h), (sw, sh) = size, src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def resize_short(src, size, interp=2):
    """Resizes ``src`` so that its shorter side is ``size`` (the longer one scaled, floored)."""
    h, w = src.shape[0], src.shape[1]
    nh, nw = (size * h // w, size) if h > w else (size, size * w // h)
    return imresize(src, nw, nh, interp=_interp(interp, (h, w, nh, nw)))


def fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """The w x h crop of ``src`` at (x0, y0), resized to ``size`` (w, h) if given."""
    out = src[y0:y0 + h, x0:x0 + w]
    if size is not None and (w, h) != tuple(size):
        out = imresize(out, size[0], size[1], interp=_interp(interp, (h, w, size[1], size[0])))
    return out


def random_crop(src, size, interp=2):
    """A crop of ``size`` (scaled down to fit) at a random place: (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    nw, nh = scale_down((w, h), size)
    x0 = random.randint(0, w - nw)
    y0 = random.randint(0, h - nh)
    return fixed_crop(src, x0, y0, nw, nh, size, interp), (x0, y0, nw, nh)


def center_crop(src, size, interp=2):
    """The central crop of ``size`` (scaled down to fit): (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    nw, nh = scale_down((w, h), size)
    x0, y0 = int((w - nw) / 2), int((h - nh) / 2)
    return fixed_crop(src, x0, y0, nw, nh, size, interp), (x0, y0, nw, nh)


def color_normalize(src, mean, std=None):
    """``(src - mean) / std``, in place on ``src`` as MXNet's."""
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


def random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """A crop of random area (a fraction in ``area`` of the image's) and aspect ratio
    (log-uniform in ``ratio``), resized to ``size``; after 10 misses, the centre crop."""
    if "min_area" in kwargs:
        area = kwargs.pop("min_area")
    if kwargs:
        raise TypeError("random_size_crop got unexpected keyword arguments %s" % sorted(kwargs))
    h, w = src.shape[0], src.shape[1]
    if isinstance(area, (int, float)):
        area = (area, 1.0)
    for _ in range(10):
        target = random.uniform(area[0], area[1]) * h * w
        aspect = np.exp(random.uniform(np.log(ratio[0]), np.log(ratio[1])))
        nw, nh = int(round(np.sqrt(target * aspect))), int(round(np.sqrt(target / aspect)))
        if nw <= w and nh <= h:
            x0 = random.randint(0, w - nw)
            y0 = random.randint(0, h - nh)
            return fixed_crop(src, x0, y0, nw, nh, size, interp), (x0, y0, nw, nh)
    return center_crop(src, size, interp)


def _zoom(rad, h, w, zoom_out):
    """The grid scale that fits the rotated image inside (zoom_in) or around (zoom_out)."""
    rho, corner = np.sqrt(h * h + w * w), np.arctan(np.float32(h / w))
    reach = [np.abs(rho * f(corner + sign * np.abs(rad))) for f in (np.cos, np.sin) for sign in (1, -1)]
    max_x, max_y = np.maximum(reach[0], reach[1]), np.maximum(reach[2], reach[3])
    if zoom_out:
        return np.maximum(max_x / w, max_y / h)
    return np.minimum(w / max_x, h / max_y)


def imrotate(src, rotation_degrees, zoom_in=False, zoom_out=False):
    """Rotates float32 (C, H, W) image ``src`` (or an (N, C, H, W) batch, one angle each or
    one for all) by ``rotation_degrees`` anticlockwise about its centre, bilinearly, zeros
    outside; ``zoom_in`` scales so that no outside shows, ``zoom_out`` so that all stays."""
    if zoom_in and zoom_out:
        raise ValueError("`zoom_in` and `zoom_out` cannot be both True")
    if src.dtype != np.float32:
        raise TypeError("Only `float32` images are supported by this function")
    if src.ndim == 3:
        if not isinstance(rotation_degrees, numbers.Number):
            raise TypeError("When a single image is passed the rotation angle is required to be a scalar.")
        return imrotate(src.expand_dims(axis=0), rotation_degrees, zoom_in, zoom_out)[0]
    if src.ndim != 4:
        raise ValueError("Only 3D and 4D are supported by this function")
    n, _, h, w = src.shape
    degrees = np.full(n, rotation_degrees, np.float32) if isinstance(rotation_degrees, numbers.Number) \
        else np.asarray(rotation_degrees.asnumpy() if isinstance(rotation_degrees, nd.NDArray) else rotation_degrees,
                        np.float32).reshape(-1)
    if len(degrees) != n:
        raise ValueError("The number of images must be equal to the number of rotation angles")
    rad = (np.float32(np.pi) * degrees / np.float32(180)).reshape(n, 1, 1)
    hs, ws = np.float32((h - 1) / 2), np.float32((w - 1) / 2)
    rows, cols = np.mgrid[0:h, 0:w].astype(np.float32)
    rows, cols = (rows - hs)[None], (cols - ws)[None]
    cos, sin = np.cos(rad), np.sin(rad)
    grid = np.stack([(cols * cos - rows * sin) / ws, (cols * sin + rows * cos) / hs], axis=1)
    if zoom_in or zoom_out:
        grid = grid * _zoom(rad, np.float32(h), np.float32(w), zoom_out)[:, None]
    return nd.BilinearSampler(src, nd.array(grid, ctx=src.context))


def random_rotate(src, angle_limits, zoom_in=False, zoom_out=False):
    """imrotate by angles drawn uniformly in ``angle_limits`` (NumPy's generator, as MXNet's),
    one per image of a batch."""
    degrees = np.random.uniform(*angle_limits) if src.ndim == 3 else nd.array(np.random.uniform(*angle_limits,
                                                                                               size=src.shape[0]))
    return imrotate(src, degrees, zoom_in=zoom_in, zoom_out=zoom_out)
