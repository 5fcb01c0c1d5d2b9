import importlib.abc
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["install", "uninstall", "resolve", "main", "MXNetFinder"]

NAME: str
PACKAGE: str
ALIASES: dict[str, str]

def resolve(fullname: str) -> ModuleType: ...

class _Loader(importlib.abc.Loader):
    module: ModuleType
    spec: ModuleSpec | None
    def __init__(self, module: ModuleType) -> None: ...
    def create_module(self, spec: ModuleSpec) -> ModuleType: ...
    def exec_module(self, module: ModuleType) -> None: ...

class MXNetFinder(importlib.abc.MetaPathFinder):
    mxgo_as_mxnet: bool
    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None: ...

def install() -> None: ...
def uninstall() -> None: ...
def main(argv: Sequence[str] | None = None) -> int: ...
