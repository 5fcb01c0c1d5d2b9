from collections.abc import Callable

from .symbol import (Group as Group, Symbol as Symbol, Variable as Variable, load as load, load_json as load_json,
                     operator as operator, var as var)

from typing import Any

from ..base import MXNetNotImplementedError

class NumPyInterfaceError(MXNetNotImplementedError): ...

class _NoNumPy:
    def __init__(self, name: str) -> None: ...
    def __getattr__(self, attr: str) -> Any: ...

np: _NoNumPy
npx: _NoNumPy

def __getattr__(name: str) -> Callable[..., Symbol]: ...

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "NumPyInterfaceError"]
