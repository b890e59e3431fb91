"""The step-through board: one compact frame per event of a round.

A :class:`FrameRecorder` follows the replay (it is a ``ReplayObserver``) and writes
down, after every event, what the board shows: the hands, melds, ponds, dora
indicators, scores, riichi, and the waits and furiten state of each seat. Frames
are plain strings of mpsz tokens so that a long game stays small; the page's
script turns them into tiles, and :func:`board_view` turns the last one into the
static board shown without script.

Token grammar (also read by templates/report.js):
- a hand: ``1m2m3m0p...``; a pond tile may carry flags ``t`` (tsumogiri),
  ``r`` (riichi tile, turned), ``c`` (called away);
- a meld: tiles with ``^`` after the called (turned) tile and ``b`` for a tile
  shown face down (the ends of a concealed kan).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from analyzer.engine.replay import RoundState, counts34
from analyzer.hands.hand import waits
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawTile,
    Event,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    Win,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz
from reports.tiles_svg import group_html

__all__ = [
    "BoardView",
    "Frame",
    "FrameRecorder",
    "SeatBoard",
    "SeatState",
    "board_view",
    "compact",
    "meld_tokens",
    "tile_group",
    "wind_of",
]

WINDS = ("East", "South", "West", "North")


def wind_of(seat: int, dealer: int, players: int) -> str:
    return WINDS[(seat - dealer) % players]


@dataclass(frozen=True, slots=True)
class SeatState:
    """What the furiten display needs for one seat at one step."""

    waits: str  # mpsz, "" when not tenpai
    furiten: str | None  # the cause when furiten, "" when not, None when unknown


Frame = dict[str, object]
SeatStates = Callable[[int, int, RoundState], tuple[SeatState, ...] | None]


def meld_tokens(meld: Meld, seat: int) -> str:
    """A meld as tokens; the called tile is turned and placed toward its source
    (left player: first; opposite: middle; right player: last)."""
    tiles = list(meld.tiles)
    if meld.kind is MeldKind.ANKAN:
        return "".join(f"{t}{'b' if k in (0, 3) else ''}" for k, t in enumerate(tiles))
    if meld.kind is MeldKind.KITA or meld.called is None or meld.from_seat is None:
        return "".join(str(t) for t in tiles)
    rest = list(tiles)
    rest.remove(meld.called)
    extra = ""
    if meld.kind is MeldKind.KAKAN and meld.added is not None and meld.added in rest:
        rest.remove(meld.added)
        extra = f"{meld.added}^"
    rest.sort(key=lambda t: (t.kind, not t.red))
    relative = (meld.from_seat - seat) % 4
    at = {3: 0, 2: 1, 1: len(rest)}.get(relative, 0)
    tokens = [str(t) for t in rest]
    tokens.insert(at, f"{meld.called}^{extra}")
    return "".join(tokens)


def _pond(state: RoundState, seat: int) -> str:
    out = []
    for p in state.pond(seat):
        flags = ("t" if p.tsumogiri else "") + ("r" if p.riichi else "") + ("c" if p.called else "")
        out.append(f"{p.tile}{flags}")
    return "".join(out)


def _hand(tiles: Sequence[Tile]) -> str:
    return "".join(str(t) for t in sorted(tiles, key=lambda t: (t.kind, not t.red)))


def _caption(ev: Event, names: Sequence[str], state: RoundState) -> str:
    players = state.players
    dealer = state.start.dealer

    def who(seat: int) -> str:
        return f"{wind_of(seat, dealer, players)} {names[seat]}"

    match ev:
        case DrawTile():
            return f"{who(ev.seat)} draws {ev.tile}"
        case Discard():
            return f"{who(ev.seat)} discards {ev.tile}" + (" (tsumogiri)" if ev.tsumogiri else "")
        case DeclareMeld():
            return f"{who(ev.seat)} calls {ev.meld.kind.value} {to_mpsz(ev.meld.tiles)}"
        case DoraReveal():
            return f"new dora indicator {ev.indicator}"
        case RiichiDeclared():
            return f"{who(ev.seat)} declares riichi"
        case RiichiAccepted():
            return f"{who(ev.seat)}'s riichi stick is paid"
        case Win():
            if ev.tsumo:
                return f"{who(ev.seat)} wins by tsumo"
            return f"{who(ev.seat)} wins by ron on {who(ev.from_seat)}"
        case RoundDraw():
            return f"draw: {ev.reason.value}"
        case _:
            return type(ev).__name__


class FrameRecorder:
    """Records one frame per replay step for every round (a ``ReplayObserver``).

    ``seat_states`` gives the waits and furiten of each seat at a step (from the
    furiten tracker when it is available); without it waits are computed here and
    furiten is unknown.
    """

    def __init__(self, names: Sequence[str], seat_states: SeatStates | None = None) -> None:
        self.names = tuple(names)
        self.seat_states = seat_states
        self.rounds: list[list[Frame]] = []
        self._waits_cache: dict[str, str] = {}
        self._round = -1

    def start_round(self, state: RoundState) -> None:
        self._round += 1
        self.rounds.append([])
        start = state.start
        dealer = start.dealer
        caption = (
            f"{start.label}: dealer {wind_of(dealer, dealer, state.players)} "
            + (self.names[dealer])
        )
        self._record(state.event_index, caption, None, state)

    def step(self, index: int, event: Event, state: RoundState) -> None:
        active = getattr(event, "seat", None)
        self._record(index, _caption(event, self.names, state), active, state, event)

    def end_round(self, state: RoundState) -> None:
        pass

    def _waits(self, hand: Sequence[Tile], nsets: int) -> str:
        if len(hand) + 3 * nsets != 13:
            return ""
        key = _hand(hand)
        found = self._waits_cache.get(key)
        if found is None:
            found = to_mpsz(Tile(k) for k in sorted(waits(counts34(list(hand)))))
            self._waits_cache[key] = found
        return found

    def _record(
        self,
        index: int,
        caption: str,
        active: int | None,
        state: RoundState,
        event: Event | None = None,
    ) -> None:
        players = state.players
        seats = range(players)
        drawn: list[str] = [""] * players
        hands: list[str] = []
        for s in seats:
            hand = list(state.hands[s])
            if isinstance(event, DrawTile) and event.seat == s and hand and hand[-1] == event.tile:
                drawn[s] = str(hand.pop())
            hands.append(_hand(hand))
        external = (
            self.seat_states(self._round, index, state) if self.seat_states is not None else None
        )
        if external is not None:
            wait_text = [external[s].waits for s in seats]
            furiten: list[str | None] = [external[s].furiten for s in seats]
        else:
            wait_text = [self._waits(state.hands[s], state.nsets[s]) for s in seats]
            furiten = [None] * players
        frame: Frame = {
            "i": index,
            "c": caption,
            "a": active if active is not None else -1,
            "h": hands,
            "n": drawn,
            "m": [[meld_tokens(m, s) for m in state.melds[s]] for s in seats],
            "p": [_pond(state, s) for s in seats],
            "d": "".join(str(t) if t is not None else "1zb" for t in state.dora),
            "l": state.live_remaining,
            "s": list(state.scores[:players]),
            "k": state.sticks,
            "r": [1 if state.riichi[s] or state.declaring == s else 0 for s in seats],
            "w": wait_text,
            "f": furiten,
        }
        self.rounds[self._round].append(frame)


def compact(frames: Sequence[Frame]) -> list[Frame]:
    """Each frame keeps only the fields that changed since the one before (the
    script fills the rest in again); the first frame is whole."""
    out: list[Frame] = []
    prev: Frame = {}
    for f in frames:
        out.append({k: v for k, v in f.items() if k == "i" or prev.get(k) != v})
        prev = f
    return out


_TOKEN = re.compile(r"([0-9][mpsz])([trcb^]*)")


@dataclass(frozen=True, slots=True)
class SeatBoard:
    seat: int
    wind: str
    name: str
    score: int
    riichi: bool
    active: bool
    hand: Markup
    drawn: Markup
    melds: tuple[Markup, ...]
    pond: Markup
    waits: Markup
    furiten: str | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board at one step, drawn on the server (what the page shows without script)."""

    caption: str
    step: int
    steps: int
    dora: Markup
    left: int
    sticks: int
    seats: tuple[SeatBoard, ...]


def tile_group(tokens: str, kind: str) -> Markup:
    tiles: list[Tile | None] = []
    css: list[str] = []
    text: list[Tile] = []
    for tile, flags in _TOKEN.findall(tokens):
        t = Tile(tile)
        tiles.append(None if "b" in flags else t)
        classes = []
        if "t" in flags:
            classes.append("tsumogiri")
        if "r" in flags or "^" in flags:
            classes.append("side")
        if "c" in flags:
            classes.append("called")
        css.append(" ".join(classes))
        if "b" not in flags or kind == "meld":
            text.append(t)
    mpsz = to_mpsz(text, sort=kind != "pond")
    return group_html(tiles, mpsz, css) if tiles else Markup("")


def board_view(frame: Frame, step: int, steps: int, names: Sequence[str], dealer: int) -> BoardView:
    """The static board of one (whole, not compacted) frame."""
    hands = _strs(frame["h"])
    players = len(hands)
    seats = []
    for s in range(players):
        furiten = _opt(frame["f"], s)
        seats.append(
            SeatBoard(
                seat=s,
                wind=wind_of(s, dealer, players),
                name=names[s],
                score=_ints(frame["s"])[s],
                riichi=bool(_ints(frame["r"])[s]),
                active=frame["a"] == s,
                hand=tile_group(hands[s], "hand"),
                drawn=tile_group(_strs(frame["n"])[s], "hand"),
                melds=tuple(tile_group(m, "meld") for m in _meld_lists(frame["m"])[s]),
                pond=tile_group(_strs(frame["p"])[s], "pond"),
                waits=tile_group(_strs(frame["w"])[s], "hand")
                if _strs(frame["w"])[s]
                else Markup(""),
                furiten=furiten,
            )
        )
    return BoardView(
        caption=str(frame["c"]),
        step=step,
        steps=steps,
        dora=tile_group(str(frame["d"]), "pond"),
        left=int(str(frame["l"])),
        sticks=int(str(frame["k"])),
        seats=tuple(seats),
    )


def _strs(value: object) -> list[str]:
    assert isinstance(value, list)
    return [str(v) for v in value]


def _ints(value: object) -> list[int]:
    assert isinstance(value, list)
    return [int(v) for v in value]


def _opt(value: object, s: int) -> str | None:
    assert isinstance(value, list)
    v = value[s]
    return None if v is None else str(v)


def _meld_lists(value: object) -> list[list[str]]:
    assert isinstance(value, list)
    return [[str(m) for m in seat] for seat in value]
