"""mx.np.random: every distribution's mean and variance against the analytic values (1e5
draws, fixed seed; tolerances of about five standard errors), shapes, dtypes and NumPy's
broadcasting of parameters with size, seeding, and the errors of bad parameters."""
import math

import numpy as onp
import pytest

import mxgo as mx
from mxgo import np

N = 100_000
EULER = 0.5772156649015329
G15 = math.gamma(1.5)

# name, args, analytic (mean, variance)
MOMENTS = [
    ("uniform", (2.0, 5.0), (3.5, 0.75)),
    ("normal", (1.0, 2.0), (1.0, 4.0)),
    ("lognormal", (0.0, 0.5), (math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25))),
    ("logistic", (1.0, 2.0), (1.0, math.pi ** 2 / 3 * 4)),
    ("gumbel", (1.0, 2.0), (1.0 + 2 * EULER, math.pi ** 2 / 6 * 4)),
    ("laplace", (1.0, 2.0), (1.0, 8.0)),
    ("exponential", (2.0,), (2.0, 4.0)),
    ("rayleigh", (2.0,), (2.0 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4)),
    ("weibull", (2.0,), (G15, 1.0 - G15 ** 2)),
    ("pareto", (10.0,), (1 / 9, 10 / (81 * 8))),
    ("power", (3.0,), (0.75, 3 / (16 * 5))),
    ("gamma", (2.0, 3.0), (6.0, 18.0)),
    ("beta", (2.0, 3.0), (0.4, 0.04)),
    ("chisquare", (4.0,), (4.0, 8.0)),
    ("f", (5.0, 20.0), (20 / 18, 2 * 400 * 23 / (5 * 18 ** 2 * 16))),
    ("randint", (0, 10), (4.5, 99 / 12)),
    ("choice", (10,), (4.5, 99 / 12)),
]


def check_moments(a, mean, var):
    a = onp.asarray(a, dtype=onp.float64)
    assert abs(a.mean() - mean) < 5 * math.sqrt(var / a.size), (a.mean(), mean)
    assert abs(a.var() - var) < 0.05 * var, (a.var(), var)


@pytest.mark.parametrize("name,args,moments", MOMENTS, ids=[m[0] for m in MOMENTS])
def test_moments(name, args, moments):
    np.random.seed(7)
    r = getattr(np.random, name)(*args, size=N)
    assert isinstance(r, np.ndarray) and r.shape == (N,)
    assert r.dtype == (onp.int64 if name in ("randint", "choice") else onp.float32)
    check_moments(r.asnumpy(), *moments)


def test_multinomial_counts():
    np.random.seed(7)
    p = onp.array([0.2, 0.3, 0.5])
    r = np.random.multinomial(20, p.tolist(), size=N // 10)
    assert r.shape == (N // 10, 3) and r.dtype == onp.int64
    c = r.asnumpy()
    assert (c.sum(axis=1) == 20).all()
    for k in range(3):
        check_moments(c[:, k], 20 * p[k], 20 * p[k] * (1 - p[k]))


def test_multivariate_normal_covariance():
    np.random.seed(7)
    cov = onp.array([[2.0, 0.6], [0.6, 1.0]])
    r = np.random.multivariate_normal(np.array([1.0, -1.0]), np.array(cov.tolist()), size=N)
    assert r.shape == (N, 2) and r.dtype == onp.float32
    x = r.asnumpy().astype(onp.float64)
    onp.testing.assert_allclose(x.mean(axis=0), [1.0, -1.0], atol=0.02)
    onp.testing.assert_allclose(onp.cov(x.T), cov, atol=0.04)


def test_choice_weighted_and_without_replacement():
    np.random.seed(7)
    r = np.random.choice(np.array([10.0, 20.0, 30.0]), size=N, p=[0.25, 0.0, 0.75]).asnumpy()
    assert set(onp.unique(r)) == {10.0, 30.0}
    assert abs((r == 10.0).mean() - 0.25) < 0.01
    perm = np.random.choice(50, size=(5, 10), replace=False).asnumpy()
    assert perm.shape == (5, 10) and sorted(perm.ravel()) == list(range(50))
    w = np.random.choice(4, size=3, replace=False, p=[0.5, 0.0, 0.25, 0.25]).asnumpy()
    assert sorted(w) == [0, 2, 3]  # the zero-probability value is never taken


def test_shapes_dtypes_and_broadcasting():
    R = np.random
    assert R.uniform().shape == () and R.normal().dtype == onp.float32
    assert R.normal(size=(2, 3)).shape == (2, 3) and R.uniform(size=4).shape == (4,)
    assert R.normal(np.zeros(3), 1.0).shape == (3,)
    assert R.gamma(np.ones((2, 1)), np.ones(3)).shape == (2, 3)
    assert R.beta(np.ones(3), 2.0, size=(4, 3)).shape == (4, 3)
    assert R.uniform(dtype="float64").dtype == onp.float64 and R.gamma(1.0, dtype="float16").dtype == onp.float16
    assert R.randint(5, size=(2, 2), dtype="int32").dtype == onp.int32
    assert R.rand(2, 3).shape == (2, 3) and R.randn(4).shape == (4,)
    assert R.choice(5).shape == () and R.multinomial(5, [0.5, 0.5]).shape == (2,)
    # each element drawn with its own parameters
    x = R.normal(np.array([0.0, 100.0]), np.array([1.0, 0.0]), size=(1000, 2)).asnumpy()
    assert abs(x[:, 0].mean()) < 0.2 and (x[:, 1] == 100.0).all()
    out = np.zeros((2, 2))
    assert R.uniform(size=(2, 2), out=out) is out and (out.asnumpy() > 0).all()


def test_seed_repeats_draws():
    def draws():
        np.random.seed(42)
        return [np.random.normal(size=5).asnumpy(), np.random.gamma(2.0, size=5).asnumpy(),
                np.random.choice(10, size=5, replace=False).asnumpy()]
    for a, b in zip(draws(), draws()):
        onp.testing.assert_array_equal(a, b)
    mx.random.seed(42)  # the same generator as mx.random
    onp.testing.assert_array_equal(np.random.normal(size=5).asnumpy(), draws()[0])


def test_shuffle_permutes_first_axis_in_place():
    np.random.seed(3)
    x = np.arange(20).reshape(10, 2)
    assert np.random.shuffle(x) is None
    rows = x.asnumpy()
    assert sorted(map(tuple, rows)) == [(2 * i, 2 * i + 1) for i in range(10)]
    assert not (rows[:, 0] == onp.arange(0, 20, 2)).all()


@pytest.mark.parametrize("call", [
    lambda R: R.normal(0, -1.0), lambda R: R.normal(np.zeros(2), np.array([1.0, -1.0])),
    lambda R: R.exponential(-1.0), lambda R: R.gamma(0.0), lambda R: R.weibull(-1.0), lambda R: R.beta(1.0, -1.0),
    lambda R: R.chisquare(0.0), lambda R: R.rayleigh(-2.0), lambda R: R.gumbel(0.0, -1.0), lambda R: R.pareto(0.0),
    lambda R: R.normal(np.zeros(3), 1.0, size=(2, 2)), lambda R: R.randint(5, 5),
    lambda R: R.choice(3, size=4, replace=False), lambda R: R.choice(3, p=[0.5, 0.6, -0.1]),
    lambda R: R.multinomial(3, [0.7, 0.6, 0.1]), lambda R: R.multivariate_normal(np.zeros(2), np.eye(3)),
])
def test_bad_parameters_raise_value_error(call):
    with pytest.raises(ValueError):
        call(np.random)


@pytest.mark.parametrize("call", [lambda R: R.randint(1.5), lambda R: R.normal(None), lambda R: R.shuffle([1, 2]),
                                  lambda R: R.uniform(dtype="int32"), lambda R: R.randint(5, dtype="float32")])
def test_bad_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call(np.random)
