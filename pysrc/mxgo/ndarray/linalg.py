"""``mx.nd.linalg``: MXNet 1.x's linear-algebra operators (``mx.nd.linalg.gemm``, ...).

Each but syevd is also ``mx.nd.linalg_<fn>``, as in MXNet 1.9.1. The single-result
operators are the registry's ``linalg_<fn>`` functions themselves. slogdet, gelqf and
syevd are registry operators of two results (``_linalg_<fn>``: one kernel writes both),
returned as a list of two NDArrays, as MXNet returns them.
"""
from ..base import MXNetTypeError
from . import op as _ops
from .ndarray import NDArray

__all__ = ["gemm", "gemm2", "potrf", "potri", "trsm", "trmm", "syrk", "inverse", "det", "slogdet", "sumlogdiag",
           "extractdiag", "makediag", "extracttrian", "maketrian", "gelqf", "syevd"]

# the single-result operators: the registry's functions linalg_<fn> themselves
gemm, gemm2, potrf, potri, trsm, trmm, syrk = (_ops.PUBLIC["linalg_" + n] for n in (
    "gemm", "gemm2", "potrf", "potri", "trsm", "trmm", "syrk"))
inverse, det, sumlogdiag, extractdiag, makediag, extracttrian, maketrian = (_ops.PUBLIC["linalg_" + n] for n in (
    "inverse", "det", "sumlogdiag", "extractdiag", "makediag", "extracttrian", "maketrian"))


def _two(name, A, out):
    """The two results of _linalg_<name> on A (one kernel writes both), or out (a list of
    two NDArrays, as MXNet's out= takes) written with them."""
    if out is not None and (not isinstance(out, (list, tuple)) or len(out) != 2
                            or not all(isinstance(o, NDArray) for o in out)):
        raise MXNetTypeError("%s: out must be a list of 2 NDArrays" % name)
    if not hasattr(A, "shape"):
        raise MXNetTypeError("A must be an NDArray or an object with __dlpack__, got %s" % type(A).__name__)
    return _ops.invoke_all("_linalg_" + name, [A], None, out)


def slogdet(A, out=None, name=None):
    """Sign and natural log of the absolute value of the determinant of each square matrix
    of A (LU factorization), as MXNet's linalg.slogdet: ``[sign, logabsdet]``.

    A singular matrix has sign 0 and logabsdet -inf. A 2-D input gives results of shape
    (1,), as in MXNet 1.x. float32 and float64 only."""
    return _two("slogdet", A, out)


def gelqf(A, out=None, name=None):
    """LQ factorization A = L Q of each m x n matrix (m <= n), as MXNet's linalg.gelqf:
    ``[Q, L]``, Q (m x n) with orthonormal rows and L (m x m) lower triangular (LAPACK's
    gelqf and orglq, so L's diagonal may be negative). float32 and float64 only."""
    return _two("gelqf", A, out)


def syevd(A, out=None, name=None):
    """Eigendecomposition A = U^T diag(lambda) U of each symmetric matrix (only its lower
    triangle is read), as MXNet's linalg.syevd: ``[U, lambda]``, the eigenvectors in the
    rows of U, each with its largest component positive, and the eigenvalues in ascending
    order. float32 and float64 only."""
    return _two("syevd", A, out)


#: mx.nd.linalg_<fn> for the multi-result functions (the others come from the registry;
#: MXNet 1.9.1 has no mx.nd.linalg_syevd)
FLAT = {"linalg_slogdet": slogdet, "linalg_gelqf": gelqf}
