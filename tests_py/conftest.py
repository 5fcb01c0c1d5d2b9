"""pytest setup shared by every test module.

NumPy and PyTorch are required peers of mxgo's tests: they are imported here, at
collection, so that a missing one is a loud error for the whole run, never a skip.

JAX and Dask are peers of the main environment only: the legacy environment (Debian's
NumPy 1.24 and PyTorch 1.13) has neither, so test_interop_jax.py and test_dask.py are not
collected there. The legacy
environment is recognised by its NumPy major version (< 2, the legacy path of
tools/check_env.py), never by whether jax imports: in the main environment a missing JAX
fails the run (test_interop_jax.py imports it; tools/check_env.py checks both) instead of
skipping.
"""
import numpy
import torch  # noqa: F401

LEGACY_ENV = int(numpy.__version__.split(".")[0]) < 2

collect_ignore = ["test_interop_jax.py", "test_dask.py"] if LEGACY_ENV else []
