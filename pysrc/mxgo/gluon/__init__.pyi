from . import data as data

__all__ = ["data"]
