"""Build mxgo: the hand-written package from pysrc/ plus the Go extension module.

The Go part is compiled by gen/generate.py (gopy) straight into the build tree's
mxgo/_gen after the normal build_py copy. Building needs Go on PATH; the resulting
wheel does not (it carries one self-contained c-shared .so).

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
    zip_safe=False,
    distclass=BinaryDistribution,
    cmdclass={"build_py": build_py_with_go, "bdist_wheel": bdist_wheel_platform},
)
