from . import loss as loss, nn as nn, rnn as rnn, utils as utils
from .block import Block as Block, HybridBlock as HybridBlock
from .parameter import (Constant as Constant, DeferredInitializationError as DeferredInitializationError,
                        Parameter as Parameter, ParameterDict as ParameterDict)

__all__ = ["Block", "HybridBlock", "Parameter", "Constant", "ParameterDict", "DeferredInitializationError", "nn",
           "rnn", "loss", "utils"]
