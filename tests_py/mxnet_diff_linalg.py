"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for the linear-algebra
operators mx.nd.linalg.<fn> and their flat forms mx.nd.linalg_<fn> (MXNet has none for
syevd): gemm, gemm2, potrf, potri, trsm, trmm, syrk, inverse, det, slogdet, sumlogdiag,
extractdiag, makediag, extracttrian, maketrian, gelqf and syevd.

MXNet computes in float32 for float32 inputs where mxgo's LAPACK kernels compute in
float64 and round, so the matrices here are well conditioned (results agree to the
float32 tolerance), and those given to syevd have distinct eigenvalues and eigenvectors
without ties in their largest component (whose sign MXNet fixes). MXNet refuses every
dtype but float32 and float64, and so does mxgo: those cases are here too.

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- nd.linalg.* nd.linalg_*: float32 inputs are computed in float64 and rounded once (pure-Go LAPACK), where
  MXNet computes in float32: results agree to float32's tolerance on well-conditioned input.
"""
from mxnet_diff import Case

# a symmetric positive-definite matrix, a batch (2, 3, 3) of them, a general matrix and
# a lower-triangular one with a dominant diagonal
SPD = "a = mx.nd.array([[4., 1., .5], [1., 3., .2], [.5, .2, 2.]])\n"
BATCH = ("a = mx.nd.array(np.stack([[[4., 1., .5], [1., 3., .2], [.5, .2, 2.]],"
         " [[5., -1., .3], [-1., 2., .4], [.3, .4, 6.]]]))\n")
GEN = "a = mx.nd.array([[2., 1., 0.], [1., 3., 1.], [4., 1., 5.]])\n"
TRI = "t = mx.nd.array([[2., 0., 0.], [1., 3., 0.], [-1., .5, 4.]])\nb = mx.nd.array(np.arange(6.).reshape(3, 2) - 2)\n"


def _cases(fn, setup, lines, flat=True):
    """Cases for lines that call mx.nd.linalg.<fn>; each also runs as mx.nd.linalg_<fn>."""
    out = []
    for line in lines:
        out.append(Case(code=setup + "r = " + line, names=("nd.linalg." + fn,)))
        if flat:
            out.append(Case(code=setup + "r = " + line.replace("linalg.", "linalg_"), names=("nd.linalg_" + fn,)))
    return out


CASES = (
    _cases("gemm", "x = mx.nd.array(np.arange(6.).reshape(2, 3))\ny = mx.nd.array(np.arange(12.).reshape(3, 4) / 3)\n"
           "c = mx.nd.ones((2, 4))\n", [
               "mx.nd.linalg.gemm(x, y, c)", "mx.nd.linalg.gemm(x, y, c, alpha=2., beta=-.5)",
               "mx.nd.linalg.gemm(x.T, y, c, transpose_a=True, beta=0.)",
               "mx.nd.linalg.gemm(x, y.T, c, transpose_b=True, alpha=.25)",
               "mx.nd.linalg.gemm(A=x, B=y, C=c, beta=2.)",
               "mx.nd.linalg.gemm(x.astype('float64'), y.astype('float64'), c.astype('float64'), alpha=3.)",
               "mx.nd.linalg.gemm(x, y, mx.nd.ones((3, 3)))",  # C of the wrong shape
               "mx.nd.linalg.gemm(x, y, c.astype('float64'))",  # mixed dtypes
               "mx.nd.linalg.gemm(x, x, c)",  # incompatible
           ])
    + _cases("gemm", "x = mx.nd.array(np.arange(24.).reshape(2, 3, 4))\ny = mx.nd.array(np.arange(60.).reshape(4, 3, 5))\n"
             "c = mx.nd.array(np.arange(30.).reshape(2, 3, 5))\n", [
                 "mx.nd.linalg.gemm(x, y, c, axis=0)", "mx.nd.linalg.gemm(x, y, c, axis=-3, alpha=.5, beta=2.)",
                 "mx.nd.linalg.gemm(x, y, c, axis=1)", "mx.nd.linalg.gemm(x, y, c, axis=2)",
             ])
    + _cases("gemm2", "x = mx.nd.array(np.arange(24.).reshape(2, 3, 4))\n", [
        "mx.nd.linalg.gemm2(x, x, transpose_b=True)", "mx.nd.linalg.gemm2(x, x, transpose_a=True, alpha=.5)",
        "mx.nd.linalg.gemm2(x, mx.nd.array(np.arange(60.).reshape(4, 3, 5)), axis=0)",
        "mx.nd.linalg.gemm2(x, mx.nd.array(np.arange(60.).reshape(5, 3, 4)), axis=0, transpose_b=True)",
        "mx.nd.linalg.gemm2(x, x.reshape((4, 3, 2)), axis=0, transpose_a=True, transpose_b=True)",
        "mx.nd.linalg.gemm2(A=x, B=x, transpose_a=True)", "mx.nd.linalg.gemm2(x.astype('float64'), x, transpose_b=True)",
        "mx.nd.linalg.gemm2(x, x)", "mx.nd.linalg.gemm2(x, x, axis=-1)", "mx.nd.linalg.gemm2(x, x, axis=-4)",
        "mx.nd.linalg.gemm2(x, x[0], transpose_b=True)", "mx.nd.linalg.gemm2(mx.nd.ones((3,)), mx.nd.ones((3,)))",
        "mx.nd.linalg.gemm2(x, mx.nd.ones((3, 3, 4)), transpose_b=True)",
        "mx.nd.linalg.gemm2(x.astype('int32'), x.astype('int32'), transpose_b=True)",
        "mx.nd.linalg.gemm2(x.astype('float16'), x.astype('float16'), transpose_b=True)",
    ])
    + _cases("potrf", SPD, [
        "mx.nd.linalg.potrf(a)", "mx.nd.linalg.potrf(a, lower=False)", "mx.nd.linalg.potrf(A=a.astype('float64'))",
        "mx.nd.linalg.potrf(a + mx.nd.array(np.triu(np.ones((3, 3)), 1) * 50))",  # the upper triangle is not read
        "mx.nd.linalg.potrf(mx.nd.array([[1., 2.], [2., 1.]]))",  # not positive definite
        "mx.nd.linalg.potrf(mx.nd.ones((2, 3)))", "mx.nd.linalg.potrf(mx.nd.ones((3,)))",
        "mx.nd.linalg.potrf(a.astype('float16'))", "mx.nd.linalg.potrf(a.astype('int32'))",
    ])
    + _cases("potrf", BATCH, ["mx.nd.linalg.potrf(a)", "mx.nd.linalg.potrf(a.reshape((2, 1, 3, 3)), lower=False)"])
    + _cases("potri", SPD, [
        "mx.nd.linalg.potri(mx.nd.linalg.potrf(a))", "mx.nd.linalg.potri(mx.nd.linalg.potrf(a, lower=False), lower=False)",
        "mx.nd.linalg.potri(mx.nd.array([[2., 100.], [1., 3.]]))",
        "mx.nd.linalg.potri(mx.nd.array([[2., 100.], [1., 3.]]), lower=False)",
        "mx.nd.linalg.potri(mx.nd.array([[0., 0.], [1., 1.]]))",  # a zero on the diagonal
        "mx.nd.linalg.potri(mx.nd.ones((2, 3)))", "mx.nd.linalg.potri(a.astype('int64'))",
    ])
    + _cases("trsm", TRI, [
        "mx.nd.linalg.trsm(t, b)", "mx.nd.linalg.trsm(t, b, alpha=2.)", "mx.nd.linalg.trsm(t, b, transpose=True)",
        "mx.nd.linalg.trsm(t.T, b, lower=False)", "mx.nd.linalg.trsm(t, b.T, rightside=True)",
        "mx.nd.linalg.trsm(t, b.T, rightside=True, transpose=True, alpha=-1.5)",
        "mx.nd.linalg.trsm(A=t.astype('float64'), B=b.astype('float64'), lower=True)",
        "mx.nd.linalg.trsm(t + 7 * mx.nd.array(np.triu(np.ones((3, 3)), 1)), b)",  # the upper triangle is not read
        "mx.nd.linalg.trsm(t, b.T)", "mx.nd.linalg.trsm(mx.nd.ones((3, 2)), b)", "mx.nd.linalg.trsm(t, b[0])",
        "mx.nd.linalg.trsm(t.reshape((1, 3, 3)), b.reshape((1, 3, 2)))",
        "mx.nd.linalg.trsm(t.astype('int32'), b.astype('int32'))",
    ])
    + _cases("trmm", TRI, [
        "mx.nd.linalg.trmm(t, b)", "mx.nd.linalg.trmm(t, b, alpha=2.)", "mx.nd.linalg.trmm(t, b, transpose=True)",
        "mx.nd.linalg.trmm(t.T, b, lower=False)", "mx.nd.linalg.trmm(t, b.T, rightside=True)",
        "mx.nd.linalg.trmm(t, b.T, rightside=True, transpose=True, alpha=-1.5)",
        "mx.nd.linalg.trmm(mx.nd.array([[2., 100.], [1., 3.]]), mx.nd.array([[1., 2., 3.], [4., 5., 6.]]), lower=False)",
        "mx.nd.linalg.trmm(t, b.T)", "mx.nd.linalg.trmm(t.astype('float16'), b.astype('float16'))",
    ])
    + _cases("syrk", "x = mx.nd.array(np.arange(6.).reshape(2, 3) - 2)\n", [
        "mx.nd.linalg.syrk(x)", "mx.nd.linalg.syrk(x, transpose=True)", "mx.nd.linalg.syrk(x, alpha=-.5)",
        "mx.nd.linalg.syrk(mx.nd.array(np.arange(24.).reshape(2, 3, 4)), transpose=True, alpha=2.)",
        "mx.nd.linalg.syrk(A=x.astype('float64'))", "mx.nd.linalg.syrk(x[0])", "mx.nd.linalg.syrk(x.astype('int8'))",
    ])
    + _cases("inverse", GEN, [
        "mx.nd.linalg.inverse(a)", "mx.nd.linalg.inverse(A=a.astype('float64'))", "mx.nd.linalg.inverse(a.T)",
        "mx.nd.linalg.inverse(mx.nd.stack(a, a.T, 2 * a))", "mx.nd.linalg.inverse(mx.nd.array([[1., 2.], [2., 4.]]))",
        "mx.nd.linalg.inverse(mx.nd.ones((2, 3)))", "mx.nd.linalg.inverse(mx.nd.ones((2,)))",
        "mx.nd.linalg.inverse(a.astype('int32'))",
    ])
    + _cases("det", GEN, [
        "mx.nd.linalg.det(a)", "mx.nd.linalg.det(a.astype('float64'))", "mx.nd.linalg.det(mx.nd.stack(a, a.T, -a))",
        "mx.nd.linalg.det(mx.nd.array([[0., 1.], [1., 0.]]))", "mx.nd.linalg.det(mx.nd.array([[1., 2.], [2., 4.]]))",
        "mx.nd.linalg.det(mx.nd.array(np.arange(16.).reshape(2, 2, 2, 2) + np.eye(2)))",
        "mx.nd.linalg.det(A=a)", "mx.nd.linalg.det(mx.nd.ones((3,)))", "mx.nd.linalg.det(mx.nd.ones((2, 3)))",
        "mx.nd.linalg.det(a.astype('float16'))",
    ])
    + _cases("slogdet", GEN, [
        "mx.nd.linalg.slogdet(a)", "mx.nd.linalg.slogdet(-a.astype('float64'))",
        "mx.nd.linalg.slogdet(mx.nd.stack(a, a.T, -a))", "mx.nd.linalg.slogdet(mx.nd.array([[0., 1.], [1., 0.]]))",
        "mx.nd.linalg.slogdet(mx.nd.array([[1., 2.], [2., 4.]]))", "mx.nd.linalg.slogdet(A=a)",
        "mx.nd.linalg.slogdet(mx.nd.ones((3,)))", "mx.nd.linalg.slogdet(mx.nd.ones((2, 3)))",
        "mx.nd.linalg.slogdet(a.astype('int32'))", "mx.nd.linalg.slogdet(mx.nd.array([[np.nan, 1.], [1., 1.]]))",
        "mx.nd.linalg.slogdet(mx.nd.array([[np.inf, 1.], [1., 1.]]))", "mx.nd.linalg.det(mx.nd.array([[1., 1.], [1., np.nan]]))",
        "o = [mx.nd.zeros((1,)), mx.nd.zeros((1,))]\nr = (mx.nd.linalg.slogdet(a, out=o), o)",
    ])
    + _cases("sumlogdiag", SPD, [
        "mx.nd.linalg.sumlogdiag(a)", "mx.nd.linalg.sumlogdiag(mx.nd.stack(a, 2 * a))",
        "mx.nd.linalg.sumlogdiag(A=a.astype('float64'))", "mx.nd.linalg.sumlogdiag(-a)",
        "mx.nd.linalg.sumlogdiag(mx.nd.ones((2, 3)))", "mx.nd.linalg.sumlogdiag(mx.nd.ones((3,)))",
        "mx.nd.linalg.sumlogdiag(a.astype('int64'))",
    ])
    + _cases("extractdiag", "a = mx.nd.array(np.arange(18.).reshape(2, 3, 3))\n", [
        "mx.nd.linalg.extractdiag(a)", "mx.nd.linalg.extractdiag(a, offset=1)", "mx.nd.linalg.extractdiag(a, offset=-2)",
        "mx.nd.linalg.extractdiag(a[0], 2)", "mx.nd.linalg.extractdiag(A=a.astype('float64'))",
        "mx.nd.linalg.extractdiag(a, offset=3)", "mx.nd.linalg.extractdiag(a[:, :2])",
        "mx.nd.linalg.extractdiag(a[0, 0])", "mx.nd.linalg.extractdiag(a.astype('int32'))",
    ])
    + _cases("makediag", "v = mx.nd.array(np.arange(1., 7.).reshape(2, 3))\n", [
        "mx.nd.linalg.makediag(v)", "mx.nd.linalg.makediag(v, offset=1)", "mx.nd.linalg.makediag(v[0], offset=-2)",
        "mx.nd.linalg.makediag(A=v.astype('float64'))", "mx.nd.linalg.makediag(v.astype('float16'))",
    ])
    + _cases("extracttrian", "a = mx.nd.array(np.arange(1., 19.).reshape(2, 3, 3))\n", [
        "mx.nd.linalg.extracttrian(a)", "mx.nd.linalg.extracttrian(a, lower=False)",
        "mx.nd.linalg.extracttrian(a, offset=1)", "mx.nd.linalg.extracttrian(a, offset=-1)",
        "mx.nd.linalg.extracttrian(a, offset=-1, lower=False)", "mx.nd.linalg.extracttrian(a[1], offset=2, lower=True)",
        "mx.nd.linalg.extracttrian(A=a.astype('float64'), offset=-2)", "mx.nd.linalg.extracttrian(a, offset=3)",
        "mx.nd.linalg.extracttrian(a[:, 0])", "mx.nd.linalg.extracttrian(a.astype('uint8'))",
    ])
    + _cases("maketrian", "v = mx.nd.array(np.arange(1., 13.).reshape(2, 6))\n", [
        "mx.nd.linalg.maketrian(v)", "mx.nd.linalg.maketrian(v, lower=False)", "mx.nd.linalg.maketrian(v, offset=1)",
        "mx.nd.linalg.maketrian(v[0], offset=-2)", "mx.nd.linalg.maketrian(v[0, :3], offset=-1, lower=False)",
        "mx.nd.linalg.maketrian(A=v.astype('float64'))",
        "mx.nd.linalg.extracttrian(mx.nd.linalg.maketrian(v, offset=1), offset=1)",
        "mx.nd.linalg.maketrian(v[:, :4])", "mx.nd.linalg.maketrian(v.astype('int64'))",
    ])
    + _cases("gelqf", "a = mx.nd.array([[1., 2., 3.], [4., 5., 7.]])\n", [
        "mx.nd.linalg.gelqf(a)", "mx.nd.linalg.gelqf(a[:, :2])", "mx.nd.linalg.gelqf(-a.astype('float64'))",
        "mx.nd.linalg.gelqf(mx.nd.stack(a, -2 * a))", "mx.nd.linalg.gelqf(mx.nd.array([[-3.]]))",
        "mx.nd.linalg.gelqf(A=a[:1])", "mx.nd.linalg.gelqf(a.T)", "mx.nd.linalg.gelqf(a[0])",
        "mx.nd.linalg.gelqf(a.astype('float16'))",
        "o = [mx.nd.zeros((2, 3)), mx.nd.zeros((2, 2))]\nr = (mx.nd.linalg.gelqf(a, out=o), o)",
    ])
    + _cases("syevd", SPD, [
        "mx.nd.linalg.syevd(a)", "mx.nd.linalg.syevd(-a.astype('float64'))",
        "mx.nd.linalg.syevd(mx.nd.array([[4., 100.], [2., 3.]]))",  # only the lower triangle is read
        "mx.nd.linalg.syevd(mx.nd.array([[-3.]]))", "mx.nd.linalg.syevd(A=a)",
        "mx.nd.linalg.syevd(mx.nd.array(np.stack([[[4., 1., .5], [1., 3., .2], [.5, .2, 2.]], "
        "[[5., -1., .3], [-1., 2., .4], [.3, .4, 6.]]])))",
        "mx.nd.linalg.syevd(mx.nd.ones((2, 3)))", "mx.nd.linalg.syevd(mx.nd.ones((3,)))",
        "mx.nd.linalg.syevd(a.astype('int32'))",
    ], flat=False)  # MXNet 1.9.1 has no mx.nd.linalg_syevd
)
