from . import launch as launch

__all__ = ["launch"]
