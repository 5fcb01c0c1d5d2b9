#!/usr/bin/env python3
"""Check a built mxgo wheel.

Usage: python tools/check_wheel.py [--python PY] dist/mxgo-*.whl

The wheel must be a cp3X platform wheel (linux_x86_64, or manylinux_2_17 for x86_64 or
aarch64) holding the hand-written package and the generated extension (mxgo/_gen:
__init__.py, pybridge.py, go.py, one _mxcore*.so), and nothing of the build machinery
(gen/_out's C/Go/header files, build/tools). Its extension must carry no RUNPATH or
RPATH (the build machine's paths), and for a manylinux_2_17 tag need no glibc symbol
newer than 2.17. With --python, every Python C API symbol the extension leaves undefined
must be exported by that interpreter (its libpython, or the executable itself): the
check that catches a symbol a CPython release renamed or removed.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile

REQUIRED = ["mxgo/__init__.py", "mxgo/_gen/__init__.py", "mxgo/_gen/pybridge.py", "mxgo/_gen/go.py"]
GEN_FILES = {"__init__.py", "pybridge.py", "go.py"}  # plus the one extension module
FORBIDDEN = re.compile(r"(^|/)(gen|build|_out)/|\.(go|c|h|o|a)$|(^|/)(gopy|goimports)$")
# auditwheel names a manylinux_2_17 wheel with its legacy alias too: manylinux2014_x86_64.manylinux_2_17_x86_64
WHEEL_NAME = re.compile(r"-cp3\d+-cp3\d+-(?:manylinux2014_\w+\.)?(linux_x86_64|manylinux_(\d+)_(\d+)_(x86_64|aarch64))\.whl$")


def tool(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def glibc_versions(so):
    """The GLIBC_x.y versions the extension's symbols need."""
    return {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", tool("objdump", "-T", so))}


def python_exports(python):
    """The dynamic symbols interpreter python defines (in libpython when it is shared)."""
    info = subprocess.run([python, "-c", "import sys, sysconfig as s; print(sys.executable); "
                           "print(s.get_config_var('Py_ENABLE_SHARED') or 0); print(s.get_config_var('LIBDIR')); "
                           "print(s.get_config_var('LDLIBRARY'))"], check=True, capture_output=True, text=True)
    exe, shared, libdir, ldlibrary = info.stdout.split("\n")[:4]
    target = os.path.join(libdir, ldlibrary) if int(shared) else exe
    return {line.split()[-1].split("@")[0] for line in tool("nm", "-D", "--defined-only", target).splitlines()
            if line.strip()}


def check_extension(so, tag, python, errors):
    for line in tool("readelf", "-d", so).splitlines():
        if "(RUNPATH)" in line or "(RPATH)" in line:
            errors.append("the extension has a search path of the build machine: %s" % line.split(":", 1)[-1].strip())
    m = WHEEL_NAME.search(tag)
    if m and m.group(2):
        limit = (int(m.group(2)), int(m.group(3)))
        newer = sorted(v for v in glibc_versions(so) if v > limit)
        if newer:
            errors.append("tagged %s but needs GLIBC_%s" % (m.group(1), ".".join(map(str, newer[-1]))))
    if python:
        undefined = {line.split()[-1].split("@")[0] for line in tool("nm", "-D", "--undefined-only", so).splitlines()
                     if line.strip()}
        exported = python_exports(python)
        missing = sorted(s for s in undefined if re.match(r"_?Py", s) and s not in exported)
        if missing:
            errors.append("%s does not export %s" % (python, ", ".join(missing)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel")
    ap.add_argument("--python", help="the interpreter the wheel is for (checks its C API symbols)")
    args = ap.parse_args()
    path = args.wheel
    errors = []
    if not WHEEL_NAME.search(path):
        errors.append("not a CPython linux_x86_64 or manylinux x86_64/aarch64 platform wheel: %s" % path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        sos = [n for n in names if n.endswith(".so")]
        with tempfile.TemporaryDirectory() as tmp:
            for so in sos:
                check_extension(zf.extract(so, tmp), path, args.python, errors)
    for name in REQUIRED:
        if name not in names:
            errors.append("missing %s" % name)
    if len(sos) != 1 or not re.fullmatch(r"mxgo/_gen/_mxcore\.cpython-3\d+-(x86_64|aarch64)-linux-gnu\.so", sos[0]):
        errors.append("expected exactly one mxgo/_gen/_mxcore.cpython-3X-<arch>-linux-gnu.so, found %s" % sos)
    for name in names:
        if ".dist-info/" in name or name.endswith("/"):  # metadata; directory entries
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
    print("check_wheel.py: %s ok (%d files, extension %s%s)" % (
        os.path.basename(path), len(names), sos[0], ", C API checked against " + args.python if args.python else ""))


if __name__ == "__main__":
    main()
