"""``mx.nd.<operator>`` functions and NDArray's operator methods, generated at import from
the Go operator registry.

As MXNet generated its front end from its C registry, each function here gets its
name, signature and docstring from the registry's description (``core.OpInfo()``).
ndarray.py builds NDArray's operators (``x + y``, ``x > 2``) and method forms
(``x.sum()``) from the factories at the end; this module knows arrays only by their C
base (``fastpath.NDArrayBase``), so that nothing here imports ndarray.py.
Every operator takes ``out=`` and accepts, for arrays and ``out``, NDArrays or any
object that speaks DLPack (NumPy arrays, PyTorch tensors, ...), shared without copies.
Work on mxgo arrays is asynchronous; a call that touches another framework's memory
waits for its result before returning, since that framework cannot see mxgo's engine.
"""
import inspect
import json
import keyword
import numbers
import operator

import numpy as np

from ..base import DTYPE_NAMES, MXNetTypeError, MXNetValueError, call, core, dtype_code, fastpath, mxnet_error
from .dlpack import from_dlpack

__all__ = ["invoke", "invoke_all", "OPS", "PUBLIC", "is_scalar", "scalar_args", "binary_methods", "compare_method", "method"]

_Array = fastpath.NDArrayBase  # every mxgo array is one

#: the registry's description of every operator, by name
OPS = {info["name"]: info for info in json.loads(core.OpInfo())}
for _info in OPS.values():  # parameter kinds by name, looked up on every call
    _info["kinds"] = {p["name"]: p["kind"] for p in _info["params"]}

_NOT_GIVEN = inspect.Parameter.empty


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
}

_DECODE_DEFAULT = {
    "int": int,
    "optint": lambda s: None if s == "None" else int(s),
    "str": str,
    "float": float,
    "bool": lambda s: s == "1",
    "axes": lambda s: None if s == "None" else tuple(int(x) for x in s.split(",")) if s else (),
    "shape": lambda s: tuple(int(x) for x in s.split(",")) if s and s != "()" else (),
    "dtype": str,
    "optdtype": lambda s: None if s == "None" else s,
    "optints": lambda s: tuple(None if x == "None" else int(x) for x in s.split(",")) if s not in ("", "()") else (),
    "scalar": lambda s: complex(*map(float, s[2:].split(","))) if s[0] == "c" else (int if s[0] == "i" else float)(s[2:]),
}


def _as_array(x, name):
    """An NDArray for x, and whether x is memory mxgo's engine does not track."""
    if isinstance(x, _Array):
        return x, False
    if hasattr(x, "__dlpack__"):
        return from_dlpack(x), True
    raise MXNetTypeError("%s must be an NDArray or an object with __dlpack__, got %s" % (name, type(x).__name__))


def _encode_params(name, info, params):
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
    all: topk with ret_typ='both', slogdet, gelqf, syevd), into ``out`` (a list or tuple
    with one array per result) when given, which is then returned as a list. The results
    are of the first input's class. Operands are NDArrays or DLPack producers, as for
    invoke."""
    info = OPS[name]
    attrs = _encode_params(name, info, params)
    if not arrays:
        raise MXNetTypeError("%s needs at least one array" % name)
    if out is not None and not isinstance(out, (list, tuple)):
        raise MXNetTypeError("%s returns several arrays: out must be a list or tuple, got %s"
                             % (name, type(out).__name__))
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
    results = outs if out is not None else [type(ins[0])(int(h)) for h in handles.split(",")]
    if foreign:
        for r in results:
            r.wait_to_read()  # the other framework may read (or reuse) its memory at once
    return list(out) if out is not None else results


def invoke(name, arrays, params=None, out=None, tried_fast=False):
    """Runs operator ``name`` on ``arrays`` with ``params`` (a dict), into ``out`` if given.

    NDArrays, and objects whose type has a DLPack C exchange API (PyTorch's tensors), go
    straight to C (fastpath.invoke), which finishes calls on foreign memory before
    returning; other DLPack producers are imported here first. ``tried_fast``: the caller
    already had C refuse these operands without parameters (_make's call)."""
    info = OPS[name]
    attrs = _encode_params(name, info, params)
    if not (tried_fast and not attrs):
        result = fastpath.invoke(info["id"], tuple(arrays), out, attrs)
        if result is not NotImplemented:
            return out if result is None else result
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


def _make(info):
    name = info["name"]
    inputs = info["inputs"]
    variadic = len(inputs) == 1 and inputs[0].startswith("*")
    params = info["params"]
    scalar_op = info.get("scalar_op")

    sig_params = []
    if variadic:
        sig_params.append(inspect.Parameter(inputs[0][1:], inspect.Parameter.VAR_POSITIONAL))
    else:  # optional inputs ("bias?") default to None
        sig_params += [inspect.Parameter(n.rstrip("?"), inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                         default=None if n.endswith("?") else _NOT_GIVEN) for n in inputs]
    # after an optional input, the parameters are keyword-only (a required one cannot follow
    # a default)
    keyword_only = variadic or any(n.endswith("?") for n in inputs)
    for p in params:
        default = _DECODE_DEFAULT[p["kind"]](p["default"]) if p["default"] != "" else _NOT_GIVEN
        kind = inspect.Parameter.KEYWORD_ONLY if keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        sig_params.append(inspect.Parameter(p["name"], kind, default=default))
    sig_params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    signature = inspect.Signature(sig_params)

    op_id = info["id"]

    def call(arrays, values, out):  # what C declined, or a call with parameters
        if scalar_op and len(arrays) == 2 and (is_scalar(arrays[0]) or is_scalar(arrays[1])):
            reverse = is_scalar(arrays[0])
            if reverse and is_scalar(arrays[1]):
                raise MXNetTypeError("%s needs at least one array" % name)
            array, number = (arrays[1], arrays[0]) if reverse else arrays
            return invoke(scalar_op, [array], {"scalar": number, "reverse": reverse}, out)
        return invoke(name, arrays, values, out, tried_fast=not values)

    fn = _compile(name, inputs, variadic, [p["name"] for p in params], call, op_id)
    fn.__name__ = fn.__qualname__ = name
    fn.__signature__ = signature
    doc = [info["doc"], "", "Parameters", "----------"]
    for n in inputs:
        doc.append("%s : NDArray or DLPack-compatible array" % n.lstrip("*"))
    for p in params:
        doc.append("%s : %s%s\n    %s" % (p["name"], p["kind"], "" if p["default"] == "" else ", optional", p["doc"]))
    doc.append("out : NDArray or DLPack-compatible array, optional\n"
               "    Where to write the result; returned as given (as NumPy and PyTorch do).")
    if info["dtypes"]:
        doc += ["", "Supported dtypes: " + ", ".join(info["dtypes"]) + "."]
    fn.__doc__ = "\n".join(doc)
    fn.__module__ = "mxgo.ndarray"
    return fn


#: the default of every parameter in the compiled functions: only the parameters a
#: caller gives are sent, and Go applies the registry's defaults (and names the missing)
_NG = object()


def _compile(name, inputs, variadic, params, call, op_id=None):
    """The function mx.nd.<name>, compiled from source so that CPython binds its arguments
    (inspect.Signature.bind cost more than the operator); it hands them to call(arrays,
    params given, out). With op_id, a call that gives no parameter first tries C
    (fastpath.invoke) itself, and hands call only what C returned NotImplemented for: one
    Python frame per small operator call instead of two."""
    names = [i.strip("*?") for i in inputs]
    for n in [name] + names + params:
        assert n.isidentifier() and not keyword.iskeyword(n) and n not in ("out", "_call", "_NG", "_invoke", "_NI", "_r"), n
    required = [n for n, i in zip(names, inputs) if not i.endswith("?")]
    optional = [n for n, i in zip(names, inputs) if i.endswith("?")]
    arrays = "list(%s)" % names[0] if variadic else "[%s]" % ", ".join(required)
    if optional:  # left out, or None: not sent
        arrays += " + [a for a in (%s,) if a is not None]" % ", ".join(optional)
    head = [inputs[0]] if variadic else required + ["%s=None" % n for n in optional]
    if optional and params:  # a parameter without a default cannot follow bias=None: keyword-only
        head.append("*")
    head += ["%s=_NG" % p for p in params] + ([] if variadic or "*" in head else ["*"]) + ["out=None"]
    given = "{k: v for k, v in (%s) if v is not _NG}" % "".join("(%r, %s), " % (p, p) for p in params) if params else "{}"
    body = ["    return _call(%s, %s, out)" % (arrays, given)]
    if op_id is not None:
        operands = names[0] if variadic else "tuple(%s)" % arrays if optional else "(%s)" % "".join(n + ", " for n in required)
        fast = ["_r = _invoke(%d, %s, out, '')" % (op_id, operands),
                "if _r is None:", "    return out",
                "if _r is not _NI:", "    return _r",
                "return _call(%s, {}, out)" % arrays]
        if params:
            body = ["    if %s:" % " and ".join("%s is _NG" % p for p in params)] + ["        " + line for line in fast] + body
        else:
            body = ["    " + line for line in fast]
    src = "def %s(%s):\n%s\n" % (name, ", ".join(head), "\n".join(body))
    namespace = {"_call": call, "_NG": _NG, "_invoke": fastpath.invoke, "_NI": NotImplemented}
    exec(compile(src, "<mxgo.nd.%s>" % name, "exec"), namespace)
    return namespace[name]


def _operator(name, reverse=False, inplace=False):
    """The NDArray method of a binary operator: two mxgo arrays, or an array and a Python
    float or int, go straight to C (one Python frame per ``x + y`` or ``x * 2``); anything
    else through NDArray._binary."""
    op_id, invoke = OPS[name]["id"], fastpath.invoke
    scalar_op = OPS[name].get("scalar_op")
    scalar_id = OPS[scalar_op]["id"] if scalar_op else None
    tail = ";reverse=1" if reverse else ";reverse=0"

    def scalar_attrs(other):
        """The attrs of the scalar operator for a plain float or int64, else None."""
        t = type(other)
        if scalar_id is None:
            return None
        if t is float:
            return "scalar=f:%r%s" % (other, tail)
        if t is int and -(1 << 63) <= other < (1 << 63):
            return "scalar=i:%d%s" % (other, tail)
        return None

    if inplace:
        def method(self, other):
            if isinstance(other, _Array):
                invoke(op_id, (self, other), self, "")
                return self
            attrs = scalar_attrs(other)
            if attrs is not None:
                invoke(scalar_id, (self,), self, attrs)
                return self
            return self._binary(name, other, out=self)
    else:
        def method(self, other):
            if isinstance(other, _Array):
                return invoke(op_id, (other, self) if reverse else (self, other), None, "")
            attrs = scalar_attrs(other)
            if attrs is not None:
                return invoke(scalar_id, (self,), None, attrs)
            return self._binary(name, other, reverse=reverse)
    return method


def _named(fn, name):
    fn.__name__ = fn.__qualname__ = name
    return fn


def binary_methods(name, short):
    """NDArray's __<short>__, __r<short>__ and __i<short>__ for binary operator ``name``."""
    return (_named(_operator(name), "__%s__" % short), _named(_operator(name, reverse=True), "__r%s__" % short),
            _named(_operator(name, inplace=True), "__i%s__" % short))


def compare_method(name, short):
    """NDArray's __<short>__ for comparison operator ``name`` (2 < x calls x.__gt__(2))."""
    return _named(_operator(name), "__%s__" % short)


#: mx.nd.<name> for every public operator
PUBLIC = {name: _make(info) for name, info in OPS.items() if not name.startswith("_")}


def method(name, fn=None):
    """MXNet's method form of operator ``name``: ``x.sum(axis=0)`` is ``mx.nd.sum(x, axis=0)``
    (fn: the function it calls, when not the registry's, as for op_multi.topk)."""
    fn = fn or PUBLIC[name]

    def bound(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    bound.__doc__ = fn.__doc__
    # the operator's signature with self for its first array (help(), the stubs' tests)
    sig = fn.__signature__
    first = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    bound.__signature__ = sig.replace(parameters=[first] + list(sig.parameters.values())[1:])
    return _named(bound, name)
