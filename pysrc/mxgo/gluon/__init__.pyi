from . import data as data, loss as loss, model_zoo as model_zoo, nn as nn, utils as utils
from .block import Block as Block, HybridBlock as HybridBlock, SymbolBlock as SymbolBlock
from .parameter import (Constant as Constant, DeferredInitializationError as DeferredInitializationError,
                        Parameter as Parameter, ParameterDict as ParameterDict)

__all__ = ["Block", "HybridBlock", "SymbolBlock", "Parameter", "Constant", "ParameterDict",
           "DeferredInitializationError", "data", "nn", "loss", "utils",
           "model_zoo"]
