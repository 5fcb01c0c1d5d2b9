"""Arithmetic, comparisons, sqrt, abs, negative, square, float32 exp, sigmoid and tanh,
whole sums, means and extrema, sums and means over one axis, x[i] for integer arrays i,
and dot of float32 matrices on tiny host arrays run in C without Go (pkg/pybridge/tiny.c):
the same bits as NumPy (and so as Go's kernels), no Go array made until one is needed, and every
call it must not take (recording, the engine busy, broadcasting other than a repeated
trailing block, views, mixed dtypes, overlapping out, read-only out, large arrays) left to
the registry's path."""
import gc
import operator

import numpy as np
import pytest
import torch

import mxgo as mx
from interop_helpers import FIRST_USES, HOLDS_MEMORY, live_counts

OPS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv}
FLOAT_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -1.5]


def _operands(dtype, shape, rng):
    n = int(np.prod(shape))
    if np.dtype(dtype).kind == "f":
        x, y = (rng.standard_normal(n) * 1e3 for _ in range(2))
        k = min(n, len(FLOAT_SPECIALS))
        x[:k], y[:k] = FLOAT_SPECIALS[:k], FLOAT_SPECIALS[::-1][:k]
    else:  # near the ends: the results wrap
        info = np.iinfo(dtype)
        x, y = (rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) for _ in range(2))
    return x.astype(dtype).reshape(shape), y.astype(dtype).reshape(shape)


def _same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "f":
        assert np.array_equal(np.isnan(got), np.isnan(want))
        keep = ~np.isnan(want)
        ints = {4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
        np.testing.assert_array_equal(got[keep].view(ints), want[keep].view(ints))  # -0.0 too
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("shape", [(1,), (7,), (3, 4), (2, 1, 5), (16384,), (16385,)], ids=str)
def test_results_have_numpy_bits(dtype, shape):
    a, b = _operands(dtype, shape, np.random.default_rng(hash(shape) % 1000))
    x, y = mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype)
    for name, fn in OPS.items():
        if name == "divide" and dtype.startswith("int"):
            continue  # integer division keeps the registry's rules (tiny.c declines it)
        with np.errstate(all="ignore"):
            want = fn(a, b).astype(dtype)
        _same_bits(fn(x, y).asnumpy(), want)
        out = mx.nd.zeros(shape, dtype=dtype)
        assert getattr(mx.nd, name)(x, y, out=out) is out
        _same_bits(out.asnumpy(), want)
        inplace = x.copy()
        inplace = fn(inplace, y) if name == "divide" else {"add": operator.iadd, "subtract": operator.isub,
                                                          "multiply": operator.imul}[name](inplace, y)
        _same_bits(inplace.asnumpy(), want)


SCALARS = [2, -3, 0, 0.5, -0.0, 1e300, -np.inf, 2**62 + 1, -(2**63)]


def _registry(fn, a, s):
    """fn(array, s) through the registry's Go path (more elements than tiny.c takes)."""
    big = mx.nd.array(np.concatenate([a, np.zeros(20000, a.dtype)]), dtype=a.dtype)
    return fn(big, s).asnumpy()[:a.size]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_scalar_forms_have_the_registry_bits(dtype):
    a, _ = _operands(dtype, (9,), np.random.default_rng(1))
    x = mx.nd.array(a, dtype=dtype)
    forms = {"x+s": lambda v, s: v + s, "s+x": lambda v, s: s + v, "x-s": lambda v, s: v - s,
             "s-x": lambda v, s: s - v, "x*s": lambda v, s: v * s, "x/s": lambda v, s: v / s, "s/x": lambda v, s: s / v}
    for s in SCALARS:
        for name, fn in forms.items():
            if dtype.startswith("int") and ("/" in name or isinstance(s, float)):
                continue  # the registry's rules (tiny.c declines them)
            _same_bits(fn(x, s).asnumpy(), _registry(fn, a, s))
    inplace = x.copy()
    inplace *= 3
    _same_bits(inplace.asnumpy(), _registry(lambda v, s: v * s, a, 3))


CMP = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne}
CMP_SCALARS = [2, -3, 0, 0.5, -0.0, np.inf, -np.inf, 127, 2**31 + 5, -(2**63)]


@pytest.mark.parametrize("ns", ["nd", "np"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_comparisons_have_the_registry_bits(ns, dtype, no_gc):
    """x > y and x > s in C: mx.nd's 1 or 0 in the operands' dtype (an int scalar wrapped to
    it, as MXNet casts), mx.np's bools (NumPy's exact ints); each as the registry's Go path
    (more elements than tiny.c takes) and NumPy give it, NaN, -0.0 and the integer ends
    included, with no Go array made."""
    a, b = _operands(dtype, (9,), np.random.default_rng(5))
    b[::3] = a[::3]  # equal pairs
    mod = getattr(mx, ns)
    x, y = mod.array(a, dtype=dtype), mod.array(b, dtype=dtype)
    big = lambda v: mod.array(np.concatenate([v, np.zeros(20000, v.dtype)]), dtype=dtype)  # noqa: E731
    want_dtype = np.bool_ if ns == "np" else np.dtype(dtype)
    for name, fn in CMP.items():
        got = want = None  # the last round's, freed before counting
        mx.nd.waitall()
        live = live_counts()
        got = fn(x, y)
        assert live_counts() == live, name  # computed in C
        want = fn(big(a), big(b)).asnumpy()[:a.size]
        assert got.asnumpy().dtype == want.dtype == want_dtype
        np.testing.assert_array_equal(got.asnumpy(), want)
        np.testing.assert_array_equal(want.astype(bool), fn(a, b))
        for s in CMP_SCALARS:
            if ns == "np" and dtype.startswith("int") and isinstance(s, int) and not \
                    np.iinfo(dtype).min <= s <= np.iinfo(dtype).max:
                continue  # mx.np refuses ints beyond the dtype (NumPy 2 compares them)
            for left, right in ((x, s), (s, x)):  # x > s and s > x
                ref = fn(big(a), s) if left is x else fn(s, big(a))
                np.testing.assert_array_equal(fn(left, right).asnumpy(), ref.asnumpy()[:a.size], err_msg=(name, s))


UNARY = {"sqrt": (lambda m, v: m.sqrt(v), np.sqrt), "abs": (lambda m, v: abs(v), np.abs),
         "-x": (lambda m, v: -v, np.negative), "negative": (lambda m, v: m.negative(v), np.negative),
         "square": (lambda m, v: m.square(v), np.square)}


@pytest.mark.parametrize("ns", ["nd", "np"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_operations_have_the_registry_bits(ns, dtype, no_gc):
    """sqrt, abs, -x and square in C: every bit of the registry's Go path (more elements than
    tiny.c takes), NaN's sign and payload included, NumPy's values, and no Go array made."""
    a, _ = _operands(dtype, (11,), np.random.default_rng(7))
    ints = {"float32": np.uint32, "float64": np.uint64}[dtype]
    payload = np.array([a.view(ints)[4] | 5], dtype=ints).view(dtype)  # a quiet NaN with a payload
    a = np.concatenate([a, payload, -payload, [-4.0, 1e-310]]).astype(dtype)
    mod = getattr(mx, ns)
    x = mod.array(a, dtype=dtype)
    big = mod.array(np.concatenate([a, np.zeros(20000, a.dtype)]), dtype=dtype)
    for name, (fn, ref) in UNARY.items():
        got = want = None  # the last round's, freed before counting
        mx.nd.waitall()
        live = live_counts()
        got = fn(mod, x)
        assert live_counts() == live, name  # computed in C
        want = fn(mod, big).asnumpy()[:a.size]
        np.testing.assert_array_equal(got.asnumpy().view(ints), want.view(ints), err_msg=name)
        with np.errstate(all="ignore"):
            _same_bits(got.asnumpy(), ref(a))
        out = mod.zeros(a.shape, dtype=dtype)
        if name in ("sqrt", "negative", "square"):
            assert getattr(mod, name)(x, out=out) is out
            np.testing.assert_array_equal(out.asnumpy().view(ints), want.view(ints), err_msg=name)


KERNELS = {"nd": ("exp", "sigmoid", "tanh"), "np": ("exp", "tanh")}


@pytest.mark.parametrize("ns", ["nd", "np"])
@pytest.mark.parametrize("n", [1, 7, 31, 32, 45, 16384])
def test_float32_kernels_have_the_go_bits(ns, n, no_gc):
    """float32 exp, sigmoid and tanh in C (internal/simd's kernels) at every length: the
    bits of the registry's path, whose rows under 32 elements run Go's loops (recording
    makes tiny.c decline), out= included; float64 is left to Go."""
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32) * 30
    a[:min(n, 8)] = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.8, -104.0, 1e-45][:min(n, 8)]
    mod = getattr(mx, ns)
    x = mod.array(a, dtype="float32")
    for name in KERNELS[ns]:
        fn = getattr(mod, name)
        got = want = None
        mx.nd.waitall()
        live = live_counts()
        got = fn(x)
        assert live_counts() == live, name  # computed in C
        with mx.autograd.record():
            want = fn(x)
        _same_bits(got.asnumpy(), want.asnumpy())
        out = mod.zeros(a.shape, dtype="float32")
        assert fn(x, out=out) is out
        _same_bits(out.asnumpy(), want.asnumpy())
        same = mod.array(a, dtype="float32")
        fn(same, out=same)  # in place
        _same_bits(same.asnumpy(), want.asnumpy())
    d = mod.array(a.astype(np.float64), dtype="float64")
    np.testing.assert_allclose(mod.exp(d).asnumpy(), np.exp(a.astype(np.float64)), rtol=1e-15)


@pytest.mark.parametrize("mnk", [(2, 2, 1), (8, 8, 8), (7, 33, 5), (32, 32, 32), (48, 48, 48), (3, 2, 5000),
                                 (50, 60, 40)], ids=str)
def test_float32_dot_has_the_go_bits(mnk, no_gc):
    """dot of float32 matrices in C (internal/simd's product, one block): the bits of the
    registry's path (recording makes tiny.c decline), out= included, nothing made in Go;
    products past tiny.c's limit (50 x 60 x 40) are Go's and agree too."""
    m, n, k = mnk
    rng = np.random.default_rng(m * n * k)
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    a[0, 0], b[-1, -1] = np.inf, np.nan
    x, y = mx.nd.array(a), mx.nd.array(b)
    mx.nd.waitall()
    live = live_counts()
    got = mx.nd.dot(x, y)
    if m * n * k <= 1 << 17:
        assert live_counts() == live  # computed in C
    with mx.autograd.record():
        want = mx.nd.dot(x, y)
    assert got.shape == (m, n) and got.dtype == np.float32
    _same_bits(got.asnumpy(), want.asnumpy())
    with np.errstate(invalid="ignore"):  # inf * 0 in row 0
        ref = a.astype(np.float64) @ b
    np.testing.assert_allclose(got.asnumpy()[1:, :-1], ref[1:, :-1], rtol=1e-4, atol=1e-3)
    out = mx.nd.zeros((m, n))
    assert mx.nd.dot(x, y, out=out) is out
    _same_bits(out.asnumpy(), want.asnumpy())


def test_dot_declines_what_it_does_not_compute():
    """Vectors (another kernel in Go), transposes, float64, views, misaligned memory and an
    out= over an operand take the registry's path, with its results."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((6, 6)).astype(np.float32), rng.standard_normal((6, 6)).astype(np.float32)
    x, y = mx.nd.array(a), mx.nd.array(b)
    close = {"rtol": 1e-5, "atol": 1e-5}
    np.testing.assert_allclose(mx.nd.dot(x[:1], y).asnumpy(), a[:1] @ b, **close)
    np.testing.assert_allclose(mx.nd.dot(x, y[:, :1]).asnumpy(), a @ b[:, :1], **close)
    np.testing.assert_allclose(mx.nd.dot(x, y, transpose_a=True).asnumpy(), a.T @ b, **close)
    np.testing.assert_allclose(mx.nd.dot(x, y, transpose_b=True).asnumpy(), a @ b.T, **close)
    d = mx.nd.dot(x.astype("float64"), y.astype("float64"))
    assert d.dtype == np.float64
    np.testing.assert_allclose(d.asnumpy(), a.astype(np.float64) @ b, rtol=1e-12)
    np.testing.assert_allclose(mx.nd.dot(x.T, y).asnumpy(), a.T @ b, **close)
    buf = np.zeros(4 * 36 + 1, np.uint8)  # imported memory a byte off its floats' alignment
    odd = np.frombuffer(buf.data, dtype=np.float32, offset=1, count=36).reshape(6, 6)
    odd[...] = a
    xo = mx.nd.from_numpy(odd, zero_copy=True)
    got = mx.nd.dot(xo, y)
    with mx.autograd.record():
        want = mx.nd.dot(x, y)
    _same_bits(got.asnumpy(), want.asnumpy())  # Go's path copies it aligned: the same kernel, the same bits
    mx.nd.dot(x, y, out=x)  # out over lhs: Go's path computes into a separate buffer first
    np.testing.assert_allclose(x.asnumpy(), a @ b, **close)
    with pytest.raises(ValueError):
        mx.nd.dot(mx.nd.array(a[:, :5]), y)
    with pytest.raises(ValueError):
        mx.nd.dot(x, y, out=mx.nd.zeros((6, 5)))


def test_unary_operations_decline_what_they_do_not_compute():
    """Integer dtypes, and operations tiny.c has no kernel for, keep the registry's path."""
    for dtype in ("int32", "int64"):
        a = np.array([-5, 0, 7, np.iinfo(dtype).min], dtype=dtype)
        x = mx.nd.array(a, dtype=dtype)
        np.testing.assert_array_equal((-x).asnumpy(), -a)
        np.testing.assert_array_equal(mx.nd.square(x).asnumpy(), a * a)
        np.testing.assert_array_equal(abs(x).asnumpy(), np.abs(a))
    v = mx.np.array([1, 4, 9], dtype="int32")
    r = mx.np.sqrt(v)  # an int array's sqrt is float (the registry casts)
    assert r.dtype == np.float32 and r.asnumpy().tolist() == [1.0, 2.0, 3.0]


REDUCE = ("sum", "mean", "max", "min")


@pytest.mark.parametrize("ns", ["nd", "np"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_reductions_have_the_registry_bits(ns, dtype, no_gc):
    """x.sum(), x.mean(), x.max() and x.min() in C: the registry's result (recorded, which
    tiny.c declines) bit for bit, max's first NaN and zero included, mx.nd's shape (1,) and
    mx.np's (), and no Go array made; the result then works as any array."""
    mod, rng = getattr(mx, ns), np.random.default_rng(11)
    ints = {"float32": np.uint32, "float64": np.uint64}[dtype]
    nan = np.array([np.array(np.nan, dtype).view(ints) | 3], dtype=ints).view(dtype)[0]
    cases = [rng.standard_normal(n).astype(dtype) * 100 for n in (1, 7, 8, 63, 64, 129, 1000, 16384)]
    cases += [np.full(9, -0.0, dtype), np.array([0.0, -0.0, -1.0], dtype), np.array([-0.0, 0.0], dtype),
              np.array([1.0, nan, -np.nan, 5.0], dtype), np.array([-np.inf, np.inf, 3e38], dtype)]
    for a in cases:
        x = mod.array(a, dtype=dtype)
        for name in REDUCE:
            got = want = None  # the last round's, freed before counting
            mx.nd.waitall()
            live = live_counts()
            got = getattr(x, name)()
            assert live_counts() == live, (name, a.size)  # computed in C
            with mx.autograd.record():
                want = getattr(x, name)()
            assert got.shape == want.shape == ((1,) if ns == "nd" else ())
            assert got.dtype == want.dtype
            g, w = got.asnumpy(), want.asnumpy()
            if name in ("max", "min"):
                np.testing.assert_array_equal(g.view(ints), w.view(ints), err_msg=(name, a))
            else:
                _same_bits(g, w)
            if a.size > 8 and np.isfinite(a).all():
                np.testing.assert_allclose(g.reshape(()), getattr(np, name)(a.astype(np.float64)), rtol=1e-6)
    y = mod.array(np.float32([1, 2, 3])).sum()
    np.testing.assert_array_equal((y * 2 + 1).asnumpy(), np.full(y.shape, 13, np.float32))  # Go adopts it
    assert y.handle


@pytest.mark.parametrize("ns", ["nd", "np"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_one_axis_sums_and_means_have_the_registry_bits(ns, dtype, no_gc):
    """x.sum(axis=a) and x.mean(axis=a), keepdims or not, in C: the registry's result
    (recorded, which tiny.c declines) in shape, dtype and bits, for leading, middle, last
    and negative axes (pairwise row sums where the axis is innermost, adds in order
    otherwise), -0.0, inf and NaN included, and no Go array made."""
    mod, rng = getattr(mx, ns), np.random.default_rng(12)
    # every loop nest: contiguous rows, rows under 16 walked across (100 x 3, 40 x 9),
    # columns under 16 in blocks of 1024 (3000 x 3), rows of columns added in order
    shapes = [(10,), (1, 10), (3, 4), (64, 100), (2, 3, 5), (4, 1, 7), (2, 150, 3), (16384, 1), (3, 1000),
              (100, 3), (40, 9), (3000, 3), (2, 5, 40), (1, 2000, 3)]
    for shape in shapes:
        # magnitudes 1e-12 to 1e12: double sums of them round, so each order has its own bits
        a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-12, 13, shape)).astype(dtype)
        flat = a.reshape(-1)
        flat[:4] = [-0.0, np.inf, np.nan, -0.0][:flat.size]
        x = mod.array(a, dtype=dtype)
        for axis in range(-len(shape), len(shape)):
            for keepdims in (False, True):
                for name in ("sum", "mean"):
                    got = want = None
                    mx.nd.waitall()
                    live = live_counts()
                    got = getattr(x, name)(axis=axis, keepdims=keepdims)
                    assert live_counts() == live, (name, shape, axis)  # computed in C
                    with mx.autograd.record():
                        want = getattr(x, name)(axis=axis, keepdims=keepdims)
                    assert got.shape == want.shape and got.dtype == want.dtype, (name, shape, axis, keepdims)
                    _same_bits(got.asnumpy(), want.asnumpy())
                    with np.errstate(invalid="ignore"):
                        ref = getattr(np, name)(a.astype(np.float64), axis=axis, keepdims=keepdims)
                    scale = np.abs(a[np.isfinite(a)]).max() * a.shape[axis]
                    np.testing.assert_allclose(got.asnumpy().reshape(ref.shape), ref, rtol=1e-5, atol=1e-6 * scale)


def test_axis_reductions_decline_what_they_do_not_compute():
    """Several axes, exclude, a bad axis, out=, max over an axis and integers keep the
    registry's path and its answers and errors."""
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = mx.nd.array(a)
    np.testing.assert_array_equal(x.sum(axis=(0, 2)).asnumpy(), a.sum(axis=(0, 2)))
    np.testing.assert_array_equal(mx.nd.sum(x, axis=1, exclude=True).asnumpy(), a.sum(axis=(0, 2)))
    np.testing.assert_array_equal(x.max(axis=1).asnumpy(), a.max(axis=1))
    with pytest.raises(IndexError, match="out of bounds"):
        x.sum(axis=3)
    with pytest.raises(IndexError, match="out of bounds"):
        x.mean(axis=-4)
    o = mx.nd.zeros((3, 4))
    assert mx.nd.sum(x, axis=0, out=o) is o
    np.testing.assert_array_equal(o.asnumpy(), a.sum(axis=0))
    xi = mx.nd.array(a, dtype="int32")
    assert xi.sum(axis=0).dtype == np.int32 and xi.sum(axis=0).asnumpy().tolist() == a.sum(axis=0).tolist()


def test_whole_reductions_decline_what_they_do_not_compute():
    """Integers, parameters other than one axis, out= and 0-size arrays keep the registry's
    path and its answers."""
    xi = mx.nd.array([1, 2, 3], dtype="int32")
    assert xi.sum().dtype == np.int32 and xi.sum().asscalar() == 6 and xi.max().asscalar() == 3
    m = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(m.max(keepdims=True).asnumpy(), [[5]])
    o = mx.nd.zeros((1,))
    assert mx.nd.sum(m, out=o) is o and o.asscalar() == 15
    with pytest.raises(ValueError, match="zero-size array"):
        mx.nd.zeros((0,)).max()
    assert mx.nd.zeros((0,)).sum().asscalar() == 0


@pytest.mark.parametrize("ns", ["nd", "np"])
def test_an_integer_array_key_gathers_in_c(ns, no_gc):
    """x[i] for an integer array i: rows copied in C (negative indices from the end), the
    registry's result (recorded, which tiny.c declines) in shape, dtype and bits, for every
    index dtype the gather takes and data dtypes of every element size; an index out of
    range leaves it to Go, which raises."""
    mod, rng = getattr(mx, ns), np.random.default_rng(3)
    for dtype in ("float32", "float64", "int32", "uint8", "float16", "bool"):
        for shape in ((5,), (5, 3), (4, 2, 3)):
            a = (rng.standard_normal(shape) * 10).astype(dtype)
            x = mod.array(a, dtype=dtype)
            for idtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"):
                signed = idtype.startswith("int")
                for ishape in ((3,), (2, 2)):
                    iv = rng.integers(-shape[0] if signed else 0, shape[0], ishape).astype(idtype)
                    i = mod.array(iv, dtype=idtype)
                    got = want = None
                    mx.nd.waitall()
                    live = live_counts()
                    got = x[i]
                    assert live_counts() == live, (dtype, idtype)  # computed in C
                    with mx.autograd.record():
                        want = x[i]
                    assert type(got) is type(want) and got.shape == want.shape == ishape + shape[1:]
                    assert got.dtype == want.dtype
                    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
                    np.testing.assert_array_equal(got.asnumpy(), a[iv.astype(np.int64)])
    x = mod.array(np.arange(4.0))
    for bad in ([4], [-5], [0, 9]):
        with pytest.raises(IndexError):  # Go's operation, which raises at the wait
            x[mod.array(bad, dtype="int64")].wait_to_read()
    np.testing.assert_array_equal(x.asnumpy(), np.arange(4.0))  # left intact
    g = x[mod.array([3, 0], dtype="int32")]
    g[0] = 7  # a copy, writable, adopted by Go on first use
    assert x.asnumpy()[3] == 3 and g.asnumpy().tolist() == [7.0, 0.0]


def test_an_array_with_itself():
    a = np.float32([1.5, -2.0, 3.0])
    x = mx.nd.array(a)
    _same_bits((x * x).asnumpy(), a * a)
    x += x
    _same_bits(x.asnumpy(), a + a)


def test_no_go_array_until_one_is_needed(no_gc):
    x, y, out = mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0]), mx.nd.zeros(2)
    mx.nd.waitall()
    live = live_counts()
    z = x + y
    mx.nd.add(x, y, out=out)
    x -= y
    w = 2 - x * 0.5
    x /= 4
    assert live_counts() == live  # computed in C: no handle, no storage
    np.testing.assert_array_equal(w.asnumpy(), [3.0, 3.0])
    del w
    assert z.handle  # the first use that needs Go makes its side
    assert live_counts()[:2] == (live[0] + 1, live[1] + 1)
    del z
    assert live_counts() == live


@pytest.fixture
def no_gc():
    """The live counters move only by what the test does: no collection of earlier garbage
    (nothing here makes cycles; refcounting frees it all)."""
    gc.disable()
    yield
    gc.enable()


@pytest.mark.parametrize("use", FIRST_USES, ids=str)
def test_a_c_made_result_lives_as_long_as_its_users(use, no_gc):
    x = mx.nd.array([1.0, 2.0, 3.0])
    mx.nd.waitall()
    live = live_counts()
    z = x + x
    got = FIRST_USES[use](z)
    z.wait_to_read()
    del z
    mx.nd.waitall()
    gc.collect()
    if use in HOLDS_MEMORY:  # the consumer keeps the memory: its values are still there
        capsule = type(got).__name__ == "PyCapsule"
        np.testing.assert_array_equal(mx.nd.from_dlpack(got).asnumpy() if capsule else np.asarray(got), [2.0, 4.0, 6.0])
    elif use == "operator":
        np.testing.assert_allclose(got.asnumpy(), np.exp(np.float32([2.0, 4.0, 6.0])), rtol=1e-6)
    del got
    mx.nd.waitall()
    assert live_counts() == live


def test_writes_are_shared_with_a_consumer():
    z = mx.nd.array([1.0, 2.0]) + mx.nd.array([3.0, 4.0])
    t = torch.from_dlpack(z)
    z[:] = 9
    assert t.tolist() == [9.0, 9.0]
    t[0] = 1
    assert z.asnumpy().tolist() == [1.0, 9.0]


def _through_go(make):
    """The result of make() and whether it made a Go array (the registry's path)."""
    mx.nd.waitall()
    before = live_counts()[0]
    r = make()
    r.wait_to_read()
    return r, live_counts()[0] > before


def test_calls_it_declines_take_the_registry_path():
    a, b = np.arange(8, dtype=np.float32), np.arange(8, dtype=np.float32)[::-1].copy()
    x, y = mx.nd.array(a), mx.nd.array(b)
    cases = {
        "broadcast": (lambda: x + mx.nd.array([2.0]), a + np.float32(2)),
        "column": (lambda: x.reshape(2, 4) + y[:2].reshape(2, 1), a.reshape(2, 4) + b[:2].reshape(2, 1)),
        "more dimensions": (lambda: x.reshape(2, 4) + y[:4].reshape(1, 1, 4), a.reshape(2, 4) + b[:4].reshape(1, 1, 4)),
        "view": (lambda: x[::2] + y[::2], a[::2] + b[::2]),
        "float16": (lambda: x.astype("float16") + y.astype("float16"), (a + b).astype("float16")),
        "large": (lambda: mx.nd.ones(20000) + mx.nd.ones(20000), np.full(20000, 2, np.float32)),
        "integer divide": (lambda: mx.nd.array([7, -7], dtype="int32") / mx.nd.array([2, 2], dtype="int32"),
                           (mx.nd.array([7, -7], dtype="int32").astype("float32") / 2).asnumpy().astype("int32")),
    }
    for name, (make, want) in cases.items():
        r, went_to_go = _through_go(make)
        assert went_to_go, name
        np.testing.assert_array_equal(r.asnumpy(), want, err_msg=name)
    r, went_to_go = _through_go(lambda: x + y)
    assert not went_to_go


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((4,), (3, 4)), ((1, 5), (5,)), ((5,), (1, 5)),
                                    ((2, 3, 4), (3, 4)), ((2, 3, 4), (1, 4)), ((3, 1, 4), (1, 4)), ((2, 64), (64,))],
                         ids=str)
def test_a_repeated_trailing_block_broadcasts_in_c(dtype, shapes):
    """x op y where one operand, less its leading 1s, ends the other's shape (a bias row
    against a batch): computed in C a repeat at a time, NumPy's bits, without Go; out= on
    the larger operand's shape, in place or apart."""
    rng = np.random.default_rng(11)
    a, _ = _operands(dtype, shapes[0], rng)
    _, b = _operands(dtype, shapes[1], rng)
    x, y = mx.nd.array(a, dtype=dtype), mx.nd.array(b, dtype=dtype)
    for name, fn in OPS.items():
        if name == "divide" and dtype.startswith("int"):
            continue
        with np.errstate(all="ignore"):
            want = fn(a, b).astype(dtype)
        r, went_to_go = _through_go(lambda fn=fn: fn(x, y))
        assert not went_to_go, name
        _same_bits(r.asnumpy(), want)
        out = mx.nd.zeros(want.shape, dtype=dtype)
        assert getattr(mx.nd, name)(x, y, out=out) is out
        _same_bits(out.asnumpy(), want)
        big = x if a.size >= b.size and a.ndim >= b.ndim else y
        inplace = big.copy()
        getattr(mx.nd, name)(*((inplace, y) if big is x else (x, inplace)), out=inplace)
        _same_bits(inplace.asnumpy(), want)
    for ns in (mx.nd, mx.np):
        xs, ys = ns.array(a, dtype=dtype), ns.array(b, dtype=dtype)
        with np.errstate(all="ignore"):
            want = (a > b).astype(dtype if ns is mx.nd else bool)
        r, went_to_go = _through_go(lambda xs=xs, ys=ys: xs > ys)
        assert not went_to_go
        np.testing.assert_array_equal(r.asnumpy(), want)
        assert r.asnumpy().dtype == want.dtype


def test_a_broadcast_out_over_the_repeated_operand_is_left_to_go():
    row = mx.nd.array(np.arange(8, dtype=np.float32))
    m = mx.nd.array(np.ones((2, 8), np.float32))
    flat = row.reshape(2, 4)  # out shares the repeated row's memory: the registry copies first
    want = np.ones((2, 4), np.float32) + np.arange(8, dtype=np.float32).reshape(2, 4)[0]
    mx.nd.add(m[:, :4], row[:4], out=flat)
    np.testing.assert_array_equal(flat.asnumpy(), want)


def test_recording_takes_the_registry_path():
    x, y = mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0])
    x.attach_grad()
    with mx.autograd.record():
        z = x * y
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [3.0, 4.0])


def test_a_pending_write_is_seen():
    big = mx.nd.ones((2_000_000, 10))
    x, y = mx.nd.zeros(10), mx.nd.ones(10)
    mx.nd.waitall()
    mx.nd.sum(big, axis=0, out=x)  # runs on the engine while the next line is called
    np.testing.assert_array_equal((x + y).asnumpy(), np.full(10, 2_000_001, np.float32))


def test_a_partly_overlapping_out_is_separated():
    base = mx.nd.array(np.arange(5, dtype=np.float32))
    mx.nd.add(base[0:4], mx.nd.ones(4), out=base[1:5])  # reads what it overwrites: the registry copies first
    np.testing.assert_array_equal(base.asnumpy(), [0, 1, 2, 3, 4])
    flat = mx.nd.array(np.arange(8, dtype=np.float32))
    lo, hi = flat.reshape(2, 4)[0], flat.reshape(2, 4)[1]
    mx.nd.multiply(lo, hi, out=lo)  # exactly in place: elementwise
    np.testing.assert_array_equal(flat.asnumpy(), [0, 5, 12, 21, 4, 5, 6, 7])


def test_bad_outs_raise_as_before():
    x = mx.nd.array([1.0, 2.0])
    n = np.zeros(2, np.float32)
    n.flags.writeable = False
    frozen = mx.nd.from_numpy(n)
    assert not frozen.writable
    with pytest.raises(ValueError, match="read-only"):
        mx.nd.add(x, x, out=frozen)
    with pytest.raises(TypeError, match="dtype"):
        mx.nd.add(x, x, out=mx.nd.zeros(2, dtype="float64"))
    with pytest.raises(ValueError, match="shape"):
        mx.nd.add(x, x, out=mx.nd.zeros(3))
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])


def test_mx_np_keeps_its_class():
    a = mx.np.array([1.0, 2.0])
    r = a + a
    assert type(r) is type(a)
    np.testing.assert_array_equal(r.asnumpy(), [2.0, 4.0])
