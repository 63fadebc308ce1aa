"""Record classes: ``@record`` on a class of annotated attributes gives it
what ``@dataclass`` gives -- ``__init__`` (values by position or name,
defaults, :class:`factory` for a fresh mutable default, ``__post_init__``),
``__repr__``, ``__eq__`` (same class, equal attributes) and ``__match_args__``;
with ``frozen=True`` assignment raises and instances hash by their values,
without it they are unhashable -- and :func:`fields` and :func:`replace`.

Why not dataclasses: it writes each class's methods as source text and
compiles them when the class is made, and imports ``inspect``; for the 22
record classes an ``isa-ext run`` imports that took 15-30 ms of a 0.1 s
start.  These methods are written once, here, for every record class.  A
method the class defines itself is kept, as dataclasses keeps it.
"""
import reprlib

_MISSING = object()


class FrozenInstanceError(AttributeError):
    """Assignment to an attribute of a frozen record."""


class factory:
    """``x: list = factory(list)``: each instance's default is ``make()``."""
    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


def record(cls=None, *, frozen=False):
    """The class decorator (see the module's note); ``@record`` or
    ``@record(frozen=True)``."""
    if cls is None:
        return lambda c: record(c, frozen=frozen)
    names = list(getattr(cls, "__record_fields__", ()))
    defaults = dict(getattr(cls, "__record_defaults__", {}))
    for name in cls.__dict__.get("__annotations__", {}):
        if name not in names:
            names.append(name)
        if name in cls.__dict__:
            defaults[name] = cls.__dict__[name]
            if isinstance(defaults[name], factory):
                delattr(cls, name)   # (as dataclasses: no shared class attribute)
        elif name in defaults:
            del defaults[name]
    names = tuple(names)
    seen_default = None
    for name in names:
        if name in defaults:
            seen_default = name
        elif seen_default is not None:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    cls.__record_fields__ = names
    cls.__record_defaults__ = defaults
    own = cls.__dict__
    if "__init__" not in own:
        cls.__init__ = _make_init(cls, names, defaults)
    if "__repr__" not in own:
        cls.__repr__ = _make_repr(names)
    if "__eq__" not in own:
        cls.__eq__ = _make_eq(names)
    if own.get("__hash__") is None:   # not defined, or set to None by an own __eq__
        cls.__hash__ = _make_hash(names) if frozen else None
    if "__match_args__" not in own:
        cls.__match_args__ = names
    if frozen:
        cls.__setattr__, cls.__delattr__ = _make_frozen(cls, names)
    return cls


def fields(obj):
    """The attribute names of a record (class or instance), in order."""
    return obj.__record_fields__


def replace(obj, **changes):
    """A new record as ``obj`` with ``changes`` (through ``__init__``)."""
    values = {name: getattr(obj, name) for name in obj.__record_fields__}
    values.update(changes)
    return type(obj)(**values)


def _make_init(cls, names, defaults):
    count = len(names)
    index = set(names)
    post_init = hasattr(cls, "__post_init__")
    title = cls.__name__

    def __init__(self, *args, **kwargs):
        if len(args) > count:
            raise TypeError(f"{title}() takes {count} positional arguments but "
                            f"{len(args)} were given")
        values = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in index:
                raise TypeError(f"{title}() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"{title}() got multiple values for argument {name!r}")
            values[name] = value
        state = self.__dict__
        for name in names:
            value = values.get(name, _MISSING)
            if value is _MISSING:
                value = defaults.get(name, _MISSING)
                if value is _MISSING:
                    raise TypeError(f"{title}() missing a required argument: {name!r}")
                if isinstance(value, factory):
                    value = value.make()
            state[name] = value
        if post_init:
            self.__post_init__()
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _make_repr(names):
    @reprlib.recursive_repr()
    def __repr__(self):
        return (f"{type(self).__qualname__}("
                + ", ".join(f"{name}={getattr(self, name)!r}" for name in names) + ")")
    return __repr__


def _make_eq(names):
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (tuple(getattr(self, name) for name in names)
                == tuple(getattr(other, name) for name in names))
    return __eq__


def _make_hash(names):
    def __hash__(self):
        return hash(tuple(getattr(self, name) for name in names))
    return __hash__


def _make_frozen(cls, names):
    # as dataclasses: no attribute of the class's own instances is set or
    # deleted, nor a field of a subclass's
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__
