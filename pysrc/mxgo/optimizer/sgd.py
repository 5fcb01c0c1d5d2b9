"""The SGD family, as MXNet 1.9.1's: SGD (aggregated through the multi_* operators), NAG,
Signum, LARS, SGLD, DCASGD and ccSGD."""
import math

import numpy

from ..ndarray import (NDArray, array, mp_nag_mom_update, mp_sgd_update, multi_lars,
                       multi_mp_sgd_mom_update, multi_mp_sgd_update, multi_sgd_mom_update, multi_sgd_update,
                       multi_sum_sq, nag_mom_update, norm, preloaded_multi_mp_sgd_mom_update,
                       preloaded_multi_mp_sgd_update, preloaded_multi_sgd_mom_update, preloaded_multi_sgd_update,
                       random, sgd_update, signsgd_update, signum_update, zeros)
from .optimizer import Optimizer, _warn_float16, aggregation_size, register

__all__ = ["SGD", "NAG", "Signum", "LARS", "SGLD", "DCASGD", "ccSGD"]


def _flatten(groups):
    return [a for group in groups for a in group]


def _as_lists(indices, weights, grads, states):
    if isinstance(indices, (tuple, list)):
        return list(indices), list(weights), list(grads), list(states)
    return [indices], [weights], [grads], [states]


def _check_arrays(weights, grads):
    for w, g in zip(weights, grads):
        if not isinstance(w, NDArray) or not isinstance(g, NDArray):
            raise TypeError("weight and grad must be NDArrays, got %s and %s" % (type(w).__name__, type(g).__name__))


class _Momentum(Optimizer):
    """An optimizer whose state is a momentum (None without one) and, for float16 weights
    under multi_precision, a float32 master copy after it: ``(mom, weight32)``."""

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context, dtype=weight.dtype) if self.momentum != 0.0 else None

    def create_state_multi_precision(self, index, weight):
        if weight.dtype == numpy.float16:
            if self.multi_precision:
                weight32 = weight.astype(numpy.float32)
                return (self.create_state(index, weight32), weight32)
            _warn_float16(type(self).__name__)
        return self.create_state(index, weight)

    def _kwargs(self, momentum=None):
        kwargs = self._clip_kwargs()
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum if momentum is None else momentum
        return kwargs

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        w = weight[0] if isinstance(index, (tuple, list)) else weight
        self._update_impl(index, weight, grad, state, multi_precision=self.multi_precision and w.dtype == numpy.float16)


def _groups(weights, grads, states, momentum, multi_precision):
    """The multi_* operators' arrays for these weights: each weight's group in a row."""
    if not multi_precision:
        return _flatten(zip(weights, grads, states)) if momentum else _flatten(zip(weights, grads))
    if momentum:
        return _flatten(zip(weights, grads, *zip(*states)))
    return _flatten(zip(weights, grads, [s[1] for s in states]))


_MULTI = {(False, False): multi_sgd_update, (True, False): multi_sgd_mom_update,
          (False, True): multi_mp_sgd_update, (True, True): multi_mp_sgd_mom_update}
_PRELOADED = {(False, False): preloaded_multi_sgd_update, (True, False): preloaded_multi_sgd_mom_update,
              (False, True): preloaded_multi_mp_sgd_update, (True, True): preloaded_multi_mp_sgd_mom_update}


@register
class SGD(_Momentum):
    """SGD with optional momentum and weight decay; updates of several weights (an Updater's
    aggregated calls) go through one multi_* operator call."""

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(momentum=momentum, **kwargs)
        self.lazy_update = lazy_update
        self.aggregate_num = aggregation_size(4)

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        _check_arrays(weights, grads)
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        op = _MULTI[(self.momentum > 0, bool(multi_precision))]
        op(*_groups(weights, grads, states, self.momentum > 0, multi_precision), out=weights,
           num_weights=len(weights), lrs=lrs, wds=wds, **self._kwargs())


@register
class ccSGD(SGD):  # noqa: N801 (MXNet's name)
    """SGD under MXNet's deprecated name."""


@register
class NAG(_Momentum):
    """Nesterov accelerated SGD."""

    def update_multi_precision(self, index, weight, grad, state):
        mp = self.multi_precision and weight.dtype == numpy.float16 and isinstance(state, (tuple, list))
        self._update_impl(index, weight, grad, state, multi_precision=mp)

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        lr, wd, _ = self._prologue(index, weight, grad)
        kwargs = self._kwargs()
        if not multi_precision:
            if state is not None:
                nag_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            mp_nag_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd, **kwargs)
        else:
            mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)


@register
class Signum(Optimizer):
    """signSGD (without momentum) and Signum (with): steps by the sign of the (averaged)
    gradient; ``wd_lh`` is the decoupled weight decay."""

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context, dtype=weight.dtype) if self.momentum != 0.0 else None

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        kwargs = self._clip_kwargs()
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        if self.wd_lh:
            kwargs["wd_lh"] = self.wd_lh
        if state is not None:
            signum_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            signsgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)


@register
class LARS(_Momentum):
    """Layer-wise adaptive rate scaling: each weight's learning rate times
    eta*|w|/(|g| + wd*|w| + eps); names ending in gamma, beta or bias keep theirs."""

    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0, momentum_correction=True, **kwargs):
        super().__init__(momentum=momentum, **kwargs)
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = aggregation_size(4)
        self.eta = eta
        self.eps = eps
        self.skip = 0
        self.last_lr = None
        self.cur_lr = None

    def _get_lrs(self, indices):
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self.learning_rate
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return super()._get_lrs(indices)

    def _decays(self, name):
        return name.endswith("_weight")

    def _l2norm(self, v, rescale=False):
        v = v.astype("float32")
        if rescale:
            v *= self.rescale_grad
        return norm(v).asnumpy()[0]

    def _skips(self, index):
        name = self.idx2name.get(index, str(index))
        return name.endswith("gamma") or name.endswith("beta") or name.endswith("bias")

    def _get_lars(self, i, weight, g, lr, wd):
        if self._skips(i):
            return lr
        w_norm, g_norm = self._l2norm(weight), self._l2norm(g, rescale=True)
        lars = self.eta * w_norm / (g_norm + wd * w_norm + self.eps) if w_norm > 0.0 and g_norm > 0.0 else 1.0
        return lars * lr

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        _check_arrays(weights, grads)
        self._update_count(indices)
        lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        corrected = self.momentum * (self.cur_lr / self.last_lr) if self.momentum_correction and self.last_lr != 0 else None
        kwargs = self._kwargs(corrected)
        # the LARS-scaled weights first, then those that keep their rates
        order = [i for i, x in enumerate(indices) if not self._skips(x)]
        n_lars = len(order)
        order += [i for i, x in enumerate(indices) if self._skips(x)]
        ctx = weights[0].context
        new_lrs = array([lrs[i] for i in order], ctx=ctx, dtype="float32")
        new_wds = array([wds[i] for i in order], ctx=ctx, dtype="float32")
        weights, grads, states = ([xs[i] for i in order] for xs in (weights, grads, states))
        if n_lars > 0:
            w_sum_sq = multi_sum_sq(*weights[:n_lars], num_arrays=n_lars)
            g_sum_sq = multi_sum_sq(*grads[:n_lars], num_arrays=n_lars)
            multi_lars(new_lrs[:n_lars], w_sum_sq, g_sum_sq, new_wds[:n_lars], eta=self.eta, eps=self.eps,
                       rescale_grad=self.rescale_grad, out=new_lrs[:n_lars])
        op = _PRELOADED[(self.momentum > 0, bool(multi_precision))]
        for start in range(0, len(weights), self.aggregate_num):
            sl = slice(start, start + self.aggregate_num)
            data = _groups(weights[sl], grads[sl], states[sl], self.momentum > 0, multi_precision)
            op(*data, new_lrs[sl], new_wds[sl], out=weights[sl], num_weights=len(weights[sl]), **kwargs)


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: half an SGD step plus Gaussian noise of
    variance lr."""

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        grad = self._scaled(grad)
        weight += -lr / 2 * (grad + wd * weight)
        weight += random.normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype, ctx=weight.context)


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD; its state is (momentum or None, the previous weight)."""

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        mom = zeros(weight.shape, weight.context, dtype=weight.dtype) if self.momentum != 0.0 else None
        return (mom, weight.copy())

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        grad = self._scaled(grad)
        mom, previous = state
        step = -lr * (grad + wd * weight + self.lamda * grad * grad * (weight - previous))
        if mom is not None:
            mom *= self.momentum
            mom += step
            step = mom
        previous[:] = weight
        weight += step
