"""Gluon (mx.gluon), MXNet 1.x's imperative neural-network API: Parameters, Blocks, the
layers of gluon.nn and the losses of gluon.loss, on mxgo's arrays and autograd.

Import order (tools/check_pyimports.py checks it):

    utils ← parameter ← block ← loss, nn
"""
from . import loss, nn, utils
from .block import Block, HybridBlock, SymbolBlock
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict

__all__ = ["Block", "HybridBlock", "SymbolBlock", "Parameter", "Constant", "ParameterDict", "DeferredInitializationError", "nn",
           "loss", "utils"]
