"""Zero-copy exchange between mxgo and PyTorch, both directions, through both PyTorch
entry points (``torch.utils.dlpack`` capsules and ``torch.from_dlpack`` objects), for every
dtype the running PyTorch exchanges and every layout PyTorch can describe."""
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from interop_helpers import LAYOUTS, MX, TORCH, TORCH_DLPACK_DTYPES, TORCH_VERSION, check_exchange, layout_named

# PyTorch has no negative strides, so reversed views exist on the mxgo/NumPy side only.
TORCH_LAYOUTS = [layout for layout in LAYOUTS if not layout.negative_strides]

BOTH = ("producer", "consumer")

#: mxgo -> torch: how torch gets the array, and who may write afterwards. A consumer of a
#: ``to_dlpack_for_read`` capsule promises to only read, so only mxgo writes there.
TO_TORCH = {
    "utils_for_read": (lambda x: tdl.from_dlpack(x.to_dlpack_for_read()), ("producer",)),
    "utils_for_write": (lambda x: tdl.from_dlpack(x.to_dlpack_for_write()), BOTH),
    "torch_from_dlpack": (torch.from_dlpack, BOTH),
}

#: torch -> mxgo: a torch capsule, or the tensor itself (mxgo asks for ``__dlpack__``).
FROM_TORCH = {
    "capsule": lambda t: mx.nd.from_dlpack(tdl.to_dlpack(t)),
    "object": mx.nd.from_dlpack,
}


def test_peer_table_matches_torch():
    """The version table is what the installed torch does: every listed dtype exports,
    and (for the dtypes version-gated above) the unlisted ones refuse."""
    for name in TORCH_DLPACK_DTYPES:
        tdl.to_dlpack(torch.zeros(2, dtype=getattr(torch, name)))
    if "bool" not in TORCH_DLPACK_DTYPES:
        with pytest.raises(RuntimeError, match="[Bb]ool"):
            tdl.to_dlpack(torch.zeros(2, dtype=torch.bool))
    if TORCH_VERSION < (2, 3):
        assert not hasattr(torch, "uint16")


@pytest.mark.parametrize("layout", TORCH_LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
@pytest.mark.parametrize("path", sorted(TO_TORCH))
def test_mxgo_to_torch(path, dtype, layout):
    convert, writers = TO_TORCH[path]
    x = MX.make(dtype, layout)
    check_exchange(MX, x, TORCH, convert(x), dtype, writers)


@pytest.mark.parametrize("layout", TORCH_LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
@pytest.mark.parametrize("path", sorted(FROM_TORCH))
def test_torch_to_mxgo(path, dtype, layout):
    t = TORCH.make(dtype, layout)
    x = FROM_TORCH[path](t)
    assert x.writable and x.context == mx.cpu(0)
    check_exchange(TORCH, t, MX, x, dtype)


@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
def test_round_trip_keeps_the_memory(dtype):
    """torch -> mxgo -> torch and mxgo -> torch -> mxgo land on the original memory."""
    layout = layout_named("size1dims")  # a view with an offset and size-1 dims
    t = TORCH.make(dtype, layout)
    back = torch.from_dlpack(mx.nd.from_dlpack(t))
    check_exchange(TORCH, t, TORCH, back, dtype)
    x = MX.make(dtype, layout)
    again = mx.nd.from_dlpack(tdl.to_dlpack(tdl.from_dlpack(x.to_dlpack_for_write())))
    check_exchange(MX, x, MX, again, dtype)


@pytest.mark.parametrize("path", sorted(FROM_TORCH))
def test_views_of_imported_tensor_share_memory(path):
    """mxgo views (slices, reshape) of an imported tensor still alias torch's memory."""
    t = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    x = FROM_TORCH[path](t)
    x[1:3, ::2][0, 1] = -1.0           # element (1, 2)
    x.reshape((24,))[23] = -2.0
    x.wait_to_write()                  # mxgo writes asynchronously: wait before torch touches it
    t[0, 5] += 100                     # in place on the torch side
    assert t[1, 2] == -1.0 and t[3, 5] == -2.0
    assert x[0, 5].asscalar() == 105.0


@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
def test_module_level_exports(dtype):
    """``mx.nd.to_dlpack_for_read/for_write(x)`` are the methods under MXNet's other names."""
    x = MX.make(dtype, layout_named("offset"))
    check_exchange(MX, x, TORCH, tdl.from_dlpack(mx.nd.to_dlpack_for_read(x)), dtype, ("producer",))
    check_exchange(MX, x, TORCH, tdl.from_dlpack(mx.nd.to_dlpack_for_write(x)), dtype)
