"""The scenarios of engine_errors.py run on MXNet 1.9.1 itself: its table of what each
step does is MXNet's behaviour, which mxgo is held to in test_api_errors.py.

Collected only in .venv-mxnet (`make test-py-mxnet`, environments.py).
"""
import mxnet
import pytest

import engine_errors
import mxgo


@pytest.mark.parametrize("scenario", engine_errors.SCENARIOS, ids=lambda f: f.__name__)
def test_mxnet_raises_async_errors_as_the_table_says(scenario):
    mxnet.nd.waitall()
    assert scenario(mxnet) == engine_errors.EXPECTED[scenario.__name__]
    mxnet.nd.waitall()


@pytest.mark.parametrize("scenario", engine_errors.SCENARIOS, ids=lambda f: f.__name__)
def test_mxgo_beside_mxnet_raises_them_alike(scenario):
    mxgo.nd.waitall()
    assert scenario(mxgo) == scenario(mxnet)
    mxgo.nd.waitall()
    mxnet.nd.waitall()
