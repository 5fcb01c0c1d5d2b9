"""mx.np's products: dot, vdot, inner, outer, trace and einsum, over the registry's matmul
(through tensordot), multiply, diag and sum.

NumPy's shapes and promotion (integer products stay integers, as NumPy's; MXNet 1.9.1's
kernels refuse them). einsum contracts its operands pairwise, left to right: each pair
is one batched matrix product, never a broadcast product of every index.
"""
import math

from ..base import MXNetTypeError, MXNetValueError
from . import _dtypes
from ._array import SCALARS, astype, invoke, operand, reshape
from ._manip import FUNCTIONS as _MANIP
from ._reduce import FUNCTIONS as _REDUCE, _into
from ._stack import FUNCTIONS as _STACK
from ._ufuncs import binary, unary

__all__ = ["FUNCTIONS", "dot"]

_transpose, _tensordot, _matmul = _MANIP["transpose"], _MANIP["tensordot"], _MANIP["matmul"]


def _scalar_product(a, b):
    """a * b when either is 0-d (NumPy's dot and inner of a scalar), else None."""
    if isinstance(a, SCALARS) or isinstance(b, SCALARS) or operand(a).ndim == 0 or operand(b).ndim == 0:
        return binary("multiply", a, b)
    return None


def dot(a, b, out=None):
    """NumPy's dot: the matrix product of 2-d arrays, the inner product of vectors, and for
    N-d arrays the sum over a's last axis and b's second-to-last."""
    r = _scalar_product(a, b)
    if r is None:
        a, b = operand(a, "a"), operand(b, "b")
        r = _tensordot(a, b, axes=([a.ndim - 1], [max(b.ndim - 2, 0)]))
    return _into(r, out)


def inner(a, b):
    """The sum of products over the last axes of a and b (a * b for a 0-d operand)."""
    r = _scalar_product(a, b)
    if r is not None:
        return r
    a, b = operand(a, "a"), operand(b, "b")
    return _tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b):
    """The outer product of a and b, flattened first: shape (a.size, b.size)."""
    a, b = operand(a, "a"), operand(b, "b")
    return binary("multiply", reshape(a, (a.size, 1)), reshape(b, (1, b.size)))


def vdot(a, b):
    """The dot product of a and b flattened, a conjugated first (a 0-d array)."""
    a, b = operand(a, "a"), operand(b, "b")
    if a.size != b.size:
        raise MXNetValueError("vdot: arrays of %d and %d elements" % (a.size, b.size))
    if _dtypes.as_dtype(a.dtype).kind == "c":
        a = unary("conj", a)
    return _tensordot(reshape(a, (a.size,)), reshape(b, (b.size,)), axes=1)


def trace(a, offset=0, axis1=0, axis2=1, out=None):
    """The sum along diagonal ``offset`` of the axes axis1 and axis2, in a's dtype (MXNet's;
    NumPy's sums small integers in int64)."""
    a = operand(a, "a")
    return _into(_REDUCE["sum"](_STACK["diagonal"](a, offset, axis1, axis2), axis=-1, dtype=a.dtype), out)


def einsum(*operands, out=None, optimize=False):
    """Einstein summation: ``einsum("ij,jk->ik", a, b)``. Repeated indices of one operand take
    its diagonal; an index missing from the output (or, with no ``->``, repeated across
    operands) is summed; ``...`` stands for broadcast axes."""
    if not operands or not isinstance(operands[0], str):
        raise MXNetTypeError("einsum: the first argument must be the subscripts string")
    arrays = [operand(x, "operand") for x in operands[1:]]
    inputs, output = _parse(operands[0].replace(" ", ""), arrays)
    dt = _dtypes.result_type(*arrays)
    sizes = _letter_sizes(inputs, arrays)
    terms = [_diagonal(astype(x, dt), s, sizes) for x, s in zip(arrays, inputs)]
    while len(terms) > 1:
        rest = "".join(s for _, s in terms[2:]) + output
        terms[:2] = [_contract(terms[0], terms[1], rest, sizes)]
    x, s = terms[0]
    x, s = _sum_out(x, s, output)
    return _into(_transpose(x, [s.index(c) for c in output]) if s else x, out)


def _parse(subscripts, arrays):
    """The input subscripts (one string per array, ``...`` spelt out as capital letters) and
    the output's."""
    lhs, arrow, rhs = subscripts.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(arrays):
        raise MXNetValueError("einsum: %d operands for %d subscripts" % (len(arrays), len(inputs)))
    n_ell = max((x.ndim - len(s.replace("...", "")) for x, s in zip(arrays, inputs) if "..." in s), default=0)
    ell = "".join(chr(0x3B1 + i) for i in range(n_ell))  # (Greek letters: not the caller's)
    spelt = []
    for x, s in zip(arrays, inputs):
        named = s.replace("...", "")
        if not all(c.isascii() and c.isalpha() for c in named + rhs.replace("...", "")):
            raise MXNetValueError("einsum: invalid subscripts %r" % subscripts)
        s = s.replace("...", ell[n_ell - (x.ndim - len(named)):] if "..." in s else "")
        if len(s) != x.ndim:
            raise MXNetValueError("einsum: subscripts %r for an operand of %d dimensions" % (s, x.ndim))
        spelt.append(s)
    if arrow:
        output = rhs.replace("...", ell)
    else:
        letters = "".join(spelt)
        output = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    if len(set(output)) != len(output) or not set(output) <= set("".join(spelt)):
        raise MXNetValueError("einsum: invalid output subscripts %r" % rhs)
    return spelt, output


def _letter_sizes(inputs, arrays):
    sizes = {}
    for s, x in zip(inputs, arrays):
        for c, d in zip(s, x.shape):
            if c in sizes and sizes[c] != d and 1 not in (sizes[c], d):
                raise MXNetValueError("einsum: index %r has sizes %d and %d" % (c, sizes[c], d))
            sizes[c] = max(sizes.get(c, d), d)
    return sizes


def _diagonal(x, s, sizes):
    """(x, s) with each repeated index reduced to its diagonal, and size-1 axes of
    broadcast indices stretched to their size."""
    while len(set(s)) != len(s):
        c = next(c for c in s if s.count(c) > 1)
        i, j = s.index(c), s.index(c, s.index(c) + 1)
        x = invoke("diag", [x], {"k": 0, "axis1": i, "axis2": j})
        s = s.replace(c, "") + c
    shape = tuple(sizes[c] for c in s)
    if x.shape != shape:
        x = _MANIP["broadcast_to"](x, shape)
    return x, s


def _sum_out(x, s, keep):
    """x with the indices of s that are not in keep summed away."""
    gone = [i for i, c in enumerate(s) if c not in keep]
    if not gone:
        return x, s
    return _REDUCE["sum"](x, axis=tuple(gone), dtype=x.dtype), "".join(c for c in s if c in keep)


def _contract(left, right, rest, sizes):
    """One pairwise step: a batched matrix product of two terms (x, subscripts), summing the
    indices that no later term or the output needs."""
    (a, sa), (b, sb) = left, right
    a, sa = _sum_out(a, sa, sb + rest)
    b, sb = _sum_out(b, sb, sa + rest)
    batch = [c for c in sa if c in sb and c in rest]
    summed = [c for c in sa if c in sb and c not in rest]
    free_a = [c for c in sa if c not in sb]
    free_b = [c for c in sb if c not in sa]

    def size(cs):
        return math.prod(sizes[c] for c in cs)
    a3 = reshape(_transpose(a, [sa.index(c) for c in batch + free_a + summed]), (size(batch), size(free_a), size(summed)))
    b3 = reshape(_transpose(b, [sb.index(c) for c in batch + summed + free_b]), (size(batch), size(summed), size(free_b)))
    r = _matmul(a3, b3)
    letters = batch + free_a + free_b
    return reshape(r, [sizes[c] for c in letters]), "".join(letters)


FUNCTIONS = {"dot": dot, "inner": inner, "outer": outer, "vdot": vdot, "trace": trace, "einsum": einsum}
