"""Differential cases against MXNet 1.9.1 (see mxnet_diff.py) for advanced indexing:
integer lists, NumPy arrays and NDArrays as indices, alone and mixed with integers, slices,
None and ``...``, for reading and for assignment.

No case assigns out of bounds: MXNet 1.9.1 aborts the process there ("double free or
corruption"); mxgo raises IndexError (test_indexing_advanced.py).

Departures from MXNet 1.9.1 (README.md lists each; tools/mxnet_coverage.py marks their names):
- NDArray.__setitem__: assigning out of bounds raises IndexError, where MXNet 1.9.1 aborts the process
  ("double free or corruption").
- NDArray.__getitem__: basic indexing gives a view on every axis (x[:, 1] shares x's memory, so writing into it
  writes x), where MXNet 1.x copies all but a leading-axis range: views are what DLPack exports of strided arrays
  are for. Under autograd.record() the view is recorded as MXNet's slice, and a write through it into memory a
  recorded graph uses is refused, as MXNet refuses in-place writes to recorded arrays.
"""
from mxnet_diff import Case

X = "x = mx.nd.array(np.arange(24).reshape(2, 3, 4))\n"
GET = ("NDArray.__getitem__",)
SET = ("NDArray.__setitem__",)

_KEYS = [
    "mx.nd.array([1, 0])", "[1, 0]", "np.array([1, 0])", "np.array([True, False])", "mx.nd.array([1, 0], dtype='int32')",
    "mx.nd.array([1, 0], dtype='int64')", "[[0, 1], [1, 0]]", "([0, 1], [1, 2])", "([0, 1], slice(1, None))",
    "(slice(None), [0, 2])", "(slice(None), [0, 2], slice(1, 3))", "(1, [0, 2])", "([0, 1], 2)",
    "([0, 1], slice(None), [1, 3])", "(Ellipsis, [0, 1])", "[-1]", "(slice(None), [-1, 0])", "(None, [0, 1])",
    "(slice(None), None, [0, 1])", "mx.nd.array([[0, 1], [1, 1]])", "[True, False]", "[0.0, 1.0]", "[1.7, 0.2]",
    "mx.nd.array([1, 0]) > 0", "(1, slice(None), [0, 1])", "([[0], [1]], [0, 2])",
    "(slice(None, None, -1), [0, 2], slice(None, None, 2))",
    "(mx.nd.array([1, 0]), 1)", "(mx.nd.array([1, 0]), slice(None), mx.nd.array([3, 2]))", "([1, 0, 1, 1],)",
    # refused by both
    "[5]", "(slice(None), [3])", "[]", "[mx.nd.array([0, 1]), mx.nd.array([1, 2])]", "mx.nd.array([1, 0], dtype='bool')",
    "([0, 1], [0, 1, 2])", "([0], [0], [0], [0])",
]

CASES = [Case(code=X + "r = x[%s]" % k, names=GET) for k in _KEYS]
CASES += [
    Case(code="x = mx.nd.array(np.arange(6), dtype='int32')\nr = x[[1, 2]]", names=GET),
    Case(code="x = mx.nd.array(np.arange(6), dtype='float16')\nr = x[mx.nd.array([5, 0, 3])]", names=GET),
    Case(code="x = mx.nd.array(np.arange(6), dtype='uint8')\nr = x[np.array([5, 5])]", names=GET),
    Case(code="x = mx.nd.array(np.arange(6))\nr = x[[[0, 1], [2, 3]]]", names=GET),
    Case(code="x = mx.nd.array(np.arange(12).reshape(3, 4)).T\nr = x[[3, 0], 1:]", names=GET),
    Case(code=X + "y = x[[0, 1]]\ny[:] = 0\nr = x", names=GET, id="a gather is a copy"),
]

_SETS = [
    ("[1, 0]", "0"), ("(slice(None), [0, 2])", "-1"), ("(0, [0, 2])", "mx.nd.ones((2, 4)) * 7"),
    ("([0, 1], [1, 2])", "np.array([[5, 5, 5, 5], [6, 6, 6, 6]])"), ("([0, 1], [1, 2], [3, 0])", "9"),
    ("mx.nd.array([1])", "mx.nd.arange(12).reshape((3, 4))"), ("(slice(None), [2], slice(1, 3))", "[10, 11]"),
    ("(Ellipsis, [0, 3])", "2.5"), ("([0, 0], [1, 1])", "np.array([[1, 2, 3, 4], [5, 6, 7, 8]])"),
    ("(1, slice(None), [0, 1])", "np.arange(6).reshape(2, 3)"),
    ("([0, 1],)", "mx.nd.ones((3, 3))"), ("[1, 0]", "'a'"),
]
CASES += [Case(code=X + "x[%s] = %s\nr = x" % (k, v), names=SET) for k, v in _SETS]
CASES += [
    Case(code="x = mx.nd.zeros((4,), dtype='int32')\nx[[1, 3]] = 2.7\nr = x", names=SET),
    Case(code="x = mx.nd.zeros((2, 3))\nx[mx.nd.array([1, 0]) > 0] = 1\nr = x", names=SET, id="a 0/1 NDArray key is a gather"),
]
