from ..block import Block as Block, HybridBlock as HybridBlock, SymbolBlock as SymbolBlock
from .activations import (ELU as ELU, GELU as GELU, SELU as SELU, Activation as Activation, LeakyReLU as LeakyReLU,
                          PReLU as PReLU, Swish as Swish)
from .basic_layers import (BatchNorm as BatchNorm, BatchNormReLU as BatchNormReLU, Dense as Dense, Dropout as Dropout,
                           Embedding as Embedding, Flatten as Flatten, GroupNorm as GroupNorm,
                           HybridLambda as HybridLambda, HybridSequential as HybridSequential,
                           InstanceNorm as InstanceNorm, Lambda as Lambda, LayerNorm as LayerNorm,
                           Sequential as Sequential)
from .conv_layers import (AvgPool1D as AvgPool1D, AvgPool2D as AvgPool2D, AvgPool3D as AvgPool3D, Conv1D as Conv1D,
                          Conv1DTranspose as Conv1DTranspose, Conv2D as Conv2D, Conv2DTranspose as Conv2DTranspose,
                          Conv3D as Conv3D, Conv3DTranspose as Conv3DTranspose, GlobalAvgPool1D as GlobalAvgPool1D,
                          GlobalAvgPool2D as GlobalAvgPool2D, GlobalAvgPool3D as GlobalAvgPool3D,
                          GlobalMaxPool1D as GlobalMaxPool1D, GlobalMaxPool2D as GlobalMaxPool2D,
                          GlobalMaxPool3D as GlobalMaxPool3D, MaxPool1D as MaxPool1D, MaxPool2D as MaxPool2D,
                          MaxPool3D as MaxPool3D, ReflectionPad2D as ReflectionPad2D)

__all__ = ["Activation", "LeakyReLU", "PReLU", "ELU", "SELU", "GELU", "Swish", "Sequential", "HybridSequential",
           "Dense", "Dropout", "BatchNorm", "BatchNormReLU", "Embedding", "Flatten", "InstanceNorm", "LayerNorm",
           "GroupNorm", "Lambda", "HybridLambda", "Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalAvgPool1D", "GlobalAvgPool2D",
           "GlobalAvgPool3D", "ReflectionPad2D", "Block", "HybridBlock", "SymbolBlock"]
