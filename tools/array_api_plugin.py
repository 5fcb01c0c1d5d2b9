"""tools/array_api.py's pytest plugin inside the Array API suite's run (copied beside it as
_mxgo_array_api_plugin; the suite itself stays unmodified).

- Python's random is seeded before each test from the run's seed and the test's id: the
  suite's special-case tests draw with ``strategy.example()``, which shuffles with it, out of
  --hypothesis-seed's reach; so a seed gives one result, whatever tests ran before.
- Unless the run asks for shrinking, failing examples are reported as found, not shrunk:
  shrinking is most of a failing test's time (minutes over the suite while much fails).
"""
import os
import random

import pytest
from hypothesis import Phase, settings

SEED_VAR = "MXGO_ARRAY_API_SEED"
SHRINK_VAR = "MXGO_ARRAY_API_SHRINK"


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    """After the suite's conftest has loaded its profile: the same, less the shrink and explain phases."""
    if os.environ.get(SHRINK_VAR) != "1":
        settings.register_profile("mxgo-no-shrink", parent=settings.get_profile("array-api-tests"),
                                  phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])
        settings.load_profile("mxgo-no-shrink")


def pytest_runtest_setup(item):
    random.seed("%s:%s" % (os.environ[SEED_VAR], item.nodeid))
