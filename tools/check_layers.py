#!/usr/bin/env python3
"""Checks that mxgo's Go packages import in one direction and that only pybridge knows
CPython (part of `make lint`).

Each package of pkg/ and internal/ has a layer (below); a package may import only
packages of lower layers. A package missing from the table fails the check, so a new
package must be placed. No package but pybridge may have a C file, header or cgo
preamble that includes Python.h. Reads `go list -json ./pkg/... ./internal/...`; exits 1
naming every violation.
"""
import json
import os
import re
import subprocess
import sys

MODULE = "github.com/mxgo/mxgo/"
#: the operator families under pkg/ops: each registers its operators and imports the core
#: (and the shared kernels of layer 2.5), never another family
FAMILIES = ["elemwise", "layout", "linalg", "nn", "optim", "random", "reduce", "sorting"]
#: package (relative to the module) -> layer; imports must go to lower layers
LAYERS = {
    "pkg/proc": -1,  # the process's facts (fork, environment): imports nothing
    "pkg/mxerr": 0, "pkg/device": 0, "pkg/cmem": 0, "pkg/engine": 0, "internal/simd": 0,
    "pkg/device/cuda": 0.5,  # imports mxerr and proc; ndarray allocates through it
    "pkg/ndarray": 1,
    # the operator core (registry, attributes, invocation, engine glue, typed loops)
    "pkg/ops": 2, "pkg/dlpack": 2, "pkg/dlpack/dlpacktest": 2, "pkg/wire": 2, "pkg/ndfile": 2, "pkg/imgcodec": 2,
    # kernels that more than one family calls: the unary table (elemwise, nn's Activation)
    # and the batched GEMM (linalg's dot, nn's FullyConnected and Convolution)
    "pkg/ops/unary": 2.5, "pkg/ops/gemm": 2.5,
    # operator families: one layer, so that no family imports another
    **{"pkg/ops/" + f: 3 for f in FAMILIES},
    "pkg/autograd": 3,  # the tape: above the ops core, beside (never importing) the families
    "pkg/ops/all": 3.5,  # the blank-import list of the families a build contains
    "pkg/tvmffi": 4,
    "pkg/pybridge": 5,
}
FAMILY_PATHS = {"pkg/ops/" + f for f in FAMILIES}
PYTHON_H = re.compile(r'#\s*include\s*[<"]Python\.h[>"]')
CPYTHON_OK = {"pkg/pybridge"}


def packages():
    out = subprocess.run(["go", "list", "-json", "./pkg/...", "./internal/..."], check=True, capture_output=True, text=True).stdout
    dec, pos = json.JSONDecoder(), 0
    while pos < len(out):
        while pos < len(out) and out[pos].isspace():
            pos += 1
        if pos == len(out):
            break
        pkg, pos = dec.raw_decode(out, pos)
        yield pkg


def main():
    problems = []
    for pkg in packages():
        name = pkg["ImportPath"].removeprefix(MODULE)
        layer = LAYERS.get(name)
        if layer is None:
            problems.append("%s is not in tools/check_layers.py's LAYERS: give it a layer" % name)
            continue
        for imp in pkg.get("Imports", []):
            if imp.startswith(MODULE):
                dep = imp.removeprefix(MODULE)
                if name in FAMILY_PATHS and dep in FAMILY_PATHS:
                    problems.append("%s imports %s: an operator family never imports another; move the shared "
                                    "helper down into pkg/ops or a shared kernel package" % (name, dep))
                elif LAYERS.get(dep, layer) >= layer:
                    problems.append("%s (layer %s) imports %s (layer %s): imports go to lower layers only"
                                    % (name, layer, dep, LAYERS.get(dep)))
        if name in CPYTHON_OK:
            continue
        for f in pkg.get("CFiles", []) + pkg.get("HFiles", []) + pkg.get("CgoFiles", []):
            with open(os.path.join(pkg["Dir"], f)) as src:
                if PYTHON_H.search(src.read()):
                    problems.append("%s/%s includes Python.h: only pkg/pybridge may know CPython" % (name, f))
    for p in problems:
        print("check_layers.py: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check_layers.py: %d packages, imports go one way, CPython only in pybridge" % len(LAYERS))


if __name__ == "__main__":
    main()
