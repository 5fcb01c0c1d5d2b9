from . import autograd as autograd
from . import context as context
from . import lr_scheduler as lr_scheduler
from . import ndarray as ndarray
from . import ndarray as nd
from . import optimizer as optimizer
from . import test_utils as test_utils
from .base import MXNetError as MXNetError
from .context import Context as Context
from .context import cpu as cpu
from .context import cpu_pinned as cpu_pinned
from .context import current_context as current_context
from .context import gpu as gpu
from .ndarray import random as random

__version__: str
__all__ = ["autograd", "nd", "ndarray", "context", "random", "lr_scheduler", "optimizer", "test_utils", "Context", "cpu",
           "gpu", "cpu_pinned", "current_context", "MXNetError", "__version__"]
