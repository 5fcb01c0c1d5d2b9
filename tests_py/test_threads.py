"""Concurrency: many Python threads exchanging with NumPy and PyTorch, computing and
dropping arrays at once (storm.py), with deleters and buffer releases running on threads
that do not hold the GIL. Run in a child interpreter under a timeout, so that a deadlock
fails the test instead of hanging the run, and a crash fails it instead of killing it."""
import pytest

from isolation import run_script


@pytest.mark.parametrize("engine", ["threaded", "naive"])
@pytest.mark.parametrize("seed", [0, 1000])
def test_thread_storm(engine, seed):
    status, out, err = run_script("import storm; storm.main(threads=8, iterations=400, seed=%d)" % seed,
                                  timeout=300, env={"MXGO_ENGINE": engine})
    assert status is not None, "deadlock: the storm did not finish in 300 s\n" + err[-4000:]
    assert status == 0, "exit status %s\n%s" % (status, err[-4000:])
    assert "storm ok" in out
