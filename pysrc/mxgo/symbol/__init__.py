"""MXNet 1.x's symbolic graphs (mx.sym, mx.symbol): enough of them to read and write
MXNet's model files (model-symbol.json), to trace a HybridBlock for export, and to run a
graph on NDArrays; mx.nd's operators are here by the same names.

Import order (tools/check_pyimports.py checks it):

    _graph ← evaluate ← shapes ← symbol
"""
from ..base import MXNetNotImplementedError
from .symbol import Group, Symbol, Variable, load, load_json, operator, var


class NumPyInterfaceError(MXNetNotImplementedError):
    """A traced block reached mx.sym.np or mx.sym.npx, which mx.sym lacks: a hybridized block
    then runs imperatively (HybridBlock catches this), and export refuses with it."""


class _NoNumPy:
    """mx.sym.np and mx.sym.npx: every name raises NumPyInterfaceError."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise NumPyInterfaceError("mx.sym.%s.%s: mxgo's mx.sym has no NumPy interface, so a block whose "
                                  "hybrid_forward calls F.%s runs imperatively when hybridized and cannot be exported"
                                  % (self._name, attr, self._name))


np, npx = _NoNumPy("np"), _NoNumPy("npx")


def __getattr__(name):
    """mx.sym.<operator>: mx.nd's operators, recording nodes."""
    try:
        return operator(name)
    except AttributeError:
        raise AttributeError("module 'mxgo.symbol' has no attribute %r" % name) from None


__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "NumPyInterfaceError"]
