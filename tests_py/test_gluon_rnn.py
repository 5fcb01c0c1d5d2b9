"""gluon.rnn on its own (its numbers are checked against MXNet in test_mxnet_rnn.py): bad
inputs raise MXNet's exceptions and leave the layer usable, begin_state's shapes, unroll
with and without merged outputs, dropout only while training."""
import numpy as np
import pytest

import mxgo as mx
from mxgo.gluon import rnn


def _x(*shape, dtype="float32"):
    return mx.nd.array(np.random.default_rng(0).standard_normal(shape), dtype=dtype)


@pytest.mark.parametrize("layer,count", [(rnn.RNN, 1), (rnn.LSTM, 2), (rnn.GRU, 1)])
def test_begin_state_shapes(layer, count):
    net = layer(4, num_layers=2, bidirectional=True)
    states = net.begin_state(3, dtype="float64")
    assert [(s.shape, s.dtype) for s in states] == [((4, 3, 4), np.float64)] * count
    assert all((s.asnumpy() == 0).all() for s in states)
    ones = net.begin_state(2, func=mx.nd.ones)
    assert [s.shape for s in ones] == [(4, 2, 4)] * count and (ones[0].asnumpy() == 1).all()


def test_layer_outputs_and_states():
    net = rnn.LSTM(3, layout="NTC")
    net.initialize()
    x = _x(2, 5, 4)
    out = net(x)
    assert isinstance(out, mx.nd.NDArray) and out.shape == (2, 5, 3)
    assert net.l0_i2h_weight.shape == (12, 4)  # the deferred input size, from the data
    out, states = net(x, net.begin_state(2))
    assert out.shape == (2, 5, 3) and [s.shape for s in states] == [(1, 2, 3), (1, 2, 3)]


def test_bad_states_raise_and_leave_the_layer_usable():
    net = rnn.GRU(3)
    net.initialize()
    x = _x(4, 2, 5)
    with pytest.raises(ValueError, match=r"Invalid recurrent state shape. Expecting \(1, 2, 3\), got \(1, 3, 3\)"):
        net(x, mx.nd.zeros((1, 3, 3)))
    with pytest.raises(mx.base.MXNetError, match="expects 3 inputs"):
        net(x, [mx.nd.zeros((1, 2, 3))] * 2)
    assert net(x).shape == (4, 2, 3)


def test_bad_arguments():
    with pytest.raises(AssertionError, match="Invalid layout"):
        rnn.LSTM(3, layout="NCT")
    with pytest.raises(ValueError, match="unknown recurrent mode 'rnn_sigmoid'"):
        rnn.RNN(3, activation="sigmoid")
    with pytest.raises(NotImplementedError, match="projection_size"):
        rnn.LSTM(3, projection_size=2)
    with pytest.raises(mx.base.MXNetError, match="vector of 48 elements"):
        mx.nd.RNN(_x(2, 1, 2), _x(47), _x(1, 1, 2), _x(1, 1, 2), state_size=2, num_layers=1, mode="lstm")
    with pytest.raises(mx.base.MXNetError, match="mode"):
        mx.nd.RNN(_x(2, 1, 2), _x(48), _x(1, 1, 2), state_size=2, num_layers=1, mode="lstm2")
    cell = rnn.RNNCell(3)
    with pytest.raises(AssertionError):
        cell.unroll(4, _x(2, 3, 5))  # 3 steps, not 4
    with pytest.raises(NotImplementedError):
        rnn.BidirectionalCell(rnn.RNNCell(2), rnn.RNNCell(2))(_x(2, 3), [])


@pytest.mark.parametrize("layout", ["NTC", "TNC"])
def test_unroll_merge_outputs(layout):
    cell = rnn.GRUCell(3)
    cell.initialize()
    x = _x(2, 4, 5) if layout == "NTC" else _x(4, 2, 5)
    merged, states = cell.unroll(4, x, layout=layout, merge_outputs=True)
    steps, states2 = cell.unroll(4, x, layout=layout, merge_outputs=False)
    assert merged.shape == x.shape[:2] + (3,) and len(steps) == 4 and steps[0].shape == (2, 3)
    axis = layout.find("T")
    np.testing.assert_allclose(np.stack([s.asnumpy() for s in steps], axis=axis), merged.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(states[0].asnumpy(), steps[-1].asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(states2[0].asnumpy(), states[0].asnumpy(), rtol=1e-6)


def test_modified_cell_refuses_direct_use():
    base = rnn.LSTMCell(2)
    zone = rnn.ZoneoutCell(base, 0.5, 0.5)
    with pytest.raises(AssertionError, match="modifier"):
        base.begin_state(batch_size=1)
    assert [s.shape for s in zone.begin_state(batch_size=3)] == [(3, 2), (3, 2)]
    with pytest.raises(AssertionError, match="already modified"):
        rnn.ResidualCell(base)


def test_dropout_only_while_training():
    net = rnn.RNN(50, num_layers=2, dropout=0.5, activation="tanh", input_size=4)
    cell = rnn.DropoutCell(0.5)
    net.initialize()
    x = _x(3, 2, 4)
    plain = net(x).asnumpy()
    with mx.autograd.record(train_mode=False):
        np.testing.assert_array_equal(net(x).asnumpy(), plain)
        np.testing.assert_array_equal(cell.unroll(3, x, layout="TNC", merge_outputs=True)[0].asnumpy(),
                                      x.asnumpy())
    with mx.autograd.record():
        dropped = net(x)
        half = cell.unroll(3, mx.nd.ones((3, 2, 100)), layout="TNC", merge_outputs=True)[0].asnumpy()
    assert not np.allclose(dropped.asnumpy(), plain)
    assert set(np.unique(half)) == {0.0, 2.0}
    dropped.backward()  # the gradient redraws the forward's mask
