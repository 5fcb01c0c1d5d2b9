"""The installed stubs of the mx.nd.<operator> functions (mxgo/ndarray/_ops.pyi, which tools/stubs
generates from the Go registry at build time) against the functions op.py makes at import
from the same registry: every operator is there, with the runtime's parameters (names,
kinds, defaults). The hand-written stubs of NDArray's method forms (x.sum(...)) are checked
against them too. mypy itself runs in `make typecheck`.
"""
import ast
import inspect
import pathlib
import types

import pytest

import mxgo as mx
from mxgo.ndarray import op

STUBS = pathlib.Path(mx.__file__).parent / "ndarray"
P = inspect.Parameter


def _functions(tree):
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


OPS_STUB = ast.parse((STUBS / "_ops.pyi").read_text())
#: each operator's two overloads: without out (a new NDArray) and with it (out as given)
STUB_OPS = {}
for _node in OPS_STUB.body:
    if isinstance(_node, ast.FunctionDef):
        STUB_OPS.setdefault(_node.name, []).append(_node)
NDARRAY_CLASS = next(node for node in ast.parse((STUBS / "ndarray.pyi").read_text()).body
                     if isinstance(node, ast.ClassDef) and node.name == "NDArray")
STUB_METHODS = _functions(NDARRAY_CLASS)


def _stub_params(fn):
    """[(name, kind, default)] of a stub function; default is P.empty when there is none and
    Ellipsis where the stub could not spell it ("...")."""
    a = fn.args
    positional = [(x, P.POSITIONAL_ONLY) for x in a.posonlyargs] + [(x, P.POSITIONAL_OR_KEYWORD) for x in a.args]
    defaults = [P.empty] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = [(x.arg, kind, d) for (x, kind), d in zip(positional, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, P.VAR_POSITIONAL, P.empty))
    out += [(x.arg, P.KEYWORD_ONLY, P.empty if d is None else d) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append((a.kwarg.arg, P.VAR_KEYWORD, P.empty))
    return [(name, kind, d if d is P.empty else ast.literal_eval(d)) for name, kind, d in out]


def _runtime_params(sig):
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


def _assert_same(stub, runtime, what):
    assert [s[:2] for s in stub] == [r[:2] for r in runtime], what
    for (name, _, sd), (_, _, rd) in zip(stub, runtime):
        if sd is Ellipsis:  # a default the stub writes as "...": only its presence is checked
            assert rd is not P.empty, "%s: %s has no default at runtime" % (what, name)
        else:
            assert (sd, type(sd)) == (rd, type(rd)), "%s: default of %s: stub %r, runtime %r" % (what, name, sd, rd)


def test_every_operator_has_a_stub():
    assert sorted(STUB_OPS) == sorted(op.PUBLIC)
    stub_all = next(node.value for node in OPS_STUB.body if isinstance(node, ast.Assign)
                    and [t.id for t in node.targets] == ["__all__"])
    assert ast.literal_eval(stub_all) == sorted(op.PUBLIC)
    assert set(op.PUBLIC) <= set(mx.nd.__all__)


@pytest.mark.parametrize("name", sorted(op.PUBLIC))
def test_operator_stub_matches_runtime(name):
    fn = getattr(mx.nd, name)
    if op.OPS[name].get("multi"):  # several results: one stub, a list or (as the parameters make it) one array
        (stub,) = STUB_OPS[name]
        _assert_same(_stub_params(stub), _runtime_params(inspect.signature(fn)), name)
        out, name_ = stub.args.kwonlyargs[-2:]
        assert (out.arg, ast.unparse(out.annotation)) == ("out", "SupportsDLPack | Sequence[SupportsDLPack] | None")
        assert (name_.arg, ast.unparse(name_.annotation)) == ("name", "str | None")  # MXNet's, ignored
        assert ast.unparse(stub.returns) == "NDArray | list[NDArray]"
        return
    new, given = STUB_OPS[name]
    _assert_same(_stub_params(new), _runtime_params(inspect.signature(fn)), name)
    assert [p for p in _stub_params(given) if p[0] != "out"] == [p for p in _stub_params(new) if p[0] != "out"]
    for stub, out_type in ((new, "None"), (given, "_Out")):
        assert [ast.unparse(d) for d in stub.decorator_list] == ["overload"]
        out, name_ = stub.args.kwonlyargs[-2:]
        assert (out.arg, ast.unparse(out.annotation)) == ("out", out_type)
        assert (name_.arg, ast.unparse(name_.annotation)) == ("name", "str | None")  # MXNet's, ignored
    assert (ast.unparse(new.returns), ast.unparse(given.returns)) == ("NDArray", "_Out")


@pytest.mark.parametrize("name", sorted(op.PUBLIC))
def test_operator_signature_is_what_python_binds(name):
    """op.py sets __signature__ (the registry's defaults) on a function compiled with its
    own parameter list (defaults: "not given"): both must name the same parameters."""
    fn = getattr(mx.nd, name)
    bare = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    bare.__kwdefaults__ = fn.__kwdefaults__
    compiled = [(p.name, p.kind) for p in inspect.signature(bare).parameters.values()]
    assert compiled == [(p.name, p.kind) for p in inspect.signature(fn).parameters.values()]


METHOD_FORMS = sorted(n for n in STUB_METHODS if n in op.PUBLIC and getattr(mx.nd.NDArray, n).__doc__ == op.PUBLIC[n].__doc__)


def test_method_forms_found():
    assert {"sum", "max", "dot", "clip", "relu"} <= set(METHOD_FORMS)


@pytest.mark.parametrize("name", METHOD_FORMS)
def test_method_form_stub_matches_runtime(name):
    """x.sum(...) is mx.nd.sum(x, ...): its stub takes self for the operator's first array."""
    runtime = _runtime_params(inspect.signature(getattr(mx.nd.NDArray, name)))
    _assert_same(_stub_params(STUB_METHODS[name]), runtime, "NDArray." + name)
    assert runtime[1:] == _runtime_params(inspect.signature(op.PUBLIC[name]))[1:]
