"""``mx.nd.<operator>`` functions and NDArray's operator methods, generated at import from
the Go operator registry (the array core's registry.py: ``OPS``, ``invoke``).

As MXNet generated its front end from its C registry, each function here gets its
name, signature and docstring from the registry's description (``core.OpInfo()``).
ndarray.py builds NDArray's operators (``x + y``, ``x > 2``) and method forms
(``x.sum()``) from the factories at the end, which know arrays by their C base
(``fastpath.NDArrayBase``). Every operator takes ``out=`` (and MXNet's ``name=``, which it
ignores, as MXNet's mx.nd functions do, whatever its type) and accepts, for arrays and
``out``, NDArrays or any object that speaks DLPack (NumPy arrays, PyTorch tensors, ...),
shared without copies. Work on mxgo arrays is asynchronous; a call that touches another
framework's memory waits for its result before returning, since that framework cannot see
mxgo's engine.
"""
import inspect
import keyword
import numbers

from .._core.registry import DECODE_DEFAULT, OPS, encode_params, invoke, invoke_all, is_scalar, scalar_args
from ..base import MXNetTypeError, fastpath

# OPS, invoke, invoke_all, is_scalar and scalar_args are the registry's, named here too for mx.nd's modules
__all__ = ["invoke", "invoke_all", "OPS", "PUBLIC", "is_scalar", "scalar_args", "binary_methods", "compare_method", "method"]

_Array = fastpath.NDArrayBase  # every mxgo array is one
_NOT_GIVEN = inspect.Parameter.empty


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
    defaulted, kw_from = False, None
    for i, p in enumerate(params):
        default = DECODE_DEFAULT[p["kind"]](p["default"]) if p["default"] != "" else _NOT_GIVEN
        if not keyword_only and defaulted and default is _NOT_GIVEN:
            # a required parameter after a default (lamb_update_phase1's t): it and the rest keyword-only
            keyword_only, kw_from = True, i
        defaulted = defaulted or default is not _NOT_GIVEN
        kind = inspect.Parameter.KEYWORD_ONLY if keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        sig_params.append(inspect.Parameter(p["name"], kind, default=default))
    sig_params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    sig_params.append(inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None))
    signature = inspect.Signature(sig_params)

    op_id = info["id"]

    def call(arrays, values, out, tried=False):  # what C declined (tried: with values' attributes)
        if scalar_op and len(arrays) == 2 and (is_scalar(arrays[0]) or is_scalar(arrays[1])):
            reverse = is_scalar(arrays[0])
            if reverse and is_scalar(arrays[1]):
                raise MXNetTypeError("%s needs at least one array" % name)
            array, number = (arrays[1], arrays[0]) if reverse else arrays
            return invoke(scalar_op, [array], {"scalar": number, "reverse": reverse}, out)
        return invoke(name, arrays, values, out, tried_fast=tried or not values)

    cache = {}

    def learn(key, values):
        """The wire form of values, remembered under key (the values and their types)
        unless a value is a float zero or NaN; None where encoding fails (call then
        raises the error)."""
        try:
            attrs = encode_params(name, info, values)
        except Exception:
            return None
        if all(map(_keyable, values.values())):
            if len(cache) >= _ATTRS_CACHED:
                cache.clear()
            cache[key] = attrs
        return attrs

    int_tuples = {p["name"] for p in params if p["kind"] in _INT_TUPLES}
    fn = _compile(name, inputs, variadic, [p["name"] for p in params], call, op_id, kw_from, (cache, learn, int_tuples))
    fn.__name__ = fn.__qualname__ = name
    fn.__signature__ = signature
    doc = [info["doc"], "", "Parameters", "----------"]
    for n in inputs:
        doc.append("%s : NDArray or DLPack-compatible array" % n.lstrip("*"))
    for p in params:
        doc.append("%s : %s%s\n    %s" % (p["name"], p["kind"], "" if p["default"] == "" else ", optional", p["doc"]))
    doc.append("out : NDArray or DLPack-compatible array, optional\n"
               "    Where to write the result; returned as given (as NumPy and PyTorch do).")
    doc.append("name : str, optional\n"
               "    Ignored, as MXNet's mx.nd functions ignore it (it names symbols, not arrays).")
    if info["dtypes"]:
        doc += ["", "Supported dtypes: " + ", ".join(info["dtypes"]) + "."]
    fn.__doc__ = "\n".join(doc)
    fn.__module__ = "mxgo.ndarray"
    return fn


#: the default of every parameter in the compiled functions: only the parameters a
#: caller gives are sent, and Go applies the registry's defaults (and names the missing)
_NG = object()

#: how many parameter combinations an operator function keeps encoded
_ATTRS_CACHED = 256

#: parameter kinds whose tuples must hold integers: their keys carry the elements' types,
#: so that (5.0, 5) is refused after (5, 5) was remembered, as it is before
_INT_TUPLES = ("shape", "axes", "optints")


def _types(v):
    """v's type, or for a tuple its elements' types."""
    return tuple(map(type, v)) if type(v) is tuple else type(v)


def _keyable(v):
    """Whether values equal to v (of its type) all encode as v does: not for a float zero
    (0.0 == -0.0, whose wire forms differ) or NaN (never equal), also inside a tuple."""
    if isinstance(v, tuple):
        return all(map(_keyable, v))
    if isinstance(v, numbers.Complex) and not isinstance(v, numbers.Integral):
        return v == v and v != 0
    return True


def _compile(name, inputs, variadic, params, call, op_id, kw_from, attrs):
    """The function mx.nd.<name>, compiled from source so that CPython binds its arguments
    (inspect.Signature.bind cost more than the operator); it hands them to call(arrays,
    params given, out, tried). Parameters from index kw_from (None: none) on are
    keyword-only. A call first tries C (fastpath.invoke of operator op_id) itself, and
    hands call only what C returned NotImplemented for: one Python frame per small
    operator call instead of two. A call that gives parameters looks their wire form up
    in attrs = (cache, learn, int_tuples): cache maps the values and their types (True, 1
    and 1.0 encode differently; for the parameters named in int_tuples, the types of a
    tuple's elements) to it, learn(key, values) encodes and remembers (the encoding cost
    1.5-2 µs a call)."""
    names = [i.strip("*?") for i in inputs]
    for n in [name] + names + params:
        assert n.isidentifier() and not keyword.iskeyword(n) and n not in (
            "out", "_call", "_NG", "_invoke", "_NI", "_r", "name", "_k", "_a", "_cache", "_learn", "_types"), n
    required = [n for n, i in zip(names, inputs) if not i.endswith("?")]
    optional = [n for n, i in zip(names, inputs) if i.endswith("?")]
    arrays = "list(%s)" % names[0] if variadic else "[%s]" % ", ".join(required)
    if optional:  # left out, or None: not sent
        arrays += " + [a for a in (%s,) if a is not None]" % ", ".join(optional)
    head = [inputs[0]] if variadic else required + ["%s=None" % n for n in optional]
    if optional and params:  # a parameter without a default cannot follow bias=None: keyword-only
        head.append("*")
    named = ["%s=_NG" % p for p in params]
    if kw_from is not None:  # keyword-only from there on, as _make's signature shows them
        named.insert(kw_from, "*")
    head += named + ([] if variadic or "*" in head + named else ["*"]) + ["out=None", "name=None"]
    given = "{k: v for k, v in (%s) if v is not _NG}" % "".join("(%r, %s), " % (p, p) for p in params) if params else "{}"
    operands = names[0] if variadic else "tuple(%s)" % arrays if optional else "(%s)" % "".join(n + ", " for n in required)

    def fast(wire, values):  # the lines that call C with wire (an expression), then call
        return ["_r = _invoke(%d, %s, out, %s)" % (op_id, operands, wire),
                "if _r is None:", "    return out",
                "if _r is not _NI:", "    return _r",
                "return _call(%s, %s, out, True)" % (arrays, values)]
    if params:
        key = "(%s)" % "".join("%s, %s(%s), " % (p, "_types" if p in attrs[2] else "type", p) for p in params)
        body = (["    if %s:" % " and ".join("%s is _NG" % p for p in params)]
                + ["        " + line for line in fast("''", "{}")]
                + ["    _k = %s" % key,
                   "    try:", "        _a = _cache[_k]",
                   "    except KeyError:", "        _a = _learn(_k, %s)" % given,
                   "    except Exception:", "        _a = None  # a list among the values: not hashable",
                   "    if _a is None:", "        return _call(%s, %s, out)" % (arrays, given)]
                + ["    " + line for line in fast("_a", given)])
    else:
        body = ["    " + line for line in fast("''", "{}")]
    src = "def %s(%s):\n%s\n" % (name, ", ".join(head), "\n".join(body))
    namespace = {"_call": call, "_NG": _NG, "_invoke": fastpath.invoke, "_NI": NotImplemented,
                 "_cache": attrs[0], "_learn": attrs[1], "_types": _types}
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


def unary_method(name, short):
    """NDArray's __<short>__ for unary operator ``name`` (-x, abs(x)): straight to C, which
    computes a few float elements without Go (tiny.c)."""
    op_id, invoke = OPS[name]["id"], fastpath.invoke

    def method(self):
        return invoke(op_id, (self,), None, "")
    return _named(method, "__%s__" % short)


def compare_method(name, short):
    """NDArray's __<short>__ for comparison operator ``name`` (2 < x calls x.__gt__(2))."""
    return _named(_operator(name), "__%s__" % short)


#: mx.nd.<name> for every public operator
PUBLIC = {name: _make(info) for name, info in OPS.items() if not name.startswith("_")}


def method(name, fn=None):
    """MXNet's method form of operator ``name``: ``x.sum(axis=0)`` is ``mx.nd.sum(x, axis=0)``
    (fn: the function it calls, when not the registry's)."""
    fn = fn or PUBLIC[name]

    def bound(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    bound.__doc__ = fn.__doc__
    # the operator's signature with self for its first array (help(), the stubs' tests)
    sig = fn.__signature__
    first = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    bound.__signature__ = sig.replace(parameters=[first] + list(sig.parameters.values())[1:])
    return _named(bound, name)
