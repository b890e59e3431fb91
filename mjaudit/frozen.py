"""A cheaper constructor for the frozen value classes an audit builds by the thousand.

A frozen dataclass's own ``__init__`` stores each field with
``object.__setattr__(self, name, value)``, the only way past its own guard. That is a
call and a name lookup per field: about three times the cost of a plain slot store.
:func:`quick_init` gives such a class an ``__init__`` with the same signature that
turns the new instance, for the time it takes to store its fields, into an instance
of a plain twin class with the same slots, where the stores are plain ones, and then
back. What the constructor returns is an ordinary instance of the frozen class: the
guard, ``__eq__``, ``__hash__`` and ``__repr__`` are the dataclass's own.

Only what the twin can stand in for is taken: a frozen, slotted dataclass whose only
base is ``object``, with no ``__post_init__``, no ``InitVar`` and every field taken by
``__init__``. Anything else is a programming error and raises at import time. A subclass instance
(its layout may differ) is built by the dataclass's own ``__init__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["quick_init"]

_T = TypeVar("_T")


class _Factory:
    """The default of a field whose default a factory makes, as dataclasses has it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def quick_init(cls: type[_T]) -> type[_T]:
    """Replace the ``__init__`` of a frozen, slotted dataclass by a cheaper one."""
    target: Any = cls  # set up at run time, beyond what the type checker follows
    params = getattr(target, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init takes a frozen, slotted dataclass")
    if cls.__bases__ != (object,) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init takes no base class or __post_init__")
    fields = dataclasses.fields(target)
    names = [f.name for f in fields]
    every = getattr(cls, "__dataclass_fields__", {})
    if list(cls.__dict__["__slots__"]) != names or len(every) != len(names):
        raise TypeError(f"{cls.__name__}: its slots are not its fields (an InitVar?)")
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": tuple(names)})
    env: dict[str, Any] = {
        "_cls": cls,
        "_twin": twin,
        "_set": object.__setattr__,
        "_slow": target.__init__,
        "_factory": _FACTORY,
    }
    positional: list[str] = []
    keyword: list[str] = []
    made = ""  # fields whose default a factory makes, as the dataclass does it
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes init fields only")
        param = f.name
        if f.default_factory is not dataclasses.MISSING:
            env[f"_make_{f.name}"] = f.default_factory
            param += "=_factory"
            made += f"    if {f.name} is _factory:\n        {f.name} = _make_{f.name}()\n"
        elif f.default is not dataclasses.MISSING:
            env[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keyword if f.kw_only else positional).append(param)
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    arguments = ", ".join(["self", *(f"{n}={n}" for n in names)])
    stores = "".join(f"    self.{n} = {n}\n" for n in names)
    source = (
        f"def __init__({signature}):\n"
        f"{made}"
        "    if type(self) is not _cls:\n"
        f"        return _slow({arguments})\n"
        "    _set(self, '__class__', _twin)\n"
        f"{stores}"
        "    self.__class__ = _cls\n"
    )
    exec(source, env)  # the source is made above from field names only
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = target.__init__.__doc__
    target.__init__ = init
    return cls
