"""``nmutil.plain_data``: a class decorator that turns a ``__slots__`` class
into a plain data record, as openpower-isa's test case files use it.

The fields are the ``__slots__`` of the class and of its bases, base fields
first.  The decorated class gets ``__repr__`` (``Name(a=1, b=2)``), ``__eq__``
(same class and equal fields), and on request ``__hash__`` of the fields
(``unsafe_hash``), ordering by the field tuple (``order``) and immutability
after ``__init__`` has returned (``frozen``: assigning a field then raises
FrozenPlainDataError).  Defining one of those methods in the class as well is
a TypeError, as in nmutil.
"""
__all__ = ["plain_data", "fields", "replace", "FrozenPlainDataError"]

_INIT_DONE = "_plain_data_init_done"  # the slot a frozen record marks itself with


class FrozenPlainDataError(AttributeError):
    pass


def _slots_of(cls):
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _field_names(cls):
    names = []
    for c in reversed(cls.__mro__):
        if c is object:
            continue
        if "__slots__" not in c.__dict__:
            raise TypeError(f"{c.__qualname__} must have __slots__ so plain_data() can tell "
                            f"the fields of {cls.__qualname__}")
        names += [n for n in _slots_of(c)
                  if n not in names and n not in (_INIT_DONE, "__dict__", "__weakref__")]
    return tuple(names)


def _values(record, names):
    return tuple(getattr(record, n) for n in names)


def _methods(names, eq, unsafe_hash, order, repr_, frozen, old_init):
    """The generated methods, by name."""
    out = {"__getstate__": lambda self: list(_values(self, names))}

    def __setstate__(self, state):
        for n, v in zip(names, state):
            object.__setattr__(self, n, v)
    out["__setstate__"] = __setstate__

    def same_kind(fn):
        def compare(self, other):
            if other.__class__ is not self.__class__:
                return NotImplemented
            return fn(_values(self, names), _values(other, names))
        compare.__name__ = fn.__name__
        return compare

    if eq:
        out["__eq__"] = same_kind(lambda a, b: a == b)
    if unsafe_hash:
        out["__hash__"] = lambda self: hash(_values(self, names))
    if order:
        for name, fn in (("__lt__", lambda a, b: a < b), ("__le__", lambda a, b: a <= b),
                         ("__gt__", lambda a, b: a > b), ("__ge__", lambda a, b: a >= b)):
            out[name] = same_kind(fn)
    if repr_:
        def __repr__(self):
            parts = ", ".join(f"{n}={getattr(self, n, '<not set>')!r}" for n in names)
            return f"{self.__class__.__qualname__}({parts})"
        out["__repr__"] = __repr__
    if frozen:
        def __setattr__(self, name, value):
            if getattr(self, _INIT_DONE, False):
                raise FrozenPlainDataError(f"cannot assign to field {name!r}")
            object.__setattr__(self, name, value)

        def __delattr__(self, name):
            if getattr(self, _INIT_DONE, False):
                raise FrozenPlainDataError(f"cannot delete field {name!r}")
            object.__delattr__(self, name)

        def __init__(self, *args, **kwargs):
            if hasattr(self, _INIT_DONE):  # a subclass's __init__ is already running
                return old_init(self, *args, **kwargs)
            object.__setattr__(self, _INIT_DONE, False)
            try:
                return old_init(self, *args, **kwargs)
            finally:
                object.__setattr__(self, _INIT_DONE, True)
        out.update(__setattr__=__setattr__, __delattr__=__delattr__, __init__=__init__)
    return out


def _rebind_class_cells(functions, old, new):
    """Methods using zero-argument ``super()`` hold the class in a ``__class__``
    cell; point those at the rebuilt class (the class's own functions, among
    them an ``__init__`` a frozen record wraps)."""
    for value in functions:
        fn = getattr(value, "__func__", value)
        code, closure = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
        if code is None or not closure:
            continue
        for name, cell in zip(code.co_freevars, closure):
            if name == "__class__" and cell.cell_contents is old:
                cell.cell_contents = new


def _decorate(cls, eq, unsafe_hash, order, repr_, frozen):
    if not isinstance(cls, type):
        raise TypeError("plain_data() can only be used as a class decorator")
    names = _field_names(cls)
    own_slots = _slots_of(cls)
    namespace = {k: v for k, v in cls.__dict__.items()
                 if k not in own_slots and k not in ("__dict__", "__weakref__")}
    inherited_marker = any(_INIT_DONE in _slots_of(b) for b in cls.__mro__[1:])
    namespace["__slots__"] = own_slots + ((_INIT_DONE,) if frozen and not inherited_marker
                                          else ())
    namespace["_plain_data_fields"] = names
    for name, method in _methods(names, eq, unsafe_hash, order, repr_, frozen,
                                 cls.__init__).items():
        if name in cls.__dict__ and name != "__init__":
            raise TypeError(f"plain_data() cannot generate {name}: {cls.__qualname__} "
                            "defines it")
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        namespace[name] = method
    new = type(cls)(cls.__name__, cls.__bases__, namespace)
    new.__qualname__ = cls.__qualname__
    _rebind_class_cells([*cls.__dict__.values(), *namespace.values()], cls, new)
    return new


def plain_data(*, eq=True, unsafe_hash=False, order=False, repr=True, frozen=False):
    """Decorator: see the module docstring."""
    return lambda cls: _decorate(cls, eq, unsafe_hash, order, repr, frozen)


def fields(pd):
    """The field names of a plain_data class or record."""
    cls = pd if isinstance(pd, type) else type(pd)
    try:
        return cls._plain_data_fields
    except AttributeError:
        raise TypeError("fields() takes a @plain_data() class or one of its records") from None


def replace(pd, **changes):
    """A copy of the record ``pd`` with ``changes`` applied (via its __init__,
    whose parameters must be named as the fields)."""
    names = fields(pd)
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"can't set unknown field {sorted(unknown)[0]!r}")
    return type(pd)(**{n: changes.get(n, getattr(pd, n)) for n in names})
