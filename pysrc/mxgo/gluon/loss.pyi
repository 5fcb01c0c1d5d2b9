from typing import Any

from .block import HybridBlock

class Loss(HybridBlock):
    def __init__(self, weight: float | None, batch_axis: int, **kwargs: Any) -> None: ...

class L2Loss(Loss):
    def __init__(self, weight: float = 1.0, batch_axis: int = 0, **kwargs: Any) -> None: ...

class L1Loss(Loss):
    def __init__(self, weight: float | None = None, batch_axis: int = 0, **kwargs: Any) -> None: ...

class SigmoidBinaryCrossEntropyLoss(Loss):
    def __init__(self, from_sigmoid: bool = False, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...

SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss

class SoftmaxCrossEntropyLoss(Loss):
    def __init__(self, axis: int = -1, sparse_label: bool = True, from_logits: bool = False,
                 weight: float | None = None, batch_axis: int = 0, **kwargs: Any) -> None: ...

SoftmaxCELoss = SoftmaxCrossEntropyLoss

class KLDivLoss(Loss):
    def __init__(self, from_logits: bool = True, axis: int = -1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...

class CTCLoss(Loss):
    def __init__(self, layout: str = "NTC", label_layout: str = "NT", weight: float | None = None,
                 **kwargs: Any) -> None: ...

class HuberLoss(Loss):
    def __init__(self, rho: float = 1, weight: float | None = None, batch_axis: int = 0, **kwargs: Any) -> None: ...

class HingeLoss(Loss):
    def __init__(self, margin: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...

class SquaredHingeLoss(Loss):
    def __init__(self, margin: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...

class LogisticLoss(Loss):
    def __init__(self, weight: float | None = None, batch_axis: int = 0, label_format: str = "signed",
                 **kwargs: Any) -> None: ...

class TripletLoss(Loss):
    def __init__(self, margin: float = 1, weight: float | None = None, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...

class PoissonNLLLoss(Loss):
    def __init__(self, weight: float | None = None, from_logits: bool = True, batch_axis: int = 0,
                 compute_full: bool = False, **kwargs: Any) -> None: ...

class CosineEmbeddingLoss(Loss):
    def __init__(self, weight: float | None = None, batch_axis: int = 0, margin: float = 0,
                 **kwargs: Any) -> None: ...

class SDMLLoss(Loss):
    kl_loss: KLDivLoss
    smoothing_parameter: float
    def __init__(self, smoothing_parameter: float = 0.3, weight: float = 1.0, batch_axis: int = 0,
                 **kwargs: Any) -> None: ...
