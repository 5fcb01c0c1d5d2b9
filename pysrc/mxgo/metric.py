"""mx.metric: online evaluation metrics, as MXNet 1.9.1's.

    acc = mx.metric.create("acc")
    acc.update([mx.nd.array([0, 1, 1])], [mx.nd.array([[0.3, 0.7], [0, 1], [0.4, 0.6]])])
    acc.get()               # ('accuracy', 0.6666666666666666)

A metric keeps a local sum and count (``get``, cleared by ``reset_local``) and a global one
(``get_global``, cleared only by ``reset``). Values are computed on the host with NumPy
after ``asnumpy()``, or with mx.nd operators, wherever MXNet computes them, so the numbers
agree with MXNet's. Each batch's value is made a Python float before it is added up:
MXNet's running sums are float64 (NumPy 1.x promoted ``0.0 + float32``); NumPy 2 would keep
float32 and drift.
"""
import math
import numbers
from collections import OrderedDict

import numpy

from . import ndarray
from .ndarray import NDArray
from .registry import get_alias_func, get_create_func, get_register_func

__all__ = ["check_label_shapes", "EvalMetric", "register", "alias", "create", "CompositeEvalMetric", "Accuracy",
           "TopKAccuracy", "F1", "MCC", "Perplexity", "MAE", "MSE", "RMSE", "CrossEntropy", "NegativeLogLikelihood",
           "PearsonCorrelation", "PCC", "Loss", "Torch", "Caffe", "CustomMetric", "np"]


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Raises ValueError unless labels and preds have the same length (their shapes with
    ``shape=True``); with ``wrap=True`` returns single NDArrays wrapped in lists."""
    label_shape, pred_shape = (labels.shape, preds.shape) if shape else (len(labels), len(preds))
    if label_shape != pred_shape:
        raise ValueError("Shape of labels {} does not match shape of predictions {}".format(label_shape, pred_shape))
    if wrap:
        labels = [labels] if isinstance(labels, NDArray) else labels
        preds = [preds] if isinstance(preds, NDArray) else preds
    return labels, preds


def _check(condition, message):
    """MXNet asserts these; an explicit AssertionError still raises under ``python -O``."""
    if not condition:
        raise AssertionError(message)


class EvalMetric:
    """Base class of the metrics: subclasses define ``update(labels, preds)``.

    ``output_names`` and ``label_names`` choose, in order, the arrays that ``update_dict``
    passes on (None: all of them)."""

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return "EvalMetric: {}".format(dict(self.get_name_value()))

    def get_config(self):
        """The arguments that recreate this metric with ``create(**config)``."""
        config = dict(self._kwargs)
        config.update(metric=type(self).__name__, name=self.name, output_names=self.output_names,
                      label_names=self.label_names)
        return config

    def update_dict(self, label, pred):
        """``update`` with the arrays of two name -> NDArray mappings."""
        pred = [pred[n] for n in self.output_names] if self.output_names is not None else list(pred.values())
        label = [label[n] for n in self.label_names] if self.label_names is not None else list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Adds a batch of labels and predictions (NDArrays, or lists of them)."""
        raise NotImplementedError()

    def reset(self):
        """Clears the local and the global results."""
        self.num_inst = self.global_num_inst = 0
        self.sum_metric = self.global_sum_metric = 0.0

    def reset_local(self):
        """Clears the local results."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def _add(self, value, count):
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def get(self):
        """(name, value) of the local results; the value is NaN before any instance."""
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))

    def get_global(self):
        """(name, value) of the results since the last ``reset``."""
        if not self._has_global_stats:
            return self.get()
        return self.name, (self.global_sum_metric / self.global_num_inst if self.global_num_inst else float("nan"))

    def get_name_value(self):
        """[(name, value), ...] of ``get()``."""
        return _zipped(*self.get())

    def get_global_name_value(self):
        """[(name, value), ...] of ``get_global()``."""
        return _zipped(*self.get_global())


def _zipped(name, value):
    return list(zip(name if isinstance(name, list) else [name], value if isinstance(value, list) else [value]))


register = get_register_func(EvalMetric, "metric")
alias = get_alias_func(EvalMetric, "metric")
_create = get_create_func(EvalMetric, "metric")


def create(metric, *args, **kwargs):
    """A metric from a name (``"acc"``), an EvalMetric, a list of those (a
    CompositeEvalMetric) or a function ``feval(label, pred)`` (a CustomMetric); ``args``
    and ``kwargs`` go to the constructor."""
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create(metric, *args, **kwargs)


@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get`` returns their names and values as lists."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.metrics = [create(m) for m in metrics or []]

    def add(self, metric):
        """Adds a child metric (anything ``create`` takes)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at ``index``."""
        try:
            return self.metrics[index]
        except IndexError:
            # MXNet returns this ValueError instead of raising it.
            raise ValueError("Metric index {} is out of range 0 and {}".format(index, len(self.metrics))) from None

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict(i for i in labels.items() if i[0] in self.label_names)
        if self.output_names is not None:
            preds = OrderedDict(i for i in preds.items() if i[0] in self.output_names)
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    # The base __init__ resets before the children exist: nothing to reset then.
    def reset(self):
        for metric in getattr(self, "metrics", ()):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, "metrics", ()):
            metric.reset_local()

    def _gather(self, results):
        names, values = [], []
        for name, value in results:
            names.extend([name] if isinstance(name, str) else name)
            values.extend([value] if isinstance(value, (numbers.Number, numpy.generic)) else value)
        return names, values

    def get(self):
        return self._gather(m.get() for m in self.metrics)

    def get_global(self):
        return self._gather(m.get_global() for m in self.metrics)

    def get_config(self):
        config = super().get_config()
        config["metrics"] = [m.get_config() for m in self.metrics]
        return config


@register
@alias("acc")
class Accuracy(EvalMetric):
    """The fraction of predictions equal to the label; a prediction shaped unlike its label
    holds per-class scores along ``axis``, and its argmax is the predicted class."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            if pred.shape != label.shape:
                pred = ndarray.argmax(pred, axis=self.axis)
            pred = pred.asnumpy().astype("int32").ravel()
            label = label.asnumpy().astype("int32").ravel()
            check_label_shapes(label, pred)
            self._add(int((pred == label).sum()), len(pred))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """The fraction of samples whose label is among the ``top_k`` highest scores."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        _check(self.top_k > 1, "Please use Accuracy if top_k is no more than 1")
        self.name += "_%d" % self.top_k

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            _check(len(pred.shape) <= 2, "Predictions should be no more than 2 dims")
            # The order within the top k does not matter: a partition is enough.
            pred = numpy.argpartition(pred.asnumpy().astype("float32"), -self.top_k)
            label = label.asnumpy().astype("int32")
            check_label_shapes(label, pred)
            label = label.ravel()
            if pred.ndim == 1:
                self.sum_metric += int((pred == label).sum())  # as MXNet: the global sum misses these
            else:
                classes = pred.shape[1]
                for j in range(min(classes, self.top_k)):
                    self._add(int((pred[:, classes - 1 - j] == label).sum()), 0)
            self._add(0, pred.shape[0])


class _Confusion:
    """Binary true/false positive/negative counts of the batches since a reset, local and
    global, for F1 and MCC."""

    def __init__(self, owner):
        self._owner = owner
        self.local = self.total = None
        self.reset()

    def reset(self):
        self.local, self.total = numpy.zeros(4, numpy.int64), numpy.zeros(4, numpy.int64)

    def reset_local(self):
        self.local = numpy.zeros(4, numpy.int64)

    def update(self, label, pred):
        pred = pred.asnumpy()
        label = label.asnumpy().astype("int32")
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            raise ValueError("%s currently only supports binary classification." % self._owner)
        pred_true, label_true = numpy.argmax(pred, axis=1) == 1, label == 1
        counts = [(pred_true & label_true).sum(), (pred_true & ~label_true).sum(),
                  (~pred_true & label_true).sum(), (~pred_true & ~label_true).sum()]
        self.local += counts
        self.total += counts

    @staticmethod
    def fscore(counts):
        tp, fp, fn, _ = (int(c) for c in counts)
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        recall = tp / (tp + fn) if tp + fn > 0 else 0.0
        return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0

    @staticmethod
    def mcc(counts):
        """Matthews' coefficient; a zero factor of the denominator counts as 1."""
        if not counts.sum():
            return 0.0
        tp, fp, fn, tn = (float(c) for c in counts)
        denom = 1.0
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            denom *= t if t != 0.0 else 1.0
        return (tp * tn - fp * fn) / math.sqrt(denom)


class _BinaryMetric(EvalMetric):
    """F1 and MCC: ``average="macro"`` averages each update's score, ``"micro"`` scores
    the counts of every update since the reset, weighted by their number."""

    def __init__(self, score, name, output_names, label_names, average):
        self.average = average
        self._score = score
        self._counts = _Confusion(type(self).__name__)
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._counts.update(label, pred)
        local, total = self._counts.local, self._counts.total
        if self.average == "macro":
            self._add(self._score(local), 1)
            self._counts.reset()
        else:
            self.sum_metric, self.num_inst = self._score(local) * int(local.sum()), int(local.sum())
            self.global_sum_metric, self.global_num_inst = self._score(total) * int(total.sum()), int(total.sum())

    def reset(self):
        super().reset()
        self._counts.reset()

    def reset_local(self):
        super().reset_local()
        self._counts.reset_local()


@register
class F1(_BinaryMetric):
    """The F1 score of a binary classification: 2 * precision * recall / (precision + recall)."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        super().__init__(_Confusion.fscore, name, output_names, label_names, average)


@register
class MCC(_BinaryMetric):
    """Matthews' correlation coefficient of a binary classification."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super().__init__(_Confusion.mcc, name, output_names, label_names, average)

    # MXNet counts MCC's instances as floats.
    def reset(self):
        super().reset()
        self.num_inst = self.global_num_inst = 0.0

    def reset_local(self):
        super().reset_local()
        self.num_inst = 0.0


@register
class Perplexity(EvalMetric):
    """exp of the mean negative log of the probability given to the label (along ``axis``);
    labels equal to ``ignore_label`` (None: none) are left out."""

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None, label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        _check(len(labels) == len(preds), "%d labels and %d predictions" % (len(labels), len(preds)))
        loss, num = 0.0, 0
        for label, pred in zip(labels, preds):
            _check(label.size == pred.size / pred.shape[-1], "shape mismatch: %s vs. %s" % (label.shape, pred.shape))
            label = label.as_in_context(pred.context).reshape((label.size,))
            pred = ndarray.pick(pred, label.astype(dtype="int32"), axis=self.axis)
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(pred.dtype)
                num -= float(ndarray.sum(ignore).asscalar())
                pred = pred * (1 - ignore) + ignore
            loss -= float(ndarray.sum(ndarray.log(ndarray.maximum(1e-10, pred))).asscalar())
            num += pred.size
        self._add(loss, num)

    def get(self):
        return self.name, (math.exp(self.sum_metric / self.num_inst) if self.num_inst else float("nan"))

    def get_global(self):
        n = self.global_num_inst
        return self.name, (math.exp(self.global_sum_metric / n) if n else float("nan"))


class _PerBatch(EvalMetric):
    """A metric that averages one value per (label, pred) pair of host arrays."""

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True, **kwargs)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self._add(*self._value(label.asnumpy(), pred.asnumpy()))

    def _value(self, label, pred):
        raise NotImplementedError()


def _column(x):
    return x.reshape(x.shape[0], 1) if x.ndim == 1 else x


@register
class MAE(_PerBatch):
    """Mean absolute error, averaged over the batches."""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, label, pred):
        return float(numpy.abs(_column(label) - _column(pred)).mean()), 1


@register
class MSE(_PerBatch):
    """Mean squared error, averaged over the batches."""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, label, pred):
        return float(((_column(label) - _column(pred)) ** 2.0).mean()), 1


@register
class RMSE(_PerBatch):
    """Root mean squared error, averaged over the batches."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    def _value(self, label, pred):
        return float(numpy.sqrt(((_column(label) - _column(pred)) ** 2.0).mean())), 1


@register
@alias("ce")
class CrossEntropy(_PerBatch):
    """Mean of -log(p + eps), p the probability each prediction row gives its label."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names, eps=eps)
        self.eps = eps

    def _value(self, label, pred):
        label = label.ravel()
        _check(label.shape[0] == pred.shape[0], (label.shape[0], pred.shape[0]))
        prob = pred[numpy.arange(label.shape[0], dtype=numpy.int64), numpy.int64(label)]
        return float((-numpy.log(prob + self.eps)).sum()), label.shape[0]


@register
@alias("nll_loss")
class NegativeLogLikelihood(CrossEntropy):
    """The negative log-likelihood: CrossEntropy's numbers under another name."""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson's correlation of the flattened labels and predictions: ``average="macro"``
    averages each pair's, ``"micro"`` correlates everything since the reset (Welford's
    running means and sums of squares)."""

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def reset_micro(self):
        """Clears the running sums of ``average="micro"``."""
        self._sse_p = self._mean_p = self._sse_l = self._mean_l = 0
        self._pred_nums = self._label_nums = 0
        self._conv = 0

    def reset(self):
        super().reset()
        if self.average == "micro":
            self.reset_micro()

    @staticmethod
    def update_variance(new_values, *aggregate):
        """Welford's update of (count, mean, sum of squared deviations) with new_values."""
        count, mean, m_2 = aggregate
        count += len(new_values)
        delta = new_values - mean
        mean += numpy.sum(delta / count)
        m_2 += numpy.sum(delta * (new_values - mean))
        return count, mean, m_2

    def update_cov(self, label, pred):
        """Adds the pair's co-deviation from the running means (before they take it in)."""
        self._conv = self._conv + numpy.sum((label - self._mean_l) * (pred - self._mean_p))

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            label = label.asnumpy().ravel().astype(numpy.float64)
            pred = pred.asnumpy().ravel().astype(numpy.float64)
            if self.average == "macro":
                self._add(float(numpy.corrcoef(pred, label)[0, 1]), 1)
                continue
            self._add(0, 1)
            self._label_nums, self._mean_l, self._sse_l = self.update_variance(
                label, self._label_nums, self._mean_l, self._sse_l)
            self.update_cov(label, pred)
            self._pred_nums, self._mean_p, self._sse_p = self.update_variance(
                pred, self._pred_nums, self._mean_p, self._sse_p)

    def get(self):
        if self.num_inst == 0 or self.average == "macro":
            return super().get()
        n = self._label_nums
        return self.name, self._conv / ((n - 1) * numpy.sqrt(self._sse_p / (n - 1)) * numpy.sqrt(self._sse_l / (n - 1)))


@register
class PCC(EvalMetric):
    """The multiclass Matthews coefficient (Pearson's, discrete) of a confusion matrix that
    grows with the largest class seen."""

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(name=name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x, y = cmat.sum(axis=1), cmat.sum(axis=0)
        cov_xx, cov_yy = numpy.sum(x * (n - x)), numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        return numpy.sum(cmat.diagonal() * n - x * y) / (cov_xx * cov_yy) ** 0.5

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = label.astype("int32", copy=False).asnumpy()
            pred = pred.asnumpy()
            pred = pred.argmax(axis=1) if pred.shape != label.shape else pred.astype("int32", copy=False)
            n = max(pred.max(), label.max())
            if n >= self.k:
                self._grow(n + 1 - self.k)
            batch = numpy.zeros((self.k, self.k))
            numpy.add.at(batch, (pred.ravel(), label.ravel()), 1)
            self.lcm += batch
            self.gcm += batch
        self.num_inst += 1
        self.global_num_inst += 1

    # The sums are the coefficient times the count, as MXNet's (get divides them again).
    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    def reset(self):
        self.global_num_inst = 0.0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.0
        self.lcm = numpy.zeros((self.k, self.k))


@register
class Loss(EvalMetric):
    """The mean of the predictions themselves (the losses); labels are ignored."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, _, preds):
        for pred in [preds] if isinstance(preds, NDArray) else preds:
            self._add(float(ndarray.sum(pred).asscalar()), pred.size)


@register
class Torch(Loss):
    """Loss under the name of torch criterions."""

    def __init__(self, name="torch", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """Loss under the name of caffe criterions."""

    def __init__(self, name="caffe", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(EvalMetric):
    """A metric of ``feval(label, pred)`` on NumPy arrays, which returns a value (one
    instance) or a tuple (sum, number of instances). ``allow_extra_outputs`` lets there be
    more predictions than labels (the extra ones are ignored)."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None):
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = "custom(%s)" % name
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            reval = self._feval(label.asnumpy(), pred.asnumpy())
            self._add(*(reval if isinstance(reval, tuple) else (reval, 1)))

    def get_config(self):
        raise NotImplementedError("CustomMetric cannot be serialized")


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A CustomMetric of ``numpy_feval(label, pred)``, which takes NumPy arrays and returns
    a float."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
