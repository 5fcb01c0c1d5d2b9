"""mxgo.as_mxnet: MXNet code unchanged (``import mxnet`` is mxgo), each case in a fresh
interpreter (the hook changes the import system), with mxnet_thirdparty/ as the MXNet code.
The refusal beside the real MXNet and the same package on MXNet itself: test_mxnet_as_mxnet.py."""
import json
import os
import subprocess

import pytest

from isolation import PYTHON

HERE = os.path.dirname(os.path.abspath(__file__))

#: MXNet 1.9.1's module names and the mxgo module each must be (by attribute path from mxgo)
MODULES = {
    "mxnet": "", "mxnet.nd": "ndarray", "mxnet.ndarray": "ndarray", "mxnet.nd.random": "ndarray.random",
    "mxnet.sym": "symbol", "mxnet.symbol": "symbol", "mxnet.init": "initializer", "mxnet.initializer": "initializer",
    "mxnet.context": "context", "mxnet.random": "random", "mxnet.autograd": "autograd", "mxnet.gluon": "gluon",
    "mxnet.gluon.nn": "gluon.nn", "mxnet.gluon.rnn": "gluon.rnn", "mxnet.gluon.loss": "gluon.loss",
    "mxnet.gluon.data": "gluon.data", "mxnet.gluon.data.vision": "gluon.data.vision",
    "mxnet.gluon.model_zoo.vision": "gluon.model_zoo.vision", "mxnet.optimizer": "optimizer",
    "mxnet.lr_scheduler": "lr_scheduler", "mxnet.metric": "metric", "mxnet.recordio": "recordio",
    "mxnet.test_utils": "test_utils", "mxnet.base": "base", "mxnet.numpy": "numpy",
}


def python(*args, code=None):
    """Runs a fresh interpreter in tests_py/ (mxnet_thirdparty importable); returns its result."""
    argv = [*PYTHON, *(("-c", code) if code else ()), *args]
    return subprocess.run(argv, cwd=HERE, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=HERE))


def run_ok(*args, code=None):
    res = python(*args, code=code)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


IDENTITY = """
import functools, importlib, importlib.util, json, sys, types
import mxgo.as_mxnet
import mxgo

# mxgo's namespaces still to come (np, npx, kv) stand in as empty modules: the aliasing is generic
for alias, target in mxgo.as_mxnet.ALIASES.items():
    if not hasattr(mxgo, alias) and importlib.util.find_spec("mxgo." + target) is None:
        sys.modules["mxgo." + target] = types.ModuleType("mxgo." + target)
expected = {n: functools.reduce(getattr, p.split("."), mxgo) if p else mxgo for n, p in %r.items()}
expected.update({"mxnet." + a: importlib.import_module("mxgo." + t) for a, t in mxgo.as_mxnet.ALIASES.items()})
bad = [n for n, m in expected.items() if importlib.import_module(n) is not m]
from mxnet.gluon import nn
from mxnet import nd, autograd, gluon
import mxnet.gluon.nn as nn2
from mxnet_thirdparty import model
losses = model.train(15)
ours = {id(m) for n, m in sys.modules.items() if n.startswith("mxgo")}
print(json.dumps({
    "bad": bad, "from": [nn is mxgo.gluon.nn, nn2 is nn, nd is mxgo.nd, gluon is mxgo.gluon],
    "twice": sorted(n for n, m in sys.modules.items() if n.split(".")[0] == "mxnet" and id(m) not in ours),
    "specs": sorted(n for n, m in sys.modules.items() if n.startswith("mxgo") and getattr(m.__spec__, "name", n) != n),
    "trained": losses[-1] < losses[0] / 2,
}))
""" % MODULES


def test_import_mxnet_gives_mxgos_own_modules():
    """Every MXNet 1.9.1 name and alias is mxgo's module object, none loaded twice nor renamed,
    and the third-party package trains through them."""
    assert json.loads(run_ok(code=IDENTITY)) == {"bad": [], "from": [True] * 4, "twice": [], "specs": [],
                                                  "trained": True}


@pytest.mark.parametrize("form", ["script", "module"])
def test_python_m_as_mxnet_runs_unchanged_code(form):
    """``python -m mxgo.as_mxnet script.py args`` and ``... -m module args``: argv and __main__ as python's."""
    target = [os.path.join(HERE, "mxnet_thirdparty", "train.py")] if form == "script" else ["-m", "mxnet_thirdparty.train"]
    out = json.loads(run_ok("-m", "mxgo.as_mxnet", *target, "15", "extra"))
    assert out["argv"] == [os.path.join(HERE, "mxnet_thirdparty", "train.py"), "15", "extra"]
    assert out["mx"] == "mxgo" and out["last"] < out["first"] / 2
    if form == "module":  # the script's error is the run's
        res = python("-m", "mxgo.as_mxnet", *target, "not-a-number")
        assert res.returncode == 1 and "ValueError: invalid literal for int()" in res.stderr


def test_python_m_as_mxnet_usage():
    res = python("-m", "mxgo.as_mxnet")
    assert res.returncode == 2 and "usage: python -m mxgo.as_mxnet script.py" in res.stderr


MISSING = """
import sys, mxgo.as_mxnet
for name in ("mxnet.no_such", "mxnet.gluon.no_such.deeper", "mxnet.nd.no_such"):
    try:
        __import__(name)
    except ModuleNotFoundError as e:
        print(e.name, "|", e)
try:
    from mxnet import no_such
except ImportError as e:
    print(type(e).__name__, e.name)
mxgo.as_mxnet.install()  # idempotent
print(sum(getattr(f, "mxgo_as_mxnet", False) for f in sys.meta_path))
"""


def test_a_module_mxgo_lacks_is_named():
    lines = run_ok(code=MISSING).splitlines()
    for line, name, target in zip(lines, ["mxnet.no_such", "mxnet.gluon.no_such", "mxnet.nd.no_such"],
                                  ["mxgo.no_such", "mxgo.gluon.no_such", "mxgo.ndarray.no_such"]):
        assert line == "%s | No module named '%s': mxgo has no such module (no %s; mxgo.as_mxnet maps mxnet's " \
                       "modules to mxgo's)" % (name, name, target)
    assert lines[3:] == ["ImportError mxgo", "1"]


REFUSE = """
import sys, types
sys.modules["mxnet"] = types.ModuleType("mxnet")
try:
    import mxgo.as_mxnet
except ImportError as e:
    print(e)
print(any(getattr(f, "mxgo_as_mxnet", False) for f in sys.meta_path), "mxgo.as_mxnet" in sys.modules)
"""


def test_refuses_when_another_mxnet_is_imported():
    """Another module named mxnet imported first: ImportError naming it, nothing installed."""
    first, state = run_ok(code=REFUSE).splitlines()
    assert first.startswith("mxgo.as_mxnet: the real MXNet (<module 'mxnet'>) is already imported in this process")
    assert state == "False False"


UNINSTALL = """
import sys, mxgo.as_mxnet, mxgo
import mxnet.gluon.nn
mxgo.as_mxnet.uninstall()
names = [n for n in sys.modules if n.split(".")[0] == "mxnet"]
try:
    import mxnet
    other = mxnet is not mxgo
except ModuleNotFoundError:
    other = True
print(names, other, sys.modules["mxgo.gluon.nn"] is mxgo.gluon.nn)
"""


def test_uninstall_leaves_mxgo_and_frees_the_name():
    assert run_ok(code=UNINSTALL).strip() == "[] True True"
