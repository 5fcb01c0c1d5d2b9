"""A tiny package written as third-party MXNet 1.x code is: it says ``import mxnet`` and knows
nothing of mxgo. tests_py/test_as_mxnet.py runs it under ``mxgo.as_mxnet``."""
