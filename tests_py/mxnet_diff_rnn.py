"""Differential cases (mxnet_diff.py) for the fused RNN operator: every mode, stacked and
bidirectional, its results with state_outputs (out and the final states) and its
gradients (data, parameters, state, state_cell) for a non-uniform head gradient.
tests_py/test_mxnet_rnn.py covers every mode, layer count and direction in both dtypes.

rnn_relu is compared in float32 only: MXNet 1.9.1's float64 rnn_relu is float32-accurate
(3e-7 off a float64 loop, where mxgo's is exact), beyond this suite's float64 tolerance.
"""
from mxnet_diff import Case
from mxnet_diff_grad import grad_case
from mxnet_diff_grad_nn2 import arr

CASES = []
GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
STEPS, BATCH, IN, H = 3, 2, 4, 3


def _inputs(mode, layers, dirs, dt, seed):
    size = sum(dirs * GATES[mode] * H * (n + H + 2) for n in [IN] + [dirs * H] * (layers - 1))
    inputs = {"x": (arr(STEPS, BATCH, IN, seed=seed), dt), "p": (arr(size, seed=seed + 1, lo=-0.7, hi=0.7), dt),
              "h": (arr(layers * dirs, BATCH, H, seed=seed + 2), dt)}
    if mode == "lstm":
        inputs["c"] = (arr(layers * dirs, BATCH, H, seed=seed + 3), dt)
    return inputs


def _call(mode, layers, dirs, inputs, state_outputs):
    return "mx.nd.RNN(%s, state_size=%d, num_layers=%d, bidirectional=%s, mode=%r, state_outputs=%s)" % (
        ", ".join(inputs), H, layers, dirs == 2, mode, state_outputs)


for k, (mode, layers, dirs, dt) in enumerate([("rnn_relu", 2, 2, "float32"), ("rnn_tanh", 1, 2, "float64"),
                                              ("lstm", 2, 1, "float32"), ("lstm", 2, 2, "float64"),
                                              ("gru", 1, 1, "float64"), ("gru", 2, 2, "float32")]):
    inputs = _inputs(mode, layers, dirs, dt, seed=80 + 4 * k)
    label = "RNN %s %d layers %s %s" % (mode, layers, "bi" if dirs == 2 else "uni", dt)
    code = "".join("%s = mx.nd.array(%s, dtype=%r)\n" % (n, a, t) for n, (a, t) in inputs.items())
    CASES.append(Case(code + "r = %s\n" % _call(mode, layers, dirs, inputs, True), ("nd.RNN",), label))
    grad_case(_call(mode, layers, dirs, inputs, False), ("nd.RNN",), inputs, id=label + " gradient", cases=CASES)
