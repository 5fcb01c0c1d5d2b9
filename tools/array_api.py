"""The Array API conformance suite (data-apis' array-api-tests) against mxgo.np, or another namespace.

    python tools/array_api.py [--module mxgo|numpy|array_api_strict|EXPR] [--max-examples N] [--seed S]
                              [--xfails FILE] [--tests PATH ...] [-- PYTEST_ARGS ...]

The suite sits unmodified in ../shared/array-api-tests (its PROVENANCE.md); it writes caches,
so it runs from a copy in build/array-api-tests, made once (again when PROVENANCE.md changes).
Each run starts in a scratch folder without Hypothesis' example database (which it keeps in
the working folder), with tools/array_api_plugin.py (Python's random seeded per test; failing
examples not shrunk unless --shrink), and Hypothesis' deadline (800 ms a test) off, a timing
on a shared machine and no part of the standard: a seed and a budget give one result, and
runs may overlap.
``--module`` is ARRAY_API_TESTS_MODULE: a short name of MODULES or the suite's own form (a
module name, or ``exec('...; xp = ...')``). mxgo's runs take tests_py/array_api_xfails.txt as
the suite's --xfails-file (its deliberate departures); other modules none unless given.

It prints one line (module, counts, wall time) and writes build/array_api/<name>.json and .md
(the counts, the failing test ids); it exits 1 when a test failed or errored, 2 when the
namespace cannot be imported or the suite's requirements are missing. With ``--min-passed N``
failures are allowed as long as at least N tests pass: the ratchet `make test` holds mx.np to
while it does not conform yet (the README's figure; raise N with every gain).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT.parent / "shared" / "array-api-tests"
COPY = ROOT / "build" / "array-api-tests"
OUT = ROOT / "build" / "array_api"
MXGO_XFAILS = ROOT / "tests_py" / "array_api_xfails.txt"

#: short names for --module: NumPy 2.x's own namespace is the standard's (numpy.array_api is gone)
MODULES = {
    "mxgo": "exec('import mxgo; xp = mxgo.np')",
    "numpy": "numpy",
    "array_api_strict": "array_api_strict",
}
#: the suite's requirements (its requirements.txt), by import name
REQUIRES = ("pytest", "hypothesis", "ndindex", "pytest_jsonreport")
OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped", "error")

# Imports the namespace as the suite does (array_api_tests/__init__.py), to fail early and clearly.
_PROBE = """
import importlib, os, sys
spec = os.environ["ARRAY_API_TESTS_MODULE"]
try:
    if spec.startswith("exec('") and spec.endswith("')"):
        ns = {}
        exec(spec[6:-2], ns)
        ns["xp"]
    else:
        importlib.import_module(spec.split(".")[0])
except Exception as e:
    sys.exit("%s: %s" % (type(e).__name__, e))
"""


PLUGIN = ROOT / "tools" / "array_api_plugin.py"
PLUGIN_NAME = "_mxgo_array_api_plugin"  # its name in the run (a scratch folder on sys.path)


def fail(message):
    """Exit 2: the suite could not run (as opposed to 1, tests that failed)."""
    print("array_api: " + message, file=sys.stderr)
    raise SystemExit(2)


def ensure_copy(suite=SUITE, copy=COPY):
    """Copy the suite to ``copy`` unless a copy of this version is there; writable (shared/ may not be)."""
    if not (suite / "array_api_tests").is_dir():
        fail("no Array API suite at %s (see its PROVENANCE.md)" % suite)
    stamp = copy / "PROVENANCE.md"
    if stamp.is_file() and stamp.read_bytes() == (suite / "PROVENANCE.md").read_bytes():
        return copy
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(suite, copy, ignore=shutil.ignore_patterns(".git", "__pycache__", ".hypothesis"))
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    return copy


def module_expr(name):
    """ARRAY_API_TESTS_MODULE for a short name or an expression; and a file-name-safe label."""
    expr = MODULES.get(name, name)
    label = name if name in MODULES else re.sub(r"[^A-Za-z0-9_.]+", "_", name).strip("_") or "module"
    return expr, label


def check_importable(env, hint=""):
    """Exit 2 with the reason when the suite's requirements or the namespace cannot be imported."""
    missing = [m for m in REQUIRES if subprocess.run([sys.executable, "-c", "import " + m], capture_output=True).returncode]
    if missing:
        fail("%s lacks %s (the suite's requirements; requirements/peers.txt)" % (sys.executable, ", ".join(missing)))
    probe = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True)
    if probe.returncode:
        fail("cannot import the namespace %s: %s%s" % (env["ARRAY_API_TESTS_MODULE"], last_line(probe.stderr), hint))


def last_line(text):
    lines = text.strip().splitlines()
    return lines[-1].strip() if lines else "(no output)"


def summarize(report):
    """The outcome counts and the ids of failed and errored tests of a pytest-json-report report."""
    counts = {k: report["summary"].get(k, 0) for k in OUTCOMES}
    counts["total"] = report["summary"].get("total", 0)
    bad = sorted(t["nodeid"] for t in report.get("tests", []) if t["outcome"] in ("failed", "error"))
    bad += sorted(c["nodeid"] for c in report.get("collectors", []) if c["outcome"] == "failed")
    return counts, bad


def line(label, counts, wall):
    """The one-line summary."""
    rest = ", ".join("%d %s" % (counts[k], k) for k in OUTCOMES[1:] if counts[k])
    return "array_api %s: %d passed of %d%s in %.0f s" % (
        label, counts["passed"], counts["total"], " (" + rest + ")" if rest else "", wall)


def markdown(result):
    """The summary as Markdown: the command's settings, the counts, the failing tests."""
    rows = ["# Array API conformance: %s" % result["label"], "",
            "`ARRAY_API_TESTS_MODULE=\"%s\"`, --max-examples=%d, --hypothesis-seed=%d, suite %s; %.0f s"
            % (result["module"], result["max_examples"], result["seed"], result["suite"], result["wall_s"]), "",
            "| " + " | ".join(OUTCOMES) + " | total |", "|" + "---|" * (len(OUTCOMES) + 1),
            "| " + " | ".join(str(result["counts"][k]) for k in OUTCOMES) + " | %d |" % result["counts"]["total"]]
    if result["failing"]:
        rows += ["", "Failed or errored:", ""] + ["- `%s`" % t for t in result["failing"]]
    return "\n".join(rows) + "\n"


def suite_version(copy):
    """The suite's commit as its PROVENANCE.md states it."""
    found = re.search(r"at commit (\w+)", (copy / "PROVENANCE.md").read_text())
    return found.group(1) if found else "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--module", default="mxgo", help="%s, or ARRAY_API_TESTS_MODULE's form" % "|".join(MODULES))
    ap.add_argument("--max-examples", type=int, default=25)
    ap.add_argument("--seed", type=int, default=0, help="Hypothesis' seed")
    ap.add_argument("--shrink", action="store_true", help="shrink failing examples (slower where much fails)")
    ap.add_argument("--xfails", type=Path, help="expected failures (default: mxgo's for --module mxgo, else none)")
    ap.add_argument("--api-version", help="ARRAY_API_TESTS_VERSION (default: the namespace's __array_api_version__)")
    ap.add_argument("--tests", nargs="+", default=["array_api_tests"], help="test paths inside the suite")
    ap.add_argument("--suite", type=Path, default=SUITE)
    ap.add_argument("--out", type=Path, default=OUT, help="where the summaries go (default build/array_api)")
    ap.add_argument("--min-passed", type=int, help="pass when at least this many tests pass (a ratchet)")
    ap.add_argument("pytest_args", nargs="*", help="after --: passed to pytest (e.g. --disable-extension fft)")
    args = ap.parse_args(argv)

    expr, label = module_expr(args.module)
    env = dict(os.environ, ARRAY_API_TESTS_MODULE=expr, MXGO_ARRAY_API_SEED=str(args.seed),
               MXGO_ARRAY_API_SHRINK="1" if args.shrink else "0")
    if args.api_version:
        env["ARRAY_API_TESTS_VERSION"] = args.api_version
    check_importable(env, " (mxgo.np, MXNet's NumPy interface, is issue 28's)" if args.module == "mxgo" else "")
    copy = ensure_copy(args.suite)
    xfails = args.xfails or (MXGO_XFAILS if args.module == "mxgo" else None)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    report_path = out / (label + ".report.json")
    cmd = [sys.executable, "-m", "pytest", *(str(copy / t) for t in args.tests), "-q", "-p", "no:cacheprovider", "-p", PLUGIN_NAME,
           "--max-examples=%d" % args.max_examples, "--hypothesis-seed=%d" % args.seed, "--disable-deadline",
           "--json-report", "--json-report-file=%s" % report_path,
           "--json-report-omit", "log", "traceback", "streams", "keywords"]
    if xfails:
        cmd.append("--xfails-file=%s" % Path(xfails).resolve())
    cmd += args.pytest_args
    start = time.monotonic()
    with open(out / (label + ".log"), "w") as log, tempfile.TemporaryDirectory() as scratch:
        shutil.copyfile(PLUGIN, os.path.join(scratch, PLUGIN_NAME + ".py"))  # python -m puts the folder on sys.path
        rc = subprocess.run(cmd, cwd=scratch, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - start
    if not report_path.is_file():
        log = out / (label + ".log")
        fail("pytest exited %d without a report: %s (all of it in %s)" % (rc, last_line(log.read_text()), log))
    counts, failing = summarize(json.loads(report_path.read_text()))
    result = {"label": label, "module": expr, "max_examples": args.max_examples, "seed": args.seed, "shrink": args.shrink,
              "suite": suite_version(copy), "xfails": str(xfails) if xfails else None, "wall_s": round(wall, 1),
              "counts": counts, "failing": failing, "pytest_exit": rc}
    (out / (label + ".json")).write_text(json.dumps(result, indent=1) + "\n")
    (out / (label + ".md")).write_text(markdown(result))
    print(line(label, counts, wall))
    if rc not in (0, 1) or counts["error"]:
        return 1
    if args.min_passed is not None:
        if counts["passed"] < args.min_passed:
            print("array_api: %d passed, fewer than the %d this project has reached (--min-passed)"
                  % (counts["passed"], args.min_passed))
            return 1
        return 0
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
