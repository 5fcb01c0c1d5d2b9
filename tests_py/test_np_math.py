"""mx.np's math, statistics, polynomial, window and financial functions against NumPy (the
same call on float32 and int32 arrays in both): shapes, dtypes and values; MXNet's dtypes
where it departs (float32 defaults, integer fabs, ldexp and trace); bad inputs."""
import numpy as onp
import pytest

from mxgo import np

R = onp.random.RandomState(5)
F = R.uniform(-2, 2, (3, 4)).astype("float32")
P = R.uniform(0.5, 2, (3, 4)).astype("float32")
K = R.randint(1, 9, (3, 4)).astype("int32")
N = onp.array([[1.0, onp.nan, 3.0], [onp.nan, 5.0, -1.0]], "float32")
V = onp.array([0.5, 2.5, -1.0, 9.0, 3.0], "float32")
trapezoid = getattr(onp, "trapezoid", None) or onp.trapz  # (NumPy 2's name; 1.24 has trapz only)

# (id, call(m, a): the same call on module m with its array maker a, dtype mx.np gives where NumPy's differs)
CASES = [
    ("dot", lambda m, a: m.dot(a(F), a(F).T), None), ("dot_int", lambda m, a: m.dot(a(K), a(K).T), None),
    ("dot_nd", lambda m, a: m.dot(a(F.reshape(3, 2, 2)), a(F.reshape(2, 2, 3))), None),
    ("dot_scalar", lambda m, a: m.dot(a(F), 2.0), "float32"), ("dot_mv", lambda m, a: m.dot(a(F), a(F[0])), None),
    ("inner", lambda m, a: m.inner(a(F), a(P)), None), ("outer", lambda m, a: m.outer(a(F[0]), a(P)), None),
    ("vdot", lambda m, a: m.vdot(a(F), a(P)), None),
    ("trace", lambda m, a: m.trace(a(F), offset=1), None), ("trace_int", lambda m, a: m.trace(a(K)), "int32"),
    ("trace_axes", lambda m, a: m.trace(a(F.reshape(3, 2, 2)), 0, 1, 2), None),
    ("einsum_mm", lambda m, a: m.einsum("ij,kj->ik", a(F), a(P)), None),
    ("einsum_chain", lambda m, a: m.einsum("ij,jk,kl", a(F), a(P.T), a(F)), None),
    ("einsum_diag", lambda m, a: m.einsum("ii->i", a(F[:, :3])), None),
    ("einsum_ellipsis", lambda m, a: m.einsum("...j,j->...", a(F), a(P[0])), None),
    ("einsum_batch", lambda m, a: m.einsum("bij,bjk->bki", a(F.reshape(2, 2, 3)), a(P.reshape(2, 3, 2))), None),
    ("average", lambda m, a: m.average(a(F), axis=1), None),
    ("average_weights", lambda m, a: m.average(a(F), axis=0, weights=a(P[:, 0]), returned=True), None),
    ("average_int", lambda m, a: m.average(a(K)), "float32"), ("ptp", lambda m, a: m.ptp(a(F), axis=0), None),
    ("percentile", lambda m, a: m.percentile(a(F), 30), "float32"),
    ("quantile_axis", lambda m, a: m.quantile(a(F), [0.2, 0.9], axis=1, keepdims=True), "float32"),
    ("quantile_nan", lambda m, a: m.quantile(a(N), [0.5, 1], axis=1), "float32"),
    ("quantile_int", lambda m, a: m.quantile(a(K), 0.5, axis=0), "float32"),
    ("bincount", lambda m, a: m.bincount(a(K.ravel())), "int32"),  # (MXNet's: x's dtype, the weights')
    ("bincount_weights", lambda m, a: m.bincount(a(K.ravel()), weights=a(F.ravel()), minlength=12), "float32"),
    ("histogram", lambda m, a: m.histogram(a(F), bins=4), None),
    ("histogram_range", lambda m, a: m.histogram(a(K), bins=3, range=(0, 9)), None),
    ("histogram_edges", lambda m, a: m.histogram(a(F), bins=a(onp.array([-2, 0, 0.5, 2], "float32"))), None),
    ("histogram_density", lambda m, a: m.histogram(a(F), bins=3, weights=a(P), density=True), None),
    ("fabs", lambda m, a: m.fabs(a(F)), None), ("fabs_int", lambda m, a: m.fabs(a(-K)), "int32"),
    ("ldexp", lambda m, a: m.ldexp(a(F), a(K)), None), ("ldexp_scalar", lambda m, a: m.ldexp(a(F), 3), None),
    ("lcm", lambda m, a: m.lcm(a(K), a(K[::-1] + 3)), None), ("float_power", lambda m, a: m.float_power(a(K), a(K)), None),
    ("divmod", lambda m, a: m.divmod(a(F), a(P)), None), ("modf", lambda m, a: m.modf(a(F * 3)), None),
    ("heaviside", lambda m, a: m.heaviside(a(onp.round(F)), a(P)), None),
    ("nan_to_num", lambda m, a: m.nan_to_num(a(onp.array([onp.nan, onp.inf, -onp.inf, 1], "float32")), posinf=9.0), None),
    ("ediff1d", lambda m, a: m.ediff1d(a(K), to_begin=a(onp.array([7], "int32")), to_end=a(K[0])), None),
    ("polyval", lambda m, a: m.polyval(a(F[0]), a(P)), None),
    ("polyval_int", lambda m, a: m.polyval(a(K[0]), a(K)), "float32"),
    ("interp", lambda m, a: m.interp(a(V), a(onp.array([0, 1, 3], "float32")), a(P[0, :3]), right=-5.0), None),
    ("interp_period", lambda m, a: m.interp(a(V), a(onp.array([1, 3, -2], "float32")), a(P[0, :3]), period=4), None),
    ("hanning", lambda m, a: m.hanning(7), "float32"), ("hamming", lambda m, a: m.hamming(6), "float32"),
    ("blackman", lambda m, a: m.blackman(5), "float32"), ("hanning_1", lambda m, a: m.hanning(1), "float32"),
    ("nanmax", lambda m, a: m.nanmax(a(N), axis=1), None), ("nanargmin", lambda m, a: m.nanargmin(a(N), axis=0), None),
    ("nancumsum", lambda m, a: m.nancumsum(a(N)), None), ("nanprod", lambda m, a: m.nanprod(a(N)), None),
    ("nancumprod", lambda m, a: m.nancumprod(a(N), axis=1), None), ("nanargmax", lambda m, a: m.nanargmax(a(N)), None),
    ("nanmin_int", lambda m, a: m.nanmin(a(K), axis=0, keepdims=True), None),
    ("nanprod_int", lambda m, a: m.nanprod(a(K), axis=1), None),
    ("nanmedian", lambda m, a: m.nanmedian(a(N), axis=1), None),
    ("nanpercentile", lambda m, a: m.nanpercentile(a(N), 40), None),
    ("cov", lambda m, a: m.cov(a(F)), None), ("corrcoef", lambda m, a: m.corrcoef(a(F), a(P)), None),
    ("correlate", lambda m, a: m.correlate(a(F[0]), a(P[0]), "full"), None),
    ("digitize", lambda m, a: m.digitize(a(F), a(onp.array([-1, 0, 1], "float32"))), None),
    ("frexp", lambda m, a: m.frexp(a(F)), None), ("spacing", lambda m, a: m.spacing(a(F)), None),
    ("i0", lambda m, a: m.i0(a(F)), None), ("trapz", lambda m, a: (m.trapz if m is np else trapezoid)(a(F)), None),
    ("histogram2d", lambda m, a: m.histogram2d(a(F[0]), a(P[0]), bins=2), None),
    ("packbits", lambda m, a: m.unpackbits(m.packbits(a(K > 4))), None),
    ("polyfit", lambda m, a: m.polyfit(a(V), a(V * V), 2), None),
    ("polydiv", lambda m, a: m.polydiv(m.polymul(a(F[0]), a(P[0])), a(P[0])), None),
    ("poly", lambda m, a: m.polyint(m.poly(a(F[0]))), None), ("roots", lambda m, a: m.roots(a(P[0])), None),
    ("unwrap", lambda m, a: m.unwrap(a(F * 4)), None), ("vander", lambda m, a: m.vander(a(F[0]), 3), None),
    ("piecewise", lambda m, a: m.piecewise(a(F), [a(F) < 0, a(F) >= 0], [-1, lambda x: x]), None),
]


def check(got, want, dtype=None):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w, dtype)
        return
    want = onp.asarray(want)
    assert isinstance(got, np.ndarray), type(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == onp.dtype(dtype or want.dtype), (got.dtype, want.dtype)
    onp.testing.assert_allclose(got.asnumpy(), want.astype(got.dtype), rtol=2e-5, atol=2e-6, equal_nan=True)


@pytest.mark.parametrize("call,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_against_numpy(call, dtype):
    check(call(np, np.array), call(onp, onp.asarray), dtype)


def test_quantile_interpolations():
    x = np.array(F)
    for method in ("linear", "lower", "higher", "midpoint", "nearest"):
        check(np.quantile(x, [0.1, 0.5, 0.75], axis=0, interpolation=method),
              onp.quantile(F, [0.1, 0.5, 0.75], axis=0, method=method), "float32")


def test_financial_formulas():
    """numpy_financial's documented examples (NumPy 1.20 dropped these functions)."""
    close = [(np.npv(0.281, [-100, 39, 59, 55, 20]), -0.0084785916384548798),
             (np.pv(0.05 / 12, 10 * 12, -100, 15692.93), -100.00067131625819),
             (np.ppmt(0.1 / 12, 1, 60, 55000), -710.254125786425),
             (np.ppmt(0.1 / 12, 1, 60, 55000, when="begin"), -1158.929712172),
             (np.mirr([-4500, -800, 800, 800, 600, 600, 800, 800, 700, 3000], 0.08, 0.055), 0.066597),
             (np.rate(10, 0, -3500, 10000), 0.1106908537142689)]
    for got, want in close:
        assert got.dtype == onp.float64 and got.shape == ()
        onp.testing.assert_allclose(got.item(), want, rtol=1e-5)  # (the documented values have 6 digits)
    assert onp.isnan(np.mirr([1, 2, 3], 0.1, 0.1).item())  # no negative cash flow
    check(np.pv(np.array([0.05, 0.0], dtype="float64"), 10, -100), [772.1734929184818, 1000.0], "float64")


def test_all_nan_slices():
    x = onp.array([[onp.nan, onp.nan], [1.0, onp.nan]], "float32")
    with pytest.warns(RuntimeWarning):
        want = onp.nanmax(x, axis=1)
    check(np.nanmax(np.array(x), axis=1), want)
    with pytest.raises(ValueError):
        np.nanargmin(np.array(x), axis=1)
    x[0, 1] = 2.0
    check(np.nanargmin(np.array(x), axis=0), onp.nanargmin(x, axis=0))


def test_genfromtxt(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("1,2,3\n4,5,6\n")
    check(np.genfromtxt(str(path), delimiter=","), onp.genfromtxt(str(path), delimiter=","))


@pytest.mark.parametrize("call,error", [
    (lambda: np.quantile(np.array(F), 1.5), ValueError), (lambda: np.percentile(np.array(F), -1), ValueError),
    (lambda: np.quantile(np.array(F), 0.5, interpolation="cubic"), ValueError),
    (lambda: np.bincount(np.array([1, -1])), ValueError), (lambda: np.bincount(np.array([1.5])), TypeError),
    (lambda: np.average(np.array(F), axis=1, weights=np.zeros(4)), ZeroDivisionError),
    (lambda: np.average(np.array(F), weights=np.ones(3)), TypeError),
    (lambda: np.histogram(np.array(F), bins=np.array([1.0, 0.0])), ValueError),
    (lambda: np.histogram(np.array(F), bins=0), ValueError),
    (lambda: np.einsum("ij,jk", np.array(F), np.array(F)), ValueError),
    (lambda: np.einsum("ij->k", np.array(F)), ValueError), (lambda: np.einsum("i1", np.array(F)), ValueError),
    (lambda: np.trace(np.array(F[0])), ValueError), (lambda: np.lcm(np.array(F), 2), TypeError),
    (lambda: np.fabs(np.array([1j])), TypeError), (lambda: np.vdot(np.array(F), np.array(F[0])), ValueError),
    (lambda: np.interp(np.array(V), np.array([0.0, 1.0]), np.array([1.0])), ValueError),
    (lambda: np.ediff1d(np.array(K), to_end=np.array([0.5])), TypeError),
    (lambda: np.nanargmax(np.array([onp.nan])), ValueError), (lambda: np.nan_to_num(np.array(F), nan="a"), TypeError),
    (lambda: np.pv(0.1, 2, 3, when="later"), ValueError),
])
def test_bad_inputs(call, error):
    with pytest.raises(error):
        call()


def test_in_place_and_out():
    x = np.array([onp.nan, 1.0])
    assert np.nan_to_num(x, copy=False) is x and x.tolist() == [0.0, 1.0]
    out = np.zeros((3, 3))
    assert np.dot(np.array(F), np.array(F).T, out=out) is out
    check(out, F @ F.T)
