"""Tenhou JSON: one kyoku array -> events in play order.

The JSON keeps, per seat, the list of tiles taken in and the list of tiles sent out
(../shared/reference/tenhou-format.md §2.2), not the order of play. The order is
rebuilt the standard way: seats take turns from the dealer; after a discard, a
seat whose next take is a call on that discarder's tile calls it (pon and kan
before chi), otherwise the next seat draws; after a kan or kita the same seat
takes again. When a call could claim more than one discard of the same tile, a
depth-first search tries the earlier one first and backs out of any path that
runs out of tiles or calls in the wrong place (the "confusing calls" case).
Every concealed hand is tracked, so a discard or call of a tile the seat does not
hold ends a path too.

Kan dora are not in the take lists either: the indicators beyond the first are
turned at Tenhou's times (§1.9): after an ankan straight away; after a daiminkan
or kakan just before the kanner's next discard, or at the kanner's next kan, and
never on a rinshan win or a chankan.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, replace

from mjaudit.errors import SourcePos
from mjaudit.events import (
    DeclareMeld,
    DoraReveal,
    Event,
    Located,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    Win,
    WinClaims,
    make_discard,
    make_draw,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz
from parsers.json_text import short
from parsers.tenhou_json_result import AkaFlags, JsonFail, WinEntry, tile_of

__all__ = ["Out", "Take", "build_round", "order_actions", "parse_out", "parse_take"]

# Position of the marker letter among the tiles -> source seat relative to the caller
# (3 = kamicha, 2 = toimen, 1 = shimocha; counted mod 4 in sanma too, §1.8 / §2.2).
_CALL_REL = {"c": {0: 3}, "p": {0: 3, 1: 2, 2: 1}, "m": {0: 3, 1: 2, 3: 1}}
_KAKAN_REL = {0: 3, 1: 2, 2: 1}
_CALL_KIND = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.DAIMINKAN}
_TOKEN_RE = re.compile(r"[a-z]|[0-9][0-9]")
_MAX_STEPS = 200_000


@dataclass(frozen=True, slots=True)
class Take:
    """One entry of a take list: a draw, or a call (chi, pon, daiminkan)."""

    raw: object
    index: int
    tile: Tile
    kind: MeldKind | None = None
    own: tuple[Tile, ...] = ()
    rel: int = 0


@dataclass(frozen=True, slots=True)
class Out:
    """One entry of a discard list.

    ``what``: ``discard`` (``tile`` None = tsumogiri, the ``60`` marker), ``ankan``,
    ``kakan``, ``kita`` or ``filler`` (the ``0`` after a daiminkan).
    """

    raw: object
    index: int
    what: str
    tile: Tile | None = None
    riichi: bool = False
    tiles: tuple[Tile, ...] = ()


def _split(raw: str) -> tuple[str, int, list[int]]:
    """``"47p4747"`` -> ("p", 1, [47, 47, 47]): the letter, its position, the tiles."""
    parts = _TOKEN_RE.findall(raw)
    if "".join(parts) != raw:
        raise JsonFail(f"{short(raw)} is not a call string")
    letters = [i for i, p in enumerate(parts) if p.isalpha()]
    if len(letters) != 1:
        raise JsonFail(f"{short(raw)} must have exactly one marker letter")
    at = letters[0]
    return parts[at], at, [int(p) for p in parts if not p.isalpha()]


def parse_take(raw: object, index: int, aka: AkaFlags) -> Take:
    if type(raw) is int:
        return Take(raw, index, tile_of(raw, aka))
    if not isinstance(raw, str):
        raise JsonFail(f"take {short(raw)} is neither a tile nor a call string")
    letter, at, codes = _split(raw)
    if letter not in _CALL_KIND:
        raise JsonFail(f"take {short(raw)}: {short(letter)} is not a call (c, p, m)")
    kind = _CALL_KIND[letter]
    want = 4 if kind is MeldKind.DAIMINKAN else 3
    if len(codes) != want:
        raise JsonFail(f"take {short(raw)}: a {kind.value} has {want} tiles, not {len(codes)}")
    rel = _CALL_REL[letter].get(at)
    if rel is None:
        raise JsonFail(
            f"take {short(raw)}: the marker {short(letter)} cannot stand at position {at}"
        )
    tiles = [tile_of(c, aka) for c in codes]
    called = tiles.pop(at)  # the tile right after the letter is the called one
    return Take(raw, index, called, kind, tuple(tiles), rel)


def parse_out(raw: object, index: int, aka: AkaFlags) -> Out:
    if type(raw) is int:
        if raw == 60:
            return Out(raw, index, "discard")
        if raw == 0:
            return Out(raw, index, "filler")
        return Out(raw, index, "discard", tile_of(raw, aka))
    if not isinstance(raw, str):
        raise JsonFail(f"discard {short(raw)} is neither a tile nor a string")
    if raw.startswith("r") and raw[1:].isascii() and raw[1:].isdigit() and len(raw) <= 3:
        code = int(raw[1:])
        tile = None if code == 60 else tile_of(code, aka)
        return Out(raw, index, "discard", tile, riichi=True)
    letter, at, codes = _split(raw)
    tiles = tuple(tile_of(c, aka) for c in codes)
    if letter == "f":
        if len(tiles) != 1 or at != 0:
            raise JsonFail(f"kita {short(raw)} must be 'f' and one tile")
        return Out(raw, index, "kita", tiles=tiles)
    if letter == "a":
        if len(tiles) != 4 or len({t.kind for t in tiles}) != 1:
            raise JsonFail(f"ankan {short(raw)} must be four tiles of one kind")
        return Out(raw, index, "ankan", tiles=tiles)
    if letter == "k":
        rel = _KAKAN_REL.get(at)
        if len(tiles) != 4 or len({t.kind for t in tiles}) != 1 or rel is None:
            raise JsonFail(f"kakan {short(raw)} must be four tiles of one kind, 'k' at 0..2")
        return Out(raw, index, "kakan", tile=tiles[at], tiles=tiles)
    raise JsonFail(f"discard {short(raw)}: unknown marker {short(letter)}")


# -- the search for the order of play -----------------------------------------------
@dataclass(slots=True)
class _Sim:
    """One partial order of play; copied at every choice point."""

    ti: list[int]
    di: list[int]
    hands: list[Counter[Tile]]
    pons: list[list[Meld]]
    actions: list[tuple[object, ...]]
    seat: int
    phase: str  # "draw": seat takes; "act": seat sends out; "after": seat discarded
    drawn: Tile | None

    def copy(self) -> _Sim:
        return _Sim(
            list(self.ti),
            list(self.di),
            [Counter(h) for h in self.hands],
            [list(p) for p in self.pons],
            list(self.actions),
            self.seat,
            self.phase,
            self.drawn,
        )


class _DeadEnd(Exception):
    pass


class _Search:
    def __init__(
        self,
        label: str,
        players: int,
        dealer: int,
        hands: list[tuple[Tile, ...]],
        takes: list[list[Take]],
        outs: list[list[Out]],
    ) -> None:
        self.label = label
        self.players = players
        self.takes = takes
        self.outs = outs
        self.best: tuple[int, str] = (-1, "")
        self.start = _Sim(
            [0] * 4,
            [0] * 4,
            [Counter(h) for h in hands],
            [[] for _ in range(4)],
            [],
            dealer,
            "draw",
            None,
        )

    def fail(self, sim: _Sim, message: str) -> _DeadEnd:
        if len(sim.actions) > self.best[0]:
            self.best = (len(sim.actions), message)
        return _DeadEnd()

    def done(self, sim: _Sim) -> bool:
        return all(
            sim.ti[s] == len(self.takes[s]) and sim.di[s] == len(self.outs[s])
            for s in range(self.players)
        )

    def remove(self, sim: _Sim, seat: int, tiles: tuple[Tile, ...], what: str) -> None:
        hand = sim.hands[seat]
        if len(tiles) == 1:  # a discard: nearly every call here
            tile = tiles[0]
            if hand[tile] < 1:
                held = to_mpsz(hand.elements())
                raise self.fail(sim, f"seat {seat} {what} {to_mpsz(tiles)} but holds {held}")
            hand[tile] -= 1
            return
        need = Counter(tiles)
        if any(hand[t] < n for t, n in need.items()):
            held = to_mpsz(hand.elements())
            raise self.fail(sim, f"seat {seat} {what} {to_mpsz(tiles)} but holds {held}")
        hand.subtract(need)

    def run(self) -> list[tuple[object, ...]]:
        stack = [self.start]
        steps = 0
        while stack:
            sim = stack.pop()
            try:
                while True:
                    steps += 1
                    if steps > _MAX_STEPS:
                        raise JsonFail(f"{self.label}: too many ways to order the calls")
                    if self.step(sim, stack):
                        return sim.actions
            except _DeadEnd:
                continue
        raise JsonFail(
            f"{self.label}: the take and discard lists cannot be put in order: {self.best[1]}"
        )

    def step(self, sim: _Sim, stack: list[_Sim]) -> bool:
        """Advance ``sim`` by one action; True when the hand is over."""
        seat = sim.seat
        if sim.phase == "draw":
            if sim.ti[seat] == len(self.takes[seat]):
                if self.done(sim):
                    sim.actions.append(("end",))
                    return True
                raise self.fail(sim, f"seat {seat} has no more takes but the others go on")
            take = self.takes[seat][sim.ti[seat]]
            if take.kind is not None:
                raise self.fail(
                    sim, f"seat {seat}'s take {short(take.raw)} is a call where a draw is due"
                )
            sim.ti[seat] += 1
            sim.hands[seat][take.tile] += 1
            sim.drawn = take.tile
            sim.phase = "act"
            sim.actions.append(("draw", seat, take))
            return False
        if sim.phase == "act":
            if sim.di[seat] == len(self.outs[seat]):
                if sim.drawn is not None and self.done(sim):
                    sim.actions.append(("end",))  # tsumo, or nine terminals
                    return True
                raise self.fail(
                    sim, f"seat {seat} has nothing more to discard but the hand goes on"
                )
            out = self.outs[seat][sim.di[seat]]
            sim.di[seat] += 1
            return self.send(sim, seat, out)
        # phase "after": seat has discarded sim.drawn-less tile in actions[-1]
        discarded = sim.actions[-1][3]
        assert isinstance(discarded, Tile)
        options: list[tuple[int, Take]] = []
        for k in range(1, self.players):
            x = (seat + k) % self.players
            if sim.ti[x] < len(self.takes[x]):
                take = self.takes[x][sim.ti[x]]
                if take.kind is not None and (x + take.rel) % 4 == seat and take.tile == discarded:
                    options.append((x, take))
        options.sort(key=lambda o: o[1].kind is MeldKind.CHI)
        # Try the calls in priority order; "no call" is the last resort (pushed first).
        if options:
            plain = sim.copy()
            plain.seat = (seat + 1) % self.players
            plain.phase = "draw"
            plain.drawn = None
            stack.append(plain)
            for x, take in reversed(options[1:]):
                alt = sim.copy()
                self.call(alt, x, take)
                stack.append(alt)
            self.call(sim, *options[0])
            return False
        sim.seat = (seat + 1) % self.players
        sim.phase = "draw"
        sim.drawn = None
        return False

    def call(self, sim: _Sim, x: int, take: Take) -> None:
        assert take.kind is not None
        self.remove(sim, x, take.own, f"calls {take.kind.value} with")
        sim.ti[x] += 1
        from_seat = (x + take.rel) % 4
        tiles = (*take.own, take.tile)
        meld = Meld(take.kind, tuple(sorted(tiles)), take.tile, from_seat)
        if take.kind is MeldKind.PON:
            sim.pons[x].append(meld)
        sim.actions.append(("call", x, take, meld))
        sim.seat = x
        sim.drawn = None
        if take.kind is MeldKind.DAIMINKAN:
            # The kan takes a turn with no discard: a 0 filler in the discard list.
            if sim.di[x] == len(self.outs[x]) or self.outs[x][sim.di[x]].what != "filler":
                raise self.fail(sim, f"seat {x}'s daiminkan {short(take.raw)} has no 0 after it")
            sim.di[x] += 1
            sim.phase = "draw"
        else:
            sim.phase = "act"

    def send(self, sim: _Sim, seat: int, out: Out) -> bool:
        if out.what == "discard":
            if out.tile is None:
                if sim.drawn is None:
                    raise self.fail(sim, f"seat {seat} discards 60 (the drawn tile) after a call")
                tile, tsumogiri = sim.drawn, True
            else:
                tile, tsumogiri = out.tile, False
            self.remove(sim, seat, (tile,), "discards")
            sim.actions.append(("discard", seat, out, tile, tsumogiri))
            sim.phase = "after"
            sim.drawn = None
            return False
        if out.what == "filler":
            raise self.fail(sim, f"seat {seat}'s discard 0 does not follow a daiminkan")
        if sim.drawn is None:
            raise self.fail(sim, f"seat {seat} declares {short(out.raw)} without having drawn")
        if out.what == "ankan":
            self.remove(sim, seat, out.tiles, "declares a concealed kan of")
            meld = Meld(MeldKind.ANKAN, tuple(sorted(out.tiles)))
        elif out.what == "kita":
            self.remove(sim, seat, out.tiles, "declares kita with")
            meld = Meld(MeldKind.KITA, out.tiles)
        else:
            assert out.tile is not None
            pon = next((p for p in sim.pons[seat] if p.kind34 == out.tile.kind), None)
            if pon is None:
                raise self.fail(sim, f"seat {seat} adds {out.tile} to a pon it does not have")
            self.remove(sim, seat, (out.tile,), "adds to a kan")
            sim.pons[seat].remove(pon)
            meld = Meld(MeldKind.KAKAN, (*pon.tiles, out.tile), pon.called, pon.from_seat, out.tile)
        sim.actions.append(("self", seat, out, meld))
        sim.drawn = None
        if self.done(sim):
            sim.actions.append(("end",))  # chankan (or a kokushi robbing an ankan)
            return True
        sim.phase = "draw"  # the replacement draw
        return False


def order_actions(
    label: str,
    players: int,
    dealer: int,
    hands: list[tuple[Tile, ...]],
    takes: list[list[Take]],
    outs: list[list[Out]],
) -> list[tuple[object, ...]]:
    return _Search(label, players, dealer, hands, takes, outs).run()


# -- actions -> events -------------------------------------------------------------------
RESULT = -1  # the number of a kyoku's result entry in its KyokuSource


@dataclass(frozen=True, slots=True)
class KyokuSource:
    """The positions of one kyoku's events, made only when something reads one.

    Each event keeps this object, shared by the kyoku, and the number of its action in
    the ordered ``actions`` (:data:`RESULT` for the result entry): the position names
    the wire token, ``{E1-0 discards2[5] "r15"}``, which costs a JSON encoding, so it
    is written only for a finding or an error.
    """

    path: str
    num: int
    label: str
    unit: str
    actions: list[tuple[object, ...]]

    def position(self, number: int, ev: Located) -> SourcePos:
        if number == RESULT:
            return SourcePos(self.path, self.num, f"{{{self.label} result}}", self.unit)
        act = self.actions[number]
        seat, token = act[1], act[2]
        assert isinstance(token, Take | Out)
        lst = "takes" if isinstance(token, Take) else "discards"
        raw = json.dumps(token.raw, ensure_ascii=False)
        where = f"{{{self.label} {lst}{seat}[{token.index}] {raw}}}"
        return SourcePos(self.path, self.num, where, self.unit)


def build_round(
    actions: list[tuple[object, ...]],
    source: KyokuSource,
    kan_indicators: list[Tile],
    wins: list[WinEntry],
    ura: tuple[Tile, ...],
    draw: RoundDraw | None,
) -> list[Event]:
    """Turn the ordered actions into events, adding riichi acceptance and kan dora.

    Each event is placed at its action's number in ``source`` (``actions`` are the
    source's own).
    """
    events: list[Event] = []
    add = events.append
    indicators = list(kan_indicators)
    pending_dora = 0
    pending_seat: int | None = None
    riichi_pending: tuple[int, int] | None = None
    riichi_done: set[int] = set()

    def reveal(count: int, at: int) -> None:
        for _ in range(count):
            if indicators:
                add(DoraReveal(source, indicators.pop(0), None, at))

    def accept() -> None:
        nonlocal riichi_pending
        if riichi_pending is not None:
            seat, at = riichi_pending
            add(RiichiAccepted(source, seat, None, at))
            riichi_done.add(seat)
            riichi_pending = None

    last: tuple[object, ...] = ()
    for at, act in enumerate(actions):
        kind = act[0]
        if kind == "end":
            break
        last = act
        seat = act[1]
        assert isinstance(seat, int)
        if riichi_pending is not None:
            accept()
        if kind == "draw":
            take = act[2]
            assert isinstance(take, Take)
            add(make_draw(source, seat, take.tile, None, at))
        elif kind == "discard":
            out, tile, tsumogiri = act[2], act[3], act[4]
            assert isinstance(out, Out) and isinstance(tile, Tile) and isinstance(tsumogiri, bool)
            if out.riichi:
                add(RiichiDeclared(source, seat, at))
            if pending_dora and pending_seat == seat:
                reveal(pending_dora, at)
                pending_dora = 0
            add(make_discard(source, seat, tile, tsumogiri, None, at))
            if out.riichi:
                riichi_pending = (seat, at)
        else:
            meld = act[3]
            assert isinstance(meld, Meld)
            add(DeclareMeld(source, seat, meld, at))
            if meld.kind.is_kan:
                # A kan flushes the indicator an earlier open kan still owes (§1.9).
                reveal(pending_dora, at)
                pending_dora = 0
                if meld.kind is MeldKind.ANKAN:
                    reveal(1, at)
                else:
                    pending_dora, pending_seat = 1, seat
    if wins:
        # A ron on the riichi discard: the stick is never paid, no acceptance.
        ron_on_last = last[:1] == ("discard",)
        if not ron_on_last:
            accept()
        riichi_seats = riichi_done
        any_riichi = any(w.seat in riichi_seats for w in wins)
        for w in wins:
            claims = w.claims
            if w.seat in riichi_seats or (ura and not any_riichi):
                claims = _with_ura(claims, ura)
            events.append(Win(source, w.seat, w.from_seat, claims, RESULT))
    else:
        assert draw is not None
        if draw.reason.name != "SANCHAHOU":
            accept()  # Tenhou accepts the fourth riichi before 四家立直 (§1.11)
        events.append(draw)
    return events


def _with_ura(claims: WinClaims, ura: tuple[Tile, ...]) -> WinClaims:
    return replace(claims, ura_indicators=ura)
