from collections.abc import Callable

from .symbol import (Group as Group, Symbol as Symbol, Variable as Variable, load as load, load_json as load_json,
                     operator as operator, var as var)

def __getattr__(name: str) -> Callable[..., Symbol]: ...

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json"]
