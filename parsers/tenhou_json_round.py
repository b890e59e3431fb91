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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

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
from parsers.tenhou_json_result import AkaFlags, JsonFail, WinEntry, tile_of, tile_table

__all__ = [
    "Action",
    "Out",
    "OutEntry",
    "Take",
    "TakeEntry",
    "build_round",
    "order_actions",
    "parse_out",
    "parse_outs",
    "parse_take",
    "parse_takes",
]

# Position of the marker letter among the tiles -> source seat relative to the caller
# (3 = kamicha, 2 = toimen, 1 = shimocha; counted mod 4 in sanma too, §1.8 / §2.2).
_CALL_REL = {"c": {0: 3}, "p": {0: 3, 1: 2, 2: 1}, "m": {0: 3, 1: 2, 3: 1}}
_KAKAN_REL = {0: 3, 1: 2, 2: 1}
_CALL_KIND = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.DAIMINKAN}
_TOKEN_RE = re.compile(r"[a-z]|[0-9][0-9]")
_MAX_STEPS = 200_000


@dataclass(frozen=True, slots=True)
class Take:
    """A call in a take list (chi, pon, daiminkan); a plain draw is just its Tile."""

    raw: object
    tile: Tile
    kind: MeldKind
    own: tuple[Tile, ...]
    rel: int


@dataclass(frozen=True, slots=True)
class Out:
    """An entry of a discard list other than a plain discard (which is just its Tile).

    ``what``: ``discard`` (``tile`` None = tsumogiri, the ``60`` marker), ``ankan``,
    ``kakan``, ``kita`` or ``filler`` (the ``0`` after a daiminkan).
    """

    raw: object
    what: str
    tile: Tile | None = None
    riichi: bool = False
    tiles: tuple[Tile, ...] = ()


TakeEntry = Tile | Take
OutEntry = Tile | Out
_E = TypeVar("_E", TakeEntry, OutEntry)
_TSUMOGIRI = Out(60, "discard")
_FILLER = Out(0, "filler")


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


def parse_take(raw: object, aka: AkaFlags) -> TakeEntry:
    if type(raw) is int:
        return tile_of(raw, aka)
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
    return Take(raw, called, kind, tuple(tiles), rel)


def parse_out(raw: object, aka: AkaFlags) -> OutEntry:
    if type(raw) is int:
        if raw == 60:
            return _TSUMOGIRI
        if raw == 0:
            return _FILLER
        return tile_of(raw, aka)
    if not isinstance(raw, str):
        raise JsonFail(f"discard {short(raw)} is neither a tile nor a string")
    if raw.startswith("r") and raw[1:].isascii() and raw[1:].isdigit() and len(raw) <= 3:
        code = int(raw[1:])
        tile = None if code == 60 else tile_of(code, aka)
        return Out(raw, "discard", tile, riichi=True)
    letter, at, codes = _split(raw)
    tiles = tuple(tile_of(c, aka) for c in codes)
    if letter == "f":
        if len(tiles) != 1 or at != 0:
            raise JsonFail(f"kita {short(raw)} must be 'f' and one tile")
        return Out(raw, "kita", tiles=tiles)
    if letter == "a":
        if len(tiles) != 4 or len({t.kind for t in tiles}) != 1:
            raise JsonFail(f"ankan {short(raw)} must be four tiles of one kind")
        return Out(raw, "ankan", tiles=tiles)
    if letter == "k":
        rel = _KAKAN_REL.get(at)
        if len(tiles) != 4 or len({t.kind for t in tiles}) != 1 or rel is None:
            raise JsonFail(f"kakan {short(raw)} must be four tiles of one kind, 'k' at 0..2")
        return Out(raw, "kakan", tile=tiles[at], tiles=tiles)
    raise JsonFail(f"discard {short(raw)}: unknown marker {short(letter)}")


def parse_takes(raw: list[object], aka: AkaFlags, what: str) -> list[TakeEntry]:
    """A take list: tile numbers by table, call strings parsed; JsonFail names the entry."""
    return _parse_list(raw, tile_table(aka), parse_take, aka, what)


def parse_outs(raw: list[object], aka: AkaFlags, what: str) -> list[OutEntry]:
    """A discard list, as :func:`parse_takes`."""
    return _parse_list(raw, _out_table(aka), parse_out, aka, what)


def _parse_list(
    raw: list[object],
    table: Mapping[int, _E],
    parse: Callable[[object, AkaFlags], _E],
    aka: AkaFlags,
    what: str,
) -> list[_E]:
    try:
        return [table[x] if type(x) is int else parse(x, aka) for x in raw]
    except (KeyError, JsonFail):  # again one at a time, for the message naming the entry
        out = []
        for i, item in enumerate(raw):
            try:
                out.append(parse(item, aka))
            except JsonFail as exc:
                raise JsonFail(f"{what}[{i}]: {exc}") from None
        return out


_OUT_TABLES: dict[AkaFlags, dict[int, OutEntry]] = {}


def _out_table(aka: AkaFlags) -> dict[int, OutEntry]:
    table = _OUT_TABLES.get(aka)
    if table is None:
        table = _OUT_TABLES[aka] = {**tile_table(aka), 60: _TSUMOGIRI, 0: _FILLER}
    return table


# -- the search for the order of play -----------------------------------------------
# The ordered actions, each naming its entry of a take or discard list by index:
#   ("draw", seat, take index, tile)
#   ("discard", seat, discard index, tile, tsumogiri, riichi)
#   ("call", seat, take index, meld)      chi, pon, daiminkan
#   ("self", seat, discard index, meld)   ankan, kakan, kita
#   ("end",)
# Typed Any: build_round reads the layout above as it is, without a check per action
# (the search writes every action of this module; nothing else does).
Action = tuple[Any, ...]
_END: Action = ("end",)
_DRAW, _ACT = 0, 1  # a seat takes; a seat sends out


# A hand is held as counts by slot (kind * 2 + red): cheaper than a Counter of tiles.
_SLOT_TILES = {
    k * 2 + r: Tile(k, bool(r)) for k in range(34) for r in (0, 1) if not r or k in (4, 13, 22)
}


def _counts(tiles: tuple[Tile, ...]) -> list[int]:
    counts = [0] * 68
    for t in tiles:
        counts[t.kind * 2 + t.red] += 1
    return counts


def _held(counts: list[int]) -> str:
    return to_mpsz(_SLOT_TILES[k] for k, n in enumerate(counts) for _ in range(n))


@dataclass(slots=True)
class _Sim:
    """One partial order of play; copied at every choice point."""

    ti: list[int]
    di: list[int]
    hands: list[list[int]]
    pons: list[list[Meld]]
    actions: list[Action]
    seat: int
    phase: int
    drawn: Tile | None

    def copy(self) -> _Sim:
        return _Sim(
            list(self.ti),
            list(self.di),
            [list(h) for h in self.hands],
            [list(p) for p in self.pons],
            list(self.actions),
            self.seat,
            self.phase,
            self.drawn,
        )


class _Search:
    """A depth-first search over the ways to order the calls; every path runs as one
    loop over local variables until the hand ends, runs into a dead end, or comes to a
    discard that someone can call (a choice point, where the other ways are pushed)."""

    def __init__(
        self,
        label: str,
        players: int,
        dealer: int,
        hands: list[tuple[Tile, ...]],
        takes: list[list[TakeEntry]],
        outs: list[list[OutEntry]],
    ) -> None:
        self.label = label
        self.players = players
        self.takes = takes
        self.outs = outs
        self.nt = [len(t) for t in takes]
        self.no = [len(o) for o in outs]
        # Whether each take is a call, one more False past the end: a discard asks
        # only the seats whose next take is one whether they call it.
        self.is_call = [[type(t) is Take for t in seat_takes] + [False] for seat_takes in takes]
        self.others = tuple(
            tuple((s + step) % players for step in range(1, players)) for s in range(players)
        )
        self.next_seat = tuple((s + 1) % players for s in range(players))
        self.best: tuple[int, str] = (-1, "")
        self.steps = 0
        self.start = _Sim(
            [0] * 4,
            [0] * 4,
            [_counts(h) for h in hands],
            [[] for _ in range(4)],
            [],
            dealer,
            _DRAW,
            None,
        )

    def fail(self, sim: _Sim, message: str) -> bool:
        if len(sim.actions) > self.best[0]:
            self.best = (len(sim.actions), message)
        return False

    def done(self, ti: list[int], di: list[int]) -> bool:
        nt, no = self.nt, self.no
        return all(ti[s] == nt[s] and di[s] == no[s] for s in range(self.players))

    def remove(self, sim: _Sim, seat: int, tiles: tuple[Tile, ...], what: str) -> str | None:
        """Take ``tiles`` out of the seat's hand; what is wrong when it does not hold them."""
        hand = sim.hands[seat]
        need = [t.kind * 2 + t.red for t in tiles]
        if any(hand[k] < need.count(k) for k in need):
            return f"seat {seat} {what} {to_mpsz(tiles)} but holds {_held(hand)}"
        for k in need:
            hand[k] -= 1
        return None

    def run(self) -> list[Action]:
        stack = [self.start]
        while stack:
            sim = stack.pop()
            if self.advance(sim, stack):
                return sim.actions
        raise JsonFail(
            f"{self.label}: the take and discard lists cannot be put in order: {self.best[1]}"
        )

    def advance(self, sim: _Sim, stack: list[_Sim]) -> bool:
        """Play ``sim`` on; True when the hand is over, False at a dead end."""
        takes, outs, nt, no = self.takes, self.outs, self.nt, self.no
        is_call, others, next_seat = self.is_call, self.others, self.next_seat
        ti, di, hands, actions = sim.ti, sim.di, sim.hands, sim.actions
        add = actions.append
        seat, phase, drawn = sim.seat, sim.phase, sim.drawn
        while True:
            self.steps += 1
            if self.steps > _MAX_STEPS:
                raise JsonFail(
                    f"{self.label}: the take and discard lists cannot be put in order within "
                    f"{_MAX_STEPS:,} steps (a hand far longer than a wall, or too many ways "
                    "to order its calls)"
                )
            if phase == _DRAW:
                i = ti[seat]
                if i == nt[seat]:
                    if self.done(ti, di):
                        add(_END)
                        return True
                    return self.fail(sim, f"seat {seat} has no more takes but the others go on")
                take = takes[seat][i]
                if isinstance(take, Take):
                    return self.fail(
                        sim, f"seat {seat}'s take {short(take.raw)} is a call where a draw is due"
                    )
                ti[seat] = i + 1
                hands[seat][take.kind * 2 + take.red] += 1
                drawn = take
                phase = _ACT
                add(("draw", seat, i, take))
                continue
            j = di[seat]
            if j == no[seat]:
                if drawn is not None and self.done(ti, di):
                    add(_END)  # tsumo, or nine terminals
                    return True
                return self.fail(
                    sim, f"seat {seat} has nothing more to discard but the hand goes on"
                )
            out = outs[seat][j]
            di[seat] = j + 1
            riichi = False
            if type(out) is Tile:
                tile, tsumogiri = out, False
            else:
                assert isinstance(out, Out)
                if out.what != "discard":
                    sim.seat, sim.drawn = seat, drawn
                    over = self.declare(sim, seat, j, out)
                    if over is not None:
                        return over
                    seat, phase, drawn = sim.seat, sim.phase, sim.drawn
                    continue
                riichi = out.riichi
                if out.tile is not None:
                    tile, tsumogiri = out.tile, False
                elif drawn is None:
                    return self.fail(sim, f"seat {seat} discards 60 (the drawn tile) after a call")
                else:
                    tile, tsumogiri = drawn, True
            hand = hands[seat]
            k = tile.kind * 2 + tile.red
            if hand[k] < 1:
                return self.fail(
                    sim, f"seat {seat} discards {to_mpsz((tile,))} but holds {_held(hand)}"
                )
            hand[k] -= 1
            add(("discard", seat, j, tile, tsumogiri, riichi))
            drawn = None
            # Who can call this tile: a seat whose next take is a call on it.
            options: list[tuple[int, Take]] | None = None
            for x in others[seat]:
                if is_call[x][ti[x]]:
                    call = takes[x][ti[x]]
                    if type(call) is Take and (x + call.rel) % 4 == seat and call.tile == tile:
                        if options is None:
                            options = []
                        options.append((x, call))
            if options is None:
                seat = next_seat[seat]
                phase = _DRAW
                continue
            options.sort(key=lambda o: o[1].kind is MeldKind.CHI)
            # Try the calls in priority order; "no call" is the last resort (pushed first).
            plain = sim.copy()
            plain.seat = next_seat[seat]
            plain.phase = _DRAW
            plain.drawn = None
            stack.append(plain)
            for x, call in reversed(options[1:]):
                alt = sim.copy()
                problem = self.call(alt, x, call)
                if problem is not None:
                    return self.fail(alt, problem)
                stack.append(alt)
            problem = self.call(sim, *options[0])
            if problem is not None:
                return self.fail(sim, problem)
            seat, phase, drawn = sim.seat, sim.phase, sim.drawn

    def call(self, sim: _Sim, x: int, take: Take) -> str | None:
        """Seat ``x`` calls ``take``; what is wrong when it cannot."""
        problem = self.remove(sim, x, take.own, f"calls {take.kind.value} with")
        if problem is not None:
            return problem
        i = sim.ti[x]
        sim.ti[x] = i + 1
        from_seat = (x + take.rel) % 4
        tiles = (*take.own, take.tile)
        meld = Meld(take.kind, tuple(sorted(tiles)), take.tile, from_seat)
        if take.kind is MeldKind.PON:
            sim.pons[x].append(meld)
        sim.actions.append(("call", x, i, meld))
        sim.seat = x
        sim.drawn = None
        if take.kind is MeldKind.DAIMINKAN:
            # The kan takes a turn with no discard: a 0 filler in the discard list.
            if sim.di[x] == self.no[x] or self.outs[x][sim.di[x]] is not _FILLER:
                return f"seat {x}'s daiminkan {short(take.raw)} has no 0 after it"
            sim.di[x] += 1
            sim.phase = _DRAW
        else:
            sim.phase = _ACT
        return None

    def declare(self, sim: _Sim, seat: int, j: int, out: Out) -> bool | None:
        """A kan or kita declared from the hand (or a misplaced filler): True when that
        ends the hand, False at a dead end, None to play on."""
        if out.what == "filler":
            return self.fail(sim, f"seat {seat}'s discard 0 does not follow a daiminkan")
        if sim.drawn is None:
            return self.fail(sim, f"seat {seat} declares {short(out.raw)} without having drawn")
        if out.what == "ankan":
            problem = self.remove(sim, seat, out.tiles, "declares a concealed kan of")
            meld = Meld(MeldKind.ANKAN, tuple(sorted(out.tiles)))
        elif out.what == "kita":
            problem = self.remove(sim, seat, out.tiles, "declares kita with")
            meld = Meld(MeldKind.KITA, out.tiles)
        else:
            tile = out.tile
            assert tile is not None
            pon = next((p for p in sim.pons[seat] if p.kind34 == tile.kind), None)
            if pon is None:
                return self.fail(sim, f"seat {seat} adds {tile} to a pon it does not have")
            problem = self.remove(sim, seat, (tile,), "adds to a kan")
            if problem is None:
                sim.pons[seat].remove(pon)
            meld = Meld(MeldKind.KAKAN, (*pon.tiles, tile), pon.called, pon.from_seat, tile)
        if problem is not None:
            return self.fail(sim, problem)
        sim.actions.append(("self", seat, j, meld))
        sim.drawn = None
        if self.done(sim.ti, sim.di):
            sim.actions.append(_END)  # chankan (or a kokushi robbing an ankan)
            return True
        sim.phase = _DRAW  # the replacement draw
        return None


def order_actions(
    label: str,
    players: int,
    dealer: int,
    hands: list[tuple[Tile, ...]],
    takes: list[list[TakeEntry]],
    outs: list[list[OutEntry]],
) -> list[Action]:
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
    actions: list[Action]
    kyoku: list[object]  # the kyoku's array, whose lists the actions index

    def position(self, number: int, ev: Located) -> SourcePos:
        if number == RESULT:
            return SourcePos(self.path, self.num, f"{{{self.label} result}}", self.unit)
        kind, seat, index = self.actions[number][:3]
        assert isinstance(seat, int) and isinstance(index, int)
        takes = kind in ("draw", "call")
        lst = "takes" if takes else "discards"
        entries = self.kyoku[(5 if takes else 6) + 3 * seat]
        assert isinstance(entries, list)
        raw = json.dumps(entries[index], ensure_ascii=False)
        where = f"{{{self.label} {lst}{seat}[{index}] {raw}}}"
        return SourcePos(self.path, self.num, where, self.unit)


def build_round(
    actions: list[Action],
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

    last: Action = ()
    for at, act in enumerate(actions):
        kind = act[0]
        if kind == "end":
            break
        last = act
        seat: int = act[1]
        if riichi_pending is not None:
            accept()
        if kind == "draw":
            add(make_draw(source, seat, act[3], None, at))
        elif kind == "discard":
            tile: Tile = act[3]
            tsumogiri: bool = act[4]
            riichi: bool = act[5]
            if riichi:
                add(RiichiDeclared(source, seat, at))
            if pending_dora and pending_seat == seat:
                reveal(pending_dora, at)
                pending_dora = 0
            add(make_discard(source, seat, tile, tsumogiri, None, at))
            if riichi:
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
    if indicators:
        # Entry 2 lists more indicators than the hand's kans turn (§2.2: the first and
        # every kan dora turned): the rest are turned just before the result, where no
        # kan makes one due, so the replay names each (``dora-timing``) and scores the
        # result with the indicators in force. Dropped, they were no finding at all.
        reveal(len(indicators), RESULT)
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
