"""mx.np.fft against numpy.fft: every transform over radix-2 and Bluestein lengths (1..33,
powers of two to 1024, primes), axes, n/s cropping and padding, norms and dtypes
(complex64 within 1e-5 of the largest magnitude, complex128 within 1e-12); the frequencies
and shifts; bad arguments raising NumPy's exception types."""
import numpy as onp
import pytest

import mxgo as mx
from mxgo import np

LENGTHS = list(range(1, 34)) + [64, 128, 256, 512, 1024, 97, 257, 1009]
NORMS = ["backward", "ortho", "forward"]
REAL = {"complex64": "float32", "complex128": "float64"}
COMPLEX = {"float32": "complex64", "float64": "complex128"}
TOL = {"complex64": 1e-5, "complex128": 1e-12, "float32": 1e-5, "float64": 1e-12}


def signal(shape, dtype, seed=0):
    rng = onp.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if onp.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(got, want, dtype):
    """got (an mx.np array) is want in dtype, within TOL of want's largest magnitude."""
    assert isinstance(got, np.ndarray)
    assert got.dtype == onp.dtype(dtype) and got.shape == want.shape
    scale = max(1.0, float(onp.abs(want).max(initial=0)))
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=0, atol=TOL[dtype] * scale)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_fft_ifft_every_length(dtype):
    for n in LENGTHS:
        x = signal((2, n), dtype, n)
        check(np.fft.fft(np.array(x)), onp.fft.fft(x), dtype)
        check(np.fft.ifft(np.array(x)), onp.fft.ifft(x), dtype)


# (function, input dtype, result dtype)
ONE_D = [(f, dt, dt) for f in ("fft", "ifft") for dt in REAL] + \
        [(f, dt, REAL[dt]) for f in ("irfft", "hfft") for dt in REAL] + \
        [(f, dt, COMPLEX[dt]) for f in ("rfft", "ihfft") for dt in COMPLEX]


@pytest.mark.parametrize("name,dtype,out", ONE_D)
def test_1d_transforms(name, dtype, out):
    x = signal((3, 10, 7), dtype)
    for kwargs in ({}, {"axis": 1}, {"axis": -3, "n": 5}, {"n": 16, "axis": 1}, {"n": 13}):
        for norm in NORMS:
            want = getattr(onp.fft, name)(x, norm=norm, **kwargs)
            check(getattr(np.fft, name)(np.array(x), norm=norm, **kwargs), want, out)


ND = [(f, dt, dt) for f in ("fftn", "ifftn") for dt in REAL] + \
     [("irfftn", dt, REAL[dt]) for dt in REAL] + [("rfftn", dt, COMPLEX[dt]) for dt in COMPLEX]


@pytest.mark.parametrize("name,dtype,out", ND)
def test_nd_transforms(name, dtype, out):
    x = signal((4, 5, 6), dtype)
    for kwargs in ({}, {"axes": (0, 2)}, {"axes": (2, 0), "s": (3, 8)}, {"axes": (-1,), "s": (9,)},
                   {"s": (4, 5, 6), "axes": (0, 1, 2)}):
        for norm in NORMS:
            want = getattr(onp.fft, name)(x, norm=norm, **kwargs)
            check(getattr(np.fft, name)(np.array(x), norm=norm, **kwargs), want, out)


def test_dtypes_and_round_trips():
    assert np.fft.fft(np.ones(4)).dtype == onp.complex64  # float32 (mx.np's default) -> complex64
    assert np.fft.fft(np.arange(4)).dtype == onp.complex64  # integers compute in float32
    assert np.fft.rfft(np.ones(4, dtype="float64")).dtype == onp.complex128
    x = signal((3, 11), "float64")
    check(np.fft.irfft(np.fft.rfft(np.array(x)), n=11), x, "float64")
    check(np.fft.ifftn(np.fft.fftn(np.array(x, dtype="complex128"))), x.astype("complex128"), "complex128")
    check(np.fft.fft(np.array(x)[:, ::2]), onp.fft.fft(x[:, ::2]), "complex128")  # a strided view


def test_frequencies_and_shifts():
    for n in (1, 2, 7, 8):
        check(np.fft.fftfreq(n, 0.5, dtype="float64"), onp.fft.fftfreq(n, 0.5), "float64")
        check(np.fft.rfftfreq(n, dtype="float64"), onp.fft.rfftfreq(n), "float64")
    assert np.fft.fftfreq(4).dtype == onp.float32 and np.fft.fftfreq(4, device=mx.cpu()).context == mx.cpu()
    x = onp.arange(30.0).reshape(5, 6)
    for axes in (None, 0, (1,), (0, 1)):
        check(np.fft.fftshift(np.array(x, dtype="float64"), axes=axes), onp.fft.fftshift(x, axes=axes), "float64")
        check(np.fft.ifftshift(np.array(x, dtype="float64"), axes=axes), onp.fft.ifftshift(x, axes=axes), "float64")


@pytest.mark.parametrize("call,err,msg", [
    (lambda x: np.fft.fft(x, n=0), ValueError, "Invalid number of FFT data points"),
    (lambda x: np.fft.fft(x, n=2.0), TypeError, "must be an int"),
    (lambda x: np.fft.ifft(x, norm="sideways"), ValueError, "Invalid norm value"),
    (lambda x: np.fft.fft(x, axis=2), IndexError, "out of bounds"),
    (lambda x: np.fft.irfft(x[:, :1]), ValueError, "Invalid number of FFT data points"),
    (lambda x: np.fft.fftn(x, s=(2,), axes=(0, 1)), ValueError, "Shape and axes have different lengths"),
    (lambda x: np.fft.rfft(np.array([1j])), TypeError, "real array"),
    (lambda x: np.fft.fft(np.array(1.0)), ValueError, "at least 1 dimension"),
    (lambda x: np.fft.fftfreq(0), ValueError, "Invalid number of FFT data points"),
    (lambda x: np.fft.fftfreq(4, dtype="int32"), TypeError, "real floating"),
    (lambda x: np.fft.fftshift(x, axes=(3,)), IndexError, "out of bounds"),
])
def test_bad_arguments(call, err, msg):
    x = np.ones((2, 3), dtype="complex64")
    with pytest.raises(err, match=msg):
        call(x)
    assert (x.asnumpy() == 1).all()
