# mx.nd.<operator> (add, sum, ...) come from _ops.pyi, which tools/stubs generates from the
# Go operator registry when the wheel is built.
from . import linalg as linalg
from . import random as random
from ._ops import *  # noqa: F403 - generated names, listed in _ops.__all__
from ._ops import __all__ as __all__
from .callback import DLPackView as DLPackView
from .callback import run_async as run_async
from .dlpack import ReadOnlyDLPack as ReadOnlyDLPack
from .dlpack import from_dlpack as from_dlpack
from .dlpack import to_dlpack_for_read as to_dlpack_for_read
from .dlpack import to_dlpack_for_write as to_dlpack_for_write
from .io import load as load
from .io import load_frombuffer as load_frombuffer
from .io import save as save
from .layout import SequenceLast as SequenceLast
from .layout import SequenceMask as SequenceMask
from .layout import SequenceReverse as SequenceReverse
from .layout import SliceChannel as SliceChannel
from .layout import concatenate as concatenate
from .layout import moveaxis as moveaxis
from .layout import onehot_encode as onehot_encode
from .layout import split as split
from .layout import split_v2 as split_v2
from .linalg import gelqf as linalg_gelqf
from .loss import CTCLoss as CTCLoss
from .loss import ctc_loss as ctc_loss
from .linalg import slogdet as linalg_slogdet
from .ndarray import NDArray as NDArray
from .op_multi import histogram as histogram
from .ndarray import arange as arange
from .ndarray import array as array
from .ndarray import empty as empty
from .ndarray import eye as eye
from .ndarray import from_numpy as from_numpy
from .ndarray import full as full
from .ndarray import linspace as linspace
from .ndarray import ones as ones
from .ndarray import waitall as waitall
from .ndarray import zeros as zeros

__all__ += ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "linspace", "eye", "waitall", "random",
            "linalg", "linalg_gelqf", "linalg_slogdet",
            "from_dlpack", "from_numpy", "to_dlpack_for_read", "to_dlpack_for_write", "ReadOnlyDLPack",
            "run_async", "DLPackView", "save", "load", "load_frombuffer",
            "split", "SliceChannel", "split_v2", "concatenate", "moveaxis", "onehot_encode",
            "SequenceMask", "SequenceLast", "SequenceReverse", "CTCLoss", "ctc_loss"]
__all__ += ["histogram"]
