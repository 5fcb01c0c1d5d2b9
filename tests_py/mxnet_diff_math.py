"""Differential cases (mxnet_diff.py) for MXNet 1.x's elementwise math: the unary functions
(arccos ... logical_not, hard_sigmoid, smooth_l1) with their NDArray methods, logical_and/or/xor,
the broadcast_* and elemwise_* names, true_divide, add_n/ElementWiseSum, identity,
stop_gradient/BlockGrad and Cast.

MXNet keeps an integer input's dtype (computing in double and converting back as C does:
NaN becomes INT_MIN, or 0 for 8-bit types) and refuses bool arrays: both are checked here.
No case divides integers by zero (MXNet dies of SIGFPE). MXNet refuses a Python number
for broadcast_* and elemwise_* with an AssertionError, which the harness cannot compare:
test_ops_math.py checks that mxgo refuses it.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.divide nd.modulo NDArray.__truediv__ NDArray.__mod__: integer division by zero gives 0, where MXNet
  1.9.1 dies of SIGFPE.
"""
from mxnet_diff import Case
from mxnet_diff_core import DTYPES, FLOATS

INTS = [dt for dt in DTYPES if dt not in FLOATS]

#: the unary functions; the data is in each one's domain for floats (a second case goes outside)
INSIDE = "[[0.5, -0.25, 0.9], [-0.9, 0.0, 0.75]]"
WIDE = "[[0.5, -1.25, 2.0], [3.5, -0.75, 0.25]]"
POSITIVE = "[[0.5, 1.25, 2.0], [3.5, 0.75, 7.0]]"
ABOVE1 = "[[1.0, 1.25, 2.0], [3.5, 10.0, 1.5]]"
UNARY = {
    "arccos": INSIDE, "arcsin": INSIDE, "arctanh": INSIDE, "erfinv": INSIDE, "arctan": WIDE, "arcsinh": WIDE,
    "arccosh": ABOVE1, "cosh": WIDE, "sinh": WIDE, "tan": WIDE, "cbrt": WIDE, "rcbrt": WIDE, "rsqrt": POSITIVE,
    "reciprocal": WIDE, "expm1": WIDE, "log1p": POSITIVE, "log2": POSITIVE, "log10": POSITIVE, "erf": WIDE,
    "gamma": WIDE, "gammaln": WIDE, "degrees": WIDE, "radians": WIDE, "fix": WIDE, "rint": WIDE, "round": WIDE,
    "ceil": WIDE, "floor": WIDE, "trunc": WIDE, "softsign": WIDE, "logical_not": WIDE, "smooth_l1": WIDE,
}
#: the unary functions that are NDArray methods in MXNet 1.9.1
METHODS = ["arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh", "cosh", "sinh", "tan", "cbrt", "rcbrt",
           "rsqrt", "reciprocal", "expm1", "log1p", "log2", "log10", "degrees", "radians", "fix", "rint", "round",
           "ceil", "floor", "trunc"]
#: outside the domains, at the poles and at special values: NaN, inf, signed zeros
SPECIAL = "[[-2.0, -1.0, -0.0], [0.0, 1.0, 2.0], [float('inf'), float('-inf'), float('nan')]]"
#: integer data: small values, and values whose results overflow or are NaN
INT_DATA = "[[0, 1, 2], [3, 5, 7]]"
INT_WIDE = "[[100, -100, 120], [-1, 64, 0]]"

CASES = []


def case(code, *names, id=""):
    CASES.append(Case(code, tuple(names), id))


def arr(data, dt):
    return "x = mx.nd.array(%s, dtype=%r)\n" % (data, dt)


for fn, data in UNARY.items():
    names = ("nd." + fn,) + (("NDArray." + fn,) if fn in METHODS else ())
    for dt in FLOATS:
        case(arr(data, dt) + "r = mx.nd.%s(x)" % fn, "nd." + fn)
        case(arr(SPECIAL, dt) + "r = mx.nd.%s(x)" % fn, "nd." + fn, id="%s special values %s" % (fn, dt))
    for dt in INTS:
        case(arr(INT_DATA, dt) + "r = mx.nd.%s(x)" % fn, "nd." + fn)
        if fn != "gamma":  # (gamma(int) overflows to a value MXNet's tgamma and Go round differently)
            case(arr(INT_WIDE, dt) + "r = mx.nd.%s(x)" % fn, "nd." + fn, id="%s int overflow and NaN %s" % (fn, dt))
    case(arr(WIDE, "float32") + "r = mx.nd.%s(x.astype('bool'))" % fn, "nd." + fn, id="%s refuses bool" % fn)
    case(arr(data, "float32") + "r = mx.nd.%s(data=x)" % fn, "nd." + fn, id="%s data= keyword" % fn)
    case(arr(data, "float32") + "o = mx.nd.zeros((2, 3))\nr = [mx.nd.%s(x, out=o), o]" % fn, "nd." + fn,
         id="%s out=" % fn)
    if fn in METHODS:
        case(arr(data, "float32") + "r = x.%s()" % fn, *names)
        case(arr(data, "float64") + "r = x.%s()" % fn, *names)
        case(arr(INT_DATA, "int32") + "r = x.%s()" % fn, *names)
#: float32 rows long enough (64) for the C kernels of erfinv, gamma and gammaln, with the values they treat apart
LONG = "np.r_[np.linspace(%s, 57), 1.5, -1.5, -3.0, -0.0, 0.0, np.inf, -np.inf, np.nan]"
for fn, span in [("erfinv", "-1, 1"), ("gamma", "-30.3, 30.7"), ("gammaln", "-40.3, 40.7")]:
    case("x = mx.nd.array(%s, dtype='float32')\nr = mx.nd.%s(x)" % (LONG % span, fn), "nd." + fn, id="%s long row" % fn)
case(arr("[[0.5, 1.5, 2.5], [-0.5, -1.5, -2.5]]", "float32") + "r = [x.round(), x.rint(), x.fix(), x.trunc(), x.ceil(), x.floor()]",
     "NDArray.round", "NDArray.rint", "NDArray.fix", "NDArray.trunc", "NDArray.ceil", "NDArray.floor", id="halves")
case("x = mx.nd.array([16777217, -2 ** 40 - 1], dtype='int64')\nr = [mx.nd.round(x), mx.nd.floor(x), mx.nd.fix(x)]",
     "nd.round", "nd.floor", "nd.fix", id="rounding integers is exact")
case("x = mx.nd.array([1e6, -3e5], dtype='int32')\nr = [mx.nd.degrees(x), mx.nd.radians(x * 100)]", "nd.degrees", "nd.radians",
     id="degrees and radians compute in float32")
case("x = mx.nd.array([20, 30], dtype='int32')\nr = [mx.nd.sinh(x), mx.nd.expm1(x // 2)]", "nd.sinh", "nd.expm1",
     id="integers compute in float64")

# ---- the unary functions with parameters ---------------------------------------------------
for dt in FLOATS:
    for kw in ["", "alpha=0.5", "alpha=0.5, beta=0.1", "beta=0.25", "alpha=0.0", "alpha=-0.3, beta=0.7"]:
        case(arr(WIDE, dt) + "r = mx.nd.hard_sigmoid(x%s)" % (", " + kw if kw else ""), "nd.hard_sigmoid")
    case(arr(SPECIAL, dt) + "r = mx.nd.hard_sigmoid(x)", "nd.hard_sigmoid")
    for kw in ["scalar=2.0", "scalar=0.5", "scalar=0.3", "scalar=-1.5"]:
        case(arr(WIDE, dt) + "r = mx.nd.smooth_l1(x, %s)" % kw, "nd.smooth_l1")
case(arr(WIDE, "float32") + "r = mx.nd.hard_sigmoid(x, 0.5, 0.1)", "nd.hard_sigmoid", id="hard_sigmoid positional")
case(arr(WIDE, "float32") + "r = mx.nd.smooth_l1(x, 0.5)", "nd.smooth_l1", id="smooth_l1 positional")
for dt in INTS:
    case(arr(INT_DATA, dt) + "r = mx.nd.hard_sigmoid(x)", "nd.hard_sigmoid", id="hard_sigmoid refuses %s" % dt)
    case(arr("[[0, 1, 2], [3, -3, 5]]", dt) + "r = [mx.nd.smooth_l1(x, scalar=2.0), mx.nd.smooth_l1(x, scalar=0.5)]",
         "nd.smooth_l1", id="smooth_l1 %s: sigma in the dtype" % dt)
case(arr(WIDE, "float32") + "r = mx.nd.hard_sigmoid(x.astype('bool'))", "nd.hard_sigmoid", id="hard_sigmoid refuses bool")

# ---- logical_and, logical_or, logical_xor and their broadcast_ names -----------------------
A = "a = mx.nd.array([[0, 1, 2], [3, -1, 0.5]], dtype=%r)\n"
B = "b = mx.nd.array([[1, 0, 2], [0, 1, 3]], dtype=%r)\n"
for fn in ["logical_and", "logical_or", "logical_xor"]:
    for dt in DTYPES:
        case(A % dt + B % dt + "r = mx.nd.%s(a, b)" % fn, "nd." + fn)
        case(A % dt + B % dt + "r = mx.nd.broadcast_%s(a, b)" % fn, "nd.broadcast_" + fn)
    case(A % "float32" + "r = [mx.nd.%s(a, 2), mx.nd.%s(0, a), mx.nd.%s(a, 0.0)]" % (fn, fn, fn), "nd." + fn)
    case(A % "int32" + "r = [mx.nd.%s(a, 0.5), mx.nd.%s(a, 3)]" % (fn, fn), "nd." + fn, id="%s int scalar cast first" % fn)
    case(A % "float32" + "r = mx.nd.%s(a, mx.nd.array([1, 0, 1]))" % fn, "nd." + fn, id="%s broadcasts" % fn)
    case(A % "float32" + "r = mx.nd.broadcast_%s(a, mx.nd.array([[1], [0]]))" % fn, "nd.broadcast_" + fn)
    case(A % "float32" + B % "int32" + "r = mx.nd.%s(a, b)" % fn, "nd." + fn, id="%s mixed dtypes refused" % fn)
    case(A % "float32" + "r = mx.nd.%s(a.astype('bool'), a.astype('bool'))" % fn, "nd." + fn, id="%s refuses bool" % fn)
    case(A % "float32" + "r = mx.nd.%s(a, mx.nd.ones((3, 2)))" % fn, "nd." + fn, id="%s bad shapes refused" % fn)
case("a = mx.nd.array([float('nan'), -0.0, 0.0, float('inf')])\nb = mx.nd.array([1, 1, 1, 0])\n"
     "r = [mx.nd.logical_and(a, b), mx.nd.logical_or(a, b), mx.nd.logical_xor(a, b), mx.nd.logical_not(a)]",
     "nd.logical_and", "nd.logical_or", "nd.logical_xor", "nd.logical_not", id="NaN is true, -0 false")

# ---- broadcast_* aliases -------------------------------------------------------------------
BROADCAST = ["add", "plus", "sub", "minus", "mul", "div", "mod", "power", "maximum", "minimum", "hypot", "equal",
             "not_equal", "greater", "greater_equal", "lesser", "lesser_equal"]
P = "a = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype=%r)\n"
Q = "b = mx.nd.array([[2, 1, 3], [1, 3, 2]], dtype=%r)\n"
for fn in BROADCAST:
    name = "nd.broadcast_" + fn
    for dt in DTYPES:
        case(P % dt + Q % dt + "r = mx.nd.broadcast_%s(a, b)" % fn, name)
    case(P % "float32" + "r = mx.nd.broadcast_%s(a, mx.nd.array([2, 3, 1]))" % fn, name)
    case(P % "float32" + "r = mx.nd.broadcast_%s(mx.nd.array([[2], [3]]), a)" % fn, name)
    case(P % "float32" + "r = mx.nd.broadcast_%s(lhs=a, rhs=mx.nd.ones((1, 3)))" % fn, name)
    case(P % "float32" + Q % "int32" + "r = mx.nd.broadcast_%s(a, b)" % fn, name, id="broadcast_%s mixed dtypes" % fn)
    case(P % "float32" + "r = mx.nd.broadcast_%s(a, mx.nd.ones((3, 2)))" % fn, name, id="broadcast_%s bad shapes" % fn)
case("a = mx.nd.array([[3, -4], [5e30, 1e-30]])\nb = mx.nd.array([[4, 3], [12e30, 1e-30]])\nr = mx.nd.broadcast_hypot(a, b)",
     "nd.broadcast_hypot", id="hypot does not overflow")
case(P % "int32" + "r = mx.nd.broadcast_hypot(a, a * 2)", "nd.broadcast_hypot", id="hypot of int32 truncates")
case(P % "float32" + "r = mx.nd.broadcast_add(a.astype('bool'), a.astype('bool'))", "nd.broadcast_add", id="broadcast_add bool")

# ---- elemwise_*: same shapes only ------------------------------------------------------------
for fn in ["add", "sub", "mul", "div"]:
    name = "nd.elemwise_" + fn
    for dt in DTYPES:
        case(P % dt + Q % dt + "r = mx.nd.elemwise_%s(a, b)" % fn, name)
    case(P % "float32" + Q % "float32" + "r = mx.nd.elemwise_%s(lhs=a, rhs=b)" % fn, name)
    case(P % "float32" + "r = mx.nd.elemwise_%s(a, mx.nd.ones((3,)))" % fn, name, id="elemwise_%s does not broadcast" % fn)
    case(P % "float32" + "r = mx.nd.elemwise_%s(a, mx.nd.ones((1, 3)))" % fn, name, id="elemwise_%s (1, 3) refused" % fn)
    case(P % "float32" + Q % "int32" + "r = mx.nd.elemwise_%s(a, b)" % fn, name, id="elemwise_%s mixed dtypes" % fn)

# ---- true_divide ---------------------------------------------------------------------------
for dt in DTYPES:
    case(P % dt + Q % dt + "r = mx.nd.true_divide(a, b)", "nd.true_divide")
case(P % "float32" + "r = [mx.nd.true_divide(a, 2), mx.nd.true_divide(3, a), mx.nd.true_divide(a, mx.nd.array([1, 2, 4]))]",
     "nd.true_divide")
case(P % "int32" + "r = mx.nd.true_divide(a, 2)", "nd.true_divide", id="true_divide int32 by a number truncates")
case(P % "float32" + Q % "int32" + "r = mx.nd.true_divide(a, b)", "nd.true_divide", id="true_divide mixed dtypes")

# ---- add_n, ElementWiseSum -----------------------------------------------------------------
for fn in ["add_n", "ElementWiseSum"]:
    for dt in DTYPES:
        case(P % dt + Q % dt + "r = mx.nd.%s(a, b, a)" % fn, "nd." + fn)
    case(P % "float32" + "r = [mx.nd.%s(a), mx.nd.%s(*[a] * 7)]" % (fn, fn), "nd." + fn)
    case(P % "float32" + "o = mx.nd.zeros((2, 3))\nr = [mx.nd.%s(a, a, out=o), o]" % fn, "nd." + fn)
    case("r = mx.nd.%s()" % fn, "nd." + fn, id="%s of nothing refused" % fn)
    case(P % "float32" + "r = mx.nd.%s(a, mx.nd.ones((3,)))" % fn, "nd." + fn, id="%s does not broadcast" % fn)
    case(P % "float32" + Q % "int32" + "r = mx.nd.%s(a, b)" % fn, "nd." + fn, id="%s mixed dtypes" % fn)
    case(P % "float32" + "r = mx.nd.%s(a.astype('bool'), a.astype('bool'))" % fn, "nd." + fn, id="%s refuses bool" % fn)
case("a = mx.nd.array([200, 100], dtype='uint8')\nr = mx.nd.add_n(a, a, a)", "nd.add_n", id="add_n uint8 wraps")

# ---- identity, stop_gradient, BlockGrad, Cast ----------------------------------------------
for fn in ["identity", "stop_gradient", "BlockGrad"]:
    for dt in DTYPES:
        case(P % dt + "r = mx.nd.%s(a)" % fn, "nd." + fn)
    case(P % "float32" + "r = mx.nd.%s(a.astype('bool'))" % fn, "nd." + fn)
    case(P % "float32" + "r = mx.nd.%s(data=a.T)" % fn, "nd." + fn)
    case(P % "float32" + "b = mx.nd.%s(a)\nb[0, 0] = 100\nr = [a, b]" % fn, "nd." + fn, id="%s copies" % fn)
for dt in DTYPES:
    for to in DTYPES + ["bool"]:
        case(arr(WIDE, dt) + "r = mx.nd.Cast(x, dtype=%r)" % to, "nd.Cast")
case(arr(WIDE, "float32") + "r = [mx.nd.Cast(x, 'int32'), mx.nd.Cast(data=x, dtype=np.float64)]", "nd.Cast")
case(arr(WIDE, "float32") + "r = mx.nd.Cast(x)", "nd.Cast", id="Cast needs a dtype")
case(arr(WIDE, "float32") + "r = mx.nd.Cast(x, dtype='float33')", "nd.Cast", id="Cast bad dtype")
