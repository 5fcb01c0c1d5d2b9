#!/usr/bin/env python3
"""Checks that the Python package pysrc/mxgo imports in one direction, the order its
package docstrings write down (part of `make lint`).

1. Every import is a statement of its module's top level: none inside a function, a class,
   an ``if`` or a ``try``, where imports hide a cycle (a module importing one that imports
   it) or a dependency. ALLOWED_LOCAL lists the exceptions, each an optional dependency.
2. Each package's docstring writes its order after a line starting "Import order", as
   ``a, b ← c ← d`` (names of its modules and subpackages; a comma joins names of one
   tier). Every module and subpackage of the package must be in it, and a module may
   import, from the package that holds both, only names of an earlier tier (or what
   those hold). A package's __init__ stands after everything it holds.

Stubs (.pyi) are not checked: they are read by type checkers, which need no order.
Exits 1 naming every violation; ``--self-test`` shows that each rule catches what it is for.
"""
import ast
import os
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pysrc")
PACKAGE = "mxgo"
#: modules in the written order that pysrc does not hold (the build generates them)
GENERATED = {"mxgo._gen"}
#: (module, imported module) pairs allowed below the top level: optional dependencies only
ALLOWED_LOCAL = {
    ("mxgo.base", "ml_dtypes"),  # NumPy's bfloat16 where ml_dtypes is installed (JAX brings it)
    ("mxgo.kvstore.engine", "torch.distributed"),  # the 'dist' stores' collectives, only when one is made
    ("mxgo.kvstore.engine", "torch.utils.dlpack"),
}
ARROW = "\u2190"  # ←


def modules(root):
    """{dotted name: (path, is_package)} of every .py module under root/PACKAGE."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, PACKAGE)):
        dirnames[:] = sorted(d for d in dirnames if os.path.isfile(os.path.join(dirpath, d, "__init__.py")))
        rel = os.path.relpath(dirpath, root).split(os.sep)
        for f in sorted(filenames):
            if f.endswith(".py"):
                name = ".".join(rel) if f == "__init__.py" else ".".join(rel + [f[:-3]])
                found[name] = (os.path.join(dirpath, f), f == "__init__.py")
    return found


def written_order(pkg, doc):
    """{child name: tier} from the "Import order" paragraph of package pkg's docstring."""
    lines = (doc or "").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("Import order")), None)
    if start is None:
        return None
    chain = []  # the lines of the paragraph after it
    for line in lines[start + 1:]:
        if line.strip():
            chain.append(line.strip())
        elif chain:
            break
    order = {}
    for tier, names in enumerate(" ".join(chain).split(ARROW)):
        for n in names.split(","):
            if n.strip():
                order[pkg + "." + n.strip()] = tier
    return order


def imports(name, is_package, tree, known):
    """(line, imported module, whether at the top level) of every import in module name:
    ``from P import n`` imports module P.n where there is one, else P."""
    pkg = name if is_package else name.rpartition(".")[0]
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for a in node.names:
                sub = base + "." + a.name
                yield node.lineno, sub if sub in known else base, id(node) in top


def check(root):
    problems = []
    found = modules(root)
    known = set(found) | GENERATED
    orders = {}
    for name, (path, is_package) in found.items():
        if not is_package:
            continue
        with open(path) as f:
            order = written_order(name, ast.get_docstring(ast.parse(f.read())))
        children = {m for m in known if m.rpartition(".")[0] == name}
        if order is None:
            if children:
                problems.append("%s: its docstring writes no 'Import order' of %s" % (path, ", ".join(sorted(children))))
            continue
        for m in sorted(children - set(order)):
            problems.append("%s: %s is not in the package's written import order: give it its place" % (path, m))
        for m in sorted(set(order) - children):
            problems.append("%s: the written import order names %s, which does not exist" % (path, m))
        orders[name] = order

    for name, (path, is_package) in sorted(found.items()):
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for line, target, at_top in imports(name, is_package, tree, known):
            where = "%s:%d" % (os.path.relpath(path, os.path.join(root, "..")), line)
            if not at_top and (name, target) not in ALLOWED_LOCAL:
                problems.append("%s: %s imports %s below its top level (in a function, class, if or try): import "
                                "at the top, in the written order, or list an optional dependency in ALLOWED_LOCAL"
                                % (where, name, target))
            if target != PACKAGE and not target.startswith(PACKAGE + "."):
                continue
            problems += order_problems(where, name, is_package, target, orders)
    return list(dict.fromkeys(problems))  # once each (``from .m import a, b`` names m twice)


def order_problems(where, name, is_package, target, orders):
    """What is wrong with module name importing target under the packages' written orders."""
    mine, theirs = name.split("."), target.split(".")
    common = 0
    while common < min(len(mine), len(theirs)) and mine[common] == theirs[common]:
        common += 1
    if common == len(theirs):  # target is name itself or a package holding it
        if is_package and common == len(mine):
            return []
        return ["%s: %s imports %s, a package that holds it (whose __init__ imports after it)" % (where, name, target)]
    if common == len(mine):  # a package's __init__ imports what it holds
        return []
    pkg = ".".join(mine[:common])
    a, b = pkg + "." + mine[common], pkg + "." + theirs[common]
    order = orders.get(pkg)
    if order is None or a not in order or b not in order:
        return []  # reported above: a package without its order, or a module out of it
    if order[b] >= order[a]:
        return ["%s: %s imports %s, but %s's written import order puts %s %s %s"
                % (where, name, target, pkg, b.rpartition(".")[2],
                   "beside" if order[b] == order[a] else "after", a.rpartition(".")[2])]
    return []


# ---------------------------------------------------------------------------- self-test

#: case -> (files replacing or joining BASE_TREE's, what the report must say; None: nothing)
SELF_TEST = {
    "ok": ({}, None),
    "local import": ({"mxgo/pkg/b.py": "import os\n\ndef f():\n    from .a import x\n    return x\n"},
                     "mxgo.pkg.b imports mxgo.pkg.a below its top level"),
    "import in try": ({"mxgo/pkg/b.py": "try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"},
                      "mxgo.pkg.b imports numpy below its top level"),
    "upward import": ({"mxgo/pkg/a.py": "from .b import y\nx = 1\n"}, "puts b after a"),
    "same tier": ({"mxgo/pkg/__init__.py": '"""Import order:\n\n    a, b\n"""\n', "mxgo/pkg/b.py": "from .a import x\ny = 1\n"},
                  "puts a beside b"),
    "upward across packages": ({"mxgo/base.py": "from .pkg.a import x\n"}, "mxgo's written import order puts pkg after base"),
    "own package": ({"mxgo/pkg/a.py": "from .. import pkg\n"}, "imports mxgo.pkg, a package that holds it"),
    "unplaced module": ({"mxgo/pkg/c.py": "x = 1\n"}, "mxgo.pkg.c is not in the package's written import order"),
    "stale order": ({"mxgo/pkg/__init__.py": '"""Import order:\n\n    a \u2190 b \u2190 gone\n"""\n'}, "names mxgo.pkg.gone"),
    "no order": ({"mxgo/__init__.py": '"""mxgo."""\nfrom . import base\n'}, "writes no 'Import order'"),
}
BASE_TREE = {
    "mxgo/__init__.py": '"""Import order:\n\n    _gen \u2190 base \u2190 pkg\n"""\nfrom . import pkg\n',
    "mxgo/base.py": "import ctypes\n\nfrom ._gen import core\n\n\ndef bf16():\n    import ml_dtypes\n    return ml_dtypes\n",
    "mxgo/pkg/__init__.py": '"""Import order:\n\n    a \u2190 b\n"""\nfrom .b import y\n',
    "mxgo/pkg/a.py": "from ..base import core\nx = 1\n",
    "mxgo/pkg/b.py": "from .a import x\nfrom .. import base\ny = x\n",
}


def self_test():
    failures = []
    for case, (files, expected) in SELF_TEST.items():
        with tempfile.TemporaryDirectory() as root:
            for rel, text in {**BASE_TREE, **files}.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
            problems = check(root)
        if expected is None and problems or expected is not None and not any(expected in p for p in problems):
            failures.append("%s: expected %s, got %s" % (case, expected or "nothing", problems or "nothing"))
    for f in failures:
        print("check_pyimports.py --self-test: " + f, file=sys.stderr)
    if failures:
        sys.exit(1)
    print("check_pyimports.py --self-test: %d cases ok" % len(SELF_TEST))


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check(ROOT)
    for p in problems:
        print("check_pyimports.py: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check_pyimports.py: %d modules of pysrc/mxgo import in their written order, none below its top level"
          % len(modules(ROOT)))


if __name__ == "__main__":
    main()
