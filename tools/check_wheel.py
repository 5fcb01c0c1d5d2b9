#!/usr/bin/env python3
"""Check the contents of a built mxgo wheel.

Usage: python tools/check_wheel.py dist/mxgo-*.whl

The wheel must be a cp3X platform wheel holding the hand-written package and the
generated extension (mxgo/_gen: __init__.py, pybridge.py, go.py, one _mxcore*.so),
and nothing of the build machinery (gen/_out's C/Go/header files, build/tools).
"""
import re
import sys
import zipfile

REQUIRED = ["mxgo/__init__.py", "mxgo/_gen/__init__.py", "mxgo/_gen/pybridge.py", "mxgo/_gen/go.py"]
GEN_FILES = {"__init__.py", "pybridge.py", "go.py"}  # plus the one extension module
FORBIDDEN = re.compile(r"(^|/)(gen|build|_out)/|\.(go|c|h|o|a)$|(^|/)(gopy|goimports)$")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    errors = []
    if not re.search(r"-cp3\d+-cp3\d+-linux_x86_64\.whl$", path):
        errors.append("not a CPython linux_x86_64 platform wheel: %s" % path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
    for name in REQUIRED:
        if name not in names:
            errors.append("missing %s" % name)
    sos = [n for n in names if n.endswith(".so")]
    if len(sos) != 1 or not re.fullmatch(r"mxgo/_gen/_mxcore\.cpython-3\d+-x86_64-linux-gnu\.so", sos[0]):
        errors.append("expected exactly one mxgo/_gen/_mxcore.cpython-3X-x86_64-linux-gnu.so, found %s" % sos)
    for name in names:
        if ".dist-info/" in name:
            continue
        if not name.startswith("mxgo/"):
            errors.append("file outside the mxgo package: %s" % name)
        elif FORBIDDEN.search(name):
            errors.append("build artefact in the wheel: %s" % name)
        elif name.startswith("mxgo/_gen/") and name not in sos and name[len("mxgo/_gen/"):] not in GEN_FILES:
            errors.append("unexpected file in mxgo/_gen: %s" % name)
    if errors:
        for e in errors:
            print("check_wheel.py: %s" % e, file=sys.stderr)
        sys.exit(1)
    print("check_wheel.py: %s ok (%d files, extension %s)" % (path, len(names), sos[0]))


if __name__ == "__main__":
    main()
