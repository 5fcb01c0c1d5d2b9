"""The mx-style Python API: contexts, array creation, dtypes, properties, repr, random
sampling, synchronisation and mx.test_utils. Values are checked against NumPy."""
import json
import platform

import numpy as np
import pytest

import mxgo as mx
from mxgo.base import core
from api_helpers import ALL_DTYPES, assert_bits, assert_nd, name, sample

# ---------------------------------------------------------------------------- contexts


@pytest.mark.parametrize("ctx, same, text, typeid", [
    (mx.cpu(), mx.cpu(0), "cpu(0)", 1),
    (mx.cpu(3), mx.Context("cpu", 3), "cpu(3)", 1),
    (mx.gpu(), mx.Context("gpu"), "gpu(0)", 2),
    (mx.gpu(1), mx.Context(mx.gpu(1)), "gpu(1)", 2),
    (mx.Context("cpu_pinned", 0), mx.cpu_pinned(), "cpu_pinned(0)", 3),
])
def test_context_equality_repr_and_hash(ctx, same, text, typeid):
    assert ctx == same and not ctx != same
    assert hash(ctx) == hash(same)
    assert repr(ctx) == str(ctx) == text
    assert ctx.device_type == text.split("(")[0]
    assert (ctx.device_typeid, ctx.device_id) == (typeid, int(text[-2]))
    assert ctx != mx.Context(ctx.device_type, ctx.device_id + 1)
    assert all(ctx != mx.Context(t, ctx.device_id) for t in ("cpu", "gpu", "cpu_pinned") if t != ctx.device_type)
    assert ctx != text and ctx != (typeid, ctx.device_id)


def test_current_context_and_with_blocks():
    assert mx.context.current_context() == mx.current_context() == mx.cpu(0)
    with mx.cpu(1) as outer:
        assert outer == mx.cpu(1) and mx.current_context() == mx.cpu(1)
        assert mx.nd.zeros((2,)).context == mx.cpu(1)
        with mx.cpu(0):
            assert mx.current_context() == mx.cpu(0)
            assert mx.nd.array([1, 2]).ctx == mx.cpu(0)
        assert mx.current_context() == mx.cpu(1)
    assert mx.current_context() == mx.cpu(0)


def test_the_same_context_entered_inside_itself():
    ctx, other = mx.cpu(1), mx.cpu(2)
    with ctx:
        with other:
            with ctx:
                assert mx.current_context() == mx.cpu(1)
            assert mx.current_context() == mx.cpu(2)
        assert mx.current_context() == mx.cpu(1)
    assert mx.current_context() == mx.cpu(0)
    with mx.current_context():  # the shared default, entered and left
        assert mx.current_context() == mx.cpu(0)
    assert mx.current_context() == mx.cpu(0)


def test_with_block_restores_context_after_an_error():
    with pytest.raises(mx.MXNetError, match="gpu"):
        with mx.gpu(0):
            assert mx.current_context() == mx.gpu(0)
            mx.nd.zeros((2, 2))
    assert mx.current_context() == mx.cpu(0)
    assert mx.nd.zeros((1,)).context == mx.cpu(0)


def test_mxnet_error_is_an_exception():
    assert issubclass(mx.MXNetError, Exception)
    assert mx.MXNetError is mx.base.MXNetError


@pytest.mark.parametrize("builtin", [ValueError, TypeError, IndexError, BufferError, MemoryError, NotImplementedError],
                         ids=lambda c: c.__name__)
def test_bad_input_errors_are_mxnet_errors_and_builtins(builtin):
    """As in MXNet, ``except mx.base.MXNetError`` catches every error mxgo raises, and the
    built-in class (as NumPy and PyTorch raise) catches it too."""
    cls = mx.base.mxnet_error(builtin)
    assert cls is getattr(mx.base, "MXNet" + builtin.__name__)
    assert issubclass(cls, mx.base.MXNetError) and issubclass(cls, builtin)
    assert mx.base.mxnet_error(OverflowError) is OverflowError  # no MXNet form
    with pytest.raises(mx.base.MXNetError) as info:  # from Go, C and Python alike
        {ValueError: lambda: mx.nd.zeros((2,)).reshape(3), TypeError: lambda: mx.nd.zeros((2,), dtype="float33"),
         IndexError: lambda: mx.nd.zeros((2,))[5], BufferError: lambda: mx.nd.zeros((2,)).__dlpack__(dl_device=(2, 0)),
         MemoryError: lambda: mx.nd.empty((1 << 40, 1 << 20)), NotImplementedError: _failing_callback}[builtin]()
    assert isinstance(info.value, builtin) and type(info.value) is cls


def _failing_callback():
    """Waits on a run_async callable that raised NotImplementedError (the engine's error)."""
    def fn(view):
        raise NotImplementedError("later")

    x = mx.nd.zeros((1,))
    mx.nd.run_async(fn, writes=[x])
    try:
        x.wait_to_read()
    finally:
        mx.nd.waitall()  # raises nothing: the wait raised it, once


GPU_CREATORS = {
    "empty": lambda ctx: mx.nd.empty((2, 3), ctx=ctx),
    "zeros": lambda ctx: mx.nd.zeros((2, 3), ctx=ctx),
    "ones": lambda ctx: mx.nd.ones((2, 3), ctx=ctx, dtype="int32"),
    "full": lambda ctx: mx.nd.full((2,), 7.0, ctx=ctx),
    "array": lambda ctx: mx.nd.array([1, 2, 3], ctx=ctx),
    "array_of_ndarray": lambda ctx: mx.nd.array(mx.nd.ones((2,)), ctx=ctx),
    "arange": lambda ctx: mx.nd.arange(5, ctx=ctx),
    "uniform": lambda ctx: mx.nd.random.uniform(shape=(2,), ctx=ctx),
    "normal": lambda ctx: mx.nd.random.normal(shape=(2,), ctx=ctx),
    "copyto": lambda ctx: mx.nd.ones((2,)).copyto(ctx),
    "as_in_context": lambda ctx: mx.nd.ones((2,)).as_in_context(ctx),
    "with_block": lambda ctx: _zeros_inside(ctx),
}


def _zeros_inside(ctx):
    with ctx:
        return mx.nd.zeros((2,))


@pytest.mark.parametrize("device_id", [0, 1])
@pytest.mark.parametrize("how", sorted(GPU_CREATORS))
def test_creating_on_gpu_raises_mxnet_error_naming_the_missing_back_end(how, device_id):
    with pytest.raises(mx.MXNetError, match=r"gpu\(%d\).*back end" % device_id):
        GPU_CREATORS[how](mx.gpu(device_id))


# ---------------------------------------------------------------------------- mx.nd.array

F32 = np.float32
SOURCE_CASES = {
    "list": ([1, 2, 3], {}, np.array([1, 2, 3], F32)),
    "tuple": ((1.5, -2, 3), {}, np.array([1.5, -2, 3], F32)),
    "nested_lists": ([[1, 2], [3, 4]], {}, np.array([[1, 2], [3, 4]], F32)),
    "list_of_tuples": ([(1, 2, 3), (4, 5, 6)], {}, np.arange(1, 7, dtype=F32).reshape(2, 3)),
    "empty_list": ([], {}, np.zeros((0,), F32)),
    "int_scalar_is_0d": (5, {}, np.array(5, F32)),
    "float_scalar_is_0d": (2.5, {}, np.array(2.5, F32)),
    "bool_scalar": (True, {}, np.array(1, F32)),
    "numpy_scalar": (np.float64(-3.25), {}, np.array(-3.25, F32)),
    "numpy_0d": (np.array(7, np.int16), {}, np.array(7, F32)),
    "numpy_int64_becomes_float32": (np.arange(6).reshape(2, 3), {}, np.arange(6, dtype=F32).reshape(2, 3)),
    "numpy_float64_becomes_float32": (np.linspace(0, 1, 5), {}, np.linspace(0, 1, 5).astype(F32)),
    "numpy_strided": (np.arange(12.0).reshape(3, 4)[::-1, ::2], {}, np.arange(12, dtype=F32).reshape(3, 4)[::-1, ::2]),
    "numpy_fortran": (np.asfortranarray(np.arange(6.0).reshape(2, 3)), {}, np.arange(6, dtype=F32).reshape(2, 3)),
    "numpy_4d": (np.arange(120).reshape(2, 3, 4, 5), {}, np.arange(120, dtype=F32).reshape(2, 3, 4, 5)),
    "numpy_0_size": (np.zeros((2, 0, 3), np.int8), {}, np.zeros((2, 0, 3), F32)),
    "dtype_str": ([1, 2], {"dtype": "int16"}, np.array([1, 2], np.int16)),
    "dtype_np_type": ([1, 2], {"dtype": np.uint8}, np.array([1, 2], np.uint8)),
    "dtype_np_dtype": ([1, 2], {"dtype": np.dtype("float64")}, np.array([1, 2], np.float64)),
    "dtype_bool": ([0, 2, -1], {"dtype": bool}, np.array([False, True, True])),
    "dtype_complex": ([1, 2j], {"dtype": "complex64"}, np.array([1, 2j], np.complex64)),
    "float_to_int_truncates": ([1.9, -1.9], {"dtype": "int32"}, np.array([1, -1], np.int32)),
    "numpy_keeps_given_dtype": (np.arange(3, dtype=np.int64), {"dtype": "int64"}, np.arange(3, dtype=np.int64)),
    "ctx": ([[1]], {"ctx": mx.cpu(0)}, np.array([[1]], F32)),
}


@pytest.mark.parametrize("case", sorted(SOURCE_CASES))
def test_array_from_sources(case):
    source, kwargs, expected = SOURCE_CASES[case]
    x = mx.nd.array(source, **kwargs)
    assert_nd(x, expected)
    assert x.context == kwargs.get("ctx", mx.cpu(0))


@pytest.mark.parametrize("kwargs, dtype", [({}, np.int32), ({"dtype": "float16"}, np.float16),
                                           ({"dtype": np.int64}, np.int64)])
def test_array_from_ndarray_keeps_its_dtype_unless_given_and_copies(kwargs, dtype):
    src = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="int32")
    x = mx.nd.array(src, **kwargs)
    assert_nd(x, np.array([[1, 2, 3], [4, 5, 6]], dtype))
    x[:] = 0
    assert_nd(src, np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    assert_nd(mx.nd.array(src[:, ::-2], **kwargs), np.array([[3, 1], [6, 4]], dtype))


# ------------------------------------------------------------------- empty/zeros/ones/full

SHAPES = [(), (0,), (5,), (2, 0, 3), (2, 3, 4, 5)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [None, "int8", np.uint16, np.dtype("float64"), np.complex128, bool])
@pytest.mark.parametrize("fn, np_fn", [(mx.nd.zeros, np.zeros), (mx.nd.ones, np.ones),
                                       (mx.nd.empty, np.empty)], ids=["zeros", "ones", "empty"])
def test_zeros_ones_empty(fn, np_fn, shape, dtype):
    x = fn(shape, dtype=dtype)
    expected = np_fn(shape, dtype=np.float32 if dtype is None else dtype)
    if fn is mx.nd.empty:
        assert (x.shape, x.dtype) == (expected.shape, expected.dtype.type)
    else:
        assert_nd(x, expected)
    assert x.context == mx.cpu(0)


def test_shape_may_be_an_int_or_numpy_ints():
    assert mx.nd.zeros(4).shape == (4,)
    assert mx.nd.ones([np.int64(2), np.int32(3)]).shape == (2, 3)


@pytest.mark.parametrize("shape, val, dtype", [
    ((2, 3), 7, None), ((2, 3), 2.5, "float64"), ((), -1, "int64"), ((4,), 300, "int16"),
    ((3,), True, bool), ((2,), 0.0, bool), ((2, 2), 1 + 2j, "complex64"), ((1,), -2.75, "float16"),
    ((2,), np.float32(1.25), None), ((3,), 2 ** 64 - 1, "uint64"), ((3,), -2 ** 63, "int64"),
    ((2,), 9.99, "uint8"),
])
def test_full(shape, val, dtype):
    expected = np.full(shape, val, dtype=np.float32 if dtype is None else dtype)
    assert_nd(mx.nd.full(shape, val, dtype=dtype), expected)


# --------------------------------------------------------------------------------- arange

@pytest.mark.parametrize("args, kwargs", [
    ((5,), {}), ((2, 10), {}), ((0, 10, 3), {}), ((10, 0, -2), {}), ((1, 2, 0.25), {}),
    ((0, -5, -1.5), {}), ((5, 5), {}), ((5, 0), {}), ((0, 1, 0.1), {}), ((-3.5, 3), {}),
    ((3,), {"dtype": "int32"}), ((0, 100, 7), {"dtype": np.int64}), ((0, 4), {"dtype": "float64"}),
    ((0, 10, 3), {"repeat": 2}), ((2, 5), {"repeat": 3, "dtype": "int64"}), ((4,), {"repeat": 1}),
    ((1, 2), {"step": 0.25, "repeat": 2}),
])
def test_arange_matches_numpy(args, kwargs):
    x = mx.nd.arange(*args, **kwargs)
    start, stop = (0, args[0]) if len(args) == 1 else args[:2]
    step = args[2] if len(args) > 2 else kwargs.get("step", 1)
    dtype = kwargs.get("dtype", np.float32)
    expected = np.repeat(np.arange(start, stop, step, dtype=np.float64), kwargs.get("repeat", 1))
    assert_nd(x, expected.astype(dtype), rtol=1e-6)


# ----------------------------------------------------------------------------- all dtypes

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
@pytest.mark.parametrize("spell", [lambda d: d, lambda d: np.dtype(d), lambda d: np.dtype(d).name],
                         ids=["type", "np_dtype", "str"])
def test_every_dtype_round_trips_exactly(dtype, spell):
    src = sample(dtype, (3, 4))
    x = mx.nd.array(src, dtype=spell(dtype))
    assert x.dtype is np.dtype(dtype).type
    assert_bits(x.asnumpy(), src)
    assert_bits(np.asarray(x), src)
    assert_bits(mx.nd.array(x).asnumpy(), src)
    assert_bits(x[1:, ::2].asnumpy(), src[1:, ::2])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_asscalar_returns_a_numpy_scalar_of_the_dtype(dtype):
    src = sample(dtype, (12,))
    x = mx.nd.array(src, dtype=dtype)
    for i in range(src.size):
        got = x[i].asscalar()
        assert type(got) is np.dtype(dtype).type
        assert_bits(np.asarray(got), np.asarray(src[i]))
    assert_bits(np.asarray(mx.nd.array(src[3:4], dtype=dtype).asscalar()), np.asarray(src[3]))
    assert_bits(np.asarray(mx.nd.full((1, 1), src[5], dtype=dtype).asscalar()), np.asarray(src[5]))


# ----------------------------------------------------------------------------- properties

@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_shape_size_ndim_len_context(shape):
    x = mx.nd.zeros(shape, dtype="int32")
    assert type(x.shape) is tuple and x.shape == shape
    assert all(type(d) is int for d in x.shape)
    assert x.size == int(np.prod(shape)) and x.ndim == len(shape)
    assert x.context == x.ctx == mx.cpu(0)
    assert x.writable is True
    if shape:
        assert len(x) == shape[0]
    else:
        with pytest.raises(TypeError):
            len(x)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex64], ids=name)
def test_np_asarray(dtype):
    src = sample(dtype, (2, 3, 4))
    x = mx.nd.array(src, dtype=dtype)
    assert_bits(np.asarray(x), src)
    assert_bits(np.array(x), src)
    np.testing.assert_array_equal(np.asarray(x, dtype=np.complex128), src.astype(np.complex128))
    out = np.asarray(x)
    out[...] = 0  # a copy: the NDArray is untouched
    assert_bits(x.asnumpy(), src)


@pytest.mark.parametrize("make, text", [
    (lambda: mx.nd.array([[1, 2], [3, 4]]), "\n[[1. 2.]\n [3. 4.]]\n<NDArray 2x2 @cpu(0)>"),
    (lambda: mx.nd.array(3.5), "\n3.5\n<NDArray  @cpu(0)>"),
    (lambda: mx.nd.arange(3, dtype="int32"), "\n[0 1 2]\n<NDArray 3 @cpu(0)>"),
    (lambda: mx.nd.zeros((0, 3)), "\n[]\n<NDArray 0x3 @cpu(0)>"),
    (lambda: mx.nd.ones((1, 1, 2), dtype=bool), "\n[[[ True  True]]]\n<NDArray 1x1x2 @cpu(0)>"),
    (lambda: mx.nd.ones((1,), ctx=mx.cpu(2)), "\n[1.]\n<NDArray 1 @cpu(2)>"),
], ids=["2x2", "0d", "int", "0_size", "bool_3d", "cpu2"])
def test_repr_is_mxnet_style(make, text):
    assert repr(make()) == text  # MXNet's: a leading newline, the values, then <NDArray shape @ctx>


@pytest.mark.parametrize("shape", [(2, 3, 4), (1,), (0, 2)], ids=str)
def test_repr_is_numpy_body_then_x_joined_shape(shape):
    x = mx.nd.array(np.arange(np.prod(shape)).reshape(shape))
    assert repr(x) == "\n%s\n<NDArray %s @cpu(0)>" % (x.asnumpy(), "x".join(map(str, shape)))


def test_synchronisation_calls_return_none():
    x = mx.nd.ones((3,))
    assert x.wait_to_read() is None and x.wait_to_write() is None and mx.nd.waitall() is None
    assert_nd(x, np.ones(3, np.float32))


# --------------------------------------------------------------------------------- random

@pytest.mark.parametrize("dtype", [None, "float16", np.float32, "float64"])
@pytest.mark.parametrize("low, high", [(0, 1), (-2, 3), (5.5, 5.75)])
def test_uniform(low, high, dtype):
    x = mx.nd.random.uniform(low, high, shape=(50, 40), dtype=dtype)
    assert x.shape == (50, 40) and x.dtype is np.dtype(dtype or np.float32).type
    v = x.asnumpy().astype(np.float64)
    assert v.min() >= low and v.max() <= high
    assert abs(v.mean() - (low + high) / 2) < 0.1 * (high - low)
    assert len(np.unique(v)) > 1


@pytest.mark.parametrize("dtype", [None, np.float16, "float64"])
def test_normal(dtype):
    x = mx.nd.random.normal(loc=1.5, scale=2.0, shape=(100, 100), dtype=dtype)
    assert x.shape == (100, 100) and x.dtype is np.dtype(dtype or np.float32).type
    v = x.asnumpy().astype(np.float64)
    assert abs(v.mean() - 1.5) < 0.1 and abs(v.std() - 2.0) < 0.1


def test_random_defaults_shape_one_float32_and_out():
    for fn in (mx.nd.random.uniform, mx.nd.random.normal):
        x = fn()
        assert (x.shape, x.dtype, x.context) == ((1,), np.float32, mx.cpu(0))
    out = mx.nd.zeros((4, 4), dtype="float64")
    assert mx.nd.random.uniform(2, 3, out=out) is out
    assert (out.asnumpy() >= 2).all() and (out.asnumpy() <= 3).all()
    with pytest.raises(ValueError, match="scale must be positive"):  # as MXNet refuses scale 0
        mx.nd.random.normal(0, 0, shape=(3,))
    assert (mx.nd.random.uniform(4, 4, shape=(3,)).asnumpy() == 4).all()


@pytest.mark.parametrize("fn", [mx.nd.random.uniform, mx.nd.random.normal], ids=["uniform", "normal"])
def test_seed_makes_samples_repeat(fn):
    assert mx.random.seed is mx.nd.random.seed
    mx.random.seed(1234)
    a = fn(shape=(64,)).asnumpy()
    b = fn(shape=(64,)).asnumpy()
    mx.random.seed(1234)
    assert_bits(fn(shape=(64,)).asnumpy(), a)
    assert_bits(fn(shape=(64,)).asnumpy(), b)
    assert not np.array_equal(a, b)
    mx.nd.random.seed(4321)
    assert not np.array_equal(fn(shape=(64,)).asnumpy(), a)


# ------------------------------------------------------------------------------ test_utils

AAE = mx.test_utils.assert_almost_equal


@pytest.mark.parametrize("a, b, kwargs", [
    (lambda: mx.nd.array([1, 2, 3]), lambda: mx.nd.array([1, 2, 3]), {}),
    (lambda: mx.nd.array([1, 2, 3]), lambda: np.array([1, 2, 3.00001], np.float32), {}),
    (lambda: np.array([[1.0, 2.0]]), lambda: mx.nd.array([[1, 2]], dtype="float64"), {}),
    (lambda: 3.0, lambda: mx.nd.array(3.0), {}),
    (lambda: mx.nd.array(3, dtype="int32"), lambda: 3, {}),
    (lambda: 2.5, lambda: 2.5, {}),
    (lambda: mx.nd.array([1.0, 2.0], dtype="float16"), lambda: mx.nd.array([1.001, 2.0], dtype="float16"), {}),
    (lambda: mx.nd.array([1.0, 2.0]), lambda: np.array([1.5, 2.0]), {"atol": 0.6}),
    (lambda: mx.nd.array([100.0]), lambda: np.array([101.0]), {"rtol": 0.02}),
    (lambda: mx.nd.array([np.nan, 1]), lambda: np.array([np.nan, 1]), {"equal_nan": True}),
    (lambda: mx.nd.zeros((0, 3)), lambda: np.zeros((0, 3)), {}),
], ids=["nd_nd", "nd_np_f32_default_tol", "np_nd", "scalar_nd0d", "nd0d_int_scalar", "scalars",
        "f16_default_tol", "atol", "rtol", "equal_nan", "0_size"])
def test_assert_almost_equal_accepts(a, b, kwargs):
    AAE(a(), b(), **kwargs)


@pytest.mark.parametrize("a, b, kwargs", [
    (lambda: mx.nd.array([1, 2, 3]), lambda: mx.nd.array([1, 2, 4]), {}),
    (lambda: mx.nd.array([1, 2, 3], dtype="int32"), lambda: np.array([1, 2, 4]), {}),
    (lambda: mx.nd.array([1.0, 2.0]), lambda: np.array([1.5, 2.0]), {"atol": 0.1}),
    (lambda: 1.0, lambda: mx.nd.array(1.1), {}),
    (lambda: mx.nd.array([[1, 2]]), lambda: mx.nd.array([1, 2]), {}),
    (lambda: mx.nd.array([1, 2, 3]), lambda: np.ones((3, 1)), {"atol": 10}),
    (lambda: mx.nd.array(1.0), lambda: mx.nd.array([1.0]), {}),
    (lambda: mx.nd.array([np.nan]), lambda: np.array([np.nan]), {}),
], ids=["nd_nd", "int_exact", "atol_too_small", "scalar_nd0d", "shape_2d_1d", "shape_broadcastable",
        "shape_0d_1d", "nan_unequal_by_default"])
def test_assert_almost_equal_rejects(a, b, kwargs):
    with pytest.raises(AssertionError):
        AAE(a(), b(), **kwargs)


def test_c_kernels_run_where_the_cpu_has_avx2():
    # The kernels are chosen at run time; a build whose CPU detection fails (zig cc's
    # __builtin_cpu_supports answers 0) would silently run everything in Go.
    running = json.loads(core.Kernels())
    assert set(running) == {"arith", "unary32", "unary512", "maxmin", "sum", "sgemm", "gemm512", "sort32", "pow512",
                            "special512"}
    if platform.machine() != "x86_64":
        # The C kernels are x86-64 code (#if defined(__x86_64__)); elsewhere (the aarch64
        # wheel) Go runs everything. Not /proc/cpuinfo: under qemu-user it is the host's.
        assert not any(running.values()), running
        return
    flags = set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    if "avx2" in flags:
        assert running["arith"] and running["unary32"] and running["maxmin"] and running["sum"], running
    if {"avx2", "fma"} <= flags:
        assert running["sgemm"], running
    # the products' AVX-512 tiles, exp's 16 lanes, the sorts, power and erfinv: where the CPU
    # has AVX-512F (the OS saving ZMM state is assumed, as every Linux that runs such a CPU does)
    avx512 = {"avx2", "fma", "avx512f"} <= flags
    for family in ("gemm512", "unary512", "sort32", "pow512", "special512"):
        assert running[family] == avx512, (family, running)


def test_compiled_operator_functions_take_every_path():
    """mx.nd.<op> tries C itself when no parameter is given, and hands what C declines
    (scalars, NumPy operands) and every call with parameters to the general path. (Torch
    operands, through PyTorch's exchange API, are test_exchange_api.py's: this file also
    runs beside MXNet, without PyTorch.)"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x, y = mx.nd.array(a), mx.nd.array(a + 1)
    out = mx.nd.empty((2, 3))
    np.testing.assert_array_equal(mx.nd.add(x, y).asnumpy(), 2 * a + 1)
    assert mx.nd.add(x, y, out=out) is out
    np.testing.assert_array_equal(out.asnumpy(), 2 * a + 1)
    np.testing.assert_array_equal(mx.nd.add(x, 2.5).asnumpy(), a + 2.5)  # C declines a scalar
    np.testing.assert_array_equal(mx.nd.subtract(2.5, x).asnumpy(), 2.5 - a)
    r = mx.nd.add(a, x)  # a NumPy operand: imported on the general path
    assert isinstance(r, mx.nd.NDArray)
    np.testing.assert_array_equal(r.asnumpy(), 2 * a)
    assert mx.nd.sum(x).asnumpy().tolist() == [15.0]  # no parameter given: C
    np.testing.assert_array_equal(mx.nd.sum(x, axis=0).asnumpy(), a.sum(0))  # one given
    s = mx.nd.empty((3,))
    assert mx.nd.sum(x, axis=0, out=s) is s
    np.testing.assert_array_equal(s.asnumpy(), a.sum(0))
    fc = mx.nd.FullyConnected(x, mx.nd.ones((4, 3)), num_hidden=4, no_bias=True)  # an optional input left out
    np.testing.assert_array_equal(fc.asnumpy(), np.repeat(a.sum(1, keepdims=True), 4, 1))
    np.testing.assert_array_equal(mx.nd.concat(x, y, dim=0).asnumpy(), np.concatenate([a, a + 1]))
    with pytest.raises(TypeError):
        mx.nd.add(x)
    with pytest.raises(TypeError):
        mx.nd.add(x, y, axis=0)


def test_operators_of_several_results_into_outs_take_one_c_call():
    """fastpath.invoke_all runs an operator of several results into NDArray outs in one C
    call (registry.py takes it first): the multi-weight updates give what the one-weight
    operator gives, bit for bit; operands it cannot read (NumPy arrays), no outs or no
    operands return NotImplemented with nothing written, and bad calls raise MXNet's error
    classes with every array intact."""
    from mxgo._core import registry
    from mxgo.base import fastpath

    rng = np.random.default_rng(3)
    shapes = [(4, 5), (5,), (300,)]
    ws = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    gs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    ms = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    params = dict(lrs=[0.1, 0.2, 0.3], wds=[0.0, 0.01, 0.0], momentum=0.9, rescale_grad=0.5, num_weights=3)
    info = registry.OPS["multi_sgd_mom_update"]
    attrs = registry.encode_params("multi_sgd_mom_update", info, params)
    want_w, want_m = [], []
    for i in range(len(shapes)):
        w, m = mx.nd.array(ws[i]), mx.nd.array(ms[i])
        mx.nd.sgd_mom_update(w, mx.nd.array(gs[i]), m, lr=params["lrs"][i], wd=params["wds"][i], momentum=0.9,
                             rescale_grad=0.5, out=w)
        want_w.append(w.asnumpy())
        want_m.append(m.asnumpy())
    W, G, M = ([mx.nd.array(a) for a in arrs] for arrs in (ws, gs, ms))
    arrays = tuple(a for i in range(3) for a in (W[i], G[i], M[i]))
    assert fastpath.invoke_all(info["id"], arrays, tuple(W), attrs) is None
    for i in range(3):
        assert_bits(W[i].asnumpy(), want_w[i])
        assert_bits(M[i].asnumpy(), want_m[i])
    before = [w.asnumpy().copy() for w in W]
    numpy_operand = (ws[0],) + arrays[1:]
    assert fastpath.invoke_all(info["id"], numpy_operand, tuple(W), attrs) is NotImplemented
    assert fastpath.invoke_all(info["id"], arrays, (), attrs) is NotImplemented
    assert fastpath.invoke_all(info["id"], (), tuple(W), attrs) is NotImplemented
    with pytest.raises(mx.base.MXNetValueError):  # a mom of another shape
        fastpath.invoke_all(info["id"], arrays[:2] + (M[1],) + arrays[3:], tuple(W), attrs)
    with pytest.raises(mx.base.MXNetError):
        fastpath.invoke_all(len(registry.OPS) + 5, arrays, tuple(W), attrs)
    for w, b in zip(W, before):
        assert_bits(w.asnumpy(), b)
    # through mx.nd, with NumPy operands (the Python path) and without
    out = [mx.nd.array(a) for a in ws]
    mx.nd.multi_sgd_mom_update(*[x for i in range(3) for x in (out[i], gs[i], mx.nd.array(ms[i]))], out=out, **params)
    for i in range(3):
        assert_bits(out[i].asnumpy(), want_w[i])
    x = mx.nd.array(rng.standard_normal((3, 7)).astype(np.float32))
    vals, idx = mx.nd.empty((3, 2)), mx.nd.empty((3, 2))
    got = mx.nd.topk(x, k=2, ret_typ="both", out=[vals, idx])
    assert got[0] is vals and got[1] is idx
    new_vals, new_idx = mx.nd.topk(x, k=2, ret_typ="both")
    assert_bits(vals.asnumpy(), new_vals.asnumpy())
    assert_bits(idx.asnumpy(), new_idx.asnumpy())


def test_name_is_accepted_and_ignored_by_every_operator_function():
    """MXNet's mx.nd functions take name= (it names symbols; Gluon and user code pass it)
    and ignore it, whatever its type: so do mxgo's, generated or hand-written, on every path
    (C's, with parameters, with a scalar, variadic, optional inputs, several results)."""
    import inspect

    from mxgo.ndarray import op
    for fname, fn in op.PUBLIC.items():
        p = inspect.signature(fn).parameters["name"]
        assert p.kind is p.KEYWORD_ONLY and p.default is None, fname
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x, y = mx.nd.array(a), mx.nd.array(a + 1)
    for name_ in (None, "fc1", 5, b"x", ["a"]):
        np.testing.assert_array_equal(mx.nd.add(x, y, name=name_).asnumpy(), 2 * a + 1)
    np.testing.assert_array_equal(mx.nd.relu(x - 2, name="r").asnumpy(), np.maximum(a - 2, 0))
    np.testing.assert_array_equal(mx.nd.add(x, 2.5, name="s").asnumpy(), a + 2.5)
    np.testing.assert_array_equal(mx.nd.sum(x, axis=0, name="s").asnumpy(), a.sum(0))
    np.testing.assert_array_equal(x.sum(axis=1, name="s").asnumpy(), a.sum(1))
    out = mx.nd.empty((2, 3))
    assert mx.nd.add(x, y, out=out, name="o") is out
    np.testing.assert_array_equal(mx.nd.concat(x, y, dim=0, name="c").asnumpy(), np.concatenate([a, a + 1]))
    fc = mx.nd.FullyConnected(x, mx.nd.ones((4, 3)), num_hidden=4, no_bias=True, name="fc")
    np.testing.assert_array_equal(fc.asnumpy(), np.repeat(a.sum(1, keepdims=True), 4, 1))
    assert len(mx.nd.topk(x, ret_typ="both", name="t")) == 2
    # the hand-written functions that mirror MXNet operators
    assert len(mx.nd.split(x, num_outputs=3, axis=1, name="s")) == 3
    assert len(mx.nd.SliceChannel(x, num_outputs=3, axis=1, name="s")) == 3
    assert mx.nd.zeros((2,), name="z").shape == mx.nd.ones((2,), name="o").shape == (2,)
    assert mx.nd.eye(2, name="e").shape == (2, 2)
    assert mx.nd.random.uniform(shape=(2,), name="u").shape == (2,)
    assert mx.nd.random.normal(mx.nd.zeros(2), mx.nd.ones(2), name="n").shape == (2,)
    assert mx.nd.random.randn(2, name="n").shape == (2,)
    assert mx.nd.random.randint(0, 5, shape=(2,), name="r").shape == (2,)
    assert mx.nd.random.shuffle(mx.nd.arange(4), name="s").shape == (4,)
    assert mx.nd.random.uniform_like(x, name="u").shape == (2, 3)
    assert mx.nd.random.multinomial(mx.nd.array([[0.5, 0.5]]), name="m").shape == (1,)
    assert len(mx.nd.linalg.slogdet(mx.nd.array([[2.0, 1], [1, 3]]), name="d")) == 2
    assert len(mx.nd.linalg_gelqf(mx.nd.array([[1.0, 2, 3], [4, 5, 6]]), name="q")) == 2
    assert mx.nd.SequenceLast(mx.nd.ones((3, 2, 4)), name="l").shape == (2, 4)
    assert mx.nd.CTCLoss(mx.nd.ones((3, 1, 4)), mx.nd.array([[1, 2]]), name="c").shape == (1,)
    with pytest.raises(TypeError):
        mx.nd.add(x, y, nme="typo")  # other unknown keywords stay refused


def test_operator_parameters_encoded_once_and_by_value_and_type():
    """mx.nd functions remember the wire form of the parameters they were given, keyed by
    the values and their types: a call with equal values of another type (1.0 where an int
    is wanted), a float zero of either sign, a NaN or a list gets its own encoding, and
    the table stays bounded."""
    dot = mx.nd.dot
    table = dot.__globals__["_cache"]
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x, y = mx.nd.array(a), mx.nd.array(a)
    before = len(table)
    for tb in (True, True, 1, np.True_):
        assert_nd(dot(x, y, transpose_b=tb), a @ a.T)
    assert len(table) == before + 3  # True, 1 and np.True_: three keys, one entry each
    # int parameters: 3 is cached, 3.0 still refused as before
    assert mx.nd.one_hot(mx.nd.array([1]), depth=3).shape == (1, 3)
    with pytest.raises(mx.base.MXNetTypeError, match="bad value for depth"):
        mx.nd.one_hot(mx.nd.array([1]), depth=3.0)
    assert mx.nd.one_hot(mx.nd.array([1]), depth=3).shape == (1, 3)
    # the sign of a zero reaches Go whatever came before
    img = mx.nd.ones((1, 1, 2, 2))
    for v in (0.0, -0.0, 0.0, -0.0, np.float32(-0.0)):
        r = mx.nd.Pad(img, mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=v).asnumpy()
        assert bool(np.signbit(r[0, 0, 0, 0])) == bool(np.signbit(v)), v
    pad_table = mx.nd.Pad.__globals__["_cache"]
    for _ in range(300):  # NaNs never equal: not remembered
        r = mx.nd.Pad(img, mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=float("nan"))
        assert np.isnan(r.asnumpy()[0, 0, 0, 0])
    assert len(pad_table) <= 1
    # tuples of integers: the elements' types are part of the key
    assert mx.nd.sum(mx.nd.ones((2, 3)), axis=(1,)).shape == (2,)
    with pytest.raises(mx.base.MXNetTypeError, match="bad value for axis"):
        mx.nd.sum(mx.nd.ones((2, 3)), axis=(1.0,))
    # lists cannot be keys: encoded every call
    for _ in range(2):
        assert mx.nd.sum(mx.nd.ones((2, 3)), axis=[1]).shape == (2,)
    # a bad choice reaches Go's error every time, cached or not
    for _ in range(2):
        with pytest.raises(mx.base.MXNetValueError):
            mx.nd.Activation(x, act_type="nope")
    # foreign operands with parameters: C declines NumPy arrays, the registry imports them
    assert_nd(dot(a, a, transpose_b=True), a @ a.T)
    # the table is bounded
    for i in range(600):
        mx.nd.one_hot(mx.nd.array([0]), depth=i + 1)
    assert len(mx.nd.one_hot.__globals__["_cache"]) <= 256
