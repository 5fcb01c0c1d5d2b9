"""pytest setup shared by every test module.

NumPy and PyTorch are required peers of mxgo's tests: they are imported here, at
collection, so that a missing one is a loud error for the whole run, never a skip.

JAX, Dask and TVM-FFI are peers of the main environment only: the legacy environment
(Debian's NumPy 1.24 and PyTorch 1.13, which predates DLPack's C exchange API) has none of
them, so test_interop_jax.py, test_dask.py, test_tvm_*.py and test_exchange_peers.py are
not collected there. The legacy environment is recognised by its NumPy major version (< 2, the
legacy path of tools/check_env.py), never by whether jax imports: in the main environment
a missing JAX fails the run (test_interop_jax.py imports it; tools/check_env.py checks
both) instead of skipping.

MXGO_PEERS=numpy (set by tools/wheels.sh, which tests each CPython's wheel in a venv with
NumPy alone) collects only the files that need no other peer; any other value, or none,
requires PyTorch as above.

MXGO_PEERS=mxnet (set by `make test-py-mxnet` in .venv-mxnet: the real MXNet 1.9.1 with
NumPy 1.23, no PyTorch) collects the test_mxnet_*.py files and MXNET_ALSO; test_mxnet_*.py
are collected nowhere else. mxnet is imported here, so that a missing one fails the run.
"""
import gc
import os

import numpy
import pytest

# Every machine runs this suite without a CUDA driver, so that no test depends on whether it
# has a GPU: test_gpu_fake.py points its own interpreters at the fake driver (or at
# nothing), and tests_gpu/ is the suite for a real GPU.
os.environ["MXGO_LIBCUDA"] = "/nonexistent/libcuda.so.1"

#: the files that need NumPy alone
NUMPY_ONLY = ["test_api_arith.py", "test_api_copies.py", "test_api_core.py", "test_api_errors.py",
              "test_api_indexing.py", "test_io.py", "test_ops_random.py", "test_typing.py"]

#: the NumPy-only files that also run beside MXNet: mxgo's API on NumPy 1.23, in a process
#: that has MXNet's libraries (its OpenBLAS, libgomp) loaded (the type stubs are not MXNet's)
MXNET_ALSO = [f for f in NUMPY_ONLY if f != "test_typing.py"]

LEGACY_ENV = int(numpy.__version__.split(".")[0]) < 2

PEERS = os.environ.get("MXGO_PEERS")
MXNET_ENV = PEERS == "mxnet"

if MXNET_ENV:
    import mxnet  # noqa: F401

    def pytest_ignore_collect(collection_path, config):
        name = collection_path.name
        if name.startswith("test_") and not name.startswith("test_mxnet_") and name not in MXNET_ALSO:
            return True
        return None
elif PEERS == "numpy":
    def pytest_ignore_collect(collection_path, config):
        if collection_path.name.startswith("test_") and collection_path.name not in NUMPY_ONLY:
            return True
        return None  # pytest's own rules
else:
    import torch  # noqa: F401

    collect_ignore_glob = ["test_mxnet_*.py"] + (
        ["test_interop_jax.py", "test_dask.py", "test_tvm_*.py", "test_exchange_peers.py"] if LEGACY_ENV else [])


@pytest.fixture
def no_leaks():
    """The test leaves mxgo's live handles, storages and exports as it found them: every
    export's deleter ran exactly once (once more would free a storage twice)."""
    import mxgo as mx
    from interop_helpers import live_counts  # PyTorch's environments only, as its users

    gc.collect()
    mx.nd.waitall()
    before = live_counts()
    yield
    gc.collect()
    mx.nd.waitall()
    assert live_counts() == before


@pytest.fixture(scope="module")
def frozen_heap():
    """Freezes what exists before a module's tests (torch brings some 10^5 objects), so that
    each gc.collect() in them looks at the tests' own objects only."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
