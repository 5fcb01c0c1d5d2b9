"""MXNet 1.x's symbolic graphs (mx.sym, mx.symbol): enough of them to read and write
MXNet's model files (model-symbol.json), to trace a HybridBlock for export, and to run a
graph on NDArrays; mx.nd's operators are here by the same names.

Import order (tools/check_pyimports.py checks it):

    _graph ← evaluate ← shapes ← symbol
"""
from .symbol import Group, Symbol, Variable, load, load_json, operator, var


def __getattr__(name):
    """mx.sym.<operator>: mx.nd's operators, recording nodes."""
    try:
        return operator(name)
    except AttributeError:
        raise AttributeError("module 'mxgo.symbol' has no attribute %r" % name) from None


__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json"]
