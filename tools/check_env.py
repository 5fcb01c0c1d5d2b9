#!/usr/bin/env python3
"""Check that a test environment has the array peers mxgo is tested against.

Usage: python tools/check_env.py main|legacy|mxnet

main:   NumPy >= 2.1 and PyTorch >= 2 (PyPI, versioned DLPack capsules), JAX (CPU),
        ml_dtypes (NumPy's bfloat16) and Dask's distributed scheduler.
legacy: Debian bookworm's NumPy 1.24.x and PyTorch 1.13.x (legacy capsules only), and no
        ml_dtypes (the tests check mxgo's bfloat16 without a NumPy bfloat16 there).
mxnet:  the real MXNet 1.9.1 from PyPI with NumPy 1.23.x (MXNet uses np.bool), no PyTorch
        needed; an array must be made, which loads libmxnet.so and its system libraries.
Exits non-zero, naming what is wrong, so that `make test` fails instead of skipping.
"""
import sys


def release(version):
    """'2.1.3', '1.13.1+dfsg', '2.6.0+cu124' -> (2, 1, 3) etc."""
    parts = []
    for piece in version.split("+")[0].split("."):
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("main", "legacy", "mxnet"):
        sys.exit(__doc__)
    which = sys.argv[1]
    errors = []
    try:
        import numpy
    except Exception as e:  # noqa: BLE001 - report any import failure
        errors.append("numpy does not import: %r" % (e,))
        numpy = None
    torch = None
    try:
        if which != "mxnet":
            import torch
    except Exception as e:  # noqa: BLE001
        errors.append("torch does not import: %r" % (e,))
    print("%s env: python %s at %s" % (which, sys.version.split()[0], sys.executable))
    if numpy is not None:
        print("  numpy %s (%s)" % (numpy.__version__, numpy.__file__))
        nv = release(numpy.__version__)
        if which == "main" and nv < (2, 1):
            errors.append("numpy %s < 2.1" % numpy.__version__)
        if which == "legacy" and nv[:2] != (1, 24):
            errors.append("numpy %s is not 1.24.x" % numpy.__version__)
        if which == "mxnet" and nv[:2] != (1, 23):
            errors.append("numpy %s is not 1.23.x" % numpy.__version__)
    if torch is not None:
        print("  torch %s (%s)" % (torch.__version__, torch.__file__))
        tv = release(torch.__version__)
        if which == "main" and tv < (2,):
            errors.append("torch %s < 2" % torch.__version__)
        if which == "legacy" and tv[:2] != (1, 13):
            errors.append("torch %s is not 1.13.x" % torch.__version__)
    if which == "main":
        for name in ("jax", "ml_dtypes", "dask", "distributed", "tvm_ffi"):
            try:
                mod = __import__(name)
            except Exception as e:  # noqa: BLE001
                errors.append("%s does not import: %r" % (name, e))
                continue
            print("  %s %s (%s)" % (name, mod.__version__, mod.__file__))
    elif which == "mxnet":
        try:
            import mxnet
            mxnet.nd.array([1]).asnumpy()
        except Exception as e:  # noqa: BLE001
            errors.append("mxnet does not import or run: %r" % (e,))
        else:
            print("  mxnet %s (%s)" % (mxnet.__version__, mxnet.__file__))
            if mxnet.__version__ != "1.9.1":
                errors.append("mxnet %s is not 1.9.1" % mxnet.__version__)
    else:
        try:
            import ml_dtypes
        except ImportError:
            pass
        else:
            errors.append("ml_dtypes %s is importable (%s); the legacy environment must not have it"
                          % (ml_dtypes.__version__, ml_dtypes.__file__))
    if errors:
        for e in errors:
            print("check_env.py (%s): %s" % (which, e), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
