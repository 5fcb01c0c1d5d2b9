"""mxgo.as_mxnet beside the real MXNet 1.9.1 (.venv-mxnet): the same third-party package runs on
MXNet itself and, unchanged, on mxgo; the hook refuses once the real MXNet is imported."""
import json

from test_as_mxnet import python, run_ok

REAL_FIRST = """
import sys
import mxnet
try:
    import mxgo.as_mxnet
except ImportError as e:
    print(e.name, "|", e)
print(any(getattr(f, "mxgo_as_mxnet", False) for f in sys.meta_path), sys.modules["mxnet"].__name__)
"""


def test_refuses_once_the_real_mxnet_is_imported():
    first, state = run_ok(code=REAL_FIRST).splitlines()
    assert first.startswith("mxnet | mxgo.as_mxnet: the real MXNet (") and "site-packages/mxnet/__init__.py" in first
    assert "import mxgo.as_mxnet before anything imports mxnet" in first
    assert state == "False mxnet"


def test_the_same_package_runs_on_mxnet_and_on_mxgo():
    """The third-party code is MXNet code (it trains on MXNet 1.9.1), and the hook wins over the
    installed MXNet when it comes first."""
    on_mxnet = json.loads(run_ok("-m", "mxnet_thirdparty.train", "15"))
    on_mxgo = json.loads(run_ok("-m", "mxgo.as_mxnet", "-m", "mxnet_thirdparty.train", "15"))
    assert on_mxnet["mx"] == "mxnet" and on_mxgo["mx"] == "mxgo"
    for out in (on_mxnet, on_mxgo):
        assert out["last"] < out["first"] / 2, out
    res = python(code="import mxgo.as_mxnet, mxnet, mxgo; print(mxnet is mxgo)")
    assert res.stdout.strip() == "True", res.stderr
