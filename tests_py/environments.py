"""Which tests each test environment collects: the rule, written once (conftest.py applies it).

The main environment (.venv: `make test-py`) runs every test. Every other environment runs
what can actually differ there, which is decided per file by the table ``WHOLE`` below:

1. A file runs only where the peers it imports are installed (``NEEDS``; a file not named
   there needs NumPy and PyTorch). Other files are not collected (not imported).
2. A file runs whole where the environment differs from the main one in something that
   file's behaviour depends on: its tags in ``WHOLE`` meet the environment's ``differs``.
   The tags: PEERS, the versions and builds of NumPy, PyTorch, JAX, Dask, TVM-FFI or MXNet
   (DLPack exchange, interop, peer facts, memory shared with a peer, bad foreign inputs);
   PYTHON, the interpreter (capsules and refcounts, pickle, fork and worker processes,
   interpreter exit, threads and the GIL, introspection of the type stubs, C built against
   its headers at test time); GLUE, the files that drive mxgo's C glue, which the ASan
   build runs (and no others).
3. Every other item (the operator and API tests: test_ops_*.py, test_api_*.py, the engine
   differential, advanced indexing, the file format) runs in a sampled slice of 1 in
   ``k``: an item is kept when the CRC-32 of its node id, taken from the file name on and
   with memory addresses ("0x7f...") blanked, is divisible by k; the rest is deselected
   (pytest reports them as deselected; nothing is skipped). The slice is the same on every
   run and machine, and a new test joins it or not by its own id alone. ``k`` is the
   environment's (``K`` for most); k = 1 keeps everything, and an environment without a k
   collects its WHOLE files only. ``MXGO_TEST_K=N`` overrides k for one run (N = 1: every
   item of the collected files), e.g. to chase a failure seen in a slice.
4. ``DESELECT`` names the tests an environment cannot run, by function name, with the reason.
5. test_mxnet_*.py need MXNet, which only .venv-mxnet has: they run there and nowhere else.

A file not named in ``WHOLE`` is sampled: name a new file there, with its tags, when its
behaviour depends on the peers or the interpreter.

The environment is named by MXGO_TEST_ENV, set by whatever runs pytest:

=========== ============================================ ============== ====
name        where, and what differs from main            differs        k
=========== ============================================ ============== ====
main        .venv (make test-py): CPython 3.11, NumPy    -              1
            >= 2.1, PyTorch 2.x, JAX, Dask, TVM-FFI
legacy      .venv-legacy (make test-py-legacy): Debian's PEERS          K
            NumPy 1.24 and PyTorch 1.13; CPython 3.11
mxnet       .venv-mxnet (make test-py-mxnet): MXNet      PEERS          K
            1.9.1 in the process, NumPy 1.23, no
            PyTorch; CPython 3.11
wheel-full  tools/wheels.sh test, CPython 3.10 and 3.13: PEERS, PYTHON  K
            their wheels, every peer (pip's versions
            for that interpreter)
wheel-numpy tools/wheels.sh test, CPython 3.12: its      PEERS, PYTHON  K
            wheel, NumPy alone
aarch64     tools/aarch64.sh: the arm64 wheel under      PEERS, PYTHON  1
            qemu, NumPy alone; every kernel is Go's
            there (the C kernels are x86-64), so every
            NumPy-only test runs
asan        tools/asan.sh: the C glue built with ASan,   GLUE           none
            .venv's peers
=========== ============================================ ============== ====

Unset, it is ``legacy`` under a NumPy older than 2 (the legacy venv) and ``main`` otherwise.
A peer that the environment lists and that is missing fails the whole run (conftest.py),
never a skip.
"""
import os
import re
import zlib

#: the sampling of most environments: 1 item in K
K = 10

PEERS, PYTHON, GLUE = "peers", "python", "glue"


class Env:
    """``peers``: the modules installed there (required: a missing one fails the run);
    ``differs``: the tags of the files run whole there; ``k``: the sampling of the rest
    (None: not collected)."""

    def __init__(self, peers, differs, k):
        self.peers, self.differs, self.k = frozenset(peers), frozenset(differs), k


ALL_PEERS = ("numpy", "torch", "jax", "dask", "tvm_ffi")
#: the Array API conformance suite's own requirements (requirements/peers.txt, tools/array_api.py)
ARRAY_API_SUITE = ("hypothesis", "ndindex", "pytest_jsonreport")

ENVIRONMENTS = {
    "main": Env(ALL_PEERS + ARRAY_API_SUITE, (), 1),
    "legacy": Env(("numpy", "torch"), (PEERS,), K),
    "mxnet": Env(("numpy", "mxnet"), (PEERS,), K),
    "wheel-full": Env(ALL_PEERS + ARRAY_API_SUITE, (PEERS, PYTHON), K),
    "wheel-numpy": Env(("numpy",), (PEERS, PYTHON), K),
    "aarch64": Env(("numpy",), (PEERS, PYTHON), 1),
    "asan": Env(("numpy", "torch"), (GLUE,), None),
}

#: the files run whole outside the main environment (rule 2), with their tags
WHOLE = {
    "test_api_from_numpy.py": {PEERS, GLUE},      # NumPy's flags and read-only arrays, the lock mxgo puts on them
    "test_as_mxnet.py": {PYTHON},                 # the import system's internals (module specs, runpy)
    "test_bad_inputs.py": {PEERS, PYTHON, GLUE},  # foreign capsules and objects, child interpreters
    "test_bfloat16.py": {PEERS},                  # PyTorch's and JAX's bfloat16, ml_dtypes present or not
    "test_capsules.py": {PEERS, PYTHON, GLUE},    # the capsule protocol, deleters
    "test_churn.py": {PEERS},                     # leaks of every exchange path with NumPy and PyTorch
    "test_dask.py": {PEERS, PYTHON},              # worker processes, pickle
    "test_dlpack_contract.py": {PEERS, GLUE},     # branched on the peers' versions
    "test_dlpack_validation.py": {PEERS, GLUE},   # hand-made capsules, the legacy and versioned ABI
    "test_examples.py": {PEERS, PYTHON},          # the examples in a fresh interpreter, as a user runs them
    "test_exchange_api.py": {PEERS, PYTHON},      # C built against the interpreter's headers, threads without the GIL
    "test_exchange_peers.py": {PEERS},            # PyTorch's and TVM-FFI's exchange tables
    "test_exit.py": {PEERS, PYTHON, GLUE},        # interpreter exit with foreign memory alive
    "test_fork.py": {PEERS, PYTHON, GLUE},        # os.fork, PyTorch's views in the child
    "test_gluon_data.py": {PYTHON},               # DataLoader's worker processes (spawn), pickle
    "test_gpu_fake.py": {PEERS, GLUE},            # NumPy's from_dlpack(device=) from 2.1, PyTorch's refusals
    "test_interop_jax.py": {PEERS},
    "test_interop_numpy.py": {PEERS, GLUE},
    "test_interop_torch.py": {PEERS, GLUE},
    "test_kvstore.py": {PEERS, PYTHON},           # torch.distributed's gloo (its dtypes), worker processes
    "test_lifetimes.py": {PEERS, PYTHON, GLUE},   # refcounts and deleters across frameworks
    "test_multiprocessing.py": {PEERS, PYTHON},   # start methods, PyTorch's DataLoader
    "test_mxnet_differential.py": {PEERS},        # MXNet itself (rule 5)
    "test_mxnet_errors.py": {PEERS},
    "test_mxnet_data.py": {PEERS},
    "test_mxnet_gluon.py": {PEERS},
    "test_mxnet_rnn.py": {PEERS},
    "test_mxnet_recordio.py": {PEERS},
    "test_mxnet_vision.py": {PEERS},
    "test_mxnet_io.py": {PEERS},
    "test_mxnet_kvstore.py": {PEERS},
    "test_mxnet_metric.py": {PEERS},
    "test_mxnet_np.py": {PEERS},
    "test_mxnet_np_manip.py": {PEERS},
    "test_mxnet_np_names.py": {PEERS},
    "test_mxnet_np_math.py": {PEERS},
    "test_mxnet_gluon_np.py": {PEERS},
    "test_mxnet_np_kernels.py": {PEERS},
    "test_mxnet_optimizer.py": {PEERS},
    "test_mxnet_peer.py": {PEERS},
    "test_mxnet_zoo.py": {PEERS},
    "test_mxnet_as_mxnet.py": {PEERS},
    "test_mxnet_image.py": {PEERS},
    "test_mxnet_image_det.py": {PEERS},
    "test_np_math.py": {PEERS},                   # NumPy's own functions on the host (MXNet's fallback), its versions' dtypes
    "test_peer_facts.py": {PEERS},                # the README's table of what each peer does
    "test_pickle.py": {PEERS, PYTHON, GLUE},      # pickle protocols, out-of-band buffers
    "test_properties.py": {PEERS, GLUE},          # round trips with NumPy and PyTorch
    "test_run_async.py": {PEERS, PYTHON, GLUE},   # callbacks that take the GIL, PyTorch views in them
    "test_threads.py": {PEERS, PYTHON, GLUE},     # deleters and buffer releases without the GIL
    "test_conv_winograd.py": {GLUE},              # Winograd's transforms in C (winograd.c), under ASan too
    "test_tiny_arith.py": {GLUE},                 # operations computed in C on the arrays' memory, broadcasts
    "test_tvm_bridge.py": {PEERS, PYTHON},        # TVM-FFI's C ABI, kernels compiled at test time
    "test_tvm_global.py": {PEERS, PYTHON},        # ... and a C program against the interpreter
    "test_typing.py": {PYTHON},                   # inspect's view of the operators against the stubs
    "test_unaligned.py": {PEERS, GLUE},           # NumPy's and PyTorch's unaligned memory
    "test_views_in_c.py": {GLUE},                 # views made in C: their base, replay and lifetimes
}

_NUMPY_ONLY = ("numpy",)
#: the peers each file imports (rule 1); a file not named here needs NumPy and PyTorch
NEEDS = {
    "test_api_arith.py": _NUMPY_ONLY,
    "test_array_api_tool.py": ("numpy",) + ARRAY_API_SUITE,
    "test_as_mxnet.py": _NUMPY_ONLY,
    "test_api_copies.py": _NUMPY_ONLY,
    "test_api_core.py": _NUMPY_ONLY,
    "test_api_errors.py": _NUMPY_ONLY,
    "test_api_indexing.py": _NUMPY_ONLY,
    "test_io.py": _NUMPY_ONLY,
    "test_gluon_data.py": _NUMPY_ONLY,
    "test_gluon_zoo.py": _NUMPY_ONLY,
    "test_image.py": _NUMPY_ONLY,
    "test_image_det.py": _NUMPY_ONLY,
    "test_metric.py": _NUMPY_ONLY,
    "test_np_fft.py": _NUMPY_ONLY,
    "test_np_kernels.py": _NUMPY_ONLY,
    "test_np_manip.py": _NUMPY_ONLY,
    "test_ops_random.py": _NUMPY_ONLY,
    "test_optimizer.py": _NUMPY_ONLY,
    "test_typing.py": _NUMPY_ONLY,
    "test_environments.py": _NUMPY_ONLY,
    "test_interop_jax.py": ("numpy", "torch", "jax"),  # interop_helpers imports torch
    "test_dask.py": ("numpy", "dask"),
    "test_exchange_peers.py": ("numpy", "torch", "jax", "tvm_ffi"),
    "test_tvm_bridge.py": ("numpy", "torch", "tvm_ffi"),
    "test_tvm_global.py": ("numpy", "torch", "tvm_ffi"),
    "test_mxnet_differential.py": ("numpy", "mxnet"),
    "test_mxnet_errors.py": ("numpy", "mxnet"),
    "test_mxnet_gluon.py": ("numpy", "mxnet"),
    "test_mxnet_rnn.py": ("numpy", "mxnet"),
    "test_mxnet_recordio.py": ("numpy", "mxnet"),
    "test_mxnet_vision.py": ("numpy", "mxnet"),
    "test_mxnet_io.py": ("numpy", "mxnet"),
    "test_mxnet_kvstore.py": ("numpy", "mxnet"),
    "test_mxnet_metric.py": ("numpy", "mxnet"),
    "test_mxnet_np.py": ("numpy", "mxnet"),
    "test_mxnet_np_manip.py": ("numpy", "mxnet"),
    "test_mxnet_np_names.py": ("numpy", "mxnet"),
    "test_mxnet_np_math.py": ("numpy", "mxnet"),
    "test_mxnet_gluon_np.py": ("numpy", "mxnet"),
    "test_mxnet_np_kernels.py": ("numpy", "mxnet"),
    "test_mxnet_data.py": ("numpy", "mxnet"),
    "test_mxnet_optimizer.py": ("numpy", "mxnet"),
    "test_mxnet_peer.py": ("numpy", "mxnet"),
    "test_mxnet_zoo.py": ("numpy", "mxnet"),
    "test_mxnet_as_mxnet.py": ("numpy", "mxnet"),
    "test_mxnet_image.py": ("numpy", "mxnet"),
    "test_mxnet_image_det.py": ("numpy", "mxnet"),
}
_DEFAULT_NEEDS = ("numpy", "torch")

#: tests an environment deselects (rule 4): {environment: {test function: reason}}
DESELECT = {
    "aarch64": {
        "test_workers": "each worker process it spawns starts an emulated interpreter under qemu (NumPy and mxgo "
                        "imported again, seconds each), past the scripts' time limit; the loader's process logic does "
                        "not depend on the architecture and runs in every other environment",
    },
    "asan": {
        "test_the_harness_isolates_crashes_failures_and_hangs":
            "needs a child to die by SIGSEGV; under ASan it exits with a report",
        "test_lock_registry_is_not_fooled_by_a_reused_id":
            "needs CPython to reuse a freed object's address, which ASan's quarantine prevents",
    },
}


def environment_name(numpy_version):
    """MXGO_TEST_ENV, or the default for a NumPy of this version string."""
    if os.environ.get("MXGO_PEERS"):
        raise RuntimeError("MXGO_PEERS is gone: set MXGO_TEST_ENV (numpy -> wheel-numpy, mxnet -> mxnet); "
                           "see tests_py/environments.py")
    name = os.environ.get("MXGO_TEST_ENV") or ("legacy" if int(numpy_version.split(".")[0]) < 2 else "main")
    if name not in ENVIRONMENTS:
        raise RuntimeError("MXGO_TEST_ENV=%s: not one of %s (tests_py/environments.py)"
                           % (name, ", ".join(ENVIRONMENTS)))
    return name


def sample_k(env):
    """The environment's k, or MXGO_TEST_K's."""
    override = os.environ.get("MXGO_TEST_K")
    if not override:
        return env.k
    if not override.isdigit() or int(override) < 1:
        raise RuntimeError("MXGO_TEST_K=%s: not a whole number >= 1" % override)
    return int(override)


def runs_whole(env, filename):
    """Whether the file runs whole in the environment (rule 2)."""
    return bool(WHOLE.get(filename, set()) & env.differs)


def collected(env, k, filename):
    """Whether a test file is collected (imported) in the environment (rules 1 and 3)."""
    if not set(NEEDS.get(filename, _DEFAULT_NEEDS)) <= env.peers:
        return False
    return k is not None or runs_whole(env, filename)


def sample_key(filename, nodeid):
    """The node id from the file name on, memory addresses blanked: the same on every run
    and wherever the tests folder sits (tools/aarch64.sh copies it elsewhere)."""
    rest = nodeid.split("::", 1)[1] if "::" in nodeid else ""
    return re.sub(r"0x[0-9a-fA-F]+", "0x", filename + "::" + rest)


def in_sample(filename, nodeid, k):
    """Whether an item is in the slice of 1 in k (rule 3)."""
    return zlib.crc32(sample_key(filename, nodeid).encode()) % k == 0


def keep(env_name, k, filename, nodeid, function_name):
    """Whether a collected item runs (True) or is deselected (False)."""
    env = ENVIRONMENTS[env_name]
    if function_name in DESELECT.get(env_name, {}):
        return False
    if runs_whole(env, filename) or k == 1:
        return True
    return k is not None and in_sample(filename, nodeid, k)
