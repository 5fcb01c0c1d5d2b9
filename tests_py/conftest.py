"""pytest setup shared by every test module.

NumPy and PyTorch are required peers of mxgo's tests: they are imported here, at
collection, so that a missing one is a loud error for the whole run, never a skip.
"""
import numpy  # noqa: F401
import torch  # noqa: F401
