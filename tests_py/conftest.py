"""pytest setup shared by every test module.

Which files and tests each environment collects is the rule of environments.py (the
environment is named by MXGO_TEST_ENV): the main environment runs everything, the others
the files that can differ there and a sampled slice of the rest, deselected, never skipped.

The peers the environment lists are required: NumPy, PyTorch and MXNet are imported here,
at collection, and the others (JAX, Dask, TVM-FFI) must be importable, so that a missing
one is a loud error for the whole run, never a skip.
"""
import gc
import importlib.util
import os

import numpy
import pytest

import environments

# Every machine runs this suite without a CUDA driver, so that no test depends on whether it
# has a GPU: test_gpu_fake.py points its own interpreters at the fake driver (or at
# nothing), and tests_gpu/ is the suite for a real GPU.
os.environ["MXGO_LIBCUDA"] = "/nonexistent/libcuda.so.1"

ENV_NAME = environments.environment_name(numpy.__version__)
ENV = environments.ENVIRONMENTS[ENV_NAME]
K = environments.sample_k(ENV)

if "torch" in ENV.peers:
    import torch  # noqa: F401
if "mxnet" in ENV.peers:
    import mxnet  # noqa: F401
_missing = sorted(p for p in ENV.peers if importlib.util.find_spec(p) is None)
if _missing:
    raise ImportError("MXGO_TEST_ENV=%s needs %s, which this interpreter cannot import (tests_py/environments.py)"
                      % (ENV_NAME, ", ".join(_missing)))


def pytest_report_header(config):
    return "mxgo test environment: %s (tests_py/environments.py): whole files where they differ, %s" % (
        ENV_NAME, "every other test" if K == 1 else "no other file" if K is None else "1 in %d other tests" % K)


def pytest_ignore_collect(collection_path, config):
    name = collection_path.name
    if name.startswith("test_") and name.endswith(".py") and not environments.collected(ENV, K, name):
        return True
    return None  # pytest's own rules


def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        name = item.path.name
        fn = getattr(item, "originalname", None) or item.name
        (kept if environments.keep(ENV_NAME, K, name, item.nodeid, fn) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


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


@pytest.fixture(autouse=True, scope="module")
def settled_graphs():
    """Before each module, lets Go free what earlier modules' autograd graphs and variables
    (Gluon's Parameters) held: runtime.AddCleanup frees them whenever Go next collects,
    which would otherwise land inside a later test's leak check."""
    from mxgo.base import core

    gc.collect()
    core.SettleGraphs()
    yield


@pytest.fixture(scope="module")
def frozen_heap():
    """Freezes what exists before a module's tests (torch brings some 10^5 objects), so that
    each gc.collect() in them looks at the tests' own objects only."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
