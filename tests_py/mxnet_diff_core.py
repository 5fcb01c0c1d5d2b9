"""Differential cases (mxnet_diff.py) for what mxgo's core has: arithmetic (reflected and in
place, with scalars), comparisons, elementwise math, reductions, dot and friends,
indexing reads, reshape (MXNet's special codes), transpose, astype, copies, creation,
random (shapes and dtypes only), properties, printing and errors.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.dot nd.batch_dot: float16 and integer arrays are multiplied (float16 through the float32 GEMM,
  integers exactly, wrapping), where MXNet's CPU kernel refuses them on the engine (its GPU kernel takes
  float16); refusing would only take a working product away. Mixed dtypes are refused, as in MXNet.
- NDArray.__*add__ NDArray.__*sub__ NDArray.__*mul__ NDArray.__*truediv__ NDArray.__*mod__ nd.full: a Python int
  outside the array dtype's range (or past 2**53 for int64) keeps its exact value modulo 2**bits, as NumPy's
  casts do, where MXNet rounds it through double and converts as x86 does (int32 x + 2**32 + 3 adds int32's
  minimum there): an artefact no code relies on.
- NDArray.__eq__ NDArray.__ne__ NDArray.__lt__ NDArray.__le__ NDArray.__gt__ NDArray.__ge__ nd.*equal nd.greater
  nd.lesser nd.broadcast_greater nd.broadcast_lesser: two bool arrays compare (the result is bool, as in
  NumPy), where MXNet 1.9.1 has no boolean kernel and refuses; no MXNet program changes meaning.
- NDArray.reshape nd.reshape: a shape whose -1 does not divide the size raises ValueError, where MXNet 1.9.1
  returns garbage.
"""
from mxnet_diff import Case

#: the dtypes MXNet 1.9.1's NDArray has besides bool
DTYPES = ["float16", "float32", "float64", "uint8", "int8", "int32", "int64"]
FLOATS = ["float16", "float32", "float64"]

X = "x = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype=%r)\n"
Y = "y = mx.nd.array([[6, 5, 4], [3, 2, 1]], dtype=%r)\n"
F = "x = mx.nd.array([[0.5, -1.25, 2.0], [3.5, -0.75, 0.25]])\n"

CASES = []


def case(code, *names, id=""):
    CASES.append(Case(code, tuple(names), id))


# ---- arithmetic: array op array, array op scalar, scalar op array, in place -------------
BINOPS = [("+", "add", "__add__", "__radd__", "__iadd__"), ("-", "subtract", "__sub__", "__rsub__", "__isub__"),
          ("*", "multiply", "__mul__", "__rmul__", "__imul__"), ("/", "divide", "__truediv__", "__rtruediv__", "__itruediv__")]
for dt in DTYPES:
    for sym, fn, dunder, rdunder, idunder in BINOPS:
        case(X % dt + Y % dt + "r = x %s y" % sym, "NDArray." + dunder)
        case(X % dt + Y % dt + "r = mx.nd.%s(x, y)" % fn, "nd." + fn)
        case(X % dt + "r = x %s 2" % sym, "NDArray." + dunder)
        if sym != "/" or dt in FLOATS:  # 2 / x is exact only in floating point
            case(X % dt + "r = 7 %s x" % sym, "NDArray." + rdunder)
        case(X % dt + Y % dt + "z = x\nx %s= y\nr = [x, z is x]" % sym, "NDArray." + idunder)
        case(X % dt + "x %s= 3\nr = x" % sym, "NDArray." + idunder)
    case(X % dt + "r = x ** 2", "NDArray.__pow__")
    case(X % dt + "r = mx.nd.power(x, x)", "nd.power")
    case(X % dt + "r = -x", "NDArray.__neg__", "nd.negative")
    case(X % dt + "r = mx.nd.negative(x)", "nd.negative")
    case(X % dt + Y % dt + "r = [mx.nd.maximum(x, y), mx.nd.minimum(x, y)]", "nd.maximum", "nd.minimum")
    case(X % dt + "r = [mx.nd.maximum(x, 3), mx.nd.minimum(3, x)]", "nd.maximum", "nd.minimum")
case(X % "float32" + "r = 2 ** x", "NDArray.__rpow__")
case(X % "float32" + "x **= 2\nr = x", "NDArray.__pow__")
case(X % "float32" + "r = mx.nd.power(2, x)", "nd.power")
# integer powers with negative exponents: pow in floating point, converted back as C does
# (0 ** -1 is int32's minimum); the scalar is converted to the dtype first (-1.5 is -1)
P = "x = mx.nd.array([0, 1, -1, 2, -2, 3], dtype=%r)\n"
for dt in ["int32", "int64", "int8"]:
    for e in [-1, -2, -3, -1.5]:
        case(P % dt + "r = x ** %r" % e, "NDArray.__pow__", id="%s ** %r" % (dt, e))
        case(P % dt + "r = mx.nd.power(x, %r)" % e, "nd.power", id="power(%s, %r)" % (dt, e))
    case(P % dt + "r = mx.nd.power(x, mx.nd.array([-1, -1, -1, -1, -2, -3], dtype=%r))" % dt, "nd.power",
         id="power(%s, negative array)" % dt)
    case(P % dt + "r = [2 ** x, 0 ** x, (-1) ** x, 0.5 ** x]", "NDArray.__rpow__", id="numbers ** %s" % dt)
    case(P % dt + "x **= -1\nr = x", "NDArray.__pow__", id="%s **= -1" % dt)
case("x = mx.nd.array([0, 1, 2], dtype='uint8')\nr = [x ** -1, x ** -2.5]", "NDArray.__pow__", id="uint8 ** -1 is ** 255")
case(X % "float32" + "r = [x + 1.5, x * 0.5, x - 0.25]", "NDArray.__add__", "NDArray.__mul__", "NDArray.__sub__")
case(X % "int32" + "r = [x + 1.5, x * 2.5]", "NDArray.__add__", "NDArray.__mul__",
     id="int32 array, float scalar: scalar cast first")
case(X % "uint8" + "r = x - 5", "NDArray.__sub__", id="uint8 wraps")
case(X % "int32" + "r = x / 2", "NDArray.__truediv__", id="int32 division truncates")
case(X % "float32" + "r = abs(x - 3)", "NDArray.__abs__")
case(X % "float32" + "r = [x.__div__(2), x.__rdiv__(2)]", "NDArray.__div__", "NDArray.__rdiv__")
case(X % "float32" + "z = x.__idiv__(2)\nr = [x, z is x]", "NDArray.__idiv__")
case(X % "float32" + "r = [isinstance(x, mx.nd.NDArray), isinstance(x + 1, mx.nd.NDArray)]", "nd.NDArray")
case(X % "float32" + "r = [hash(x) == hash(x), x in {x: 1}]", "NDArray.__hash__")
case(X % "float32" + Y % "int32" + "r = x + y", "NDArray.__add__", id="mixed dtypes refused")
case(X % "float32" + "r = x + mx.nd.ones((3, 2))", "NDArray.__add__", id="bad shapes refused")
case(X % "float32" + "r = x + mx.nd.array([10, 20, 30])", "NDArray.__add__", id="broadcast row")
case(X % "float32" + "r = x * mx.nd.array([[10], [20]])", "NDArray.__mul__", id="broadcast column")
case(X % "float32" + "r = x + 'a'", "NDArray.__add__", id="string operand refused")

# ---- modulo ----------------------------------------------------------------------------
for dt in DTYPES:
    case(X % dt + "r = x % 4", "NDArray.__mod__")
    case(X % dt + Y % dt + "r = x % y", "NDArray.__mod__")
    case(X % dt + Y % dt + "r = mx.nd.modulo(x, y)", "nd.modulo")
    case(X % dt + "r = 7 % x", "NDArray.__rmod__")
    case(X % dt + "x %= 4\nr = x", "NDArray.__imod__")
case(F + "r = [x % 2, x % -2, 3 % x]", "NDArray.__mod__", "NDArray.__rmod__", id="float mod signs")
case("x = mx.nd.array([-7, -3, 3, 7], dtype='int32')\nr = [x % 4, x % -4]", "NDArray.__mod__", id="int mod signs")
case("x = mx.nd.array([-7, 7], dtype='float32')\nr = mx.nd.modulo(x, mx.nd.array([4, -4]))", "nd.modulo")

# ---- comparisons: 0/1 in the operands' dtype ------------------------------------------
CMPS = [("==", "equal", "__eq__"), ("!=", "not_equal", "__ne__"), (">", "greater", "__gt__"),
        (">=", "greater_equal", "__ge__"), ("<", "lesser", "__lt__"), ("<=", "lesser_equal", "__le__")]
for dt in DTYPES:
    for sym, fn, dunder in CMPS:
        case(X % dt + Y % dt + "r = x %s y" % sym, "NDArray." + dunder)
        case(X % dt + "r = x %s 3" % sym, "NDArray." + dunder)
        case(X % dt + "r = 3 %s x" % sym, "NDArray." + dunder)
        case(X % dt + Y % dt + "r = mx.nd.%s(x, y)" % fn, "nd." + fn)
    case(X % dt + "r = (x > 2) * x", "NDArray.__gt__", "NDArray.__mul__", id="(x > 2) * x in %s" % dt)
case(X % "float32" + "r = [mx.nd.greater(x, 2), mx.nd.equal(2, x)]", "nd.greater", "nd.equal")
case(X % "float32" + "r = x == mx.nd.array([1, 5, 3])", "NDArray.__eq__", id="broadcast comparison")
case(X % "float32" + Y % "int32" + "r = x == y", "NDArray.__eq__", id="mixed dtype comparison refused")
case(X % "float32" + "r = (x > 2).sum()", "NDArray.__gt__", "NDArray.sum")
# a Python number is converted to the array's dtype first (C's cast of a double), as MXNet's
# arithmetic converts it: int32 x == 2.7 is x == 2, uint8 x > -1 is x > 255
CMP_NUMBERS = {"float16": [2.0004, 2.001, 65519, 70000, 1e-8, -0.5], "float32": [0.1, 16777217, 2.5, 1e39, float("nan")],
               "float64": [0.1, 2 ** 53 + 1, float("-inf")],
               "uint8": [-1, 256, 257, 1.5, -0.5, 255.9, 1e10, float("nan"), float("inf"), -2.7],
               "int8": [128, -129, 127.5, -128.5, 300, float("nan"), float("inf"), 2.7],
               "int32": [2.7, -2.7, 2 ** 31, -2 ** 31 - 1, 2 ** 32 + 5, 1e20, float("nan"), 0.5],
               "int64": [2.5, 2 ** 53 + 1, 2 ** 62, 2 ** 63, -2 ** 63, 1e19, float("nan")],
               "bool": [0.5, 1.9, 2, -1, 256, 1e10, 1e19, float("nan"), True]}
CMP_DATA = {"float16": "[1, 2, 65504]", "float32": "[0.1, 16777216, 2]", "float64": "[0.1, 9007199254740992, 1]",
            "uint8": "[1, 2, 255]", "int8": "[-128, 0, 127]", "int32": "[2147483647, -2147483648, 2, -2]",
            "int64": "[2, 9007199254740992, 4611686018427387904]", "bool": "[0, 1]"}
for dt, numbers in CMP_NUMBERS.items():
    for s in numbers:
        data = "x = mx.nd.array(%s, dtype=%r)\n" % (CMP_DATA[dt], dt)
        if dt == "int64":  # exact, beyond float64's integers
            data = "x = mx.nd.array(np.array(%s, dtype='int64'), dtype='int64')\n" % CMP_DATA[dt]
        sv = repr(s) if s == s and abs(s) != float("inf") else "float(%r)" % str(s)
        case(data + "s = %s\nr = [x == s, x != s, x > s, x >= s, x < s, x <= s]" % sv,
             *["NDArray." + d for _, _, d in CMPS], id="compare %s with %s" % (dt, sv))
        case(data + "s = %s\nr = [s == x, s > x, s <= x, mx.nd.greater(x, s), mx.nd.lesser_equal(s, x), mx.nd.not_equal(x, s)]"
             % sv, "NDArray.__eq__", "NDArray.__gt__", "NDArray.__le__", "nd.greater", "nd.lesser_equal", "nd.not_equal",
             id="compare %s with %s, reflected" % (dt, sv))

# ---- elementwise math -----------------------------------------------------------------
UNARY = ["abs", "sign", "exp", "log", "sqrt", "square", "sin", "cos", "tanh", "sigmoid", "relu"]
for fn in UNARY:
    for dt in FLOATS:
        data = "x = mx.nd.array([[0.5, 1.25, 2.0], [3.5, 0.75, 0.25]], dtype=%r)\n" % dt
        if fn in ("abs", "sign", "square", "sin", "cos", "tanh", "sigmoid", "relu"):
            data = "x = mx.nd.array([[0.5, -1.25, 2.0], [-3.5, 0.75, 0.0]], dtype=%r)\n" % dt
        case(data + "r = mx.nd.%s(x)" % fn, "nd." + fn)
        case(data + "r = x.%s()" % fn, "NDArray." + fn)
for dt in ["uint8", "int8", "int32", "int64"]:
    for fn in ["abs", "sign", "square", "relu"]:
        case(X % dt + "r = mx.nd.%s(x)" % fn, "nd." + fn)
for dt in DTYPES:
    case(X % dt + "r = mx.nd.clip(x, 2, 5)", "nd.clip")
    case(X % dt + "r = x.clip(2, 5)", "NDArray.clip")
    for to in DTYPES:
        case(X % dt + "r = mx.nd.cast(x, dtype=%r)" % to, "nd.cast")
        case(X % dt + "r = x.astype(%r)" % to, "NDArray.astype")
case(F + "r = mx.nd.cast(x, dtype='int32')", "nd.cast", id="cast truncates")
case(F + "r = x.astype('int32', copy=False)", "NDArray.astype")
case(X % "float32" + "r = x.astype('float32', copy=False) is x", "NDArray.astype")
case(X % "float32" + "r = mx.nd.where(x > 2, x, -x)", "nd.where")
case(X % "float32" + "r = mx.nd.where(mx.nd.array([[1, 0, 1], [0, 1, 0]]), x, x * 10)", "nd.where")
# a 1-D condition as long as x's first axis picks whole rows
for dt in ["float32", "int32", "float64", "uint8"]:
    for cond in ["[1, 0]", "[0, 2.5]", "[0, 0]"]:
        case(X % dt + Y % dt + "r = mx.nd.where(mx.nd.array(%s), x, y)" % cond, "nd.where", id="where rows %s %s" % (dt, cond))
case("x = mx.nd.arange(12).reshape((2, 3, 2))\nr = mx.nd.where(mx.nd.array([0, 1], dtype='int32'), x, -x)", "nd.where")
case("x = mx.nd.arange(9).reshape((3, 3))\nr = mx.nd.where(mx.nd.array([1, 0, 1]), x, -x)", "nd.where", id="where rows, square")
case("x = mx.nd.arange(8).reshape((4, 2))\nr = mx.nd.where(mx.nd.array([1, 0, 0, 1, 1, 0, 1, 0])[::2], x, x * 10)", "nd.where",
     id="where rows, strided condition")
case("x = mx.nd.arange(8).reshape((2, 4))\nr = mx.nd.where(mx.nd.array([float('nan'), 0]), x, -x)", "nd.where")
case("x = mx.nd.arange(6).reshape((2, 3))\nr = mx.nd.where(mx.nd.array([1, 0]), x, mx.nd.zeros((2, 3)), out=mx.nd.ones((2, 3)))",
     "nd.where")
case("x = mx.nd.arange(6).reshape((2, 3))\nr = mx.nd.where(mx.nd.array([1, 0, 1, 0]), x, -x)", "nd.where",
     id="where 1-D condition of another length refused")
case("x = mx.nd.arange(3)\nr = mx.nd.where(mx.nd.array([1, 0, 1]), x, -x)", "nd.where", id="where 1-D x")

# ---- reductions -----------------------------------------------------------------------
REDUCE = ["sum", "mean", "prod", "max", "min"]
for dt in DTYPES:
    for fn in REDUCE:
        case(X % dt + "r = x.%s()" % fn, "NDArray." + fn)
        case(X % dt + "r = mx.nd.%s(x)" % fn, "nd." + fn)
        case(X % dt + "r = [x.%s(axis=0), x.%s(axis=1), x.%s(axis=-1)]" % (fn, fn, fn), "NDArray." + fn)
        case(X % dt + "r = [x.%s(axis=1, keepdims=True), x.%s(keepdims=True)]" % (fn, fn), "NDArray." + fn)
        case(X % dt + "r = [mx.nd.%s(x, axis=(0, 1)), mx.nd.%s(x, axis=0, keepdims=True)]" % (fn, fn), "nd." + fn)
    for fn in ["argmax", "argmin"]:
        case(X % dt + "r = x.%s()" % fn, "NDArray." + fn)
        case(X % dt + "r = [x.%s(axis=0), x.%s(axis=1)]" % (fn, fn), "NDArray." + fn)
        case(X % dt + "r = mx.nd.%s(x, axis=1, keepdims=True)" % fn, "nd." + fn)
        case(X % dt + "r = mx.nd.%s(x)" % fn, "nd." + fn)
case("x = mx.nd.array([[1, -2, 3], [-4, 5, -6]], dtype='int32')\nr = [x.mean(), x.mean(axis=0), x.mean(axis=1)]",
     "NDArray.mean", id="int32 mean truncates")
case("x = mx.nd.array([200, 100], dtype='uint8')\nr = [x.sum(), x.prod()]", "NDArray.sum", "NDArray.prod", id="uint8 wraps")
case("x = mx.nd.array([100, 100], dtype='int8')\nr = x.sum()", "NDArray.sum", id="int8 wraps")
case("x = mx.nd.array([[100, 100], [100, 1]], dtype='int8')\nr = [x.mean(), x.mean(axis=0), x.mean(axis=1, keepdims=True)]",
     "NDArray.mean", id="int8 mean: the wrapped sum over the count")
case("x = mx.nd.array([200, 200, 200, 1], dtype='uint8')\nr = mx.nd.mean(x)", "nd.mean", id="uint8 mean: the wrapped sum")
case("x = mx.nd.array([2 ** 62, 2 ** 62, 2 ** 62, 1], dtype='int64')\nr = x.mean()", "NDArray.mean",
     id="int64 mean: the wrapped sum")
case("x = mx.nd.array([[1, 0, 1], [0, 0, 0]], dtype='bool')\nr = [x.sum(), x.mean(), x.prod(), x.sum(axis=1)]",
     "NDArray.sum", "NDArray.mean", "NDArray.prod", id="bool reductions: any, any, all")
case(X % "float32" + "r = [x.sum(axis=()), x.mean(axis=(), keepdims=True)]", "NDArray.sum", "NDArray.mean",
     id="axis=() reduces every axis")
case(X % "float32" + "r = x.argmax(axis=())", "NDArray.argmax", id="argmax refuses axis=()")
case("x = mx.nd.array([[1, 5, 5], [7, 7, 0]])\nr = [x.argmax(axis=1), x.argmin(axis=0)]", "NDArray.argmax", "NDArray.argmin",
     id="argmax ties: first")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = [x.sum(axis=(0, 2)), x.max(axis=(1, 2), keepdims=True)]",
     "NDArray.sum", "NDArray.max")
case(X % "float32" + "r = x.sum(axis=2)", "NDArray.sum", id="axis out of range refused")
# exclude=True reduces every axis not named (MXNet documents it on all five reductions)
X3 = "x = mx.nd.array(np.arange(24).reshape((2, 3, 4)) %% 7 - 2, dtype=%r)\n"
for fn in REDUCE:
    for dt in ["float32", "int32", "float64", "uint8"] if fn != "prod" else ["float32", "int64"]:
        code = X3 % dt if dt != "uint8" else X3 % "float32" + "x = (x + 2).astype('uint8')\n"
        case(code + "r = [mx.nd.%s(x, axis=1, exclude=True), mx.nd.%s(x, axis=(0, 2), exclude=True, keepdims=True)]"
             % (fn, fn), "nd." + fn, id="%s exclude %s" % (fn, dt))
    case(X3 % "float32" + "r = [x.%s(axis=-1, exclude=True), x.%s(axis=(1,), keepdims=True, exclude=1), "
         "x.T.%s(axis=0, exclude=True)]" % (fn, fn, fn), "NDArray." + fn, id="%s exclude method" % fn)
    case(X3 % "float32" + "r = [mx.nd.%s(x, exclude=True), mx.nd.%s(x, axis=(), exclude=True, keepdims=True)]" % (fn, fn),
         "nd." + fn, id="%s exclude with no axis reduces all" % fn)
    case(X3 % "float32" + "r = [mx.nd.%s(x, axis=(0, 1, 2), exclude=True), x.%s(axis=(-1, 0, 1), exclude=True, keepdims=True)]"
         % (fn, fn), "nd." + fn, "NDArray." + fn, id="%s exclude of every axis copies" % fn)
    case(X3 % "float32" + "r = mx.nd.%s(x, axis=3, exclude=True)" % fn, "nd." + fn, id="%s exclude axis out of range" % fn)
    case(X3 % "float32" + "r = mx.nd.%s(x, axis=1, exclude=False)" % fn, "nd." + fn, id="%s exclude=False" % fn)

# ---- dot, batch_dot -------------------------------------------------------------------
for dt in ["float32", "float64"]:  # (MXNet's CPU dot refuses float16)
    case(X % dt + Y % dt + "r = mx.nd.dot(x, y.T)", "nd.dot")
    case(X % dt + Y % dt + "r = mx.nd.dot(x, y, transpose_b=True)", "nd.dot")
    case(X % dt + Y % dt + "r = mx.nd.dot(x, y, transpose_a=True)", "nd.dot")
    case(X % dt + "r = mx.nd.dot(x[0], x[1])", "nd.dot", id="dot of vectors %s" % dt)
    case(X % dt + "r = [mx.nd.dot(x, x[0]), mx.nd.dot(x[0], x.T)]", "nd.dot", id="dot matrix-vector %s" % dt)
    case("a = mx.nd.arange(24, dtype=%r).reshape((2, 3, 4))\nb = mx.nd.arange(40, dtype=%r).reshape((2, 4, 5))\n"
         "r = mx.nd.batch_dot(a, b)" % (dt, dt), "nd.batch_dot")
    case("a = mx.nd.arange(24, dtype=%r).reshape((2, 4, 3))\nb = mx.nd.arange(40, dtype=%r).reshape((2, 5, 4))\n"
         "r = mx.nd.batch_dot(a, b, transpose_a=True, transpose_b=True)" % (dt, dt), "nd.batch_dot")
case("a = mx.nd.arange(24).reshape((2, 3, 4))\nb = mx.nd.arange(20).reshape((4, 5))\nr = mx.nd.dot(a, b)", "nd.dot",
     id="dot 3-d by 2-d")
case(X % "float32" + "r = mx.nd.dot(x, x)", "nd.dot", id="dot bad shapes refused")

# ---- indexing reads -------------------------------------------------------------------
for key in ["1", "-1", "(1, 2)", "(0, -1)", "slice(None)", "slice(0, 1)", "(slice(None), 1)", "(slice(None), slice(1, 3))",
            "(1, slice(None, None, -1))", "(slice(None, None, 2), slice(None, None, 2))", "(None, 1)", "(1, None)",
            "(None, 1, 2)", "Ellipsis", "(Ellipsis, 1)"]:
    case(X % "float32" + "r = x[%s]" % key, "NDArray.__getitem__")
case(X % "int32" + "r = x[0][1]", "NDArray.__getitem__")
case("x = mx.nd.arange(5)\nr = [x[2], x[1:4], x[::-1]]", "NDArray.__getitem__")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = [x[1, 2], x[1, :, 2], x[:, 1:, ::2], x[-1, -1, -1]]", "NDArray.__getitem__")
case(X % "float32" + "r = x[2]", "NDArray.__getitem__", id="index out of range refused")
case(X % "float32" + "r = x[0, 0, 0]", "NDArray.__getitem__", id="too many indices refused")
case(X % "float32" + "r = x[1, 2].asscalar()", "NDArray.__getitem__", "NDArray.asscalar")

# ---- assignment -----------------------------------------------------------------------
case(X % "float32" + "x[:] = 7\nr = x", "NDArray.__setitem__")
case(X % "float32" + "x[1, 2] = 100\nr = x", "NDArray.__setitem__")
case(X % "float32" + "x[0] = mx.nd.array([7, 8, 9])\nr = x", "NDArray.__setitem__")
case(X % "float32" + "x[:, 1] = 0\nr = x", "NDArray.__setitem__")
case(X % "int32" + "x[1] = np.array([3, 2, 1])\nr = x", "NDArray.__setitem__")
case(X % "float32" + "x[1:] = [[5, 5, 5]]\nr = x", "NDArray.__setitem__")

# ---- reshape and transpose -------------------------------------------------------------
for shape in ["(3, 2)", "(6,)", "(-1,)", "(-1, 2)", "(0, -1)", "(-2,)", "(-3,)", "(-4, 1, 2, -2)", "(-4, -1, 1, 3)",
              "(2, -4, 1, 3)", "(-3, 1)", "(0, 3)", "(0, 0)", "(1, -2)", "(2, 4)", "(-1, -1)", "(5, 0)"]:
    case(X % "float32" + "r = x.reshape(%s)" % shape, "NDArray.reshape")
    if shape not in ("(2, 4)", "(5, 0)", "(1, -2)"):  # (MXNet's nd.reshape makes these: no size check)
        case(X % "float32" + "r = mx.nd.reshape(x, shape=%s)" % shape, "nd.reshape")
case(X % "float32" + "r = x.reshape(3, 2)", "NDArray.reshape")
case(X % "float32" + "r = x.reshape(shape=(6,))", "NDArray.reshape")
case(X % "float32" + "r = x.reshape(-1)", "NDArray.reshape")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = [x.reshape((-3, 4)), x.reshape((0, -3)), x.reshape((-1, 0), reverse=True),"
     " x.reshape((6, 0), reverse=True), x.reshape((-4, 2, -1, -2)), x.reshape((0, 0, 0))]", "NDArray.reshape")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = mx.nd.reshape(x, shape=(-1, 0), reverse=True)", "nd.reshape")
case(X % "float32" + "r = x.reshape((3, -1), reverse=True)", "NDArray.reshape")
case(X % "float32" + "r = x.reshape((0, 0, 0))", "NDArray.reshape", id="0 beyond ndim refused")
case(X % "float32" + "r = x.reshape((-4, 4, -1))", "NDArray.reshape", id="-4 bad split refused")
for dt in ["float32", "int32"]:
    case(X % dt + "r = [x.T, x.transpose(), mx.nd.transpose(x)]", "NDArray.T", "NDArray.transpose", "nd.transpose")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = [x.transpose((1, 0, 2)), mx.nd.transpose(x, axes=(2, 0, 1)), x.T]",
     "NDArray.transpose", "nd.transpose", "NDArray.T")
# (MXNet accepts a repeated axis, x.transpose((0, 0)), and reads out of bounds: no case)
for dt in ["float32", "int64"]:
    case(X % dt + Y % dt + "r = [mx.nd.concat(x, y), mx.nd.concat(x, y, dim=0), mx.nd.concat(x, y, x, dim=1)]", "nd.concat")
    case(X % dt + Y % dt + "r = [mx.nd.stack(x, y), mx.nd.stack(x, y, axis=1), mx.nd.stack(x, y, axis=2)]", "nd.stack")
case(X % "float32" + "r = mx.nd.concat(x, mx.nd.ones((3, 3)), dim=1)", "nd.concat", id="concat bad shapes refused")

# ---- copies -------------------------------------------------------------------------------
case(X % "float32" + "y = x.copy()\ny[:] = 0\nr = [x, y]", "NDArray.copy")
case(X % "int32" + "y = mx.nd.zeros((2, 3), dtype='int32')\nz = x.copyto(y)\nr = [y, z is y]", "NDArray.copyto")
case(X % "float32" + "y = x.copyto(mx.cpu())\ny[:] = 1\nr = [x, y]", "NDArray.copyto")
case(X % "float32" + "r = [x.as_in_context(mx.cpu()) is x, x.as_in_context(mx.cpu())]", "NDArray.as_in_context")
case(X % "float32" + "r = x.copyto(mx.nd.zeros((3, 2)))", "NDArray.copyto", id="copyto bad shape refused")
case(X % "float32" + "r = x.copyto(None)", "NDArray.copyto", id="copyto None refused")
case(X % "float32" + "x.wait_to_read()\nmx.nd.waitall()\nr = x", "NDArray.wait_to_read", "nd.waitall")

# ---- creation -------------------------------------------------------------------------
for dt in DTYPES:
    case("r = mx.nd.zeros((2, 3), dtype=%r)" % dt, "nd.zeros")
    case("r = mx.nd.ones((2, 3), dtype=%r)" % dt, "nd.ones")
    case("r = mx.nd.full((2, 3), 7, dtype=%r)" % dt, "nd.full")
    case("r = mx.nd.empty((2, 3), dtype=%r).shape" % dt, "nd.empty")
    case("r = mx.nd.empty((2, 3), dtype=%r).dtype" % dt, "nd.empty")
    case("r = mx.nd.arange(0, 10, 3, dtype=%r)" % dt, "nd.arange")
    case("r = mx.nd.array([[1, 2], [3, 4]], dtype=%r)" % dt, "nd.array")
    case("r = mx.nd.array(np.array([[1, 2], [3, 4]], dtype=%r))" % dt, "nd.array", id="array of numpy %s: float32" % dt)
    case("r = mx.nd.array(mx.nd.array([1, 2], dtype=%r))" % dt, "nd.array", id="array of NDArray %s keeps it" % dt)
for fn in ["zeros", "ones"]:
    case("r = [mx.nd.%s(3), mx.nd.%s((2, 3), mx.cpu())]" % (fn, fn), "nd." + fn)
    case("o = mx.nd.empty((2, 3))\nr = [mx.nd.%s((2, 3), out=o), o]" % fn, "nd." + fn, id="%s out=" % fn)
    case("o = mx.nd.empty((2, 3), dtype='int32')\nr = [mx.nd.%s((2, 3), dtype='int32', out=o), o]" % fn, "nd." + fn)
case("o = mx.nd.empty((2, 3))\nr = [mx.nd.full((2, 3), 5, out=o), o]", "nd.full", id="full out=")
case("r = [mx.nd.full(3, 2.5), mx.nd.full((2, 2), 3.5, dtype='int32'), mx.nd.full((1,), -1, dtype='uint8')]", "nd.full")
case("r = [mx.nd.arange(5), mx.nd.arange(2, 8), mx.nd.arange(0, 5, 2, repeat=2), mx.nd.arange(5, 0, -1.5)]", "nd.arange")
case("r = [mx.nd.array([1, 2, 3]), mx.nd.array([[1.5]]), mx.nd.array([True, False]), mx.nd.array(range(4))]", "nd.array")
case("r = mx.nd.array([[1, 2], [3]])", "nd.array", id="ragged list refused")
case("r = mx.nd.zeros((2, -1))", "nd.zeros", id="negative shape refused")
case("r = mx.nd.zeros((2, 3), dtype='float32').dtype", "nd.zeros")

# ---- random: shapes and dtypes -------------------------------------------------------------
for fn in ["uniform", "normal"]:
    case("mx.random.seed(1)\nr = mx.nd.random.%s(shape=(2, 3)).shape" % fn, "nd.random." + fn)
    case("r = mx.nd.random.%s(shape=(2, 3), dtype='float64').dtype" % fn, "nd.random." + fn)
    case("r = mx.nd.random.%s().shape" % fn, "nd.random." + fn)
    case("r = mx.nd.random.%s(0, 1, shape=4).shape" % fn, "nd.random." + fn)
    case("o = mx.nd.zeros((3, 2))\nr = mx.nd.random.%s(out=o) is o" % fn, "nd.random." + fn)
    case("r = mx.nd.random_%s(shape=(2, 3)).shape" % fn, "nd.random_" + fn)
case("x = mx.nd.random.uniform(2, 3, shape=(100,))\nr = [bool((x >= 2).min().asscalar()), bool((x < 3).min().asscalar())]",
     "nd.random.uniform")

# ---- properties, conversion, printing ----------------------------------------------------
for dt in DTYPES:
    case(X % dt + "r = [x.shape, x.size, x.ndim, x.dtype]", "NDArray.shape", "NDArray.size", "NDArray.ndim", "NDArray.dtype")
    case(X % dt + "r = x.asnumpy().dtype.name", "NDArray.asnumpy")
    case(X % dt + "r = repr(x)", "NDArray.__repr__")
case(X % "float32" + "r = [str(x.context), str(x.ctx), x.context == mx.cpu()]", "NDArray.context", "NDArray.ctx")
case(X % "float32" + "r = [x.writable, x.handle is not None]", "NDArray.writable", "NDArray.handle")
case(X % "float32" + "r = x.asnumpy().tolist()", "NDArray.asnumpy")
case(X % "float32" + "r = x.asscalar()", "NDArray.asscalar", id="asscalar of 6 elements refused")
case("r = mx.nd.array([2.5]).asscalar()", "NDArray.asscalar")
case("r = mx.nd.array([3], dtype='int32').asscalar()", "NDArray.asscalar")
case(X % "float32" + "r = len(x)", "NDArray.__len__")
case("r = [bool(mx.nd.array([])), bool(mx.nd.array([0])), bool(mx.nd.array([2]))]", "NDArray.__bool__")
case(X % "float32" + "r = bool(x)", "NDArray.__bool__", id="bool of 6 elements refused")
case("r = repr(mx.nd.array([]))", "NDArray.__repr__")
case("r = repr(mx.nd.arange(3)[1])", "NDArray.__repr__")
case("r = str(mx.nd.array([[1.5, 2], [3, 4]]))", "NDArray.__repr__")
case(X % "float32" + "r = [x.to_dlpack_for_read() is not None, x.to_dlpack_for_write() is not None]",
     "NDArray.to_dlpack_for_read", "NDArray.to_dlpack_for_write")
case(X % "float32" + "r = [mx.nd.from_dlpack(x.to_dlpack_for_read()), mx.nd.from_dlpack(mx.nd.to_dlpack_for_write(x))]",
     "nd.from_dlpack", "nd.to_dlpack_for_read", "nd.to_dlpack_for_write")
case("a = np.arange(6, dtype='float32').reshape(2, 3)\nr = [mx.nd.from_numpy(a), mx.nd.from_numpy(a, zero_copy=False)]",
     "nd.from_numpy")

# ---- errors: MXNet's MXNetError, caught as such ------------------------------------------
for code, name in [("mx.nd.zeros((2, 3)) + mx.nd.zeros((3, 2))", "NDArray.__add__"),
                   ("mx.nd.zeros((2, 3)).reshape((4, 2))", "NDArray.reshape"),
                   ("mx.nd.dot(mx.nd.zeros((2, 3)), mx.nd.zeros((2, 3)))", "nd.dot"),
                   ("mx.nd.zeros((2, 3)).sum(axis=5)", "NDArray.sum"),
                   ("mx.nd.concat(mx.nd.zeros((2, 3)), mx.nd.zeros((3, 3)), dim=1)", "nd.concat"),
                   ("mx.nd.zeros((2, 3), dtype='float32') == mx.nd.zeros((2, 3), dtype='int32')", "NDArray.__eq__")]:
    case("try:\n    %s\n    r = 'no error'\nexcept mx.base.MXNetError:\n    r = 'MXNetError'" % code, name,
         id="MXNetError: " + code[:48])

# ---- name=: every operator function takes it and ignores it, whatever its type -----------------
NAMED = [("mx.nd.relu(x - 3, name='relu1')", "nd.relu"), ("mx.nd.sum(x, axis=1, name='s')", "nd.sum"),
         ("mx.nd.dot(x, x.T, name='d')", "nd.dot"), ("mx.nd.where(x > 2, x, -x, name='w')", "nd.where"),
         ("mx.nd.clip(x, 2, 4, name=5)", "nd.clip"), ("mx.nd.concat(x, x, dim=0, name='c')", "nd.concat"),
         ("mx.nd.stack(x, x, name=None)", "nd.stack"), ("mx.nd.add_n(x, x, name='a')", "nd.add_n"),
         ("mx.nd.one_hot(mx.nd.array([1, 0]), 3, name='o')", "nd.one_hot"), ("x.sum(name='s')", "NDArray.sum"),
         ("mx.nd.norm(x, name=['a'])", "nd.norm"), ("mx.nd.Activation(x, act_type='relu', name='a')", "nd.Activation"),
         ("mx.nd.FullyConnected(x, mx.nd.ones((4, 3)), num_hidden=4, no_bias=True, name='fc')", "nd.FullyConnected"),
         ("mx.nd.topk(x, k=2, ret_typ='both', name='t')", "nd.topk"), ("mx.nd.moments(x, axes=(0,), name='m')", "nd.moments"),
         ("mx.nd.split(x, num_outputs=3, axis=1, name='s')", "nd.split"),
         ("mx.nd.SliceChannel(x, num_outputs=2, axis=0, name='s')", "nd.SliceChannel"),
         ("mx.nd.zeros((2, 3), name='z')", "nd.zeros"), ("mx.nd.ones((2,), dtype='int32', name='o')", "nd.ones"),
         ("mx.nd.eye(3, name='e')", "nd.eye"), ("mx.nd.linalg.slogdet(x[:, :2], name='d')", "nd.linalg.slogdet"),
         ("mx.nd.linalg_gelqf(x, name='q')", "nd.linalg_gelqf"),
         ("mx.nd.SequenceLast(x.reshape((2, 3, 1)), name='l')", "nd.SequenceLast"),
         ("mx.nd.random.uniform(shape=(2, 3), name='u').shape", "nd.random.uniform"),
         ("mx.nd.random.normal(mx.nd.zeros(2), mx.nd.ones(2), name='n').shape", "nd.random.normal"),
         ("mx.nd.random.randn(2, 3, name='n').shape", "nd.random.randn"),
         ("mx.nd.random.randint(0, 5, shape=(4,), name='r').dtype", "nd.random.randint"),
         ("mx.nd.random.shuffle(mx.nd.arange(4), name='s').shape", "nd.random.shuffle"),
         ("mx.nd.random.uniform_like(x, name='u').shape", "nd.random.uniform_like")]
for code, fn in NAMED:
    case(X % "float32" + "r = " + code, fn, id="name=: " + code[:40])

# ---- issue 26: sign of NaN, clip's float32 bounds, where's shapes, integer power, dot's dtypes ----
_SPECIAL = "x = mx.nd.array([np.nan, -np.nan, -1.5, 0, -0.0, 2, np.inf, -np.inf], dtype=%r)\n"
for dt in FLOATS:
    case(_SPECIAL % dt + "r = mx.nd.sign(x)", "nd.sign", id="sign of NaN %s" % dt)
    case(_SPECIAL % dt + "r = x.sign()", "NDArray.sign", id="NDArray.sign of NaN %s" % dt)
_CLIPPED = "x = mx.nd.array([-3, -2, -1, 0, 1, 2, 3, 4, 100], dtype=%r)\n"
_BOUNDS = [(1.5, 2.5), (-1.5, 2.5), (-2.7, -0.3), (0.5, 3.9), (-0.5, 0.5), (2.5, 1.5), (-300.5, 300.5), (1e10, 2e10),
           (float("nan"), 2), (0.2, float("nan")), (-float("inf"), 1.5)]
for dt in ["int32", "int8", "int64", "float16", "float32", "float64"]:
    for lo, hi in _BOUNDS:
        if dt == "float16" and lo == 1e10:
            continue  # float16 of 1e10 is inf in both; kept to the other dtypes
        case(_CLIPPED % dt + "r = mx.nd.clip(x, %r, %r)" % (lo, hi), "nd.clip", id="clip %s %r %r" % (dt, lo, hi))
    case(_CLIPPED % dt + "r = x.clip(-1.5, 2.5)", "NDArray.clip", id="NDArray.clip %s fractional" % dt)
for lo, hi in [(1.5, 2.5), (-1.5, 2.5), (300.7, 200.2), (-1.5, -2.5), (0.5, 3.9), (-300.5, 300.5)]:
    case("x = mx.nd.array([253, 254, 255, 0, 1, 2, 3, 4, 200], dtype='uint8')\nr = mx.nd.clip(x, %r, %r)" % (lo, hi),
         "nd.clip", id="clip uint8 %r %r" % (lo, hi))
case("x = mx.nd.array([0.1, 0.5, 0.9, 1.0], dtype='float64')\nr = mx.nd.clip(x, 0.1, 0.9)", "nd.clip",
     id="clip float64 with float32 bounds")
case("x = mx.nd.array([16777217, 5], dtype='int32')\nr = mx.nd.clip(x, 0, 16777216.5)", "nd.clip",
     id="clip compares int32 in float32")
case("x = mx.nd.array([2 ** 40 + 1, 5], dtype='int64')\nr = mx.nd.clip(x, 0, 2 ** 40 + 0.5)", "nd.clip",
     id="clip compares int64 in float32")
_W = "x = mx.nd.ones((2, 3))\ny = mx.nd.zeros((2, 3))\n"
for cshape in [(2, 1), (1, 3), (3,), (1,), (6,), (2, 3, 1), (1, 2, 3), (3, 2)]:
    code = "mx.nd.where(mx.nd.ones(%r), x, y)" % (cshape,)
    case(_W + "try:\n    %s\n    r = 'no error'\nexcept mx.base.MXNetError:\n    r = 'MXNetError'" % code, "nd.where",
         id="where refuses condition %r" % (cshape,))
for xs, ys in [((2, 1), (2, 3)), ((2, 3), (1, 3)), ((2, 3), (3,))]:
    code = "mx.nd.where(mx.nd.ones((2, 3)), mx.nd.ones(%r), mx.nd.zeros(%r))" % (xs, ys)
    case("try:\n    %s\n    r = 'no error'\nexcept mx.base.MXNetError:\n    r = 'MXNetError'" % code, "nd.where",
         id="where refuses x %r y %r" % (xs, ys))
case(_W + "r = [mx.nd.where(mx.nd.array([1, 0]), x, y), mx.nd.where(mx.nd.array([[1, 0, 1], [0, 0, 1]]), x, y)]",
     "nd.where", id="where of one shape, and of rows")
case("x = mx.nd.arange(24).reshape((2, 3, 4))\nr = mx.nd.where(mx.nd.array([0, 1], dtype='int32'), x, -x)", "nd.where",
     id="where picks rows of 3-d")
_P = "x = mx.nd.array([3, 7, 11, 13, 100, 12345, 46341, -5, 2], dtype=%r)\n"
for dt in ["int32", "int64"]:
    case(_P % dt + "r = [x ** 2, x ** 3, mx.nd.power(x, x * 0 + 3), mx.nd.broadcast_power(x, mx.nd.array([2], dtype=%r))]"
         % dt, "NDArray.__pow__", "nd.power", "nd.broadcast_power", id="integer power in float32 %s" % dt)
    case("r = 3 ** mx.nd.array([1, 5, 19, 20, 21], dtype=%r)" % dt, "NDArray.__rpow__", id="integer rpow in float32 %s" % dt)
    case("x = mx.nd.array([123456789, 16777217], dtype=%r)\nr = [x ** 1, x ** 0.5]" % dt, "NDArray.__pow__",
         id="x ** 1 rounds to float32 %s" % dt)
for dt in ["int8", "uint8"]:
    case("x = mx.nd.array([3, 7, 11, 13, 100, 5, 2, 127], dtype=%r)\nr = [x ** 2, x ** 3, x ** 0.5, 3 ** x[:4]]" % dt,
         "NDArray.__pow__", "NDArray.__rpow__", id="integer power in float32 %s" % dt)
case("r = mx.nd.array([2 ** 31 + 1], dtype='int64') ** 2", "NDArray.__pow__", id="int64 power past float32's mantissa")
# dot and batch_dot: MXNet's CPU refuses mixed dtypes at once, and float16 or integers on the engine
_DOTS = ["float16", "float32", "float64", "uint8", "int8", "int32", "int64"]
for a in _DOTS:
    for b in _DOTS:
        if a == b:
            continue
        for code in ["mx.nd.dot(mx.nd.ones((2, 3), dtype=%r), mx.nd.ones((3, 2), dtype=%r))" % (a, b),
                     "mx.nd.batch_dot(mx.nd.ones((2, 2, 3), dtype=%r), mx.nd.ones((2, 3, 2), dtype=%r))" % (a, b)]:
            case("try:\n    %s\n    r = 'no error'\nexcept mx.base.MXNetError:\n    r = 'MXNetError'" % code,
                 "nd." + code[6:code.index("(")], id="%s of %s and %s refused" % (code[6:code.index("(")], a, b))
