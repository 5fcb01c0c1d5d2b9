"""Interpreter exit with mxgo's work still under way: live exports, unconsumed capsules,
foreign arrays, pending engine work, run_async callbacks that need the GIL, and threads
still computing. Each scenario runs in a fresh interpreter, which must exit with status 0
and print no fatal error (and, where the scenario checks something, what it expects)."""
import pytest

from isolation import run_script

PRELUDE = """
import numpy as np, torch, torch.utils.dlpack as tdl, threading, time
import mxgo as mx
"""

SCENARIOS = {
    "unconsumed capsules": "c1 = mx.nd.ones((3,)).to_dlpack_for_read(); c2 = mx.nd.ones(3).__dlpack__(max_version=(1, 0))",
    "mx memory held by torch and numpy": "x = mx.nd.ones((100,)); t = torch.from_dlpack(x); a = np.from_dlpack(x); del x",
    "torch and numpy memory held by mx": "t = torch.ones(100); x = mx.nd.from_dlpack(t); y = mx.nd.from_numpy(np.ones(5))",
    "capsule consumed by torch, mx dropped": "t = tdl.from_dlpack(mx.nd.ones((4, 4)).to_dlpack_for_write())",
    "pending engine work": "x = mx.nd.ones((1500, 1500)); y = mx.nd.dot(x, x); z = mx.nd.exp(y)",
    "pending work on foreign memory": "t = torch.ones(1 << 22); x = mx.nd.from_dlpack(t); x += 1; del x",
    "pending run_async callback that needs the GIL":
        "x = mx.nd.ones((4,)); mx.nd.run_async(lambda v: (time.sleep(0.3), print('callback ran')), writes=[x])",
    "pending run_async error nobody waited for":
        "x = mx.nd.ones((4,)); mx.nd.run_async(lambda v: 1 / 0, writes=[x])",
    # Daemon threads with NumPy only: PyTorch alone aborts here ("terminate called without an
    # active exception", 6 runs in 6 with CPython 3.11 and torch 2.15): CPython ends daemon
    # threads with pthread_exit, whose unwinding through torch's C++ frames calls terminate.
    "daemon threads still computing": """
def spin():
    while True:
        a = np.ones(1 << 15, np.float32)
        x = mx.nd.from_numpy(a) * 2
        b = np.from_dlpack(x + 1)
        y = mx.nd.from_dlpack(np.ones(16, np.float32)) + mx.nd.from_dlpack(b[:16].copy())
        del a, x
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
time.sleep(0.5)
""",
    "sys.exit from a run_async callback's wait": """
x = mx.nd.ones((4,))
mx.nd.run_async(lambda v: time.sleep(0.2), writes=[x])
raise SystemExit(0)
""",
    "exports made by another atexit function": """
import atexit
keep = []
atexit.register(lambda: keep.append(torch.from_dlpack(mx.nd.ones(3) + 1)))
""",
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_interpreter_exit(name):
    status, out, err = run_script(PRELUDE + SCENARIOS[name], timeout=120)
    assert status is not None, "the interpreter hung at exit\n" + err[-4000:]
    assert status == 0, "exit status %s\n%s" % (status, err[-4000:])
    for bad in ("Fatal Python error", "Segmentation fault", "panic:", "Traceback"):
        assert bad not in err, err[-4000:]
    if "callback that needs the GIL" in name:
        assert "callback ran" in out  # atexit drained the engine before Python went away
