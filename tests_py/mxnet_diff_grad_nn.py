"""Gradient differential cases (mxnet_diff_grad.grad_case) for the layers and products:
dot, batch_dot, FullyConnected, the activations, softmax and its output layers,
Convolution, Pooling, Embedding, Dropout, the normalizations. Each compares the result
and every input's gradient with MXNet 1.9.1's for a non-uniform head gradient; the
training-mode cases (Dropout's mask, BatchNorm's batch statistics and running averages)
compare what MXNet defines deterministically."""
import numpy as np

from mxnet_diff import Case
from mxnet_diff_grad import grad_case

CASES = []
F = ("float32", "float64")


def arr(*shape, seed=0, lo=-1.5, hi=1.5):
    """A list literal of a reproducible array of shape with values in [lo, hi)."""
    v = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return repr(np.round(v, 3).tolist())


def case(expr, names, inputs, id, head=True):
    grad_case(expr, names, inputs, id=id, head=head, cases=CASES)


# ---- dot, batch_dot -------------------------------------------------------------------
DOT = [  # lhs shape, rhs shape, transpose_a, transpose_b
    ((2, 3), (3, 4), False, False), ((3, 2), (3, 4), True, False), ((2, 3), (4, 3), False, True),
    ((3, 2), (4, 3), True, True), ((3,), (3,), False, False), ((2, 3), (3,), False, False),
    ((3,), (3, 4), False, False), ((2, 2, 3), (3, 4), False, False), ((2, 3), (3, 2, 2), False, False),
    ((3, 2, 2), (3, 4), True, False), ((2, 3), (2, 2, 3), False, True), ((3, 2), (3,), True, False),
]
for ls, rs, ta, tb in DOT:
    for dt in F:
        case("mx.nd.dot(a, b, transpose_a=%s, transpose_b=%s)" % (ta, tb), ("nd.dot",),
             {"a": (arr(*ls, seed=1), dt), "b": (arr(*rs, seed=2), dt)}, "dot %s %s %s %s %s" % (ls, rs, ta, tb, dt))
for ta in (False, True):
    for tb in (False, True):
        ls = (2, 4, 3) if ta else (2, 3, 4)
        rs = (2, 5, 4) if tb else (2, 4, 5)
        for dt in F:
            case("mx.nd.batch_dot(a, b, transpose_a=%s, transpose_b=%s)" % (ta, tb), ("nd.batch_dot",),
                 {"a": (arr(*ls, seed=3), dt), "b": (arr(*rs, seed=4), dt)}, "batch_dot %s %s %s" % (ta, tb, dt))
