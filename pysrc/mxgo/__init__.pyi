from . import autograd as autograd
from . import context as context
from . import gluon as gluon
from . import image as image
from . import initializer as initializer
from . import initializer as init
from . import kvstore as kvstore
from . import kvstore as kv
from . import lr_scheduler as lr_scheduler
from . import metric as metric
from . import optimizer as optimizer
from . import recordio as recordio
from . import registry as registry
from . import symbol as symbol
from . import symbol as sym
from . import ndarray as ndarray
from . import ndarray as nd
from . import numpy as numpy
from . import numpy as np
from . import numpy_extension as numpy_extension
from . import numpy_extension as npx
from . import util as util
from . import test_utils as test_utils
from .base import MXNetError as MXNetError
from .context import Context as Context
from .context import cpu as cpu
from .context import cpu_pinned as cpu_pinned
from .context import current_context as current_context
from .context import gpu as gpu
from .ndarray import random as random

__version__: str
__all__ = ["autograd", "gluon", "image", "init", "initializer", "kv", "kvstore", "lr_scheduler", "metric", "optimizer", "recordio",
           "registry", "sym", "symbol", "nd", "ndarray", "np", "numpy", "npx", "numpy_extension", "util", "context", "random",
           "test_utils", "Context", "cpu", "gpu", "cpu_pinned", "current_context", "MXNetError", "__version__"]
