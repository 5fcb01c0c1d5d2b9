"""Runs test code in child interpreters, so that a crash, an abort or a hang fails the tests
that caused it instead of killing the whole pytest run.

:func:`run_catalogue` runs the named cases of a catalogue module (a module with a ``CASES``
dict of name -> zero-argument callable, and optionally a ``check_intact()`` called after
every case) in one child process. The child appends "start" and "end" records to a file as
it goes, so when it dies the parent knows which case killed it, records that case as a
crash (with the exit status and the end of stderr) and starts a new child for the rest.

:func:`run_script` runs a script in a fresh interpreter and returns its exit status and
output, for what only a whole process can show (interpreter exit).

Run as ``python isolation.py FOLDER MODULE RESULTS_FILE NAME...`` it is the child.
"""
import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
#: a child that has not finished its cases after this many seconds is hung
CHILD_TIMEOUT = 600
#: the command that starts a fresh interpreter like this one: sys.executable, behind the
#: emulator that runs this one where there is one (tools/aarch64.sh sets MXGO_TEST_EMULATOR:
#: its arm64 root has no binfmt_misc, so an arm64 child must be started through qemu by name)
PYTHON = [*os.environ.get("MXGO_TEST_EMULATOR", "").split(), sys.executable]


class Result:
    __slots__ = ("ok", "detail")

    def __init__(self, ok, detail=""):
        self.ok, self.detail = ok, detail


def _signal_name(code):
    if code < 0:
        try:
            return "killed by %s" % signal.Signals(-code).name
        except ValueError:
            pass
    return "exit status %d" % code


def run_catalogue(module, names, timeout=CHILD_TIMEOUT, where=HERE):
    """{name: Result} for every name, each case run once; the key "<exit>" says whether the
    last child exited cleanly after its cases. ``module`` is imported from folder ``where``."""
    results, pending = {}, list(names)
    while True:
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as log:
            try:
                proc = subprocess.run([*PYTHON, os.path.abspath(__file__), where, module, log.name] + pending,
                                      cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      timeout=timeout)
                status, stderr = proc.returncode, proc.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired as e:  # run() has killed the child
                status, stderr = None, (e.stderr or b"").decode(errors="replace")
            started = None
            for line in log.read().splitlines():
                rec = json.loads(line)
                if rec["event"] == "start":
                    started = rec["name"]
                else:
                    results[rec["name"]] = Result(rec["ok"], rec.get("detail", ""))
                    started = None
        pending = [n for n in pending if n not in results]
        how = "hung (killed after %d s)" % timeout if status is None else _signal_name(status)
        if started is None:  # the child ran every case it was given
            results["<exit>"] = Result(status == 0, "child %s\n%s" % (how, stderr[-4000:]))
            return results
        results[started] = Result(False, "the child process %s during this case\n%s" % (how, stderr[-4000:]))
        pending.remove(started)
        if not pending:
            results["<exit>"] = Result(True)
            return results


def run_script(code, timeout=120, env=None):
    """Runs ``code`` in a fresh interpreter (cwd tests_py); returns (exit status or None when
    it hung, stdout, stderr)."""
    try:
        proc = subprocess.run([*PYTHON, "-c", code], cwd=HERE, capture_output=True, timeout=timeout,
                              env=None if env is None else {**os.environ, **env})
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace")
    return proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")


def _child(where, module, log_path, names):
    sys.path[:0] = [where, HERE]
    catalogue = importlib.import_module(module)
    check = getattr(catalogue, "check_intact", lambda: None)
    with open(log_path, "a") as log:
        def record(**rec):
            log.write(json.dumps(rec) + "\n")
            log.flush()
            os.fsync(log.fileno())  # a crash in the next case must not lose this line

        for name in names:
            record(event="start", name=name)
            try:
                catalogue.CASES[name]()
                check()
            except BaseException:  # noqa: B036 - every failure, SystemExit included, is a result
                record(event="end", name=name, ok=False, detail=traceback.format_exc())
            else:
                record(event="end", name=name, ok=True)


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
