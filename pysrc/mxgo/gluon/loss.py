"""Losses (gluon.loss), as MXNet 1.x computes them: each a HybridBlock of (pred, label,
[sample_weight]) that returns one loss per sample (averaged over the other axes), scaled
by ``weight`` and by ``sample_weight`` broadcast against the elementwise loss."""
import numbers

import numpy as np

from ..ndarray import NDArray
from .block import HybridBlock


_FLOAT32_MAX = 3.4028234663852886e38


def _apply_weighting(F, loss, weight=None, sample_weight=None):
    if sample_weight is not None:
        loss = F.broadcast_mul(loss, sample_weight)
    if weight is not None:
        if not isinstance(weight, numbers.Number):
            raise TypeError("weight must be a number")
        loss = loss * weight
    return loss


def _reshape_like(x, y):
    return x.reshape(y.shape) if isinstance(y, NDArray) else x.reshape_like(y)


class Loss(HybridBlock):
    """The base of losses: weight scales the loss, batch_axis is the axis kept."""

    def __init__(self, weight, batch_axis, **kwargs):
        super().__init__(**kwargs)
        self._weight = weight
        self._batch_axis = batch_axis

    def __repr__(self):
        return "{name}(batch_axis={_batch_axis}, w={_weight})".format(name=self.__class__.__name__, **self.__dict__)

    def _per_sample(self, F, loss, sample_weight, weight=None):
        """Weighted, then averaged over every axis but the batch axis."""
        loss = _apply_weighting(F, loss, self._weight if weight is None else weight, sample_weight)
        return F.mean(loss, axis=self._batch_axis, exclude=True)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class L2Loss(Loss):
    """(label - pred)² / 2 (weight 1 halves it, as MXNet does)."""

    def __init__(self, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        loss = F.square(_reshape_like(label, pred) - pred)
        return self._per_sample(F, loss, sample_weight, self._weight / 2)


class L1Loss(Loss):
    """|label - pred|."""

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        return self._per_sample(F, F.abs(_reshape_like(label, pred) - pred), sample_weight)


def _softrelu_neg_abs(F, pred):
    return F.Activation(-F.abs(pred), act_type="softrelu")


class SigmoidBinaryCrossEntropyLoss(Loss):
    """Binary cross entropy of sigmoid(pred) (computed stably from logits unless
    from_sigmoid), with an optional pos_weight on the positive term."""

    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def hybrid_forward(self, F, pred, label, sample_weight=None, pos_weight=None):
        label = _reshape_like(label, pred)
        if not self._from_sigmoid:
            if pos_weight is None:
                loss = F.relu(pred) - pred * label + _softrelu_neg_abs(F, pred)
            else:
                log_weight = 1 + F.broadcast_mul(pos_weight - 1, label)
                loss = pred - pred * label + log_weight * (_softrelu_neg_abs(F, pred) + F.relu(-pred))
        else:
            eps = 1e-12
            if pos_weight is None:
                loss = -(F.log(pred + eps) * label + F.log(1.0 - pred + eps) * (1.0 - label))
            else:
                loss = -(F.broadcast_mul(F.log(pred + eps) * label, pos_weight)
                         + F.log(1.0 - pred + eps) * (1.0 - label))
        return self._per_sample(F, loss, sample_weight)


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    """-log softmax(pred) at the label's class (sparse_label) or against a distribution."""

    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, self._axis)
        if self._sparse_label:
            loss = -F.pick(pred, label, axis=self._axis, keepdims=True)
        else:
            loss = -(pred * _reshape_like(label, pred)).sum(axis=self._axis, keepdims=True)
        return self._per_sample(F, loss, sample_weight)


SoftmaxCELoss = SoftmaxCrossEntropyLoss


class KLDivLoss(Loss):
    """label * (log(label) - pred) summed per sample, pred log-probabilities (log_softmax taken
    unless from_logits)."""

    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, self._axis)
        loss = _apply_weighting(F, label * (F.log(label + 1e-12) - pred), self._weight, sample_weight)
        return F.sum(loss, axis=self._batch_axis, exclude=True)


class CTCLoss(Loss):
    """Connectionist temporal classification (the blank label is the last class)."""

    def __init__(self, layout="NTC", label_layout="NT", weight=None, **kwargs):
        if layout not in ("NTC", "TNC"):
            raise ValueError("Only 'NTC' and 'TNC' layouts for pred are supported. Got: %s" % layout)
        if label_layout not in ("NT", "TN"):
            raise ValueError("Only 'NT' and 'TN' layouts for label are supported. Got: %s" % label_layout)
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find("N"), **kwargs)

    def hybrid_forward(self, F, pred, label, pred_lengths=None, label_lengths=None, sample_weight=None):
        if self._layout == "NTC":
            pred = F.swapaxes(pred, 0, 1)
        if self._batch_axis == 1:
            label = F.swapaxes(label, 0, 1)
        lengths = [a for a in (pred_lengths, label_lengths) if a is not None]
        loss = F.CTCLoss(pred, label, *lengths, use_data_lengths=pred_lengths is not None,
                         use_label_lengths=label_lengths is not None, blank_label="last")
        return _apply_weighting(F, loss, self._weight, sample_weight)


class HuberLoss(Loss):
    """|label - pred| - rho/2 beyond rho, (label - pred)² / (2 rho) within."""

    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        loss = F.abs(_reshape_like(label, pred) - pred)
        loss = F.where(loss > self._rho, loss - 0.5 * self._rho, (0.5 / self._rho) * F.square(loss))
        return self._per_sample(F, loss, sample_weight)


class HingeLoss(Loss):
    """max(0, margin - pred * label), labels -1 or 1."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        return self._per_sample(F, F.relu(self._margin - pred * _reshape_like(label, pred)), sample_weight)


class SquaredHingeLoss(Loss):
    """max(0, margin - pred * label)²."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        loss = F.square(F.relu(self._margin - pred * _reshape_like(label, pred)))
        return self._per_sample(F, loss, sample_weight)


class LogisticLoss(Loss):
    """log(1 + exp(-pred * label)) for labels -1/1 ('signed') or 0/1 ('binary')."""

    def __init__(self, weight=None, batch_axis=0, label_format="signed", **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        if label_format not in ("signed", "binary"):
            raise ValueError("label_format can only be signed or binary, recieved %s." % label_format)
        self._label_format = label_format

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(label, pred)
        if self._label_format == "signed":
            label = (label + 1.0) / 2.0
        loss = F.relu(pred) - pred * label + _softrelu_neg_abs(F, pred)
        return self._per_sample(F, loss, sample_weight)


class TripletLoss(Loss):
    """max(0, |pos - pred|² - |neg - pred|² + margin) per sample."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, positive, negative):
        positive, negative = _reshape_like(positive, pred), _reshape_like(negative, pred)
        loss = F.sum(F.square(positive - pred) - F.square(negative - pred), axis=self._batch_axis, exclude=True)
        return _apply_weighting(F, F.relu(loss + self._margin), self._weight, None)


class PoissonNLLLoss(Loss):
    """The Poisson negative log likelihood (pred a log rate if from_logits), averaged over
    everything; compute_full adds Stirling's term."""

    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def hybrid_forward(self, F, pred, target, sample_weight=None, epsilon=1e-08):
        target = _reshape_like(target, pred)
        if self._from_logits:
            loss = F.exp(pred) - target * pred
        else:
            loss = pred - target * F.log(pred + epsilon)
        if self._compute_full:
            stirling = target * F.log(target) - target + 0.5 * F.log(2 * target * np.pi)
            loss = loss + stirling * (target > 1)
        return F.mean(_apply_weighting(F, loss, self._weight, sample_weight))


class CosineEmbeddingLoss(Loss):
    """1 - cos(input1, input2) for label 1, max(0, cos - margin) for label -1."""

    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, input1, input2, label, sample_weight=None):
        input1 = _reshape_like(input1, input2)
        label = label.reshape((-1, 1))
        cos_sim = self._cosine_similarity(F, input1, input2)
        loss = (1 - cos_sim) * (label == 1) + F.relu((label == -1) * (cos_sim - self._margin))
        return _apply_weighting(F, loss, self._weight, sample_weight)

    @staticmethod
    def _cosine_similarity(F, x, y, axis=-1):
        x_norm = F.norm(x, axis=axis).reshape((-1, 1))
        y_norm = F.norm(y, axis=axis).reshape((-1, 1))
        x_dot_y = F.sum(x * y, axis=axis).reshape((-1, 1))
        return x_dot_y / F.clip(x_norm * y_norm, 1e-12, _FLOAT32_MAX)  # MXNet's max(., 1e-12), on symbols too


class SDMLLoss(Loss):
    """Smoothed deep metric learning: KL divergence between softmax of the negative
    pairwise distances of two batches and smoothed identity labels."""

    def __init__(self, smoothing_parameter=0.3, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def hybrid_forward(self, F, x1, x2):
        if x1.shape != x2.shape or len(x1.shape) != 2:
            raise ValueError("SDMLLoss takes two batches of the same shape (batch_size, dim), not %s and %s"
                             % (x1.shape, x2.shape))
        batch_size, dim = x1.shape
        distances = ((x1.expand_dims(1).broadcast_to((batch_size, batch_size, dim))
                      - x2.expand_dims(0).broadcast_to((batch_size, batch_size, dim))) ** 2).sum(axis=2)
        gold = F.eye(batch_size)
        labels = gold * (1 - self.smoothing_parameter) + (1 - gold) * self.smoothing_parameter / (batch_size - 1)
        return self.kl_loss(F.log_softmax(-distances, axis=1), labels.as_in_context(distances.context))
