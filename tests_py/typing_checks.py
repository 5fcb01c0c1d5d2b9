"""What `make typecheck` asks of mxgo's stubs beyond accepting examples/typed_example.py:
exact types (assert_type) and mistakes they must reject. Type-checked only, never run.

Each deliberate mistake carries ``# type: ignore[<its error code>]``. mypy --strict reports
an ignore that silences nothing (warn_unused_ignores), so this file passes only while mypy
finds every one of these mistakes, with that code: stubs that went lax (Any, a lost py.typed,
a signature without its keyword-only marker) fail it, as a wrong type fails assert_type.
"""
from typing import Any, assert_type

import numpy as np
import numpy.typing as npt
from typing_extensions import CapsuleType

import mxgo as mx
from mxgo.ndarray import NDArray


def exact_types(a: NDArray, t: npt.NDArray[np.float32]) -> None:
    for r in (a + a, a + 1, 1 + a, a - 2.5, a * a, a / 2, 2 / a, a ** 2, a @ a, -a, abs(a), a.T, a[0, 1:]):
        assert_type(r, NDArray)
    for c in (a < 1, a >= a, a == a, a != 1, 1 < a):
        assert_type(c, NDArray)
    assert_type(a == "x", bool)  # not an operand: Python's identity comparison
    b = a
    b += 1
    assert_type(b, NDArray)
    assert_type(a.shape, tuple[int, ...])
    assert_type(a.size, int)
    assert_type(a.dtype, type[np.generic] | str)
    assert_type(a.context, mx.Context)
    assert_type(a.asnumpy(), npt.NDArray[Any])
    assert_type(a.__dlpack__(stream=None, max_version=(1, 0), dl_device=(1, 0), copy=False), CapsuleType)
    assert_type(a.__dlpack_device__(), tuple[int, int])
    assert_type(mx.nd.to_dlpack_for_write(a), CapsuleType)
    assert_type(mx.nd.from_dlpack(a.to_dlpack_for_read()), NDArray)
    assert_type(mx.nd.from_dlpack(t, copy=True), NDArray)
    assert_type(mx.nd.from_numpy(t, zero_copy=False), NDArray)
    assert_type(mx.nd.add(a, 1), NDArray)
    assert_type(mx.nd.concat(a, t, dim=0, out=a), NDArray)
    assert_type(mx.nd.add(a, t, out=t), npt.NDArray[np.float32])  # out= comes back as given
    assert_type(mx.nd.sum(a, axis=(0, 1), keepdims=True), NDArray)
    assert_type(a.max(axis=0), NDArray)
    assert_type(mx.nd.random.uniform(0, 1, shape=(2,), dtype="float16"), NDArray)
    assert_type(mx.random.seed(1), None)
    assert_type(mx.nd.run_async(lambda v: None, reads=[a], writes=t), None)
    with mx.gpu(1) as ctx:
        assert_type(ctx, mx.Context)
    assert_type(mx.MXNetError("engine"), mx.MXNetError)
    assert_type(mx.test_utils.assert_almost_equal(a, t), None)


def mistakes(a: NDArray) -> None:
    mx.nd.add(a, "1")  # type: ignore[call-overload]
    a + "1"  # type: ignore[operator]
    a @ 2  # type: ignore[operator]
    mx.nd.sum(a, keepdim=True)  # type: ignore[call-overload]
    mx.nd.reshape(a)  # type: ignore[call-overload]
    mx.nd.concat(a, a, 0)  # type: ignore[call-overload]
    mx.nd.dot(a, a, False, False, a)  # type: ignore[call-overload]
    a.__dlpack__(None)  # type: ignore[call-arg]
    a.to_dlpack_for_read(max_version=1)  # type: ignore[arg-type]
    mx.nd.from_dlpack([1, 2])  # type: ignore[arg-type]
    a.shape = (1,)  # type: ignore[misc]
    n: int = a.sum()  # type: ignore[assignment]
    mx.cpu("0")  # type: ignore[arg-type]
    del n
