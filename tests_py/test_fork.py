"""os.fork() with mxgo loaded (what multiprocessing's 'fork' start method and PyTorch's
DataLoader workers do): the child refuses every call that needs Go with a clear
MXNetError instead of hanging, keeps using the NumPy and PyTorch views of mxgo memory it
inherited and exits cleanly, and the parent carries on exactly. forkcheck.py does the
work; each scenario runs in its own interpreter under a timeout, so a hang fails the test
instead of the run."""
import pytest

from isolation import run_script


@pytest.mark.parametrize("mode", ["idle", "busy"])
def test_fork(mode):
    status, out, err = run_script("import sys, forkcheck; sys.argv[1:] = [%r]; forkcheck.main()" % mode, timeout=300)
    assert status is not None, "hung: forkcheck %s did not finish in 300 s\n%s" % (mode, err[-4000:])
    assert status == 0 and out.strip() == "ok", "exit status %s\n%s\n%s" % (status, out[-4000:], err[-8000:])
