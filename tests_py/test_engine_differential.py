"""Randomized differential test of the engine: random programs of mxgo operations run on the
threaded engine and, eagerly, in NumPy; the results must match.

A program starts from a few arrays (float64, int32, int64) that mxgo made or imported
zero-copy from NumPy (``from_numpy``, ``from_dlpack``) or PyTorch (``from_dlpack``), and
applies about 20 random steps: views (slices with any step, integer indices, new axes,
reshape views of contiguous arrays) that overlap each other, ``+ - * /`` with arrays
(broadcasting) and scalars, in place and not, ``setitem`` of scalars, arrays and NumPy
values, ``copy``, ``astype``, registered operators with and without ``out=`` (the ones
among negative, abs, exp, maximum, minimum, sum, mean, where, clip that exist when the test
runs), callbacks on the engine (``mx.nd.run_async`` with PyTorch writes and NumPy reads),
dropped references, and waits at random points. NumPy mirrors every array: a view in mxgo
is the same view of the mirror, so writes through overlapping views show up the same way.
Where mx.nd follows MXNet 1.x rather than NumPy, the mirror does too (api_helpers.mxnet_*):
sums and means keep the input's dtype (integer means truncate), and a result with no
dimensions (a whole-array sum, an element picked by integers) has shape (1,).

mxgo's values are read only through ``asnumpy()`` (at wait points and at the end) and, for
imported memory, in the other framework after ``waitall()``. Every program runs in a
worker thread joined with a timeout: a hang fails the test. Values stay small (a step whose
NumPy result would leave the bounds is not taken), so integer results are exact and
floating-point ones bit-identical, except after steps whose order of evaluation may differ
(sums, means, exp), which are compared with a tolerance from then on.

Environment: MXGO_DIFF_PROGRAMS (default 2000), MXGO_DIFF_SEED (default 20240607),
MXGO_DIFF_BUDGET (seconds, default 45) for the threaded run in this process; the naive
engine runs a fifth of the programs in a subprocess (the engine mode is fixed at first use).
"""
import atexit
import os
import random
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import torch

import mxgo as mx
from api_helpers import mxnet_reduce, mxnet_shaped
from mxgo.ndarray.op import OPS
from isolation import PYTHON

PROGRAMS = int(os.environ.get("MXGO_DIFF_PROGRAMS", "2000"))
SEED = int(os.environ.get("MXGO_DIFF_SEED", "20240607"))
BUDGET = float(os.environ.get("MXGO_DIFF_BUDGET", "45"))
STEPS = 20
PROGRAM_TIMEOUT = 30.0
#: a budget must still leave this many programs run
MIN_PROGRAMS = 200

DTYPES = ("float64", "int32", "int64")
INT_BOUND = 1 << 20
FLOAT_BOUND = 1e12
#: registered operators used when present (other operators are added in parallel)
OPTIONAL = ("negative", "abs", "exp", "maximum", "minimum", "sum", "mean", "where", "clip")
HAVE = frozenset(n for n in OPTIONAL if n in OPS)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(os.path.abspath(mx.__file__)))


class Mismatch(AssertionError):
    pass


class Base:
    """A storage: NumPy's mirror of it and, for imported memory, the foreign object."""

    def __init__(self, mirror, exact=True, foreign=None, kind="mx"):
        self.mirror = mirror
        self.exact = exact
        self.foreign = foreign
        self.kind = kind


class Ref:
    """An mxgo array and the same view of its base's mirror."""

    def __init__(self, x, ref_np, base, name):
        self.mx = x
        self.np = ref_np
        self.base = base
        self.name = name


# ---- NumPy semantics of mxgo's arithmetic --------------------------------------------------

def _is_int(dtype):
    return np.dtype(dtype).kind in "iu"


def np_binary(op, a, b, dtype):
    """a <op> b as mxgo computes it: both operands in ``dtype``; integer division truncates
    and gives 0 for x / 0."""
    a = np.asarray(a).astype(dtype, copy=False)
    b = np.asarray(b).astype(dtype, copy=False)
    if op == "add":
        return np.add(a, b)
    if op == "subtract":
        return np.subtract(a, b)
    if op == "multiply":
        return np.multiply(a, b)
    if _is_int(dtype):
        zero = b == 0
        safe = np.where(zero, 1, b)
        q = np.abs(a) // np.abs(safe)
        q = np.where((a < 0) != (safe < 0), -q, q)
        return np.where(zero, 0, q).astype(dtype)
    return np.divide(a, b)


def castable(v, dtype):
    """Whether v converts to dtype exactly as C and Go do (truncation, no overflow)."""
    if not _is_int(dtype) or _is_int(v.dtype) and np.dtype(dtype).itemsize >= v.dtype.itemsize:
        return True
    v = np.asarray(v)
    return v.size == 0 or (bool(np.all(np.isfinite(v))) and float(np.max(np.abs(v))) <= INT_BOUND)


def in_bounds(v):
    v = np.asarray(v)
    if v.size == 0:
        return True
    if _is_int(v.dtype):
        return int(np.max(np.abs(v.astype(np.int64)))) <= INT_BOUND
    return bool(np.all(np.isfinite(v))) and float(np.max(np.abs(v))) <= FLOAT_BOUND


SYMBOL = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}


# ---- one program -------------------------------------------------------------------------

class Program:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.nprng = np.random.default_rng(seed)
        self.seed = seed
        self.refs = []
        self.bases = []
        self.trace = []
        self.snapshots = []  # (name, list filled by a reading callback, expected copy)
        self.counter = 0

    # -- helpers --
    def log(self, s):
        self.trace.append(s)

    def fresh_name(self):
        self.counter += 1
        return "v%d" % self.counter

    def add_ref(self, x, ref_np, base, how):
        r = Ref(x, ref_np, base, self.fresh_name())
        self.refs.append(r)
        self.log("%s = %s" % (r.name, how))
        return r

    def new_base(self, x, mirror, how, exact=True):
        b = Base(np.ascontiguousarray(mirror) if mirror.ndim else np.array(mirror), exact)
        self.bases.append(b)
        return self.add_ref(x, b.mirror, b, how)

    def random_shape(self):
        nd = self.rng.choice((0, 1, 1, 2, 2, 2, 3))
        return tuple(self.rng.choice((0, 1, 2, 3, 4, 5, 6)) if self.rng.random() < 0.05 else self.rng.randint(1, 6)
                     for _ in range(nd))

    def random_values(self, shape, dtype):
        v = self.nprng.integers(-5, 6, size=shape)
        if not _is_int(dtype) and self.rng.random() < 0.5:
            v = v + self.nprng.choice([0.0, 0.5, 0.25], size=shape)
        return np.asarray(v).astype(dtype)

    def scalar(self, dtype, nonzero=False):
        while True:
            s = self.rng.choice((-3, -2, -1, 0, 1, 2, 3, 4))
            if not _is_int(dtype) and self.rng.random() < 0.3:
                s = s + 0.5
            if not (nonzero and s == 0):
                return s

    def pick(self, pred=None):
        cands = [r for r in self.refs if pred is None or pred(r)]
        return self.rng.choice(cands) if cands else None

    # -- sources --
    def make_source(self):
        shape = self.random_shape()
        dtype = self.rng.choice(DTYPES)
        values = self.random_values(shape, dtype)
        kind = self.rng.choice(("array", "array", "full", "from_numpy", "numpy_dlpack", "torch_dlpack"))
        if kind == "full":
            s = self.scalar(dtype)
            values = np.full(shape, s, dtype=dtype)
            x = mx.nd.full(shape, s, dtype=dtype)
            foreign = None
        elif kind == "array":
            x = mx.nd.array(values, dtype=dtype)
            foreign = None
        elif kind == "from_numpy":
            foreign = values.copy()
            x = mx.nd.from_numpy(foreign)
        elif kind == "numpy_dlpack":
            foreign = values.copy()
            x = mx.nd.from_dlpack(foreign)
        else:
            foreign = torch.from_numpy(values.copy())
            x = mx.nd.from_dlpack(foreign)
        b = Base(values.copy(), True, foreign, kind)
        self.bases.append(b)
        self.add_ref(x, b.mirror, b, "%s(shape=%s, dtype=%s)" % (kind, shape, dtype))

    # -- steps; each returns False when it does not apply --
    def step_view(self):
        r = self.pick()
        shape = r.np.shape
        if shape and r.np.flags.c_contiguous and r.np.size > 0 and self.rng.random() < 0.3:
            return self.reshape_view(r)
        key = []
        for n in shape:
            c = self.rng.random()
            if c < 0.3 or n == 0:
                key.append(slice(None))
            elif c < 0.5:
                key.append(self.rng.randint(-n, n - 1))
            else:
                start = self.rng.choice((None, self.rng.randint(-n - 1, n)))
                stop = self.rng.choice((None, self.rng.randint(-n - 1, n + 1)))
                step = self.rng.choice((None, 1, 2, 3, -1, -2))
                key.append(slice(start, stop, step))
        if self.rng.random() < 0.15:
            key.insert(self.rng.randint(0, len(key)), None)
        while key and self.rng.random() < 0.3 and key[-1] == slice(None):
            key.pop()
        key.append(Ellipsis)  # NumPy returns a 0-d view instead of a scalar ...
        key = tuple(key)
        v = mxnet_shaped(r.np[key])  # ... which mxgo, as MXNet, gives as shape (1,)
        assert isinstance(v, np.ndarray) and (v.size == 0 or np.shares_memory(v, r.base.mirror))
        self.add_ref(r.mx[key], v, r.base, "%s[%s]" % (r.name, _fmt_key(key)))
        return True

    def reshape_view(self, r):
        size = r.np.size
        dims = []
        rest = size
        for _ in range(self.rng.randint(1, 3)):
            divisors = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.rng.choice(divisors)
            dims.append(d)
            rest //= d
        dims.append(rest)
        self.rng.shuffle(dims)
        if self.rng.random() < 0.3:
            dims[self.rng.randrange(len(dims))] = -1
        shape = tuple(dims)
        v = r.np.reshape(shape)
        x = r.mx.reshape(shape)
        if x._data != r.mx._data:
            raise Mismatch("reshape of a contiguous array made a copy: %s" % (x.strides,))
        self.add_ref(x, v, r.base, "%s.reshape(%s)" % (r.name, shape))
        return True

    def operand_for(self, target_shape, dtype, exact_needed=False, broadcast_into=False):
        """An array of dtype whose shape broadcasts with target_shape (into it, when
        broadcast_into), or None."""
        def ok(r):
            if r.np.dtype != np.dtype(dtype) or (exact_needed and not r.base.exact):
                return False
            try:
                s = np.broadcast_shapes(target_shape, r.np.shape)
            except ValueError:
                return False
            return s == tuple(target_shape) if broadcast_into else True
        return self.pick(ok)

    def step_binary(self, inplace):
        a = self.pick()
        dtype = a.np.dtype
        op = self.rng.choice(("add", "subtract", "multiply", "divide"))
        use_scalar = self.rng.random() < 0.35
        b = None if use_scalar else self.operand_for(a.np.shape, dtype, exact_needed=(op == "divide"),
                                                     broadcast_into=inplace)
        if op == "divide" and b is None and not use_scalar:
            return False
        if b is None:
            s = self.scalar(dtype, nonzero=(op == "divide"))
            reverse = not inplace and self.rng.random() < 0.4
            with np.errstate(all="ignore"):
                result = np_binary(op, s, a.np, dtype) if reverse else np_binary(op, a.np, s, dtype)
            if not in_bounds(result):
                return False
            exact = a.base.exact
            if inplace:
                x = a.mx
                x = _iop(x, op, s)
                assert x is a.mx
                a.np[...] = result
                a.base.exact = exact
                self.log("%s %s= %r" % (a.name, SYMBOL[op], s))
                return True
            x = _op(s, a.mx, op) if reverse else _op(a.mx, s, op)
            how = "%r %s %s" % (s, SYMBOL[op], a.name) if reverse else "%s %s %r" % (a.name, SYMBOL[op], s)
            self.new_base(x, result, how, exact)
            return True
        with np.errstate(all="ignore"):
            result = np_binary(op, a.np, b.np, dtype)
        if not in_bounds(result):
            return False
        exact = a.base.exact and b.base.exact
        if inplace:
            x = _iop(a.mx, op, b.mx)
            assert x is a.mx
            a.np[...] = result
            a.base.exact = exact
            self.log("%s %s= %s" % (a.name, SYMBOL[op], b.name))
            return True
        self.new_base(_op(a.mx, b.mx, op), result, "%s %s %s" % (a.name, SYMBOL[op], b.name), exact)
        return True

    def step_setitem(self):
        a = self.pick()
        c = self.rng.random()
        if c < 0.35:
            s = self.scalar(a.np.dtype)
            a.mx[:] = s
            a.np[...] = s
            self.log("%s[:] = %r" % (a.name, s))
            return True
        if c < 0.5 and a.np.ndim:
            i = self.rng.randrange(a.np.shape[0]) if a.np.shape[0] else None
            if i is None:
                return False
            s = self.scalar(a.np.dtype)
            a.mx[i] = s
            a.np[i] = s
            self.log("%s[%d] = %r" % (a.name, i, s))
            return True
        if c < 0.65:
            value = self.random_values(a.np.shape[self.rng.randint(0, a.np.ndim):], a.np.dtype)
            a.mx[:] = value
            a.np[...] = value
            self.log("%s[:] = numpy %s" % (a.name, value.shape))
            return True
        # from another (possibly overlapping) array of the same shape, any dtype (casts)
        b = self.pick(lambda r: r.np.shape == a.np.shape and (r.base.exact or not _is_int(a.np.dtype))
                      and castable(r.np, a.np.dtype))
        if b is None:
            return False
        value = b.np.astype(a.np.dtype)
        a.mx[:] = b.mx
        a.np[...] = value
        a.base.exact = a.base.exact and b.base.exact
        self.log("%s[:] = %s" % (a.name, b.name))
        return True

    def step_copy(self):
        a = self.pick()
        if self.rng.random() < 0.5:
            self.new_base(a.mx.copy(), a.np.copy(), "%s.copy()" % a.name, a.base.exact)
            return True
        dtype = self.rng.choice(DTYPES)
        if _is_int(dtype) and not _is_int(a.np.dtype) and not a.base.exact:
            return False  # truncating an inexact value could land either side of an integer
        if not castable(a.np, dtype):
            return False
        self.new_base(a.mx.astype(dtype), a.np.astype(dtype), "%s.astype(%s)" % (a.name, dtype),
                      a.base.exact)
        return True

    def step_callback(self):
        """run_async: PyTorch writes in place through a view, or NumPy reads a snapshot."""
        if self.rng.random() < 0.5:
            a = self.pick(lambda r: r.np.size > 0 and all(s >= 0 for s in r.mx.strides))
            if a is None:
                return False
            s = self.scalar(a.np.dtype)
            op = self.rng.choice(("add", "multiply"))
            with np.errstate(all="ignore"):
                result = np_binary(op, a.np, s, a.np.dtype)
            if not in_bounds(result):
                return False
            if op == "add":
                mx.nd.run_async(lambda v: torch.from_dlpack(v).add_(s), writes=[a.mx])
            else:
                mx.nd.run_async(lambda v: torch.from_dlpack(v).mul_(s), writes=[a.mx])
            a.np[...] = result
            self.log("run_async(torch %s_(%r), writes=[%s])" % (op, s, a.name))
            return True
        a = self.pick()
        box = []
        mx.nd.run_async(lambda v: box.append(np.from_dlpack(v).copy()), reads=[a.mx])
        self.snapshots.append((a.name, box, a.np.copy(), a.base))
        self.log("run_async(snapshot, reads=[%s])" % a.name)
        return True

    def step_registered(self):
        if not HAVE:
            return False
        name = self.rng.choice(sorted(HAVE))
        fn = getattr(mx.nd, name)
        if name in ("negative", "abs", "exp", "clip"):
            a = self.pick(lambda r: name != "exp" or not _is_int(r.np.dtype))
            if a is None:
                return False
            kwargs = {}
            with np.errstate(all="ignore"):
                if name == "negative":
                    result = np.negative(a.np)
                elif name == "abs":
                    result = np.abs(a.np)
                elif name == "exp":
                    result = np.exp(a.np)
                else:
                    lo = self.rng.randint(-4, 1)
                    hi = self.rng.randint(lo, 4)
                    kwargs = {"a_min": float(lo), "a_max": float(hi)}
                    result = np.clip(a.np, np.asarray(lo, a.np.dtype), np.asarray(hi, a.np.dtype))
            if not in_bounds(result):
                return False
            exact = a.base.exact and name != "exp"
            return self._emit(name, fn, [a], kwargs, result, exact)
        if name in ("maximum", "minimum"):
            a = self.pick()
            b = self.operand_for(a.np.shape, a.np.dtype)
            if b is None:
                return False
            result = (np.maximum if name == "maximum" else np.minimum)(a.np, b.np)
            return self._emit(name, fn, [a, b], {}, result, a.base.exact and b.base.exact)
        if name == "where":
            c = self.pick(lambda r: r.base.exact)
            if c is None:
                return False
            dtype = self.rng.choice(DTYPES)  # MXNet's where does not broadcast: x and y of one shape,
            x = self.pick(lambda r: r.np.dtype == dtype and (  # the condition's or as long as its first axis
                r.np.shape == c.np.shape or (c.np.ndim == 1 and r.np.ndim >= 2 and r.np.shape[0] == c.np.shape[0])))
            if x is None:
                return False
            y = self.pick(lambda r: r.np.dtype == dtype and r.np.shape == x.np.shape)
            if y is None:
                return False
            cond = c.np != 0
            if cond.shape != x.np.shape:  # MXNet: a 1-D condition picks whole rows
                cond = cond.reshape(cond.shape + (1,) * (x.np.ndim - 1))
            result = np.where(cond, x.np, y.np)
            return self._emit(name, fn, [c, x, y], {}, result, x.base.exact and y.base.exact)
        # sum, mean
        a = self.pick(lambda r: name == "sum" or r.np.size > 0)
        if a is None:
            return False
        nd = a.np.ndim
        choice = self.rng.random()
        if nd == 0 or choice < 0.3:
            axis = None
        elif choice < 0.7:
            axis = self.rng.randint(-nd, nd - 1)
        else:
            axis = tuple(sorted(self.rng.sample(range(nd), self.rng.randint(1, nd))))
        keepdims = self.rng.random() < 0.4
        result = mxnet_reduce(name, a.np, axis, keepdims)  # MXNet's dtype (int means truncate) and shape
        x = fn(a.mx, axis=axis, keepdims=keepdims)
        if not in_bounds(result):
            return False
        exact = a.base.exact and _is_int(a.np.dtype)
        self.new_base(x, result, "%s(%s, axis=%s, keepdims=%s)" % (name, a.name, axis, keepdims), exact)
        return True

    def _emit(self, name, fn, args, kwargs, result, exact):
        """fn(*args, **kwargs), into a new array or (out=) into an array of the result's
        shape and dtype, possibly overlapping the inputs."""
        if self.rng.random() < 0.4:
            out = self.pick(lambda r: r.np.shape == result.shape and r.np.dtype == result.dtype)
            if out is not None:
                got = fn(*[a.mx for a in args], out=out.mx, **kwargs)
                assert got is out.mx
                out.np[...] = result
                out.base.exact = out.base.exact and exact
                self.log("%s(%s, %s, out=%s)" % (name, ", ".join(a.name for a in args), kwargs, out.name))
                return True
        x = fn(*[a.mx for a in args], **kwargs)
        self.new_base(x, result, "%s(%s, %s)" % (name, ", ".join(a.name for a in args), kwargs), exact)
        return True

    def step_drop(self):
        if len(self.refs) <= 2:
            return False
        r = self.refs.pop(self.rng.randrange(len(self.refs)))
        self.log("del %s" % r.name)
        return True

    def step_wait(self):
        r = self.pick()
        if self.rng.random() < 0.2:
            mx.nd.waitall()
            self.log("waitall()")
            self.check_foreign()
        else:
            self.log("check %s" % r.name)
        self.compare(r, r.mx.asnumpy(), r.np)
        return True

    # -- checking --
    def compare(self, r, got, want, what=None):
        what = what or r.name
        if got.shape != want.shape or got.dtype != want.dtype:
            raise Mismatch("%s: got %s %s, want %s %s" % (what, got.dtype, got.shape, want.dtype, want.shape))
        if r.base.exact or _is_int(want.dtype):
            same = np.array_equal(got, want, equal_nan=not _is_int(want.dtype))
        else:
            scale = 1.0 + (float(np.max(np.abs(want))) if want.size else 0.0)
            same = np.allclose(got, want, rtol=1e-9, atol=1e-9 * scale, equal_nan=True)
        if not same:
            raise Mismatch("%s differs:\nmxgo  %s\nnumpy %s" % (what, got, want))

    def check_foreign(self):
        for b in self.bases:
            if b.foreign is None:
                continue
            seen = b.foreign.numpy() if isinstance(b.foreign, torch.Tensor) else np.array(b.foreign)
            self.compare(Ref(None, None, b, "?"), seen, b.mirror, "%s source" % b.kind)

    def run(self, steps=STEPS):
        for _ in range(self.rng.randint(1, 3)):
            self.make_source()
        table = [(self.step_view, 4), (lambda: self.step_binary(False), 4), (lambda: self.step_binary(True), 4),
                 (self.step_setitem, 3), (self.step_copy, 1.5), (self.step_registered, 3 if HAVE else 0),
                 (self.step_callback, 1), (self.make_source, 0.7), (self.step_drop, 0.7), (self.step_wait, 0.7)]
        fns = [f for f, _ in table]
        weights = [w for _, w in table]
        done = tries = 0
        while done < steps and tries < steps * 10:
            tries += 1
            f = self.rng.choices(fns, weights)[0]
            if f() is not False:
                done += 1
        mx.nd.waitall()
        for r in self.refs:
            self.compare(r, r.mx.asnumpy(), r.np)
        self.check_foreign()
        for name, box, want, base in self.snapshots:
            if len(box) != 1:
                raise Mismatch("snapshot callback of %s ran %d times" % (name, len(box)))
            self.compare(Ref(None, None, base, name), box[0], want, "snapshot of %s" % name)


def _op(a, b, op):
    if op == "add":
        return a + b
    if op == "subtract":
        return a - b
    if op == "multiply":
        return a * b
    return a / b


def _iop(a, op, b):
    if op == "add":
        a += b
    elif op == "subtract":
        a -= b
    elif op == "multiply":
        a *= b
    else:
        a /= b
    return a


def _fmt_key(key):
    def one(k):
        if k is None:
            return "None"
        if k is Ellipsis:
            return "..."
        if isinstance(k, slice):
            return "%s:%s%s" % ("" if k.start is None else k.start, "" if k.stop is None else k.stop,
                                "" if k.step is None else ":%d" % k.step)
        return str(k)
    return ", ".join(one(k) for k in key)


# ---- driver ------------------------------------------------------------------------------

def run_program(seed):
    """Runs program `seed` in a worker thread; returns None or a failure description."""
    prog = Program(seed)
    outcome = {}

    def body():
        try:
            prog.run()
        except BaseException as exc:  # noqa: B902
            outcome["error"] = exc

    t = threading.Thread(target=body, name="program-%d" % seed, daemon=True)
    t.start()
    t.join(PROGRAM_TIMEOUT)
    if t.is_alive():
        # The stuck work would also hang mxgo's exit hook (it drains the engine): end the
        # process once pytest has reported, before that hook runs.
        atexit.register(os._exit, 3)
        return "program %d did not finish in %.0f s (deadlock?)\n%s" % (seed, PROGRAM_TIMEOUT, "\n".join(prog.trace))
    err = outcome.get("error")
    if err is not None:
        try:
            mx.nd.waitall()  # leave no error behind for the next program
        except Exception:  # noqa: BLE001
            pass
        return "program %d failed: %s: %s\n%s" % (seed, type(err).__name__, err, "\n".join(prog.trace))
    return None


def run_programs(count, seed, budget):
    """Runs up to `count` programs within `budget` seconds; returns (programs run, failures)."""
    start = time.monotonic()
    failures = []
    n = 0
    for i in range(count):
        if time.monotonic() - start > budget:
            break
        f = run_program(seed + i)
        n += 1
        if f is not None:
            failures.append(f)
            if len(failures) >= 3 or "deadlock" in f:
                break
    return n, failures


def test_random_programs_match_numpy_threaded_engine():
    n, failures = run_programs(PROGRAMS, SEED, BUDGET)
    assert not failures, "\n\n".join(failures)
    assert n >= min(PROGRAMS, MIN_PROGRAMS), "only %d programs ran within %.0f s" % (n, BUDGET)
    print("%d programs (registered operators used: %s)" % (n, ", ".join(sorted(HAVE)) or "none"))


def test_random_programs_match_numpy_naive_engine():
    count = max(1, PROGRAMS // 5)
    budget = BUDGET / 3
    code = textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        import test_engine_differential as t
        n, failures = t.run_programs(%d, %d, %r)
        print("ran", n)
        if failures:
            print("\\n\\n".join(failures))
            sys.exit(1)
    """ % (HERE, count, SEED + 1_000_000, budget))
    env = dict(os.environ)
    env["MXGO_ENGINE"] = "naive"
    env["PYTHONPATH"] = SRC + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    r = subprocess.run([*PYTHON, "-c", code], env=env, capture_output=True, text=True,
                       timeout=budget + 120)
    assert r.returncode == 0, r.stdout[-20000:] + r.stderr[-5000:]
    ran = int(r.stdout.split()[1])
    assert ran >= min(count, MIN_PROGRAMS // 4), r.stdout


if __name__ == "__main__":
    # python test_engine_differential.py [programs] [seed]: a quick run outside pytest
    n_, f_ = run_programs(int(sys.argv[1]) if len(sys.argv) > 1 else PROGRAMS,
                          int(sys.argv[2]) if len(sys.argv) > 2 else SEED, float("inf"))
    print("ran", n_)
    print("\n\n".join(f_) or "no mismatch")
    sys.exit(1 if f_ else 0)
