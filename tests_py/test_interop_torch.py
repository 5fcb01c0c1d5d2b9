"""Zero-copy exchange between mxgo and PyTorch, both directions, through both PyTorch
entry points (``torch.utils.dlpack`` capsules and ``torch.from_dlpack`` objects), for every
dtype the running PyTorch exchanges and every layout PyTorch can describe, with mx.nd's
arrays and mx.np's (interop_helpers.mx_sides)."""
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx

from interop_helpers import (LAYOUTS, MX, TORCH, TORCH_DLPACK_DTYPES, TORCH_VERSION, MXNP, check_exchange,
                             layout_named, mx_sides)

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

#: torch -> mxgo: a torch capsule, or the tensor itself (mxgo asks for ``__dlpack__``),
#: given to the mxgo side's from_dlpack (mx.nd's or mx.np's).
FROM_TORCH = {
    "capsule": lambda side, t: side.from_dlpack(tdl.to_dlpack(t)),
    "object": lambda side, t: side.from_dlpack(t),
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


@pytest.mark.parametrize("side,layout", mx_sides(TORCH_LAYOUTS))
@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
@pytest.mark.parametrize("path", sorted(TO_TORCH))
def test_mxgo_to_torch(path, dtype, side, layout):
    convert, writers = TO_TORCH[path]
    x = side.make(dtype, layout)
    check_exchange(side, x, TORCH, convert(x), dtype, writers)


@pytest.mark.parametrize("side,layout", mx_sides(TORCH_LAYOUTS))
@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
@pytest.mark.parametrize("path", sorted(FROM_TORCH))
def test_torch_to_mxgo(path, dtype, side, layout):
    t = TORCH.make(dtype, layout)
    x = FROM_TORCH[path](side, t)
    assert type(x) is side.cls and x.writable and x.context == mx.cpu(0)
    check_exchange(TORCH, t, side, x, dtype)


@pytest.mark.parametrize("side", [MX, MXNP], ids=lambda side: side.name)
@pytest.mark.parametrize("dtype", TORCH_DLPACK_DTYPES)
def test_round_trip_keeps_the_memory(dtype, side):
    """torch -> mxgo -> torch and mxgo -> torch -> mxgo land on the original memory."""
    layout = layout_named("size1dims")  # a view with an offset and size-1 dims
    t = TORCH.make(dtype, layout)
    back = torch.from_dlpack(side.from_dlpack(t))
    check_exchange(TORCH, t, TORCH, back, dtype)
    x = side.make(dtype, layout)
    again = side.from_dlpack(tdl.to_dlpack(tdl.from_dlpack(x.to_dlpack_for_write())))
    assert type(again) is side.cls
    check_exchange(side, x, side, again, dtype)


@pytest.mark.parametrize("path", sorted(FROM_TORCH))
def test_views_of_imported_tensor_share_memory(path):
    """mxgo views (slices, reshape) of an imported tensor still alias torch's memory."""
    t = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    x = FROM_TORCH[path](MX, t)
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
