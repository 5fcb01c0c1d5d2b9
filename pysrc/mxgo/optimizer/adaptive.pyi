from typing import Any

from ..ndarray.ndarray import NDArray
from .optimizer import Optimizer

__all__ = ["Adam", "RMSProp", "FTML", "Ftrl", "LAMB", "AdaGrad", "AdaDelta", "Adamax", "Nadam", "Test"]

def _zeros_like(weight: NDArray, n: int, typed: bool = True) -> Any: ...

class Adam(Optimizer):
    beta1: float
    beta2: float
    epsilon: float
    lazy_update: bool
    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 lazy_update: bool = True, **kwargs: Any) -> None: ...

class RMSProp(Optimizer):
    gamma1: float
    gamma2: float
    centered: bool
    epsilon: float
    clip_weights: float | None
    def __init__(self, learning_rate: float = 0.001, gamma1: float = 0.9, gamma2: float = 0.9, epsilon: float = 1e-8,
                 centered: bool = False, clip_weights: float | None = None, **kwargs: Any) -> None: ...

class FTML(Optimizer):
    beta1: float
    beta2: float
    epsilon: float
    def __init__(self, beta1: float = 0.6, beta2: float = 0.999, epsilon: float = 1e-8, **kwargs: Any) -> None: ...

class Ftrl(Optimizer):
    lamda1: float
    beta: float
    def __init__(self, lamda1: float = 0.01, learning_rate: float = 0.1, beta: float = 1, **kwargs: Any) -> None: ...

class LAMB(Optimizer):
    beta1: float
    beta2: float
    epsilon: float
    lower_bound: float | None
    upper_bound: float | None
    bias_correction: bool
    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-6,
                 lower_bound: float | None = None, upper_bound: float | None = None, bias_correction: bool = True,
                 **kwargs: Any) -> None: ...
    def _update_impl(self, index: Any, weight: Any, grad: Any, state: Any, multi_precision: bool,
                     aggregated: bool = False) -> None: ...

class AdaGrad(Optimizer):
    float_stable_eps: float
    def __init__(self, eps: float = 1e-7, **kwargs: Any) -> None: ...

class AdaDelta(Optimizer):
    rho: float
    epsilon: float
    def __init__(self, rho: float = 0.90, epsilon: float = 1e-5, **kwargs: Any) -> None: ...

class Adamax(Optimizer):
    beta1: float
    beta2: float
    def __init__(self, learning_rate: float = 0.002, beta1: float = 0.9, beta2: float = 0.999, **kwargs: Any) -> None: ...

class Nadam(Optimizer):
    beta1: float
    beta2: float
    epsilon: float
    schedule_decay: float
    m_schedule: float
    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 schedule_decay: float = 0.004, **kwargs: Any) -> None: ...

class Test(Optimizer): ...
