"""Gluon (mx.gluon), MXNet 1.x's imperative neural-network API: Parameters, Blocks, the
layers of gluon.nn, the recurrent layers and cells of gluon.rnn, the losses of gluon.loss, the
Trainer, the data loading of gluon.data and the models of gluon.model_zoo, on mxgo's arrays
and autograd.

Import order (tools/check_pyimports.py checks it):

    utils ← parameter ← block ← loss, nn, trainer ← data, model_zoo, rnn

(data sits above nn because data.vision's transforms are Blocks.)
"""
from . import data, loss, model_zoo, nn, rnn, utils
from .trainer import Trainer
from .block import Block, HybridBlock, SymbolBlock
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict

__all__ = ["Block", "HybridBlock", "SymbolBlock", "Trainer", "Parameter", "Constant", "ParameterDict",
           "DeferredInitializationError", "data", "nn", "rnn", "loss", "utils", "model_zoo"]
