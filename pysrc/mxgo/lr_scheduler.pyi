__all__ = ["LRScheduler", "FactorScheduler", "MultiFactorScheduler", "PolyScheduler", "CosineScheduler"]

class LRScheduler:
    base_lr: float
    warmup_steps: int
    warmup_final_lr: float
    warmup_begin_lr: float
    warmup_mode: str
    def __init__(self, base_lr: float = 0.01, warmup_steps: int = 0, warmup_begin_lr: float = 0,
                 warmup_mode: str = "linear") -> None: ...
    def get_warmup_lr(self, num_update: int) -> float: ...
    def __call__(self, num_update: int) -> float: ...

class FactorScheduler(LRScheduler):
    step: int
    factor: float
    stop_factor_lr: float
    count: int
    def __init__(self, step: int, factor: float = 1, stop_factor_lr: float = 1e-8, base_lr: float = 0.01,
                 warmup_steps: int = 0, warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None: ...

class MultiFactorScheduler(LRScheduler):
    step: list[int]
    cur_step_ind: int
    factor: float
    count: int
    def __init__(self, step: list[int], factor: float = 1, base_lr: float = 0.01, warmup_steps: int = 0,
                 warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None: ...

class _Decay(LRScheduler):
    base_lr_orig: float
    max_update: int
    final_lr: float
    max_steps: int
    def __init__(self, max_update: int, base_lr: float, final_lr: float, warmup_steps: int, warmup_begin_lr: float,
                 warmup_mode: str) -> None: ...
    def _shape(self, progress: float) -> float: ...

class PolyScheduler(_Decay):
    power: float
    def __init__(self, max_update: int, base_lr: float = 0.01, pwr: float = 2, final_lr: float = 0,
                 warmup_steps: int = 0, warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None: ...

class CosineScheduler(_Decay):
    def __init__(self, max_update: int, base_lr: float = 0.01, final_lr: float = 0, warmup_steps: int = 0,
                 warmup_begin_lr: float = 0, warmup_mode: str = "linear") -> None: ...
