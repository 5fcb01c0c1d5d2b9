"""mx.np's NumPy names beyond the standard (joining and splitting, pad, insert/delete, index
functions, set functions, whole-array comparisons, aliases) against NumPy: one table of
calls, run on the same values in both, and the errors NumPy raises for bad input."""
import numpy as onp
import pytest

import mxgo as mx
from mxgo import np

R = onp.random.RandomState(5)
F = R.uniform(-2, 2, (3, 4)).astype("float32")
G = R.uniform(-2, 2, (3, 4)).astype("float32")
V = onp.array([0, 3, 0, 1, 2, 0], "int64")
N = onp.array([[0, 1, 2], [3, 0, 5]], "int64")
S = onp.arange(24, dtype="float32").reshape(2, 3, 4)

# (name, builder of the positional arguments from an array function, kwargs)
CALLS = [
    ("append", lambda a: [a(F), a(G)], {"axis": 0}), ("append", lambda a: [a(F), a(V)], {}),
    ("array_split", lambda a: [a(V), 4], {}), ("array_split", lambda a: [a(F), [1, 3]], {"axis": 1}),
    ("array_split", lambda a: [a(V), [-2, 9]], {}), ("diag", lambda a: [a(F)], {"k": -3}),
    ("split", lambda a: [a(V), 3], {}), ("split", lambda a: [a(S), [1]], {"axis": 1}),
    ("hsplit", lambda a: [a(F), 2], {}), ("vsplit", lambda a: [a(F), [1]], {}), ("dsplit", lambda a: [a(S), 2], {}),
    ("atleast_1d", lambda a: [a(onp.float32(2))], {}), ("atleast_2d", lambda a: [a(V), a(F)], {}),
    ("atleast_3d", lambda a: [a(V), a(F), a(S)], {}),
    ("hstack", lambda a: [[a(F), a(G)]], {}), ("vstack", lambda a: [[a(V), a(V)]], {}),
    ("row_stack", lambda a: [[a(F), a(G)]], {}), ("dstack", lambda a: [[a(F), a(G)]], {}),
    ("column_stack", lambda a: [[a(V), a(V)]], {}),
    ("ravel", lambda a: [a(S)], {}), ("resize", lambda a: [a(V), (3, 5)], {}), ("resize", lambda a: [a(F), 5], {}),
    ("rollaxis", lambda a: [a(S), 2], {}), ("rollaxis", lambda a: [a(S), 0, 2], {}), ("rollaxis", lambda a: [a(S), 1, 3], {}),
    ("rollaxis", lambda a: [a(S), 0, -1], {}), ("pad", lambda a: [a(N), (1, 2)], {"mode": "mean"}),
    ("rot90", lambda a: [a(F)], {}), ("rot90", lambda a: [a(S), 2], {"axes": (1, 2)}),
    ("rot90", lambda a: [a(S), -1], {"axes": (2, 0)}), ("fliplr", lambda a: [a(F)], {}), ("flipud", lambda a: [a(V)], {}),
    ("diag", lambda a: [a(F)], {"k": 1}), ("diag", lambda a: [a(V)], {"k": -2}), ("diagflat", lambda a: [a(N)], {}),
    ("diagonal", lambda a: [a(F)], {"offset": -1}), ("diagonal", lambda a: [a(S), 1, 0, 2], {}),
    ("pad", lambda a: [a(F), 1], {}), ("pad", lambda a: [a(N), ((1, 2), (0, 1))], {"constant_values": 7}),
    ("pad", lambda a: [a(F), (2, 3)], {"mode": "edge"}), ("pad", lambda a: [a(F), 2], {"mode": "reflect"}),
    ("pad", lambda a: [a(S), 1], {"mode": "symmetric", "reflect_type": "even"}), ("pad", lambda a: [a(V), 7], {"mode": "wrap"}),
    ("pad", lambda a: [a(F), 1], {"mode": "maximum"}), ("pad", lambda a: [a(F), (1, 0)], {"mode": "mean"}),
    ("delete", lambda a: [a(F), 1], {"axis": 1}), ("delete", lambda a: [a(V), [0, -1]], {}),
    ("delete", lambda a: [a(F), slice(0, 3, 2)], {"axis": 0}),
    ("insert", lambda a: [a(F), 1, 9.5], {"axis": 1}), ("insert", lambda a: [a(V), [1, 1, 6], [7, 8, 9]], {}),
    ("insert", lambda a: [a(F), 2, a(G[0])], {"axis": 0}), ("insert", lambda a: [a(N), slice(0, 2), 4], {"axis": 1}),
    ("trim_zeros", lambda a: [a(V)], {}), ("trim_zeros", lambda a: [a(V)], {"trim": "b"}), ("copy", lambda a: [a(F)], {}),
    ("apply_along_axis", lambda a: [lambda r: r * 2, 0, a(F)], {}),
    ("apply_over_axes", lambda a: [lambda x, axis: x.sum(axis=axis), a(S), [0, 2]], {}),
    ("isclose", lambda a: [a(F), a(F + 1e-7)], {}), ("isclose", lambda a: [a(onp.array([onp.inf, onp.nan, 1.0])),
                                                                          a(onp.array([onp.inf, onp.nan, 1.1]))],
                                                    {"equal_nan": True, "atol": 0.2}),
    ("sometrue", lambda a: [a(N)], {"axis": 0}), ("alltrue", lambda a: [a(N)], {"axis": 1}),
    ("product", lambda a: [a(N)], {"axis": 1}), ("round_", lambda a: [a(F), 2], {}),
    ("argwhere", lambda a: [a(N)], {}), ("flatnonzero", lambda a: [a(N)], {}), ("extract", lambda a: [a(N) > 1, a(N)], {}),
    ("compress", lambda a: [a(onp.array([True, False, True])), a(F)], {"axis": 0}),
    ("compress", lambda a: [a(onp.array([False, True])), a(F)], {}),
    ("choose", lambda a: [a(V % 3), [a(V), a(V * 10), a(V + 100)]], {}),
    ("choose", lambda a: [a(V), [a(V), a(V * 10)]], {"mode": "wrap"}),
    ("choose", lambda a: [a(N - 1), [a(F[0, :3]), a(F[1, :3])]], {"mode": "clip"}),
    ("select", lambda a: [[a(F > 0), a(G > 0)], [a(F), a(G)], a(onp.float32(-5))], {}),
    ("lexsort", lambda a: [[a(V), a(V % 2)]], {}), ("lexsort", lambda a: [(a(N), a(N % 2))], {"axis": 0}),
    ("unravel_index", lambda a: [a(V), (2, 4)], {}), ("unravel_index", lambda a: [a(N), (3, 2)], {"order": "F"}),
    ("diag_indices_from", lambda a: [a(onp.ones((3, 3, 3)))], {}),
    ("ix_", lambda a: [a(V[:2]), a(onp.array([True, False, True])), a(F[0])], {}),
    ("tril_indices_from", lambda a: [a(F)], {"k": 1}), ("triu_indices_from", lambda a: [a(F)], {}),
    ("msort", lambda a: [a(F)], {}),
    ("unique", lambda a: [a(N)], {"return_index": True, "return_inverse": True, "return_counts": True}),
    ("unique", lambda a: [a(onp.array([[1, 2], [1, 2], [0, 5]]))], {"axis": 0}),
    ("in1d", lambda a: [a(N), a(V)], {}), ("isin", lambda a: [a(N), a(V)], {"invert": True}),
    ("intersect1d", lambda a: [a(N), a(V)], {"return_indices": True}), ("union1d", lambda a: [a(N), a(F[0])], {}),
    ("setdiff1d", lambda a: [a(N), a(V)], {}), ("setxor1d", lambda a: [a(N), a(V)], {}),
]


def same(got, want):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    assert isinstance(got, np.ndarray), type(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


# MXNet's old NumPy names, which NumPy 2 dropped: the reference is their NumPy successor
MODERN = {"row_stack": "vstack", "product": "prod", "round_": "round", "alltrue": "all", "sometrue": "any",
          "in1d": "isin"}


@pytest.mark.parametrize("name,build,kwargs", CALLS, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CALLS)])
def test_as_numpy(name, build, kwargs):
    if name == "msort":
        want = onp.sort(*build(onp.asarray), axis=0)
    else:
        want = getattr(onp, MODERN.get(name, name))(*build(onp.asarray), **kwargs)
    if name == "in1d":
        want = want.reshape(-1)
    if name == "unique" and kwargs.get("return_inverse"):  # 1-d, as MXNet's and NumPy 1's (NumPy 2: ar's shape)
        want = want[:2] + (want[2].reshape(-1),) + want[3:]
    same(getattr(np, name)(*build(np.array), **kwargs), want if isinstance(want, (tuple, list)) else onp.asarray(want))


def test_partitions_hold_the_kth_in_place():
    x = np.array(F)
    p, ip = np.partition(x, 2, axis=1), np.argpartition(x, (0, 3), axis=1)
    assert p.shape == x.shape and p.dtype == x.dtype and ip.dtype == onp.int64
    onp.testing.assert_array_equal(p.asnumpy()[:, 2], onp.partition(F, 2, axis=1)[:, 2])
    onp.testing.assert_array_equal(onp.take_along_axis(F, ip.asnumpy(), 1)[:, 3], F.max(1))


def test_scalars_creation_and_queries():
    x = np.array(F)
    assert np.allclose(x, x + 1e-7) is True and np.allclose(x, x + 1) is False
    assert np.array_equal(x, x) and not np.array_equal(x, x[:2]) and np.array_equiv(x, np.array(F[:1]) * 0 + x)
    assert np.array_equiv(np.ones((2, 3)), 1.0) and not np.array_equiv(x, x[:, :2])
    assert np.array_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True)
    assert (np.ndim(x), np.shape(x), np.size(x), np.size(x, -1)) == (2, (3, 4), 12, 4)
    assert np.shares_memory(x, x[1]) and np.may_share_memory(x, x[1:]) and not np.shares_memory(x, x.copy())
    assert np.min_scalar_type(300) == onp.uint16 and np.promote_types("int32", "float32") == onp.float64
    same(np.identity(3), onp.identity(3, "float32"))
    same(np.identity(2, dtype="int8"), onp.identity(2, "int8"))
    same(np.indices((2, 3)), onp.indices((2, 3), dtype="int32"))  # (MXNet's int32; NumPy's int64)
    same(np.logspace(-1, 2, 7), onp.logspace(-1, 2, 7).astype("float32"))
    same(np.logspace(0, 1, 4, endpoint=False, base=2.0, dtype="float64"), onp.logspace(0, 1, 4, False, 2.0))
    with pytest.raises(NotImplementedError):
        np.logspace(0, 1, axis=1)
    assert np.indices(()).shape == (0,)
    assert (np.NAN != np.NaN, np.NINF, np.PINF, np.PZERO) == (True, -onp.inf, onp.inf, 0.0)
    assert onp.signbit(np.NZERO)
    old = onp.get_printoptions()
    try:
        np.set_printoptions(precision=2)
        assert "0.33" in repr(np.array([1 / 3])) and "0.333" not in repr(np.array([1 / 3]))
    finally:
        onp.set_printoptions(**old)
    with pytest.raises(NotImplementedError):
        np.set_printoptions(linewidth=10)


def test_npx_arange_like_and_constraint_check():
    d = np.ones((2, 3), dtype="int32")
    same(mx.npx.arange_like(d), onp.arange(6, dtype="int32").reshape(2, 3))
    same(mx.npx.arange_like(d, start=1.7, step=1.5, axis=-1), onp.array([1, 2, 3], "int32"))  # int(start), int(step)
    same(mx.npx.arange_like(np.ones(5), start=2, step=0.5, repeat=2), 2 + 0.5 * (onp.arange(5) // 2).astype("float32"))
    ok = mx.npx.constraint_check(np.array([True, True]), "fine")
    assert ok.shape == () and ok.dtype == onp.bool_ and bool(ok)
    with pytest.raises(ValueError, match="bad thing"):
        mx.npx.constraint_check(np.array([True, False]), "bad thing")
    with pytest.raises(TypeError):
        mx.npx.constraint_check(np.array([1.0]), "float")


BAD = [
    (ValueError, "split", lambda: [np.arange(5), 2]), (ValueError, "array_split", lambda: [np.arange(5), 0]),
    (ValueError, "vsplit", lambda: [np.arange(4), 2]), (ValueError, "dsplit", lambda: [np.ones((2, 2)), 2]),
    (ValueError, "fliplr", lambda: [np.arange(3)]), (ValueError, "rot90", lambda: [np.ones((2, 2)), 1, (0, 0)]),
    (ValueError, "diag", lambda: [np.ones((2, 2, 2))]), (ValueError, "diagonal", lambda: [np.ones((2, 2)), 0, 1, 1]),
    (ValueError, "pad", lambda: [np.ones((2, 2)), -1]), (ValueError, "pad", lambda: [np.ones((2, 2)), ((1, 1),) * 3]),
    (ValueError, "pad", lambda: [np.ones(2), 1, "median"]),
    (IndexError, "delete", lambda: [np.arange(3), 5]), (IndexError, "insert", lambda: [np.arange(3), 9, 1]),
    (ValueError, "resize", lambda: [np.arange(3), (-1, 2)]), (ValueError, "choose", lambda: [np.arange(3), [np.ones(3)]]),
    (TypeError, "choose", lambda: [np.ones(3), [np.ones(3)]]), (IndexError, "compress", lambda: [[0, 0, 1], np.ones(2)]),
    (TypeError, "select", lambda: [[np.ones(2)], [np.ones(2)]]), (ValueError, "select", lambda: [[], []]),
    (TypeError, "unravel_index", lambda: [np.ones(2), (2, 2)]), (ValueError, "unravel_index", lambda: [np.arange(5), (2, 2)]),
    (ValueError, "diag_indices_from", lambda: [np.ones((2, 3))]), (ValueError, "tril_indices_from", lambda: [np.ones(3)]),
    (ValueError, "partition", lambda: [np.ones(3), 3]), (TypeError, "lexsort", lambda: [[]]),
    (TypeError, "split", lambda: [np.ones(4), 2.5]), (TypeError, "resize", lambda: [np.ones(4), "ab"]),
    (TypeError, "lexsort", lambda: [5]), (TypeError, "trim_zeros", lambda: [np.ones(2), 5]),
    (ValueError, "trim_zeros", lambda: [np.ones((2, 2))]), (ValueError, "ix_", lambda: [np.ones((2, 2))]),
]


@pytest.mark.parametrize("exc,name,args", BAD, ids=["%s-%d" % (b[1], i) for i, b in enumerate(BAD)])
def test_bad_input_raises_numpys_error_and_keeps_the_array(exc, name, args):
    args = args()
    before = [a.asnumpy().copy() for a in args if isinstance(a, np.ndarray)]
    with pytest.raises(exc):
        getattr(np, name)(*args)
    assert all((b == a.asnumpy()).all() for b, a in zip(before, [a for a in args if isinstance(a, np.ndarray)]))


def test_mx_errors_are_mxnets():
    with pytest.raises(mx.base.MXNetError):
        np.split(np.arange(5), 2)
    with pytest.raises(TypeError):  # (MXNet's TypeError; NumPy pads each side with its own value)
        np.pad(np.ones(2), 1, constant_values=(1, 2))


def test_gradients_flow_through_the_gathers_and_joins():
    x = np.array(F)
    x.attach_grad()
    with mx.autograd.record():
        y = (np.pad(x, 1, mode="edge") * 2).sum() + np.insert(x, 1, 5.0, axis=1).sum() + np.diagonal(x).sum() + \
            np.rot90(x)[0].sum() + np.hstack([x, x]).sum()
    y.backward()
    want = onp.full(F.shape, 2 + 1 + 2.0)  # pad's interior, insert, hstack
    want[[0, 0, -1, -1], [0, -1, 0, -1]] += 6  # pad's corners repeat each 4 times
    want[[0, 0, -1, -1, 1, 1], [1, 2, 1, 2, 0, -1]] += 2  # pad's other border elements twice
    want[range(3), range(3)] += 1  # diagonal
    want[:, -1] += 1  # rot90's first row: the last column
    onp.testing.assert_allclose(x.grad.asnumpy(), want)
