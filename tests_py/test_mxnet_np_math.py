"""mx.np's math, statistics, polynomial, window and financial functions against the real
MXNet 1.9.1's mxnet.numpy: the same call in both libraries must give the same shapes,
dtypes and values (MXNet's own kernels, and the functions it hands to NumPy). Where MXNet
fails or departs, the departure is checked as one.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import mxnet
import numpy as onp
import pytest

import mxgo as mx
from test_mxnet_np import numpy_mode  # noqa: F401  (the module's autouse fixture: MXNet's NumPy mode)

R = onp.random.RandomState(7)
F = R.uniform(-2, 2, (3, 4)).astype("float32")
P = R.uniform(0.5, 2, (3, 4)).astype("float32")
K = R.randint(1, 9, (3, 4)).astype("int32")
N = onp.array([[1.0, onp.nan, 3.0], [onp.nan, 5.0, -1.0]], "float32")
E = onp.array([-2, 0, 0.5, 2], "float32")


# (id, call(m, a): the same call on module m (mx.np or mxnet.numpy) with its array maker a)
CALLS = [
    ("dot", lambda m, a: m.dot(a(F), a(P).T)), ("dot_nd", lambda m, a: m.dot(a(F.reshape(3, 2, 2)), a(P.reshape(2, 2, 3)))),
    ("inner", lambda m, a: m.inner(a(F), a(P))), ("outer", lambda m, a: m.outer(a(F[0]), a(P))),
    ("vdot", lambda m, a: m.vdot(a(F), a(P))), ("trace", lambda m, a: m.trace(a(F), offset=1)),
    ("trace_int", lambda m, a: m.trace(a(K))),  # (int32, as MXNet's; NumPy's is int64)
    ("trace_axes", lambda m, a: m.trace(a(F.reshape(3, 2, 2)), 0, 1, 2)),
    ("einsum", lambda m, a: m.einsum("ij,kj->ik", a(F), a(P))), ("einsum_trace", lambda m, a: m.einsum("ii", a(F[:, :3]))),
    ("einsum_chain", lambda m, a: m.einsum("ij,jk,kl->il", a(F), a(P.T), a(F))),
    ("einsum_sum", lambda m, a: m.einsum("ij->j", a(K))),
    ("average", lambda m, a: m.average(a(F), axis=1)),
    ("average_weights", lambda m, a: m.average(a(F), axis=0, weights=a(P[:, 0]))),
    ("ptp", lambda m, a: m.ptp(a(F), axis=0)), ("percentile", lambda m, a: m.percentile(a(F), 30)),
    ("quantile", lambda m, a: m.quantile(a(F), a(onp.array([0.2, 0.9], "float32")), axis=1, keepdims=True)),
    ("quantile_nearest", lambda m, a: m.quantile(a(F), 0.3, interpolation="nearest")),
    ("quantile_midpoint", lambda m, a: m.quantile(a(F), 0.3, axis=0, interpolation="midpoint")),
    ("histogram", lambda m, a: m.histogram(a(F), bins=a(E))),
    ("bincount", lambda m, a: m.bincount(a(K.ravel()), minlength=10)),
    ("bincount_weights", lambda m, a: m.bincount(a(K.ravel()), weights=a(F.ravel()))),
    ("fabs", lambda m, a: m.fabs(a(F))), ("fabs_int", lambda m, a: m.fabs(a(-K))),
    ("ldexp", lambda m, a: m.ldexp(a(F), a(onp.rint(P)))), ("ldexp_scalar", lambda m, a: m.ldexp(a(F), 2)),
    ("lcm", lambda m, a: m.lcm(a(K), a(K[::-1] + 3))),
    ("nan_to_num", lambda m, a: m.nan_to_num(a(onp.array([onp.nan, onp.inf, -onp.inf, 1], "float32")))),
    ("nan_to_num_values", lambda m, a: m.nan_to_num(a(N), nan=-7.0)),
    ("ediff1d", lambda m, a: m.ediff1d(a(F))), ("polyval", lambda m, a: m.polyval(a(F[0]), a(P))),
    ("interp", lambda m, a: m.interp(a(F[0]), a(onp.array([-1, 0, 1], "float32")), a(P[0, :3]))),
    ("hanning", lambda m, a: m.hanning(7)), ("hamming", lambda m, a: m.hamming(6)),
    ("blackman", lambda m, a: m.blackman(9)), ("hanning_f64", lambda m, a: m.hanning(5, dtype="float64")),
    # MXNet's fallback to NumPy
    ("cov", lambda m, a: m.cov(a(F))), ("corrcoef", lambda m, a: m.corrcoef(a(F))),
    ("correlate", lambda m, a: m.correlate(a(F[0]), a(P[0]))),
    ("digitize", lambda m, a: m.digitize(a(F), a(E))), ("divmod", lambda m, a: m.divmod(a(F), a(P))),
    ("float_power", lambda m, a: m.float_power(a(P), a(F))), ("frexp", lambda m, a: m.frexp(a(F))),
    ("modf", lambda m, a: m.modf(a(F * 3))), ("heaviside", lambda m, a: m.heaviside(a(onp.rint(F)), a(P))),
    ("histogram2d", lambda m, a: m.histogram2d(a(F[0]), a(P[0]), bins=2)),
    ("histogram_bin_edges", lambda m, a: m.histogram_bin_edges(a(F), bins=3)),
    ("histogramdd", lambda m, a: m.histogramdd(a(F[:, :2]), bins=2)), ("i0", lambda m, a: m.i0(a(F))),
    ("nanargmax", lambda m, a: m.nanargmax(a(N), axis=1)), ("nanargmin", lambda m, a: m.nanargmin(a(N))),
    ("nancumprod", lambda m, a: m.nancumprod(a(N), axis=0)), ("nancumsum", lambda m, a: m.nancumsum(a(N))),
    ("nanmax", lambda m, a: m.nanmax(a(N))), ("nanmin", lambda m, a: m.nanmin(a(N), axis=0)),
    ("nanmedian", lambda m, a: m.nanmedian(a(N), axis=1)), ("nanpercentile", lambda m, a: m.nanpercentile(a(N), 40)),
    ("nanprod", lambda m, a: m.nanprod(a(N), axis=1)), ("nanquantile", lambda m, a: m.nanquantile(a(N), 0.4, axis=0)),
    ("packbits", lambda m, a: m.packbits(a(K > 4))),
    ("unpackbits", lambda m, a: m.unpackbits(a(onp.array([3, 200], "uint8")))),
    ("piecewise", lambda m, a: m.piecewise(a(F), [a(F) < 0, a(F) >= 0], [-1, 1])),
    ("poly", lambda m, a: m.poly(a(F[0]))), ("polyadd", lambda m, a: m.polyadd(a(F[0]), a(P[1]))),
    ("polydiv", lambda m, a: m.polydiv(a(F[0]), a(P[1, :2]))), ("polyfit", lambda m, a: m.polyfit(a(F[0]), a(P[0]), 2)),
    ("polyint", lambda m, a: m.polyint(a(F[0]))), ("polymul", lambda m, a: m.polymul(a(F[0]), a(P[1]))),
    ("polysub", lambda m, a: m.polysub(a(F[0]), a(P[1]))), ("roots", lambda m, a: m.roots(a(onp.array([1, -3, 2], "float32")))),
    ("spacing", lambda m, a: m.spacing(a(F))), ("trapz", lambda m, a: m.trapz(a(F), axis=0)),
    ("unwrap", lambda m, a: m.unwrap(a(F * 4))), ("vander", lambda m, a: m.vander(a(F[0]), 3)),
]


def same(got, want):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    w = want.asnumpy() if hasattr(want, "asnumpy") else onp.asarray(want)
    assert isinstance(got, mx.np.ndarray), type(got)
    assert got.shape == w.shape, (got.shape, w.shape)
    assert got.dtype == w.dtype, (got.dtype, w.dtype)
    onp.testing.assert_allclose(got.asnumpy(), w, rtol=2e-5, atol=2e-6, equal_nan=True)


@pytest.mark.parametrize("call", [c[1] for c in CALLS], ids=[c[0] for c in CALLS])
def test_against_mxnet(call):
    same(call(mx.np, mx.np.array), call(mxnet.np, mxnet.np.array))


def test_genfromtxt(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("1,2,3\n4,5,6\n")
    same(mx.np.genfromtxt(str(path), delimiter=","), mxnet.np.genfromtxt(str(path), delimiter=","))


def test_departures_from_mxnet():
    """MXNet 1.9.1's kernels refuse integer dot, inner and vdot and
    histogram without a range, and truncate an integer average (and give average's
    sum of weights without the average's shape); mx.np follows NumPy there.
    Its npv, pv, ppmt, mirr and rate are NumPy's, which NumPy 1.20 removed (RuntimeError);
    mx.np computes them (test_np_math.py checks the formulas)."""
    i = onp.array([[1, 2], [3, 4]], "int32")
    for name, args in (("dot", (i, i)), ("inner", (i, i)), ("vdot", (i, i))):
        with pytest.raises(mxnet.base.MXNetError):
            getattr(mxnet.np, name)(*(mxnet.np.array(x) for x in args)).asnumpy()
        assert getattr(mx.np, name)(*(mx.np.array(x) for x in args)).tolist() == getattr(onp, name)(*args).tolist()
    with pytest.raises(NotImplementedError):
        mxnet.np.histogram(mxnet.np.array(F), bins=3)
    assert mx.np.histogram(mx.np.array(F), bins=3)[0].tolist() == onp.histogram(F, bins=3)[0].tolist()
    assert mxnet.np.average(mxnet.np.array(i)).item() == 2  # (2.5 truncated)
    assert mx.np.average(mx.np.array(i)).item() == 2.5 and mx.np.average(mx.np.array(i)).dtype == onp.float32
    w = onp.array([1, 3], "float32")  # returned: MXNet's sum of weights is 0-d, NumPy's has the average's shape
    assert mxnet.np.average(mxnet.np.array(F[:2]), 0, mxnet.np.array(w), returned=True)[1].shape == ()
    assert mx.np.average(mx.np.array(F[:2]), 0, mx.np.array(w), returned=True)[1].tolist() == [4.0] * 4
    for name, args in (("npv", (0.1, [1, 2])), ("pv", (0.1, 2, 3)), ("ppmt", (0.1, 1, 2, 3)),
                       ("mirr", ([-1, 2], 0.1, 0.1)), ("rate", (2, 0, -1, 2))):
        with pytest.raises(RuntimeError):
            getattr(mxnet.np, name)(*args)
        assert getattr(mx.np, name)(*args).dtype == onp.float64
