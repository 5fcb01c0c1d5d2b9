from . import base as base
from . import engine as engine
from . import kvstore as kvstore
from .base import KVStoreBase as KVStoreBase
from .kvstore import KVStore as KVStore
from .kvstore import create as create

__all__ = ["KVStoreBase", "KVStore", "create", "base", "engine", "kvstore"]
