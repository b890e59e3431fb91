"""Hand efficiency from a seat: shanten, ukeire and a plain note on each discard.

For a concealed part (34-kind counts; the melds are implied by its size) and the tiles
its seat can see (its own hand, every pond, every meld, the dora indicators turned):

- :func:`hand_efficiency`, for 3k+1 tiles: the shanten and the ukeire, the kinds whose
  draw lowers the shanten, each with its copies the seat cannot see (four less those
  it sees; a red five is a five);
- :func:`turn_efficiency`, for 3k+2 tiles: the shanten and, for every kind the seat
  can discard, the shanten and ukeire of the hand it leaves;
- :func:`efficiency_note`: whether another discard kept a lower shanten, or the same
  shanten with strictly more unseen ukeire tiles. Plain counts: no weights, no reading
  of the other seats. The note names every discard that does best.

:class:`EfficiencyTracker` is a :class:`~analyzer.engine.replay.ReplayObserver` that
records this for one seat, some or all at every own turn (after a draw, and after a
chi or pon, which a discard must follow), keyed by (round, event index) for a report to
attach to the board's steps. It follows the audit's replay (``audit_log(...,
observers=[tracker])``) and never replays a game itself.

Shanten is :func:`analyzer.hands.hand.shanten` (seven pairs and thirteen orphans count
for a concealed hand of 13 or 14 tiles), and ukeire comes from
:func:`analyzer.hands.hand.draw_shanten`. Neither counts on a fifth copy of a kind the
hand holds all four of (``1111m234p567s789s`` is 1-shanten, not tenpai: its only wait is
all in the hand), and a kind held four times is never ukeire. The answers for a shape
are kept per hand key, so a hand seen again (a seat in riichi draws and discards around
the same thirteen tiles) costs a lookup.

>>> from mjaudit.tiles import tiles
>>> def counts(text):
...     c = [0] * 34
...     for t in tiles(text):
...         c[t.kind] += 1
...     return c
>>> hand = counts("234m456p789s1122z5z")
>>> turn = turn_efficiency(hand, hand)  # nothing seen but the hand
>>> turn.shanten, [str(o) for o in turn.best]
(0, ['5z: tenpai, 1z 2z: 4'])
>>> print(efficiency_note(turn, 1).text)
discarding 2m leaves 1-shanten with 11 tiles that improve it; 5z leaves tenpai with 4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from analyzer.engine.replay import RoundState
from analyzer.hands.hand import draw_shanten, shanten
from mjaudit.events import DeclareMeld, Discard, DoraReveal, DrawTile, Event, RiichiDeclared
from mjaudit.frozen import quick_init
from mjaudit.melds import MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = [
    "DiscardOption",
    "EfficiencyNote",
    "EfficiencyTracker",
    "HandEfficiency",
    "SeatTurn",
    "TurnEfficiency",
    "Ukeire",
    "efficiency_note",
    "hand_efficiency",
    "seen_counts",
    "turn_efficiency",
]

_CACHE_LIMIT = 50_000
# Events between a turn's start and its discard that do not end the turn.
_KEEP_TURN = (RiichiDeclared, DoraReveal)


@quick_init
@dataclass(frozen=True, slots=True)
class Ukeire:
    """The kinds whose draw lowers a hand's shanten, ascending, with their unseen copies.

    A kind whose copies the seat sees all of stays listed, with 0: the shape still
    wants it.
    """

    kinds: tuple[int, ...]
    unseen: tuple[int, ...]

    @property
    def total(self) -> int:
        """Tiles the seat cannot see that improve the hand."""
        return sum(self.unseen)

    def __str__(self) -> str:
        """``1m 4m 1z: 9`` (kinds, then the unseen tiles of them); ``-: 0`` for none."""
        kinds = " ".join(str(Tile(k)) for k in self.kinds) or "-"
        return f"{kinds}: {self.total}"


@quick_init
@dataclass(frozen=True, slots=True)
class HandEfficiency:
    """A concealed part of 3k+1 tiles: its shanten and ukeire."""

    shanten: int
    ukeire: Ukeire


@quick_init
@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard from a hand of 3k+2 tiles and what the hand left has."""

    kind: int
    shanten: int
    ukeire: Ukeire

    def __str__(self) -> str:
        return f"{Tile(self.kind)}: {_shanten_text(self.shanten)}, {self.ukeire}"


@quick_init
@dataclass(frozen=True, slots=True)
class TurnEfficiency:
    """A concealed part of 3k+2 tiles: its shanten and every discard, by kind."""

    shanten: int
    options: tuple[DiscardOption, ...]

    @property
    def best(self) -> tuple[DiscardOption, ...]:
        """The discards that do best: the lowest shanten, then the most unseen ukeire."""
        if not self.options:
            return ()
        low = min(o.shanten for o in self.options)
        most = max(o.ukeire.total for o in self.options if o.shanten == low)
        return tuple(o for o in self.options if o.shanten == low and o.ukeire.total == most)

    def option(self, kind: int) -> DiscardOption | None:
        for o in self.options:
            if o.kind == kind:
                return o
        return None


@quick_init
@dataclass(frozen=True, slots=True)
class EfficiencyNote:
    """A discard that another discard beat: on shanten, or on ukeire at equal shanten."""

    discarded: int
    shanten: int
    ukeire: int  # unseen tiles that improve the hand the discard left
    better: tuple[int, ...]  # the discards that do best, ascending
    better_shanten: int
    better_ukeire: int

    @property
    def text(self) -> str:
        alternatives = " or ".join(str(Tile(k)) for k in self.better)
        return (
            f"discarding {Tile(self.discarded)} leaves {_shanten_text(self.shanten)} with "
            f"{self.ukeire} tiles that improve it; {alternatives} "
            f"{'leaves' if len(self.better) == 1 else 'leave'} "
            f"{_shanten_text(self.better_shanten)} with {self.better_ukeire}"
        )


def _shanten_text(n: int) -> str:
    if n < 0:
        return "a complete hand"
    return "tenpai" if n == 0 else f"{n}-shanten"


# -- shapes, by hand key ------------------------------------------------------------

# A 3k+1 part by its counts as bytes (small, quick to hash): its shanten and the kinds
# that lower it.
_HANDS: dict[bytes, tuple[int, tuple[int, ...]]] = {}


def _shape(key: bytes) -> tuple[int, tuple[int, ...]]:
    found = _HANDS.get(key)
    if found is None:
        base, after = draw_shanten(key)
        found = (base, tuple(k for k in range(34) if after[k] < base))
        if len(_HANDS) > _CACHE_LIMIT:
            _HANDS.clear()
        _HANDS[key] = found
    return found


# What ``seen`` counts for a kind the game does not have (2m-8m with three players):
# no tile of it can come, so it is no tile the hand waits for.
NOT_IN_PLAY = 100


def _ukeire(kinds: tuple[int, ...], seen: Sequence[int]) -> Ukeire:
    # A log that shows a fifth tile of a kind is reported by the replay; here a
    # count never goes below nothing.
    kinds = tuple(k for k in kinds if seen[k] < NOT_IN_PLAY)
    return Ukeire(kinds, tuple(max(0, 4 - seen[k]) for k in kinds))


def hand_efficiency(counts: Sequence[int], seen: Sequence[int]) -> HandEfficiency:
    """Shanten and ukeire of a concealed part of 3k+1 tiles.

    ``seen``: the copies of each kind the seat can see, its own hand included.
    """
    base, kinds = _shape(bytes(counts))
    return HandEfficiency(base, _ukeire(kinds, seen))


def turn_efficiency(
    counts: Sequence[int], seen: Sequence[int], only: Iterable[int] | None = None
) -> TurnEfficiency:
    """Shanten of a concealed part of 3k+2 tiles and every discard's shanten and ukeire.

    ``seen`` as for :func:`hand_efficiency` (the hand's 3k+2 tiles included; a discard
    stays in sight in the pond, so every option counts against the same tiles).
    ``only`` limits the discards to these kinds (a seat in riichi, a kuikae ban).
    """
    total = sum(counts)
    if total % 3 != 2:
        raise ValueError(f"turn_efficiency() needs 3k+2 tiles, got {total}")
    held = [k for k in range(34) if counts[k]]
    if only is not None:
        allowed = set(only)
        held = [k for k in held if k in allowed]
    part = list(counts)
    options = []
    for k in held:
        part[k] -= 1
        base, kinds = _shape(bytes(part))
        part[k] += 1
        options.append(DiscardOption(k, base, _ukeire(kinds, seen)))
    return TurnEfficiency(shanten(counts), tuple(options))


def efficiency_note(turn: TurnEfficiency, discarded: int) -> EfficiencyNote | None:
    """The note on discarding ``discarded`` (a kind), or None when no discard did better.

    Better is a lower shanten, or the same shanten with strictly more unseen ukeire
    tiles; a discard that ties the best gets no note. The note names every discard
    that does best.
    """
    played = turn.option(discarded)
    best = turn.best
    if played is None or not best or played in best:
        return None
    top = best[0]
    return EfficiencyNote(
        discarded,
        played.shanten,
        played.ukeire.total,
        tuple(o.kind for o in best),
        top.shanten,
        top.ukeire.total,
    )


def seen_counts(state: RoundState, seat: int) -> list[int]:
    """The copies of each kind ``seat`` can see: its hand, the ponds (a discard called
    away counted once, in the meld), every meld and the dora indicators turned."""
    seen = [0] * 34
    for t in state.hands[seat]:
        seen[t.kind] += 1
    called = state.called_discards
    for s in range(state.players):
        for ev, index in zip(state.pond_events[s], state.discard_indexes[s], strict=True):
            if index not in called:
                seen[ev.tile.kind] += 1
        for meld in state.melds[s]:
            for t in meld.tiles:
                seen[t.kind] += 1
    for indicator in state.dora:
        if indicator is not None:
            seen[indicator.kind] += 1
    if state.players == 3:
        seen[1:8] = [NOT_IN_PLAY] * 7  # three players: no 2m to 8m (docs/wall.md)
    return seen


# -- the replay observer ---------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class SeatTurn:
    """One own turn of a seat: the hand of 3k+2 tiles, and the discard that followed.

    ``event_index`` is the draw or the call that began the turn; ``discard_index`` the
    discard that ended it (None when it ended otherwise: a win, a kan, a draw of the
    hand). ``kept`` is what the discard left (its shanten and ukeire); ``note`` the
    efficiency note on it, never given to a seat in riichi (its discard is forced).
    """

    round_no: int
    seat: int
    event_index: int
    called: bool  # the turn began with a chi or pon, not a draw
    live_remaining: int
    riichi: bool
    hand: str  # the concealed tiles, mpsz
    turn: TurnEfficiency
    discard_index: int | None = None
    discarded: Tile | None = None
    kept: DiscardOption | None = None
    note: EfficiencyNote | None = None

    @property
    def shanten(self) -> int:
        return self.turn.shanten


class EfficiencyTracker:
    """Shanten, ukeire, the live wall and efficiency notes at each own turn of ``seats``
    (every seat when None); implements :class:`analyzer.engine.replay.ReplayObserver`.

    ``turns`` holds every :class:`SeatTurn` by (round, the event that began it), and
    ``discards`` the same records by (round, the discard that ended it).
    """

    def __init__(self, seats: Iterable[int] | None = None) -> None:
        self.seats = None if seats is None else frozenset(seats)
        self.turns: dict[tuple[int, int], SeatTurn] = {}
        self.discards: dict[tuple[int, int], SeatTurn] = {}
        self.notes = 0
        # The seats disconnected at each event (analyzer.engine.replay.seats_away): the
        # server discards what they draw, which is no play to note.
        self.away: tuple[frozenset[int], ...] = ()
        self._round = 0
        self._watched: frozenset[int] = frozenset()
        self._open: SeatTurn | None = None

    def at(self, round_no: int, index: int) -> SeatTurn | None:
        """The turn that began or ended at event ``index`` of round ``round_no``."""
        key = (round_no, index)
        return self.turns.get(key) or self.discards.get(key)

    def start_round(self, state: RoundState) -> None:
        self._round = state.record.index
        self._open = None
        seats = frozenset(range(state.players))
        if self.seats is not None:
            seats &= self.seats
        # A hand the log broke at its deal is no hand to read.
        self._watched = seats if state.record.complete else frozenset()

    def step(self, index: int, event: Event, state: RoundState) -> None:
        kind = type(event)
        if kind is Discard:
            assert isinstance(event, Discard)
            if self._open is not None and self._open.seat == event.seat:
                self._close(index, event, state)
            return
        if kind is DrawTile:
            assert isinstance(event, DrawTile)
            self._open = None
            if event.seat in self._watched:
                self._begin(index, event.seat, state, False, (event.tile.kind,))
        elif kind is DeclareMeld:
            assert isinstance(event, DeclareMeld)
            self._open = None  # a kan or a kita ends the turn without a discard
            meld = event.meld.kind
            if event.seat in self._watched and meld in (MeldKind.CHI, MeldKind.PON):
                self._begin(index, event.seat, state, True, ())
        elif self._open is not None and not isinstance(event, _KEEP_TURN):
            self._open = None

    def end_round(self, state: RoundState) -> None:
        self._open = None

    def _begin(
        self, index: int, seat: int, state: RoundState, called: bool, drawn: tuple[int, ...]
    ) -> None:
        hand = state.hands[seat]
        if len(hand) % 3 != 2:
            return
        counts = [0] * 34
        for t in hand:
            counts[t.kind] += 1
        riichi = state.riichi[seat]
        only: Iterable[int] | None = None
        if riichi:
            only = drawn  # the tile drawn is the one discard
        elif state.swap_ban is not None and state.swap_ban[0] == seat:
            banned = state.swap_ban[1]
            allowed = [k for k in range(34) if counts[k] and k not in banned]
            only = allowed or None  # a hand of nothing but banned kinds discards one
        turn = SeatTurn(
            self._round,
            seat,
            index,
            called,
            state.live_remaining,
            riichi,
            to_mpsz(hand),
            turn_efficiency(counts, seen_counts(state, seat), only),
        )
        self.turns[(self._round, index)] = turn
        self._open = turn

    def _close(self, index: int, event: Discard, state: RoundState) -> None:
        turn = self._open
        assert turn is not None
        self._open = None
        kind = event.tile.kind
        kept = turn.turn.option(kind)
        if kept is None:  # a discard the options left out (a log that breaks riichi)
            seen = seen_counts(state, event.seat)
            counts = [0] * 34
            for t in state.hands[event.seat]:
                counts[t.kind] += 1
            found = hand_efficiency(counts, seen)
            kept = DiscardOption(kind, found.shanten, found.ukeire)
        # A seat in riichi discards what it draws: nothing to note.
        away = index < len(self.away) and event.seat in self.away[index]
        note = None if state.riichi[event.seat] or away else efficiency_note(turn.turn, kind)
        if note is not None:
            self.notes += 1
        done = replace(turn, discard_index=index, discarded=event.tile, kept=kept, note=note)
        self.turns[(self._round, turn.event_index)] = done
        self.discards[(self._round, index)] = done
