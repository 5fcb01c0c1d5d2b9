"""``mx.nd.linalg``: MXNet 1.x's linear-algebra operators (``mx.nd.linalg.gemm``, ...).

Each but syevd is also ``mx.nd.linalg_<fn>``, as in MXNet 1.9.1. The single-result
operators are the registry's ``linalg_<fn>`` functions themselves. slogdet, gelqf and
syevd have two results while a registered operator has one: Go registers them
(``_linalg_<fn>``) with both results packed in one 1-D array (every first result, then
every second one), and the functions here return them as a list of two contiguous views
of it, as MXNet returns a list of two NDArrays; no copy is made.
"""
import math

from ..base import MXNetTypeError, MXNetValueError
from . import op as _ops
from .ndarray import NDArray

__all__ = ["gemm", "gemm2", "potrf", "potri", "trsm", "trmm", "syrk", "inverse", "det", "slogdet", "sumlogdiag",
           "extractdiag", "makediag", "extracttrian", "maketrian", "gelqf", "syevd"]

# the single-result operators: the registry's functions linalg_<fn> themselves
gemm, gemm2, potrf, potri, trsm, trmm, syrk = (_ops.PUBLIC["linalg_" + n] for n in (
    "gemm", "gemm2", "potrf", "potri", "trsm", "trmm", "syrk"))
inverse, det, sumlogdiag, extractdiag, makediag, extracttrian, maketrian = (_ops.PUBLIC["linalg_" + n] for n in (
    "inverse", "det", "sumlogdiag", "extractdiag", "makediag", "extracttrian", "maketrian"))


def _split(name, A, shapes, out):
    """Runs the packed operator _linalg_<name> on A and returns its results, of the given
    shapes, as views (or copied into out, a list of NDArrays, as MXNet's out= does)."""
    if out is not None and (not isinstance(out, (list, tuple)) or len(out) != len(shapes)
                            or not all(isinstance(o, NDArray) for o in out)):
        raise MXNetTypeError("%s: out must be a list of %d NDArrays" % (name, len(shapes)))
    packed = _ops.invoke("_linalg_" + name, [A], None, None)
    res, start = [], 0
    for shape in shapes:
        size = math.prod(shape)
        res.append(packed[start:start + size].reshape(shape))
        start += size
    if out is None:
        return res
    for o, r in zip(out, res):
        if o.shape != r.shape or o.dtype != r.dtype:
            raise MXNetValueError("%s: out has shape %s and dtype %s, the result %s and %s"
                                  % (name, o.shape, o.dtype, r.shape, r.dtype))
        o[:] = r
    return list(out)


def _shape(A):
    if not hasattr(A, "shape"):
        raise MXNetTypeError("A must be an NDArray or an object with __dlpack__, got %s" % type(A).__name__)
    return tuple(A.shape)


def slogdet(A, out=None):
    """Sign and natural log of the absolute value of the determinant of each square matrix
    of A (LU factorization), as MXNet's linalg.slogdet: ``[sign, logabsdet]``.

    A singular matrix has sign 0 and logabsdet -inf. A 2-D input gives results of shape
    (1,), as in MXNet 1.x. float32 and float64 only."""
    s = _shape(A)
    batch = s[:-2] if len(s) > 2 else ((1,) if len(s) == 2 and s[0] * s[1] else ())
    return _split("slogdet", A, [batch, batch], out)


def gelqf(A, out=None):
    """LQ factorization A = L Q of each m x n matrix (m <= n), as MXNet's linalg.gelqf:
    ``[Q, L]``, Q (m x n) with orthonormal rows and L (m x m) lower triangular (LAPACK's
    gelqf and orglq, so L's diagonal may be negative). float32 and float64 only."""
    s = _shape(A)
    return _split("gelqf", A, [s, s[:-1] + s[-2:-1]], out)


def syevd(A, out=None):
    """Eigendecomposition A = U^T diag(lambda) U of each symmetric matrix (only its lower
    triangle is read), as MXNet's linalg.syevd: ``[U, lambda]``, the eigenvectors in the
    rows of U, each with its largest component positive, and the eigenvalues in ascending
    order. float32 and float64 only."""
    s = _shape(A)
    return _split("syevd", A, [s, s[:-1]], out)


#: mx.nd.linalg_<fn> for the multi-result functions (the others come from the registry;
#: MXNet 1.9.1 has no mx.nd.linalg_syevd)
FLAT = {"linalg_slogdet": slogdet, "linalg_gelqf": gelqf}
