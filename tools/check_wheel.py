#!/usr/bin/env python3
"""Check a built mxgo wheel.

Usage: python tools/check_wheel.py [--python PY | --exports ELF] dist/mxgo-*.whl
       python tools/check_wheel.py --self-test   (each check catches the defect it is for)

The wheel must be a cp3X platform wheel (linux_x86_64, or manylinux_2_17 for x86_64 or
aarch64) holding the hand-written package, its type information (py.typed, the stubs with
tools/stubs' mxgo/ndarray/_ops.pyi) and the generated extension (mxgo/_gen: __init__.py,
pybridge.py, go.py, one _mxcore*.so), and nothing of the build machinery
(gen/_out's C/Go/header files, build/tools). Its extension must carry no RUNPATH or
RPATH (the build machine's paths), and for a manylinux_2_17 tag need no glibc symbol
newer than 2.17 and no symbol left without a version. With --python, every Python C API symbol the extension leaves undefined
must be exported by that interpreter (its libpython, or the executable itself): the
check that catches a symbol a CPython release renamed or removed. --exports names that
interpreter's executable or libpython instead, for one that cannot run here (the arm64
python3.11 of tools/aarch64.sh). The extension's ELF machine must be the tag's and its
name's (a cross build that silently compiled for this machine fails here). The extension
must need no CUDA library (libcuda.so.1 and the toolkit's: the driver is loaded at run time
through mxgo's shim, docs/gpu.md) and leave no CUDA driver function (cu[A-Z]...) undefined.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile

REQUIRED = ["mxgo/__init__.py", "mxgo/_gen/__init__.py", "mxgo/_gen/pybridge.py", "mxgo/_gen/go.py",
            "mxgo/py.typed", "mxgo/__init__.pyi", "mxgo/ndarray/_ops.pyi"]  # typed: PEP 561, and tools/stubs' output
GEN_FILES = {"__init__.py", "pybridge.py", "go.py"}  # plus the one extension module
FORBIDDEN = re.compile(r"(^|/)(gen|build|_out)/|\.(go|c|h|o|a)$|(^|/)(gopy|goimports)$")
# auditwheel names a manylinux_2_17 wheel with its legacy alias too: manylinux2014_x86_64.manylinux_2_17_x86_64
WHEEL_NAME = re.compile(r"-cp3\d+-cp3\d+-(?:manylinux2014_\w+\.)?(linux_x86_64|manylinux_(\d+)_(\d+)_(x86_64|aarch64))\.whl$")


def tool(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def glibc_versions(so):
    """The GLIBC_x.y versions the extension's symbols need."""
    return {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", tool("objdump", "-T", so))}


def unversioned(so):
    """Strong undefined symbols, not Python's, that the link bound to no library version.

    The x86_64 wheels are compiled against the build machine's glibc headers and linked
    against glibc 2.17's symbols (tools/wheels.sh): a function those headers name that 2.17
    lacks (stat before 2.33, say) is left undefined and unversioned, to fail at load on an
    old system. Python's C API is resolved from the interpreter at load, unversioned too.
    """
    return sorted(f[-1] for f in (line.split() for line in tool("nm", "-D", "--undefined-only", so).splitlines())
                  if f and f[-2] == "U" and "@" not in f[-1] and not re.match(r"_?Py", f[-1]))


def python_exports(python, elf=None):
    """The dynamic symbols interpreter python defines (in libpython when it is shared), or
    those of elf, a foreign interpreter's executable or libpython that cannot run here."""
    if elf:
        return {line.split()[-1].split("@")[0] for line in tool("nm", "-D", "--defined-only", elf).splitlines()
                if line.strip()}
    info = subprocess.run([python, "-c", "import sys, sysconfig as s; print(sys.executable); "
                           "print(s.get_config_var('Py_ENABLE_SHARED') or 0); print(s.get_config_var('LIBDIR')); "
                           "print(s.get_config_var('LDLIBRARY'))"], check=True, capture_output=True, text=True)
    exe, shared, libdir, ldlibrary = info.stdout.split("\n")[:4]
    target = os.path.join(libdir, ldlibrary) if int(shared) else exe
    return {line.split()[-1].split("@")[0] for line in tool("nm", "-D", "--defined-only", target).splitlines()
            if line.strip()}


def elf_arch(so):
    """x86_64 or aarch64: the machine the ELF file so is for (readelf reads any)."""
    machine = re.search(r"Machine:\s*(.*)", tool("readelf", "-h", so)).group(1).strip()
    return {"Advanced Micro Devices X86-64": "x86_64", "AArch64": "aarch64"}.get(machine, machine)


#: libraries of CUDA that the extension must never need at load time (docs/gpu.md)
CUDA_LIBS = re.compile(r"^lib(cuda|cudart|nvrtc|cublas\w*|cudnn\w*|nvidia-ml)\.so")


def needed(so):
    """The extension's DT_NEEDED libraries."""
    return re.findall(r"\(NEEDED\).*\[(.*)\]", tool("readelf", "-d", so))


def check_extension(so, tag, python, errors, exports=None):
    arch, m = elf_arch(so), WHEEL_NAME.search(tag)
    cuda = [lib for lib in needed(so) if CUDA_LIBS.match(lib)]
    if cuda:
        errors.append("the extension needs %s at load time: CUDA must be loaded at run time (docs/gpu.md)" % ", ".join(cuda))
    undefined_cu = sorted(f[-1].split("@")[0] for f in (line.split() for line in
                          tool("nm", "-D", "--undefined-only", so).splitlines()) if f and re.match(r"cu[A-Z]", f[-1]))
    if undefined_cu:
        errors.append("the extension leaves CUDA driver functions undefined (%s): the shim lacks them"
                      % ", ".join(undefined_cu[:5]))
    if m and arch != (m.group(4) or "x86_64"):
        errors.append("tagged %s but the extension is for %s" % (m.group(1), arch))
    if not so.endswith("-%s-linux-gnu.so" % arch):
        errors.append("the extension is for %s but named %s" % (arch, os.path.basename(so)))
    for line in tool("readelf", "-d", so).splitlines():
        if "(RUNPATH)" in line or "(RPATH)" in line:
            errors.append("the extension has a search path of the build machine: %s" % line.split(":", 1)[-1].strip())
    if m and m.group(2):
        limit = (int(m.group(2)), int(m.group(3)))
        newer = sorted(v for v in glibc_versions(so) if v > limit)
        if newer:
            errors.append("tagged %s but needs GLIBC_%s" % (m.group(1), ".".join(map(str, newer[-1]))))
        unbound = unversioned(so)
        if unbound:
            errors.append("tagged %s but needs symbols its glibc lacks (no version bound at link): %s"
                          % (m.group(1), ", ".join(unbound)))
    if python or exports:
        undefined = {line.split()[-1].split("@")[0] for line in tool("nm", "-D", "--undefined-only", so).splitlines()
                     if line.strip()}
        exported = python_exports(python, exports)
        missing = sorted(s for s in undefined if re.match(r"_?Py", s) and s not in exported)
        if missing:
            errors.append("%s does not export %s" % (exports or python, ", ".join(missing)))


# --self-test: small extensions built here with gcc, each with one defect the checks exist
# for, and the error each must raise (None: a clean one, which must raise nothing).
SELF_TESTS = [
    ("clean", "int f(void) { return 0; }", [], None),
    ("runpath", "int f(void) { return 0; }", ["-Wl,-rpath,/build/machine/lib"], "search path of the build machine"),
    # Debian's glibc binds pthread_create at GLIBC_2.34: runtime/cgo's trap before zig's link
    ("glibc", "#include <pthread.h>\nint f(void) { return pthread_create(0, 0, 0, 0); }", ["-pthread"], "needs GLIBC_2.34"),
    ("unversioned", "int mxgo_absent(void);\nint f(void) { return mxgo_absent(); }", [], "no version bound at link"),
    # 3.13 renamed _Py_IsFinalizing: a name no interpreter exports must be caught the same way
    ("c-api", "int _Py_NoSuchFunction(void);\nint f(void) { return _Py_NoSuchFunction(); }", [], "does not export"),
    # linked against a libcuda.so (a stub made in the temporary folder): must load without one
    ("libcuda", "int cuInit(unsigned);\nint f(void) { return cuInit(0); }", ["-L{tmp}", "-lcuda"], "needs libcuda.so.1"),
    ("cuda-undefined", "int cuMemAlloc_v2(void*, unsigned long);\nint f(void) { return cuMemAlloc_v2(0, 0); }", [],
     "CUDA driver functions undefined (cuMemAlloc_v2)"),
]


def self_test():
    """Each check fails the defect it is for, and passes a clean extension."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        stub = os.path.join(tmp, "stub.c")
        with open(stub, "w") as f:
            f.write("int cuInit(unsigned flags) { return 0; }\n")
        subprocess.run(["gcc", "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o", os.path.join(tmp, "libcuda.so"), stub],
                       check=True)
        for name, source, flags, want in SELF_TESTS:
            flags = [fl.format(tmp=tmp) for fl in flags]
            src, so = os.path.join(tmp, name + ".c"), os.path.join(tmp, name + ".cpython-311-x86_64-linux-gnu.so")
            with open(src, "w") as f:
                f.write(source + "\n")
            subprocess.run(["gcc", "-shared", "-fPIC", "-o", so, src] + flags, check=True)
            errors = []
            check_extension(so, "mxgo-0.1.0-cp311-cp311-manylinux_2_17_x86_64.whl", sys.executable, errors)
            if want is None and errors or want is not None and not any(want in e for e in errors):
                failures.append("%s: expected %s, got %s" % (name, repr(want) if want else "no error", errors))
    for f in failures:
        print("check_wheel.py --self-test: %s" % f, file=sys.stderr)
    if failures:
        sys.exit(1)
    print("check_wheel.py --self-test: %d cases ok" % len(SELF_TESTS))


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel")
    ap.add_argument("--python", help="the interpreter the wheel is for (checks its C API symbols)")
    ap.add_argument("--exports", metavar="ELF", help="instead of --python for a foreign interpreter (tools/aarch64.sh): "
                    "its executable or libpython, whose dynamic symbols must cover the C API symbols")
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
                check_extension(zf.extract(so, tmp), path, args.python, errors, args.exports)
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
        os.path.basename(path), len(names), sos[0],
        ", C API checked against " + (args.exports or args.python) if args.exports or args.python else ""))


if __name__ == "__main__":
    main()
