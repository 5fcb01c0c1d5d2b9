"""The registry's _npi_ elementwise operators against the real MXNet 1.9.1's of the same
names: every name MXNet registers is declared with MXNet's operand and parameter names
(so symbols and model files agree), and computes what MXNet's mx.np does on ordinary
float32 and int32 values (test_np_kernels.py checks NumPy's edge cases).

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import re

import mxnet
import numpy as np
import pytest
from mxnet.ndarray.numpy import _internal as mxi

from mxgo._core.registry import OPS, invoke

import mxgo as mx

# our _npi_ names that MXNet 1.9.1 registers too
#: mx.np.linalg's kernels (_npi_solve, _npi_svd, _npi_eig, _npi_eigvals) are checked by test_mxnet_np.py
_LINALG = {"_npi_solve", "_npi_svd", "_npi_eig", "_npi_eigvals"}
SHARED = [n for n in OPS if n.startswith("_npi_") and n not in _LINALG and hasattr(mxi, n[len("_npi_"):])]


def mxnet_args(name):
    doc = getattr(mxi, name[len("_npi_"):]).__doc__.split("Parameters")[1]
    return [a for a in re.findall(r"\n(\w+) : ", doc) if a != "out"]


def test_the_shared_names():
    assert len(SHARED) == 40, SHARED  # all of MXNet 1.9.1's elementwise _npi_ names of these families
    for name in SHARED:
        ours = OPS[name]["inputs"] + [p["name"] for p in OPS[name]["params"] if p["name"] != "reverse"]
        assert ours == mxnet_args(name), name


R = np.random.RandomState(3)
F = (R.randn(4, 3) * 3).astype("float32")
G = (R.randn(1, 3) * 3).astype("float32")
K = R.randint(-9, 9, size=(4, 3)).astype("int32")
J = R.randint(1, 9, size=(1, 3)).astype("int32")
ARRAY_CASES = ([(n, F, G) for n in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "arctan2",
                                    "copysign", "hypot", "mod")]
               + [(n, K, J) for n in ("equal", "less", "bitwise_and", "bitwise_or", "bitwise_xor", "mod")])


@pytest.mark.parametrize("name,a,b", ARRAY_CASES, ids=[c[0] + "-" + str(c[1].dtype) for c in ARRAY_CASES])
def test_binary_agrees(name, a, b):
    want = getattr(mxi, name)(mxnet.np.array(a, dtype=a.dtype), mxnet.np.array(b, dtype=b.dtype)).asnumpy()
    got = invoke("_npi_" + name, [mx.nd.array(a, dtype=a.dtype), mx.nd.array(b, dtype=b.dtype)]).asnumpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "logical_not"])
def test_predicates_agree(name):
    a = np.array([np.nan, np.inf, -np.inf, 0, -1.5], dtype="float32")
    want = getattr(mxi, name)(mxnet.np.array(a)).asnumpy()
    np.testing.assert_array_equal(invoke("_npi_" + name, [mx.nd.array(a)]).asnumpy(), want)


@pytest.mark.parametrize("name", ["greater_scalar", "arctan2_scalar", "rarctan2_scalar", "copysign_scalar",
                                  "rcopysign_scalar", "mod_scalar", "rmod_scalar", "ldexp_scalar", "rldexp_scalar"])
def test_scalar_forms_agree(name):
    want = getattr(mxi, name)(mxnet.np.array(F), scalar=2.5, is_int=False).asnumpy()
    got = invoke("_npi_" + name, [mx.nd.array(F)], {"scalar": 2.5, "is_int": False}).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_around_agrees():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 1.25, 1250.0], "float32")
    for d in (0, 1, -2):
        want = mxi.around(mxnet.np.array(x), decimals=d).asnumpy()
        np.testing.assert_array_equal(invoke("_npi_around", [mx.nd.array(x)], {"decimals": d}).asnumpy(), want)
