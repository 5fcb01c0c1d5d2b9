"""The Go operator registry, and running its operators: ``OPS`` and ``invoke``.

Go describes every operator once (``core.OpInfo()``: name, inputs, parameters and their
kinds and defaults, dtypes, docs); ``invoke`` encodes a call's parameters into the wire
form Go parses and runs the operator through C (``fastpath.invoke``). Every namespace's
functions and array methods call operators through here. Operands are mxgo arrays (known by
their C base, ``fastpath.NDArrayBase``) or any object that speaks DLPack, imported without a
copy (dlpack.py); a call that touches another framework's memory waits for its result
before returning, since that framework cannot see mxgo's engine.
"""
import json
import numbers
import operator

import numpy as np

from ..base import DTYPE_NAMES, MXNetTypeError, MXNetValueError, call, core, dtype_code, fastpath, mxnet_error
from .dlpack import from_dlpack

__all__ = ["OPS", "DECODE_DEFAULT", "invoke", "invoke_all", "is_scalar", "scalar_args"]

_Array = fastpath.NDArrayBase  # every mxgo array is one

#: the registry's description of every operator, by name
OPS = {info["name"]: info for info in json.loads(core.OpInfo())}
for _info in OPS.values():  # parameter kinds by name, looked up on every call
    _info["kinds"] = {p["name"]: p["kind"] for p in _info["params"]}


def is_scalar(v):
    """Whether v is a Python or NumPy number (an operand converted to the array's dtype)."""
    return isinstance(v, (numbers.Number, np.generic)) and not isinstance(v, np.ndarray)


def scalar_args(v):
    """(is_int, int_value, real, imag) for Fill and BinaryScalar."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, (bool, numbers.Integral)):
        v = int(v)
        if not -(1 << 63) <= v < (1 << 64):
            raise OverflowError("Python int %d is too large for any mxgo dtype" % v)
        return True, v - (1 << 64) if v >= (1 << 63) else v, float(v), 0.0
    if isinstance(v, numbers.Real):
        return False, 0, float(v), 0.0
    if isinstance(v, numbers.Complex):
        return False, 0, float(v.real), float(v.imag)
    raise MXNetTypeError("expected a number, got %s" % type(v).__name__)


def _encode_scalar(v):
    is_int, iv, re, im = scalar_args(v)
    if is_int:
        return "i:%d" % (iv + (1 << 64) if iv < 0 < re else iv)  # ints >= 2**63 as themselves
    if im:
        return "c:%r,%r" % (re, im)
    return "f:%r" % re


def _encode_ints(v):
    if isinstance(v, numbers.Integral):
        v = (v,)
    try:
        return ",".join(str(operator.index(x)) for x in v)
    except TypeError:
        raise MXNetTypeError("expected an int or a tuple of ints, got %r" % (v,)) from None


def _encode_str(v):
    if not isinstance(v, str):
        raise MXNetTypeError("expected a str, got %s" % type(v).__name__)
    if ";" in v or "=" in v:
        raise MXNetValueError("%r is not a valid choice" % (v,))
    return v


_ENCODE = {
    "int": lambda v: str(operator.index(v)),
    "optint": lambda v: "None" if v is None else str(operator.index(v)),
    "optfloat": lambda v: "None" if v is None else repr(float(v)),
    "str": _encode_str,
    "float": lambda v: repr(float(v)),
    "bool": lambda v: "1" if v else "0",
    "axes": lambda v: "None" if v is None else _encode_ints(v),
    "shape": _encode_ints,
    "dtype": lambda v: DTYPE_NAMES[dtype_code(v)],
    "optdtype": lambda v: "None" if v is None else DTYPE_NAMES[dtype_code(v)],
    "optints": lambda v: _encode_ints(v) if isinstance(v, numbers.Integral) else ",".join(
        "None" if x is None else str(operator.index(x)) for x in v),
    "scalar": _encode_scalar,
    "floats": lambda v: ",".join(repr(float(x)) for x in ((v,) if isinstance(v, numbers.Real) else v)) or "()",
}

#: the registry's default strings, decoded by parameter kind (for signatures)
DECODE_DEFAULT = {
    "int": int,
    "optint": lambda s: None if s == "None" else int(s),
    "optfloat": lambda s: None if s == "None" else float(s),
    "str": str,
    "float": float,
    "bool": lambda s: s == "1",
    "axes": lambda s: None if s == "None" else tuple(int(x) for x in s.split(",")) if s else (),
    "shape": lambda s: tuple(int(x) for x in s.split(",")) if s and s != "()" else (),
    "dtype": str,
    "optdtype": lambda s: None if s == "None" else s,
    "optints": lambda s: tuple(None if x == "None" else int(x) for x in s.split(",")) if s not in ("", "()") else (),
    "floats": lambda s: tuple(float(x) for x in s.split(",")) if s not in ("", "()") else (),
    "scalar": lambda s: complex(*map(float, s[2:].split(","))) if s[0] == "c" else (int if s[0] == "i" else float)(s[2:]),
}


def _as_array(x, name):
    """An NDArray for x, and whether x is memory mxgo's engine does not track."""
    if isinstance(x, _Array):
        return x, False
    if hasattr(x, "__dlpack__"):
        return from_dlpack(x), True
    raise MXNetTypeError("%s must be an NDArray or an object with __dlpack__, got %s" % (name, type(x).__name__))


def encode_params(name, info, params):
    """params (a dict) in the registry's wire form: "name=value;..."."""
    encoded = []
    kinds = info["kinds"]
    for k, v in (params or {}).items():
        if k not in kinds:
            raise MXNetTypeError("%s() got an unexpected keyword argument %r" % (name, k))
        try:
            encoded.append("%s=%s" % (k, _ENCODE[kinds[k]](v)))
        except (TypeError, ValueError, OverflowError) as err:
            raise mxnet_error(type(err))("%s(): bad value for %s: %s" % (name, k, err)) from None
    return ";".join(encoded)


def invoke_all(name, arrays, params=None, out=None):
    """Runs operator ``name`` and returns every result as a list (one kernel writes them
    all: topk with ret_typ='both', moments, slogdet, ...), into ``out`` (a list or tuple
    with one array per result) when given, which is then returned as a list. New results
    are of the first input's class. Operands are NDArrays or DLPack producers, as for
    invoke."""
    info = OPS[name]
    return _invoke_all(name, info, arrays, encode_params(name, info, params), out)


def _invoke_all(name, info, arrays, attrs, out):
    """invoke_all with the parameters already in wire form."""
    if not arrays:
        raise MXNetTypeError("%s needs at least one array" % name)
    if out is not None and not isinstance(out, (list, tuple)):
        raise MXNetTypeError("%s returns several arrays: out must be a list or tuple, got %s"
                             % (name, type(out).__name__))
    if out and fastpath.invoke_all(info["id"], tuple(arrays), tuple(out), attrs) is None:
        return list(out)  # every operand an NDArray: one C call with the handles
    foreign = False
    ins = []
    for i, a in enumerate(arrays):
        arr, f = _as_array(a, "argument %d of %s" % (i, name))
        foreign |= f
        ins.append(arr)
    outs = []
    for o in out or ():
        arr, f = _as_array(o, "out")
        foreign |= f
        outs.append(arr)
    handles = call(core.InvokeAll, info["id"], ",".join(str(a.handle) for a in ins),
                   ",".join(str(o.handle) for o in outs), attrs)
    results = outs if out is not None else [type(ins[0])(int(h)) for h in handles.split(",") if h]  # reset_arrays: none
    if foreign:
        for r in results:
            r.wait_to_read()  # the other framework may read (or reuse) its memory at once
    return list(out) if out is not None else results


def _invoke_multi(name, info, arrays, attrs, out):
    """invoke for an operator that may have several results: a list when it has, its one
    result (out as given) when it has one (topk with ret_typ other than 'both')."""
    if out is not None and not isinstance(out, (list, tuple)):
        _invoke_all(name, info, arrays, attrs, [out])
        return out
    res = _invoke_all(name, info, arrays, attrs, out)
    return res[0] if len(res) == 1 and out is None else res


def invoke(name, arrays, params=None, out=None, tried_fast=False):
    """Runs operator ``name`` on ``arrays`` with ``params`` (a dict), into ``out`` if given.

    NDArrays, and objects whose type has a DLPack C exchange API (PyTorch's tensors), go
    straight to C (fastpath.invoke), which finishes calls on foreign memory before
    returning; other DLPack producers are imported here first. ``tried_fast``: the caller
    already had C refuse these operands with these parameters (_make's call)."""
    info = OPS[name]
    attrs = encode_params(name, info, params)
    multi = info.get("multi")  # C refuses a call of several results: invoke_all takes it
    if multi and isinstance(out, (list, tuple)):
        return _invoke_multi(name, info, arrays, attrs, out)
    if not tried_fast:
        result = fastpath.invoke(info["id"], tuple(arrays), out, attrs)
        if result is not NotImplemented:
            return out if result is None else result
    if multi:
        return _invoke_multi(name, info, arrays, attrs, out)
    foreign = False
    handles = []
    for i, a in enumerate(arrays):
        arr, f = _as_array(a, "argument %d of %s" % (i, name))
        foreign |= f
        handles.append(arr)
    out_arr = None
    if out is not None:
        out_arr, f = _as_array(out, "out")
        foreign |= f
    result = fastpath.invoke(info["id"], tuple(handles), out_arr, attrs)
    if result is None:  # written into out
        result = out_arr
    if foreign:
        result.wait_to_read()  # the other framework may read (or reuse) its memory at once
    return result if out is None else out  # out as given: x += y keeps x, torch's out= stays torch's
