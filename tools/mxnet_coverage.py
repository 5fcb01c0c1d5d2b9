"""How much of MXNet 1.9.1's NDArray API mxgo covers, checked against the real MXNet.

Run in .venv-mxnet (MXNet 1.9.1 and the installed mxgo wheel; `make mxnet-coverage`):

    python tools/mxnet_coverage.py [--out docs/mxnet_coverage.md]

It lists every public callable of MXNet 1.9.1's ``mx.nd``, ``mx.nd.random`` and
``mx.nd.linalg`` and every public ``NDArray`` method and property (with the Python operator
methods MXNet's NDArray defines, such as ``__add__``), runs every differential case of
tests_py/mxnet_diff_*.py (tests_py/mxnet_diff.py: the same code with ``mx = mxnet`` and
``mx = mxgo``), and marks each name:

- "implemented, agrees": mxgo has it, and the cases that name it all agree with MXNet;
- "implemented, departs: <departure>": as "agrees", but mxgo departs from MXNet on purpose
  somewhere for it: a departure listed in a tests_py/mxnet_diff_*.py docstring (whose cases
  leave it out) names it, and README.md's "Departures from MXNet 1.x" lists it;
- "implemented, FAILS": mxgo has it and a case that names it disagrees with MXNet;
- "implemented, no differential case": mxgo has it, no case names it;
- "out of scope: <reason>": a name of OUT_OF_SCOPE below (unless mxgo has it);
- "missing".

It writes a Markdown table with a summary line and exits 1 when a name marked implemented
has a failing case (or a case or a departure names something MXNet does not have).
"""
import argparse
import fnmatch
import os
import sys
import types

import mxnet

import mxgo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests_py"))
from mxnet_diff import check, departures, load_cases  # noqa: E402

import grad_coverage  # noqa: E402

#: what is out of scope for now, and why (issue 14): reason -> name patterns (fnmatch)
OUT_OF_SCOPE = {
    "sparse storage types": ["nd.cast_storage", "NDArray.stype", "NDArray.tostype"],
    "contrib": ["nd.contrib*"],
    "image": ["nd.imdecode", "nd.image*"],
    "Gluon and custom operators (mx.autograd.Function is mxgo's custom step)": [
        "nd.CachedOp", "nd.Custom", "nd.MakeLoss", "nd.make_loss", "nd.IdentityAttachKLSparseReg"],
    "autograd and Gluon: mixed-precision training": ["nd.amp_cast", "nd.amp_multicast"],
    "CUDA-only operators": ["nd.CuDNN*", "nd.*_cudnn*"],
    "MXNet's indexing internals, not API": ["nd.get_indexing_dispatch_code", "nd.indexing_key_expand_implicit_axes",
                                            "nd.get_oshape_of_gather_nd_op", "NDArray.slice_assign",
                                            "NDArray.slice_assign_scalar"],
    "the mx.np namespace (not part of mx.nd)": ["NDArray.as_np_ndarray", "NDArray.as_nd_ndarray"],
    "pickling internals: mxgo pickles through __reduce_ex__ (tests_py/test_pickle.py)": [
        "NDArray.__getstate__", "NDArray.__setstate__", "NDArray.__reduce__"],
    "Python 2 only": ["NDArray.__nonzero__", "NDArray.__div__", "NDArray.__rdiv__", "NDArray.__idiv__"],
    "uncallable in MXNet 1.9.1's mx.nd (it wants 5 arrays and its front end passes at most 3: no code can use it)": [
        "nd.BatchNorm_v1"],
}

#: MXNet's NDArray dunders that are data, not API
_NOT_METHODS = {"__module__", "__doc__", "__slots__", "__array_priority__"}


def mxnet_names():
    """Every name the report covers, as "nd.<fn>", "nd.random.<fn>", "nd.linalg.<fn>", "NDArray.<attr>"."""
    names = []
    for prefix, mod in (("nd.", mxnet.nd), ("nd.random.", mxnet.nd.random), ("nd.linalg.", mxnet.nd.linalg)):
        for n in dir(mod):
            v = getattr(mod, n)
            if n.startswith("_") or isinstance(v, types.ModuleType) or not callable(v):
                continue
            if prefix != "nd." and n in ("NDArray", "current_context"):  # imported there, not its API
                continue
            names.append(prefix + n)
    cls = mxnet.nd.NDArray
    names += ["NDArray." + n for n in dir(cls) if not n.startswith("_")]
    names += ["NDArray." + n for n in cls.__dict__ if n.startswith("__") and n not in _NOT_METHODS]
    return sorted(set(names))


def resolve(root, name):
    """The object ``name`` names under ``root`` (the mxnet or the mxgo module), or None."""
    if name.startswith("NDArray."):
        cls = root.nd.NDArray
        attr = name[len("NDArray."):]
        v = getattr(cls, attr, None)
        if attr.startswith("__") and v is not None and v is getattr(object, attr, None):
            return None  # object's own (__eq__, __hash__ ...), not the array's
        return v
    obj = root
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def out_of_scope(name):
    for reason, patterns in OUT_OF_SCOPE.items():
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return reason
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "docs", "mxnet_coverage.md"))
    args = ap.parse_args()

    results = {}  # name -> [passed, failed]
    grads = {}  # name -> gradient cases (all agree, or the name fails above)
    failures = []
    unknown = []
    cases = load_cases()
    for module, case in cases:
        why = check(case, mxnet, mxgo)
        if why:
            failures.append((module, case, why))
        for n in case.names:
            if resolve(mxnet, n) is None:
                unknown.append((module, case.label(), n))
            results.setdefault(n, [0, 0])[1 if why else 0] += 1
            if case.grad:
                grads[n] = grads.get(n, 0) + 1

    rows = []
    counts = {}
    gcounts = {}
    bad = []
    deps = departures()
    names = mxnet_names()
    for d in deps:
        if not any(d.covers(n) for n in names):
            unknown.append((d.module, "departure " + " ".join(d.names), " ".join(d.names)))
    for n in names:
        has = resolve(mxgo, n) is not None
        passed, failed = results.get(n, (0, 0))
        reason = out_of_scope(n)
        departs = [d.text for d in deps if d.covers(n)]
        if has and failed:
            mark = "implemented, FAILS (%d of %d cases)" % (failed, passed + failed)
            key = "implemented, fails"
            bad.append(n)
        elif has and departs:
            mark, key = "implemented, departs: " + " / ".join(departs), "implemented, departs"
        elif has and passed:
            mark = key = "implemented, agrees"
        elif has:
            mark = key = "implemented, no differential case"
        elif reason:
            mark, key = "out of scope: " + reason, "out of scope"
        else:
            mark = key = "missing"
        counts[key] = counts.get(key, 0) + 1
        gmark, gkey = grad_coverage.status(n, grads) if key != "out of scope" else ("", "")
        if gkey:
            gcounts[gkey] = gcounts.get(gkey, 0) + 1
        rows.append((n, mark, passed + failed, gmark))

    total = len(rows)
    in_scope = total - counts.get("out of scope", 0)
    summary = ("%d MXNet 1.9.1 names: %d in scope, of which %d implemented and agreeing, %d implemented and agreeing "
               "but for a listed departure, %d implemented without a differential case, %d implemented and failing, "
               "%d missing; %d out of scope. %d differential cases, %d failing; %d departures."
               % (total, in_scope, counts.get("implemented, agrees", 0), counts.get("implemented, departs", 0),
                                counts.get("implemented, no differential case", 0), counts.get("implemented, fails", 0),
                                counts.get("missing", 0), counts.get("out of scope", 0), len(cases), len(failures),
                                len(deps)))
    summary += (" Gradients (%d cases, all agreeing with MXNet's backward), of the names in scope: %d with cases of "
                "their own, %d through the same operator under another name, %d with no gradient to compare, %d "
                "without a gradient case yet." % (sum(1 for _, c in cases if c.grad), gcounts.get("cases", 0),
                                                  gcounts.get("as another name", 0), gcounts.get("not applicable", 0),
                                                  gcounts.get("none yet", 0)))

    lines = ["# mxgo against MXNet 1.9.1's `mx.nd`", "",
             "Written by `make mxnet-coverage` (tools/mxnet_coverage.py, in .venv-mxnet); do not edit.", "",
             summary, "",
             "Out of scope for now, and why:", "", "| reason | names |", "|---|---|"]
    for reason, patterns in OUT_OF_SCOPE.items():
        lines.append("| %s | %s |" % (reason, " ".join("`%s`" % p for p in patterns)))
    lines += ["", "Intentional departures from MXNet 1.9.1 (README.md, \"Departures from MXNet 1.x\"), by the "
              "differential module whose docstring lists them:", "", "| names | departure | module |", "|---|---|---|"]
    for d in deps:
        lines.append("| %s | %s | %s |" % (" ".join("`%s`" % p for p in d.names), d.text, d.module))
    lines += ["", "The gradient column counts the cases (tests_py/mxnet_diff_grad*.py) that record the name "
              "under `mx.autograd.record()` and compare every input's gradient with MXNet's; \"as\" names the "
              "same operator's cases, \"n/a\" a name with no gradient to compare (tools/grad_coverage.py says why).",
              "", "| name | status | differential cases | gradient |", "|---|---|---|---|"]
    for n, mark, ncases, gmark in rows:
        lines.append("| `%s` | %s | %s | %s |" % (n, mark, ncases or "", gmark))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")

    print(summary)
    for module, case, why in failures:
        print("FAIL %s %s: %s" % (module, case.label(), why.splitlines()[0][:300]), file=sys.stderr)
    for module, label, n in unknown:
        print("UNKNOWN %s %s: MXNet 1.9.1 has no %s" % (module, label, n), file=sys.stderr)
    if bad:
        print("implemented names with failing cases: %s" % " ".join(bad), file=sys.stderr)
    return 1 if bad or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
