from collections.abc import Iterable

import tvm_ffi

from ._typing import SupportsDLPack

__all__ = ["to_mxgo_func", "register_global_functions", "BridgedFunction", "PREFIX"]

PREFIX: str

class BridgedFunction:
    func: tvm_ffi.Function
    const_loc: tuple[int, ...]
    def __init__(self, func: tvm_ffi.Function, const_loc: tuple[int, ...]) -> None: ...
    def __call__(self, *args: SupportsDLPack | bool | int | float) -> None: ...

def register_global_functions(prefix: str = "mxgo.nd.") -> int: ...
def to_mxgo_func(func: tvm_ffi.Function, const_loc: Iterable[int] = ()) -> BridgedFunction: ...
