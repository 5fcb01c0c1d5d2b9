"""Zero-copy exchange between mxgo and NumPy: ``np.from_dlpack(x)``, ``mx.nd.from_dlpack(a)``
(and ``mx.np.from_dlpack(a)``: interop_helpers.mx_sides) and ``mx.nd.from_numpy(a)``, for
every dtype the running NumPy exchanges and every layout (NumPy, unlike PyTorch, has
negative strides)."""
import numpy as np
import pytest

import mxgo as mx

from interop_helpers import (LAYOUTS, MX, MX_DTYPES, MXNP, NUMPY, NUMPY_DLPACK_DTYPES, NUMPY_EXPORTS_READ_ONLY,
                             NUMPY_IMPORTS_WRITABLE, check_exchange, layout_named, marker, mx_address, mx_sides)

# NumPy < 2.1 makes every array it imports read-only: only mxgo can write there.
NP_WRITERS = ("producer", "consumer") if NUMPY_IMPORTS_WRITABLE else ("producer",)
CONTIGUOUS = [layout for layout in LAYOUTS if layout.c_contiguous]
STRIDED = [layout for layout in LAYOUTS if not layout.c_contiguous]


def test_peer_table_matches_numpy():
    """The version table is what the installed NumPy does."""
    for name in NUMPY_DLPACK_DTYPES:
        np.zeros(2, dtype=name).__dlpack__()
    if "bool" not in NUMPY_DLPACK_DTYPES:
        with pytest.raises(BufferError):
            np.zeros(2, dtype=bool).__dlpack__()
    imported = np.from_dlpack(mx.nd.zeros((2,)))
    assert imported.flags.writeable == NUMPY_IMPORTS_WRITABLE


@pytest.mark.parametrize("side,layout", mx_sides(LAYOUTS))
@pytest.mark.parametrize("dtype", NUMPY_DLPACK_DTYPES)
def test_mxgo_to_numpy(dtype, side, layout):
    x = side.make(dtype, layout)
    a = np.from_dlpack(x)
    assert a.flags.writeable == NUMPY_IMPORTS_WRITABLE
    check_exchange(side, x, NUMPY, a, dtype, NP_WRITERS)


@pytest.mark.parametrize("side,layout", mx_sides(LAYOUTS))
@pytest.mark.parametrize("dtype", NUMPY_DLPACK_DTYPES)
def test_numpy_to_mxgo_dlpack(dtype, side, layout):
    a = NUMPY.make(dtype, layout)
    x = side.from_dlpack(a)
    assert type(x) is side.cls and x.writable and a.flags.writeable
    check_exchange(NUMPY, a, side, x, dtype)


@pytest.mark.parametrize("layout", CONTIGUOUS, ids=str)
@pytest.mark.parametrize("dtype", MX_DTYPES)  # the buffer protocol has no DLPack dtype limits
def test_numpy_to_mxgo_from_numpy(dtype, layout):
    """from_numpy shares C-contiguous arrays and locks them read-only on the NumPy side;
    writes through mxgo stay visible in NumPy."""
    a = NUMPY.make(dtype, layout)
    x = mx.nd.from_numpy(a)
    assert x.writable and not a.flags.writeable
    check_exchange(NUMPY, a, MX, x, dtype, ("consumer",))
    # a second from_numpy of the array mxgo locked still writes through
    y = mx.nd.from_numpy(a)
    assert y.writable
    check_exchange(NUMPY, a, MX, y, dtype, ("consumer",))


@pytest.mark.parametrize("layout", STRIDED, ids=str)
def test_from_numpy_refuses_strided_views(layout):
    a = NUMPY.make("float32", layout)
    with pytest.raises(ValueError, match="C-contiguous"):
        mx.nd.from_numpy(a)
    assert a.flags.writeable  # nothing was locked
    copied = mx.nd.from_numpy(a, zero_copy=False)
    np.testing.assert_array_equal(copied.asnumpy(), a)
    assert mx_address(copied) != NUMPY.address(a)


@pytest.mark.parametrize("dtype", MX_DTYPES)
def test_from_numpy_copy_leaves_numpy_writable(dtype):
    a = NUMPY.make(dtype, layout_named("4d"))
    x = mx.nd.from_numpy(a, zero_copy=False)
    assert a.flags.writeable and x.writable
    assert mx_address(x) != NUMPY.address(a)
    expected = a.copy()
    np.testing.assert_array_equal(x.asnumpy(), expected)
    a[0, 0, 0, 0] = marker(dtype, a[0, 0, 0, 0])
    x[1, 2, 3, 4] = marker(dtype, a[1, 2, 3, 4])
    x.wait_to_read()  # so that an aliasing bug would show in `a` below
    np.testing.assert_array_equal(a.ravel()[1:], expected.ravel()[1:])
    np.testing.assert_array_equal(x.asnumpy().ravel()[:-1], expected.ravel()[:-1])


@pytest.mark.parametrize("side", [MX, MXNP], ids=lambda side: side.name)
@pytest.mark.parametrize("dtype", NUMPY_DLPACK_DTYPES)
def test_round_trip_keeps_the_memory(dtype, side):
    """numpy -> mxgo -> numpy and mxgo -> numpy -> mxgo land on the original memory."""
    a = NUMPY.make(dtype, layout_named("reversed"))
    back = np.from_dlpack(side.from_dlpack(a))
    check_exchange(NUMPY, a, NUMPY, back, dtype, NP_WRITERS)
    x = side.make(dtype, layout_named("offset"))
    if NUMPY_EXPORTS_READ_ONLY:
        again = side.from_dlpack(np.from_dlpack(x))
        assert type(again) is side.cls
        check_exchange(side, x, side, again, dtype)
    else:  # NumPy < 2.1 imports read-only and refuses to export read-only arrays
        with pytest.raises(BufferError):
            side.from_dlpack(np.from_dlpack(x))


def test_numpy_array_api_views_of_mxgo_memory():
    """NumPy operations on the imported view run on mxgo's memory (NumPy >= 2.1 writes in
    place; older NumPy reads only)."""
    x = mx.nd.arange(12).reshape((3, 4))
    a = np.from_dlpack(x)
    assert a.sum() == 66.0
    if NUMPY_IMPORTS_WRITABLE:
        a *= 2
        np.testing.assert_array_equal(x.asnumpy(), np.arange(12.0).reshape(3, 4) * 2)
    else:
        with pytest.raises(ValueError, match="read-only"):
            a *= 2
