from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...initializer import Initializer
from ...ndarray import NDArray
from ..block import HybridBlock

_Init = Initializer | str | None

class _RNNLayer(HybridBlock):
    skip_states: bool | None
    def __init__(self, hidden_size: int, num_layers: int, layout: str, dropout: float, bidirectional: bool,
                 input_size: int, i2h_weight_initializer: _Init, h2h_weight_initializer: _Init,
                 i2h_bias_initializer: _Init, h2h_bias_initializer: _Init, mode: str, projection_size: int | None,
                 h2r_weight_initializer: _Init, lstm_state_clip_min: float | None, lstm_state_clip_max: float | None,
                 lstm_state_clip_nan: bool, dtype: Any, use_sequence_length: bool = False, **kwargs: Any) -> None: ...
    def state_info(self, batch_size: int = 0) -> list[dict[str, Any]]: ...
    def begin_state(self, batch_size: int = 0, func: Callable[..., NDArray] = ..., **kwargs: Any) -> list[NDArray]: ...
    def __call__(self, inputs: NDArray, states: NDArray | list[NDArray] | None = None,  # type: ignore[override]
                 sequence_length: NDArray | None = None) -> Any: ...
    def infer_shape(self, inputs: NDArray, *args: Any) -> None: ...
    def hybrid_forward(self, F: ModuleType, inputs: Any, states: Any,  # type: ignore[override]
                       sequence_length: Any = None, **kwargs: Any) -> Any: ...

class RNN(_RNNLayer):
    def __init__(self, hidden_size: int, num_layers: int = 1, activation: str = "relu", layout: str = "TNC",
                 dropout: float = 0, bidirectional: bool = False, i2h_weight_initializer: _Init = None,
                 h2h_weight_initializer: _Init = None, i2h_bias_initializer: _Init = "zeros",
                 h2h_bias_initializer: _Init = "zeros", input_size: int = 0, dtype: Any = "float32",
                 **kwargs: Any) -> None: ...

class LSTM(_RNNLayer):
    def __init__(self, hidden_size: int, num_layers: int = 1, layout: str = "TNC", dropout: float = 0,
                 bidirectional: bool = False, input_size: int = 0, i2h_weight_initializer: _Init = None,
                 h2h_weight_initializer: _Init = None, i2h_bias_initializer: _Init = "zeros",
                 h2h_bias_initializer: _Init = "zeros", projection_size: int | None = None,
                 h2r_weight_initializer: _Init = None, state_clip_min: float | None = None,
                 state_clip_max: float | None = None, state_clip_nan: bool = False, dtype: Any = "float32",
                 **kwargs: Any) -> None: ...

class GRU(_RNNLayer):
    def __init__(self, hidden_size: int, num_layers: int = 1, layout: str = "TNC", dropout: float = 0,
                 bidirectional: bool = False, input_size: int = 0, i2h_weight_initializer: _Init = None,
                 h2h_weight_initializer: _Init = None, i2h_bias_initializer: _Init = "zeros",
                 h2h_bias_initializer: _Init = "zeros", dtype: Any = "float32", **kwargs: Any) -> None: ...
