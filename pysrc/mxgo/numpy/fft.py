"""``mx.np.fft``: the Array API standard's fft extension, with NumPy 2's semantics (MXNet
1.9.1's mx.np has no fft).

Every transform runs the registry's ``_npi_fft`` (a complex DFT along the last axis, any
length, in Go) on the engine: the n-d transforms apply it axis by axis, the real ones
build on it (rfft keeps the first n//2+1 outputs; irfft extends the half spectrum by
Hermitian symmetry and keeps the real part). complex64 stays complex64 and float32 gives
complex64, float64 and complex128 give complex128; integers and bools compute in float32
(mx.np's float default, where NumPy uses float64). No autograd.

``n``/``s`` crop or zero-pad the input along the axis before the transform; ``norm`` is
"backward" (no scale forward, 1/n inverse), "ortho" (1/sqrt(n) both) or "forward" (1/n
forward, none inverse); None is "backward", as in NumPy.
"""
import math
import operator

import numpy as _onp

from ..base import MXNetIndexError, MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import asarray, astype, full, invoke, operand
from ._manip import FUNCTIONS as _MANIP
from ._reduce import normalize_axis
from ._ufuncs import FUNCTIONS as _UFUNCS

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

_NORMS = ("backward", "ortho", "forward")
#: the norm of the conjugate transform a Hermitian one is computed by (hfft by irfft)
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_concat, _moveaxis, _roll = _MANIP["concat"], _MANIP["moveaxis"], _MANIP["roll"]
_conj, _real = _UFUNCS["conj"], _UFUNCS["real"]


# ---- arguments -----------------------------------------------------------------------------

def _norm(norm):
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise MXNetValueError('Invalid norm value %r; should be "backward", "ortho" or "forward"' % (norm,))
    return norm


def _points(n):
    """n as a number of points (>= 1)."""
    try:
        n = operator.index(n)
    except TypeError:
        raise MXNetTypeError("the number of FFT points must be an int, got %s" % type(n).__name__) from None
    if n < 1:
        raise MXNetValueError("Invalid number of FFT data points (%d) specified" % n)
    return n


def _axis(axis, ndim):
    try:
        return normalize_axis(axis, ndim)
    except MXNetValueError as err:  # (NumPy's fft raises IndexError for an axis out of range)
        raise MXNetIndexError(str(err)) from None


def _complex(x):
    """x as an array of the complex dtype of its precision (see the module docstring)."""
    x = operand(x, "x")
    if x.ndim == 0:
        raise MXNetValueError("fft: x must have at least 1 dimension, got a 0-d array")
    dt = _dtypes.as_dtype(x.dtype)
    if dt.kind != "c":
        dt = _onp.dtype("complex128" if _dtypes.float_of(dt) == _onp.dtype("float64") else "complex64")
    return astype(x, dt)


def _real_input(x):
    """x (real) as complex; a complex x raises TypeError, as in NumPy."""
    x = operand(x, "x")
    if _onp.dtype(x.dtype).kind == "c":
        raise MXNetTypeError("this transform takes a real array, got %s (use fft for complex input)" % x.dtype)
    return _complex(x)


def _shape_axes(x, s, axes):
    """The (sizes, axes) of an n-d transform, as NumPy 2 reads s and axes (s's -1: the axis's size)."""
    if axes is None:
        axes = range(x.ndim) if s is None else range(x.ndim - len(s), x.ndim)
    axes = [_axis(a, x.ndim) for a in axes]
    if s is None:
        return [x.shape[a] for a in axes], axes
    if len(s) != len(axes):
        raise MXNetValueError("Shape and axes have different lengths: s %r, axes %r" % (tuple(s), tuple(axes)))
    return [x.shape[a] if d == -1 else _points(d) for d, a in zip(s, axes)], axes


# ---- the transforms --------------------------------------------------------------------------

def _resized(x, n):
    """x cropped or zero-padded to n along its last axis."""
    have = x.shape[-1]
    if n == have:
        return x
    if n < have:
        return x[..., :n]
    return _concat([x, full(x.shape[:-1] + (n - have,), 0, x.dtype, x.context)], axis=-1)


def _scale(n, norm, inverse):
    if norm == "ortho":
        return 1 / math.sqrt(n)
    return 1 / n if (norm == "forward") != inverse else 1.0


def _c2c(x, n, axis, norm, inverse):
    """The complex transform of complex x along axis, of n points."""
    axis = _axis(axis, x.ndim)
    n = x.shape[axis] if n is None else _points(n)
    y = _resized(_moveaxis(x, axis, -1), n)
    return _moveaxis(invoke("_npi_fft", [y], {"inverse": inverse, "scale": _scale(n, norm, inverse)}), -1, axis)


def _r2c(x, n, axis, norm):
    """rfft of x (real values in a complex array): the first n//2+1 outputs of its transform."""
    axis = _axis(axis, x.ndim)
    out = _moveaxis(_c2c(x, n, axis, norm, False), axis, -1)
    return _moveaxis(out[..., :out.shape[-1] // 2 + 1], -1, axis)


def _c2r(x, n, axis, norm):
    """irfft of complex x: n real points from the first n//2+1 of a Hermitian spectrum."""
    axis = _axis(axis, x.ndim)
    n = _points(2 * (x.shape[axis] - 1) if n is None else n)
    half = _resized(_moveaxis(x, axis, -1), n // 2 + 1)
    full_spectrum = _concat([half, _conj(half[..., n - n // 2 - 1:0:-1])], axis=-1)
    out = invoke("_npi_fft", [full_spectrum], {"inverse": True, "scale": _scale(n, norm, True)})
    return _moveaxis(_real(out), -1, axis)


def fft(x, /, n=None, axis=-1, norm="backward"):
    """The 1-d discrete Fourier transform of complex x along axis (n points)."""
    return _c2c(_complex(x), n, axis, _norm(norm), False)


def ifft(x, /, n=None, axis=-1, norm="backward"):
    """The 1-d inverse discrete Fourier transform of complex x along axis (n points)."""
    return _c2c(_complex(x), n, axis, _norm(norm), True)


def _nd(x, s, axes, norm, inverse):
    sizes, axes = _shape_axes(x, s, axes)
    for n, a in reversed(list(zip(sizes, axes))):
        x = _c2c(x, n, a, norm, inverse)
    return x


def fftn(x, /, s=None, axes=None, norm="backward"):
    """The n-d discrete Fourier transform over axes (all by default), s points along each."""
    return _nd(_complex(x), s, axes, _norm(norm), False)


def ifftn(x, /, s=None, axes=None, norm="backward"):
    """The n-d inverse discrete Fourier transform over axes (all by default), s points along each."""
    return _nd(_complex(x), s, axes, _norm(norm), True)


def rfft(x, /, n=None, axis=-1, norm="backward"):
    """The 1-d transform of real x: the n//2+1 non-negative frequencies (the rest are their conjugates)."""
    return _r2c(_real_input(x), n, axis, _norm(norm))


def irfft(x, /, n=None, axis=-1, norm="backward"):
    """The inverse of rfft: n real points (default 2*(m-1) for m inputs) along axis."""
    return _c2r(_complex(x), n, axis, _norm(norm))


def rfftn(x, /, s=None, axes=None, norm="backward"):
    """The n-d transform of real x: rfft along the last of axes, then fft along the others."""
    x = _real_input(x)
    sizes, axes = _shape_axes(x, s, axes)
    norm = _norm(norm)
    return _nd(_r2c(x, sizes[-1], axes[-1], norm), sizes[:-1], axes[:-1], norm, False)


def irfftn(x, /, s=None, axes=None, norm="backward"):
    """The inverse of rfftn: ifft along all but the last of axes, then irfft along the last."""
    x = _complex(x)
    sizes, axes = _shape_axes(x, s, axes)
    norm = _norm(norm)
    last = 2 * (x.shape[axes[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    return _c2r(_nd(x, sizes[:-1], axes[:-1], norm, True), last, axes[-1], norm)


def hfft(x, /, n=None, axis=-1, norm="backward"):
    """The transform of a Hermitian-symmetric signal given by its first half: n real points."""
    return _c2r(_conj(_complex(x)), n, axis, _SWAPPED[_norm(norm)])


def ihfft(x, /, n=None, axis=-1, norm="backward"):
    """The inverse of hfft: the n//2+1 non-negative frequencies of real x's inverse transform."""
    return _conj(_r2c(_real_input(x), n, axis, _SWAPPED[_norm(norm)]))


# ---- frequencies and shifts ----------------------------------------------------------------

def _frequencies(k, n, d, dtype, device):
    """k / (d*n) (k: host values) in dtype (mx.np's float default)."""
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.DEFAULT_FLOAT
    if dt.kind != "f":
        raise MXNetTypeError("the frequencies' dtype must be a real floating dtype, got %s" % dt)
    return asarray(k * (1.0 / (n * d)), dtype=dt, device=device)  # (NumPy's rounding; d = 0 raises as there)


def fftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of fft's n outputs, [0, 1, ..., -(n//2), ..., -1] / (d*n)."""
    n = _points(n)
    k = _onp.concatenate([_onp.arange((n - 1) // 2 + 1), _onp.arange(-(n // 2), 0)])
    return _frequencies(k, n, d, dtype, device)


def rfftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft's n//2+1 outputs, [0, 1, ..., n//2] / (d*n)."""
    n = _points(n)
    return _frequencies(_onp.arange(n // 2 + 1), n, d, dtype, device)


def _shift(x, axes, sign):
    x = operand(x, "x")
    axes = range(x.ndim) if axes is None else [axes] if isinstance(axes, int) else axes
    axes = [_axis(a, x.ndim) for a in axes]
    return _roll(x, [sign * (x.shape[a] // 2) for a in axes], axis=axes)


def fftshift(x, /, axes=None):
    """x with the zero frequency moved to the centre of each of axes (all by default)."""
    return _shift(x, axes, 1)


def ifftshift(x, /, axes=None):
    """The inverse of fftshift."""
    return _shift(x, axes, -1)
