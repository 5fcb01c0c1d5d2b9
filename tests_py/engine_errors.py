"""Asynchronous errors, scenario by scenario, written once for both libraries: each
function takes the library (``mxgo`` or MXNet 1.9.1's ``mxnet``) and returns what each of
its steps did. An operation's error is raised by the first wait that meets it, whichever
array that wait is on, or ``waitall``; after that, no wait raises it again.
test_api_errors.py checks mxgo against EXPECTED, and test_mxnet_errors.py checks MXNet
1.9.1 against it (in .venv-mxnet).
"""


def _failing(mx):
    """An operation that fails on the engine, after it returned: a Cholesky factorisation
    of a matrix that is not positive definite."""
    return mx.nd.linalg.potrf(mx.nd.array([[-1.0, 0.0], [0.0, -1.0]]))


def _step(fn):
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - the outcome is what is recorded
        return "raised MXNetError" if _mxnet_error(exc) else "raised %s" % type(exc).__name__
    return "ok" if value is None else "ok %s" % (value.tolist(),)


def _mxnet_error(exc):
    return any(c.__name__ == "MXNetError" for c in type(exc).__mro__)


def dependent_first(mx):
    a = _failing(mx)
    b = a + 1  # does not run: carries a's error
    return [_step(b.wait_to_read), _step(a.wait_to_read), _step(mx.nd.waitall)]


def pushed_after_the_raise(mx):
    a = _failing(mx)
    first = _step(a.wait_to_read)
    c = a + 1  # the caller has seen the error: this one runs
    return [first, _step(c.wait_to_read), _step(mx.nd.waitall)]


def pushed_before_the_raise(mx):
    a = _failing(mx)
    d = a * 2
    return [_step(a.wait_to_read), _step(d.wait_to_read), _step(mx.nd.waitall)]


def waitall_first(mx):
    a, e = _failing(mx), _failing(mx)
    return [_step(mx.nd.waitall), _step(a.wait_to_read), _step(e.wait_to_read), _step(mx.nd.waitall)]


def wait_then_waitall(mx):
    a, e = _failing(mx), _failing(mx)
    return [_step(a.wait_to_read), _step(mx.nd.waitall), _step(e.wait_to_read)]


def asnumpy_twice(mx):
    a = _failing(mx)
    return [_step(lambda: a.asnumpy() and None), _step(lambda: a.asnumpy().shape and None)]


def write_into_the_failed(mx):
    a = _failing(mx)
    a[:] = 1  # pushed before any wait: does not run
    return [_step(a.wait_to_read), _step(mx.nd.waitall)]


def mended_after_the_raise(mx):
    a = _failing(mx)
    first = _step(a.wait_to_read)
    a[:] = 1
    return [first, _step(a.asnumpy), _step(mx.nd.waitall)]


def two_errors_reach_one(mx):
    a, e = _failing(mx), _failing(mx)
    s = a + e  # carries one of them (MXNet picks by address, mxgo the one pushed first)
    return [_step(s.wait_to_read), _step(mx.nd.waitall), _step(a.wait_to_read), _step(e.wait_to_read)]


SCENARIOS = [dependent_first, pushed_after_the_raise, pushed_before_the_raise, waitall_first,
             wait_then_waitall, asnumpy_twice, write_into_the_failed, mended_after_the_raise,
             two_errors_reach_one]

R, OK = "raised MXNetError", "ok"

#: what each scenario's steps do in MXNet 1.9.1
EXPECTED = {
    "dependent_first": [R, OK, OK],
    "pushed_after_the_raise": [R, OK, OK],
    "pushed_before_the_raise": [R, OK, OK],
    "waitall_first": [R, OK, OK, OK],
    "wait_then_waitall": [R, R, OK],
    "asnumpy_twice": [R, OK],
    "write_into_the_failed": [R, OK],
    "mended_after_the_raise": [R, "ok [[1.0, 1.0], [1.0, 1.0]]", OK],
    "two_errors_reach_one": [R, R, OK, OK],
}
