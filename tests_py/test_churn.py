"""Leak checks: every exchange path of churn.py, 100,000 round trips each (MXGO_CHURN_N
to change; ``make soak`` runs a million), must end with mxgo's live handles, storages and
exports where they started, malloc's bytes in use flat (mxgo's C blocks live there) and
resident memory within noise; a counting producer sees each deleter run exactly once."""
import os

import pytest

import churn

N = int(os.environ.get("MXGO_CHURN_N", "100000"))


pytestmark = pytest.mark.usefixtures("frozen_heap")


@pytest.mark.parametrize("path", churn.PATHS)
def test_round_trips_leak_nothing(path):
    r = churn.soak(path, N)
    assert r.live_after == r.live_before
    # A leaked capsule block or DLManagedTensor (>= 64 bytes) per round trip would be
    # >= 6 MiB here; what remains is malloc's bookkeeping.
    assert r.malloc_after - r.malloc_before < 64 * 1024, (r.malloc_before, r.malloc_after)
    # RSS moves with Go's heap and Python's arenas by up to about a MiB either way.
    assert r.rss_after - r.rss_before < 4 * 2 ** 20, (r.rss_before, r.rss_after)


def test_counting_producer_deleters_run_exactly_once():
    calls, unknown = churn.counting_producer(min(N, 20_000))
    assert calls == {1} and unknown == 0
