"""mx.metric against the real MXNet 1.9.1's: every metric, fed the same batches in both
libraries (several updates, reset_local, more updates, reset), reports the same names and
exactly the same values locally and globally; configs, the registry's names and the errors
of bad input agree.

Collected only in the MXNet environment (.venv-mxnet, MXGO_TEST_ENV=mxnet; environments.py).
"""
import math

import mxnet
import numpy as np
import pytest

import mxgo as mx

R = np.random.RandomState(7)


def scores(n, classes):
    p = R.rand(n, classes).astype("float32")
    return p / p.sum(axis=1, keepdims=True)


def classes(n, k, dtype="float32"):
    return R.randint(0, k, size=n).astype(dtype)


def batch(labels, preds):
    return [labels] if not isinstance(labels, list) else labels, [preds] if not isinstance(preds, list) else preds


# Each case: (create's arguments, [(labels, preds) per update]) as NumPy arrays.
CLASSIFY = [batch(classes(8, 4), scores(8, 4)), batch([classes(5, 4), classes(3, 4)], [scores(5, 4), scores(3, 4)]),
            batch(classes(6, 4), classes(6, 4))]  # the last: predicted classes, shaped as the labels
BINARY = [batch(classes(9, 2), scores(9, 2)), batch([classes(4, 2), classes(7, 2)], [scores(4, 2), scores(7, 2)]),
          batch(np.ones(3, "float32"), scores(3, 2))]
REGRESS = [batch(R.randn(7).astype("float32"), R.randn(7).astype("float32")),
           batch(R.randn(4, 1).astype("float32"), R.randn(4).astype("float32")),
           batch([R.randn(3, 2).astype("float32")], [R.randn(3, 2).astype("float32")])]
SEQUENCE = [batch(classes(12, 5).reshape(3, 4), scores(12, 5)), batch(classes(6, 5), scores(6, 5))]
PAIRED = [batch(R.randn(7).astype("float32"), R.randn(7).astype("float32")),
          batch([R.randn(3, 2).astype("float32"), R.randn(5).astype("float32")],
                [R.randn(3, 2).astype("float32"), R.randn(5).astype("float32")])]
MULTICLASS = [batch(classes(10, 2), scores(10, 2)), batch(classes(8, 5), scores(8, 5)), batch(classes(4, 3), classes(4, 3))]
LOSSES = [batch(np.zeros(3, "float32"), R.rand(3).astype("float32")),
          batch(np.zeros(2, "float32"), R.rand(2, 4).astype("float64"))]


def mean_abs(label, pred):
    return float(np.abs(label - pred).mean())


def sum_and_count(label, pred):
    return float((label.ravel() == pred.argmax(axis=1)).sum()), label.size


CASES = {
    "acc": (("acc",), CLASSIFY),
    "accuracy-axis0": (("accuracy", {"axis": 0}), [batch(classes(4, 6), scores(6, 4))]),
    "top_k": (("top_k_accuracy", {"top_k": 3}), CLASSIFY[:2]),
    "top_k-all": (("top_k_acc", {"top_k": 4}), CLASSIFY[:1]),
    "f1": (("f1",), BINARY),
    "f1-micro": (("f1", {"average": "micro"}), BINARY),
    "mcc": (("mcc",), BINARY),
    "mcc-micro": (("mcc", {"average": "micro"}), BINARY),
    "perplexity": (("perplexity", {"ignore_label": None}), SEQUENCE),
    "perplexity-ignore": (("perplexity", {"ignore_label": 2}), SEQUENCE),
    "mae": (("mae",), REGRESS),
    "mse": (("mse",), REGRESS),
    "rmse": (("rmse",), REGRESS),
    "ce": (("ce",), CLASSIFY[:2]),
    "ce-eps": (("crossentropy", {"eps": 0.25}), CLASSIFY[:1]),
    "nll": (("nll_loss",), CLASSIFY[:2]),
    "pearsonr": (("pearsonr",), PAIRED),
    "pearsonr-micro": (("pearsonr", {"average": "micro"}), PAIRED),
    "pcc": (("pcc",), MULTICLASS),
    "loss": (("loss",), LOSSES),
    "torch": (("torch",), LOSSES[:1]),
    "caffe": (("caffe",), LOSSES[:1]),
    "custom": ((mean_abs,), REGRESS[:2]),
    "custom-tuple": ((sum_and_count, "hits"), CLASSIFY[:2]),
    "custom-lambda": ((lambda label, pred: float(pred.sum()),), REGRESS[:1]),
    "composite": ((), CLASSIFY[:2]),  # made by composite()
    "json": (('["accuracy", {"axis": 1}]',), CLASSIFY[:1]),
}


def composite(lib):
    return lib.metric.create(["acc", "ce", lib.metric.TopKAccuracy(top_k=2), lib.metric.np(sum_and_count)])


def make(lib, args):
    head, rest = args[0], args[1:]
    kwargs = rest[-1] if rest and isinstance(rest[-1], dict) else {}
    positional = rest[:-1] if kwargs else rest
    return lib.metric.create(head, *positional, **kwargs)


def arrays(lib, xs):
    return [lib.nd.array(x, dtype=x.dtype) for x in xs]


def trace(lib, metric, batches):
    """What the metric reports through a run: after each update, after reset_local, after
    more updates and after reset."""
    out = [metric.get(), metric.get_global()]
    for step in (batches, batches[::-1]):
        for labels, preds in step:
            metric.update(arrays(lib, labels), arrays(lib, preds))
            out += [metric.get(), metric.get_global(), metric.get_name_value(), metric.get_global_name_value()]
        metric.reset_local()
        out += [metric.get(), metric.get_global()]
    metric.reset()
    return out + [metric.get(), metric.get_global(), str(metric)]


def same(a, b):
    """Equal, NaN equal to NaN, floats exactly; a NumPy scalar equals a Python number."""
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("case", sorted(CASES))
def test_metric_reports_what_mxnet_reports(case):
    args, batches = CASES[case]
    theirs, ours = (composite(mxnet), composite(mx)) if case == "composite" else (make(mxnet, args), make(mx, args))
    assert type(ours).__name__ == type(theirs).__name__ and ours.name == theirs.name
    expected, got = trace(mxnet, theirs, batches), trace(mx, ours, batches)
    assert same(got, expected), (got, expected)


@pytest.mark.parametrize("case", ["acc", "top_k", "f1-micro", "perplexity-ignore", "ce-eps", "pcc", "composite",
                                  "pearsonr-micro"])
def test_configs_match_and_recreate(case):
    args, _ = CASES[case]
    theirs, ours = (composite(mxnet), composite(mx)) if case == "composite" else (make(mxnet, args), make(mx, args))
    if case == "composite":  # its CustomMetric child cannot be serialized, in both
        for m in (theirs, ours):
            m.metrics.pop()
    config = ours.get_config()
    assert config == theirs.get_config()
    again = mx.metric.create(**config)  # as MXNet's: TopKAccuracy's name takes its suffix again
    assert type(again) is type(ours) and again.get_config() == mxnet.metric.create(**config).get_config()


def test_registry_names_match():
    theirs = mxnet.registry.get_registry(mxnet.metric.EvalMetric)
    ours = mx.registry.get_registry(mx.metric.EvalMetric)
    assert sorted(ours) == sorted(theirs)
    assert all(ours[n].__name__ == c.__name__ for n, c in theirs.items())


def test_update_dict_picks_named_arrays():
    batches = {}
    for lib in (mxnet, mx):
        m = lib.metric.create(["acc", lib.metric.Accuracy(name="second", label_names=["b"], output_names=["q"])],
)
        labels = {"a": lib.nd.array(CLASSIFY[0][0][0]), "b": lib.nd.array(CLASSIFY[0][0][0] * 0)}
        preds = {"p": lib.nd.array(CLASSIFY[0][1][0]), "q": lib.nd.array(CLASSIFY[0][1][0])}
        m.update_dict(labels, preds)
        batches[lib] = m.get()
    assert same(batches[mx], batches[mxnet])


def raised(fn):
    try:
        fn()
    except Exception as err:  # the type is what the test compares
        return type(err)
    return None


BAD = {
    "more labels than preds": lambda lib: lib.metric.Accuracy().update(arrays(lib, CLASSIFY[1][0]), arrays(lib, CLASSIFY[0][1])),
    "label length": lambda lib: lib.metric.Accuracy().update([lib.nd.array([0, 1])], [lib.nd.array(scores(3, 2))]),
    "1-d scores": lambda lib: lib.metric.Accuracy().update([lib.nd.array([0, 1])], [lib.nd.array([0, 1, 1])]),
    "top_k above classes": lambda lib: lib.metric.TopKAccuracy(top_k=5).update([lib.nd.ones(2)], [lib.nd.ones((2, 4))]),
    "binary only": lambda lib: lib.metric.F1().update([lib.nd.array([0, 1, 2])], [lib.nd.array(scores(3, 3))]),
    "f1 lengths": lambda lib: lib.metric.F1().update([lib.nd.array([0, 1])], [lib.nd.array(scores(3, 2))]),
    "pearson shapes": lambda lib: lib.metric.PearsonCorrelation().update([lib.nd.ones(3)], [lib.nd.ones((3, 1))]),
    "top_k 1": lambda lib: lib.metric.TopKAccuracy(top_k=1),
    "top_k 3-d": lambda lib: lib.metric.TopKAccuracy(top_k=2).update([lib.nd.ones(2)], [lib.nd.ones((2, 2, 2))]),
    "perplexity shapes": lambda lib: lib.metric.Perplexity(None).update([lib.nd.ones(3)], [lib.nd.ones((2, 4))]),
    "unknown name": lambda lib: lib.metric.create("no-such-metric"),
    "instance with arguments": lambda lib: lib.metric.create(lib.metric.MAE(), 3),
    "not a name": lambda lib: lib.metric.create(3),
    "register a non-metric": lambda lib: lib.metric.register(dict),
    "custom config": lambda lib: lib.metric.np(mean_abs).get_config(),
    "abstract update": lambda lib: lib.metric.EvalMetric("x").update([], []),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_raises_what_mxnet_raises(case):
    theirs, ours = raised(lambda: BAD[case](mxnet)), raised(lambda: BAD[case](mx))
    assert theirs is not None and ours is not None
    if theirs is mxnet.base.MXNetError:  # mxgo's operator errors are its MXNetError's subclasses
        assert issubclass(ours, mx.MXNetError), ours
    else:  # mx.registry's errors are also the AssertionError MXNet raises
        assert issubclass(ours, theirs), (ours, theirs)
