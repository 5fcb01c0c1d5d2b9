"""mx.np's elementwise functions and the array's arithmetic operators, with NumPy's type
promotion over the registry's operators (which take operands of one dtype).

Each function is made from a table row: the registry operator, and how the result's dtype
follows from the operands' (``same``: the promoted dtype; ``float``: its floating dtype,
float32 for integers as MXNet; ``pred``: bool, the operator's own result; ``native``: the
operator's, as real and imag give float32 for complex64). Operands are promoted and cast
first; a Python scalar beside an array takes the array's dtype where its kind allows (the
standard's rule), and goes to the registry's scalar form of the operator without becoming
an array.
"""
import numpy as _onp

from .._core.registry import OPS
from ..base import MXNetTypeError, MXNetValueError, call, core, dtype_code, fastpath
from ..ndarray.ndarray import NP_CLASS as _class  # [mx.np.ndarray]: the class the one-call paths make
from . import _dtypes
from ._array import SCALARS, astype, empty, invoke, operand

__all__ = ["UNARY", "BINARY", "FUNCTIONS", "unary", "binary", "binary_method", "inplace_method", "sign", "round"]

_BOOL = _dtypes.BOOL
_UINT8 = _onp.dtype("uint8")
#: the operators of "same" rows that take bool arrays themselves
_BOOL_OPS = {"_npi_bitwise_not", "_npi_bitwise_and", "_npi_bitwise_or", "_npi_bitwise_xor"}

#: unary functions: name -> (registry operator, result kind, dtype kinds it takes)
UNARY = {
    "abs": ("abs", "same", "biufc"), "absolute": ("abs", "same", "biufc"),
    "negative": ("negative", "same", "iufc"), "positive": ("identity", "same", "iufc"),
    "square": ("square", "same", "iufc"),
    "ceil": ("ceil", "same", "iuf"), "floor": ("floor", "same", "iuf"), "trunc": ("trunc", "same", "iuf"),
    "fix": ("fix", "same", "iuf"), "rint": ("rint", "same", "iuf"),
    "sqrt": ("sqrt", "float", "biufc"), "cbrt": ("cbrt", "float", "biuf"), "exp": ("exp", "float", "biufc"),
    "expm1": ("expm1", "float", "biufc"), "log": ("log", "float", "biufc"), "log1p": ("log1p", "float", "biufc"),
    "log2": ("log2", "float", "biufc"), "log10": ("log10", "float", "biufc"), "reciprocal": ("reciprocal", "float", "biufc"),
    "sin": ("sin", "float", "biufc"), "cos": ("cos", "float", "biufc"), "tan": ("tan", "float", "biufc"),
    "arcsin": ("arcsin", "float", "biufc"), "arccos": ("arccos", "float", "biufc"), "arctan": ("arctan", "float", "biufc"),
    "sinh": ("sinh", "float", "biufc"), "cosh": ("cosh", "float", "biufc"), "tanh": ("tanh", "float", "biufc"),
    "arcsinh": ("arcsinh", "float", "biufc"), "arccosh": ("arccosh", "float", "biufc"),
    "arctanh": ("arctanh", "float", "biufc"), "degrees": ("degrees", "float", "biuf"),
    "radians": ("radians", "float", "biuf"),
    "isnan": ("_npi_isnan", "pred", "biufc"), "isinf": ("_npi_isinf", "pred", "biufc"),
    "isfinite": ("_npi_isfinite", "pred", "biufc"), "isposinf": ("_npi_isposinf", "pred", "biuf"),
    "isneginf": ("_npi_isneginf", "pred", "biuf"), "signbit": ("_npi_signbit", "pred", "biuf"),
    "logical_not": ("_npi_logical_not", "pred", "biufc"), "bitwise_not": ("_npi_bitwise_not", "same", "biu"),
    "real": ("_npi_real", "native", "biufc"), "imag": ("_npi_imag", "native", "biufc"),
    "conj": ("_npi_conj", "native", "biufc"),
}
# the standard's names for NumPy's
for _std, _np in (("acos", "arccos"), ("asin", "arcsin"), ("atan", "arctan"), ("acosh", "arccosh"),
                  ("asinh", "arcsinh"), ("atanh", "arctanh"), ("rad2deg", "degrees"), ("deg2rad", "radians"),
                  ("bitwise_invert", "bitwise_not"), ("invert", "bitwise_not"), ("conjugate", "conj")):
    UNARY[_std] = UNARY[_np]

#: binary functions: name -> (registry operator, result kind, dtype kinds it takes)
BINARY = {
    "add": ("add", "same", "biufc"), "subtract": ("subtract", "same", "iufc"),
    "multiply": ("multiply", "same", "biufc"), "divide": ("divide", "float", "biufc"),
    "true_divide": ("divide", "float", "biufc"), "power": ("power", "same", "iufc"), "pow": ("power", "same", "iufc"),
    "remainder": ("_npi_mod", "same", "iuf"), "mod": ("_npi_mod", "same", "iuf"),
    "floor_divide": ("_npi_floor_divide", "same", "iuf"),
    "maximum": ("maximum", "same", "biuf"), "minimum": ("minimum", "same", "biuf"),
    "hypot": ("_npi_hypot", "float", "biuf"), "arctan2": ("_npi_arctan2", "float", "biuf"),
    "copysign": ("_npi_copysign", "float", "biuf"), "nextafter": ("_npi_nextafter", "float", "f"),
    "logaddexp": ("_npi_logaddexp", "float", "biuf"),
    "equal": ("_npi_equal", "pred", "biufc"), "not_equal": ("_npi_not_equal", "pred", "biufc"),
    "greater": ("_npi_greater", "pred", "biuf"), "greater_equal": ("_npi_greater_equal", "pred", "biuf"),
    "less": ("_npi_less", "pred", "biuf"), "less_equal": ("_npi_less_equal", "pred", "biuf"),
    "logical_and": ("_npi_logical_and", "pred", "biufc"), "logical_or": ("_npi_logical_or", "pred", "biufc"),
    "logical_xor": ("_npi_logical_xor", "pred", "biufc"),
    "bitwise_and": ("_npi_bitwise_and", "same", "biu"), "bitwise_or": ("_npi_bitwise_or", "same", "biu"),
    "bitwise_xor": ("_npi_bitwise_xor", "same", "biu"), "bitwise_left_shift": ("_npi_left_shift", "same", "iu"),
    "bitwise_right_shift": ("_npi_right_shift", "same", "iu"),
}
for _std, _np in (("atan2", "arctan2"), ("left_shift", "bitwise_left_shift"), ("right_shift", "bitwise_right_shift")):
    BINARY[_std] = BINARY[_np]

_KIND_NAMES = {"b": "bool", "i": "integer", "u": "unsigned integer", "f": "floating", "c": "complex"}


def _check_kind(name, dt, kinds):
    if dt.kind not in kinds:
        raise MXNetTypeError("%s is not defined for %s arrays (dtype %s)" % (name, _KIND_NAMES[dt.kind], dt))


def _finish(r, kind, dt):
    """r in the promoted dtype dt for "same" rows (bool operands computed in uint8 go back)."""
    return astype(r, dt) if kind == "same" else r


def unary(name, x, out=None):
    """Unary function ``name`` (a row of UNARY) of x."""
    op, kind, kinds = UNARY[name]
    x = operand(x, "x")
    dt = _dtypes.as_dtype(x.dtype)
    _check_kind(name, dt, kinds)
    if kind == "float":
        x = astype(x, _dtypes.float_of(dt))
    elif dt.kind == "b" and kind == "same" and op not in _BOOL_OPS:
        return astype(invoke(op, [astype(x, _UINT8)]), _BOOL)  # (NumPy keeps bool: abs, positive)
    return invoke(op, [x], None, out)


def _beyond(dt, value):
    """Whether value is a Python int that integer dtype dt cannot hold."""
    if isinstance(value, int) and not isinstance(value, bool) and dt.kind in "iu":
        info = _onp.iinfo(dt)
        return not info.min <= value <= info.max
    return False


def _check_scalar(dt, value):
    """NumPy 2's refusal of a Python int the array's dtype cannot hold (but in comparisons)."""
    if _beyond(dt, value):
        raise OverflowError("Python integer %d out of bounds for %s" % (value, dt))


#: For each comparison, whether ``x op v`` holds for every x when v is above x's dtype
#: (below it, the opposite, but for equal and not_equal), and its mirror (v op x is x op' v).
_BEYOND = {"equal": (False, "equal"), "not_equal": (True, "not_equal"), "less": (True, "greater"),
           "less_equal": (True, "greater_equal"), "greater": (False, "less"), "greater_equal": (False, "less_equal")}


def _compare_beyond(name, arr, value, left, out):
    """NumPy 2's comparison of an integer array with a Python int its dtype cannot hold
    (``value op arr`` when left): one answer everywhere, the array's ``x == x`` or
    ``x != x`` (no NaN in integers), into out as any comparison writes it."""
    if left:
        name = _BEYOND[name][1]
    holds = _BEYOND[name][0]
    if value < 0 and name not in ("equal", "not_equal"):
        holds = not holds
    return invoke("_npi_equal" if holds else "_npi_not_equal", [arr, arr], None, out)


def binary(name, x1, x2, out=None):
    """Binary function ``name`` (a row of BINARY) of x1 and x2 (arrays or Python scalars)."""
    op, kind, kinds = BINARY[name]
    s1, s2 = isinstance(x1, SCALARS), isinstance(x2, SCALARS)
    if s1 and s2:
        raise MXNetTypeError("%s needs at least one array" % name)
    if s1 or s2:
        arr, value = (operand(x2, "x2"), x1) if s1 else (operand(x1, "x1"), x2)
        dt = _dtypes.scalar_dtype(_dtypes.as_dtype(arr.dtype), value)
        if name in _BEYOND and _beyond(dt, value):
            return _compare_beyond(name, arr, value, s1, out)
        _check_scalar(dt, value)
        arr = _cast_operand(name, kind, kinds, dt, arr)
        scalar_op = OPS[op].get("scalar_op")
        if scalar_op is not None:
            return _finish(invoke(scalar_op, [arr], {"scalar": value, "reverse": s1}, out), kind, dt)
        x1, x2 = (_full_like(arr, value), arr) if s1 else (arr, _full_like(arr, value))
    else:
        x1, x2 = operand(x1, "x1"), operand(x2, "x2")
        dt = _dtypes.result_type(x1, x2)
        x1, x2 = (_cast_operand(name, kind, kinds, dt, x) for x in (x1, x2))
    return _finish(invoke(op, [x1, x2], None, out), kind, dt)


def _cast_operand(name, kind, kinds, dt, x):
    _check_kind(name, dt, kinds)
    if kind == "float":
        dt = _dtypes.float_of(dt)
    elif dt.kind == "b" and kind == "same" and BINARY[name][0] not in _BOOL_OPS:
        dt = _UINT8  # bool + bool: computed in uint8, NumPy's logical result cast back by _finish
    return astype(x, dt)


def _full_like(x, value):
    out = empty((), x.dtype, x.context)
    out[()] = value
    return out


def _codes(op, kind, kinds, letters="biufc"):
    """The dtype codes (of NumPy kinds ``letters``) that operator op takes as they are:
    promotion and casts would leave the operands unchanged."""
    out = set()
    for name, dt in _dtypes.DTYPES.items():
        if dt.kind not in kinds or dt.kind not in letters or (kind == "float" and dt.kind not in "fc"):
            continue
        if dt.kind == "b" and kind == "same" and op not in _BOOL_OPS:
            continue
        out.add(dtype_code(name))
    return frozenset(out)


def _mask(codes):
    """The dtype codes as the bit mask C's invoke checks the operands against (``same``)."""
    return sum(1 << c for c in codes)


def _fast_ids(name):
    """What the one-call paths of binary function ``name`` need: the registry ids of its
    operator and of its scalar form (None without one), and the dtype codes it takes as
    they are beside an array of the same dtype, a Python float, and a small Python int."""
    op, kind, kinds = BINARY[name]
    op_id, scalar_op = OPS[op]["id"], OPS[op].get("scalar_op")
    if scalar_op is None:
        return op_id, None, _codes(op, kind, kinds), frozenset(), frozenset()
    return op_id, OPS[scalar_op]["id"], _codes(op, kind, kinds), _codes(op, kind, kinds, "fc"), \
        _codes(op, kind, kinds, "iufc")


def _method(name, reverse=False):
    """The array's operator method for binary function ``name`` (__add__; reverse: __radd__).
    Same-dtype mxgo arrays, and a Python float beside a floating array (an int from 0 to 127
    beside any numeric one), are the calls of everyday code: one C call that makes the mx.np
    array, as mx.nd's. Anything else that an mx.np function takes (promotion, a cast, another
    scalar) goes through ``binary``; the rest is NotImplemented."""
    op_id, scalar_id, same, floats, numbers = _fast_ids(name)
    invoke_c, array, cls, tail, mask = fastpath.invoke, fastpath.NDArrayBase, _class, ";reverse=%d" % reverse, _mask(same)

    def method(self, other):
        if isinstance(other, array):  # C checks the dtypes (mask) and runs it, or declines
            r = invoke_c(op_id, (other, self) if reverse else (self, other), None, "", cls[0], mask)
            if r is not NotImplemented:
                return r
        elif type(other) is float and self._code in floats:
            return invoke_c(scalar_id, (self,), None, "scalar=f:%r%s" % (other, tail), cls[0])
        elif type(other) is int and 0 <= other < 128 and self._code in numbers:
            return invoke_c(scalar_id, (self,), None, "scalar=i:%d%s" % (other, tail), cls[0])
        elif not isinstance(other, SCALARS):
            return NotImplemented
        return binary(name, other, self) if reverse else binary(name, self, other)
    method.__name__ = method.__qualname__ = name
    return method


#: the array's operator methods of the binary functions, by name (reflected: _REFLECTED)
_METHODS = {name: _method(name) for name in BINARY}
_REFLECTED = {name: _method(name, True) for name in BINARY}
#: the unary functions' registry ids, and the dtype codes they take as they are
_UNARY_IDS = {name: OPS[row[0]]["id"] for name, row in UNARY.items()}
_UNARY_SAME = {name: _codes(*row) for name, row in UNARY.items()}


def binary_method(name, reverse=False):
    """The array's operator method for binary function ``name`` (__add__, __radd__)."""
    return (_REFLECTED if reverse else _METHODS)[name]


def inplace_method(name):
    """The array's in-place operator method for binary function ``name`` (__iadd__): an
    operand of the array's dtype and shape, or a Python scalar as ``_method`` takes it, is
    one C call writing into the array; anything else is computed, then copied in where
    NumPy's same-kind casting allows."""
    op_id, scalar_id, same, floats, numbers = _fast_ids(name)
    invoke_c, array, mask = fastpath.invoke, fastpath.NDArrayBase, _mask(same)

    def method(self, other):
        code = self._code
        if isinstance(other, array):  # C checks the dtypes (mask): None once written
            if other.shape == self.shape and invoke_c(op_id, (self, other), self, "", _class[0], mask) is None:
                return self
        elif type(other) is float and code in floats:
            invoke_c(scalar_id, (self,), self, "scalar=f:%r;reverse=0" % other)
            return self
        elif type(other) is int and 0 <= other < 128 and code in numbers:
            invoke_c(scalar_id, (self,), self, "scalar=i:%d;reverse=0" % other)
            return self
        elif not isinstance(other, SCALARS):
            return NotImplemented
        r = binary(name, self, other)
        dt = _dtypes.as_dtype(self.dtype)
        if r.dtype != dt and not _onp.can_cast(r.dtype, dt, casting="same_kind"):
            raise MXNetTypeError("cannot cast %s's result from %s to %s in place" % (name, r.dtype, dt))
        if r.shape != self.shape:
            raise MXNetValueError("non-broadcastable output operand with shape %s doesn't match the broadcast shape %s"
                                  % (self.shape, r.shape))
        call(core.Copy, self._h, r._h, False)
        return self
    method.__name__ = method.__qualname__ = "__i%s__" % name
    return method


def _make_unary(name):
    op_id, same, invoke_c = _UNARY_IDS[name], _mask(_UNARY_SAME[name]), fastpath.invoke

    def fn(x, /, out=None):
        if out is None:  # an array of a dtype it takes as it is: C checks, and runs it
            r = invoke_c(op_id, (x,), None, "", _class[0], same)
            if r is not NotImplemented:
                return r
        return unary(name, x, out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "Elementwise %s of x (mx.np: NumPy's semantics; registry operator %s)." % (name, UNARY[name][0])
    return fn


def _make_binary(name):
    method, array, invoke_c = _METHODS[name], fastpath.NDArrayBase, fastpath.invoke
    op_id, same = OPS[BINARY[name][0]]["id"], _mask(_codes(*BINARY[name]))

    def fn(x1, x2, /, out=None):
        if out is None:  # two arrays of one dtype it takes as it is: C checks, and runs it
            r = invoke_c(op_id, (x1, x2), None, "", _class[0], same)
            if r is not NotImplemented:
                return r
            if isinstance(x1, array) and not isinstance(x2, array):  # a scalar: the method's paths
                r = method(x1, x2)
                if r is not NotImplemented:
                    return r
        return binary(name, x1, x2, out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "Elementwise %s of x1 and x2, broadcast (registry operator %s)." % (name, BINARY[name][0])
    return fn


def sign(x, /, out=None):
    """Elementwise sign: -1, 0 or 1, NaN for NaN (NumPy's; MXNet's kernel gives 0), and
    x / |x| for complex x (0 + 0j for any zero)."""
    x = operand(x, "x")
    dt = _dtypes.as_dtype(x.dtype)
    _check_kind("sign", dt, "iufc")
    if dt.kind in "iu":
        return invoke("sign", [x], None, out)
    if dt.kind == "f":
        return invoke("where", [unary("isnan", x), x, invoke("sign", [x])], None, out)
    mag = astype(unary("abs", x), dt)
    return invoke("where", [binary("equal", mag, 0), mag, invoke("divide", [x, mag])], None, out)  # (0 + 0j for ±0)


def round(x, /, decimals=0, out=None):  # noqa: A001  (NumPy's and the standard's name)
    """x rounded to ``decimals`` places, halves to even (NumPy's round and around; the
    standard's round); integer arrays are copied for decimals >= 0."""
    x = operand(x, "x")
    dt = _dtypes.as_dtype(x.dtype)
    _check_kind("round", dt, "iuf")
    if dt.kind in "iu" and decimals >= 0:
        return invoke("identity", [x], None, out)
    return invoke("_npi_around", [x], {"decimals": int(decimals)}, out)


#: mx.np.<name> for every row of the tables, and the functions of their own
FUNCTIONS = {**{n: _make_unary(n) for n in UNARY}, **{n: _make_binary(n) for n in BINARY},
             "sign": sign, "round": round, "around": round}

