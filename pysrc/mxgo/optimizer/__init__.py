"""``mx.optimizer``: MXNet 1.9.1's optimizers, their registry and the Updater.

optimizer holds the base class, the registry (``register``, ``create``) and the Updater
that keeps each weight's state; sgd the SGD family (lbsgd its large-batch form), adaptive the adaptive optimizers.
Each update goes through the fused update operator MXNet uses (mx.nd.sgd_update ...,
pkg/ops/optim), else through NDArray arithmetic as MXNet's does.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    optimizer ← sgd, adaptive ← lbsgd
"""
from . import optimizer
from .adaptive import FTML, LAMB, AdaDelta, AdaGrad, Adam, Adamax, Ftrl, Nadam, RMSProp, Test
from .lbsgd import LBSGD
from .optimizer import Optimizer, Updater, create, get_updater, register
from .sgd import DCASGD, LARS, NAG, SGD, SGLD, Signum, ccSGD

__all__ = ["AdaDelta", "AdaGrad", "Adam", "Adamax", "DCASGD", "FTML", "Ftrl", "LARS", "LBSGD", "NAG", "Nadam", "Optimizer",
           "RMSProp", "SGD", "SGLD", "Signum", "LAMB", "Test", "Updater", "ccSGD", "create", "get_updater",
           "register", "optimizer"]
