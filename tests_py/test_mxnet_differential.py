"""The differential suite: every case of every tests_py/mxnet_diff_<area>.py (see
mxnet_diff.py) run once with ``mx = mxnet`` (the real MXNet 1.9.1) and once with ``mx =
mxgo``, in one process. They must agree on whether the code raises and, if it does not, on
its result ``r``: NDArrays by dtype, shape and values (exact for integers and bools,
within a per-dtype tolerance for floating point), numbers by value and kind (bool, int,
float), lists and tuples element by element.

Collected only in .venv-mxnet (`make test-py-mxnet`, environments.py). Integer division by
zero kills MXNet with SIGFPE: no case may do it.
"""
import mxnet
import pytest

import mxgo
from mxnet_diff import check, load_cases

CASES = load_cases()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=["%s:%s" % (m[len("mxnet_diff_"):], c.label()) for m, c in CASES])
def test_agrees_with_mxnet(case):
    why = check(case, mxnet, mxgo)
    assert why is None, "%s\n%s" % (case.code, why)


def test_cases_are_well_formed():
    assert CASES, "no mxnet_diff_*.py case modules found"
    for module, case in CASES:
        assert case.names, "%s: case %r names no MXNet name" % (module, case.label())
        for name in case.names:
            assert name.startswith(("nd.", "NDArray.")), "%s: %r is not nd.<fn> or NDArray.<attr>" % (module, name)
            assert _mxnet_has(name), "%s: case %r names %s, which MXNet 1.9.1 does not have" % (module, case.label(), name)


def _mxnet_has(name):
    if name.startswith("NDArray."):
        return hasattr(mxnet.nd.NDArray, name[len("NDArray."):])
    obj = mxnet
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj is not None
