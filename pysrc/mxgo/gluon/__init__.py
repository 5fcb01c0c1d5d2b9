"""Gluon (mx.gluon), MXNet 1.x's imperative neural-network API: Parameters, Blocks, the
layers of gluon.nn, the recurrent layers and cells of gluon.rnn and the losses of gluon.loss, on
mxgo's arrays and autograd.

Import order (tools/check_pyimports.py checks it):

    utils ← parameter ← block ← loss, nn ← rnn
"""
from . import loss, nn, rnn, utils
from .block import Block, HybridBlock
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict

__all__ = ["Block", "HybridBlock", "Parameter", "Constant", "ParameterDict", "DeferredInitializationError", "nn",
           "rnn", "loss", "utils"]
