"""Bad arguments raise the right Python exception with a useful message, and leave every
array involved exactly as it was."""
import numpy as np
import pytest

import engine_errors
import mxgo as mx
from api_helpers import Snapshot, assert_nd

S, E = slice, Ellipsis


def arr4d():
    return mx.nd.array(np.arange(360).reshape(3, 4, 5, 6), dtype="int32")


def frozen_ndarray():
    n = np.arange(6.0).reshape(2, 3)
    n.flags.writeable = False
    return mx.nd.from_numpy(n), n


# ------------------------------------------------------------------------------- creation

SHAPE_FNS = {
    "empty": lambda shape: mx.nd.empty(shape),
    "zeros": lambda shape: mx.nd.zeros(shape, dtype="int8"),
    "ones": lambda shape: mx.nd.ones(shape),
    "full": lambda shape: mx.nd.full(shape, 3),
    "uniform": lambda shape: mx.nd.random.uniform(shape=shape),
    "normal": lambda shape: mx.nd.random.normal(shape=shape),
    "reshape": lambda shape: mx.nd.zeros((6,)).reshape(shape),
}


@pytest.mark.parametrize("shape, error", [
    ((-1,), ValueError), ((2, -3), ValueError), (-2, ValueError),
    ((2.5,), TypeError), ((2, 3.0), TypeError), ("ab", TypeError), ((2, None), TypeError),
    ((2, "3"), TypeError), (None, TypeError), (2.0, TypeError), ((np.float64(2),), TypeError),
], ids=repr)
@pytest.mark.parametrize("fn", sorted(SHAPE_FNS))
def test_bad_shapes(fn, shape, error):
    if fn == "reshape" and shape in ((-1,), -2):
        shape = (-5,)  # -1 and -2 are MXNet reshape codes (infer, copy the rest); -5 is none
    if fn in ("uniform", "normal") and shape is None:
        shape = (None,)  # shape=None is valid there: MXNet's default shape (1,)
    with pytest.raises(error):
        SHAPE_FNS[fn](shape)


DTYPE_FNS = {
    "empty": lambda dt: mx.nd.empty((2,), dtype=dt),
    "zeros": lambda dt: mx.nd.zeros((2,), dtype=dt),
    "full": lambda dt: mx.nd.full((2,), 1, dtype=dt),
    "array": lambda dt: mx.nd.array([1, 2], dtype=dt),
    "array_of_ndarray": lambda dt: mx.nd.array(mx.nd.ones((2,)), dtype=dt),
    "arange": lambda dt: mx.nd.arange(3, dtype=dt),
    "astype": lambda dt: mx.nd.ones((2,)).astype(dt),
    "uniform": lambda dt: mx.nd.random.uniform(shape=(2,), dtype=dt),
}


@pytest.mark.parametrize("dtype, error, match", [
    ("float33", TypeError, "not understood"), ("foo", TypeError, "not understood"),
    (object, TypeError, "unsupported dtype"), ("U3", TypeError, "unsupported dtype"),
    ("datetime64[s]", TypeError, "unsupported dtype"), (np.longdouble, TypeError, "unsupported dtype"),
    ([("a", "f4")], TypeError, "unsupported dtype"), (">f4", ValueError, "byte order"),
    (np.dtype(">i2"), ValueError, "byte order"),
], ids=str)
@pytest.mark.parametrize("fn", sorted(DTYPE_FNS))
def test_bad_dtypes(fn, dtype, error, match):
    with pytest.raises(error, match=match):
        DTYPE_FNS[fn](dtype)


@pytest.mark.parametrize("ctx", ["cpu", "cpu(0)", 0, (1, 0), mx.cpu, object()], ids=repr)
@pytest.mark.parametrize("make", [
    lambda c: mx.nd.empty((2,), ctx=c), lambda c: mx.nd.zeros((2,), ctx=c), lambda c: mx.nd.ones((2,), ctx=c),
    lambda c: mx.nd.full((2,), 1, ctx=c), lambda c: mx.nd.array([1], ctx=c), lambda c: mx.nd.arange(3, ctx=c),
    lambda c: mx.nd.random.uniform(shape=(2,), ctx=c), lambda c: mx.nd.random.normal(shape=(2,), ctx=c),
], ids=["empty", "zeros", "ones", "full", "array", "arange", "uniform", "normal"])
def test_bad_ctx_type(make, ctx):
    with pytest.raises(TypeError, match="Context"):
        make(ctx)


@pytest.mark.parametrize("args", [("tpu",), ("cpu", -1), ("cpu", 1.0), ("gpu", "0"), ("cpu", True), (None,)],
                         ids=repr)
def test_bad_context_arguments(args):
    with pytest.raises(ValueError):
        mx.Context(*args)


@pytest.mark.parametrize("call, error", [
    (lambda: mx.nd.array(["a", "b"]), ValueError), (lambda: mx.nd.array([[1], [2, 3]]), ValueError),  # as NumPy
    (lambda: mx.nd.array(object()), TypeError), (lambda: mx.nd.array({"a": 1}), TypeError),
    (lambda: mx.nd.full((2,), "x"), TypeError), (lambda: mx.nd.full((2,), None), TypeError),
    (lambda: mx.nd.full((2,), 2 ** 64), OverflowError), (lambda: mx.nd.full((2,), -2 ** 63 - 1), OverflowError),
    (lambda: mx.nd.arange(0, 5, 0), ValueError), (lambda: mx.nd.arange(5, repeat=0), ValueError),
    (lambda: mx.nd.arange(5, repeat=1.5), ValueError),
    (lambda: mx.nd.random.uniform(2, 1), ValueError), (lambda: mx.nd.random.normal(0, -1), ValueError),
    (lambda: mx.nd.random.uniform("a", 1), TypeError), (lambda: mx.nd.random.normal(1j, 1), TypeError),
    (lambda: mx.nd.random.uniform(shape=(2,), dtype="int32"), TypeError),
    (lambda: mx.nd.random.normal(shape=(2,), dtype=bool), TypeError),
    (lambda: mx.nd.random.uniform(out=np.zeros(2)), TypeError),
    (lambda: mx.random.seed("x"), TypeError), (lambda: mx.random.seed(1.5), TypeError),
])
def test_bad_creation_arguments(call, error):
    with pytest.raises(error):
        call()


def test_random_out_of_the_wrong_dtype_is_left_alone():
    out = mx.nd.array([1, 2, 3], dtype="int64")
    with pytest.raises(TypeError, match="floating-point"):
        mx.nd.random.uniform(out=out)
    assert_nd(out, np.array([1, 2, 3], np.int64))


# ------------------------------------------------------------------------ indexing errors

@pytest.mark.parametrize("key, error, match", [
    (3, IndexError, "out of bounds"), (-4, IndexError, "out of bounds"), ((0, 4), IndexError, "axis 1"),
    ((0, 0, 5), IndexError, "size 5"), ((0, 0, 0, 6), IndexError, "out of bounds"),
    ((0, 0, 0, -7), IndexError, "out of bounds"), ((E, 6), IndexError, "out of bounds"),
    (2 ** 70, IndexError, "out of bounds|invalid"),
    (1.0, IndexError, "float"), ((0, 1.5), IndexError, "float"), (S(1.0, 2), IndexError, "float"),
    (np.float32(1), IndexError, "float"), ("a", IndexError, "str"), (1j, IndexError, "complex"),
    (True, IndexError, "boolean"), (np.bool_(False), IndexError, "boolean"), ((0, True), IndexError, "boolean"),
    ([0, 5], IndexError, "out of bounds"), (np.array([[0], [-6]]), IndexError, "out of bounds"),
    ([], IndexError, "empty"), (["a"], IndexError, "integer arrays"),
    ((0, 0, 0, 0, 0), IndexError, "too many indices"), ((E, 0, 0, 0, 0, 0), IndexError, "too many"),
    ((None,) * 61, IndexError, "more than 64"), ((E, 0, E), IndexError, "single ellipsis"),
    (S(None, None, 0), ValueError, "step cannot be zero"), ((0, S(1, 2, 0)), ValueError, "zero"),
], ids=repr)
def test_bad_index(key, error, match):
    x = arr4d()
    snap = Snapshot(x)
    with pytest.raises(error, match=match):
        x[key]
    with pytest.raises(error, match=match):
        x[key] = 1
    snap.assert_intact()
    assert_nd(x[1, 2], np.arange(360).reshape(3, 4, 5, 6)[1, 2].astype(np.int32))


@pytest.mark.parametrize("key, value, error", [
    (S(None), "abc", TypeError), (S(None), ["a", "b", "c", "d", "e", "f"], TypeError),
    (0, object(), TypeError), (0, None, TypeError), (0, {"a": 1}, TypeError),
    (0, np.array(["x"]), TypeError), (0, np.array([1], dtype="datetime64[s]"), TypeError),
    (S(None), [1, 2, 3], ValueError), ((0, 0), [1, 2], ValueError), ((0, 0), np.ones((7,)), ValueError),
    (S(None), lambda: mx.nd.ones((3,), dtype="int32"), ValueError),
    (0, lambda: mx.nd.ones((2, 4, 5, 6), dtype="int32"), ValueError),
    (0, lambda: mx.nd.ones((3, 4, 5, 6), dtype="int32"), ValueError),
    (0, 2 ** 64, OverflowError),
], ids=repr)
def test_bad_setitem_values(key, value, error):
    x = arr4d()
    snap = Snapshot(x)
    with pytest.raises(error):
        x[key] = value() if callable(value) else value
    snap.assert_intact()


# ---------------------------------------------------------------------- read-only targets

READ_ONLY_WRITES = {
    "setitem_all": lambda x: x.__setitem__(S(None), 1),
    "setitem_int": lambda x: x.__setitem__(0, 1),
    "setitem_element": lambda x: x.__setitem__((1, 2), 5),
    "setitem_numpy": lambda x: x.__setitem__(E, np.zeros((2, 3))),
    "setitem_ndarray": lambda x: x.__setitem__(S(None), mx.nd.zeros((2, 3), dtype="float64")),
    "setitem_view": lambda x: x[1:].__setitem__(S(None), 3),
    "iadd": lambda x: x.__iadd__(1), "isub_array": lambda x: x.__isub__(x),
    "imul": lambda x: x.__imul__(2.0), "idiv_view": lambda x: x[:, ::2].__itruediv__(2),
    "copyto": lambda x: mx.nd.zeros((2, 3), dtype="float64").copyto(x),
    "random_out": lambda x: mx.nd.random.uniform(out=x),
    "reshaped": lambda x: x.reshape(3, 2).__setitem__(0, 7),
}


@pytest.mark.parametrize("write", sorted(READ_ONLY_WRITES))
def test_writes_to_read_only_arrays_raise_value_error(write):
    x, n = frozen_ndarray()
    snap = Snapshot(x, n)
    with pytest.raises(ValueError, match="read-only"):
        READ_ONLY_WRITES[write](x)
    snap.assert_intact()
    assert_nd(x + 1, n + 1)  # still readable and usable as an operand


# --------------------------------------------------------------------- arithmetic errors

@pytest.mark.parametrize("other, error, match", [
    (lambda: mx.nd.ones((2, 3), dtype="float64"), TypeError, "dtype"),
    (lambda: mx.nd.ones((2, 3), dtype="int32"), TypeError, "dtype"),
    (lambda: mx.nd.ones((3, 2)), ValueError, "broadcast"),
    (lambda: mx.nd.ones((4,)), ValueError, "broadcast"),
    (lambda: "a", TypeError, "unsupported operand"),
    (lambda: [1, 2, 3], TypeError, "unsupported operand"),
    (lambda: None, TypeError, "unsupported operand"),
    (lambda: 2 ** 64, OverflowError, "too large"),
], ids=["f64", "i32", "transposed_shape", "incompatible_row", "str", "list", "none", "huge_int"])
@pytest.mark.parametrize("op", ["__add__", "__sub__", "__mul__", "__truediv__", "__radd__", "__rsub__",
                                "__rtruediv__", "__iadd__", "__isub__", "__imul__", "__itruediv__"])
def test_bad_arithmetic_operands(op, other, error, match):
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    y = other()
    snap = Snapshot(*[a for a in (x, y) if isinstance(a, mx.nd.NDArray)])
    with pytest.raises(error, match=match):
        result = getattr(x, op)(y)
        if result is NotImplemented:  # what Python's operator syntax turns into TypeError
            raise TypeError("unsupported operand")
    snap.assert_intact()


@pytest.mark.parametrize("shape", [(3,), (1, 3), (2, 1), ()], ids=str)
@pytest.mark.parametrize("op", ["__add__", "__sub__", "__mul__", "__truediv__", "__radd__", "__rsub__",
                                "__rtruediv__", "__iadd__", "__isub__", "__imul__", "__itruediv__"])
def test_broadcastable_operands_follow_numpy(op, shape):
    """Arithmetic broadcasts as NumPy does; in-place forms keep the left operand's shape."""
    x_np = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    y_np = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x, y = mx.nd.array(x_np), mx.nd.array(y_np)
    result = getattr(x, op)(y)
    expected = getattr(x_np.copy(), op)(y_np)
    np.testing.assert_allclose(result.asnumpy(), expected, rtol=1e-6)
    if op.startswith("__i"):
        assert result is x


@pytest.mark.parametrize("expr", [
    lambda x, s: x + "a", lambda x, s: "a" - x, lambda x, s: x * None, lambda x, s: [1] / x,
    lambda x, s: x + s, lambda x, s: s - x,
], ids=["add_str", "rsub_str", "mul_none", "rdiv_list", "add_mismatch", "rsub_mismatch"])
def test_operator_syntax_raises_type_error(expr):
    x = mx.nd.array([1, 2, 3], dtype="int32")
    s = mx.nd.array([1, 2, 3], dtype="int64")
    snap = Snapshot(x, s)
    with pytest.raises(TypeError):
        expr(x, s)
    snap.assert_intact()


@pytest.mark.parametrize("expr", [
    lambda b: b + 1, lambda b: 1 - b, lambda b: b * b, lambda b: b / True, lambda b: b.__iadd__(b),
    lambda b: b.__imul__(2),
], ids=["add", "rsub", "mul", "div", "iadd", "imul"])
def test_bool_arithmetic_raises_type_error(expr):
    b = mx.nd.array([True, False, True], dtype=bool)
    with pytest.raises(TypeError, match="bool"):
        expr(b)
    assert_nd(b, np.array([True, False, True]))


# ------------------------------------------------------------------- other method errors

@pytest.mark.parametrize("call, error, match", [
    (lambda x: x.reshape(4, 2), ValueError, "cannot reshape"), (lambda x: x.reshape(-1, -1), ValueError, "-1"),
    (lambda x: x.reshape(-4, 4, -1, 3), ValueError, "split"), (lambda x: x.reshape((2, 3), order="F"), TypeError, "order"),
    (lambda x: x.reshape(2.0, 3), TypeError, "shape"), (lambda x: x.reshape("23"), TypeError, "shape"),
    (lambda x: x.copyto("cpu"), TypeError, "Context"), (lambda x: x.copyto(np.zeros((2, 3))), TypeError, "ndarray"),
    (lambda x: x.copyto(mx.nd.zeros((3, 2))), ValueError, "shape"),
    (lambda x: x.copyto(mx.gpu(0)), mx.MXNetError, "back end"),
    (lambda x: x.as_in_context(mx.gpu(1)), mx.MXNetError, "gpu\\(1\\)"),
    (lambda x: x.asscalar(), ValueError, "not a scalar"), (lambda x: x[0:0].asscalar(), ValueError, "scalar"),
    (lambda x: float(x), ValueError, "scalar"), (lambda x: bool(x), ValueError, "ambiguous"),
    (lambda x: len(x[0, 0].reshape(())), TypeError, "0-d"),  # x[0, 0] itself has shape (1,), as in MXNet
    (lambda x: x.astype("nope"), TypeError, "not understood"),
], ids=["reshape_size", "reshape_two_minus1", "reshape_bad_split", "reshape_kwarg", "reshape_float",
        "reshape_str", "copyto_str", "copyto_numpy", "copyto_shape", "copyto_gpu", "as_in_gpu",
        "asscalar", "asscalar_empty", "float", "bool", "len_0d", "astype"])
def test_method_errors_leave_the_array_intact(call, error, match):
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    snap = Snapshot(x)
    with pytest.raises(error, match=match):
        call(x)
    snap.assert_intact()


@pytest.mark.parametrize("expr", [lambda x, n: x + n, lambda x, n: n + x, lambda x, n: n * x, lambda x, n: x - n])
def test_mixing_with_numpy_arrays_raises_type_error(expr):
    x = mx.nd.array([1, 2, 3])
    n = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    with pytest.raises(TypeError):
        expr(x, n)
    assert x.asnumpy().tolist() == [1, 2, 3] and n.tolist() == [1, 2, 3]


# ------------------------------------------------------------------- asynchronous errors

@pytest.mark.parametrize("scenario", engine_errors.SCENARIOS, ids=lambda f: f.__name__)
def test_async_error_is_raised_once_as_in_mxnet(scenario):
    mx.nd.waitall()
    assert scenario(mx) == engine_errors.EXPECTED[scenario.__name__]
    mx.nd.waitall()
