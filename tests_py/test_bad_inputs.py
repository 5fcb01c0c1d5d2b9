"""Every case of the bad-input catalogue (bad_inputs.py), run in a child interpreter so
that a case that crashes, aborts or hangs fails alone (isolation.py). Each must raise its
exception and leave every other array, the producer and mxgo's live counts intact."""
import pytest

import bad_inputs
from isolation import run_catalogue

NAMES = sorted(bad_inputs.CASES)


@pytest.fixture(scope="module")
def results():
    return run_catalogue("bad_inputs", NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_bad_input(results, name):
    r = results[name]
    assert r.ok, r.detail


def test_child_exits_cleanly_after_the_catalogue(results):
    r = results["<exit>"]
    assert r.ok, r.detail


_SELF_TEST = '''
import ctypes, os, time
CASES = {
    "a_fine": lambda: None,
    "b_segfault": lambda: ctypes.string_at(0),
    "c_fails": lambda: 1 / 0,
    "d_abort": os.abort,
    "e_hangs": lambda: time.sleep(60),
    "f_fine": lambda: None,
}
'''


def test_the_harness_isolates_crashes_failures_and_hangs(tmp_path):
    (tmp_path / "crashing_cases.py").write_text(_SELF_TEST)
    got = run_catalogue("crashing_cases", ["a_fine", "b_segfault", "c_fails", "d_abort", "e_hangs", "f_fine"],
                        timeout=6, where=str(tmp_path))  # each child starts Python and runs trivial cases
    assert got["a_fine"].ok and got["f_fine"].ok and got["<exit>"].ok
    assert not got["b_segfault"].ok and "SIGSEGV" in got["b_segfault"].detail
    assert not got["c_fails"].ok and "ZeroDivisionError" in got["c_fails"].detail
    assert not got["d_abort"].ok and "SIGABRT" in got["d_abort"].detail
    assert not got["e_hangs"].ok and "hung" in got["e_hangs"].detail
