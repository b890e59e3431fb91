"""Cheaper constructors for the frozen value classes an audit builds by the thousand.

A frozen dataclass's own ``__init__`` stores each field with
``object.__setattr__(self, name, value)``, the only way past its own guard. That is a
call and a name lookup per field: about three times the cost of a plain slot store.
Both helpers here store the fields on an instance of a plain twin class with the same
slots, where the stores are plain ones, and then make it an instance of the frozen
class (``__class__`` may change between classes of the same layout). What comes out
is an ordinary instance of the frozen class: the guard, ``__eq__``, ``__hash__`` and
``__repr__`` are the dataclass's own.

- :func:`quick_init` gives the class such an ``__init__``, with the same signature.
- :func:`quick_builder` makes a plain function with the same signature that builds one.
  A function call costs about half of a class's constructor (which goes through
  ``__init__``): it is for the parsers' hot loops.

Only what the twin can stand in for is taken: a frozen, slotted dataclass whose only
bases add no fields and no slots (``__slots__ = ()``; properties and methods are
fine), with no ``__post_init__``, no ``InitVar`` and every field taken by
``__init__``. Anything else is a programming error and raises at import time. A
subclass instance (its layout may differ) is built by the dataclass's own
``__init__``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["quick_builder", "quick_init"]

_T = TypeVar("_T")


class _Factory:
    """The default of a field whose default a factory makes, as dataclasses has it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


# What both helpers generate from: the names the source may use, the field names, the
# parameters as the dataclass's __init__ has them (no self), and the lines that make
# the defaults of factory fields. A plain tuple: a class of its own would cost more
# at import than the rest of this module.
_Plan = tuple[dict[str, Any], tuple[str, ...], str, str]


def _plan(cls: type[Any]) -> _Plan:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: takes a frozen, slotted dataclass")
    bare = all(
        base is object
        or (base.__dict__.get("__slots__") == () and not hasattr(base, "__dataclass_fields__"))
        for base in cls.__mro__[1:]
    )
    if not bare or hasattr(cls, "__post_init__"):
        raise TypeError(
            f"{cls.__name__}: takes no base class with fields or slots, and no __post_init__"
        )
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    every = getattr(cls, "__dataclass_fields__", {})
    if tuple(cls.__dict__["__slots__"]) != names or len(every) != len(names):
        raise TypeError(f"{cls.__name__}: its slots are not its fields (an InitVar?)")
    env: dict[str, Any] = {
        "_cls": cls,
        # The same bases (empty-slotted, so the same layout) and the same slots.
        "_twin": type(f"_{cls.__name__}Twin", cls.__bases__, {"__slots__": names}),
        "_factory": _FACTORY,
    }
    positional: list[str] = []
    keyword: list[str] = []
    made = ""
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: takes init fields only")
        param = f.name
        if f.default_factory is not dataclasses.MISSING:
            env[f"_make_{f.name}"] = f.default_factory
            param += "=_factory"
            made += f"    if {f.name} is _factory:\n        {f.name} = _make_{f.name}()\n"
        elif f.default is not dataclasses.MISSING:
            env[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keyword if f.kw_only else positional).append(param)
    signature = ", ".join([*positional, *(["*", *keyword] if keyword else [])])
    return env, names, signature, made


def _define(env: dict[str, Any], name: str, source: str, qualname: str, module: str) -> Any:
    exec(source, env)  # the source is made from field names only
    made = env[name]
    made.__qualname__ = qualname
    made.__module__ = module
    return made


def quick_init(cls: type[_T]) -> type[_T]:
    """Replace the ``__init__`` of a frozen, slotted dataclass by a cheaper one."""
    target: Any = cls  # set up at run time, beyond what the type checker follows
    env, names, signature, made = _plan(target)
    env["_set"] = object.__setattr__
    env["_slow"] = target.__init__
    arguments = ", ".join(["self", *(f"{n}={n}" for n in names)])
    stores = "".join(f"    self.{n} = {n}\n" for n in names)
    source = (
        f"def __init__({', '.join(['self', signature])}):\n"
        f"{made}"
        "    if type(self) is not _cls:\n"
        f"        return _slow({arguments})\n"
        "    _set(self, '__class__', _twin)\n"
        f"{stores}"
        "    self.__class__ = _cls\n"
    )
    init = _define(env, "__init__", source, f"{cls.__qualname__}.__init__", cls.__module__)
    init.__doc__ = target.__init__.__doc__
    target.__init__ = init
    return cls


def quick_builder(cls: type[_T], name: str) -> Callable[..., _T]:
    """A function ``name`` with the signature of ``cls``'s constructor that builds one."""
    env, names, signature, made = _plan(cls)
    env["_bare"] = object.__new__
    stores = "".join(f"    ev.{n} = {n}\n" for n in names)
    source = (
        f"def {name}({signature}):\n"
        f"{made}"
        "    ev = _bare(_twin)\n"
        f"{stores}"
        "    ev.__class__ = _cls\n"
        "    return ev\n"
    )
    built: Callable[..., _T] = _define(env, name, source, name, cls.__module__)
    built.__doc__ = f"``{cls.__name__}(...)``, built without its ``__init__``."
    return built
