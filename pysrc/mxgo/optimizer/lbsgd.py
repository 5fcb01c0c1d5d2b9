"""LBSGD, as MXNet 1.9.1's: SGD whose learning rate grows from 1 to ``batch_scale`` times
over a warmup (or is scaled by LARS), applied every ``batch_scale`` calls to the mean of the
gradients accumulated since the last applied step (a large batch emulated by several small
ones). The warmup counts every gradient since ``begin_epoch``; a call that only accumulates
still runs sgd_update with lr 0, as MXNet's does (a non-finite gradient reaches the weight)."""
import logging
import math

import numpy

from ..ndarray import mp_sgd_mom_update, mp_sgd_update, sgd_mom_update, sgd_update, zeros
from .optimizer import Optimizer, _warn_float16, register
from .sgd import _check_arrays

__all__ = ["LBSGD"]

#: warmup strategy -> the multiplier's growth at fraction f of the warmup
_WARMUP = {"linear": lambda f: f, "power2": lambda f: f * f, "sqrt": math.sqrt}


@register
class LBSGD(Optimizer):
    """Large-batch SGD with momentum, weight decay and a warmup of the learning rate
    ('linear', 'power2', 'sqrt'; 'lars' scales each layer by its norms instead)."""

    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy="linear", warmup_epochs=5, batch_scale=1,
                 updates_per_epoch=32, begin_epoch=0, num_epochs=60, **kwargs):
        super().__init__(multi_precision=multi_precision, **kwargs)
        logging.info("Running Large-Batch SGD Algorithm")
        logging.info("(Batch_scale=%f, warmup_epochs=%d, warmup_strategy=%s, updates_per_epoch=%d)",
                     batch_scale, warmup_epochs, warmup_strategy, updates_per_epoch)
        self.momentum = momentum
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        """The momentum (None without one); for a float16 weight under multi_precision, called
        directly (the Updater goes through create_state_multi_precision), ``(momentum, weight32)``."""
        if weight.dtype == numpy.float16 and self.multi_precision:
            weight32 = weight.astype(numpy.float32)
            return (self._momentum(weight32), weight32)
        if weight.dtype == numpy.float16:
            _warn_float16(type(self).__name__)
        return self._momentum(weight)

    def _momentum(self, weight):
        return zeros(weight.shape, weight.context, dtype=weight.dtype) if self.momentum != 0.0 else None

    def _get_lbmult(self, nup):
        """The warmup's multiplier of the learning rate after ``nup`` accumulated gradients."""
        nwup = self.warmup_epochs * self.updates_per_epoch
        top = float(self.batch_scale)
        if nup >= nwup:
            return top
        if nwup <= 1 or self.warmup_strategy not in _WARMUP:
            return 1.0
        return 1.0 + (top - 1) * _WARMUP[self.warmup_strategy](float(nup) / nwup)

    def _l2norm(self, v):
        return (v * v).asnumpy().sum()

    def _get_lars(self, weight, g, wd):
        """The layer's multiplier sqrt(|w|^2 / (|g|^2 + wd |w|^2)), clipped to [0.01, 100]."""
        w2, g2 = self._l2norm(weight), self._l2norm(g)
        return min(max(math.sqrt(w2 / (g2 + wd * w2 + 1e-18)), 0.01), 100.0)

    def _cumulate_gradient(self, grad, index):
        """The running sum of the index's gradients and their count (from ``begin_epoch``)."""
        held = self.cumgrads.get(index)
        if held and held["num_cums"] > 0:
            held = {"cum_grad": held["cum_grad"] + grad, "num_cums": held["num_cums"] + 1}
        else:
            held = {"cum_grad": grad, "num_cums": self.init_updates + 1}
        self.cumgrads[index] = held
        return held

    def update(self, index, weight, grad, state):
        _check_arrays([weight], [grad])
        lr, wd = self._get_lr(index), self._get_wd(index)
        self._update_count(index)
        held = self._cumulate_gradient(grad, index)
        if held["num_cums"] % self.batch_scale != 0:
            sgd_update(weight, grad, out=weight, lr=0.0, wd=wd)
            return
        grad = held["cum_grad"] / self.batch_scale
        if self.warmup_strategy == "lars":
            lr *= self._get_lars(weight, grad, wd)
        else:
            lr *= self._get_lbmult(held["num_cums"])
        kwargs = self._clip_kwargs()
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        if isinstance(state, (list, tuple)):
            if state[0] is not None:
                mp_sgd_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd, **kwargs)
            else:
                mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)
        elif state is not None:
            sgd_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        held["cum_grad"] = 0  # the next large batch starts
