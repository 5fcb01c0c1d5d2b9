"""Build mxgo: the hand-written package from pysrc/ plus the Go extension module.

The Go part is compiled by gen/generate.py (gopy) straight into the build tree's
mxgo/_gen after the normal build_py copy, and tools/stubs writes the type stubs of the
operators (mxgo/ndarray/_ops.pyi) from the Go registry. Building needs Go on PATH; the
resulting wheel does not (it carries one self-contained c-shared .so).

pip (>= 21.3) builds in the source tree, so gen/generate.py and the Go module are
reachable from here; the sdist carries them too (MANIFEST.in).
"""
import os
import subprocess
import sys

from setuptools import Distribution, find_packages, setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 ships bdist_wheel itself
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

ROOT = os.path.dirname(os.path.abspath(__file__))
GENERATE = os.path.join(ROOT, "gen", "generate.py")
# Variables that point a Go build at the wheel's target (a cross build for aarch64, zig's
# glibc): tools/stubs runs here, so it is built for this machine with its own compiler.
TARGET_VARS = ("GOOS", "GOARCH", "CC", "CXX", "CGO_CFLAGS", "CGO_LDFLAGS")


class BinaryDistribution(Distribution):
    """The wheel carries a compiled module that setuptools does not build itself."""

    def has_ext_modules(self):
        return True


class build_py_with_go(build_py):
    """Copy pysrc/ as usual, then compile the Go extension into <build_lib>/mxgo/_gen."""

    def run(self):
        super().run()
        if self.dry_run:
            return
        if not os.path.isfile(GENERATE):
            sys.exit("setup.py: %s is missing; build from a source checkout or an sdist" % GENERATE)
        dest = os.path.join(os.path.abspath(self.build_lib), "mxgo", "_gen")
        # sys.executable is the build environment's interpreter (pip's isolated one, or
        # the venv's with --no-isolation): it has pybindgen and sets the ABI of the .so.
        subprocess.check_call([sys.executable, GENERATE, dest, "--python", sys.executable], cwd=ROOT)
        self.write_op_stubs(os.path.join(os.path.abspath(self.build_lib), "mxgo", "ndarray", "_ops.pyi"))

    def write_op_stubs(self, path):
        """Stubs of the mx.nd.<operator> functions, printed by tools/stubs from the registry."""
        env = {k: v for k, v in os.environ.items() if k not in TARGET_VARS}
        env.setdefault("GOFLAGS", "-mod=mod")
        stubs = subprocess.run(["go", "run", "./tools/stubs"], cwd=ROOT, env=env, check=True,
                               stdout=subprocess.PIPE).stdout
        with open(path, "wb") as f:
            f.write(stubs)


class bdist_wheel_platform(bdist_wheel):
    """A platform wheel (cp311-cp311-linux_x86_64), never py3-none-any."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False


setup(
    # mxgo._gen is produced by build_py_with_go, never copied from a stale pysrc/mxgo/_gen.
    packages=sorted(set(find_packages(where="pysrc", exclude=["mxgo._gen", "mxgo._gen.*"])) | {"mxgo"}),
    package_dir={"": "pysrc"},
    include_package_data=False,
    # PEP 561: the package is typed (py.typed) and carries its stubs.
    package_data={"mxgo": ["py.typed", "*.pyi"], "mxgo.ndarray": ["*.pyi"], "mxgo.optimizer": ["*.pyi"]},
    zip_safe=False,
    distclass=BinaryDistribution,
    cmdclass={"build_py": build_py_with_go, "bdist_wheel": bdist_wheel_platform},
)
