"""mx.gluon: MXNet 1.9.1's high-level training interface.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    data
"""
from . import data

__all__ = ["data"]
