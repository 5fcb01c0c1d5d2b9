from typing import Any

from ..context import Context as Context
from ..context import cpu as cpu
from ..context import cpu_pinned as cpu_pinned
from ..context import current_context as current_context
from ..context import gpu as gpu
from ..context import num_gpus as num_gpus
from ..ndarray import waitall as waitall
from ..numpy import ndarray
from ..util import is_np_array as is_np_array
from ..util import is_np_shape as is_np_shape
from ..util import reset_np as reset_np
from ..util import set_np as set_np
from . import random as random

__all__ = ["Context", "cpu", "cpu_pinned", "current_context", "gpu", "num_gpus", "waitall", "is_np_array",
           "is_np_shape", "reset_np", "set_np", "random", "load", "save", "nonzero", "reshape", "arange_like",
           "constraint_check", "activation", "batch_dot", "batch_flatten", "batch_norm", "cast", "convolution",
           "deconvolution", "dropout", "embedding", "erf", "erfinv", "fully_connected", "gamma", "gammaln",
           "gather_nd", "layer_norm", "leaky_relu", "log_softmax", "one_hot", "pick", "pooling", "relu",
           "reshape_like", "rnn", "roi_pooling", "sequence_mask", "shape_array", "sigmoid", "slice", "smooth_l1",
           "softmax", "topk"]

def reshape(a: Any, newshape: int | tuple[int, ...], reverse: bool = False, order: str = "C") -> ndarray: ...
def nonzero(a: Any) -> ndarray: ...
def arange_like(data: Any, start: float = ..., step: float = ..., repeat: int = ..., ctx: Any = ...,
                axis: int | None = ...) -> ndarray: ...
def constraint_check(x: Any, msg: str) -> ndarray: ...
def save(file: str, arr: Any) -> None: ...
def load(file: str) -> Any: ...
def activation(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Activation with mx.np results
def batch_dot(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.batch_dot with mx.np results
def batch_flatten(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Flatten with mx.np results
def batch_norm(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.BatchNorm with mx.np results
def cast(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Cast with mx.np results
def convolution(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Convolution with mx.np results
def deconvolution(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Deconvolution with mx.np results
def dropout(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Dropout with mx.np results
def embedding(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Embedding with mx.np results
def erf(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.erf with mx.np results
def erfinv(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.erfinv with mx.np results
def fully_connected(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.FullyConnected with mx.np results
def gamma(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.gamma with mx.np results
def gammaln(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.gammaln with mx.np results
def gather_nd(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.gather_nd with mx.np results
def layer_norm(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.LayerNorm with mx.np results
def leaky_relu(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.LeakyReLU with mx.np results
def log_softmax(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.log_softmax with mx.np results
def one_hot(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.one_hot with mx.np results
def pick(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.pick with mx.np results
def pooling(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.Pooling with mx.np results
def relu(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.relu with mx.np results
def reshape_like(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.reshape_like with mx.np results
def rnn(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.RNN with mx.np results
def roi_pooling(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.ROIPooling with mx.np results
def sequence_mask(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.SequenceMask with mx.np results
def shape_array(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.shape_array with mx.np results
def sigmoid(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.sigmoid with mx.np results
def slice(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.slice with mx.np results
def smooth_l1(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.smooth_l1 with mx.np results
def softmax(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.softmax with mx.np results
def topk(*args: Any, **kwargs: Any) -> Any: ...  # mx.nd.topk with mx.np results
