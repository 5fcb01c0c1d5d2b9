"""Recurrent cells (gluon.rnn.RNNCell, LSTMCell, GRUCell, the sequential, bidirectional
and modifier cells), as MXNet 1.x has them: one step ``cell(inputs, states)`` returns
``(output, new_states)``; ``unroll`` runs a sequence. Built from registry operators
(FullyConnected, the activations, SliceChannel), so autograd differentiates them.

mxgo has no Symbol API: inputs are NDArrays or lists of them.
"""
import numpy as np

from ... import ndarray as nd
from ..block import Block, HybridBlock
from ..nn import LeakyReLU
from ..utils import indent


def _as_list(x):
    return x if isinstance(x, list) else [x]


def _check(cond, message):
    """MXNet's assertions (AssertionError), kept under python -O."""
    if not cond:
        raise AssertionError(message)


def _cells_state_info(cells, batch_size):
    return sum([c.state_info(batch_size) for c in cells], [])


def _cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


def _get_begin_state(cell, begin_state, inputs, batch_size):
    if begin_state is not None:
        return begin_state
    ctx = inputs.context if isinstance(inputs, nd.NDArray) else inputs[0].context
    with ctx:
        return cell.begin_state(func=nd.zeros, batch_size=batch_size)


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """inputs (an array laid out as in_layout, or a list of steps) as a list of steps
    (merge False), one array laid out as layout (merge True) or as given (None); with
    the time axis and the batch size."""
    _check(inputs is not None, "unroll(inputs=None) has been deprecated. Please create input variables outside unroll.")
    axis, batch_axis = layout.find("T"), layout.find("N")
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, nd.NDArray):
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            _check(length is None or length == inputs.shape[in_axis],
                   "unroll length %s does not match the inputs' %d steps" % (length, inputs.shape[in_axis]))
            inputs = _as_list(nd.split(inputs, axis=in_axis, num_outputs=inputs.shape[in_axis], squeeze_axis=1))
    else:
        _check(length is None or len(inputs) == length,
               "unroll length %s does not match the %d inputs" % (length, len(inputs)))
        batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = nd.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, nd.NDArray) and axis != in_axis:
        inputs = nd.swapaxes(inputs, axis, in_axis)
    return inputs, axis, batch_size


def _mask_sequence_variable_length(data, length, valid_length, time_axis, merge):
    if not isinstance(data, nd.NDArray):
        data = nd.stack(*data, axis=time_axis)
    outputs = nd.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True, axis=time_axis)
    if not merge:
        outputs = _as_list(nd.split(outputs, num_outputs=length, axis=time_axis, squeeze_axis=True))
    return outputs


def _reverse_sequences(sequences, unroll_step, valid_length=None):
    if valid_length is None:
        return list(reversed(sequences))
    reverse = nd.SequenceReverse(nd.stack(*sequences, axis=0), sequence_length=valid_length,
                                 use_sequence_length=True)
    if unroll_step > 1:
        return _as_list(nd.split(reverse, axis=0, num_outputs=unroll_step, squeeze_axis=True))
    return [reverse[0]]


def _not_modified(cell):
    _check(not cell._modified, "After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called "
                               "directly. Call the modifier cell instead.")


class RecurrentCell(Block):
    """The base class of recurrent cells: ``cell(inputs, states)`` is one step."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Resets the step counters, before a new sequence."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """The shape (and layout) of each state."""
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=nd.zeros, **kwargs):
        """The initial states, made by ``func(name=..., shape=..., **kwargs)`` (mxgo's
        array makers take no ``__layout__``: it is left out)."""
        _not_modified(self)
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            info = dict(info or {}, **kwargs)
            info.pop("__layout__", None)
            states.append(func(name="%sbegin_state_%d" % (self._prefix, self._init_counter), **info))
        return states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        """Runs length steps on inputs (one array laid out as layout, or a list of steps);
        returns (outputs, states), outputs merged into one array if merge_outputs (as given
        when None). With valid_length, steps past each sequence's length give 0 and the
        states of its last step."""
        self.reset()
        inputs, axis, batch_size = _format_sequence(length, inputs, layout, False)
        states = _get_begin_state(self, begin_state, inputs, batch_size)
        outputs, all_states = [], []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [nd.SequenceLast(nd.stack(*steps, axis=0), sequence_length=valid_length,
                                      use_sequence_length=True, axis=0) for steps in zip(*all_states)]
            outputs = _mask_sequence_variable_length(outputs, length, valid_length, axis, True)
        outputs, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, F, inputs, activation, **kwargs):
        func = {"tanh": F.tanh, "relu": F.relu, "sigmoid": F.sigmoid, "softsign": F.softsign}.get(activation)
        if func:
            return func(inputs, **kwargs)
        if isinstance(activation, str):
            return F.Activation(inputs, act_type=activation, **kwargs)
        if isinstance(activation, LeakyReLU):
            return F.LeakyReLU(inputs, act_type="leaky", slope=activation._alpha, **kwargs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        """One step: (output, new states)."""
        self._counter += 1
        return super().forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A recurrent cell whose step is ``hybrid_forward(F, inputs, states, **params)``."""

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class _GatedCell(HybridRecurrentCell):
    """A cell of gates i2h(x) + h2h(h): weights (gates*hidden, input) and (gates*hidden, hidden)."""

    _gates = 1

    def __init__(self, hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                 h2h_bias_initializer, input_size, prefix, params):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        rows = self._gates * hidden_size
        for name, shape, init in (("i2h_weight", (rows, input_size), i2h_weight_initializer),
                                  ("h2h_weight", (rows, hidden_size), h2h_weight_initializer),
                                  ("i2h_bias", (rows,), i2h_bias_initializer),
                                  ("h2h_bias", (rows,), h2h_bias_initializer)):
            setattr(self, name, self.params.get(name, shape=shape, init=init, allow_deferred_init=True))

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def infer_shape(self, inputs, *args):
        self.i2h_weight.shape = (self._gates * self._hidden_size, int(np.prod(inputs.shape[1:])))

    def _mapping(self):
        shape = self.i2h_weight.shape
        return "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0])

    def __repr__(self):
        return "{name}({mapping})".format(name=self.__class__.__name__, mapping=self._mapping())

    def _products(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        rows = self._gates * self._hidden_size
        return (F.FullyConnected(inputs, i2h_weight, i2h_bias, num_hidden=rows),
                F.FullyConnected(states[0], h2h_weight, h2h_bias, num_hidden=rows))


class RNNCell(_GatedCell):
    """Elman cell: h' = activation(i2h(x) + h2h(h))."""

    def __init__(self, hidden_size, activation="tanh", i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, input_size, prefix, params)
        self._activation = activation

    def _alias(self):
        return "rnn"

    def __repr__(self):
        return "{name}({mapping}, {act})".format(name=self.__class__.__name__, mapping=self._mapping(),
                                                 act=self._activation)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        i2h, h2h = self._products(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        output = self._get_activation(F, F.elemwise_add(i2h, h2h), self._activation)
        return output, [output]


class LSTMCell(_GatedCell):
    """Long short-term memory cell, gates in, forget, cell, out; states [h, c]."""

    _gates = 4

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None,
                 activation="tanh", recurrent_activation="sigmoid"):
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, input_size, prefix, params)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def state_info(self, batch_size=0):
        return super().state_info(batch_size) * 2

    def _alias(self):
        return "lstm"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        i2h, h2h = self._products(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        gates = F.SliceChannel(F.elemwise_add(i2h, h2h), num_outputs=4)
        in_gate, forget_gate, out_gate = (self._get_activation(F, gates[i], self._recurrent_activation)
                                          for i in (0, 1, 3))
        in_transform = self._get_activation(F, gates[2], self._activation)
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1]), F.elemwise_mul(in_gate, in_transform))
        next_h = F.elemwise_mul(out_gate, F.Activation(next_c, act_type=self._activation))
        return next_h, [next_h, next_c]


class GRUCell(_GatedCell):
    """Gated recurrent unit, gates reset, update, new; the reset gate scales h2h's new
    part, its bias included (as cuDNN's)."""

    _gates = 3

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, input_size, prefix, params)

    def _alias(self):
        return "gru"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        i2h, h2h = self._products(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3)
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3)
        reset_gate = F.Activation(F.elemwise_add(i2h_r, h2h_r), act_type="sigmoid")
        update_gate = F.Activation(F.elemwise_add(i2h_z, h2h_z), act_type="sigmoid")
        next_h_tmp = F.Activation(F.elemwise_add(i2h, F.elemwise_mul(reset_gate, h2h)), act_type="tanh")
        keep = F.elemwise_sub(F.ones_like(update_gate), update_gate)
        next_h = F.elemwise_add(F.elemwise_mul(keep, next_h_tmp), F.elemwise_mul(update_gate, states[0]))
        return next_h, [next_h]


class _CellStack:
    """What SequentialRNNCell and HybridSequentialRNNCell share: cells run in order, each
    on its slice of the states."""

    def __repr__(self):
        modstr = "\n".join("({i}): {m}".format(i=i, m=indent(repr(m), 2)) for i, m in self._children.items())
        return "{name}(\n{modstr}\n)".format(name=self.__class__.__name__, modstr=modstr)

    def add(self, cell):
        """Appends cell."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        _not_modified(self)
        return _cells_begin_state(self._children.values(), **kwargs)

    def _split_states(self, states):
        p = 0
        for cell in self._children.values():
            n = len(cell.state_info())
            yield cell, states[p:p + n]
            p += n

    def __call__(self, inputs, states):
        self._counter += 1
        _check(not any(isinstance(c, BidirectionalCell) for c in self._children.values()),
               "Bidirectional cells cannot be stepped: use unroll")
        next_states = []
        for cell, state in self._split_states(states):
            inputs, state = cell(inputs, state)
            next_states.extend(state)
        return inputs, next_states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, _, batch_size = _format_sequence(length, inputs, layout, None)
        begin_state = _get_begin_state(self, begin_state, inputs, batch_size)
        last = len(self._children) - 1
        next_states = []
        for i, (cell, states) in enumerate(self._split_states(begin_state)):
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                         merge_outputs=None if i < last else merge_outputs,
                                         valid_length=valid_length)
            next_states.extend(states)
        return inputs, next_states

    def __getitem__(self, i):
        return self._children[str(i)]

    def __len__(self):
        return len(self._children)


class SequentialRNNCell(_CellStack, RecurrentCell):
    """Stacks recurrent cells."""


class HybridSequentialRNNCell(_CellStack, HybridRecurrentCell):
    """Stacks hybrid recurrent cells."""

    def hybrid_forward(self, F, inputs, states):
        return self(inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Applies dropout to its input (while training); no states."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(prefix, params)
        _check(isinstance(rate, (int, float)), "rate must be a number")
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return "{name}(rate={_rate}, axes={_axes})".format(name=self.__class__.__name__, **self.__dict__)

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return "dropout"

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(inputs, p=self._rate, axes=self._axes)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, _, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, nd.NDArray):
            return self.hybrid_forward(nd, inputs, begin_state if begin_state else [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout, merge_outputs=merge_outputs)


class ModifierCell(HybridRecurrentCell):
    """The base class of cells that wrap another (base_cell), sharing its Parameters."""

    def __init__(self, base_cell):
        _check(not base_cell._modified, "Cell %s is already modified. One cell cannot be modified twice"
               % base_cell.name)
        base_cell._modified = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=nd.zeros, **kwargs):
        _not_modified(self)
        self.base_cell._modified = False
        try:
            return self.base_cell.begin_state(func=func, **kwargs)
        finally:
            self.base_cell._modified = True

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError

    def __repr__(self):
        return "{name}({base_cell})".format(name=self.__class__.__name__, **self.__dict__)


class ZoneoutCell(ModifierCell):
    """Zoneout: while training, each output and state element keeps its previous value
    with probability zoneout_outputs / zoneout_states."""

    def __init__(self, base_cell, zoneout_outputs=0.0, zoneout_states=0.0):
        _check(not isinstance(base_cell, BidirectionalCell), "BidirectionalCell doesn't support zoneout since it "
               "doesn't support step. Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return "{name}(p_out={zoneout_outputs}, p_state={zoneout_states}, {base_cell})".format(
            name=self.__class__.__name__, **self.__dict__)

    def _alias(self):
        return "zoneout"

    def reset(self):
        super().reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        next_output, next_states = self.base_cell(inputs, states)

        def mask(p, like):
            return F.Dropout(F.ones_like(like), p=p)
        prev_output = self._prev_output if self._prev_output is not None else F.zeros_like(next_output)
        output = (F.where(mask(self.zoneout_outputs, next_output), next_output, prev_output)
                  if self.zoneout_outputs != 0.0 else next_output)
        if self.zoneout_states != 0.0:
            next_states = [F.where(mask(self.zoneout_states, new), new, old) for new, old in zip(next_states, states)]
        self._prev_output = output
        return output, next_states


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output."""

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        return F.elemwise_add(output, inputs), states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        self.base_cell._modified = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state, layout=layout,
                                                    merge_outputs=merge_outputs, valid_length=valid_length)
        finally:
            self.base_cell._modified = True
        merge_outputs = isinstance(outputs, nd.NDArray) if merge_outputs is None else merge_outputs
        inputs, axis, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mask_sequence_variable_length(inputs, length, valid_length, axis, merge_outputs)
        if merge_outputs:
            return nd.elemwise_add(outputs, inputs), states
        return [nd.elemwise_add(i, j) for i, j in zip(outputs, inputs)], states


class BidirectionalCell(HybridRecurrentCell):
    """Runs l_cell forward and r_cell backward over a sequence (unroll only), their
    outputs concatenated."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super().__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self):
        return "{name}(forward={l_cell}, backward={r_cell})".format(
            name=self.__class__.__name__, l_cell=self._children["l_cell"], r_cell=self._children["r_cell"])

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        _not_modified(self)
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, axis, batch_size = _format_sequence(length, inputs, layout, False)
        reversed_inputs = list(_reverse_sequences(inputs, length, valid_length))
        states = _get_begin_state(self, begin_state, inputs, batch_size)
        l_cell, r_cell = self._children.values()
        n = len(l_cell.state_info(batch_size))
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n], layout=layout,
                                            merge_outputs=merge_outputs, valid_length=valid_length)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs, begin_state=states[n:], layout=layout,
                                            merge_outputs=False, valid_length=valid_length)
        reversed_r_outputs = _reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, nd.NDArray)
            l_outputs, _, _ = _format_sequence(None, l_outputs, layout, merge_outputs)
            reversed_r_outputs, _, _ = _format_sequence(None, reversed_r_outputs, layout, merge_outputs)
        if merge_outputs:
            reversed_r_outputs = nd.stack(*reversed_r_outputs, axis=axis)
            outputs = nd.concat(l_outputs, reversed_r_outputs, dim=2)
        else:
            outputs = [nd.concat(l_o, r_o, dim=1) for l_o, r_o in zip(l_outputs, reversed_r_outputs)]
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(outputs, length, valid_length, axis, merge_outputs)
        return outputs, l_states + r_states
