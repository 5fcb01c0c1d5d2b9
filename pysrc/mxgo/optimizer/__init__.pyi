from . import optimizer as optimizer
from .adaptive import FTML as FTML
from .adaptive import LAMB as LAMB
from .adaptive import AdaDelta as AdaDelta
from .adaptive import AdaGrad as AdaGrad
from .adaptive import Adam as Adam
from .adaptive import Adamax as Adamax
from .adaptive import Ftrl as Ftrl
from .adaptive import Nadam as Nadam
from .adaptive import RMSProp as RMSProp
from .adaptive import Test as Test
from .lbsgd import LBSGD as LBSGD
from .optimizer import Optimizer as Optimizer
from .optimizer import Updater as Updater
from .optimizer import create as create
from .optimizer import get_updater as get_updater
from .optimizer import register as register
from .sgd import DCASGD as DCASGD
from .sgd import LARS as LARS
from .sgd import NAG as NAG
from .sgd import SGD as SGD
from .sgd import SGLD as SGLD
from .sgd import Signum as Signum
from .sgd import ccSGD as ccSGD

__all__ = ["AdaDelta", "AdaGrad", "Adam", "Adamax", "DCASGD", "FTML", "Ftrl", "LARS", "LBSGD", "NAG", "Nadam", "Optimizer",
           "RMSProp", "SGD", "SGLD", "Signum", "LAMB", "Test", "Updater", "ccSGD", "create", "get_updater",
           "register", "optimizer"]
