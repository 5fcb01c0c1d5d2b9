"""Differential cases (mxnet_diff.py) for gradients: each records an expression of
attached arrays under ``mx.autograd.record()``, runs backward with a head gradient that is
not all ones, and compares the result and every input's gradient with MXNet 1.9.1's.
``grad_case`` writes such a snippet; other modules (mxnet_diff_grad_*.py) use it too.
Cases carry ``grad=True``: tools/mxnet_coverage.py counts them in its gradient column.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- NDArray.backward: a head gradient of another shape or dtype than its head raises MXNetValueError or
  MXNetTypeError, where MXNet 1.9.1 accepts it unchecked.
- nd.erf: the float64 gradient is exact to float64, where MXNet 1.9.1 rounds it through float32 (8 digits agree).
- nd.FullyConnected: the second-order gradient through FullyConnected and an activation (tanh) is the derivative
  (test_autograd.py checks it by finite differences), where MXNet 1.9.1 gives zero.
- nd.gamma nd.gammaln: float64 gradients use a digamma exact to float64, where MXNet 1.9.1's is accurate to about
  1e-8 (float32 gradients agree).
"""
import numpy as np

from mxnet_diff import Case

CASES = []


def grad_case(expr, names, inputs, id="", head=True, cases=CASES):
    """Adds a case computing ``y = expr`` from ``inputs`` ({name: (data, dtype)}, each
    attached) while recording, then ``y.backward(head)``; r is [y, each input's grad].
    head=False uses MXNet's default head gradient (ones)."""
    code = ""
    for name, (data, dt) in inputs.items():
        code += "%s = mx.nd.array(%s, dtype=%r)\n%s.attach_grad()\n" % (name, data, dt, name)
    code += "with mx.autograd.record():\n    y = %s\n" % expr
    if head:
        code += "y.backward(mx.nd.array(np.linspace(0.5, 1.5, y.size).reshape(y.shape), dtype=y.dtype))\n"
    else:
        code += "y.backward()\n"
    code += "r = [y, %s]\n" % ", ".join("%s.grad" % n for n in inputs)
    cases.append(Case(code, tuple(names) + ("NDArray.attach_grad", "NDArray.backward", "NDArray.grad"), id, grad=True))


def arr(*shape, seed=0, lo=-1.5, hi=1.5):
    """A list literal of a reproducible array of shape with values in [lo, hi)."""
    v = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return repr(np.round(v, 3).tolist())


M23 = "[[0.5, -1.25, 2.0], [3.5, -0.75, 0.25]]"
ROW3 = "[1.5, -0.5, 2.0]"
POS23 = "[[0.5, 1.25, 2.0], [3.5, 0.75, 7.0]]"
IN23 = "[[0.5, -0.25, 0.9], [-0.9, 0.1, 0.75]]"
ABOVE1 = "[[1.5, 1.25, 2.0], [3.5, 10.0, 1.5]]"

# arithmetic, with broadcasting, and its scalar forms (both orders)
for sym in "+-*/":
    for dt in ("float32", "float64"):
        grad_case("a %s b" % sym, ("NDArray.__%s__" % {"+": "add", "-": "sub", "*": "mul", "/": "truediv"}[sym],),
                  {"a": (M23, dt), "b": (POS23, dt)})
    grad_case("mx.nd.broadcast_%s(a, b)" % {"+": "add", "-": "sub", "*": "mul", "/": "div"}[sym],
              ("nd.broadcast_%s" % {"+": "add", "-": "sub", "*": "mul", "/": "div"}[sym],),
              {"a": (M23, "float32"), "b": ("[%s]" % ROW3.replace("-0.5", "0.5"), "float32")})
    grad_case("a %s 2.5" % sym, ("NDArray.__%s__" % {"+": "add", "-": "sub", "*": "mul", "/": "truediv"}[sym],),
              {"a": (M23, "float32")})
    grad_case("2.5 %s a" % sym, ("NDArray.__r%s__" % {"+": "add", "-": "sub", "*": "mul", "/": "truediv"}[sym],),
              {"a": (POS23, "float32")})
grad_case("a ** b", ("NDArray.__pow__",), {"a": (POS23, "float32"), "b": (M23, "float32")})
grad_case("a ** 3", ("NDArray.__pow__",), {"a": (M23, "float32")})
grad_case("2 ** a", ("NDArray.__rpow__",), {"a": (M23, "float32")})
for fn in ("maximum", "minimum"):
    grad_case("mx.nd.%s(a, b)" % fn, ("nd." + fn,), {"a": (M23, "float32"), "b": ("[[0.5, 1, 0], [3.5, 0, 1]]", "float32")})
    grad_case("mx.nd.%s(a, 0.5)" % fn, ("nd." + fn,), {"a": (M23, "float32")})
grad_case("mx.nd.modulo(a, b)", ("nd.modulo",), {"a": (POS23, "float32"), "b": ("[[0.3, 0.5, 0.7], [1.5, 0.25, 2]]", "float32")})
grad_case("-a", ("NDArray.__neg__",), {"a": (M23, "float32")})

# the unary functions, each in its domain
UNARY = {"exp": M23, "log": POS23, "sqrt": POS23, "sin": M23, "cos": M23, "tanh": M23, "sigmoid": M23,
         "relu": M23, "abs": M23, "square": M23, "negative": M23, "arccos": IN23, "arcsin": IN23, "arctan": M23,
         "arccosh": ABOVE1, "arcsinh": M23, "arctanh": IN23, "cosh": M23, "sinh": M23, "tan": IN23, "cbrt": POS23,
         "rcbrt": POS23, "rsqrt": POS23, "reciprocal": M23, "expm1": M23, "log1p": POS23, "log2": POS23,
         "log10": POS23, "erf": M23, "erfinv": IN23, "degrees": M23, "radians": M23, "softsign": M23}
for fn, data in UNARY.items():
    for dt in ("float32",) if fn == "erf" else ("float32", "float64"):
        grad_case("mx.nd.%s(a)" % fn, ("nd." + fn,), {"a": (data, dt)})
# constant almost everywhere: zero gradients
for fn in ("round", "floor", "ceil", "fix", "rint", "trunc"):
    grad_case("mx.nd.%s(a) * a" % fn, ("nd." + fn,), {"a": (M23, "float32")})
for sym in ("<", ">", "<=", ">=", "==", "!="):
    grad_case("(a %s b) * a" % sym, ("NDArray.__%s__" % {"<": "lt", ">": "gt", "<=": "le", ">=": "ge", "==": "eq",
                                                         "!=": "ne"}[sym],),
              {"a": (M23, "float32"), "b": ("[[0.5, 1, 0], [3.5, 0, 1]]", "float32")})

# paths: one input used twice, default head gradient, a chain
grad_case("a * a + mx.nd.sin(a) * b", ("NDArray.__mul__",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.exp(mx.nd.tanh(a) * 2) / (a * a + 1)", ("nd.exp",), {"a": (M23, "float64")}, head=False)

# reductions: axes, keepdims, exclude; max/min ties share the gradient (MXNet's eq mask)
T234 = "np.arange(24).reshape(2, 3, 4) * 0.25 - 2.5"
TIES = "[[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]]"
for fn in ("sum", "mean", "prod", "max", "min", "nansum"):
    data = T234 if fn != "prod" else "np.linspace(0.5, 1.5, 24).reshape(2, 3, 4)"
    for kw in ("", "axis=1", "axis=(0, 2)", "axis=1, keepdims=True", "axis=-1, exclude=True", "axis=()"):
        grad_case("mx.nd.%s(a%s)" % (fn, ", " + kw if kw else ""), ("nd." + fn,), {"a": (data + ".tolist()", "float32")})
for fn in ("max", "min"):
    grad_case("mx.nd.%s(a, axis=1)" % fn, ("nd." + fn,), {"a": (TIES, "float32")}, id="%s ties" % fn)
    grad_case("mx.nd.%s(a)" % fn, ("nd." + fn,), {"a": (TIES, "float64")}, id="%s ties everywhere" % fn)
for fn in ("sum_axis", "max_axis", "min_axis"):
    grad_case("mx.nd.%s(a, axis=0)" % fn, ("nd." + fn,), {"a": (M23, "float32")})
grad_case("a.sum(axis=1) * a.mean()", ("NDArray.sum", "NDArray.mean"), {"a": (M23, "float64")})
for fn in ("argmax", "argmin"):
    grad_case("mx.nd.%s(a, axis=1).reshape((2, 1)) * a" % fn, ("nd." + fn,), {"a": (M23, "float32")})

# layout: each moves elements; the gradient moves them back
grad_case("mx.nd.transpose(a, axes=(2, 0, 1))", ("nd.transpose",), {"a": (T234 + ".tolist()", "float32")})
grad_case("mx.nd.transpose(a)", ("nd.transpose",), {"a": (T234 + ".tolist()", "float32")})
grad_case("a.T", ("NDArray.T",), {"a": (M23, "float32")})
grad_case("a.transpose((1, 0))", ("NDArray.transpose",), {"a": (M23, "float32")})
grad_case("mx.nd.reshape(a, shape=(-1, 2))", ("nd.reshape",), {"a": (M23, "float32")})
grad_case("a.reshape((3, 2)) * a.reshape((3, 2))", ("NDArray.reshape",), {"a": (M23, "float32")})
grad_case("mx.nd.expand_dims(a, axis=1)", ("nd.expand_dims",), {"a": (M23, "float32")})
grad_case("mx.nd.flatten(a)", ("nd.flatten",), {"a": (T234 + ".tolist()", "float32")})
grad_case("mx.nd.swapaxes(a, dim1=0, dim2=2)", ("nd.swapaxes",), {"a": (T234 + ".tolist()", "float32")})
grad_case("mx.nd.flip(a, axis=1)", ("nd.flip",), {"a": (M23, "float32")})
grad_case("mx.nd.concat(a, b, dim=0)", ("nd.concat",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.concat(a, b, a, dim=1)", ("nd.concat",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.stack(a, b, axis=1)", ("nd.stack",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.slice(a, begin=(0, 1), end=(2, 3))", ("nd.slice",), {"a": (M23, "float32")})
grad_case("mx.nd.slice(a, begin=(None, 2), end=(None, None), step=(1, -1))", ("nd.slice",), {"a": (M23, "float32")})
grad_case("mx.nd.slice_axis(a, axis=1, begin=1, end=3)", ("nd.slice_axis",), {"a": (M23, "float32")})
grad_case("mx.nd.split(a, num_outputs=3, axis=1)[1]", ("nd.split",), {"a": (M23, "float32")})
grad_case("mx.nd.split(a, num_outputs=2, axis=0, squeeze_axis=True)[0] * 2", ("nd.split",), {"a": (M23, "float32")})
grad_case("mx.nd.broadcast_to(a, shape=(2, 3))", ("nd.broadcast_to",), {"a": ("[[1.5, -0.5, 2.0]]", "float32")})
grad_case("mx.nd.broadcast_axis(a, axis=1, size=4)", ("nd.broadcast_axis",), {"a": ("[[1.5], [-0.5]]", "float32")})
grad_case("mx.nd.cast(a, dtype='float64')", ("nd.cast",), {"a": (M23, "float32")})
grad_case("a.astype('float64') * 2", ("NDArray.astype",), {"a": (M23, "float32")})
grad_case("mx.nd.add_n(a, b, a)", ("nd.add_n",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.identity(a) * a", ("nd.identity",), {"a": (M23, "float32")})
grad_case("a.detach() * a + a * a", ("NDArray.detach",), {"a": (M23, "float32")})
for fn in ("stop_gradient", "BlockGrad"):
    grad_case("mx.nd.%s(a) * a" % fn, ("nd." + fn,), {"a": (M23, "float32")})
grad_case("mx.nd.zeros_like(a) + mx.nd.ones_like(a) * a", ("nd.zeros_like", "nd.ones_like"), {"a": (M23, "float32")})
grad_case("mx.nd.clip(a, -1.0, 2.0)", ("nd.clip",), {"a": ("[[0.5, -1.25, 2.0], [3.5, -1.0, 0.25]]", "float32")})
grad_case("mx.nd.where(c, a, b)", ("nd.where",), {"c": ("[[1, 0, 1], [0, 0, 1]]", "float32"), "a": (M23, "float32"),
                                                  "b": (POS23, "float32")})
grad_case("mx.nd.where(c, a, b)", ("nd.where",), {"c": ("[1, 0]", "float32"), "a": (M23, "float32"),
                                                  "b": (POS23, "float32")}, id="where picks rows")
# basic indexing under record: views whose gradient lands in place
grad_case("a[1]", ("NDArray.__getitem__",), {"a": (M23, "float32")})
grad_case("a[:, 1:3] * 2", ("NDArray.__getitem__",), {"a": (M23, "float32")})
grad_case("a[::-1, ::2]", ("NDArray.__getitem__",), {"a": (M23, "float32")})
grad_case("a[0, 1]", ("NDArray.__getitem__",), {"a": (M23, "float32")})

# more reductions and elementwise functions with parameters
grad_case("mx.nd.norm(a)", ("nd.norm",), {"a": (M23, "float32")})
grad_case("mx.nd.norm(a, ord=1, axis=1)", ("nd.norm",), {"a": (M23, "float32")})
grad_case("mx.nd.norm(a, axis=(0, 2), keepdims=True)", ("nd.norm",), {"a": (T234 + ".tolist()", "float64")})
grad_case("mx.nd.cumsum(a, axis=1)", ("nd.cumsum",), {"a": (M23, "float32")})
grad_case("mx.nd.cumsum(a)", ("nd.cumsum",), {"a": (M23, "float64")})
grad_case("mx.nd.hard_sigmoid(a, alpha=0.3, beta=0.4)", ("nd.hard_sigmoid",),
          {"a": ("[[0.5, -1.75, 2.5], [3.5, -0.75, 0.25]]", "float32")})
grad_case("mx.nd.smooth_l1(a, scalar=1.5)", ("nd.smooth_l1",), {"a": (M23, "float32")})
grad_case("mx.nd.smooth_l1(a)", ("nd.smooth_l1",), {"a": (M23, "float64")})
grad_case("mx.nd.tile(a, reps=(2, 3))", ("nd.tile",), {"a": (M23, "float32")})
grad_case("mx.nd.tile(a, reps=(2, 1, 2))", ("nd.tile",), {"a": (M23, "float32")})
grad_case("mx.nd.repeat(a, repeats=3, axis=1)", ("nd.repeat",), {"a": (M23, "float32")})
grad_case("mx.nd.repeat(a, repeats=2)", ("nd.repeat",), {"a": (M23, "float32")})
grad_case("mx.nd.argmax_channel(a).reshape((2, 1)) * a", ("nd.argmax_channel",), {"a": (M23, "float32")})
grad_case("mx.nd.sign(a) * a", ("nd.sign",), {"a": (M23, "float32")}, id="sign: zero gradient")

# gamma and gammaln through digamma
grad_case("mx.nd.gamma(a)", ("nd.gamma",), {"a": ("[[0.5, -1.25, 2.0], [3.5, -0.75, 7.25]]", "float32")})
grad_case("mx.nd.gammaln(a)", ("nd.gammaln",), {"a": ("[[0.5, -1.25, 2.0], [3.5, -0.75, 7.25]]", "float32")})
grad_case("mx.nd.gammaln(a)", ("nd.gammaln",), {"a": (POS23, "float32")})

# linear algebra (mx.nd.linalg): products with their transposes, packed copies, closed forms
SPD = "[[[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], [[2.0, 0.5, 0.0], [0.5, 5.0, 1.0], [0.0, 1.0, 3.0]]]"
A34 = "np.arange(24).reshape(2, 3, 4) * 0.1 - 1.0"
B43 = "np.arange(24).reshape(2, 4, 3) * 0.05 + 0.5"
for ta in (False, True):
    for tb in (False, True):
        a = (A34 + (".transpose(0, 2, 1)" if ta else "")) + ".tolist()"
        b = (B43 + (".transpose(0, 2, 1)" if tb else "")) + ".tolist()"
        grad_case("mx.nd.linalg.gemm2(a, b, transpose_a=%s, transpose_b=%s, alpha=1.5)" % (ta, tb), ("nd.linalg.gemm2",),
                  {"a": (a, "float64"), "b": (b, "float64")})
        grad_case("mx.nd.linalg.gemm(a, b, c, transpose_a=%s, transpose_b=%s, alpha=0.5, beta=2.0)" % (ta, tb),
                  ("nd.linalg.gemm",), {"a": (a, "float32"), "b": (b, "float32"),
                                         "c": ("np.ones((2, 3, 3)).tolist()", "float32")})
grad_case("mx.nd.linalg.gemm2(a, b, axis=-3)", ("nd.linalg.gemm2",),
          {"a": ("np.arange(24).reshape(3, 4, 2) * 0.1", "float64"), "b": ("np.arange(24).reshape(4, 3, 2) * 0.1", "float64")})
for fn, kw in (("extractdiag", ""), ("extractdiag", "offset=1"), ("extracttrian", ""), ("extracttrian", "offset=-1"),
               ("extracttrian", "lower=False")):
    grad_case("mx.nd.linalg.%s(a%s)" % (fn, ", " + kw if kw else ""), ("nd.linalg." + fn,), {"a": (SPD, "float64")})
grad_case("mx.nd.linalg.makediag(a)", ("nd.linalg.makediag",), {"a": ("[[1.0, 2.0], [3.0, -4.0]]", "float32")})
grad_case("mx.nd.linalg.makediag(a, offset=-1)", ("nd.linalg.makediag",), {"a": ("[1.0, 2.0, 3.0]", "float64")})
grad_case("mx.nd.linalg.maketrian(a)", ("nd.linalg.maketrian",), {"a": ("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]", "float32")})
grad_case("mx.nd.linalg.maketrian(a, offset=1)", ("nd.linalg.maketrian",), {"a": ("[1.0, 2.0, 3.0]", "float64")})
grad_case("mx.nd.linalg.sumlogdiag(a)", ("nd.linalg.sumlogdiag",), {"a": (SPD, "float64")})
grad_case("mx.nd.linalg.sumlogdiag(a)", ("nd.linalg.sumlogdiag",), {"a": ("[[2.0, 1.0], [0.5, 3.0]]", "float32")})
grad_case("mx.nd.linalg.inverse(a)", ("nd.linalg.inverse",), {"a": (SPD, "float64")})
grad_case("mx.nd.linalg.det(a)", ("nd.linalg.det",), {"a": (SPD, "float64")})
grad_case("mx.nd.linalg.det(a)", ("nd.linalg.det",), {"a": ("[[2.0, 1.0], [0.5, 3.0]]", "float32")})
grad_case("mx.nd.linalg.syrk(a, alpha=2.0)", ("nd.linalg.syrk",), {"a": (A34 + ".tolist()", "float64")})
grad_case("mx.nd.linalg.syrk(a, transpose=True)", ("nd.linalg.syrk",), {"a": (A34 + ".tolist()", "float32")})


def grad2_case(expr, names, data, dt="float64", cases=CASES):
    """Adds a second-order case: g = autograd.grad(y, [a], create_graph=True) for y = expr
    while recording, then (g * g).sum().backward(); r is [y, g, a.grad]."""
    code = ("a = mx.nd.array(%s, dtype=%r)\na.attach_grad()\nw = mx.nd.array([[0.3, -0.2, 0.1], [0.5, 0.4, -0.6]], "
            "dtype=%r)\nwith mx.autograd.record():\n    y = %s\n    g = mx.autograd.grad(y, [a], head_grads="
            "mx.nd.ones_like(y), create_graph=True)[0]\n    z = (g * g).sum()\nz.backward()\nr = [y, g, a.grad]\n"
            % (data, dt, dt, expr))
    cases.append(Case(code, tuple(names) + ("NDArray.attach_grad", "NDArray.backward", "NDArray.grad"),
                      "second order: " + expr, grad=True))


# second order: MXNet 1.9.1's set (mxgo's is wider: every gradient built from differentiable operators)
A23 = "[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]"
for fn in ("sin", "cos", "tanh", "sigmoid", "relu", "exp", "square", "abs"):
    grad2_case("mx.nd.%s(a)" % fn, ("nd." + fn,), A23)
grad2_case("mx.nd.FullyConnected(a, w, no_bias=True, num_hidden=2)", ("nd.FullyConnected",), A23)

# logical operators and draws: zero gradients; hypot; moments (both results)
for fn in ("logical_and", "broadcast_logical_or", "broadcast_logical_xor"):
    grad_case("mx.nd.%s(a, b) * a" % fn, ("nd." + fn,), {"a": (M23, "float32"), "b": ("[[1, 0, 2], [0, 0, 1]]", "float32")})
grad_case("mx.nd.logical_not(a) * a", ("nd.logical_not",), {"a": ("[[0.5, 0.0, 2.0], [3.5, 0.0, 0.25]]", "float32")})
grad_case("mx.nd.broadcast_hypot(a, b)", ("nd.broadcast_hypot",), {"a": (M23, "float32"), "b": ("[[1.5, 0.5, -2.0]]", "float32")})
grad_case("mx.nd.sample_normal(a, b) * 0 + a", ("nd.sample_normal",), {"a": (M23, "float32"), "b": (POS23, "float32")})
grad_case("mx.nd.moments(a, axes=(1,))[0] + mx.nd.moments(a, axes=(1,))[1] * 2", ("nd.moments",),
          {"a": (M23, "float64")})
grad_case("mx.nd.moments(a, axes=(0, 2), keepdims=True)[1]", ("nd.moments",), {"a": (T234 + ".tolist()", "float32")})
grad_case("mx.nd.linalg.slogdet(a)[1]", ("nd.linalg.slogdet",), {"a": (SPD, "float64")})
grad_case("mx.nd.linalg.slogdet(a)[1] * 2", ("nd.linalg.slogdet",), {"a": ("[[2.0, 1.0], [0.5, -3.0]]", "float32")})
TRI = "[[[2.0, 0.5, -1.0], [0.25, 3.0, 0.5], [1.0, -0.5, 1.5]], [[1.5, 1.0, 0.0], [0.5, 2.0, 1.0], [-1.0, 0.5, 2.5]]]"
B32 = "np.arange(12).reshape(2, 3, 2) * 0.25 - 1.0"
B23 = "np.arange(12).reshape(2, 2, 3) * 0.25 - 1.0"
for fn in ("trmm", "trsm"):
    for t in (False, True):
        for lower in (True, False):
            grad_case("mx.nd.linalg.%s(a, b, transpose=%s, lower=%s, alpha=1.5)" % (fn, t, lower), ("nd.linalg." + fn,),
                      {"a": (TRI, "float64"), "b": (B32 + ".tolist()", "float64")})
            grad_case("mx.nd.linalg.%s(a, b, transpose=%s, rightside=True, lower=%s)" % (fn, t, lower),
                      ("nd.linalg." + fn,), {"a": (TRI, "float32"), "b": (B23 + ".tolist()", "float32")})
LOW = "[[[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-0.25, 0.75, 1.25]], [[1.0, 0.0, 0.0], [0.3, 2.0, 0.0], [0.1, -0.4, 1.5]]]"
for lower in (True, False):
    grad_case("mx.nd.linalg.potrf(a, lower=%s)" % lower, ("nd.linalg.potrf",), {"a": (SPD, "float64")})
    low = LOW if lower else "np.array(%s).transpose(0, 2, 1).tolist()" % LOW
    grad_case("mx.nd.linalg.potri(a, lower=%s)" % lower, ("nd.linalg.potri",), {"a": (low, "float64")})
grad_case("mx.nd.linalg.potrf(a)", ("nd.linalg.potrf",), {"a": (SPD, "float32")})

# more layout names, copies, and nanprod
grad_case("mx.nd.broadcast_like(a, b)", ("nd.broadcast_like",), {"a": ("[[1.5, -0.5, 2.0]]", "float32"), "b": (M23, "float32")})
grad_case("mx.nd.reshape_like(a, b)", ("nd.reshape_like",), {"a": (M23, "float32"), "b": ("np.ones((3, 2)).tolist()", "float32")})
grad_case("mx.nd.slice_like(a, b)", ("nd.slice_like",), {"a": (M23, "float32"), "b": ("[[1.0, 2.0], [3.0, 4.0]]", "float32")})
grad_case("mx.nd.squeeze(a.reshape((2, 1, 3)))", ("nd.squeeze",), {"a": (M23, "float32")})
grad_case("mx.nd.shape_array(a).astype('float32').sum() + a", ("nd.shape_array",), {"a": (M23, "float32")})
grad_case("mx.nd.size_array(a).astype('float32') * a", ("nd.size_array",), {"a": (M23, "float32")})
grad_case("a.copy() * 3", ("NDArray.copy",), {"a": (M23, "float32")})
grad_case("mx.nd.nanprod(a, axis=1)", ("nd.nanprod",), {"a": (POS23, "float32")})
grad_case("mx.nd.nanprod(a)", ("nd.nanprod",), {"a": ("[[0.5, 1.25, float('nan')], [3.5, 0.75, 7.0]]", "float64")})

# im2col and col2im, each the other's adjoint; copyto
IMG = "np.arange(2 * 3 * 5 * 4).reshape(2, 3, 5, 4) * 0.1 - 1.0"
grad_case("mx.nd.im2col(a, kernel=(2, 3), stride=(1, 1), pad=(1, 0))", ("nd.im2col",), {"a": (IMG + ".tolist()", "float32")})
grad_case("mx.nd.im2col(a, kernel=(3, 2), stride=(2, 1), dilate=(1, 2))", ("nd.im2col",), {"a": (IMG + ".tolist()", "float64")})
grad_case("mx.nd.col2im(a, output_size=(5, 4), kernel=(2, 3), pad=(1, 0))", ("nd.col2im",),
          {"a": ("(np.arange(2 * 18 * 12).reshape(2, 18, 12) * 0.01).tolist()", "float32")})
grad_case("a.copyto(mx.nd.zeros((2, 3))) * a", ("NDArray.copyto",), {"a": (M23, "float32")})


def multi_grad_case(expr, names, inputs, n, cases=CASES):
    """A case for an operator of n results: backward from all of them at once (each with
    its own head gradient); r is [each result, each input's grad]."""
    code = ""
    for name, (data, dt) in inputs.items():
        code += "%s = mx.nd.array(%s, dtype=%r)\n%s.attach_grad()\n" % (name, data, dt, name)
    code += ("with mx.autograd.record():\n    ys = %s\nheads = [mx.nd.array(np.linspace(0.5, 1.5, y.size).reshape(y.shape) "
             "* (i + 1), dtype=y.dtype) for i, y in enumerate(ys)]\nmx.autograd.backward(list(ys), heads)\n"
             "r = list(ys) + [%s]\n" % (expr, ", ".join("%s.grad" % k for k in inputs)))
    cases.append(Case(code, tuple(names) + ("NDArray.attach_grad", "NDArray.backward", "NDArray.grad"), "", grad=True))


multi_grad_case("mx.nd.linalg.gelqf(a)", ("nd.linalg.gelqf",), {"a": ("[[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]]", "float64")}, 2)
multi_grad_case("mx.nd.linalg.gelqf(a)", ("nd.linalg.gelqf",),
                {"a": ("(np.arange(24).reshape(2, 3, 4) * 0.3 % 1.7 - 0.5).tolist()", "float32")}, 2)
multi_grad_case("mx.nd.linalg.syevd(a)", ("nd.linalg.syevd",), {"a": (SPD, "float64")}, 2)
multi_grad_case("mx.nd.linalg.syevd(a)", ("nd.linalg.syevd",), {"a": ("[[4.0, 1.0], [1.0, 3.0]]", "float32")}, 2)
