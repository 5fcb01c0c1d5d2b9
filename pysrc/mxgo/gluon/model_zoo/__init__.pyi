from . import model_store as model_store, vision as vision

__all__ = ["model_store", "vision"]
