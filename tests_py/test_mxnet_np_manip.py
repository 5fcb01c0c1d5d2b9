"""mx.np's NumPy names beyond the standard against the real MXNet 1.9.1's mxnet.numpy: the
same call on the same values in both must give the same shapes, dtypes and values (arrays,
lists and tuples of them, Python scalars). Where MXNet 1.9.1 is broken or departs from
NumPy, the table says so and mxgo follows NumPy.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import mxnet
import numpy as onp
import pytest

import mxgo as mx

from test_mxnet_np import numpy_mode  # noqa: F401  (the autouse fixture: MXNet's NumPy mode for this file)
from test_np_manip import F, G, N, S, V

B = onp.array([True, False, True])


# (name, builder of the positional arguments from (array function, the library's np), kwargs)
CALLS = [
    ("append", lambda a, m: [a(F), a(G)], {"axis": 1}), ("array_split", lambda a, m: [a(V), 4], {}),
    ("split", lambda a, m: [a(S), [1]], {"axis": 1}), ("hsplit", lambda a, m: [a(F), 2], {}),
    ("vsplit", lambda a, m: [a(F), 3], {}), ("dsplit", lambda a, m: [a(S), 2], {}),
    ("atleast_1d", lambda a, m: [a(V)], {}), ("atleast_2d", lambda a, m: [a(V)], {}),
    ("atleast_3d", lambda a, m: [a(F)], {}),
    ("hstack", lambda a, m: [[a(F), a(G)]], {}), ("vstack", lambda a, m: [[a(V), a(V)]], {}),
    ("row_stack", lambda a, m: [[a(F), a(G)]], {}), ("dstack", lambda a, m: [[a(F), a(G)]], {}),
    ("column_stack", lambda a, m: [[a(V), a(V)]], {}), ("ravel", lambda a, m: [a(S)], {}),
    ("resize", lambda a, m: [a(F), (5, 3)], {}), ("rollaxis", lambda a, m: [a(S), 2], {}),
    ("rot90", lambda a, m: [a(S), 3], {"axes": (1, 2)}), ("fliplr", lambda a, m: [a(F)], {}),
    ("flipud", lambda a, m: [a(F)], {}), ("diag", lambda a, m: [a(F)], {"k": 1}), ("diagflat", lambda a, m: [a(N)], {}),
    ("diagonal", lambda a, m: [a(S)], {"offset": 1, "axis1": 1, "axis2": 2}),
    ("pad", lambda a, m: [a(F), ((1, 2), (0, 1))], {"mode": "constant"}),  # (MXNet 1.9.1 ignores constant_values)
    ("pad", lambda a, m: [a(F), ((2, 1), (1, 1))], {"mode": "edge"}),
    ("pad", lambda a, m: [a(F), ((1, 2), (2, 1))], {"mode": "reflect"}),
    ("pad", lambda a, m: [a(F), ((1, 1), (1, 1))], {"mode": "maximum"}),
    ("delete", lambda a, m: [a(F), 1], {"axis": 1}), ("delete", lambda a, m: [a(F), slice(0, 3, 2)], {"axis": 1}),
    ("insert", lambda a, m: [a(F), 1, a(onp.float32(9.5))], {"axis": 1}),
    ("insert", lambda a, m: [a(F), 1, a(G[:, :1])], {"axis": 1}),
    ("insert", lambda a, m: [a(F), slice(0, 2), a(G[:, 1:3])], {"axis": 1}),  # (MXNet 1.9.1 fails for float values)
    ("trim_zeros", lambda a, m: [a(V.astype("float32"))], {}), ("copy", lambda a, m: [a(F)], {}),
    ("apply_along_axis", lambda a, m: [lambda r: r * 2, 1, a(F)], {}),
    ("apply_over_axes", lambda a, m: [lambda x, axis: x.sum(axis=axis), a(S), [0, 2]], {}),  # (MXNet's: np.sum fails)
    ("isclose", lambda a, m: [a(F), a(F + 1e-3)], {"atol": 1e-2}),
    ("allclose", lambda a, m: [a(F), a(F + 1e-3)], {}), ("array_equal", lambda a, m: [a(F), a(F)], {}),
    ("array_equiv", lambda a, m: [a(F), a(F[:1])], {}), ("sometrue", lambda a, m: [a(F > 1)], {"axis": 0}),
    ("product", lambda a, m: [a(F)], {"axis": 1}), ("round_", lambda a, m: [a(F), 1], {}),
    ("argwhere", lambda a, m: [a(F > 0)], {}), ("flatnonzero", lambda a, m: [a(F > 0)], {}),
    ("extract", lambda a, m: [a(F > 0), a(F)], {}), ("compress", lambda a, m: [a(B), a(F)], {"axis": 0}),
    ("choose", lambda a, m: [a(V % 2), [a(V), a(V * 10)]], {}),
    ("select", lambda a, m: [[a(F > 0), a(G > 0)], [a(F), a(G)]], {}), ("lexsort", lambda a, m: [a(F)], {}),
    ("unravel_index", lambda a, m: [a(V), (2, 4)], {}), ("ix_", lambda a, m: [a(V[:2]), a(F[0])], {}),
    ("diag_indices_from", lambda a, m: [a(onp.ones((3, 3), "float32"))], {}),
    ("tril_indices_from", lambda a, m: [a(F)], {"k": 1}), ("triu_indices_from", lambda a, m: [a(F)], {}),
    ("msort", lambda a, m: [a(F)], {}), ("identity", lambda a, m: [3], {}), ("identity", lambda a, m: [2], {"dtype": "int32"}),
    ("indices", lambda a, m: [(2, 3)], {}),
    ("logspace", lambda a, m: [0, 3, 4], {}), ("logspace", lambda a, m: [1, 2, 3], {"endpoint": False, "base": 2.0}),
    ("logspace", lambda a, m: [0, 3, 4], {"dtype": "int32"}), ("logspace", lambda a, m: [0.5, -1, 0], {}),
    ("unique", lambda a, m: [a(N.astype("float32"))], {"return_index": True, "return_inverse": True,
                                                       "return_counts": True}),
    ("unique", lambda a, m: [a(onp.array([[1, 2], [1, 2], [0, 5]], "float32"))], {"axis": 0}),
    ("in1d", lambda a, m: [a(N), a(V)], {}), ("isin", lambda a, m: [a(N), a(V)], {"invert": True}),
    ("intersect1d", lambda a, m: [a(N), a(V)], {}), ("union1d", lambda a, m: [a(N), a(V)], {}),
    ("setdiff1d", lambda a, m: [a(N), a(V)], {}), ("setxor1d", lambda a, m: [a(N), a(V)], {}),
    ("ndim", lambda a, m: [a(S)], {}), ("shape", lambda a, m: [a(S)], {}), ("size", lambda a, m: [a(S), 1], {}),
    ("may_share_memory", lambda a, m: [a(F), a(G)], {}), ("shares_memory", lambda a, m: [a(F), a(G)], {}),
]


def same(got, want):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (type(got), type(want))
        for g, w in zip(got, want):
            same(g, w)
    elif isinstance(want, mxnet.np.ndarray):
        w = want.asnumpy()
        assert isinstance(got, mx.np.ndarray), type(got)
        assert (got.shape, got.dtype) == (w.shape, w.dtype), (got.shape, w.shape, got.dtype, w.dtype)
        onp.testing.assert_allclose(got.asnumpy(), w, rtol=2e-6, atol=1e-6)
    else:
        assert type(got) is type(want) and got == want, (got, want)


@pytest.mark.parametrize("name,build,kwargs", CALLS, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CALLS)])
def test_as_mxnet(name, build, kwargs):
    got = getattr(mx.np, name)(*build(mx.np.array, mx.np), **kwargs)
    want = getattr(mxnet.np, name)(*build(mxnet.np.array, mxnet.np), **kwargs)
    same(got, want)


def test_partitions_and_constants_as_mxnet():
    """MXNet's (NumPy's) partitions place the kth element; mxgo's full sort is one such
    arrangement, so the kth values agree."""
    got, want = mx.np.partition(mx.np.array(F), 1, axis=0), mxnet.np.partition(mxnet.np.array(F), 1, axis=0)
    onp.testing.assert_array_equal(got.asnumpy()[1], want.asnumpy()[1])
    gi, wi = mx.np.argpartition(mx.np.array(F), 2), mxnet.np.argpartition(mxnet.np.array(F), 2)
    assert gi.dtype == wi.dtype and gi.shape == wi.shape
    onp.testing.assert_array_equal(gi.asnumpy()[:, 2], wi.asnumpy()[:, 2])
    for name in ("NAN", "NaN", "NINF", "NZERO", "PINF", "PZERO"):
        g, w = getattr(mx.np, name), getattr(mxnet.np, name)
        assert repr(g) == repr(w) and onp.signbit(g) == onp.signbit(w)
    assert mx.np.promote_types("int8", "uint8") == onp.promote_types("int8", "uint8")  # (MXNet 1.9.1's raises)
    assert mx.np.min_scalar_type(-5) == onp.min_scalar_type(-5)  # (MXNet 1.9.1's raises)
    assert bool(mx.np.alltrue(mx.np.array(F) > -3)) == bool(mxnet.np.alltrue(mxnet.np.array(F) > -3))


@pytest.mark.parametrize("kwargs", [{}, {"start": 2, "step": 0.5, "repeat": 2}, {"axis": -1, "start": 1.7, "step": 1.5}])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_npx_arange_like_as_mxnet(kwargs, dtype):
    got = mx.npx.arange_like(mx.np.ones((2, 3), dtype=dtype), **kwargs)
    same(got, mxnet.npx.arange_like(mxnet.np.ones((2, 3), dtype=dtype), **kwargs))


def test_npx_constraint_check_as_mxnet():
    ok = onp.array([True, True])
    same(mx.npx.constraint_check(mx.np.array(ok), "m"), mxnet.npx.constraint_check(mxnet.np.array(ok, dtype=bool), "m"))
    for lib in (mx, mxnet):
        with pytest.raises(ValueError, match="broken"):
            lib.npx.constraint_check(lib.np.array(onp.array([True, False]), dtype=bool), "broken").asnumpy()


def test_printoptions_as_mxnet():
    """Both print through NumPy's options."""
    old = onp.get_printoptions()
    try:
        mxnet.np.set_printoptions(precision=2)
        want = repr(mxnet.np.array(F))
        mx.np.set_printoptions(precision=2)
        assert repr(mx.np.array(F)) == want and "0.333" not in repr(mx.np.array(onp.float32([1 / 3])))
    finally:
        onp.set_printoptions(**old)
