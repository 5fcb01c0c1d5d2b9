"""The differential cases against the real MXNet 1.9.1: one MXNet 1.x snippet, run once
with ``mx = mxnet`` and once with ``mx = mxgo``, must agree.

Each ``tests_py/mxnet_diff_<area>.py`` module holds ``CASES``, a list of ``Case``;
``test_mxnet_differential.py`` (collected only in .venv-mxnet) runs every one, and
``tools/mxnet_coverage.py`` reads ``names`` to know which MXNet names a case checks.

A module's docstring lists mxgo's intentional departures from MXNet 1.9.1 (its cases leave
them out) under a line starting ``Departures from MXNet 1.9.1``, one item each::

    - nd.name NDArray.method nd.pattern_*: what mxgo does, where MXNet does what
      (continued on lines indented by two spaces)

``departures()`` reads them; the coverage report marks their names (fnmatch patterns)
"implemented, departs", and test_departures.py holds README.md's list to them.
"""
import ast
import dataclasses
import fnmatch
import glob
import importlib.util
import numbers
import os

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))


@dataclasses.dataclass(frozen=True)
class Case:
    """code: MXNet 1.x code that uses ``mx`` and ``np`` (NumPy) and leaves its result in
    ``r``: an NDArray, a Python number or bool, or a tuple/list of them. names: the
    MXNet names it checks, as "nd.<fn>", "nd.random.<fn>", "nd.linalg.<fn>",
    "NDArray.<method or property>". Whether the code raises must agree too; a snippet
    that MXNet refuses checks that mxgo refuses it as well."""
    code: str
    names: tuple
    id: str = ""
    grad: bool = False  # a gradient case (mxnet_diff_grad.py): the coverage report's gradient column

    def label(self):
        return self.id or self.code.splitlines()[-1][:60]


@dataclasses.dataclass(frozen=True)
class Departure:
    """An intentional difference from MXNet 1.9.1: the MXNet names (fnmatch patterns) it
    concerns and what it is."""
    names: tuple
    text: str
    module: str = ""

    def covers(self, name):
        return any(fnmatch.fnmatchcase(name, p) for p in self.names)


DEPARTURES_HEADING = "Departures from MXNet 1.9.1"


def parse_departures(doc, module=""):
    """The Departure items of a docstring (see the module docstring for their form)."""
    out, item, inside = [], None, False
    for line in (doc or "").splitlines() + [""]:
        if line.startswith(DEPARTURES_HEADING):
            inside = True
            continue
        if not inside:
            continue
        if line.startswith("- ") or not line.strip():
            if item:
                names, _, text = " ".join(item).partition(": ")
                if not text or not names.split():
                    raise ValueError("%s: a departure needs 'names: text', got %r" % (module, " ".join(item)))
                out.append(Departure(tuple(names.split()), " ".join(text.split()), module))
            item = [line[2:]] if line.startswith("- ") else None
            if not line.strip():
                inside = False
        elif line.startswith("  ") and item:
            item.append(line.strip())
        else:
            raise ValueError("%s: unexpected line in the departures: %r" % (module, line))
    return out


def departures(folder=_HERE):
    """Every Departure listed in the docstrings of folder's mxnet_diff_<area>.py modules
    (read without importing them: no MXNet or mxgo needed)."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "mxnet_diff_*.py"))):
        with open(path) as f:
            doc = ast.get_docstring(ast.parse(f.read()))
        out += parse_departures(doc, os.path.splitext(os.path.basename(path))[0])
    return out


# ---- running and comparing (test_mxnet_differential.py and tools/mxnet_coverage.py) --------

#: (rtol, atol) by dtype for floating-point results; other dtypes compare exactly
TOLERANCES = {"float16": (1e-2, 1e-3), "float32": (1e-5, 1e-6), "float64": (1e-10, 1e-12),
              "bfloat16": (1e-2, 1e-2), "complex64": (1e-5, 1e-6), "complex128": (1e-10, 1e-12)}



def load_cases(folder=_HERE):
    """(module name, Case) for every case of every mxnet_diff_<area>.py in folder."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "mxnet_diff_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for case in mod.CASES:
            if not isinstance(case, Case):
                raise TypeError("%s.CASES holds %r, not a Case" % (name, case))
            out.append((name, case))
    return out


def run(case, mx):
    """Runs case.code with ``mx`` (the module given) and ``np``: ("value", r) or ("raises", exception)."""
    ns = {"mx": mx, "np": np}
    try:
        exec(compile(case.code, "<case %s>" % case.label(), "exec"), ns)
        if "r" not in ns:
            raise AssertionError("case %r leaves no result in r" % case.label())
        _settle(ns["r"])  # an asynchronous failure is raised here, as part of the case
    except AssertionError:
        raise
    except Exception as err:  # whether it raises is what is compared
        _drain(mx)
        return "raises", err
    return "value", ns["r"]


def _drain(mx):
    """Waits for every operation a failed case pushed: work that failed after the error the
    case raised (a gradient on the same bad input) would otherwise be raised by the next
    case's first wait."""
    try:
        mx.nd.waitall()
    except Exception:  # noqa: BLE001 - that work's error belongs to the failed case
        pass


def _settle(v):
    if _is_ndarray(v):
        v.wait_to_read()
    elif isinstance(v, (list, tuple)):
        for e in v:
            _settle(e)


def _is_ndarray(v):
    return callable(getattr(v, "asnumpy", None)) and hasattr(v, "shape") and hasattr(v, "dtype")


def _family(v):
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, numbers.Integral):
        return "int"
    if isinstance(v, numbers.Real):
        return "float"
    if isinstance(v, numbers.Complex):
        return "complex"
    return None


def _close(want, got, dtype):
    tol = TOLERANCES.get(str(dtype))
    if tol is None:
        return np.array_equal(want, got)
    return np.allclose(want, got, rtol=tol[0], atol=tol[1], equal_nan=True)


def compare(want, got, where="r"):
    """None when got (mxgo's) agrees with want (MXNet's), else why not."""
    if _is_ndarray(want) or _is_ndarray(got):
        if not (_is_ndarray(want) and _is_ndarray(got)):
            return "%s: MXNet gives %s, mxgo %s" % (where, type(want).__name__, type(got).__name__)
        w, g = want.asnumpy(), got.asnumpy()
        if w.dtype != g.dtype or w.shape != g.shape:
            return "%s: MXNet gives %s %s, mxgo %s %s" % (where, w.dtype, w.shape, g.dtype, g.shape)
        if not _close(w, g, w.dtype):
            return "%s: values differ: MXNet %s, mxgo %s" % (where, w.tolist(), g.tolist())
        return None
    if isinstance(want, (list, tuple)) or isinstance(got, (list, tuple)):
        if type(want) is not type(got) or len(want) != len(got):
            return "%s: MXNet gives %r, mxgo %r" % (where, want, got)
        for i, (w, g) in enumerate(zip(want, got)):
            why = compare(w, g, "%s[%d]" % (where, i))
            if why:
                return why
        return None
    fw, fg = _family(want), _family(got)
    if fw or fg:
        if fw != fg:
            return "%s: MXNet gives %r (%s), mxgo %r (%s)" % (where, want, type(want).__name__, got, type(got).__name__)
        dtype = np.asarray(want).dtype if fw in ("float", "complex") else None
        if not _close(np.asarray(want), np.asarray(got), dtype):
            return "%s: MXNet gives %r, mxgo %r" % (where, want, got)
        return None
    if isinstance(want, type) and isinstance(got, type):  # x.dtype: NumPy scalar types
        return None if np.dtype(want) == np.dtype(got) else "%s: MXNet gives %r, mxgo %r" % (where, want, got)
    if want is None or got is None or isinstance(want, str):
        return None if want == got else "%s: MXNet gives %r, mxgo %r" % (where, want, got)
    # anything else (a Context, ...): by its printed form
    return None if repr(want) == repr(got) else "%s: MXNet gives %r, mxgo %r" % (where, want, got)


def check(case, mxnet, mxgo):
    """None when case runs alike with mxnet and mxgo, else what differs."""
    kw, want = run(case, mxnet)
    kg, got = run(case, mxgo)
    if kw != kg:
        return "MXNet %s %s, mxgo %s %s" % (kw, _show(want), kg, _show(got))
    if kw == "raises":
        return None
    return compare(want, got)


def _show(v):
    if isinstance(v, BaseException):
        return "%s(%s)" % (type(v).__name__, str(v).splitlines()[0][:200] if str(v) else "")
    if _is_ndarray(v):
        return "%s %s %s" % (np.dtype(v.dtype), v.shape, v.asnumpy().tolist())
    if isinstance(v, (list, tuple)):
        return "[%s]" % ", ".join(_show(e) for e in v)
    return repr(v)
