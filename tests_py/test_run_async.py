"""mx.nd.run_async: Python callables on mxgo's engine, ordered with mxgo's own work.

Every test that could hang if the engine or the GIL handling were wrong runs its body in a
worker thread joined with a timeout (`bounded`), so a deadlock fails instead of hanging.
"""
import atexit
import gc
import os
import subprocess
import textwrap
import threading
import time
import weakref

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tdl

import mxgo as mx
from mxgo.base import core
from mxgo.ndarray import callback
from isolation import PYTHON

TIMEOUT = 60
SRC = os.path.dirname(os.path.dirname(os.path.abspath(mx.__file__)))


def bounded(fn, timeout=TIMEOUT):
    """Runs fn() in a daemon thread; fails the test if it does not finish in time."""
    result = {}

    def body():
        try:
            result["value"] = fn()
        except BaseException as exc:  # noqa: B902 - re-raised in the test's thread
            result["error"] = exc

    t = threading.Thread(target=body, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        # The stuck work would also hang mxgo's exit hook (it drains the engine): end the
        # process once pytest has reported, before that hook runs.
        atexit.register(os._exit, 3)
        pytest.fail("deadlock: still running after %s s" % timeout)
    if "error" in result:
        raise result["error"]
    return result.get("value")


def drain():
    """Waits for everything and forgets errors left by earlier work."""
    try:
        mx.nd.waitall()
    except Exception:  # noqa: BLE001
        pass


@pytest.fixture(autouse=True)
def _clean_engine():
    drain()
    yield
    drain()


def settle(predicate, timeout=10.0):
    """Polls predicate until it is true (cleanup of dropped callbacks runs off the engine)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        gc.collect()
        time.sleep(0.01)
    return True


def add_one(v):
    torch.from_dlpack(v).add_(1)


# ---- ordering --------------------------------------------------------------------------

def test_callback_is_ordered_between_mxgo_ops():
    def body():
        x = mx.nd.zeros((1000,), dtype="float64")
        x[:] = 1

        def slow_add(v):
            time.sleep(0.05)  # the multiply below must still wait for this
            torch.from_dlpack(v).add_(1)

        mx.nd.run_async(slow_add, writes=[x])
        y = x * 2
        return x.asnumpy(), y.asnumpy()

    x, y = bounded(body)
    np.testing.assert_array_equal(x, 2.0)
    np.testing.assert_array_equal(y, 4.0)


def test_run_async_returns_before_the_callback_runs():
    def body():
        gate = threading.Event()
        x = mx.nd.zeros((4,), dtype="float32")
        ran = []
        mx.nd.run_async(lambda v: (gate.wait(TIMEOUT), ran.append(1)), writes=[x])
        returned_first = not ran  # run_async returned while the callable was blocked
        gate.set()
        x.wait_to_read()
        return returned_first, ran

    returned_first, ran = bounded(body)
    assert returned_first and ran == [1]


def test_chain_of_callbacks_and_ops_on_views():
    def body():
        x = mx.nd.arange(0, 12, dtype="float64").reshape((3, 4))
        row = x[1]
        mx.nd.run_async(lambda v: torch.from_dlpack(v).mul_(10), writes=[row])
        x += 1  # after the callback (same storage)
        seen = []
        mx.nd.run_async(lambda v: seen.append(np.from_dlpack(v).copy()), reads=[x[::-1, ::-2]])
        mx.nd.run_async(lambda v: torch.from_dlpack(v).neg_(), writes=[x[:, 1::2]])
        return seen, x.asnumpy()

    want = np.arange(12.0).reshape(3, 4)
    want[1] *= 10
    want += 1
    seen, got = bounded(body)
    np.testing.assert_array_equal(seen[0], want[::-1, ::-2])  # NumPy imports negative strides
    want[:, 1::2] *= -1
    np.testing.assert_array_equal(got, want)


def test_a_write_waits_for_earlier_reading_callbacks():
    def body():
        x = mx.nd.ones((8,), dtype="int64")
        seen = []

        def slow_read(v):
            time.sleep(0.05)
            seen.append(np.from_dlpack(v).copy())

        mx.nd.run_async(slow_read, reads=[x])
        x[:] = 7  # must not overtake the read
        return seen, x.asnumpy()

    seen, x = bounded(body)
    np.testing.assert_array_equal(seen[0], 1)
    np.testing.assert_array_equal(x, 7)


def test_reads_run_in_parallel():
    def body():
        x = mx.nd.ones((4,), dtype="float32")
        barrier = threading.Barrier(2, timeout=20)  # passes only if both readers run at once
        order = []

        def reader(v):
            barrier.wait()
            order.append("read")

        mx.nd.run_async(reader, reads=[x])
        mx.nd.run_async(reader, reads=[x])
        mx.nd.run_async(lambda v: order.append("write"), writes=[x])
        x.wait_to_read()
        return order

    assert bounded(body) == ["read", "read", "write"]


# ---- what the callable receives ------------------------------------------------------------

def test_callable_receives_dlpack_views_sharing_memory():
    def body():
        a = mx.nd.arange(0, 6, dtype="float32").reshape((2, 3))
        b = mx.nd.zeros((2, 3), dtype="float32")
        got = {}

        def fn(va, vb):
            got["types"] = (type(va), type(vb))
            ta, tb = torch.from_dlpack(va), torch.from_dlpack(vb)
            got["ptrs"] = (ta.data_ptr(), tb.data_ptr())
            got["np_read_only"] = not np.from_dlpack(va).flags.writeable
            got["writable"] = (va.writable, vb.writable)
            got["meta"] = (va.shape, va.dtype, vb.__dlpack_device__())
            tb.copy_(ta * 2)
            got["views"] = (va, vb)

        mx.nd.run_async(fn, reads=[a], writes=[b])
        return a, b, got, b.asnumpy()

    a, b, got, result = bounded(body)
    assert got["types"] == (mx.nd.DLPackView, mx.nd.DLPackView)
    assert got["ptrs"] == (a._data, b._data)
    assert got["np_read_only"]  # a read-only declaration reaches NumPy as READ_ONLY / read-only
    assert got["writable"] == (False, True)
    assert got["meta"] == ((2, 3), np.float32, (1, 0))
    np.testing.assert_array_equal(result, np.arange(6.0).reshape(2, 3) * 2)
    va, vb = got["views"]
    with pytest.raises(BufferError, match="has returned"):
        torch.from_dlpack(vb)  # views end with their callable
    assert "closed" in repr(va)


def test_positional_arrays_are_passed_and_undeclared_ones_are_read():
    def body():
        a = mx.nd.full((3,), 5, dtype="int32")
        b = mx.nd.zeros((3,), dtype="int32")
        got = []

        def fn(vb, va):
            got.append((va.writable, vb.writable))
            torch.from_dlpack(vb).copy_(torch.from_dlpack(va) + 1)

        mx.nd.run_async(fn, b, a, writes=[b])
        return got, b.asnumpy()

    got, b = bounded(body)
    assert got == [(False, True)]
    np.testing.assert_array_equal(b, 6)


def test_mxnet_style_legacy_capsules_from_views():
    def body():
        x = mx.nd.ones((2, 2), dtype="float64")

        def fn(v):
            tdl.from_dlpack(v.to_dlpack_for_write()).mul_(3)
            assert tdl.from_dlpack(v.to_dlpack_for_read()).sum().item() == 12.0

        mx.nd.run_async(fn, writes=[x])
        errors = []

        def reader(v):
            try:
                v.to_dlpack_for_write()
            except BufferError as e:
                errors.append(str(e))

        mx.nd.run_async(reader, reads=[x])
        x.wait_to_write()  # waits for the reader too
        return x.asnumpy(), errors

    x, errors = bounded(body)
    np.testing.assert_array_equal(x, 3.0)
    assert errors and "not declared in writes" in errors[0]


def test_views_export_copies_on_request():
    def body():
        x = mx.nd.arange(0, 4, dtype="float32")
        got = []

        def fn(v):
            got.append(tdl.from_dlpack(v.__dlpack__(copy=True)))

        mx.nd.run_async(fn, reads=[x])
        x.wait_to_write()  # waits for reads too (wait_to_read would not wait for this one)
        return x, got

    x, got = bounded(body)
    copied = got[0]
    assert copied.data_ptr() != x._data
    np.testing.assert_array_equal(copied.numpy(), [0, 1, 2, 3])


def test_foreign_arrays_are_imported_zero_copy():
    def body():
        t = torch.zeros(5, dtype=torch.float64)
        n = np.zeros(5, dtype=np.int64)
        src = mx.nd.arange(0, 5, dtype="float64")

        def fn(vs, vt, vn):
            torch.from_dlpack(vt).copy_(torch.from_dlpack(vs) + 0.5)
            torch.from_dlpack(vn).fill_(9)

        mx.nd.run_async(fn, reads=[src], writes=[t, n])
        mx.nd.waitall()  # the other frameworks see the writes after a wait
        return t, n

    t, n = bounded(body)
    np.testing.assert_array_equal(t.numpy(), np.arange(5.0) + 0.5)
    np.testing.assert_array_equal(n, 9)


def test_same_import_orders_foreign_memory():
    def body():
        t = torch.ones(4)
        x = mx.nd.from_dlpack(t)  # one import, one engine variable
        mx.nd.run_async(lambda v: (time.sleep(0.03), torch.from_dlpack(v).add_(1)), writes=[x])
        x *= 10
        x.wait_to_read()
        return t

    np.testing.assert_array_equal(bounded(body).numpy(), 20.0)


def test_callable_may_push_mxgo_work_and_read_other_arrays():
    def body():
        a = mx.nd.full((3,), 2, dtype="float64")
        b = mx.nd.zeros((3,), dtype="float64")
        c = mx.nd.full((3,), 7, dtype="float64")
        out = {}

        def fn(vb):
            out["c"] = c.asnumpy()  # c is not declared: waiting on it is allowed
            out["d"] = a * 3  # pushes mxgo work from the engine thread
            torch.from_dlpack(vb).fill_(1)

        mx.nd.run_async(fn, writes=[b])
        b.wait_to_read()
        return out["c"], out["d"].asnumpy(), b.asnumpy()

    c, d, b = bounded(body)
    np.testing.assert_array_equal(c, 7)
    np.testing.assert_array_equal(d, 6)
    np.testing.assert_array_equal(b, 1)


# ---- errors ------------------------------------------------------------------------------

MAPPED = [ValueError, TypeError, IndexError, BufferError, MemoryError, NotImplementedError]


@pytest.mark.parametrize("cls", MAPPED, ids=lambda c: c.__name__)
def test_exception_keeps_its_type_and_message_at_wait_to_read(cls):
    def body():
        x = mx.nd.zeros((3,), dtype="float32")

        def fn(v):
            raise cls("callback failed: code 42")

        mx.nd.run_async(fn, writes=[x])
        with pytest.raises(cls) as info:
            x.wait_to_read()
        assert str(info.value) == "callback failed: code 42"
        assert type(info.value) is mx.base.mxnet_error(cls)  # MXNetValueError, ...: also an MXNetError
        assert isinstance(info.value, mx.base.MXNetError)
        x.wait_to_read()  # raised once
        mx.nd.waitall()  # and only once, as in MXNet 1.x

    bounded(body)


@pytest.mark.parametrize("cls", MAPPED + [RuntimeError], ids=lambda c: c.__name__)
def test_asnumpy_raises_the_error_of_pending_writes(cls):
    # asnumpy copies through np.from_dlpack and falls back when NumPy refuses a dtype: an
    # engine error of any type must reach the caller, not be taken for such a refusal.
    def body():
        x = mx.nd.zeros((3,), dtype="float32")
        mx.nd.run_async(lambda v: (_ for _ in ()).throw(cls("asnumpy sees it")), writes=[x])
        with pytest.raises(Exception, match="asnumpy sees it"):
            x.asnumpy()
        assert x.asnumpy().tolist() == [0, 0, 0]  # raised once; float32 still goes by DLPack
        mx.nd.waitall()

    bounded(body)


@pytest.mark.parametrize("cls", MAPPED, ids=lambda c: c.__name__)
def test_exception_keeps_its_type_at_waitall(cls):
    def body():
        x = mx.nd.zeros((3,), dtype="float32")
        mx.nd.run_async(lambda v: (_ for _ in ()).throw(cls("from waitall")), writes=[x])
        with pytest.raises(cls, match="^from waitall$"):
            mx.nd.waitall()
        x.wait_to_read()  # waitall collected it everywhere

    bounded(body)


def test_other_exceptions_become_mxnet_error_with_type_name():
    class CustomFailure(Exception):
        pass

    def body():
        x = mx.nd.zeros((2,))
        y = mx.nd.zeros((2,))
        mx.nd.run_async(lambda v: 1 / 0, writes=[x])
        mx.nd.run_async(lambda v: (_ for _ in ()).throw(CustomFailure("custom words")), writes=[y])
        with pytest.raises(mx.MXNetError) as e1:
            x.wait_to_read()
        with pytest.raises(mx.MXNetError) as e2:
            y.wait_to_read()
        drain()
        return str(e1.value), str(e2.value)

    m1, m2 = bounded(body)
    assert m1 == "ZeroDivisionError: division by zero"
    assert "CustomFailure" in m2 and m2.endswith(": custom words")


def test_subclass_of_a_mapped_type_is_raised_as_that_type():
    class Missing(IndexError):
        pass

    def body():
        x = mx.nd.zeros((2,))
        mx.nd.run_async(lambda v: (_ for _ in ()).throw(Missing("no such row")), writes=[x])
        with pytest.raises(IndexError) as info:
            x.wait_to_read()
        drain()
        return info.value

    err = bounded(body)
    assert type(err) is mx.base.MXNetIndexError and "Missing" in str(err) and str(err).endswith(": no such row")


def test_error_propagates_to_dependent_work_and_not_to_reads():
    def body():
        a = mx.nd.ones((4,), dtype="float64")
        b = mx.nd.zeros((4,), dtype="float64")

        def fn(va, vb):
            raise ValueError("bad input")

        mx.nd.run_async(fn, reads=[a], writes=[b])
        c = b + 1  # depends on the failed write: fails with the same error
        ran = []
        mx.nd.run_async(lambda v: ran.append(1), writes=[b])  # skipped, never called
        a.wait_to_read()  # only read: no error
        with pytest.raises(ValueError, match="bad input"):
            c.wait_to_read()
        drain()
        # the engine keeps going
        b[:] = 3
        mx.nd.run_async(lambda v: torch.from_dlpack(v).add_(1), writes=[b])
        return ran, b.asnumpy()

    ran, b = bounded(body)
    assert ran == []
    np.testing.assert_array_equal(b, 4.0)


def test_return_value_is_ignored_and_base_exceptions_are_caught():
    def body():
        x = mx.nd.zeros((2,))
        mx.nd.run_async(lambda v: 123, writes=[x])
        x.wait_to_read()
        mx.nd.run_async(lambda v: (_ for _ in ()).throw(KeyboardInterrupt()), writes=[x])
        with pytest.raises(mx.MXNetError, match="KeyboardInterrupt"):
            x.wait_to_read()
        drain()

    bounded(body)


# ---- the GIL ---------------------------------------------------------------------------

def test_gil_released_while_waiting_for_a_callback():
    """The main thread waits (GIL released) for a callback that needs the GIL to start and
    that finishes only after another Python thread has made progress."""
    def body():
        x = mx.nd.zeros((16,), dtype="float32")
        progress = {"n": 0}
        enough = threading.Event()
        stop = threading.Event()

        def worker():
            while not stop.is_set():
                progress["n"] += 1
                if progress["n"] >= 1000:
                    enough.set()
                time.sleep(0)  # a pure-Python loop with GIL switches

        w = threading.Thread(target=worker, daemon=True)
        w.start()

        def fn(v):
            assert enough.wait(TIMEOUT), "the other thread made no progress"
            torch.from_dlpack(v).fill_(1)

        mx.nd.run_async(fn, writes=[x])
        before = progress["n"]
        x.wait_to_read()  # blocks until the worker has run 1000 iterations
        after = progress["n"]
        stop.set()
        w.join(TIMEOUT)
        return before, after, x.asnumpy()

    before, after, x = bounded(body)
    assert after >= 1000
    np.testing.assert_array_equal(x, 1)


def test_python_threads_run_while_callbacks_sleep():
    def body():
        xs = [mx.nd.zeros((2,)) for _ in range(4)]
        for x in xs:
            mx.nd.run_async(lambda v: time.sleep(0.2), writes=[x])
        t0 = time.monotonic()
        mx.nd.waitall()
        return time.monotonic() - t0

    assert bounded(body) < 0.7  # four independent sleeps overlap on engine threads


def test_callbacks_from_many_python_threads():
    def body():
        x = mx.nd.zeros((1,), dtype="int64")
        errors = []

        def pusher():
            try:
                for _ in range(50):
                    mx.nd.run_async(add_one, writes=[x])
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        ts = [threading.Thread(target=pusher) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(TIMEOUT)
        return errors, x.asnumpy()

    errors, x = bounded(body)
    assert errors == [] and x[0] == 200


# ---- lifetimes ---------------------------------------------------------------------------

def test_many_callbacks_do_not_leak():
    def body():
        mx.nd.waitall()
        gc.collect()
        handles, storages = core.LiveHandles(), core.LiveStorages()
        x = mx.nd.zeros((8,), dtype="float64")
        t = torch.zeros(8, dtype=torch.float64)
        refs = []
        for i in range(1000):
            def fn(*views, i=i):
                torch.from_dlpack(views[-1]).add_(1)
            refs.append(weakref.ref(fn))
            if i % 3 == 0:
                mx.nd.run_async(fn, reads=[x[i % 8:]], writes=[t])
            else:
                mx.nd.run_async(fn, writes=[x])
            del fn
        mx.nd.waitall()
        result = x.asnumpy(), t.numpy().copy()
        del x, t
        ok = settle(lambda: callback.pending() == 0 and core.LiveHandles() == handles
                    and core.LiveStorages() == storages)
        return result, ok, (handles, core.LiveHandles(), storages, core.LiveStorages(), callback.pending()), refs

    (x, t), ok, counts, refs = bounded(body)
    np.testing.assert_array_equal(x, 666)
    assert t.sum() > 0  # the torch writes were not ordered among themselves: no exact value
    assert ok, "handles/storages/pending not back to baseline: %s" % (counts,)
    assert all(r() is None for r in refs)


def test_skipped_callbacks_are_released():
    def body():
        mx.nd.waitall()
        gc.collect()
        handles = core.LiveHandles()
        x = mx.nd.zeros((4,))
        mx.nd.run_async(lambda v: 1 / 0, writes=[x])
        refs = []
        for _ in range(100):
            def fn(v):
                raise AssertionError("must not run")
            refs.append(weakref.ref(fn))
            mx.nd.run_async(fn, writes=[x])
            del fn
        with pytest.raises(mx.MXNetError, match="ZeroDivisionError"):
            mx.nd.waitall()
        del x
        ok = settle(lambda: callback.pending() == 0 and core.LiveHandles() == handles)
        return ok, refs, (handles, core.LiveHandles(), callback.pending())

    ok, refs, counts = bounded(body)
    assert ok, counts
    assert settle(lambda: all(r() is None for r in refs))


# ---- bad arguments -----------------------------------------------------------------------

def test_bad_arguments():
    x = mx.nd.zeros((2,))
    pending = callback.pending()
    with pytest.raises(TypeError, match="callable"):
        mx.nd.run_async(42, writes=[x])
    with pytest.raises(TypeError, match="callable"):
        mx.nd.run_async(None)
    with pytest.raises(TypeError, match="__dlpack__"):
        mx.nd.run_async(print, [1, 2, 3])
    with pytest.raises(TypeError, match="writes\\[0\\]"):
        mx.nd.run_async(print, writes=[[1.0, 2.0]])
    with pytest.raises(TypeError, match="reads\\[1\\]"):
        mx.nd.run_async(print, reads=[x, "not an array"])
    with pytest.raises(TypeError, match="sequence"):
        mx.nd.run_async(print, reads=5)
    with pytest.raises(TypeError, match="sequence"):
        mx.nd.run_async(print, writes="x")
    ro = np.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        mx.nd.run_async(print, writes=[mx.nd.from_numpy(ro)])
    assert callback.pending() == pending  # nothing registered by failed calls
    mx.nd.waitall()


def test_a_single_array_may_be_given_without_a_list():
    def body():
        x = mx.nd.zeros((3,), dtype="float32")
        mx.nd.run_async(add_one, writes=x)
        t = torch.zeros(3)
        mx.nd.run_async(add_one, writes=t)
        mx.nd.waitall()
        return x.asnumpy(), t

    x, t = bounded(body)
    np.testing.assert_array_equal(x, 1)
    np.testing.assert_array_equal(t.numpy(), 1)


# ---- engine modes and interpreter exit ---------------------------------------------------

def run_script(code, env_extra=None, timeout=TIMEOUT):
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(env_extra or {})
    return subprocess.run([*PYTHON, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_naive_engine_runs_the_callable_inside_run_async():
    r = run_script("""
        import threading, torch, mxgo as mx
        x = mx.nd.ones((3,), dtype="float32")
        seen = []
        mx.nd.run_async(lambda v: (seen.append(threading.get_ident()), torch.from_dlpack(v).add_(1)), writes=[x])
        assert seen == [threading.get_ident()], seen   # ran already, on this thread
        mx.nd.run_async(lambda v: 1 / 0, writes=[x])   # the error waits for a wait
        try:
            x.wait_to_read()
        except mx.MXNetError as e:
            assert "ZeroDivisionError" in str(e)
        else:
            raise SystemExit("no error")
        try:
            mx.nd.waitall()
        except mx.MXNetError:
            pass
        print("ok", x.asnumpy().tolist())
    """, {"MXGO_ENGINE": "naive"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok [2.0, 2.0, 2.0]"


def test_pending_callbacks_run_before_exit_and_none_after():
    r = run_script("""
        import sys, time, torch, mxgo as mx
        x = mx.nd.zeros((2,))
        def late(v):
            time.sleep(0.2)
            print("ran before exit", flush=True)
        mx.nd.run_async(late, writes=[x])  # still pending when the script ends
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ran before exit"
    r = run_script("""
        import mxgo as mx
        from mxgo.ndarray import callback
        callback._shutdown()  # what the exit hook does: drain, then refuse callbacks
        x = mx.nd.zeros((2,))
        ran = []
        mx.nd.run_async(lambda v: ran.append(1), writes=[x])
        try:
            x.wait_to_read()
        except mx.MXNetError as e:
            assert "shutting down" in str(e), e
        else:
            raise SystemExit("no error")
        assert ran == []
        print("refused")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "refused"


def test_exit_while_a_thread_keeps_pushing_callbacks():
    r = run_script("""
        import threading, time, torch, mxgo as mx
        x = mx.nd.zeros((4,))
        def pusher():
            while True:
                mx.nd.run_async(lambda v: torch.from_dlpack(v).add_(1), writes=[x])
                time.sleep(0.0005)
        threading.Thread(target=pusher, daemon=True).start()
        time.sleep(0.3)
        print("exiting", flush=True)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "exiting"
