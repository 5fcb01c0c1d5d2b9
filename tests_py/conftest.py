"""pytest setup shared by every test module.

NumPy and PyTorch are required peers of mxgo's tests: they are imported here, at
collection, so that a missing one is a loud error for the whole run, never a skip.

JAX and Dask are peers of the main environment only: the legacy environment (Debian's
NumPy 1.24 and PyTorch 1.13) has neither, so test_interop_jax.py and test_dask.py are not
collected there. The legacy environment is recognised by its NumPy major version (< 2, the
legacy path of tools/check_env.py), never by whether jax imports: in the main environment
a missing JAX fails the run (test_interop_jax.py imports it; tools/check_env.py checks
both) instead of skipping.

MXGO_PEERS=numpy (set by tools/wheels.sh, which tests each CPython's wheel in a venv with
NumPy alone) collects only the files that need no other peer; any other value, or none,
requires PyTorch as above.
"""
import os

import numpy

#: the files that need NumPy alone
NUMPY_ONLY = ["test_api_arith.py", "test_api_copies.py", "test_api_core.py", "test_api_errors.py",
              "test_api_indexing.py", "test_ops_random.py"]

LEGACY_ENV = int(numpy.__version__.split(".")[0]) < 2

if os.environ.get("MXGO_PEERS") == "numpy":
    def pytest_ignore_collect(collection_path, config):
        if collection_path.name.startswith("test_") and collection_path.name not in NUMPY_ONLY:
            return True
        return None  # pytest's own rules
else:
    import torch  # noqa: F401

    collect_ignore = ["test_interop_jax.py", "test_dask.py"] if LEGACY_ENV else []
