"""MXNet code unchanged: ``import mxgo.as_mxnet`` makes ``import mxnet`` import mxgo.

    import mxgo.as_mxnet          # once, before anything imports mxnet
    import mxnet as mx            # mxgo itself
    from mxnet.gluon import nn    # mxgo.gluon.nn, the same module object

or, for a script or module that says ``import mxnet``, with nothing changed in it:

    python -m mxgo.as_mxnet script.py [args...]
    python -m mxgo.as_mxnet -m package.module [args...]

Importing this module puts a finder first on ``sys.meta_path`` that answers every ``mxnet``
and ``mxnet.X.Y`` with mxgo's own module ``mxgo.X.Y``: ``sys.modules['mxnet.gluon'] is
mxgo.gluon``; nothing is loaded twice. MXNet 1.9.1's short names (nd, sym, init, np, npx,
kv) are mxgo's aliases, so ``mxnet.nd.random`` is ``mxgo.ndarray.random``. A module mxgo
lacks raises ModuleNotFoundError naming it. Where the real MXNet is already imported, the
import raises ImportError: one process cannot hold both under one name.
"""
import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
import types

__all__ = ["install", "uninstall", "resolve", "main", "MXNetFinder"]

NAME = "mxnet"
PACKAGE = "mxgo"
#: MXNet 1.9.1's short names for its modules: used when mxgo has the module but not yet the alias
ALIASES = {"nd": "ndarray", "sym": "symbol", "init": "initializer", "np": "numpy", "npx": "numpy_extension",
           "kv": "kvstore"}


def _child(parent, name, fullname):
    """mxgo's module for ``fullname``, the child ``name`` of mxgo's module ``parent``: an attribute
    that is a module (mxgo's aliases), else its submodule of that name (or of its MXNet alias)."""
    found = getattr(parent, name, None)
    if isinstance(found, types.ModuleType):
        return found
    target = parent.__name__ + "." + (ALIASES.get(name, name) if parent.__name__ == PACKAGE else name)
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as e:
        if e.name != target:  # mxgo has the module, and it lacks a dependency: that is the error
            raise
    raise ModuleNotFoundError("No module named %r: mxgo has no such module (no %s; mxgo.as_mxnet maps mxnet's "
                              "modules to mxgo's)" % (fullname, target), name=fullname)


def resolve(fullname):
    """mxgo's module object for ``mxnet`` or ``mxnet.X.Y``; ModuleNotFoundError naming a missing one."""
    parts = fullname.split(".")
    module = importlib.import_module(PACKAGE)
    for i in range(1, len(parts)):
        module = _child(module, parts[i], ".".join(parts[:i + 1]))
    return module


class _Loader(importlib.abc.Loader):
    """Hands the import system mxgo's module as it is: created by nothing, executed by nothing."""

    def __init__(self, module):
        self.module, self.spec = module, module.__spec__

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        module.__spec__ = self.spec  # the import system wrote the mxnet spec over mxgo's own


class MXNetFinder(importlib.abc.MetaPathFinder):
    """The finder of ``mxnet`` and its submodules (first on sys.meta_path while installed)."""

    #: how install() knows a finder of this module run as ``python -m`` (another class object) as ours
    mxgo_as_mxnet = True

    def find_spec(self, fullname, path=None, target=None):
        if fullname != NAME and not fullname.startswith(NAME + "."):
            return None
        module = resolve(fullname)
        return importlib.machinery.ModuleSpec(fullname, _Loader(module), origin=getattr(module, "__file__", None),
                                              is_package=hasattr(module, "__path__"))


def _refuse_real_mxnet():
    """ImportError when a module named mxnet that is not mxgo is imported already."""
    real = sys.modules.get(NAME)
    if real is not None and real is not importlib.import_module(PACKAGE):
        raise ImportError("mxgo.as_mxnet: the real MXNet (%s) is already imported in this process, so `import mxnet` "
                          "cannot mean mxgo; import mxgo.as_mxnet before anything imports mxnet, or run without it"
                          % getattr(real, "__file__", real), name=NAME)


def _ours(finder):
    return getattr(finder, "mxgo_as_mxnet", False) is True


def install():
    """Make ``import mxnet`` import mxgo (idempotent); ImportError when the real MXNet is imported."""
    _refuse_real_mxnet()
    if not any(_ours(f) for f in sys.meta_path):
        sys.meta_path.insert(0, MXNetFinder())


def uninstall():
    """Undo install(): remove the finder, and the ``mxnet`` names that mean mxgo's modules from
    sys.modules (the modules stay, under their own names)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not _ours(f)]
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == NAME and getattr(module, "__name__", "").split(".")[0] == PACKAGE:
            del sys.modules[name]


def main(argv=None):
    """``python -m mxgo.as_mxnet script.py args`` or ``-m module args``: run it as python would,
    the hook installed."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help") or (args[0] == "-m" and len(args) < 2):
        print("usage: python -m mxgo.as_mxnet script.py [args...] | -m module [args...]", file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    install()
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
else:
    install()
