"""mjaudit.frozen.quick_init: the same values as the dataclass's own constructor."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from mjaudit.events import Win, WinClaims
from mjaudit.frozen import quick_init
from mjaudit.hands import WinContext
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile


@dataclass(frozen=True, slots=True)
class Plain:
    seat: int
    tiles: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)
    label: str = field(default="x", kw_only=True)


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    seat: int
    tiles: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)
    label: str = field(default="x", kw_only=True)


def _same(quick: Quick, plain: Plain) -> None:
    assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert repr(quick) == repr(plain).replace("Plain", "Quick")


def test_quick_init_builds_the_value_the_dataclass_builds() -> None:
    _same(Quick(1), Plain(1))
    _same(Quick(2, (3, 4)), Plain(2, (3, 4)))
    _same(Quick(seat=2, tiles=(5,), notes=["a"], label="y"), Plain(2, (5,), ["a"], label="y"))
    assert type(Quick(1)) is Quick
    assert Quick(1, (2,)) == Quick(1, (2,))
    assert Quick(1) != Quick(2)
    assert hash(WinClaims(fu=30, han=2)) == hash(WinClaims(fu=30, han=2))


def test_a_factory_default_is_made_afresh_for_each_value() -> None:
    a, b = Quick(1), Quick(1)
    assert a.notes == [] and a.notes is not b.notes


def test_the_signature_is_the_dataclass_signature() -> None:
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, (), [], "y")  # type: ignore[call-arg]  # label is keyword-only
    with pytest.raises(TypeError):
        Quick(1, colour="red")  # type: ignore[call-arg]


def test_the_value_stays_frozen_and_copies_and_pickles() -> None:
    q = Quick(3, (1, 2), ["n"], label="z")
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.seat = 4  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(q)) == q
    assert copy.deepcopy(q) == q
    assert dataclasses.replace(q, seat=0) == Quick(0, (1, 2), ["n"], label="z")


def test_quick_init_refuses_what_a_plain_twin_cannot_stand_in_for() -> None:
    @dataclass(slots=True)
    class Mutable:
        seat: int

    @dataclass(frozen=True)
    class NoSlots:
        seat: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        seat: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class Base:
        seat: int

    @dataclass(frozen=True, slots=True)
    class Derived(Base):
        tile: int

    class Slotted:
        __slots__ = ("extra",)

    @dataclass(frozen=True, slots=True)
    class OnSlotted(Slotted):
        seat: int

    for cls in (Mutable, NoSlots, Checked, Derived, OnSlotted):
        with pytest.raises(TypeError):
            quick_init(cls)


class Described:
    """A base with a property and no fields or slots, as mjaudit.events.Located."""

    __slots__ = ()
    seat: int

    @property
    def east(self) -> bool:
        return self.seat == 0


@quick_init
@dataclass(frozen=True, slots=True)
class Quicker(Described):
    seat: int
    tile: int = 5


def test_a_base_without_fields_or_slots_is_taken() -> None:
    value = Quicker(0)
    assert type(value) is Quicker and value.east and value.tile == 5
    assert value == Quicker(0, 5) and pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.seat = 1  # type: ignore[misc]


def test_the_project_values_built_quickly_equal_their_field_by_field_copies() -> None:
    # Values the audit builds by the thousand take quick_init; each must come out
    # exactly as the dataclass's own constructor would make it.
    five = Tile("5m")
    meld = Meld(MeldKind.PON, (five, five, five), five, 2)
    claims = WinClaims(fu=30, points=1000)
    ctx = WinContext(tsumo=True, seat_wind=1)
    for value in (meld, claims, ctx):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        slow = object.__new__(type(value))
        for name, v in fields.items():
            object.__setattr__(slow, name, v)
        assert value == slow
        assert repr(value) == repr(slow)
    assert Win.__init__.__qualname__ == "Win.__init__"


def test_quick_builder_builds_what_the_constructor_builds() -> None:
    from mjaudit.frozen import quick_builder

    build = quick_builder(Plain, "build_plain")
    assert build(1) == Plain(1) and type(build(1)) is Plain
    made = build(2, (3,), ["n"], label="y")
    assert made == Plain(2, (3,), ["n"], label="y") and type(made) is Plain
    assert build(1).notes is not build(1).notes  # a fresh default each time
    with pytest.raises(TypeError):
        build()
    with pytest.raises(dataclasses.FrozenInstanceError):
        build(1).seat = 2  # type: ignore[misc]
