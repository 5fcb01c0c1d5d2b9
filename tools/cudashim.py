#!/usr/bin/env python3
"""Build mxgo's libcuda shim: a static libcuda.a that satisfies gorgonia.org/cu's -lcuda.

Usage: python tools/cudashim.py [--include DIR] [--out DIR] [--print-env]

The archive holds pkg/device/cuda/shim/shim.c (the loader) and, for every function that
cuda.h declares as returning CUresult (cuInit aside, which shim.c defines), a trampoline
that jumps through mxgo_cuda_table: the extension links no libcuda.so.1 and loads the
driver with dlopen on first GPU use (docs/gpu.md). It is written to
OUT/<hash>/libcuda.a, the hash covering the sources, the names, cuda.h and the compiler:
Go's build cache keys on CGO_LDFLAGS, not on the archive's contents, so a changed shim
must change the -L path. The folder holds only the archive (the linker would prefer a
libcuda.so beside it). Prints the folder.

--include: the folder of cuda.h (default: the nvidia-cuda-runtime-cu12 package of this
interpreter, nvidia/cuda_runtime/include; $MXGO_CUDA_INCLUDE overrides). CUDA 12.x
headers: gorgonia.org/cu v0.9.6 does not compile against 13.x.
--print-env: print shell assignments instead (CPATH, CGO_LDFLAGS, GOPY_LIBDIR, GOFLAGS'
build tag) that make `go build/test -tags mxgo_cuda` link against the shim.
$CC (default gcc) compiles, $AR (default ar) archives: a cross build passes its own.
"""
import argparse
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIM = os.path.join(ROOT, "pkg", "device", "cuda", "shim")
OUT = os.path.join(ROOT, "build", "cudashim")
DECL = re.compile(r"\bCUresult\s+(cu[A-Za-z0-9_]+)\s*\(")
# x86-64 and AArch64 tail jumps through the table; the symbols are hidden (local to the .so).
TRAMPOLINE = {
    "x86_64": "\tjmp *(mxgo_cuda_table+{off})(%rip)\n",
    "aarch64": "\tadrp x16, mxgo_cuda_table+{off}\n\tldr x16, [x16, #:lo12:mxgo_cuda_table+{off}]\n\tbr x16\n",
}


def default_include():
    if os.environ.get("MXGO_CUDA_INCLUDE"):
        return os.environ["MXGO_CUDA_INCLUDE"]
    try:
        import nvidia.cuda_runtime as rt  # nvidia-cuda-runtime-cu12 (requirements/dev.txt)
    except ImportError:
        sys.exit("cudashim.py: no cuda.h: pip install nvidia-cuda-runtime-cu12==12.9.79, or pass --include")
    return os.path.join(list(rt.__path__)[0], "include")


def cuda_names(cc, include):
    """The CUresult functions cuda.h declares, by their link names (cuMemAlloc_v2...)."""
    text = subprocess.run(cc + ["-E", "-I" + include, "-x", "c", "-"], input="#include <cuda.h>\n",
                          check=True, capture_output=True, text=True).stdout
    names = sorted(set(DECL.findall(text)) - {"cuInit"})
    if len(names) < 100:
        sys.exit("cudashim.py: found only %d functions in %s/cuda.h" % (len(names), include))
    return names


def generate(names, arch):
    c = ['#include "shim.h"', "extern int mxgo_cuda_unloaded(void);",
         "MXGO_CUDA_HIDDEN const int mxgo_cuda_count = %d;" % len(names),
         "MXGO_CUDA_HIDDEN const char* const mxgo_cuda_names[] = {"]
    c += ['\t"%s",' % n for n in names]
    c += ["};", "MXGO_CUDA_HIDDEN void* mxgo_cuda_table[%d] = {" % len(names)]
    c += ["\t(void*)mxgo_cuda_unloaded," for _ in names]
    c += ["};", ""]
    s = ["\t.text"]
    for i, n in enumerate(names):
        s += ["\t.globl %s" % n, "\t.hidden %s" % n, "\t.type %s, %%function" % n, "\t.p2align 4", n + ":",
              TRAMPOLINE[arch].format(off=8 * i).rstrip("\n"), "\t.size %s, .-%s" % (n, n)]
    s += ['\t.section .note.GNU-stack,"",%progbits', ""]
    return "\n".join(c), "\n".join(s)


def build(include, out):
    cc = shlex.split(os.environ.get("CC") or "gcc")
    ar = shlex.split(os.environ.get("AR") or "ar")
    # the target, from the compiler's predefined macros (zig cc has no -dumpmachine)
    probe = subprocess.run(cc + ["-E", "-P", "-x", "c", "-"], input="__aarch64__ __x86_64__\n",
                           check=True, capture_output=True, text=True).stdout.split()
    if probe == ["1", "__x86_64__"]:
        arch = "aarch64"
    elif probe == ["__aarch64__", "1"]:
        arch = "x86_64"
    else:
        sys.exit("cudashim.py: %s compiles for neither x86-64 nor AArch64 (%s)" % (" ".join(cc), probe))
    machine = arch
    names = cuda_names(cc, include)
    table_c, tramp_s = generate(names, arch)
    h = hashlib.sha256()
    for part in (table_c, tramp_s, " ".join(cc), machine, " ".join(ar)):
        h.update(part.encode() + b"\0")
    for f in sorted(os.listdir(SHIM)):
        with open(os.path.join(SHIM, f), "rb") as src:
            h.update(f.encode() + b"\0" + src.read() + b"\0")
    with open(os.path.join(include, "cuda.h"), "rb") as src:
        h.update(src.read())
    dest = os.path.join(out, h.hexdigest()[:16])
    lib = os.path.join(dest, "libcuda.a")
    if os.path.isfile(lib):
        return dest
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        srcs = {"table.c": table_c, "trampolines.S": tramp_s}
        for name, text in srcs.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        objs = []
        for src in [os.path.join(SHIM, "shim.c"), os.path.join(tmp, "table.c"), os.path.join(tmp, "trampolines.S")]:
            obj = os.path.join(tmp, os.path.basename(src) + ".o")
            subprocess.run(cc + ["-c", "-O2", "-fPIC", "-fvisibility=hidden", "-I" + SHIM, "-o", obj, src], check=True)
            objs.append(obj)
        subprocess.run(ar + ["rcs", os.path.join(tmp, "libcuda.a")] + objs, check=True)
        os.makedirs(dest, exist_ok=True)
        os.replace(os.path.join(tmp, "libcuda.a"), lib)
    return dest


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", default=None, help="folder of CUDA 12's cuda.h")
    ap.add_argument("--out", default=OUT, help="where the <hash>/libcuda.a folders go (default build/cudashim)")
    ap.add_argument("--print-env", action="store_true", help="print the environment for a Go build with the shim")
    args = ap.parse_args()
    include = os.path.abspath(args.include or default_include())
    dest = build(include, os.path.abspath(args.out))
    if args.print_env:
        print("export CPATH=%s" % shlex.quote(include + (os.pathsep + os.environ["CPATH"] if os.environ.get("CPATH") else "")))
        print("export CGO_LDFLAGS=%s" % shlex.quote("-L" + dest))
        print("export GOPY_LIBDIR=%s" % shlex.quote(dest))
    else:
        print(dest)


if __name__ == "__main__":
    main()
