"""Registries of named classes (mx.registry): what lets ``mx.init.create('xavier')``,
``mx.optimizer.create('sgd')`` and ``mx.metric.create('acc')`` find a class by name, and
read the JSON that ``Initializer.dumps()`` writes.

Names are lower-cased, as MXNet 1.x's are. An unknown name raises RegistryError, an
MXNetValueError that is also the AssertionError MXNet raises there (code catching either
works, and ``python -O`` does not skip it).
"""
import json
import warnings

from .base import MXNetTypeError, MXNetValueError

_REGISTRY = {}


class RegistryError(MXNetValueError, AssertionError):
    """A name no class is registered under, or arguments that do not fit a config."""


class RegistryTypeError(MXNetTypeError, AssertionError):
    """Something that is not a name, config or instance; a class of the wrong kind."""


def _table(base_class):
    return _REGISTRY.setdefault(base_class, {})


def get_registry(base_class):
    """A copy of the {name: class} table of base_class."""
    return dict(_table(base_class))


def get_register_func(base_class, nickname):
    """A decorator that registers a subclass of base_class under its lower-cased name."""
    table = _table(base_class)

    def register(klass, name=None):
        if not (isinstance(klass, type) and issubclass(klass, base_class)):
            raise RegistryTypeError("Can only register subclass of %s, not %r" % (base_class.__name__, klass))
        name = (name or klass.__name__).lower()
        if name in table:
            warnings.warn("New %s %s.%s registered with name %s is overriding existing %s %s.%s" % (
                nickname, klass.__module__, klass.__name__, name, nickname, table[name].__module__,
                table[name].__name__), UserWarning, stacklevel=2)
        table[name] = klass
        return klass
    register.__doc__ = "Register %s to the %s factory" % (nickname, nickname)
    return register


def get_alias_func(base_class, nickname):
    """A decorator factory: ``@alias('a', 'b')`` registers a class under more names."""
    register = get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass
        return reg
    return alias


def get_create_func(base_class, nickname):
    """``create(name_or_instance_or_json, *args, **kwargs)``: an instance of the class
    registered under that name (an instance passes through; ``'["name", {kwargs}]'`` and
    ``'{"nickname": name, ...}'`` JSON and dicts are read as MXNet writes them)."""
    table = _table(base_class)

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        elif nickname in kwargs:
            name = kwargs.pop(nickname)
        else:
            raise RegistryTypeError("create() needs the %s (a name, an instance or a config)" % nickname)
        if isinstance(name, base_class):
            if args or kwargs:
                raise RegistryError("%s is already an instance. Additional arguments are invalid" % nickname)
            return name
        if isinstance(name, dict):
            return create(**name)
        if not isinstance(name, str):
            raise RegistryTypeError("%s must be a name, a %s or a dict, not %s" % (nickname, base_class.__name__,
                                                                                  type(name).__name__))
        if name.startswith("[") or name.startswith("{"):
            if args or kwargs:
                raise RegistryError("a JSON %s config takes no further arguments" % nickname)
            config = json.loads(name)
            if isinstance(config, list):
                return create(config[0], **(config[1] if len(config) > 1 else {}))
            return create(**config)
        klass = table.get(name.lower())
        if klass is None:
            raise RegistryError("%s is not registered. Please register with %s.register first (registered: %s)"
                                % (name, nickname, ", ".join(sorted(table))))
        return klass(*args, **kwargs)
    create.__doc__ = "Create a %s instance from a name, an instance or a config" % nickname
    return create
