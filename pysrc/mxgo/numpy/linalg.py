"""``mx.np.linalg``: the Array API standard's linalg extension and MXNet 1.9.1's
``mxnet.numpy.linalg`` names, over the registry's linear-algebra operators.

Stacks of matrices run batched in the last two axes, on the engine, with autograd where
the operator has a gradient (cholesky, inv, det, slogdet, eigh, qr, solve). float32 stays
float32, float64 float64; integers and bools compute in float32 (mx.np's float default).
A singular or not positive definite matrix raises ``LinAlgError`` (an MXNetError and a
ValueError) at the call, as NumPy does: those functions wait for their result.

Complex matrices run NumPy's function on the host (the registry's LAPACK kernels are real):
a copy each way, no autograd.
"""
import functools
import math
import operator
from collections import namedtuple

import numpy as _onp

from ..base import MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import asarray, astype, full, invoke, invoke_all, is_array, operand, reshape as _reshape
from ._manip import FUNCTIONS as _MANIP
from ._products import FUNCTIONS as _PRODUCTS
from ._reduce import FUNCTIONS as _REDUCE, normalize_axes, normalize_axis
from ._ufuncs import FUNCTIONS as _UFUNCS, binary, unary

__all__ = ["LinAlgError", "cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "trace", "vecdot", "vector_norm", "norm", "tensorinv", "tensorsolve", "lstsq",
           "cond", "multi_dot", "eig", "eigvals", "EigResult", "EighResult", "QRResult", "SlogdetResult", "SVDResult"]

matmul, tensordot, vecdot, matrix_transpose = (_MANIP[n] for n in ("matmul", "tensordot", "vecdot", "matrix_transpose"))

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
#: the result type of each function of several results
_RESULTS = {"eig": EigResult, "eigh": EighResult, "qr": QRResult, "slogdet": SlogdetResult, "svd": SVDResult}


class LinAlgError(MXNetValueError):
    """A matrix the function cannot work with (singular, not positive definite, no
    convergence): NumPy's numpy.linalg.LinAlgError, here also an MXNetError and a ValueError."""


def _float(x, name="x", ndim=2):
    """x as an mx.np array of a floating dtype the kernels take, with at least ndim axes."""
    x = operand(x, name)
    dt = _dtypes.as_dtype(x.dtype)
    if dt.kind == "c" or dt == _onp.dtype("float16"):
        raise MXNetTypeError("linalg: array type %s is unsupported (float32 or float64, or an integer type)" % dt)
    if x.ndim < ndim:
        raise MXNetValueError("linalg: %s must have at least %d dimensions, got %d" % (name, ndim, x.ndim))
    return astype(x, _dtypes.float_of(dt))


def _square(x, name="x"):
    x = _float(x, name)
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError("last 2 dimensions of the array must be square, got shape %s" % (x.shape,))
    return x


def _is_complex(x):
    return (is_array(x) or isinstance(x, _onp.ndarray)) and _onp.dtype(x.dtype).kind == "c"


def _complex_on_host(fn):
    """fn for real operands; NumPy's function of the same name for complex ones (see the module docstring)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not any(_is_complex(a) for a in args):
            return fn(*args, **kwargs)
        device = next((a.context for a in args if is_array(a)), None)
        host = getattr(_onp.linalg, fn.__name__, None)
        if host is None:
            raise MXNetTypeError("complex %s runs NumPy's linalg.%s, which this NumPy (%s) lacks: NumPy 2 has it"
                                 % (fn.__name__, fn.__name__, _onp.__version__))
        try:
            out = host(*[a.asnumpy() if is_array(a) else a for a in args], **kwargs)
        except _onp.linalg.LinAlgError as err:
            raise LinAlgError(str(err)) from None
        if isinstance(out, tuple):  # (NumPy 1 gives plain tuples: the result type is the function's)
            return _RESULTS[fn.__name__](*(asarray(_onp.asarray(o), device=device) for o in out))
        return asarray(_onp.asarray(out), device=device)
    return run


def _checked(fn, *args):
    """fn(*args), waited for: the kernel's complaint about a matrix as LinAlgError."""
    try:
        out = fn(*args)
        for r in out if isinstance(out, (list, tuple)) else (out,):
            r.wait_to_read()
    except MXNetValueError as err:
        raise LinAlgError(str(err)) from None
    return out


def _identity(n, like):
    """The n x n identity matrix in like's dtype and device."""
    flat = full((n * n,), 0, like.dtype, like.context)
    flat[::n + 1] = 1
    return _reshape(flat, (n, n))


def _batch(x):
    """The shape of x's stack (its axes before the matrices')."""
    return x.shape[:-2]


# ---- factorizations ------------------------------------------------------------------------

@_complex_on_host
def cholesky(x, /, *, upper=False):
    """The Cholesky factor L (A = L L^T; upper: U, A = U^T U) of each symmetric positive-definite matrix."""
    x = _square(x)
    if x.size == 0:
        return x.copy()
    return _checked(invoke, "linalg_potrf", [x], {"lower": not upper})


@_complex_on_host
def inv(x, /):
    """The inverse of each square matrix (LinAlgError when singular)."""
    x = _square(x)
    return x.copy() if x.size == 0 else _checked(invoke, "linalg_inverse", [x])


@_complex_on_host
def slogdet(x, /):
    """(sign, log|det|) of each square matrix (sign 0 and log -inf when singular)."""
    x = _square(x)
    if x.size == 0:
        return SlogdetResult(full(_batch(x), 1, x.dtype, x.context), full(_batch(x), 0, x.dtype, x.context))
    sign, logdet = invoke_all("_linalg_slogdet", [x])
    return SlogdetResult(_reshape(sign, _batch(x)), _reshape(logdet, _batch(x)))


@_complex_on_host
def det(x, /):
    """The determinant of each square matrix."""
    x = _square(x)
    if x.size == 0:
        return full(_batch(x), 1, x.dtype, x.context)
    return _reshape(invoke("linalg_det", [x]), _batch(x))


@_complex_on_host
def eigh(x, /, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of each symmetric matrix (its lower triangle is read)."""
    x = _symmetric(x, UPLO)
    if x.size == 0:
        return EighResult(full(x.shape[:-1], 0, x.dtype, x.context), x.copy())
    u, w = _checked(invoke_all, "_linalg_syevd", [x])
    return EighResult(w, matrix_transpose(u))


@_complex_on_host
def eigvalsh(x, /, UPLO="L"):
    """The eigenvalues (ascending) of each symmetric matrix."""
    return eigh(x, UPLO).eigenvalues


def _symmetric(x, uplo):
    x = _square(x)
    if uplo not in ("L", "U"):
        raise MXNetValueError("UPLO must be 'L' or 'U', got %r" % (uplo,))
    return x if uplo == "L" else matrix_transpose(x).copy()


@_complex_on_host
def qr(x, /, *, mode="reduced"):
    """Q R of each matrix (mode 'reduced': Q (..., M, K), R (..., K, N), K = min(M, N); 'complete': Q (..., M, M);
    'r': R alone), by Householder reflections (LAPACK's signs)."""
    x = _float(x)
    if mode not in ("reduced", "complete", "r"):
        raise MXNetValueError("qr: mode must be 'reduced', 'complete' or 'r', got %r" % (mode,))
    m, n = x.shape[-2:]
    k = min(m, n)
    if mode == "complete" and m > n:  # [A, I][:, :m] = Q R': A's columns first, completed to a basis
        ident = _MANIP["broadcast_to"](_identity(m, x), _batch(x) + (m, m))
        q, r = _qr_tall(_MANIP["concat"]([x, ident], axis=-1)[..., :m])
        return QRResult(q, r[..., :n].copy())
    q, r = _qr_tall(x[..., :k] if n > k else x)
    if n > k:  # A = Q [R1, Q^T A2]: R1 exactly triangular
        r = _MANIP["concat"]([r, matmul(matrix_transpose(q), x[..., k:])], axis=-1)
    return r if mode == "r" else QRResult(q, r)


def _qr_tall(a):
    """Q, R of matrices with M >= N: the LQ factorization of their transposes."""
    if a.size == 0:
        m, n = a.shape[-2:]
        return full(_batch(a) + (m, n), 0, a.dtype, a.context), full(_batch(a) + (n, n), 0, a.dtype, a.context)
    qt, lt = invoke_all("_linalg_gelqf", [matrix_transpose(a).copy()])
    return matrix_transpose(qt), matrix_transpose(lt)


@_complex_on_host
def svd(x, /, full_matrices=True, compute_uv=True):
    """U, S, Vh with x = U diag(S) Vh for each matrix, S descending (NumPy's svd). Differentiable for
    distinct singular values; the extra vectors of full_matrices only through their span's projector."""
    x = _float(x)
    if not compute_uv:
        return svdvals(x)
    u, s, vh = _checked(invoke_all, "_npi_svd", [x], {"full_matrices": bool(full_matrices)})
    return SVDResult(u, s, vh)


@_complex_on_host
def svdvals(x, /):
    """The singular values of each matrix, descending."""
    return _checked(invoke_all, "_npi_svd", [_float(x)])[1]


@_complex_on_host
def solve(x1, x2, /):
    """X with x1 X = x2 for each square matrix of x1 (LU with partial pivoting; LinAlgError when singular).
    x2 is a vector only when 1-d (the standard's rule); the stacks broadcast."""
    a = _square(x1, "x1")
    b = _float(x2, "x2", 1)
    a, b = astype(a, _dtypes.result_type(a, b)), astype(b, _dtypes.result_type(a, b))
    vector = b.ndim == 1
    if vector:
        b = _reshape(b, (b.shape[0], 1))
    batch = _MANIP["broadcast_arrays"](full(_batch(a), 0, a.dtype), full(_batch(b), 0, a.dtype))[0].shape
    if b.shape[-2] != a.shape[-1]:
        raise MXNetValueError("solve: x2 has %d rows, x1 is %d x %d" % (b.shape[-2], a.shape[-1], a.shape[-1]))
    a = _MANIP["broadcast_to"](a, batch + a.shape[-2:])
    b = _MANIP["broadcast_to"](b, batch + b.shape[-2:])
    r = b.copy() if b.size == 0 or a.size == 0 else _checked(invoke, "_npi_solve", [a, b])
    return _reshape(r, r.shape[:-1]) if vector else r


# ---- from the factorizations ---------------------------------------------------------------

def _cutoff(s, m, n, rtol):
    """The singular values of s (descending) above rtol (default max(M, N) eps) times the largest, as a mask."""
    if rtol is None:
        rtol = max(m, n) * float(_onp.finfo(s.dtype).eps)
    smax = s[..., :1] if s.shape[-1] else s
    return binary("greater", s, binary("multiply", smax, rtol if not hasattr(rtol, "shape") else
                                       _MANIP["expand_dims"](operand(rtol), -1)))


@_complex_on_host
def matrix_rank(x, /, *, rtol=None, tol=None, hermitian=False):
    """The number of singular values above rtol times the largest (tol: an absolute cutoff instead)."""
    x = _float(x)
    s = svdvals(x)
    if tol is not None:
        keep = binary("greater", s, tol)
    else:
        keep = _cutoff(s, x.shape[-2], x.shape[-1], rtol)
    return _REDUCE["sum"](keep, axis=-1)


@_complex_on_host
def pinv(x, /, rcond=None, hermitian=False, *, rtol=None):
    """The Moore-Penrose pseudo-inverse, through the SVD: singular values at or below
    rtol (or NumPy's rcond; default max(M, N) eps) times the largest count as zero."""
    x = _float(x)
    m, n = x.shape[-2:]
    u, s, vh = svd(x, full_matrices=False)
    keep = _cutoff(s, m, n, rtol if rtol is not None else rcond)
    sinv = _MANIP["where"](keep, binary("divide", 1.0, _MANIP["where"](keep, s, 1.0)), 0.0)
    return matmul(binary("multiply", matrix_transpose(vh), _MANIP["expand_dims"](astype(sinv, x.dtype), -2)),
                  matrix_transpose(u))


def lstsq(a, b, rcond=None):
    """NumPy's least squares: (x, residuals, rank, s) with x minimising |a x - b| (through pinv)."""
    a = _float(a, "a")
    b = _float(b, "b", 1)
    if a.ndim != 2 or b.ndim > 2:
        raise MXNetValueError("lstsq: a must be 2-d and b 1-d or 2-d")
    s = svdvals(a)
    rank = int(_REDUCE["sum"](_cutoff(s, *a.shape, rcond)).item())
    x = matmul(pinv(a, rcond), b)
    residual = binary("subtract", matmul(a, x), b)
    if rank == a.shape[1] and a.shape[0] > a.shape[1]:
        resid = _REDUCE["sum"](binary("multiply", residual, residual), axis=0)
        resid = _reshape(resid, (1,)) if b.ndim == 1 else resid
    else:
        resid = full((0,), 0, x.dtype, x.context)
    return x, resid, rank, s


@_complex_on_host
def matrix_power(x, n, /):
    """x raised to the integer power n (n < 0: of the inverse), by repeated squaring."""
    x, n = operand(x, "x"), operator.index(n)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise LinAlgError("matrix_power needs a stack of square matrices, got shape %s" % (x.shape,))
    if n < 0 or _dtypes.as_dtype(x.dtype).kind not in "iu":  # integer powers of integers stay integers
        x = _float(x)
    if n == 0:
        return _MANIP["broadcast_to"](_identity(x.shape[-1], x), x.shape).copy()
    base, n, result = (inv(x) if n < 0 else x), abs(n), None
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result if result is not x else x.copy()


def tensorinv(a, ind=2):
    """The inverse of a as a tensor for tensordot over its first ind axes."""
    a = operand(a, "a")
    if ind <= 0:
        raise MXNetValueError("tensorinv: ind must be positive")
    out_shape = a.shape[ind:] + a.shape[:ind]
    rows, cols = math.prod(a.shape[:ind]), math.prod(a.shape[ind:])
    if rows != cols:
        raise LinAlgError("tensorinv: a's first %d axes must hold as many elements as the rest, got shape %s"
                          % (ind, a.shape))
    return _reshape(inv(_reshape(a, (rows, cols))), out_shape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) = b."""
    a, b = operand(a, "a"), operand(b, "b")
    if axes is not None:
        rest = [i for i in range(a.ndim) if i not in normalize_axes(axes, a.ndim)]
        a = _MANIP["transpose"](a, rest + list(normalize_axes(axes, a.ndim)))
    x_shape = a.shape[b.ndim:]
    rows = math.prod(a.shape[:b.ndim])
    if rows != math.prod(x_shape):
        raise LinAlgError("tensorsolve: a's leading axes and trailing axes must hold as many elements")
    return _reshape(solve(_reshape(a, (rows, rows)), _reshape(b, (rows,))), x_shape)


# ---- norms ---------------------------------------------------------------------------------

@_complex_on_host
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002  (the standard's name)
    """The vector p-norm over axis (None: all of x): ord 2, 1, inf, -inf, 0 or any real p."""
    x = _float(x, ndim=0)
    axes = normalize_axes(axis, x.ndim)
    a = unary("abs", x)
    if ord == 0:
        return _REDUCE["sum"](astype(binary("not_equal", x, 0), x.dtype), axis=axes, keepdims=keepdims)
    if ord == math.inf and x.size == 0:  # max over nothing: 0, as NumPy's
        return _REDUCE["sum"](a, axis=axes, keepdims=keepdims)
    if ord == math.inf:
        return _REDUCE["max"](a, axis=axes, keepdims=keepdims)
    if ord == -math.inf:
        return _REDUCE["min"](a, axis=axes, keepdims=keepdims)
    if ord == 1:
        return _REDUCE["sum"](a, axis=axes, keepdims=keepdims)
    if ord == 2:
        return unary("sqrt", _REDUCE["sum"](binary("multiply", a, a), axis=axes, keepdims=keepdims))
    p = float(ord)
    return binary("pow", _REDUCE["sum"](binary("pow", a, p), axis=axes, keepdims=keepdims), 1.0 / p)


@_complex_on_host
def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    """The matrix norm of each matrix: 'fro', 'nuc', 1, -1, 2, -2, inf or -inf."""
    x = _float(x)
    return _matrix_norm(x, (-2, -1), keepdims, ord)


def _matrix_norm(x, axes, keepdims, ord):  # noqa: A002
    r, c = (normalize_axis(a, x.ndim) for a in axes)
    if r == c:
        raise MXNetValueError("norm: the two axes must differ")
    if ord in ("fro", "nuc", 2, -2):
        y = _MANIP["moveaxis"](x, (r, c), (-2, -1))
        if ord == "fro":
            v = vector_norm(y, axis=(-2, -1))
        else:
            s = svdvals(y)
            pick = {"nuc": _REDUCE["sum"], 2: _REDUCE["max"], -2: _REDUCE["min"]}[ord]
            v = pick(s, axis=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        inner, outer_ = (r, c) if ord in (1, -1) else (c, r)
        sums = _REDUCE["sum"](unary("abs", x), axis=inner, keepdims=True)
        v = (_REDUCE["max"] if ord > 0 else _REDUCE["min"])(sums, axis=outer_, keepdims=True)
        v = _reshape(v, [d for i, d in enumerate(v.shape) if i not in (r, c)])
    else:
        raise MXNetValueError("invalid norm order %r for matrices" % (ord,))
    if keepdims:
        shape = list(x.shape)
        shape[r] = shape[c] = 1
        v = _reshape(v, shape)
    return v


@_complex_on_host
def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """NumPy's norm: the 2-norm of the flattened x (ord and axis None), a vector norm over one
    axis, a matrix norm over two."""
    x = _float(x, ndim=0)
    if axis is None and ord is None:
        return vector_norm(x, keepdims=keepdims)
    if axis is None:
        if x.ndim not in (1, 2):
            raise MXNetValueError("norm: improper number of dimensions to norm")
        axis = tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise MXNetValueError("invalid norm order %r for vectors" % (ord,))
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) == 2:
        return _matrix_norm(x, axes, keepdims, "fro" if ord is None else ord)
    raise MXNetValueError("norm: improper number of dimensions to norm")


@_complex_on_host
def cond(x, p=None):
    """The condition number of each matrix in norm p (None: 2, the ratio of extreme singular values)."""
    x = _float(x)
    if p in (None, 2, -2):
        s = svdvals(x)
        big, small = _REDUCE["max"](s, axis=-1), _REDUCE["min"](s, axis=-1)
        return binary("divide", small, big) if p == -2 else binary("divide", big, small)
    return binary("multiply", _matrix_norm(x, (-2, -1), False, p), _matrix_norm(inv(x), (-2, -1), False, p))


# ---- products and parts --------------------------------------------------------------------

def multi_dot(arrays, *, out=None):
    """The product of the matrices in order (a 1-d first or last operand as a vector)."""
    arrays = [operand(a) for a in arrays]
    if len(arrays) < 2:
        raise MXNetValueError("multi_dot needs at least two arrays")
    r = arrays[0]
    for a in arrays[1:]:
        r = matmul(r, a)
    if out is None:
        return r
    out[...] = r
    return out


def outer(x1, x2, /):
    """The outer product of two vectors."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    if x1.ndim != 1 or x2.ndim != 1:
        raise MXNetValueError("outer: both operands must be 1-d")
    return _PRODUCTS["outer"](x1, x2)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along axis (the arrays broadcast)."""
    x1, x2 = operand(x1, "x1"), operand(x2, "x2")
    if x1.ndim == 0 or x2.ndim == 0:
        raise MXNetValueError("cross: operands must have at least one dimension")
    x1, x2 = _MANIP["broadcast_arrays"](x1, x2)
    axis = normalize_axis(axis, x1.ndim)
    if x1.shape[axis] != 3:
        raise MXNetValueError("cross: both vectors must have 3 elements along axis %d, got %d" % (axis, x1.shape[axis]))
    a, b = _MANIP["moveaxis"](x1, axis, -1), _MANIP["moveaxis"](x2, axis, -1)
    sub, mul = _UFUNCS["subtract"], _UFUNCS["multiply"]
    parts = [sub(mul(a[..., i], b[..., j]), mul(a[..., j], b[..., i])) for i, j in ((1, 2), (2, 0), (0, 1))]
    return _MANIP["stack"](parts, axis=axis)


def diagonal(x, /, *, offset=0):
    """The diagonal of each matrix (offset > 0 above the main one, < 0 below)."""
    x = operand(x, "x")
    if x.ndim < 2:
        raise MXNetValueError("diagonal needs at least 2 dimensions, got %d" % x.ndim)
    m, n = x.shape[-2:]
    length = max(0, min(m, n - offset) if offset >= 0 else min(m + offset, n))
    if length == 0:
        return full(_batch(x) + (0,), 0, x.dtype, x.context)
    start = offset if offset >= 0 else -offset * n
    flat = _reshape(x, _batch(x) + (m * n,))
    return flat[..., start:start + (length - 1) * (n + 1) + 1:n + 1]


def trace(x, /, *, offset=0, dtype=None):
    """The sum of each matrix's diagonal (NumPy's accumulator dtypes)."""
    return _REDUCE["sum"](diagonal(x, offset=offset), axis=-1, dtype=dtype)



def eig(a):
    """Eigenvalues w and right eigenvectors v (unit columns: a v = v diag(w)) of each square matrix, unordered.
    Real results only, as MXNet's: complex eigenvalues raise LinAlgError (NumPy would return complex arrays)."""
    a = _square(a, "a")
    if a.size == 0:
        return EigResult(full(a.shape[:-1], 0, a.dtype, a.context), a.copy())
    return EigResult(*_checked(invoke_all, "_npi_eig", [a]))


def eigvals(a):
    """The eigenvalues of each square matrix, unordered (real only, as eig)."""
    a = _square(a, "a")
    return a[..., 0].copy() if a.size == 0 else _checked(invoke, "_npi_eigvals", [a])
