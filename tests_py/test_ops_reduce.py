"""Reductions (mx.nd.sum, mean, prod, max, min, argmax, argmin) against NumPy, made MXNet's.

Every operator is checked over every dtype, over axis None, 0, -1, (0, 2) and (), with and
without keepdims, on 0-d, zero-size, 1-D, 3-D and strided (negative-step) inputs: the result
has MXNet 1.x's shape and dtype (np_reduce: NumPy's result in the input's dtype, shape (1,)
where NumPy gives a 0-d array, axis=() reducing every axis), and its values (exactly for integers, bool, max/min and the
arg-reductions; within an error bound that depends on the dtype for floating-point sums,
means and products, which mxgo accumulates in float64 where NumPy may use the array's own
dtype). Where NumPy raises, mxgo raises the same kind of exception.

Known, deliberate differences from NumPy (tested as mxgo's behaviour):
  * an explicit axis on a 0-d array is an IndexError; NumPy 2 accepts axis=0/-1 for some
    reductions (sum, max, argmax) but not others (mean), and NumPy 1.24 rejects it for sum;
  * float sums and products accumulate in float64, so they may be more accurate than
    NumPy's (which overflows float16 intermediates, for instance).
"""
import inspect

import numpy as np
import pytest
import torch

import mxgo as mx
from api_helpers import ALL_DTYPES, Snapshot, mxnet_reduce, name, sample
from interop_helpers import TORCH_DLPACK_DTYPES
from mxgo.ndarray.op import OPS as OPS_INFO

OPS = ("sum", "mean", "prod", "max", "min", "argmax", "argmin")
ORDER_OPS = ("max", "min", "argmax", "argmin")
ARG_OPS = ("argmax", "argmin")
AXES = (None, 0, -1, (0, 2), ())
AXIS_IDS = ("None", "0", "-1", "(0,2)", "()")

# name -> (base shape, index applied to it, or None)
SHAPES = {
    "0d": ((), None),
    "empty": ((2, 0, 3), None),
    "1d": ((7,), None),
    "3d": ((3, 4, 5), None),
    "3d-strided": ((6, 5, 9), (slice(None, None, 2), slice(None, None, -1), slice(1, None, 3))),
    "3d-negative": ((3, 5, 8), (slice(None, None, -1), slice(1, None), slice(None, None, -2))),
}


def data(op, dtype, shape, seed=0):
    """Input values: awkward ones (extremes, -0.0, inf, NaN) where results are exact;
    moderate random ones for floating-point sums, means and products."""
    dt = np.dtype(dtype)
    if op in ORDER_OPS or dt.kind in "biu":
        return sample(dt, shape)
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))

    def part():
        if op == "prod":  # products of many stay well inside float16's range
            return rng.uniform(0.7, 1.4, n) * rng.choice([-1.0, 1.0], n)
        return rng.standard_normal(n) * 4

    vals = part() + 1j * part() if dt.kind == "c" else part()
    return vals.astype(dt).reshape(shape)


def make(op, dtype, shape_name, seed=0):
    """(NDArray, the same values as a NumPy array), a view where the case is one."""
    base_shape, key = SHAPES[shape_name]
    a = data(op, dtype, base_shape, seed)
    x = mx.nd.array(a, dtype=dtype)
    if key is not None:
        a, x = a[key], x[key]
    return x, a


def n_reduced(shape, axis):
    if axis is None or axis == ():  # () is every axis too, as in MXNet
        axis = tuple(range(len(shape)))
    axis = (axis,) if isinstance(axis, int) else axis
    return int(np.prod([shape[ax] for ax in axis], dtype=np.int64))


def check(op, got, want, a, axis, keepdims):
    """got (an NDArray or NumPy array) has want's shape, dtype and values."""
    g = got.asnumpy() if isinstance(got, mx.nd.NDArray) else np.asarray(got)
    if isinstance(got, mx.nd.NDArray):
        assert np.dtype(got.dtype) == want.dtype, (got.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if op in ORDER_OPS or want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
        return
    # |mxgo - NumPy| <= (n + 2) eps * (the same reduction of |a|): a bound on the rounding
    # error of any order of summation (or multiplication) in the result's dtype, which
    # covers NumPy's float16 arithmetic as well as mxgo's float64 accumulation.
    n = n_reduced(a.shape, axis)
    wide = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    scale = mxnet_reduce(op, wide, axis, keepdims).real
    eps = np.finfo(want.dtype).eps
    tol = (n + 2) * eps * scale + np.finfo(want.dtype).tiny
    nan_g, nan_w = np.isnan(g), np.isnan(want)
    np.testing.assert_array_equal(nan_g, nan_w)
    with np.errstate(invalid="ignore"):  # inf - inf
        err = np.abs(g.astype(np.complex128) - want.astype(np.complex128))
    ok = nan_w | (g == want) | (err <= tol)  # g == want: equal infinities
    assert ok.all(), "got %r\nwant %r\ntol %r" % (g[~ok], want[~ok], tol[~ok] if np.ndim(tol) else tol)


def expected_error(op, a, axis, keepdims):
    """The exception class mxgo must raise, or None where NumPy's result is the
    reference."""
    if a.ndim == 0 and isinstance(axis, int):
        return IndexError  # see the module docstring
    try:
        mxnet_reduce(op, a, axis, keepdims)
    except IndexError:  # NumPy's AxisError is an IndexError
        return IndexError
    except TypeError:
        return TypeError
    except ValueError:
        return ValueError
    return None


@pytest.mark.parametrize("keepdims", [False, True], ids=["flat", "keepdims"])
@pytest.mark.parametrize("axis", AXES, ids=AXIS_IDS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
@pytest.mark.parametrize("op", OPS)
def test_against_numpy(op, dtype, shape, axis, keepdims):
    x, a = make(op, dtype, shape)
    fn = getattr(mx.nd, op)
    err = expected_error(op, a, axis, keepdims)
    if err is not None:
        snap = Snapshot(x, a)
        with pytest.raises(err):
            fn(x, axis=axis, keepdims=keepdims)
        snap.assert_intact()
        return
    want = mxnet_reduce(op, a, axis, keepdims)
    got = fn(x, axis=axis, keepdims=keepdims)
    check(op, got, want, a, axis, keepdims)
    np.testing.assert_array_equal(x.asnumpy(), a)  # the input is untouched


def test_the_matrix_above_mostly_compares_values():
    """Most cases of test_against_numpy compare results, not errors: every (op, axis)
    but argmax/argmin over a tuple has results on the 3-D shapes."""
    for op in OPS:
        for axis in AXES:
            valid = expected_error(op, make(op, np.float32, "3d")[1], axis, False) is None
            assert valid == (op not in ARG_OPS or not isinstance(axis, tuple)), (op, axis)


@pytest.mark.parametrize("op", OPS)
def test_generated_signature_and_doc(op):
    fn = getattr(mx.nd, op)
    params = inspect.signature(fn).parameters
    exclude = [] if op in ARG_OPS else ["exclude"]  # MXNet's exclude on sum, mean, prod, max, min
    assert list(params) == ["data", "axis", "keepdims"] + exclude + ["out", "name"]
    assert params["axis"].default is None and params["keepdims"].default is False
    if exclude:
        assert params["exclude"].default is False and "exclude" in fn.__doc__
    assert "axis" in fn.__doc__ and "keepdims" in fn.__doc__
    assert OPS_INFO[op]["category"] == "reduction"


def _small(dtype, shape):
    """Small values of dtype (sums and products exact in every dtype's accumulator)."""
    v = np.random.RandomState(5).randint(-3, 4, size=shape)
    if np.dtype(dtype).kind == "u":
        v = np.abs(v)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * v[::-1]).astype(dtype)
    return v.astype(dtype)


@pytest.mark.parametrize("op", [op for op in OPS if op not in ARG_OPS])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64, np.bool_, np.complex64], ids=name)
@pytest.mark.parametrize("axis", [0, -1, (0, 2), (1,), (2, 0)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True], ids=["", "keepdims"])
def test_exclude_reduces_the_other_axes(op, dtype, axis, keepdims):
    """MXNet's exclude=True: every axis but those named is reduced."""
    a = _small(dtype, (3, 4, 5))
    named = {d % 3 for d in ((axis,) if isinstance(axis, int) else axis)}
    rest = tuple(d for d in range(3) if d not in named)
    want = mxnet_reduce(op, a, rest, keepdims)
    x = mx.nd.array(a, dtype=a.dtype)
    for got in (mx.nd.__dict__[op](x, axis=axis, keepdims=keepdims, exclude=True),
                getattr(x, op)(axis=axis, keepdims=keepdims, exclude=True)):
        assert got.shape == want.shape and got.dtype == a.dtype
        if np.dtype(dtype).kind in "fc" and op in ("sum", "mean", "prod"):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
        else:
            np.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("op", [op for op in OPS if op not in ARG_OPS])
def test_exclude_edge_cases(op):
    a = _small(np.float32, (2, 3, 4))
    x = mx.nd.array(a)
    fn = getattr(mx.nd, op)
    # no axis named: exclude changes nothing, every axis is reduced
    for axis in (None, ()):
        np.testing.assert_allclose(fn(x, axis=axis, exclude=True).asnumpy(), fn(x).asnumpy(), rtol=1e-6)
    # every axis named: nothing to reduce, a copy of the input (in any order, with repeats)
    for axis in ((0, 1, 2), (-1, 0, 1), (2, 1, 0)):
        r = fn(x, axis=axis, exclude=True)
        assert r.shape == (2, 3, 4)
        np.testing.assert_array_equal(r.asnumpy(), a)
        r[:] = 0  # a copy, not a view
        np.testing.assert_array_equal(x.asnumpy(), a)
    out = mx.nd.zeros((3,))
    assert fn(x, axis=1, exclude=True, out=out) is out
    np.testing.assert_allclose(out.asnumpy(), mxnet_reduce(op, a, (0, 2)), rtol=1e-5)
    np.testing.assert_array_equal(fn(x, axis=1, exclude=False).asnumpy(), fn(x, axis=1).asnumpy())
    with pytest.raises(IndexError):
        fn(x, axis=3, exclude=True)
    with pytest.raises(ValueError):
        fn(x, axis=(0, 0), exclude=True)  # a repeated axis, as without exclude
    z = mx.nd.zeros((0, 3))
    if op in ("max", "min"):
        with pytest.raises(ValueError):  # the excluded axis 0 is reduced, and it is empty
            fn(z, axis=1, exclude=True)
        assert fn(z, axis=0, exclude=True).shape == (0,)
    else:
        assert fn(z, axis=1, exclude=True).shape == (3,)


def test_keepdims_shapes():
    x = mx.nd.zeros((2, 3, 4))
    assert mx.nd.sum(x, axis=(0, 2), keepdims=True).shape == (1, 3, 1)
    assert mx.nd.max(x, keepdims=True).shape == (1, 1, 1)
    assert mx.nd.argmax(x, keepdims=True).shape == (1, 1, 1)
    assert mx.nd.argmin(x, axis=-2, keepdims=True).shape == (2, 1, 4)
    assert mx.nd.mean(x, axis=()).shape == (1,)  # MXNet: () reduces every axis
    assert mx.nd.sum(x, axis=(), keepdims=True).shape == (1, 1, 1)
    assert mx.nd.sum(x, axis=(0, 1, 2)).shape == (1,)  # MXNet has no 0-d results
    assert mx.nd.prod(x, axis=1).shape == (2, 4)
    assert mx.nd.sum(mx.nd.zeros(()), keepdims=True).shape == (1,)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128], ids=name)
def test_special_values(dtype):
    """inf, -inf and NaN in sums, means and products, and in max/argmax, as NumPy."""
    a = np.array([[1.0, np.inf, 2.0], [np.inf, -np.inf, 3.0], [np.nan, 1.0, 0.0], [0.5, 2.0, -1.0]]).astype(dtype)
    x = mx.nd.array(a, dtype=dtype)
    for op in OPS:
        for axis in (None, 0, 1):
            want = mxnet_reduce(op, a, axis, False)
            check(op, getattr(mx.nd, op)(x, axis=axis), want, a, axis, False)


@pytest.mark.parametrize("op", ARG_OPS)
def test_arg_ties_and_nans_take_the_first(op):
    a = np.array([3.0, 1.0, 3.0, 1.0, np.nan, 3.0, np.nan], np.float32)
    for v in (a, a[:4], a[::-1], a[:4][::-1], a[1:4]):
        for dt in (np.float32, np.float16, np.int32):
            if dt is np.int32 and np.isnan(v).any():
                continue
            vv = v.astype(dt)
            got = getattr(mx.nd, op)(mx.nd.array(vv, dtype=dt))
            assert got.asnumpy() == mxnet_reduce(op, vv, None, False), (op, vv)


@pytest.mark.parametrize("op", OPS)
def test_large_inputs_use_the_parallel_paths(op):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((300, 2000)).astype(np.float32) + 0.25
    if op == "prod":
        a = (1 + (a - 0.25) * 1e-4).astype(np.float32)
    a[17, 1234] = 40  # a unique maximum, and a minimum
    a[250, 3] = -40
    x = mx.nd.array(a, dtype="float32")
    for axis in (None, 0, 1):
        check(op, getattr(mx.nd, op)(x, axis=axis), mxnet_reduce(op, a, axis, False), a, axis, False)
    v, xv = a[::-1, ::3], x[::-1, ::3]
    for axis in (None, 0, 1):
        check(op, getattr(mx.nd, op)(xv, axis=axis), mxnet_reduce(op, v, axis, False), v, axis, False)


def test_float32_sum_of_ten_million_matches_numpy():
    rng = np.random.default_rng(3)
    a = rng.random(10_000_000, dtype=np.float32)
    x = mx.nd.array(a, dtype="float32")
    ref = a.astype(np.float64).sum()
    got = float(mx.nd.sum(x).asscalar())
    np.testing.assert_allclose(got, float(np.sum(a)), rtol=1e-5)
    np.testing.assert_allclose(got, ref, rtol=1e-6)
    np.testing.assert_allclose(float(mx.nd.mean(x).asscalar()), ref / a.size, rtol=1e-6)
    m = a.reshape(1000, 10_000)
    xm = x.reshape(1000, 10_000)
    np.testing.assert_allclose(mx.nd.sum(xm, axis=0).asnumpy(), m.astype(np.float64).sum(axis=0), rtol=1e-6)
    np.testing.assert_allclose(mx.nd.sum(xm, axis=1).asnumpy(), m.astype(np.float64).sum(axis=1), rtol=1e-6)


def test_float16_sums_accumulate_wider():
    a = np.ones(4096, np.float16)
    assert mx.nd.sum(mx.nd.array(a, dtype="float16")).asnumpy() == 4096
    assert mx.nd.sum(mx.nd.array(a.reshape(4096, 1), dtype="float16"), axis=0).asnumpy() == 4096


def test_integer_sums_wrap_in_the_input_dtype():
    a = np.array([np.iinfo(np.int64).max, 1, 1], np.int64)
    assert mx.nd.sum(mx.nd.array(a, dtype="int64")).asnumpy() == np.sum(a)
    u = np.array([np.iinfo(np.uint64).max, 3], np.uint64)
    assert mx.nd.sum(mx.nd.array(u, dtype="uint64")).asnumpy() == np.sum(u)
    assert mx.nd.prod(mx.nd.array(u, dtype="uint64")).asnumpy() == np.prod(u)
    i8 = np.array([127] * 10, np.int8)
    got = mx.nd.sum(mx.nd.array(i8, dtype="int8"))
    assert got.dtype is np.int8 and got.shape == (1,) and got.asnumpy() == 1270 - 5 * 256  # MXNet: wraps at 8 bits


def test_bfloat16_reductions():
    vals = [0.5, -2.0, 3.0, 8.0, 1.0, 0.25]
    t = torch.tensor(vals, dtype=torch.bfloat16).reshape(2, 3)
    x = mx.nd.array(np.array(vals, np.float32).reshape(2, 3), dtype="bfloat16")
    def as32(r):
        return r.astype("float32").asnumpy()
    np.testing.assert_array_equal(as32(mx.nd.sum(x, axis=1)), t.float().sum(dim=1).numpy())
    np.testing.assert_array_equal(as32(mx.nd.mean(x, axis=0)), t.float().mean(dim=0).bfloat16().float().numpy())
    np.testing.assert_array_equal(as32(mx.nd.max(x)), np.float32(8.0))
    assert mx.nd.argmin(x).dtype == x.dtype and as32(mx.nd.argmin(x)) == 1  # the index, in bfloat16 (MXNet's rule)
    assert mx.nd.sum(x).dtype == x.dtype
    out = torch.zeros(3, dtype=torch.bfloat16)
    mx.nd.prod(t, axis=0, out=out)
    assert out.float().tolist() == (t.float()[0] * t.float()[1]).tolist()


# out=

OUT_DTYPES = (np.bool_, np.int8, np.int64, np.uint8, np.float16, np.float32, np.float64, np.complex64)


def _out_case(op, dtype):
    x, a = make(op, dtype, "3d")
    axis = 1 if op in ARG_OPS else (0, 2)
    return x, a, axis, mxnet_reduce(op, a, axis, False)


@pytest.mark.parametrize("dtype", OUT_DTYPES, ids=name)
@pytest.mark.parametrize("op", OPS)
def test_out_ndarray(op, dtype):
    x, a, axis, want = _out_case(op, dtype)
    out = mx.nd.empty(want.shape, dtype=want.dtype)
    r = getattr(mx.nd, op)(x, axis=axis, out=out)
    assert r is out
    check(op, out, want, a, axis, False)
    # into a strided, reversed view of a larger array; the rest of it is untouched
    z = mx.nd.zeros(want.shape + (3,), dtype=want.dtype)
    view = z[::-1, ..., 1]
    assert getattr(mx.nd, op)(x, axis=axis, out=view) is view
    zz = z.asnumpy()
    check(op, zz[::-1, ..., 1], want, a, axis, False)
    assert not zz[..., 0].any() and not zz[..., 2].any()
    # keepdims into an out of the kept shape
    wk = mxnet_reduce(op, a, axis, True)
    outk = mx.nd.empty(wk.shape, dtype=wk.dtype)
    getattr(mx.nd, op)(x, axis, True, out=outk)
    check(op, outk, wk, a, axis, True)


def _torch_dtype(dtype):
    return torch.from_numpy(np.empty(0, dtype)).dtype


def _result_dtype(op, dtype):
    return mxnet_reduce(op, np.ones(2, dtype), None, False).dtype.name


# (op, input dtype) pairs whose result dtype this PyTorch exchanges through DLPack (1.13:
# no bool, no uint64; see interop_helpers)
TORCH_OUT_CASES = [(op, dt) for op in OPS for dt in OUT_DTYPES if _result_dtype(op, dt) in TORCH_DLPACK_DTYPES]


@pytest.mark.parametrize("op,dtype", TORCH_OUT_CASES, ids=["%s-%s" % (op, name(dt)) for op, dt in TORCH_OUT_CASES])
def test_out_torch_tensor(op, dtype):
    """out= a PyTorch tensor: written in place through DLPack, with no copy, and the call
    returns once the values are there (PyTorch cannot see mxgo's engine)."""
    x, a, axis, want = _out_case(op, dtype)
    t = torch.full(want.shape, 7, dtype=_torch_dtype(want.dtype))
    ptr = t.data_ptr()
    getattr(mx.nd, op)(x, axis=axis, out=t)
    assert t.data_ptr() == ptr
    check(op, t.numpy(), want, a, axis, False)
    # a transposed (non-contiguous) tensor as out
    if want.ndim == 1:
        w2 = mxnet_reduce(op, a, 0 if op in ARG_OPS else 1, False)  # shape (4, 5)
        t2 = torch.zeros(w2.shape[::-1], dtype=_torch_dtype(w2.dtype)).t()
        getattr(mx.nd, op)(x, axis=0 if op in ARG_OPS else 1, out=t2)
        check(op, t2.numpy(), w2, a, 0 if op in ARG_OPS else 1, False)


@pytest.mark.parametrize("op", OPS)
def test_inputs_from_torch_and_numpy(op):
    a = data(op, np.float32, (4, 6), seed=3)
    want = mxnet_reduce(op, a, 1, False)
    check(op, getattr(mx.nd, op)(torch.from_numpy(a.copy()), axis=1), want, a, 1, False)
    check(op, getattr(mx.nd, op)(a.copy(), axis=1), want, a, 1, False)
    t = torch.from_numpy(a.copy())
    out = torch.zeros(want.shape, dtype=_torch_dtype(want.dtype))
    getattr(mx.nd, op)(t, axis=1, out=out)
    check(op, out.numpy(), want, a, 1, False)


# errors

@pytest.mark.parametrize("op", OPS)
def test_errors_leave_inputs_and_out_intact(op):
    a = sample(np.float32, (2, 3, 4))
    x = mx.nd.array(a, dtype="float32")
    want = mxnet_reduce(op, a, 0, False)
    out = mx.nd.full(want.shape, 5, dtype=want.dtype)
    tout = torch.full(want.shape, 5, dtype=_torch_dtype(want.dtype))
    snap = Snapshot(x, out, tout.numpy())
    fn = getattr(mx.nd, op)
    for axis in (3, -4) if op in ARG_OPS else (3, -4, (0, 3)):
        with pytest.raises(IndexError, match="out of bounds"):
            fn(x, axis=axis, out=out)
        with pytest.raises(IndexError):  # NumPy agrees (AxisError is an IndexError)
            mxnet_reduce(op, a, axis, False)
    if op in ARG_OPS:
        for axis in ((0, 1), ()):
            with pytest.raises(TypeError, match="single"):
                fn(x, axis=axis)
            with pytest.raises(TypeError):
                mxnet_reduce(op, a, axis, False)
    else:
        with pytest.raises(ValueError, match="duplicate"):
            fn(x, axis=(0, -3), out=out)
        with pytest.raises(ValueError):
            mxnet_reduce(op, a, (0, -3), False)
    with pytest.raises(TypeError, match="out has dtype"):
        fn(x, axis=0, out=mx.nd.zeros(want.shape, dtype="int8"))
    with pytest.raises(TypeError, match="out has dtype"):
        fn(x, axis=0, out=torch.zeros(want.shape, dtype=torch.int8))
    with pytest.raises(ValueError, match="out has shape"):
        fn(x, axis=1, out=out)
    with pytest.raises(ValueError, match="out has shape"):
        fn(x, axis=0, keepdims=True, out=tout)
    with pytest.raises(TypeError):
        fn(x, axis=1.5)
    snap.assert_intact()
    assert (tout.numpy() == 5).all()
    mx.nd.waitall()


@pytest.mark.parametrize("op", ORDER_OPS)
def test_empty_reductions_without_identity(op):
    a = np.zeros((2, 0), np.float32)
    x = mx.nd.array(a, dtype="float32")
    msg = {"max": "maximum which has no identity", "min": "minimum which has no identity",
           "argmax": "empty sequence", "argmin": "empty sequence"}[op]
    for axis in (None, 1, -1):
        with pytest.raises(ValueError, match=msg):
            getattr(mx.nd, op)(x, axis=axis)
        with pytest.raises(ValueError, match=msg):
            mxnet_reduce(op, a, axis, False)
    check(op, getattr(mx.nd, op)(x, axis=0), mxnet_reduce(op, a, 0, False), a, 0, False)


@pytest.mark.parametrize("op", OPS)
def test_zero_d_axis_is_an_index_error(op):
    x = mx.nd.array(np.array(3.5, np.float64), dtype="float64")
    for axis in (0, -1, 1):
        with pytest.raises(IndexError):
            getattr(mx.nd, op)(x, axis=axis)
    assert getattr(mx.nd, op)(x).shape == (1,)  # MXNet has no 0-d results
