"""Gluon (mx.gluon), MXNet 1.x's imperative neural-network API: Parameters, Blocks, the
layers of gluon.nn, the losses of gluon.loss, the data loading of gluon.data and the models
of gluon.model_zoo, on mxgo's arrays and autograd.

Import order (tools/check_pyimports.py checks it):

    data, utils ← parameter ← block ← loss, nn ← model_zoo
"""
from . import data, loss, model_zoo, nn, utils
from .block import Block, HybridBlock, SymbolBlock
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict

__all__ = ["Block", "HybridBlock", "SymbolBlock", "Parameter", "Constant", "ParameterDict",
           "DeferredInitializationError", "data", "nn", "loss", "utils",
           "model_zoo"]
