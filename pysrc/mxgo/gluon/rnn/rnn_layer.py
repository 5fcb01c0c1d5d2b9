"""Fused recurrent layers (gluon.rnn.RNN, LSTM, GRU), as MXNet 1.x has them: one call of
the RNN operator on the Parameters packed into one vector (weights then biases, layer
by layer, the forward direction first). Parameters are named l0_i2h_weight,
r0_h2h_bias, ...; saved under MXNet's structural names (_unfused.0.i2h_weight), so that
parameter files interoperate with MXNet's."""
import re

from ... import ndarray as nd
from ..block import HybridBlock
from .rnn_cell import _check

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
_NAME = re.compile(r"(l|r)(\d)_(i2h|h2h|h2r)_(weight|bias)\Z")


class _RNNLayer(HybridBlock):
    """The fused layers' implementation; subclasses give state_info."""

    def __init__(self, hidden_size, num_layers, layout, dropout, bidirectional, input_size, i2h_weight_initializer,
                 h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, mode, projection_size,
                 h2r_weight_initializer, lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan, dtype,
                 use_sequence_length=False, **kwargs):
        super().__init__(**kwargs)
        _check(layout in ("TNC", "NTC"), "Invalid layout %s; must be one of ['TNC' or 'NTC']" % layout)
        if mode not in _GATES:
            raise ValueError("unknown recurrent mode %r: expected one of %s" % (mode, ", ".join(sorted(_GATES))))
        unsupported = [name for name, v in (("projection_size", projection_size), ("state_clip_min",
                       lstm_state_clip_min), ("state_clip_max", lstm_state_clip_max),
                       ("use_sequence_length", use_sequence_length)) if v]
        if unsupported:
            raise NotImplementedError("%s: %s not implemented in mxgo" % (type(self).__name__, ", ".join(unsupported)))
        self._hidden_size = hidden_size
        self._projection_size = None
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._i2h_weight_initializer = i2h_weight_initializer
        self._h2h_weight_initializer = h2h_weight_initializer
        self._i2h_bias_initializer = i2h_bias_initializer
        self._h2h_bias_initializer = h2h_bias_initializer
        self._h2r_weight_initializer = h2r_weight_initializer
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = use_sequence_length
        self.skip_states = None
        self._gates = _GATES[mode]
        rows, ni = self._gates * hidden_size, input_size
        for i in range(num_layers):
            for j in "lr"[:self._dir]:
                for name, shape, init in (("i2h_weight", (rows, ni), i2h_weight_initializer),
                                          ("h2h_weight", (rows, hidden_size), h2h_weight_initializer),
                                          ("i2h_bias", (rows,), i2h_bias_initializer),
                                          ("h2h_bias", (rows,), h2h_bias_initializer)):
                    name = "%s%d_%s" % (j, i, name)
                    setattr(self, name, self.params.get(name, shape=shape, init=init, allow_deferred_init=True,
                                                        dtype=dtype))
            ni = hidden_size * self._dir
        # the packed order of the RNN operator's parameter vector: every weight, then every bias
        self._packed = tuple("%s%d_%s_%s" % (d, i, g, t) for t in ("weight", "bias") for i in range(num_layers)
                             for d in "lr"[:self._dir] for g in ("i2h", "h2h"))

    def __repr__(self):
        s = "{name}({mapping}, {_layout}"
        if self._num_layers != 1:
            s += ", num_layers={_num_layers}"
        if self._dropout != 0:
            s += ", dropout={_dropout}"
        if self._dir == 2:
            s += ", bidirectional"
        s += ")"
        shape = self.l0_i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0] // self._gates)
        return s.format(name=self.__class__.__name__, mapping=mapping, **self.__dict__)

    def _collect_params_with_prefix(self, prefix=""):
        """MXNet's structural names: _unfused.<layer>.<i2h|h2h>_<weight|bias>, with
        .<l|r>_cell before the last part when bidirectional."""
        if prefix:
            prefix += "."

        def key(name):
            d, layer, g, t = _NAME.match(name).groups()
            return "_unfused.%s.%s%s_%s" % (layer, d + "_cell." if self._dir == 2 else "", g, t)
        ret = {prefix + key(k): v for k, v in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def state_info(self, batch_size=0):
        raise NotImplementedError

    def _state_shape(self, batch_size):
        return {"shape": (self._num_layers * self._dir, batch_size, self._hidden_size), "__layout__": "LNC",
                "dtype": self._dtype}

    def cast(self, dtype):
        super().cast(dtype)
        self._dtype = dtype

    def begin_state(self, batch_size=0, func=nd.zeros, **kwargs):
        """The initial states, made by ``func(name=..., shape=..., dtype=..., **kwargs)``
        (mxgo's array makers take no ``__layout__``: it is left out)."""
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            info = dict(info, **kwargs)
            info.pop("__layout__", None)
            states.append(func(name="%sh0_%d" % (self.prefix, i), **info))
        return states

    def __call__(self, inputs, states=None, sequence_length=None):
        """The output (T, N, dirs*hidden) laid out as layout; with states given, (output,
        final states). sequence_length is ignored, as MXNet does without use_sequence_length."""
        self.skip_states = states is None
        if states is None:
            batch_size = inputs.shape[self._layout.find("N")]
            states = self.begin_state(batch_size, ctx=inputs.context, dtype=inputs.dtype)
        if isinstance(states, nd.NDArray):
            states = [states]
        return super().__call__(inputs, states)

    def infer_shape(self, inputs, *args):
        rows, ni = self._gates * self._hidden_size, inputs.shape[2]
        for j in "lr"[:self._dir]:
            getattr(self, j + "0_i2h_weight").shape = (rows, ni)

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        batch_size = inputs.shape[self._layout.find("N")]
        for state, info in zip(states, self.state_info(batch_size)):
            if state.shape != info["shape"]:
                raise ValueError("Invalid recurrent state shape. Expecting %s, got %s."
                                 % (str(info["shape"]), str(state.shape)))
        out = self._forward_kernel(F, inputs, states, **kwargs)
        return out[0] if self.skip_states else out

    def _forward_kernel(self, F, inputs, states, **kwargs):
        if self._layout == "NTC":
            inputs = F.swapaxes(inputs, 0, 1)
        params = F.concat(*(kwargs[name].reshape(-1) for name in self._packed), dim=0)
        rnn = F.RNN(inputs, params, *states, state_size=self._hidden_size, num_layers=self._num_layers,
                    bidirectional=self._dir == 2, p=self._dropout, state_outputs=True, mode=self._mode)
        outputs, states = rnn[0], list(rnn[1:])
        if self._layout == "NTC":
            outputs = F.swapaxes(outputs, 0, 1)
        return outputs, states


class RNN(_RNNLayer):
    """A multi-layer Elman RNN, tanh or relu."""

    def __init__(self, hidden_size, num_layers=1, activation="relu", layout="TNC", dropout=0, bidirectional=False,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", input_size=0, dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, "rnn_" + activation,
                         None, None, None, None, False, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size)]


class LSTM(_RNNLayer):
    """A multi-layer long short-term memory RNN; states [h, c]. projection_size and the
    state clipping are not implemented (they raise NotImplementedError)."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", projection_size=None, h2r_weight_initializer=None,
                 state_clip_min=None, state_clip_max=None, state_clip_nan=False, dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, "lstm", projection_size,
                         h2r_weight_initializer, state_clip_min, state_clip_max, state_clip_nan, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size), self._state_shape(batch_size)]


class GRU(_RNNLayer):
    """A multi-layer gated recurrent unit RNN (cuDNN's gates: the reset gate scales the
    recurrent product after its bias)."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, "gru", None, None, None,
                         None, False, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size)]
