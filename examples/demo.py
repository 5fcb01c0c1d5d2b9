"""mxgo in two minutes: MXNet-style arrays that share memory with NumPy and PyTorch.

Run with `make demo` (or `python examples/demo.py` where mxgo is installed). Every
"same memory" line compares the data addresses the two frameworks report.
"""
import numpy as np
import torch

import mxgo as mx


def address(x):
    """Address of the first element, whichever framework owns x."""
    if isinstance(x, mx.nd.NDArray):
        return x._data
    if isinstance(x, torch.Tensor):
        return x.data_ptr()
    return x.__array_interface__["data"][0]


def section(title):
    print("\n== %s ==" % title)


def main():
    print("mxgo %s | numpy %s | torch %s" % (mx.__version__, np.__version__, torch.__version__))

    section("MXNet-style arrays")
    a = mx.nd.array([[1, 2], [3, 4]], dtype="float32")
    print("a =", a)
    print("a.shape", a.shape, "a.dtype", a.dtype.__name__, "a.context", a.context)
    b = a * 2 + 1
    print("a * 2 + 1 =", b.asnumpy().tolist())
    a[1, 0] = 100
    print("after a[1, 0] = 100:", a.asnumpy().tolist())
    print("a[:, ::-1] (a view) =", a[:, ::-1].asnumpy().tolist())
    r = mx.nd.random.uniform(0, 1, shape=(2, 3))
    print("random.uniform(shape=(2, 3)).shape =", r.shape, "| arange(5) =", mx.nd.arange(5).asnumpy().tolist())

    section("mxgo -> PyTorch, zero copy (torch.utils.dlpack)")
    t = torch.utils.dlpack.from_dlpack(a.to_dlpack_for_read())
    print("torch sees", t.tolist(), "| same memory:", address(t) == address(a))
    w = torch.utils.dlpack.from_dlpack(a.to_dlpack_for_write())
    w.mul_(10)
    print("torch wrote a *= 10 in place; mxgo sees", a.asnumpy().tolist())

    section("PyTorch -> mxgo, zero copy (mx.nd.from_dlpack)")
    t2 = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    m = mx.nd.from_dlpack(t2)  # any object with __dlpack__, or a capsule
    print("mxgo sees", m.asnumpy().tolist(), m.dtype.__name__, "| same memory:", address(m) == address(t2))
    m[0, 0] = -1
    m.wait_to_read()  # mxgo's operations are asynchronous, as in MXNet: wait before torch reads
    print("mxgo wrote m[0, 0] = -1; torch sees", t2[0].tolist())
    tt = t2.t()  # strided views travel without copies too
    mt = mx.nd.from_dlpack(torch.utils.dlpack.to_dlpack(tt))
    print("transposed view: torch strides", tt.stride(), "mxgo strides", mt.strides,
          "| same memory:", address(mt) == address(tt))

    section("NumPy <-> mxgo, zero copy")
    n = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = mx.nd.from_numpy(n)  # MXNet's from_numpy: C-contiguous only, locks NumPy's side
    print("from_numpy: same memory:", address(x) == address(n), "| numpy now writable:", n.flags.writeable)
    x[1] = 7
    x.wait_to_read()
    print("mxgo wrote x[1] = 7; numpy sees", n.tolist())
    back = np.from_dlpack(a)
    print("np.from_dlpack(a):", back.tolist(), "| same memory:", address(back) == address(a))

    section("Lifetimes")
    del t2, tt
    import gc
    gc.collect()
    print("torch tensors deleted; mxgo's views still read", m.asnumpy().tolist())
    del m, mt, x, back, t, w
    gc.collect()
    print("live arrays in Go (a, b, r remain):", mx.base.core.LiveHandles(),
          "| exports not yet released by their consumer:", mx.base.core.LiveExports())


if __name__ == "__main__":
    main()
