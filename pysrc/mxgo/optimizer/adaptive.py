"""The adaptive optimizers, as MXNet 1.9.1's: Adam, RMSProp, FTML, Ftrl and LAMB through
their fused operators; AdaGrad, AdaDelta, Adamax and Nadam in NDArray arithmetic, as
MXNet writes them; Test (MXNet's optimizer for tests)."""
import math

import numpy

from ..ndarray import (abs as nd_abs, adam_update, cast, ftml_update, ftrl_update, lamb_update_phase1,
                       lamb_update_phase2, maximum, mp_lamb_update_phase1, mp_lamb_update_phase2, rmsprop_update,
                       rmspropalex_update, sqrt, square, zeros)
from .optimizer import Optimizer, aggregation_size, register

__all__ = ["Adam", "RMSProp", "FTML", "Ftrl", "LAMB", "AdaGrad", "AdaDelta", "Adamax", "Nadam", "Test"]


def _zeros_like(weight, n, typed=True):
    """n zero states of weight's shape: of its dtype when typed, else float32 (as MXNet's
    AdaGrad, AdaDelta, RMSProp and Ftrl make theirs)."""
    dtype = weight.dtype if typed else None
    states = tuple(zeros(weight.shape, weight.context, dtype=dtype) for _ in range(n))
    return states[0] if n == 1 else states


@register
class Adam(Optimizer):
    """Adam; the bias correction scales the learning rate: lr*sqrt(1-beta2**t)/(1-beta1**t)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon, self.lazy_update = beta1, beta2, epsilon, lazy_update

    def create_state(self, index, weight):
        return _zeros_like(weight, 2)

    def update(self, index, weight, grad, state):
        lr, wd, t = self._prologue(index, weight, grad)
        lr *= math.sqrt(1.0 - self.beta2 ** t) / (1.0 - self.beta1 ** t)
        mean, var = state
        adam_update(weight, grad, mean, var, out=weight, lazy_update=self.lazy_update, lr=lr, wd=wd, beta1=self.beta1,
                    beta2=self.beta2, epsilon=self.epsilon, **self._clip_kwargs())


@register
class RMSProp(Optimizer):
    """RMSProp (Tieleman and Hinton), or with ``centered`` Graves' version."""

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8, centered=False, clip_weights=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1, self.gamma2, self.centered, self.epsilon = gamma1, gamma2, centered, epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        return _zeros_like(weight, 3, typed=False) if self.centered else (_zeros_like(weight, 1, typed=False),)

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        kwargs = {"gamma1": self.gamma1, "epsilon": self.epsilon, **self._clip_kwargs()}
        if self.clip_weights:
            kwargs["clip_weights"] = self.clip_weights
        if self.centered:
            rmspropalex_update(weight, grad, *state, out=weight, lr=lr, wd=wd, gamma2=self.gamma2, **kwargs)
        else:
            rmsprop_update(weight, grad, state[0], out=weight, lr=lr, wd=wd, **kwargs)


@register
class FTML(Optimizer):
    """Follow the moving leader; its state is (d, v, z)."""

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon

    def create_state(self, index, weight):
        return _zeros_like(weight, 3)

    def update(self, index, weight, grad, state):
        lr, wd, t = self._prologue(index, weight, grad)
        ftml_update(weight, grad, *state, out=weight, lr=lr, wd=wd, t=t, beta1=self.beta1, beta2=self.beta2,
                    epsilon=self.epsilon, **self._clip_kwargs("clip_grad"))


@register
class Ftrl(Optimizer):
    """FTRL-proximal; its state is (z, n). Its learning rate defaults to 0.1 (set after the
    base class, so a scheduler's base_lr is left alone, as in MXNet)."""

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        self.lamda1, self.beta, self.lr = lamda1, beta, learning_rate

    def create_state(self, index, weight):
        return _zeros_like(weight, 2, typed=False)

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        ftrl_update(weight, grad, *state, out=weight, lr=lr, wd=wd, lamda1=self.lamda1, beta=self.beta,
                    **self._clip_kwargs())


@register
class LAMB(Optimizer):
    """LAMB: Adam's direction, scaled per weight by |weight|/|direction| (clamped to
    [lower_bound, upper_bound] when given). A list of weights (an Updater's aggregated call,
    MXNet's multi_lamb_update) is updated one by one, with the same numbers."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6, lower_bound=None, upper_bound=None,
                 bias_correction=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.lower_bound, self.upper_bound, self.bias_correction = lower_bound, upper_bound, bias_correction
        self.aggregate_num = max(1, min(45, aggregation_size(45)))

    def create_state(self, index, weight):
        return _zeros_like(weight, 2)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        w = weight[0] if isinstance(index, (tuple, list)) else weight
        self._update_impl(index, weight, grad, state, multi_precision=self.multi_precision and w.dtype == numpy.float16)

    def _update_impl(self, index, weight, grad, state, multi_precision, aggregated=False):
        if isinstance(index, (tuple, list)):
            if self.aggregate_num > 1:
                for args in zip(index, weight, grad, state):
                    self._update_impl(*args, multi_precision=multi_precision, aggregated=True)
                return
            # MXNET_OPTIMIZER_AGGREGATION_SIZE=1: MXNet's Updater passes lists of one, which
            # LAMB updates as one weight (its mp_ master copy then stays, as MXNet's does)
            (index,), (weight,), (grad,), (state,) = index, weight, grad, state
        lr, wd, t = self._prologue(index, weight, grad)
        kwargs = {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon, "t": t,
                  "bias_correction": self.bias_correction, **self._clip_kwargs()}
        bounds = {k: v for k, v in (("lower_bound", self.lower_bound), ("upper_bound", self.upper_bound)) if v}
        if multi_precision:
            weight32, (mean, var) = state
            g = mp_lamb_update_phase1(weight, grad, mean, var, weight32, wd=wd, **kwargs)
            if aggregated:  # as MXNet's multi_mp_lamb_update: the master copy moves, the weight follows
                lamb_update_phase2(weight32, g, weight32.norm(), g.norm(), lr=lr, out=weight32, **bounds)
                cast(weight32, dtype=weight.dtype, out=weight)
            else:  # MXNet's mp_lamb_update_phase2 leaves the master copy as it was
                mp_lamb_update_phase2(weight, g, weight32.norm(), g.norm(), weight32, lr=lr, out=weight, **bounds)
        else:
            mean, var = state
            g = lamb_update_phase1(weight, grad, mean, var, wd=wd, **kwargs)
            lamb_update_phase2(weight, g, weight.norm(), g.norm(), lr=lr, out=weight, **bounds)


@register
class AdaGrad(Optimizer):
    """AdaGrad: steps divided by the root of the summed squared gradients (plus eps)."""

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return _zeros_like(weight, 1, typed=False)

    def update(self, index, weight, grad, state):
        lr, wd, _ = self._prologue(index, weight, grad)
        grad = self._scaled(grad)
        state += square(grad)
        weight += (grad / sqrt(state + self.float_stable_eps) + weight * wd) * -lr


@register
class AdaDelta(Optimizer):
    """AdaDelta: no learning rate; running averages of squared gradients and steps. The
    caller's grad is left as it is (MXNet's scales it in place)."""

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho, self.epsilon = rho, epsilon

    def create_state(self, index, weight):
        return _zeros_like(weight, 2, typed=False)

    def update(self, index, weight, grad, state):
        _, wd, _ = self._prologue(index, weight, grad)
        grad = self._scaled(grad)
        acc_g, acc_delta = state
        acc_g *= self.rho
        acc_g += (1.0 - self.rho) * grad * grad
        delta = sqrt(acc_delta + self.epsilon) / sqrt(acc_g + self.epsilon) * grad
        acc_delta *= self.rho
        acc_delta += (1.0 - self.rho) * delta * delta
        weight -= delta + wd * weight


@register
class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm."""

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2 = beta1, beta2

    def create_state(self, index, weight):
        return _zeros_like(weight, 2)

    def update(self, index, weight, grad, state):
        lr, wd, t = self._prologue(index, weight, grad)
        lr /= 1.0 - self.beta1 ** t
        grad = self._scaled(grad, weight, wd)
        m_t, u_t = state
        m_t *= self.beta1
        m_t += (1.0 - self.beta1) * grad
        u_t[:] = maximum(self.beta2 * u_t, nd_abs(grad))
        weight -= lr * m_t / u_t


@register
class Nadam(Optimizer):
    """Nesterov Adam, with the momentum schedule of Dozat; the schedule's product is the
    optimizer's, shared by its weights, as in MXNet."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, schedule_decay=0.004, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1, self.beta2, self.epsilon, self.schedule_decay = beta1, beta2, epsilon, schedule_decay
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        return _zeros_like(weight, 2)

    def update(self, index, weight, grad, state):
        lr, wd, t = self._prologue(index, weight, grad)
        grad = self._scaled(grad, weight, wd)
        momentum_t = self.beta1 * (1.0 - 0.5 * pow(0.96, t * self.schedule_decay))
        momentum_t_1 = self.beta1 * (1.0 - 0.5 * pow(0.96, (t + 1) * self.schedule_decay))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m_t, v_t = state
        m_t *= self.beta1
        m_t += (1.0 - self.beta1) * grad
        v_t *= self.beta2
        v_t += (1.0 - self.beta2) * grad * grad
        m_t_bar = ((1.0 - momentum_t) * (grad / (1.0 - self.m_schedule))
                   + momentum_t_1 * (m_t / (1.0 - m_schedule_next)))
        weight -= lr * m_t_bar / (sqrt(v_t / (1.0 - pow(self.beta2, t))) + self.epsilon)


@register
class Test(Optimizer):
    """MXNet's optimizer for tests: weight += rescale_grad*grad; the state copies the weight."""

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        weight += grad * self.rescale_grad
        state[:] = weight
