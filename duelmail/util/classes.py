"""``dataclass``, as the standard one, with its generated methods compiled when first used.

The standard decorator writes ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and the order methods as
source text and compiles each (``exec``): about half a millisecond a class, which a cold command paid for every
class of every module it imported (about 20 ms for ``receive``). Here the class gets its fields at once, as
``dataclasses.fields``, ``replace`` and pickling see them, and each of those methods is a stub that, on the first
call, makes the standard one (on a stand-in class with the same fields and the options that make it) and puts it
in its place. A class only unpickled, or never compared, never pays for them. A class without a docstring gets
``Name(field, ...)`` (the standard one asks ``inspect`` for the signature of ``__init__``). Frozen classes refuse
assignment as the standard ones do, from the start. ``slots=True`` and ``InitVar`` fields go to the standard
decorator as they are.
"""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError

# The methods made together, by the standard decorator's options that make them.
_GROUPS = {"__init__": ("init",), "__repr__": ("repr",), "__eq__": ("eq",), "__hash__": ("eq",),
           **dict.fromkeys(("__lt__", "__le__", "__gt__", "__ge__"), ("eq", "order"))}
_FIELD_OPTIONS = ("default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only")


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, frozen=False, slots=False):
    """``dataclasses.dataclass`` with the same arguments (those this project uses), its methods made lazily."""
    options = dict(init=init, repr=repr, eq=eq, order=order, frozen=frozen)

    def wrap(cls):
        if slots or "InitVar" in str(cls.__dict__.get("__annotations__", {})) or _frozen_base(cls):
            return dataclasses.dataclass(cls, slots=slots, **options)
        return _lazy(cls, options)

    return wrap if cls is None else wrap(cls)


def _frozen_base(cls) -> bool:
    """Whether a base is a dataclass made frozen by the standard decorator (whose checks of frozen bases would
    refuse the first, unfrozen, pass below). A lazy class's ``__dataclass_params__`` says neither frozen nor eq."""
    return any(getattr(base, "__dataclass_params__", None) and base.__dataclass_params__.frozen
               for base in cls.__mro__[1:])


def _lazy(cls, options: dict):
    own = set(cls.__dict__)
    explicit_hash = "__hash__" in own and not (cls.__dict__["__hash__"] is None and "__eq__" in own)
    docless = not cls.__doc__
    if docless:
        cls.__doc__ = "-"  # else the decorator asks ``inspect`` for a signature (tokenize, ast: 5-10 ms, once)
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # the fields only: nothing compiled
    if docless:
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in dataclasses.fields(cls) if f.init)})"
    wanted = [name for name in _methods(options)
              if name not in own or (name == "__hash__" and not explicit_hash)]

    def materialize(name: str) -> None:
        group = _GROUPS[name]
        made_with = {k: k in group for k in ("init", "repr", "eq", "order")}
        # frozen changes how __init__ assigns, and whether __eq__ comes with a __hash__
        made_with["frozen"] = options["frozen"] and name in ("__init__", "__eq__", "__hash__")
        real = _stand_in(cls, made_with)
        for made in wanted:
            if _GROUPS[made] == group:
                setattr(cls, made, real.__dict__[made])

    for name in wanted:
        setattr(cls, name, _stub(cls, name, materialize))
    if options["eq"] and not options["frozen"] and not explicit_hash:
        cls.__hash__ = None  # as the standard decorator: mutable and comparable, so not hashable
    if options["frozen"]:
        _refuse_assignment(cls)
    return cls


def _methods(options: dict) -> list[str]:
    names = [n for n in ("__init__", "__repr__", "__eq__") if options[n.strip("_")]]
    if options["eq"] and options["frozen"]:
        names.append("__hash__")
    if options["order"]:
        names += ["__lt__", "__le__", "__gt__", "__ge__"]
    return names


def _stub(cls, name: str, materialize):
    def stub(self, *args, **kwargs):
        if cls.__dict__[name] is stub:
            materialize(name)
        return cls.__dict__[name](self, *args, **kwargs)

    stub.__name__ = stub.__qualname__ = name
    return stub


def _stand_in(cls, options: dict):
    """A class with ``cls``'s fields in their order and nothing else, given the standard decorator."""
    fields = dataclasses.fields(cls)
    namespace = {"__annotations__": {f.name: f.type for f in fields}, "__module__": cls.__module__,
                 "__qualname__": cls.__qualname__}
    for f in fields:
        namespace[f.name] = dataclasses.field(**{k: getattr(f, k) for k in _FIELD_OPTIONS})
    if hasattr(cls, "__post_init__"):
        namespace["__post_init__"] = cls.__post_init__
    return dataclasses.dataclass(type(cls.__name__, (), namespace), **options)


def _refuse_assignment(cls) -> None:
    names = frozenset(f.name for f in dataclasses.fields(cls))

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        if method.__name__ not in cls.__dict__:
            setattr(cls, method.__name__, method)
