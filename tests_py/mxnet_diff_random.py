"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for random sampling beyond
uniform and normal (mxnet_diff_core.py): every distribution's scalar form (random_<name>),
array form (sample_<name>), mx.nd.random functions and *_like forms, randint, multinomial
and shuffle. Values differ by design (another generator): the cases compare shapes, dtypes,
errors, ranges and sample moments (20,000 draws, checked against the distribution's mean
and variance within a few standard errors; both libraries must pass).

Not here, because MXNet 1.9.1 misbehaves: randint with low == high (the process dies),
negative_binomial with p = 0 (returns -2^31) or p > 1 (returns 0); mxgo refuses those
(test_ops_random.py).

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.random.* nd.random_* nd.sample_*: draws come from another generator, so a seed gives other values
  than MXNet's (the distributions agree).
- nd.random.randint nd.random.negative_binomial: low == high and p outside (0, 1] raise ValueError, where
  MXNet 1.9.1 kills the process or returns garbage.
"""
from mxnet_diff import Case

N = 20000


def _moments(expr, mean, var, names):
    """r: whether expr's sample mean and variance are within 5 standard errors."""
    code = ("mx.random.seed(3)\nx = (%s).astype('float64').asnumpy()\n"
            "r = [bool(abs(x.mean() - %r) < 5 * (%r / %d) ** 0.5), bool(abs(x.var() - %r) < 0.1 * %r + 0.05)]"
            % (expr, mean, var, N, var, var))
    return Case(code=code, names=names)


_DIST = [  # name, kwargs, mean, var
    ("exponential", "lam=2.0", 0.5, 0.25), ("gamma", "alpha=3.0, beta=2.0", 6.0, 12.0), ("gamma", "alpha=0.5, beta=1.0", 0.5, 0.5),
    ("poisson", "lam=4.0", 4.0, 4.0), ("poisson", "lam=50.0", 50.0, 50.0),
    ("negative_binomial", "k=3, p=0.4", 4.5, 11.25), ("generalized_negative_binomial", "mu=2.0, alpha=0.5", 2.0, 4.0),
]

CASES = []
for name, kw, mean, var in _DIST:
    flat = ("nd.random_" + name,)
    CASES.append(_moments("mx.nd.random_%s(%s, shape=(%d,))" % (name, kw, N), mean, var, flat))
    CASES += [
        Case(code="r = mx.nd.random_%s(%s, shape=(2, 3))" % (name, kw) + ".shape", names=flat),
        Case(code="r = mx.nd.random_%s(%s, shape=(2,), dtype='float64').dtype" % (name, kw), names=flat),
        Case(code="r = mx.nd.random_%s(%s, shape=(2,), dtype='int32')" % (name, kw), names=flat),
        Case(code="o = mx.nd.zeros((3,))\nr = mx.nd.random_%s(%s, shape=(3,), out=o) is o" % (name, kw), names=flat),
    ]

_PY = [  # mx.nd.random.<fn>(...) forms and their mean
    ("exponential", "scale=2.0", 2.0, 4.0), ("gamma", "2.0, 1.5", 3.0, 4.5), ("poisson", "3.0", 3.0, 3.0),
    ("negative_binomial", "2, 0.5", 2.0, 4.0), ("generalized_negative_binomial", "3.0, 0.2", 3.0, 4.8),
]
for name, args, mean, var in _PY:
    fn = ("nd.random." + name,)
    CASES.append(_moments("mx.nd.random.%s(%s, shape=%d)" % (name, args, N), mean, var, fn))
    CASES += [
        Case(code="r = mx.nd.random.%s(%s, shape=(2, 2), dtype='float16').dtype" % (name, args), names=fn),
        Case(code="r = mx.nd.random.%s(%s).shape" % (name, args), names=fn),
        Case(code="o = mx.nd.zeros((2, 5), dtype='float64')\nr = mx.nd.random.%s(%s, out=o) is o" % (name, args), names=fn),
    ]
    like = ("nd.random.%s_like" % name,)
    CASES += [
        Case(code="d = mx.nd.zeros((3, 4), dtype='float64')\ny = mx.nd.random.%s_like(d)\nr = [y.shape, y.dtype]" % name,
             names=like),
        Case(code="r = mx.nd.random.%s_like(mx.nd.zeros((2,), dtype='int32'))" % name, names=like),
    ]

CASES += [
    _moments("mx.nd.random.uniform_like(mx.nd.zeros((%d,)), low=2, high=4)" % N, 3.0, 1 / 3, ("nd.random.uniform_like",)),
    _moments("mx.nd.random.normal_like(mx.nd.zeros((%d,)), loc=1, scale=2)" % N, 1.0, 4.0, ("nd.random.normal_like",)),
    Case(code="r = mx.nd.random.uniform_like(mx.nd.zeros((2,), dtype='int32'))", names=("nd.random.uniform_like",)),
    Case(code="y = mx.nd.random.normal_like(mx.nd.ones((2, 3), dtype='float16'))\nr = [y.shape, y.dtype]",
         names=("nd.random.normal_like",)),
    # errors MXNet and mxgo share
    Case(code="r = mx.nd.random_exponential(lam=0, shape=(2,))", names=("nd.random_exponential",)),
    Case(code="r = mx.nd.random.exponential(scale=0, shape=(2,))", names=("nd.random.exponential",)),
    Case(code="r = mx.nd.random_gamma(alpha=0, shape=(2,))", names=("nd.random_gamma",)),
    Case(code="r = mx.nd.random_gamma(alpha=1, beta=-1, shape=(2,))", names=("nd.random_gamma",)),
    Case(code="r = mx.nd.random_poisson(lam=-1, shape=(2,))", names=("nd.random_poisson",)),
    Case(code="r = mx.nd.random.poisson(lam=0, shape=(3,))", names=("nd.random.poisson",)),
    Case(code="r = mx.nd.random_generalized_negative_binomial(mu=-1, alpha=1, shape=(2,))",
         names=("nd.random_generalized_negative_binomial",)),
    Case(code="r = mx.nd.random.generalized_negative_binomial(mu=0, alpha=0, shape=(2,))",
         names=("nd.random.generalized_negative_binomial",)),
    Case(code="r = mx.nd.random.negative_binomial(k=0, p=0.5, shape=(2,))", names=("nd.random.negative_binomial",)),
    Case(code="r = mx.nd.random.normal(0, -1, shape=(2,))", names=("nd.random.normal",)),
    Case(code="r = mx.nd.random.uniform(3, 1, shape=(2,))", names=("nd.random.uniform",)),
    # the legacy names
    Case(code="y = mx.nd.normal(shape=(2, 3))\nr = [y.shape, y.dtype]", names=("nd.normal",)),
    Case(code="y = mx.nd.uniform(low=2, high=3, shape=(4,))\nr = [y.shape, bool((y >= 2).min().asscalar())]",
         names=("nd.uniform",)),
    _moments("mx.nd.normal(loc=-1, scale=0.5, shape=(%d,))" % N, -1.0, 0.25, ("nd.normal",)),
    # randn
    Case(code="r = mx.nd.random.randn(2, 3).shape", names=("nd.random.randn",)),
    Case(code="r = mx.nd.random.randn(4, dtype='float64').dtype", names=("nd.random.randn",)),
    Case(code="r = mx.nd.random.randn()", names=("nd.random.randn",)),
    _moments("mx.nd.random.randn(%d, loc=2, scale=3)" % N, 2.0, 9.0, ("nd.random.randn",)),
]

# randint
_RI = ("nd.random.randint",)
_RRI = ("nd.random_randint",)
CASES += [
    Case(code="y = mx.nd.random.randint(0, 5, shape=(2, 3))\nr = [y.shape, y.dtype]", names=_RI),
    Case(code="y = mx.nd.random.randint(-3, 3, shape=(1000,), dtype='int64')\n"
              "r = [y.dtype, int(y.min().asscalar()), int(y.max().asscalar())]", names=_RI),
    Case(code="r = mx.nd.random.randint(3, 1, shape=(2,))", names=_RI),
    Case(code="r = mx.nd.random.randint(0.5, 3, shape=(2,))", names=_RI),
    Case(code="r = mx.nd.random.randint(0, 5, shape=(2,), dtype='float32')", names=_RI),
    Case(code="r = mx.nd.random.randint(0, 5).shape", names=_RI),
    Case(code="o = mx.nd.zeros((4,), dtype='int32')\nr = mx.nd.random.randint(0, 2, out=o) is o", names=_RI),
    Case(code="y = mx.nd.random_randint(low=10, high=12, shape=(500,))\nr = [y.dtype, sorted(set(y.asnumpy().tolist()))]",
         names=_RRI),
    Case(code="r = mx.nd.random_randint(low=2, high=1, shape=(2,))", names=_RRI),
]

# array parameters: mx.nd.random.<fn>(NDArray, ...) and sample_<fn>
_SAMPLE = [
    ("uniform", "mx.nd.array([0, 10]), mx.nd.array([1, 11])"), ("normal", "mx.nd.array([0, 10]), mx.nd.array([1, 2])"),
    ("exponential", "mx.nd.array([1.0, 2.0])"), ("gamma", "mx.nd.array([1.0, 2.0]), mx.nd.array([1.0, 0.5])"),
    ("poisson", "mx.nd.array([1.0, 20.0])"), ("negative_binomial", "mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, 0.9])"),
    ("generalized_negative_binomial", "mx.nd.array([1.0, 2.0]), mx.nd.array([0.5, 0.1])"),
]
for name, args in _SAMPLE:
    s = ("nd.sample_" + name,)
    CASES += [
        Case(code="y = mx.nd.sample_%s(%s, shape=(3, 2))\nr = [y.shape, y.dtype]" % (name, args), names=s),
        Case(code="y = mx.nd.sample_%s(%s)\nr = [y.shape, y.dtype]" % (name, args), names=s),
        Case(code="y = mx.nd.sample_%s(%s, shape=4, dtype='float64')\nr = [y.shape, y.dtype]" % (name, args), names=s),
    ]
CASES += [
    Case(code="y = mx.nd.random.uniform(mx.nd.array([0, 10]), mx.nd.array([1, 11]), shape=1000)\n"
              "r = [y.shape, bool((y[0] < 1).min().asscalar()), bool((y[1] >= 10).min().asscalar())]",
         names=("nd.random.uniform", "nd.sample_uniform")),
    Case(code="y = mx.nd.random.normal(mx.nd.array([0, 100]), mx.nd.array([1, 1]), shape=(2, 500))\n"
              "r = [y.shape, bool(abs(y[1].mean().asscalar() - 100) < 0.5)]", names=("nd.random.normal",)),
    Case(code="y = mx.nd.random.poisson(mx.nd.array([[1.0, 2.0], [3.0, 4.0]]))\nr = [y.shape, y.dtype]",
         names=("nd.random.poisson",)),
    Case(code="y = mx.nd.random.exponential(mx.nd.array([1.0, 4.0]), shape=%d)\n"
              "r = bool(abs(y[1].mean().asscalar() - 4) < 0.3)" % N, names=("nd.random.exponential",)),
    Case(code="r = mx.nd.sample_uniform(mx.nd.array([0, 1]), mx.nd.array([1, 2, 3]))", names=("nd.sample_uniform",)),
]

# multinomial and shuffle
_MN = ("nd.random.multinomial",)
CASES += [
    Case(code="y = mx.nd.random.multinomial(mx.nd.array([[0.1, 0.9], [1, 0]]), shape=3)\nr = [y.shape, y.dtype, y[1]]",
         names=_MN),
    Case(code="y = mx.nd.random.multinomial(mx.nd.array([0.0, 0.0, 1.0]))\nr = y", names=_MN),
    Case(code="y = mx.nd.random.multinomial(mx.nd.array([0.5, 0.5]), shape=(2, 2), dtype='float32')\nr = [y.shape, y.dtype]",
         names=_MN),
    Case(code="y, p = mx.nd.random.multinomial(mx.nd.array([[0.0, 1.0], [1.0, 0.0]]), shape=2, get_prob=True)\nr = [y, p]",
         names=_MN),
    Case(code="y, p = mx.nd.random.multinomial(mx.nd.array([1.0, 0.0]), get_prob=True)\nr = [y, p]", names=_MN),
    Case(code="mx.random.seed(1)\ny = mx.nd.random.multinomial(mx.nd.array([0.2, 0.8]), shape=%d).astype('float64')\n"
              "r = bool(abs(y.mean().asscalar() - 0.8) < 0.02)" % N, names=_MN),
    Case(code="y = mx.nd.sample_multinomial(mx.nd.array([[0.0, 1.0]]), shape=(2,))\nr = [y, y.dtype]",
         names=("nd.sample_multinomial",)),
    Case(code="x = mx.nd.arange(10)\ny = mx.nd.random.shuffle(x)\nr = [x, y.shape, sorted(y.asnumpy().tolist())]",
         names=("nd.random.shuffle",)),
    Case(code="x = mx.nd.array(np.arange(12).reshape(4, 3))\ny = mx.nd.shuffle(x)\n"
              "r = [y.shape, sorted(y.asnumpy().tolist()), bool((y[:, 1] - y[:, 0] == 1).min().asscalar())]",
         names=("nd.shuffle",)),
    Case(code="x = mx.nd.array([1, 2, 3], dtype='int32')\nr = sorted(mx.nd.random.shuffle(x).asnumpy().tolist())",
         names=("nd.random.shuffle",)),
]

# densities: random_pdf_<name> (deterministic, so values are compared)
S = "s = mx.nd.array([[0.5, 1.0, 2.0], [0.1, 0.2, 0.3]])\n"
K = "s = mx.nd.array([[0, 1, 2], [3, 4, 5]])\n"
_PDF = [
    ("normal", S, "mx.nd.array([0, 1]), mx.nd.array([1, 2])"), ("gamma", S, "mx.nd.array([2, 1]), mx.nd.array([1, 2])"),
    ("gamma", S, "mx.nd.array([1, 3]), mx.nd.array([0.5, 2])"), ("exponential", S, "mx.nd.array([2, 1])"),
    ("uniform", S, "mx.nd.array([0, 0]), mx.nd.array([1, 0.25])"), ("poisson", K, "mx.nd.array([2, 1])"),
    ("negative_binomial", K, "mx.nd.array([2, 1]), mx.nd.array([0.5, 0.3])"),
    ("generalized_negative_binomial", K, "mx.nd.array([2, 1]), mx.nd.array([0.5, 0.3])"),
]
for name, setup, args in _PDF:
    p = ("nd.random_pdf_" + name,)
    CASES += [
        Case(code=setup + "r = mx.nd.random_pdf_%s(s, %s)" % (name, args), names=p),
        Case(code=setup + "r = mx.nd.random_pdf_%s(s, %s, is_log=True)" % (name, args), names=p),
        Case(code=setup + "r = mx.nd.random_pdf_%s(s[0], %s)" % (name, args), names=p),
    ]
    if name != "normal":  # MXNet's float64 normal density is float32-accurate (1e-8): mxgo's is exact
        CASES.append(Case(code=setup + "r = mx.nd.random_pdf_%s(s.astype('float64'), %s)" % (
            name, args.replace("])", "], dtype='float64')")), names=p))
_D = ("nd.random_pdf_dirichlet",)
CASES += [
    Case(code="r = mx.nd.random_pdf_normal(mx.nd.array([0.5]), mx.nd.array([0]), mx.nd.array([1]))",
         names=("nd.random_pdf_normal",)),
    Case(code="r = mx.nd.random_pdf_normal(mx.nd.array([[0.5, 1]]), mx.nd.array([0, 1]), mx.nd.array([1, 1]))",
         names=("nd.random_pdf_normal",)),
    Case(code="r = mx.nd.random_pdf_gamma(mx.nd.array([[-1.0, 0.0]]), mx.nd.array([2]), mx.nd.array([1]))",
         names=("nd.random_pdf_gamma",)),
    Case(code="r = mx.nd.random_pdf_uniform(mx.nd.array([[-1.0, 1.0, 0.5]]), mx.nd.array([0]), mx.nd.array([1]))",
         names=("nd.random_pdf_uniform",)),
    Case(code="r = mx.nd.random_pdf_dirichlet(mx.nd.array([[[0.2, 0.8], [0.5, 0.5]]]), mx.nd.array([[1.0, 2.0]]))", names=_D),
    Case(code="r = mx.nd.random_pdf_dirichlet(mx.nd.array([[[0.2, 0.3, 0.5]], [[0.1, 0.1, 0.8]]]), "
              "mx.nd.array([[1.5, 2.0, 0.5], [3.0, 1.0, 1.0]]), is_log=True)", names=_D),
    Case(code="r = mx.nd.random_pdf_dirichlet(mx.nd.array([[0.2, 0.8]]), mx.nd.array([[1.0, 2.0, 3.0]]))", names=_D),
]
