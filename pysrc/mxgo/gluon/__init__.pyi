from . import data as data, loss as loss, model_zoo as model_zoo, nn as nn, rnn as rnn, utils as utils
from .trainer import Trainer as Trainer
from .block import Block as Block, HybridBlock as HybridBlock, SymbolBlock as SymbolBlock
from .parameter import (Constant as Constant, DeferredInitializationError as DeferredInitializationError,
                        Parameter as Parameter, ParameterDict as ParameterDict)

__all__ = ["Block", "HybridBlock", "SymbolBlock", "Trainer", "Parameter", "Constant", "ParameterDict",
           "DeferredInitializationError", "data", "nn", "rnn", "loss", "utils", "model_zoo"]
