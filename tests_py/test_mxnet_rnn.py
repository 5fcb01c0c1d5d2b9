"""The RNN operator and gluon.rnn against the real MXNet 1.9.1 (collected only in
.venv-mxnet; see environments.py).

The operator: every mode, one and two layers, one and two directions, float32 and
float64: the same data, parameters and states give the same outputs and final states,
and after backward with the same head gradients the same gradients of every input.
The layers and every cell are built in both libraries, MXNet's initialized Parameters
copied into mxgo's by structural name; the names, shapes and repr, the outputs, states
and every gradient must agree; parameter files go both ways.
"""
import mxnet
import numpy as np
import pytest

import mxgo as mx
from test_mxnet_gluon import copy_params, data

RNG = np.random.default_rng(1)
GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


def param_size(mode, layers, dirs, inputs, hidden):
    sizes = [inputs] + [dirs * hidden] * (layers - 1)
    return sum(dirs * GATES[mode] * hidden * (n + hidden + 2) for n in sizes)


def _arrays(x):
    """The distinct NDArrays of a result: an array, or a (nested) list or tuple of them (a
    cell's last output is its state: one head each, as backward's heads are summed in mxgo
    where MXNet keeps the last)."""
    if not isinstance(x, (list, tuple)):
        return [x]
    return list({id(a): a for e in x for a in _arrays(e)}.values())


def _backward(lib, outs, heads):
    lib.autograd.backward(outs, [lib.nd.array(h, dtype=o.dtype) for o, h in zip(outs, heads)])


def _heads(outs):
    return [RNG.standard_normal(o.shape) for o in outs]


def _assert_all_close(ours, theirs, rtol, atol, what):
    assert len(ours) == len(theirs), what
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="%s %d" % (what, i))


# MXNet's float64 rnn_relu is float32-accurate (3e-7 off a float64 NumPy loop, where ours is exact).
TOL = {"float32": (1e-4, 1e-5), "float64": (1e-8, 1e-10)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layers,dirs", [(1, 1), (1, 2), (2, 1), (2, 2)])
@pytest.mark.parametrize("mode", sorted(GATES))
def test_operator_agrees(mode, layers, dirs, dtype):
    steps, batch, inputs, hidden = 3, 2, 4, 5
    arrays = [RNG.standard_normal((steps, batch, inputs)), 0.5 * RNG.standard_normal(
        param_size(mode, layers, dirs, inputs, hidden)), RNG.standard_normal((layers * dirs, batch, hidden))]
    if mode == "lstm":
        arrays.append(RNG.standard_normal((layers * dirs, batch, hidden)))
    heads = None
    results = []
    for lib in (mxnet, mx):
        xs = [lib.nd.array(a, dtype=dtype) for a in arrays]
        for x in xs:
            x.attach_grad()
        with lib.autograd.record():
            outs = lib.nd.RNN(*xs, state_size=hidden, num_layers=layers, bidirectional=dirs == 2, mode=mode,
                              state_outputs=True)
        heads = heads or _heads(outs)
        _backward(lib, outs, heads)
        results.append([o.asnumpy() for o in outs] + [x.grad.asnumpy() for x in xs])
    rtol, atol = (1e-5, 1e-6) if (mode, dtype) == ("rnn_relu", "float64") else TOL[dtype]
    _assert_all_close(*results, rtol, atol, "outputs, then gradients")


def test_operator_without_state_outputs_agrees():
    arrays = [data(2, 3, 4), data(param_size("gru", 1, 1, 4, 3)), data(1, 3, 3)]
    outs = [lib.nd.RNN(*[lib.nd.array(a) for a in arrays], state_size=3, num_layers=1, mode="gru")
            for lib in (mxnet, mx)]
    assert isinstance(outs[1], mx.nd.NDArray)
    np.testing.assert_allclose(outs[1].asnumpy(), outs[0].asnumpy(), rtol=1e-5, atol=1e-6)


def _build(make, inputs, call):
    """The block make(lib) of each library, initialized by MXNet's initializers and called
    once (deferred shapes), mxgo's holding MXNet's values."""
    theirs, ours = make(mxnet), make(mx)
    for lib, block in ((mxnet, theirs), (mx, ours)):
        block.initialize()
        call(block, [lib.nd.array(a, dtype=a.dtype) for a in inputs])
    assert [(k[len(theirs.prefix):], p.shape) for k, p in theirs.collect_params().items()] == \
        [(k[len(ours.prefix):], p.shape) for k, p in ours.collect_params().items()]
    assert repr(ours) == repr(theirs)
    copy_params(theirs, ours)
    return theirs, ours


def compare_block(make, inputs, call, train=True, rtol=1e-4, atol=1e-5):
    """call(block, arrays) of make(lib) in both libraries: results, input and Parameter gradients."""
    blocks = _build(make, inputs, call)
    heads, results = None, []
    for lib, block in zip((mxnet, mx), blocks):
        xs = [lib.nd.array(a, dtype=a.dtype) for a in inputs]
        for x in xs:
            x.attach_grad()
        with lib.autograd.record(train_mode=train):
            outs = _arrays(call(block, xs))
        heads = heads or _heads(outs)
        _backward(lib, outs, heads)
        params = block._collect_params_with_prefix()
        results.append(([o.asnumpy() for o in outs], [x.grad.asnumpy() for x in xs],
                        {k: p.grad().asnumpy() for k, p in sorted(params.items())}))
    (out_t, g_t, pg_t), (out_o, g_o, pg_o) = results
    _assert_all_close(out_o, out_t, rtol, atol, "output")
    _assert_all_close(g_o, g_t, rtol, atol, "input gradient")
    assert sorted(pg_o) == sorted(pg_t)
    for k in pg_t:
        np.testing.assert_allclose(pg_o[k], pg_t[k], rtol=rtol, atol=atol, err_msg=k)


def _plain(block, xs):
    return block(xs[0])


def _states(block, xs):
    """Call with the states given (the inputs after the first)."""
    return block(xs[0], list(xs[1:]))


LAYERS = {
    "rnn_relu": (lambda lib: lib.gluon.rnn.RNN(5, input_size=4), [data(3, 2, 4)], _plain),
    "rnn_tanh_ntc_bi": (lambda lib: lib.gluon.rnn.RNN(5, 2, "tanh", layout="NTC", bidirectional=True),
                        [data(2, 3, 4)], _plain),
    "lstm_2_bi_states": (lambda lib: lib.gluon.rnn.LSTM(4, 2, bidirectional=True),
                         [data(3, 2, 5), data(4, 2, 4), data(4, 2, 4)], _states),
    "lstm_ntc_inference": (lambda lib: lib.gluon.rnn.LSTM(3, layout="NTC", dropout=0.5, num_layers=2),
                           [data(2, 4, 3)], _plain),
    "gru_2": (lambda lib: lib.gluon.rnn.GRU(4, 2, i2h_bias_initializer="ones"), [data(3, 2, 3)], _plain),
    "gru_bi_states": (lambda lib: lib.gluon.rnn.GRU(3, bidirectional=True, layout="NTC", dtype="float64"),
                      [data(2, 3, 4, dtype=np.float64), data(2, 2, 3, dtype=np.float64)], _states),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_agrees(name):
    make, inputs, call = LAYERS[name]
    compare_block(make, inputs, call, train="inference" not in name)


def _unroll(layout="NTC", merge=None, length=3, valid=None):
    def call(cell, xs):
        lib = mx if isinstance(xs[0], mx.nd.NDArray) else mxnet
        steps = list(xs) if len(xs) > 1 else xs[0]
        vl = lib.nd.array(valid) if valid is not None else None
        return cell.unroll(length, steps, layout=layout, merge_outputs=merge, valid_length=vl)
    return call


def _stack(seq, *cells):
    def make(lib):
        net = getattr(lib.gluon.rnn, seq)()
        for c in cells:
            net.add(c(lib))
        return net
    return make


def _modified(mod, base, **kwargs):
    return lambda lib: getattr(lib.gluon.rnn, mod)(base(lib), **kwargs)


def _lstm(lib):
    return lib.gluon.rnn.LSTMCell(4, prefix="lstm_")


CELLS = {
    "rnn_relu": (lambda lib: lib.gluon.rnn.RNNCell(4, "relu"), _unroll("TNC", True), [data(3, 2, 5)]),
    "rnn_softrelu": (lambda lib: lib.gluon.rnn.RNNCell(4, "softrelu", input_size=5),
                  _unroll(merge=False), [data(2, 3, 5)]),
    "lstm_steps": (_lstm, _unroll(), [data(2, 5), data(2, 5), data(2, 5)]),
    "lstm_valid": (_lstm, _unroll(merge=True, valid=[1, 3]), [data(2, 3, 5)]),
    "gru": (lambda lib: lib.gluon.rnn.GRUCell(3), _unroll("TNC", True), [data(3, 2, 4)]),
    "sequential": (_stack("SequentialRNNCell", _lstm, lambda lib: lib.gluon.rnn.GRUCell(3)), _unroll(merge=True),
                   [data(2, 3, 5)]),
    "hybrid_sequential_dropout": (_stack("HybridSequentialRNNCell", lambda lib: lib.gluon.rnn.GRUCell(3),
                                         lambda lib: lib.gluon.rnn.DropoutCell(0.5),
                                         lambda lib: lib.gluon.rnn.RNNCell(2)), _unroll(), [data(2, 3, 5)]),
    "bidirectional": (lambda lib: lib.gluon.rnn.BidirectionalCell(lib.gluon.rnn.GRUCell(3, prefix="l_"),
                                                                  lib.gluon.rnn.LSTMCell(2, prefix="r_")),
                      _unroll(merge=True), [data(2, 3, 5)]),
    "bidirectional_valid": (lambda lib: lib.gluon.rnn.BidirectionalCell(lib.gluon.rnn.RNNCell(3, prefix="l_"),
                                                                        lib.gluon.rnn.RNNCell(3, prefix="r_")),
                            _unroll(merge=False, valid=[2, 3]), [data(2, 3, 5)]),
    "residual": (_modified("ResidualCell", lambda lib: lib.gluon.rnn.GRUCell(5)), _unroll(merge=True),
                 [data(2, 3, 5)]),
    "zoneout_inference": (_modified("ZoneoutCell", _lstm, zoneout_outputs=0.3, zoneout_states=0.4),
                          _unroll(merge=True), [data(2, 3, 5)]),
}


@pytest.mark.parametrize("name", sorted(CELLS))
def test_cell_agrees(name):
    make, call, inputs = CELLS[name]
    compare_block(make, inputs, call, train=not name.endswith(("inference", "dropout")))


def test_cell_step_and_begin_state_agree():
    def call(cell, xs):
        lib = mx if isinstance(xs[0], mx.nd.NDArray) else mxnet
        states = cell.begin_state(batch_size=2, func=lib.nd.ones)
        out, states = cell(xs[0], states)
        return cell(xs[1], states)
    compare_block(_stack("SequentialRNNCell", _lstm, lambda lib: lib.gluon.rnn.RNNCell(3)), [data(2, 4), data(2, 4)],
                  call)


def test_parameter_files_both_ways(tmp_path):
    def make(lib):
        return lib.gluon.rnn.LSTM(3, 2, bidirectional=True, input_size=4)
    theirs, ours = _build(make, [data(2, 1, 4)], lambda b, xs: b(xs[0]))
    theirs.save_parameters(str(tmp_path / "mxnet.params"))
    fresh = make(mx)
    fresh.load_parameters(str(tmp_path / "mxnet.params"))
    for k, p in theirs._collect_params_with_prefix().items():
        np.testing.assert_array_equal(fresh._collect_params_with_prefix()[k].data().asnumpy(), p.data().asnumpy())
    ours.save_parameters(str(tmp_path / "mxgo.params"))
    back = make(mxnet)
    back.load_parameters(str(tmp_path / "mxgo.params"))
    assert sorted(back._collect_params_with_prefix()) == sorted(ours._collect_params_with_prefix())
    for k, p in back._collect_params_with_prefix().items():
        np.testing.assert_array_equal(p.data().asnumpy(), theirs._collect_params_with_prefix()[k].data().asnumpy())
