"""mx.metric without MXNet at hand: the values MXNet 1.9.1's documentation gives for its
examples, float64 running sums under any NumPy (NumPy 2 keeps ``0.0 + float32`` in float32,
MXNet's NumPy 1.x did not), get()'s shapes, the registry, and MXNet's exception types for bad
input. The exact comparison with MXNet is test_mxnet_metric.py.
"""
import math

import numpy as np
import pytest

import mxgo as mx

PREDS = [mx.nd.array([[0.3, 0.7], [0, 1.0], [0.4, 0.6]])]
LABELS = [mx.nd.array([0, 1, 1])]
REG_PREDS = [mx.nd.array(np.array([3, -0.5, 2, 7]).reshape(4, 1))]
REG_LABELS = [mx.nd.array(np.array([2.5, 0.0, 2, 8]).reshape(4, 1))]

# (metric, labels, preds, MXNet's documented value)
DOCUMENTED = [
    (mx.metric.Accuracy(), LABELS, PREDS, 0.6666666666666666),
    (mx.metric.F1(), LABELS, PREDS, 0.8),
    (mx.metric.Perplexity(ignore_label=None), LABELS, PREDS, 1.7710976285155853),
    (mx.metric.MAE(), REG_LABELS, REG_PREDS, 0.5),
    (mx.metric.MSE(), REG_LABELS, REG_PREDS, 0.375),
    (mx.metric.RMSE(), REG_LABELS, REG_PREDS, 0.612372457981),
    (mx.metric.CrossEntropy(), LABELS, PREDS, 0.57159948348999023),
    (mx.metric.NegativeLogLikelihood(), LABELS, PREDS, 0.57159948348999023),
    (mx.metric.PearsonCorrelation(), [mx.nd.array([[1, 0], [0, 1], [0, 1]])], PREDS, 0.42163704544016178),
    (mx.metric.CustomMetric(lambda x, y: (x + y).mean()), REG_LABELS, REG_PREDS, 6.0),
]


@pytest.mark.parametrize("metric, labels, preds, value", DOCUMENTED, ids=lambda x: getattr(x, "name", None))
def test_documented_values(metric, labels, preds, value):
    metric.reset()
    metric.update(labels, preds)
    name, got = metric.get()
    assert name == metric.name and math.isclose(got, value, rel_tol=1e-7), got


def test_mcc_and_pcc_documented_example():
    fp, fn, tp, tn = 1000, 1, 10000, 1
    preds = [mx.nd.array([[0.3, 0.7]] * fp + [[0.7, 0.3]] * tn + [[0.7, 0.3]] * fn + [[0.3, 0.7]] * tp)]
    labels = [mx.nd.array([0.0] * (fp + tn) + [1.0] * (fn + tp))]
    for metric, value in ((mx.metric.F1(), 0.95233560306652054), (mx.metric.MCC(), 0.01917751877733392),
                          (mx.metric.PCC(), 0.01917751877733392)):
        metric.update(labels, preds)
        assert math.isclose(metric.get()[1], value, rel_tol=1e-9), metric


def test_running_sums_are_float64():
    # 0.1 in float32 summed 1000 times: float32 sums drift by ~1e-4, float64 ones do not.
    metric = mx.metric.MAE()
    x = mx.nd.array([0.1])
    for _ in range(1000):
        metric.update([mx.nd.zeros(1)], [x])
    assert type(metric.sum_metric) is float
    assert abs(metric.get()[1] - float(np.float32(0.1))) < 1e-12


def test_get_shapes_nan_and_local_versus_global():
    acc = mx.metric.create("acc")
    assert acc.get()[0] == "accuracy" and math.isnan(acc.get()[1])
    acc.update(LABELS, PREDS)
    acc.reset_local()
    assert math.isnan(acc.get()[1]) and acc.get_global() == ("accuracy", 2 / 3)
    both = mx.metric.create(["acc", "mse"])
    both.update(LABELS, [PREDS[0].argmax(axis=1)])
    names, values = both.get()
    assert names == ["accuracy", "mse"] and values == [2 / 3, float(np.float32(1 / 3))]  # a float32 mean
    assert both.get_name_value() == list(zip(names, values))


def test_np_decorator_and_register():
    metric = mx.metric.np(lambda label, pred: float(np.abs(label - pred).max()))
    assert metric.name == "custom(<lambda>)"

    @mx.metric.register
    @mx.metric.alias("twice_acc")
    class TwiceAccuracy(mx.metric.Accuracy):
        pass

    try:
        assert type(mx.metric.create("TWICE_ACC")) is TwiceAccuracy
        with pytest.warns(UserWarning, match="overriding"):
            mx.metric.register(TwiceAccuracy, "twice_acc")
    finally:
        for name in ("twiceaccuracy", "twice_acc"):
            del mx.registry._REGISTRY[mx.metric.EvalMetric][name]


BAD = [
    (AssertionError, lambda: mx.metric.create("no-such-metric")),
    (AssertionError, lambda: mx.metric.create(mx.metric.MAE(), 3)),
    (AssertionError, lambda: mx.metric.TopKAccuracy(top_k=1)),
    (ValueError, lambda: mx.metric.Accuracy().update(LABELS * 2, PREDS)),
    (ValueError, lambda: mx.metric.Accuracy().update([mx.nd.array([0, 1])], PREDS)),
    (ValueError, lambda: mx.metric.F1().update([mx.nd.array([0, 1, 2])], [mx.nd.ones((3, 3))])),
    (ValueError, lambda: mx.metric.CompositeEvalMetric().get_metric(0)),
    (NotImplementedError, lambda: mx.metric.np(abs).get_config()),
    (mx.MXNetError, lambda: mx.metric.Accuracy().update([mx.nd.array([0, 1])], [mx.nd.array([0, 1, 1])])),
]


@pytest.mark.parametrize("kind, fn", BAD)
def test_bad_input(kind, fn):
    with pytest.raises(kind):
        fn()


def test_a_failed_update_keeps_earlier_counts():
    acc = mx.metric.Accuracy()
    acc.update(LABELS, PREDS)
    with pytest.raises(ValueError):
        acc.update(LABELS * 2, PREDS)
    assert acc.get() == ("accuracy", 2 / 3) and acc.num_inst == 3
