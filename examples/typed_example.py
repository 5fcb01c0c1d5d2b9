"""mxgo in code checked by `mypy --strict`: the package is typed (PEP 561), and the stubs of the
mx.nd.<operator> functions are generated from the Go operator registry when the wheel is built.

`make typecheck` runs mypy --strict on this file against the installed wheel, then runs it.
"""
import numpy as np
import numpy.typing as npt

import mxgo as mx


def normalize(x: mx.nd.NDArray) -> mx.nd.NDArray:
    """(x - mean) / std over all elements: operators and operator functions give NDArrays."""
    centered = x - mx.nd.mean(x)
    return centered / mx.nd.sqrt(mx.nd.mean(mx.nd.square(centered)))


def main() -> None:
    a = mx.nd.array([[1, 2], [3, 4]], dtype="float32")
    b = mx.nd.ones((2, 2), ctx=mx.cpu(0))
    c = mx.nd.dot(a, b, transpose_b=True) + 2 * a
    rows: tuple[int, ...] = c.shape
    total = float(c.sum().asscalar())
    print("c =", c.asnumpy().tolist(), "shape", rows, "sum", total)

    mask = a > 2  # comparisons give 1 or 0 in the operands' dtype, as in MXNet
    print("a > 2:", mask.astype("int32").asnumpy().tolist())
    print("normalized:", normalize(a).asnumpy().round(3))
    print("concat:", mx.nd.concat(a, b, dim=0).shape, "stack:", mx.nd.stack(a, b).shape)

    # Zero-copy exchange: NumPy in and out, DLPack capsules and objects.
    host: npt.NDArray[np.float32] = np.arange(6, dtype=np.float32).reshape(2, 3)
    shared = mx.nd.from_numpy(host)
    shared += 1  # visible in `host`: one memory
    print("from_numpy shares memory:", host[0].tolist())
    capsule = shared.to_dlpack_for_read()
    again = mx.nd.from_dlpack(capsule)
    view = mx.nd.from_dlpack(np.ones(3, dtype=np.float32))  # any object with __dlpack__
    print("from_dlpack:", again.shape, view.asnumpy().tolist(), "device", shared.__dlpack_device__())

    with mx.cpu(0) as ctx:
        z = mx.nd.zeros(3)
        print("context:", ctx, z.context == ctx, mx.current_context())

    try:
        mx.nd.reshape(a, shape=(3, 3))
    except ValueError as err:  # mxgo raises Python's exceptions, and mx.MXNetError for its own
        print("reshape refused:", err)
    mx.nd.waitall()


if __name__ == "__main__":
    main()
