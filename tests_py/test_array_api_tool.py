"""tools/array_api.py, the runner of the Array API conformance suite (make array-api): its copy of
the suite, its counts and expected failures, its refusals; on NumPy with two constants broken."""
import importlib.util
import json
import os
import random
import subprocess

from isolation import PYTHON

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "tools", "array_api.py")


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


array_api = load("array_api_tool", TOOL)
plugin = load("array_api_plugin", os.path.join(HERE, "..", "tools", "array_api_plugin.py"))

# NumPy's namespace with a wrong pi and inf: one test each fails
BROKEN = "exec('import types, numpy; xp = types.ModuleType(\"xp\"); vars(xp).update(vars(numpy)); xp.pi = 3.0; xp.inf = 1e300')"
PI = "array_api_tests/test_constants.py::test_irrational_numbers[pi-3.141592653589793]"


def tool(*args):
    return subprocess.run([*PYTHON, TOOL, *args], capture_output=True, text=True, timeout=600)


def test_counts_failures_and_expected_failures(tmp_path):
    """pi listed as expected to fail (xfailed), inf not (failed: exit 1), the summaries written."""
    xfails = tmp_path / "xfails.txt"
    xfails.write_text("# pi: broken on purpose\n" + PI + "\n")
    res = tool("--module", BROKEN, "--xfails", str(xfails), "--max-examples", "2", "--seed", "3", "--out", str(tmp_path),
               "--tests", "array_api_tests/test_constants.py")
    assert res.returncode == 1, res.stdout + res.stderr
    label = array_api.module_expr(BROKEN)[1]
    assert res.stdout.startswith("array_api %s: 3 passed of 5 (1 failed, 1 xfailed) in " % label)
    summary = tmp_path / (label + ".json")
    result = json.loads(summary.read_text())
    assert result["counts"] == {"passed": 3, "failed": 1, "xfailed": 1, "xpassed": 0, "skipped": 0, "error": 0, "total": 5}
    assert result["failing"] == ["array_api_tests/test_constants.py::test_inf"]
    assert (result["module"], result["max_examples"], result["seed"]) == (BROKEN, 2, 3)
    assert "| 3 | 1 | 1 | 0 | 0 | 0 | 5 |" in summary.with_suffix(".md").read_text()


def test_refuses_a_namespace_it_cannot_import():
    res = tool("--module", "exec('import mxgo; xp = mxgo.no_such')")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == ("array_api: cannot import the namespace exec('import mxgo; xp = mxgo.no_such'): "
                          "AttributeError: module 'mxgo' has no attribute 'no_such'\n")


def test_copies_the_suite_once_and_writable(tmp_path):
    """A read-only suite (shared/ in CI) is copied writable; again only when its PROVENANCE.md changes."""
    suite, copy = tmp_path / "suite", tmp_path / "copy"
    (suite / "array_api_tests").mkdir(parents=True)
    (suite / "PROVENANCE.md").write_text("at commit 55fcc60\n")
    (suite / "array_api_tests" / "test_x.py").write_text("")
    for p in (suite / "array_api_tests" / "test_x.py", suite / "array_api_tests", suite / "PROVENANCE.md"):
        p.chmod(0o555 if p.is_dir() else 0o444)
    array_api.ensure_copy(suite, copy)
    assert all(p.stat().st_mode & 0o200 for p in (copy, copy / "array_api_tests", copy / "array_api_tests" / "test_x.py"))
    assert array_api.suite_version(copy) == "55fcc60"
    (copy / "array_api_tests" / "cache").write_text("")  # what a run leaves
    array_api.ensure_copy(suite, copy)
    assert (copy / "array_api_tests" / "cache").exists()
    (suite / "PROVENANCE.md").chmod(0o644)
    (suite / "PROVENANCE.md").write_text("at commit 1234567\n")
    array_api.ensure_copy(suite, copy)
    assert not (copy / "array_api_tests" / "cache").exists() and array_api.suite_version(copy) == "1234567"


def test_seeds_pythons_random_per_test(monkeypatch):
    """The plugin hook: the same draws for a test id and seed whatever ran before, others for another."""
    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

    def draws(seed, nodeid):
        monkeypatch.setenv(plugin.SEED_VAR, str(seed))
        plugin.pytest_runtest_setup(Item(nodeid))
        return [random.random() for _ in range(3)]

    first = draws(0, PI)
    random.random()
    assert draws(0, PI) == first and draws(1, PI) != first and draws(0, PI + "x") != first
